r"""Label-based bias metrics for classifiers with a score (Borkan et al. 2019; Dixon et al. 2018).

For an identity subgroup (texts mentioning a term) and the background (all other texts):

* subgroup AUC — AUC within the subgroup: does the model rank its positives above its
  negatives?
* BPSN AUC (background positive, subgroup negative) — low when the model scores the
  subgroup's negatives above the background's positives (false positives tied to identity).
* BNSP AUC (background negative, subgroup positive) — low when the subgroup's positives score
  below the background's negatives.
* the generalized mean with power -5 summarises per-subgroup AUCs, weighting the worst ones.
* FPR and FNR gaps (Dixon et al.): subgroup rate minus overall rate, signed (positive: the
  subgroup's harmless texts are flagged, or its harmful ones missed, more often); the
  equality differences sum their absolute values.

Every metric comes with an interval at `confidence`, and only from enough texts:

* An AUC's interval is the score-type interval of Newcombe (2006, "Part 2", method 5): the
  values $\theta$ with $(\hat A - \theta)^2 \le z^2 V(\theta)$, $V$ the Hanley-McNeil
  variance at $\theta$ (not at $\hat A$) with Newcombe's mean class size. It stays
  inside [0, 1] and keeps its width when the estimate is 0 or 1, where a Wald interval
  (DeLong's or Hanley-McNeil's variance at $\hat A$) shrinks to a point; ties make the
  true variance smaller, so they only widen it.
* A subgroup's AUC against the overall AUC: the difference with the MOVER interval of Zou &
  Donner (2008) built from the two score intervals and their DeLong correlation (the two
  AUCs share texts). Its p-value is $1 -$ the confidence at which that interval reaches 0, so
  the interval excludes 0 exactly when $p < \alpha$; the p-values of every subgroup and
  every AUC kind are adjusted together with the audit's correction (`stats.testing.adjust`).
* A rate gap $r_g - r$ is $(1 - w)(r_g - r_{\bar g})$, $w$ the subgroup's share of the
  class, so its interval is Newcombe's hybrid score interval of the subgroup's rate against
  the background's (`stats.estimate.difference`), scaled by $1 - w$.
* A metric that ranks or counts fewer than `MIN_PER_CLASS` texts of a class it takes from
  the subgroup (or the background) has no value (NaN; null in report.json): "too few texts".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from textfair.errors import TextfairError
from textfair.stats.estimate import difference as rate_difference
from textfair.stats.estimate import z_value
from textfair.stats.testing import adjust

__all__ = [
    "AUC_KINDS",
    "MIN_PER_CLASS",
    "RATE_GAPS",
    "AucGap",
    "BiasMetrics",
    "SubgroupMetrics",
    "auc",
    "auc_interval",
    "bias_metrics",
    "generalized_mean",
]

MIN_PER_CLASS = 10
"""The fewest texts of each class a metric is computed from (e.g. a subgroup AUC needs 10 of
the subgroup's positives and 10 of its negatives; a BPSN AUC 10 of its negatives). Below it
one text moves an AUC by a tenth or more of its range (a rate by 0.1), and the interval, though
it keeps its coverage (tests/test_auc_intervals.py), spans most of [0, 1]: a number so loose
reads as a finding it is not. At 10 and 10 the interval of an AUC of 1 is about [0.83, 1]."""

AUC_KINDS = ("subgroup_auc", "bpsn_auc", "bnsp_auc")
RATE_GAPS = ("fpr_gap", "fnr_gap")


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
    $N^*$ covers 96-97% there and wherever tests/test_auc_intervals.py looks. The two roots
    either side of $\hat A$ are found by bisection; at $\hat A = 1$ the upper end is 1 and
    the lower one still below it.

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
class AucGap:
    """A subgroup's AUC against the overall AUC (see the module's notes for the test)."""

    difference: float
    """This AUC minus the overall AUC (negative: the model ranks worse here)."""
    ci: tuple[float, float]
    """MOVER interval of the difference at the metrics' confidence, on its own."""
    p_value: float
    p_adjusted: float
    """Adjusted over every subgroup and AUC kind with the audit's correction."""
    significant: bool
    """p_adjusted <= 1 - confidence."""


