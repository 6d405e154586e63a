r"""The AUC of a classifier's scores, its interval, and the comparison of two AUCs that share
texts: the statistics under the label-based bias metrics (`stats.label_metrics`).

* An AUC's interval is the score-type interval of Newcombe (2006, "Part 2", method 5): the
  values $\theta$ with $(\hat A - \theta)^2 \le z^2 V(\theta)$, $V$ the Hanley-McNeil
  variance at $\theta$ (not at $\hat A$) with Newcombe's mean class size. It stays
  inside [0, 1] and keeps its width when the estimate is 0 or 1, where a Wald interval
  (DeLong's or Hanley-McNeil's variance at $\hat A$) shrinks to a point; ties make the
  true variance smaller, so they only widen it.
* The difference of two AUCs has the MOVER interval of Zou & Donner (2008) built from the
  two score intervals and their DeLong correlation (the two AUCs share texts). Its p-value
  is $1 -$ the confidence at which that interval reaches 0, so the interval excludes 0
  exactly when $p < \alpha$.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from textfair.errors import TextfairError
from textfair.stats.estimate import z_value

__all__ = ["DelongAuc", "IntervalAt", "auc", "auc_difference", "auc_interval", "difference_p_value"]

IntervalAt = Callable[[float], tuple[float, float]]
"""An interval as a function of the normal quantile it is taken at."""


def auc(labels: np.ndarray, scores: np.ndarray) -> float:
    r"""ROC AUC by the Mann-Whitney statistic (ties count half); NaN without both classes.

    With $P$ positives scoring $p_i$ and $N$ negatives scoring $n_j$,
    $\mathrm{AUC} = \frac{1}{PN} \sum_{i,j} \left([p_i > n_j] + \tfrac12 [p_i = n_j]\right)$:
    each positive's count of lower and of equal negatives, read by binary search in the
    sorted negatives. Every term is a multiple of one half, so the sum is exact, and equal
    to the rank form (sum of the positives' average ranks less $P(P+1)/2$).
    """
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=np.float64)
    positives, negatives = s[y], np.sort(s[~y])
    if len(positives) == 0 or len(negatives) == 0:
        return math.nan
    below = np.searchsorted(negatives, positives, side="left")
    through = np.searchsorted(negatives, positives, side="right")
    pairs = below.sum() + 0.5 * (through - below).sum()
    return float(pairs / (len(positives) * len(negatives)))


def auc_interval(
    value: float, positives: int, negatives: int, confidence: float = 0.95
) -> tuple[float, float]:
    r"""The score-type interval of an AUC (Newcombe 2006, "Part 2", method 5).

    The values $\theta \in [0, 1]$ with $(\hat A - \theta)^2 \le z^2 V(\theta)$, where
    $V(\theta) = \frac{\theta(1-\theta)}{PN}\left[1 + (N^* - 1)\left(\frac{1-\theta}{2-\theta}
    + \frac{\theta}{1+\theta}\right)\right]$ is Hanley and McNeil's (1982) variance at
    $\theta$ ($Q_1 = \theta/(2-\theta)$, $Q_2 = 2\theta^2/(1+\theta)$) with both class
    sizes less one replaced by $N^* - 1 = (P + N)/2 - 1$. Hanley and McNeil's own weights
    ($P - 1$, $N - 1$) follow their exponential model's shape, and with unequal classes
    (300 positives, 10 negatives: a BPSN AUC) cover 75% at a stated 95% on binormal scores;
    $N^*$ covers 96-97% there and wherever tests/unit/stats/test_auc_intervals.py looks.
    The two roots either side of $\hat A$ are found by bisection; at $\hat A = 1$ the upper
    end is 1 and the lower one still below it.

    Parameters
    ----------
    value : float
        The AUC, $\hat A$.
    positives, negatives : int
        $P$ and $N$, the texts of each class it ranks (at least 1 each).
    confidence : float
        The interval's coverage, e.g. 0.95.
    """
    return _score_interval(value, positives, negatives, z_value(confidence))


def _score_interval(value: float, positives: int, negatives: int, z: float) -> tuple[float, float]:
    from scipy.optimize import brentq

    if positives < 1 or negatives < 1 or math.isnan(value):
        raise TextfairError(f"an AUC interval needs both classes; got {positives} and {negatives}")

    middle = (positives + negatives) / 2 - 1  # Newcombe's N* - 1 for both classes

    def excess(theta: float) -> float:  # < 0 inside the interval
        spread = 1 + middle * ((1 - theta) / (2 - theta) + theta / (1 + theta))
        variance = theta * (1 - theta) * spread / (positives * negatives)
        return (value - theta) ** 2 - z * z * variance

    if z == 0:
        return value, value
    edge = 1e-12  # at an estimate of 0 or 1 the function is 0 there too: start just inside
    low = 0.0 if value <= 0 else brentq(excess, 0.0, min(value, 1 - edge), xtol=1e-12)
    high = 1.0 if value >= 1 else brentq(excess, max(value, edge), 1.0, xtol=1e-12)
    return float(min(low, value)), float(max(high, value))


@dataclass(frozen=True)
class DelongAuc:
    """One AUC, its score interval and each text's DeLong term (0 for texts it leaves out)."""

    value: float
    ci: tuple[float, float] | None
    positives: int
    negatives: int
    influence: np.ndarray

    @classmethod
    def of(
        cls,
        scores: np.ndarray,
        positive: np.ndarray,
        negative: np.ndarray,
        z: float,
        least: int,
    ) -> DelongAuc:
        r"""The AUC of the texts in `positive` against those in `negative`.

        DeLong's placements: $V_{10}(i)$, the share of negatives below positive $i$ (ties
        half), and $V_{01}(j)$, the share of positives above negative $j$; text $i$'s term
        is $(V_{10}(i) - \hat A)/P$ (or $(V_{01}(j) - \hat A)/N$), so that
        $\hat A - A \approx \sum_i \text{term}_i$.
        """
        p, n = int(positive.sum()), int(negative.sum())
        influence = np.zeros(len(scores))
        if p < least or n < least or p == 0 or n == 0:
            return cls(math.nan, None, p, n, influence)
        pos, neg = scores[positive], scores[negative]
        low_neg, high_neg = np.sort(neg), np.sort(pos)
        v10 = (np.searchsorted(low_neg, pos, "left") + np.searchsorted(low_neg, pos, "right")) / (
            2.0 * n
        )
        v01 = (
            2 * p - np.searchsorted(high_neg, neg, "left") - np.searchsorted(high_neg, neg, "right")
        ) / (2.0 * p)
        value = auc(positive[positive | negative], scores[positive | negative])
        influence[positive] = (v10 - value) / p
        influence[negative] = (v01 - value) / n
        return cls(value, _score_interval(value, p, n, z), p, n, influence)


def auc_difference(
    first: DelongAuc, second: DelongAuc, strata: Sequence[np.ndarray]
) -> tuple[float, IntervalAt]:
    r"""`first` - `second`, and its MOVER interval as a function of the normal quantile
    (from the correlation of the two).

    The covariance of the two AUCs is DeLong's, with the texts sampled within each stratum
    (class by subgroup): $\sum_s n_s \widehat{\mathrm{cov}}_s(\text{term}^1, \text{term}^2)$.
    """
    covariance = variance_1 = variance_2 = 0.0
    for stratum in strata:
        count = int(stratum.sum())
        if count < 2:
            continue
        a, b = first.influence[stratum], second.influence[stratum]
        matrix = np.cov(a, b)
        covariance += count * matrix[0, 1]
        variance_1 += count * matrix[0, 0]
        variance_2 += count * matrix[1, 1]
    both = variance_1 * variance_2
    r = float(np.clip(covariance / math.sqrt(both), -1.0, 1.0)) if both > 0 else 0.0

    def interval(at: float) -> tuple[float, float]:
        l1, u1 = _score_interval(first.value, first.positives, first.negatives, at)
        l2, u2 = _score_interval(second.value, second.positives, second.negatives, at)
        return _mover(first.value, (l1, u1), second.value, (l2, u2), r)

    return first.value - second.value, interval


def _mover(
    first: float,
    first_ci: tuple[float, float],
    second: float,
    second_ci: tuple[float, float],
    r: float = 0.0,
) -> tuple[float, float]:
    r"""The MOVER interval of `first` - `second` from their intervals (Zou & Donner 2008):
    $L = d - \sqrt{(a - l_a)^2 + (u_b - b)^2 - 2r(a - l_a)(u_b - b)}$ and
    $U = d + \sqrt{(u_a - a)^2 + (b - l_b)^2 - 2r(u_a - a)(b - l_b)}$, $r$ their
    correlation."""
    below, above = first - first_ci[0], first_ci[1] - first
    under, over = second - second_ci[0], second_ci[1] - second
    d = first - second
    low = d - math.sqrt(max(below**2 + over**2 - 2 * r * below * over, 0.0))
    high = d + math.sqrt(max(above**2 + under**2 - 2 * r * above * under, 0.0))
    return low, high


def difference_p_value(d: float, interval: IntervalAt) -> float:
    """Two-sided: 2 P(Z > z*), z* the normal quantile at which the interval's end nearest 0
    reaches it (so p < alpha exactly when the interval at 1 - alpha excludes 0)."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    if d == 0:
        return 1.0

    def nearest(z: float) -> float:  # the end on the side of 0, signed so it rises through 0
        low, high = interval(z)
        return high if d < 0 else -low

    far = 40.0
    if nearest(far) < 0:
        return float(2 * norm.sf(far))
    return float(2 * norm.sf(brentq(nearest, 0.0, far, xtol=1e-10)))
