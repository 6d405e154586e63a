"""Two-proportion tests and corrections for testing many groups at once.

An audit tests hundreds of rule sets; at 95% each, a perfectly fair model would still show
about one "significant" group in twenty. Holm's method keeps the chance of any false finding
(the family-wise error rate) at alpha; Benjamini-Hochberg keeps the expected share of false
findings among those reported (the false discovery rate) at alpha.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from textfair.errors import TextfairError

__all__ = [
    "CORRECTION_NAMES",
    "Adjusted",
    "adjust",
    "benjamini_hochberg",
    "holm",
    "two_proportion_p_value",
]

# The corrections in words, as every report surface names them ("none" is "no correction").
CORRECTION_NAMES = {"holm": "Holm's correction", "bh": "the Benjamini-Hochberg correction"}


def two_proportion_p_value(successes_1: int, n_1: int, successes_2: int, n_2: int) -> float:
    """Two-sided p-value of the pooled z-test of p1 = p2 (1.0 when it cannot be computed)."""
    if n_1 == 0 or n_2 == 0:
        return 1.0
    pooled = (successes_1 + successes_2) / (n_1 + n_2)
    variance = pooled * (1 - pooled) * (1 / n_1 + 1 / n_2)
    if variance == 0:
        return 1.0  # both groups all 0 or all 1: no evidence of a difference
    z = (successes_1 / n_1 - successes_2 / n_2) / math.sqrt(variance)
    return 2 * (1 - NormalDist().cdf(abs(z)))


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm step-down adjusted p-values (controls the family-wise error rate)."""
    p = _as_array(p_values)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    result = np.empty(m)
    result[order] = np.minimum(adjusted, 1.0)
    return result


def benjamini_hochberg(p_values: Sequence[float]) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (controls the false discovery rate)."""
    p = _as_array(p_values)
    m = len(p)
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    adjusted = np.minimum.accumulate(scaled[::-1])[::-1]
    result = np.empty(m)
    result[order] = np.minimum(adjusted, 1.0)
    return result


@dataclass(frozen=True)
class Adjusted:
    """Adjusted p-values and which tests are significant at alpha."""

    p_adjusted: np.ndarray
    significant: np.ndarray
    method: str
    alpha: float


def adjust(p_values: Sequence[float], method: str = "holm", alpha: float = 0.05) -> Adjusted:
    """Adjust p-values with "holm" (default), "bh" or "none" and flag p_adjusted <= alpha."""
    corrections = {"holm": holm, "bh": benjamini_hochberg, "none": _as_array}
    if method not in corrections:
        raise TextfairError(f"unknown correction {method!r}; expected holm, bh or none")
    adjusted = corrections[method](p_values)
    return Adjusted(adjusted, adjusted <= alpha, method, alpha)


def _as_array(p_values: Sequence[float]) -> np.ndarray:
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1 or ((p < 0) | (p > 1) | np.isnan(p)).any():
        raise TextfairError("p-values must be a flat list of numbers between 0 and 1")
    return p
