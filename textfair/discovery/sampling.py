"""How much to sample, and in which order: shared by every discovery algorithm."""

from __future__ import annotations

import itertools
import zlib
from dataclasses import dataclass

import numpy as np

from textfair.discovery.rulesets import Domain

__all__ = ["Sampling", "batches", "keyed_rng", "seed_order", "seed_rng"]


@dataclass(frozen=True)
class Sampling:
    """How long to sample each estimate, and the run's seed."""

    confidence: float = 0.95
    """Of every interval, before any multiple-testing correction."""
    error: float = 0.05
    """Sampling stops once an interval's half-width is at most this."""
    min_samples: int = 100
    """Seeds per side before the stopping rule is first checked."""
    max_samples: int = 1000
    """Seeds per side at most, whatever the interval's width."""
    seed: int = 0


def seed_order(domain: Domain, seed: int) -> np.ndarray:
    """One random order of all seed inputs for a run. Every analysis takes its seeds in this
    order, so they share seeds, and therefore generated inputs and model answers."""
    n = len(domain.category_mask(domain.categories()[0]))
    return np.random.default_rng(seed).permutation(n)


def batches(total: int, min_samples: int, step: int) -> list[tuple[int, int]]:
    """[begin, end) ranges over `total` seeds for sequential sampling: the first covers
    `min_samples` (no stopping check can pass before it, so it goes to the model in one
    call), the rest `step` seeds each, with a stopping check after every range."""
    first = min(total, max(min_samples, step))
    bounds = [0, *range(first, total, step), total] if total else [0]
    return [(begin, end) for begin, end in itertools.pairwise(bounds) if end > begin]


def seed_rng(domain: Domain, index: int, *keys: str) -> np.random.Generator:
    """A random generator fixed by seed input `index` (its text, or a row's repr) and `keys`,
    never by the run's --seed: what it draws for a seed (which assignments, which joint
    variants) is the same in every run, so estimands do not depend on the run's seed and a
    text once scored is found in the cache again."""
    seed_input = domain.input(index)
    text = seed_input if isinstance(seed_input, str) else repr(seed_input)
    text_key = zlib.crc32(text.encode("utf-8", "surrogatepass"))
    return np.random.default_rng([text_key, zlib.crc32("|".join(keys).encode())])


def keyed_rng(seed: int, *keys: str) -> np.random.Generator:
    """A random generator fixed by the run's `seed` and `keys` (a rule set's name): what one
    estimate draws does not depend on what was drawn for others before it, so a rule set's
    finding is the same whichever other rule sets the run scores."""
    return np.random.default_rng([seed, zlib.crc32("|".join(keys).encode())])
