"""Group fairness metrics of a classifier's decisions (Biswas & Rajan 2020; AIF360's definitions).

For an unprivileged group u and a privileged group p, with a favourable label:

* DI  = P(yhat = fav | u) / P(yhat = fav | p)            disparate impact (1 is fair)
* SPD = P(yhat = fav | u) - P(yhat = fav | p)            statistical parity difference (0 is fair)
* EOD = TPR_u - TPR_p                                     equal opportunity difference
* AOD = ((FPR_u - FPR_p) + (TPR_u - TPR_p)) / 2           average odds difference
* ERD = ERR_u - ERR_p                                     error rate difference
* CNT = 1 - mean |yhat_i - mean yhat of its k nearest neighbours|   consistency (k = 5; the
  neighbours include the point itself, as in AIF360)
* TI  = mean (b_i / mu) ln(b_i / mu), b_i = yhat_i - y_i + 1        Theil index (0 is fair)

Rates use the favourable label as "positive". Any label encoding works: labels are compared
with `favorable`, never assumed to be 0/1 or ±1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from textfair.errors import TextfairError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["GroupMetrics", "consistency", "group_metrics", "theil_index"]


@dataclass(frozen=True)
class GroupMetrics:
    """DI, SPD, EOD, AOD, ERD for one unprivileged (u) / privileged (p) split.

    With S = P(yhat favourable), TPR and FPR taken over rows whose true label is, or is not,
    favourable, and ERR = P(yhat != y) within each group:
    DI = S_u / S_p (fair: 1), SPD = S_u - S_p, EOD = TPR_u - TPR_p,
    AOD = ((FPR_u - FPR_p) + (TPR_u - TPR_p)) / 2, ERD = ERR_u - ERR_p (fair: 0).
    """

    disparate_impact: float
    statistical_parity_difference: float
    equal_opportunity_difference: float
    average_odds_difference: float
    error_rate_difference: float
    n_unprivileged: int
    """Rows in the unprivileged group."""
    n_privileged: int
    """Rows in the privileged group."""


def group_metrics(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    unprivileged: ArrayLike,
    *,
    favorable: object = 1,
    privileged: ArrayLike | None = None,
) -> GroupMetrics:
    """The group metrics of predictions `y_pred` against `y_true`.

    `unprivileged` is a boolean mask; `privileged` defaults to its complement.
    """
    truth = np.asarray(y_true) == favorable
    decided = np.asarray(y_pred) == favorable
    u = np.asarray(unprivileged, dtype=bool)
    p = ~u if privileged is None else np.asarray(privileged, dtype=bool)
    if not (truth.shape == decided.shape == u.shape == p.shape):
        raise TextfairError(
            "y_true, y_pred and the group masks differ in length; pass one value per row"
        )
    if not u.any() or not p.any():
        raise TextfairError(
            f"the unprivileged group has {int(u.sum())} rows and the privileged group "
            f"{int(p.sum())}; both need at least one"
        )
    selection_u, selection_p = decided[u].mean(), decided[p].mean()
    tpr_u, tpr_p = _rate(decided, truth & u), _rate(decided, truth & p)
    fpr_u, fpr_p = _rate(decided, ~truth & u), _rate(decided, ~truth & p)
    error_u = float((decided[u] != truth[u]).mean())
    error_p = float((decided[p] != truth[p]).mean())
    return GroupMetrics(
        disparate_impact=float(selection_u / selection_p) if selection_p > 0 else math.nan,
        statistical_parity_difference=float(selection_u - selection_p),
        equal_opportunity_difference=tpr_u - tpr_p,
        average_odds_difference=((fpr_u - fpr_p) + (tpr_u - tpr_p)) / 2,
        error_rate_difference=error_u - error_p,
        n_unprivileged=int(u.sum()),
        n_privileged=int(p.sum()),
    )


def consistency(
    features: ArrayLike, y_pred: ArrayLike, *, favorable: object = 1, k: int = 5
) -> float:
    """AIF360's consistency: 1 - mean |yhat_i - mean yhat over the k nearest neighbours of i|.

    Neighbours are found by Euclidean distance on `features` (numeric, already encoded) and
    include the point itself.
    """
    from sklearn.neighbors import NearestNeighbors

    x = np.asarray(features, dtype=np.float64)
    decided = (np.asarray(y_pred) == favorable).astype(np.float64)
    if len(x) != len(decided):
        raise TextfairError("features and y_pred differ in length; pass one row per prediction")
    if len(x) < k:
        raise TextfairError(f"consistency needs at least k = {k} rows; got {len(x)}")
    _, neighbours = NearestNeighbors(n_neighbors=k).fit(x).kneighbors(x)
    return float(1.0 - np.abs(decided - decided[neighbours].mean(axis=1)).mean())


def theil_index(y_true: ArrayLike, y_pred: ArrayLike, *, favorable: object = 1) -> float:
    """The Theil index of the benefits b_i = yhat_i - y_i + 1 (0 ln 0 counts as 0)."""
    benefit = (
        (np.asarray(y_pred) == favorable).astype(np.float64)
        - (np.asarray(y_true) == favorable).astype(np.float64)
        + 1.0
    )
    mean = benefit.mean()
    ratio = benefit / mean
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(ratio > 0, ratio * np.log(ratio), 0.0)
    return float(terms.mean())


def _rate(decided: np.ndarray, among: np.ndarray) -> float:
    return float(decided[among].mean()) if among.any() else math.nan
