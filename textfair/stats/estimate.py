"""Proportions, differences of proportions and their intervals; the sequential stopping rule.

Pure functions over counts; each returns a small frozen dataclass. Two interval families:

* ``wald`` — what TestSGD and Themis use: p ± z·sqrt(p(1-p)/n). Its width is 0 when p is 0 or
  1, so sampling stops too early and rare discrimination is missed; kept for comparison with
  the papers.
* ``wilson`` (default) — the score interval; it keeps its coverage near p = 0 or 1 and for
  small n. Differences use Newcombe's hybrid score interval built from two Wilson intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

from textfair.errors import TextfairError

__all__ = [
    "Difference",
    "Proportion",
    "StoppingDecision",
    "difference",
    "proportion",
    "should_stop",
    "t_p_value",
    "t_value",
    "testsgd_margin",
    "z_value",
]

Method = Literal["wilson", "wald"]


def z_value(confidence: float) -> float:
    """Two-sided normal quantile: 1.96 at 0.95, 2.576 at 0.99."""
    if not 0.0 <= confidence < 1.0:
        raise TextfairError(f"confidence is {confidence}; expected a number between 0 and 1")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def t_value(confidence: float, df: int) -> float:
    """Two-sided Student t quantile, by the Cornish-Fisher expansion around the normal one.

    Within 0.003 of the exact value for df >= 5 at 95%; the normal quantile as df grows.
    """
    z = z_value(confidence)
    if df <= 0:
        return math.inf
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def t_p_value(statistic: float, df: int) -> float:
    """Two-sided p-value of a t statistic: the level at which t_value reaches it (bisection)."""
    if df <= 0 or math.isnan(statistic):
        return 1.0
    target = abs(statistic)
    low, high = 0.0, 1.0 - 1e-15  # confidence levels
    if t_value(high, df) <= target:
        return 1e-15
    for _ in range(60):
        middle = (low + high) / 2
        if t_value(middle, df) < target:
            low = middle
        else:
            high = middle
    return 1.0 - (low + high) / 2


@dataclass(frozen=True)
class Proportion:
    """successes / n with an interval [low, high] at `confidence`."""

    estimate: float
    low: float
    high: float
    successes: int
    n: int
    confidence: float
    method: str


@dataclass(frozen=True)
class Difference:
    """p1 - p2 with an interval; `margin` is TestSGD's error bound for the same counts."""

    estimate: float
    low: float
    high: float
    margin: float
    first: Proportion
    second: Proportion
    confidence: float
    method: str


def proportion(
    successes: int, n: int, confidence: float = 0.95, method: Method = "wilson"
) -> Proportion:
    """The proportion successes/n with a Wilson (default) or Wald interval."""
    _check_counts(successes, n)
    z = z_value(confidence)
    if n == 0:
        return Proportion(math.nan, 0.0, 1.0, 0, 0, confidence, method)
    p = successes / n
    if method == "wald":
        half = z * math.sqrt(p * (1 - p) / n)
        low, high = max(0.0, p - half), min(1.0, p + half)
    elif method == "wilson":
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
        low, high = max(0.0, centre - half), min(1.0, centre + half)
    else:
        raise TextfairError(f"unknown interval method {method!r}; expected wilson or wald")
    return Proportion(p, low, high, successes, n, confidence, method)


def testsgd_margin(first: Proportion, second: Proportion) -> float:
    """TestSGD Alg. 2's error bound: z·sqrt(p1(1-p1)/n1) + z·sqrt(p2(1-p2)/n2)."""
    z = z_value(first.confidence)
    return sum(
        z * math.sqrt(p.estimate * (1 - p.estimate) / p.n) if p.n else math.inf
        for p in (first, second)
    )


def difference(
    successes_1: int,
    n_1: int,
    successes_2: int,
    n_2: int,
    confidence: float = 0.95,
    method: Method = "wilson",
) -> Difference:
    """p1 - p2 with Newcombe's hybrid score interval (method="wilson") or a Wald interval."""
    first = proportion(successes_1, n_1, confidence, method)
    second = proportion(successes_2, n_2, confidence, method)
    margin = testsgd_margin(first, second)
    if n_1 == 0 or n_2 == 0:
        return Difference(math.nan, -1.0, 1.0, margin, first, second, confidence, method)
    d = first.estimate - second.estimate
    if method == "wald":
        z = z_value(confidence)
        half = z * math.sqrt(
            first.estimate * (1 - first.estimate) / n_1
            + second.estimate * (1 - second.estimate) / n_2
        )
        low, high = d - half, d + half
    else:
        low = d - math.sqrt(
            (first.estimate - first.low) ** 2 + (second.high - second.estimate) ** 2
        )
        high = d + math.sqrt(
            (first.high - first.estimate) ** 2 + (second.estimate - second.low) ** 2
        )
    return Difference(d, max(-1.0, low), min(1.0, high), margin, first, second, confidence, method)


@dataclass(frozen=True)
class StoppingDecision:
    """Whether sampling can stop, and why."""

    stop: bool
    reason: str
    half_width: float


def should_stop(
    successes_1: int,
    n_1: int,
    successes_2: int,
    n_2: int,
    *,
    error: float = 0.05,
    confidence: float = 0.95,
    min_samples: int = 100,
    max_samples: int = 10_000,
) -> StoppingDecision:
    """TestSGD's stopping rule, checked once per batch: stop when the interval of p1 - p2 is
    at most ±`error` wide, but never before `min_samples` per side; always at `max_samples`.

    The half-width comes from Newcombe's interval, so a proportion of 0 or 1 does not end
    sampling after the minimum the way a zero-width Wald margin does.
    """
    n = min(n_1, n_2)
    if n < min_samples:
        return StoppingDecision(False, "below min_samples", math.inf)
    diff = difference(successes_1, n_1, successes_2, n_2, confidence)
    half_width = max(diff.estimate - diff.low, diff.high - diff.estimate)
    if half_width <= error:
        return StoppingDecision(True, "error bound reached", half_width)
    if n >= max_samples:
        return StoppingDecision(True, "max_samples reached", half_width)
    return StoppingDecision(False, "error bound not reached", half_width)


def _check_counts(successes: int, n: int) -> None:
    if n < 0 or successes < 0 or successes > n:
        raise TextfairError(
            f"counts {successes}/{n}: expected 0 <= successes <= n; check the tallies"
        )
