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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from textfair.errors import TextfairError
from textfair.stats._auc import DelongAuc, IntervalAt, auc_difference, difference_p_value
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
    "bias_metrics",
    "generalized_mean",
]

MIN_PER_CLASS = 10
"""The fewest texts of each class a metric is computed from (e.g. a subgroup AUC needs 10 of
the subgroup's positives and 10 of its negatives; a BPSN AUC 10 of its negatives). Below it
one text moves an AUC by a tenth or more of its range (a rate by 0.1), and the interval,
though it keeps its coverage (tests/unit/stats/test_auc_intervals.py), spans most of [0, 1]:
a number so loose reads as a finding it is not. At 10 and 10 the interval of an AUC of 1 is
about [0.83, 1]."""

AUC_KINDS = ("subgroup_auc", "bpsn_auc", "bnsp_auc")
RATE_GAPS = ("fpr_gap", "fnr_gap")


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
    overall = DelongAuc.of(s, y, ~y, z, min_per_class)
    rows: list[SubgroupMetrics] = []
    tests: list[tuple[int, str, tuple[float, IntervalAt]]] = []
    for name, mask in subgroups.items():
        m = np.asarray(mask, dtype=bool)
        if not m.any():
            continue
        background = ~m
        aucs = {
            "subgroup_auc": DelongAuc.of(s, m & y, m & ~y, z, min_per_class),
            "bpsn_auc": DelongAuc.of(s, background & y, m & ~y, z, min_per_class),
            "bnsp_auc": DelongAuc.of(s, m & y, background & ~y, z, min_per_class),
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
                tests.append((len(rows), kind, auc_difference(a, overall, strata)))
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


def _with_gaps(
    rows: list[SubgroupMetrics],
    tests: list[tuple[int, str, tuple[float, IntervalAt]]],
    correction: str,
    confidence: float,
) -> list[SubgroupMetrics]:
    """The rows with their gaps to the overall AUC, p-values adjusted over all of them."""
    z, alpha = z_value(confidence), 1 - confidence
    found = []
    for index, kind, (d, interval) in tests:
        found.append((index, kind, d, interval(z), difference_p_value(d, interval)))
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


def generalized_mean(values: Iterable[float], power: float = -5.0) -> float:
    """(mean of v**power) ** (1/power) over the non-NaN values; the worst values dominate."""
    v = np.asarray([x for x in values if not math.isnan(x)], dtype=np.float64)
    if len(v) == 0:
        return math.nan
    if (v <= 0).any():
        return 0.0
    return float(np.mean(v**power) ** (1.0 / power))