@dataclass(frozen=True)
class SubgroupMetrics:
    """Label-based metrics of one identity subgroup (Borkan et al. 2019).

    A metric is NaN where it has too few texts (see `MIN_PER_CLASS`); records written before
    version 0.x hold no `positives`, `negatives`, `intervals` or `gaps`.
    """

    subgroup: str
    size: int
    subgroup_auc: float
    """AUC on the subgroup's texts alone."""
    bpsn_auc: float
    """Background Positive, Subgroup Negative: AUC on the subgroup's negatives and the other
    texts' positives; low when the model over-scores harmless mentions of the group."""
    bnsp_auc: float
    """Background Negative, Subgroup Positive: AUC on the subgroup's positives and the other
    texts' negatives; low when the model under-scores harmful ones."""
    fpr_gap: float
    """FPR(subgroup) - FPR(all) at the decision threshold (|…| in records before intervals)."""
    fnr_gap: float
    """FNR(subgroup) - FNR(all) at the decision threshold."""
    positives: int | None = None
    """The subgroup's texts of the positive class (None in older records)."""
    negatives: int | None = None
    """The subgroup's texts of the other classes."""
    intervals: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    """Per metric name (subgroup_auc, ..., fnr_gap) with a value: its interval."""
    gaps: Mapping[str, AucGap] = field(default_factory=dict)
    """Per AUC kind with a value: that AUC against the overall AUC."""


@dataclass(frozen=True)
class BiasMetrics:
    """Per-subgroup AUCs and error-rate gaps, their generalized means, and the overall AUC."""

    overall_auc: float
    subgroups: tuple[SubgroupMetrics, ...]
    generalized_mean: dict[str, float]
    """Per AUC kind, (mean over subgroups of AUC ** power) ** (1 / power): the worst
    subgroups dominate for a negative power. Over the subgroups with a value; no interval."""
    fpr_equality_difference: float
    """Sum over subgroups of |fpr_gap| (Dixon et al. 2018)."""
    fnr_equality_difference: float
    """Sum over subgroups of |fnr_gap|."""
    power: float
    threshold: float
    """Score at or above which a text is predicted positive."""
    positive_label: str = ""
    """The class whose score is ranked (e.g. "toxic")."""
    overall_auc_ci: tuple[float, float] | None = None
    """The overall AUC's interval (None in older records, or without enough texts)."""
    positives: int | None = None
    """Texts of the positive class in all (None in older records)."""
    negatives: int | None = None
    confidence: float | None = None
    """The intervals' confidence (None: a record written before intervals)."""
    correction: str = ""
    """How the gaps' p-values were adjusted: holm, bh or none."""
    min_per_class: int | None = None
    """The fewest texts of a class a metric was computed from (None in older records)."""

    def significant_gaps(self) -> list[tuple[SubgroupMetrics, str, AucGap]]:
        """(subgroup, AUC kind, gap) of every significant gap, the largest shortfall first."""
        found = [
            (s, kind, gap)
            for s in self.subgroups
            for kind, gap in s.gaps.items()
            if gap.significant
        ]
        return sorted(found, key=lambda found: (found[2].ci[1], found[0].subgroup))


