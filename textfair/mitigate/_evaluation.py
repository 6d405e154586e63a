"""The measures of one model on a comparison's evaluation part, the same for every method:
held-out quality with intervals (accuracy with Wilson's; macro F1 and ROC AUC with a seeded
bootstrap of the evaluation rows), and B&R's group metrics per group of the decisions.

Apart from the comparison (`textfair.mitigate.compare`), which decides what to measure and
on which rows, because these know only decisions, probabilities and true labels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from textfair.stats.estimate import proportion
from textfair.stats.metrics import group_metrics

if TYPE_CHECKING:
    from textfair.models.base import Model
    from textfair.stats.estimate import Proportion

__all__ = ["MIN_ROWS", "MIN_TEXTS", "decisions", "group_table", "quality"]

BOOTSTRAP = 1000  # resamples of the evaluation rows for the F1 and AUC intervals
MIN_ROWS = 30  # evaluation rows a group needs for its group metrics
MIN_TEXTS = 10  # the same for a term's texts: an evaluation part of texts names each rarely


def decisions(model: Model, inputs: Sequence[Any]) -> np.ndarray:
    """The model's most likely label for each input, as strings."""
    names = np.asarray([str(n) for n in model.labels], dtype=object)
    return names[np.asarray(model.predict_proba(list(inputs))).argmax(axis=1)]


def quality(
    model: Model,
    inputs: Sequence[Any],
    truth: Sequence[str] | np.ndarray,
    favorable: str,
    seed: int,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """Accuracy (Wilson interval), macro F1 and ROC AUC of the unfavourable class (seeded
    bootstrap intervals) on the evaluation rows."""
    from sklearn.metrics import f1_score, roc_auc_score

    truth = np.asarray([str(t) for t in truth], dtype=object)
    probabilities = np.asarray(model.predict_proba(list(inputs)), dtype=float)
    names = [str(n) for n in model.labels]
    predicted = np.asarray(names, dtype=object)[probabilities.argmax(axis=1)]
    unfavourable = truth != favorable
    score = 1.0 - probabilities[:, names.index(favorable)]
    correct = int((predicted == truth).sum())
    accuracy = proportion(correct, len(truth), confidence)
    picks = np.random.default_rng([seed, 2]).integers(0, len(truth), (BOOTSTRAP, len(truth)))
    tail = 100 * (1 - confidence) / 2
    f1 = f1_score(truth, predicted, average="macro", zero_division=0)
    auc = roc_auc_score(unfavourable, score) if 0 < unfavourable.sum() < len(truth) else None
    aucs: np.ndarray | list[float] = (
        _resampled_auc(unfavourable, score, picks) if auc is not None else []
    )
    return {
        "rows": len(truth),
        "accuracy": {"value": round(accuracy.estimate, 4), "ci": _rounded(accuracy)},
        "f1_macro": {
            "value": round(float(f1), 4),
            "ci": _percentiles(_resampled_macro_f1(truth, predicted, picks), tail),
        },
        "roc_auc": {
            "value": None if auc is None else round(float(auc), 4),
            "ci": _percentiles(aucs, tail) if len(aucs) else None,
        },
    }


def _resampled_macro_f1(truth: np.ndarray, predicted: np.ndarray, picks: np.ndarray) -> np.ndarray:
    """Macro F1 (sklearn's: over the labels either side has) of each resample (rows of
    `picks`): per label 2 TP / (2 TP + FP + FN), averaged."""
    names = sorted(set(truth.tolist()) | set(predicted.tolist()))
    t = np.searchsorted(names, truth)[picks]
    p = np.searchsorted(names, predicted)[picks]
    scores, present = [], []
    for label in range(len(names)):
        tp = ((t == label) & (p == label)).sum(axis=1)
        wrong = ((t == label) != (p == label)).sum(axis=1)  # FP + FN
        present.append(((t == label) | (p == label)).any(axis=1))
        with np.errstate(invalid="ignore", divide="ignore"):
            scores.append(np.where(2 * tp + wrong > 0, 2 * tp / (2 * tp + wrong), 0.0))
    present_counts = np.sum(present, axis=0)
    return np.sum(np.where(present, scores, 0.0), axis=0) / np.maximum(present_counts, 1)


def _resampled_auc(positive: np.ndarray, score: np.ndarray, picks: np.ndarray) -> np.ndarray:
    """ROC AUC of each resample with both classes (Mann-Whitney on midranks)."""
    from scipy.stats import rankdata

    y = positive[picks]
    both = (y.sum(axis=1) > 0) & (y.sum(axis=1) < picks.shape[1])
    y, ranks = y[both], rankdata(score[picks[both]], axis=1)
    n_pos = y.sum(axis=1)
    n_neg = y.shape[1] - n_pos
    return ((ranks * y).sum(axis=1) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def _rounded(interval: Proportion) -> list[float]:
    return [round(interval.low, 4), round(interval.high, 4)]


def _percentiles(values: np.ndarray | list[float], tail: float) -> list[float]:
    return [round(float(v), 4) for v in np.percentile(values, [tail, 100 - tail])]


def group_table(
    decided: np.ndarray,
    truth: Sequence[str] | np.ndarray,
    masks: dict[str, np.ndarray],
    favorable: str,
    least: int = MIN_ROWS,
) -> dict[str, Any]:
    """B&R's group metrics per group of the decisions (each group against the rest of the
    evaluation rows); a group of fewer than `least` rows is left out (no rate to speak of)."""
    truth = np.asarray([str(t) for t in truth], dtype=object)
    table = {}
    for group, mask in masks.items():
        if mask.all() or mask.sum() < least:
            continue
        metrics = group_metrics(truth, decided, mask, favorable=favorable)
        table[group] = {
            "rows": int(mask.sum()),
            "di": _finite(metrics.disparate_impact),
            "spd": _finite(metrics.statistical_parity_difference),
            "eod": _finite(metrics.equal_opportunity_difference),
            "aod": _finite(metrics.average_odds_difference),
            "erd": _finite(metrics.error_rate_difference),
        }
    return {"groups": table}


def _finite(value: float) -> float | None:
    return round(float(value), 4) if math.isfinite(value) else None
