"""Label-based bias metrics for classifiers with a score (Borkan et al. 2019; Dixon et al. 2018).

For an identity subgroup (texts mentioning a term) and the background (all other texts):

* subgroup AUC — AUC within the subgroup: does the model rank its positives above its
  negatives?
* BPSN AUC (background positive, subgroup negative) — low when the model scores the
  subgroup's negatives above the background's positives (false positives tied to identity).
* BNSP AUC (background negative, subgroup positive) — low when the subgroup's positives score
  below the background's negatives.
* the generalized mean with power -5 summarises per-subgroup AUCs, weighting the worst ones.
* FPR and FNR gaps (Dixon et al.'s equality differences): |overall rate - subgroup rate|.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from textfair.errors import TextfairError

__all__ = ["BiasMetrics", "SubgroupMetrics", "auc", "bias_metrics", "generalized_mean"]


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


def generalized_mean(values, power: float = -5.0) -> float:
    """(mean of v**power) ** (1/power) over the non-NaN values; the worst values dominate."""
    v = np.asarray([x for x in values if not math.isnan(x)], dtype=np.float64)
    if len(v) == 0:
        return math.nan
    if (v <= 0).any():
        return 0.0
    return float(np.mean(v**power) ** (1.0 / power))


@dataclass(frozen=True)
class SubgroupMetrics:
    """Label-based metrics of one identity subgroup (Borkan et al. 2019)."""

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
    """|FPR(all) - FPR(subgroup)| at the decision threshold."""
    fnr_gap: float
    """|FNR(all) - FNR(subgroup)| at the decision threshold."""


@dataclass(frozen=True)
class BiasMetrics:
    """Per-subgroup AUCs and error-rate gaps, their generalized means, and the overall AUC."""

    overall_auc: float
    subgroups: tuple[SubgroupMetrics, ...]
    generalized_mean: dict[str, float]
    """Per AUC kind, (mean over subgroups of AUC ** power) ** (1 / power): the worst
    subgroups dominate for a negative power."""
    fpr_equality_difference: float
    """Sum over subgroups of fpr_gap (Dixon et al. 2018)."""
    fnr_equality_difference: float
    """Sum over subgroups of fnr_gap."""
    power: float
    threshold: float
    """Score at or above which a text is predicted positive."""
    positive_label: str = ""
    """The class whose score is ranked (e.g. "toxic")."""


def bias_metrics(
    labels: np.ndarray,
    scores: np.ndarray,
    subgroups: Mapping[str, np.ndarray],
    *,
    threshold: float = 0.5,
    power: float = -5.0,
) -> BiasMetrics:
    """Per-subgroup AUCs and error-rate gaps, their generalized means, and the overall AUC.

    `labels` are the true positive-class labels (e.g. toxic), `scores` the model's
    probability of that class, `subgroups` maps a name to a boolean mask over the rows.
    """
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=np.float64)
    if y.shape != s.shape or y.ndim != 1:
        raise TextfairError(
            f"labels {y.shape} and scores {s.shape} differ; expected one score per label"
        )
    predicted = s >= threshold
    fpr, fnr = _rates(y, predicted)
    rows = []
    for name, mask in subgroups.items():
        m = np.asarray(mask, dtype=bool)
        if not m.any():
            continue
        background = ~m
        sub_fpr, sub_fnr = _rates(y[m], predicted[m])
        rows.append(
            SubgroupMetrics(
                subgroup=name,
                size=int(m.sum()),
                subgroup_auc=auc(y[m], s[m]),
                bpsn_auc=auc(y[(m & ~y) | (background & y)], s[(m & ~y) | (background & y)]),
                bnsp_auc=auc(y[(m & y) | (background & ~y)], s[(m & y) | (background & ~y)]),
                fpr_gap=abs(fpr - sub_fpr) if not math.isnan(sub_fpr) else math.nan,
                fnr_gap=abs(fnr - sub_fnr) if not math.isnan(sub_fnr) else math.nan,
            )
        )
    return BiasMetrics(
        overall_auc=auc(y, s),
        subgroups=tuple(rows),
        generalized_mean={
            key: generalized_mean([getattr(r, key) for r in rows], power)
            for key in ("subgroup_auc", "bpsn_auc", "bnsp_auc")
        },
        fpr_equality_difference=float(np.nansum([r.fpr_gap for r in rows])),
        fnr_equality_difference=float(np.nansum([r.fnr_gap for r in rows])),
        power=power,
        threshold=threshold,
    )


def _rates(y: np.ndarray, predicted: np.ndarray) -> tuple[float, float]:
    negatives, positives = ~y, y
    fpr = float(predicted[negatives].mean()) if negatives.any() else math.nan
    fnr = float((~predicted[positives]).mean()) if positives.any() else math.nan
    return fpr, fnr