def bias_metrics(
    labels: np.ndarray,
    scores: np.ndarray,
    subgroups: Mapping[str, np.ndarray],
    *,
    threshold: float = 0.5,
    power: float = -5.0,
    confidence: float = 0.95,
    correction: str = "holm",
    min_per_class: int = MIN_PER_CLASS,
) -> BiasMetrics:
    """Per-subgroup AUCs and error-rate gaps with intervals, their tests against the overall
    AUC, the generalized means, and the overall AUC.

    `labels` are the true positive-class labels (e.g. toxic), `scores` the model's
    probability of that class, `subgroups` maps a name to a boolean mask over the rows. A
    metric from fewer than `min_per_class` texts of a class is NaN, without an interval.
    The gaps' p-values are adjusted together with `correction` (holm, bh or none) and
    significant at 1 - `confidence`.
    """
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=np.float64)
    if y.shape != s.shape or y.ndim != 1:
        raise TextfairError(
            f"labels {y.shape} and scores {s.shape} differ; expected one score per label"
        )
    z = z_value(confidence)
    adjust([], correction)  # an unknown correction is refused before any work
    predicted = s >= threshold
    overall = _Auc.of(s, y, ~y, z, min_per_class)
    rows: list[SubgroupMetrics] = []
    tests: list[tuple[int, str, tuple[float, Callable]]] = []
    for name, mask in subgroups.items():
        m = np.asarray(mask, dtype=bool)
        if not m.any():
            continue
        background = ~m
        aucs = {
            "subgroup_auc": _Auc.of(s, m & y, m & ~y, z, min_per_class),
            "bpsn_auc": _Auc.of(s, background & y, m & ~y, z, min_per_class),
            "bnsp_auc": _Auc.of(s, m & y, background & ~y, z, min_per_class),
        }
        rates = {
            "fpr_gap": _rate_gap(predicted, m & ~y, background & ~y, confidence, min_per_class),
            "fnr_gap": _rate_gap(~predicted, m & y, background & y, confidence, min_per_class),
        }
        strata = [m & y, m & ~y, background & y, background & ~y]
        intervals = {k: a.ci for k, a in aucs.items() if a.ci is not None}
        intervals |= {k: ci for k, (_, ci) in rates.items() if ci is not None}
        for kind, a in aucs.items():
            if a.ci is not None and overall.ci is not None:
                tests.append((len(rows), kind, _gap(a, overall, strata)))
        rows.append(
            SubgroupMetrics(
                subgroup=name,
                size=int(m.sum()),
                subgroup_auc=aucs["subgroup_auc"].value,
                bpsn_auc=aucs["bpsn_auc"].value,
                bnsp_auc=aucs["bnsp_auc"].value,
                fpr_gap=rates["fpr_gap"][0],
                fnr_gap=rates["fnr_gap"][0],
                positives=int((m & y).sum()),
                negatives=int((m & ~y).sum()),
                intervals=intervals,
            )
        )
    rows = _with_gaps(rows, tests, correction, confidence)
    return BiasMetrics(
        overall_auc=overall.value,
        subgroups=tuple(rows),
        generalized_mean={
            key: generalized_mean([getattr(r, key) for r in rows], power) for key in AUC_KINDS
        },
        fpr_equality_difference=float(np.nansum([abs(r.fpr_gap) for r in rows])),
        fnr_equality_difference=float(np.nansum([abs(r.fnr_gap) for r in rows])),
        power=power,
        threshold=threshold,
        overall_auc_ci=overall.ci,
        positives=int(y.sum()),
        negatives=int((~y).sum()),
        confidence=confidence,
        correction=correction,
        min_per_class=min_per_class,
    )


@dataclass(frozen=True)
class _Auc:
    """One AUC, its score interval and each text's DeLong term (0 for texts it leaves out)."""

    value: float
    ci: tuple[float, float] | None
    positives: int
    negatives: int
    influence: np.ndarray

    @classmethod
    def of(cls, scores, positive, negative, z: float, least: int) -> _Auc:
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


def _gap(first: _Auc, second: _Auc, strata) -> tuple[float, Callable]:
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
    first: float, first_ci: tuple[float, float], second: float, second_ci, r: float = 0.0
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


def _with_gaps(rows, tests, correction: str, confidence: float) -> list[SubgroupMetrics]:
    """The rows with their gaps to the overall AUC, p-values adjusted over all of them."""
    z, alpha = z_value(confidence), 1 - confidence
    found = []
    for index, kind, (d, interval) in tests:
        found.append((index, kind, d, interval(z), _p_value(d, interval)))
    adjusted = adjust([p for *_, p in found], correction, alpha) if found else None
    gaps: dict[int, dict[str, AucGap]] = {}
    for k, (index, kind, d, ci, p) in enumerate(found):
        assert adjusted is not None
        gaps.setdefault(index, {})[kind] = AucGap(
            difference=d,
            ci=ci,
            p_value=p,
            p_adjusted=float(adjusted.p_adjusted[k]),
            significant=bool(adjusted.significant[k]),
        )
    return [replace(row, gaps=gaps.get(i, {})) for i, row in enumerate(rows)]


def _p_value(d: float, interval: Callable[[float], tuple[float, float]]) -> float:
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


def _rate_gap(
    flagged: np.ndarray, within: np.ndarray, without: np.ndarray, confidence: float, least: int
) -> tuple[float, tuple[float, float] | None]:
    """The subgroup's rate minus the overall rate of the class `within | without`, as
    (1 - w)(rate within - rate without), with Newcombe's hybrid interval scaled alike."""
    n_1, n_2 = int(within.sum()), int(without.sum())
    if n_1 < least or n_2 < least or n_1 == 0 or n_2 == 0:
        return math.nan, None
    found = rate_difference(
        int(flagged[within].sum()), n_1, int(flagged[without].sum()), n_2, confidence
    )
    scale = n_2 / (n_1 + n_2)
    return scale * found.estimate, (scale * found.low, scale * found.high)


def generalized_mean(values, power: float = -5.0) -> float:
    """(mean of v**power) ** (1/power) over the non-NaN values; the worst values dominate."""
    v = np.asarray([x for x in values if not math.isnan(x)], dtype=np.float64)
    if len(v) == 0:
        return math.nan
    if (v <= 0).any():
        return 0.0
    return float(np.mean(v**power) ** (1.0 / power))
