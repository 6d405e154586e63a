"""Random generators fixed by what they draw for, never by the order of the drawing: a seed
input's own generator (`seed_rng`) and a named estimate's (`keyed_rng`)."""

from __future__ import annotations

import zlib

import numpy as np

from textfair.core.domain import Domain

__all__ = ["keyed_rng", "seed_rng"]


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
