"""Seeded synthetic corpora and deterministic pseudo-random models for discovery tests."""

import hashlib

import numpy as np

from textfair.text.templates import expand_template

FILLER = (
    "posted the notes",
    "asked a question",
    "fixed the typo",
    "wrote a reply",
    "read the page",
    "left a comment",
    "joined the project",
    "reverted an edit",
)


def corpus(n_per_template=40, seed=0):
    """Real sentences: templates over gender and religion, each with a filler clause."""
    rng = np.random.default_rng(seed)
    texts = []
    for template in (
        "A {gender} {religion} editor {x}.",
        "The {religion} user who is {gender} {x}.",
    ):
        for variant in expand_template(
            template.replace("{x}", "XX"), categories=None, max_variants=n_per_template, seed=seed
        ):
            texts.append(variant.text.replace("XX", FILLER[int(rng.integers(len(FILLER)))]))
    return texts


def unit(text: str) -> float:
    """A deterministic pseudo-random number in [0, 1) from a text."""
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) / 2**32
