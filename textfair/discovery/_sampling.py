"""How much to sample, and in which order: shared by every discovery algorithm."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from textfair.core.domain import Domain

__all__ = ["Sampling", "batches", "seed_order"]


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
