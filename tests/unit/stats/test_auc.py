"""Label-based metrics against scikit-learn and hand-computed values."""

import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from textfair.errors import TextfairError
from textfair.stats._auc import auc
from textfair.stats.label_metrics import bias_metrics, generalized_mean


@pytest.mark.parametrize("seed", range(5))
def test_auc_matches_sklearn_with_ties(seed):
    rng = np.random.default_rng(seed)
    y = rng.random(300) < 0.3
    scores = np.round(rng.random(300) * 0.5 + y * 0.3, 1)  # coarse scores: many ties
    assert auc(y, scores) == pytest.approx(roc_auc_score(y, scores), abs=1e-12)
    assert math.isnan(auc(np.ones(5, bool), scores[:5]))


def test_auc_is_the_rank_form_to_the_bit():
    """Counting lower and equal negatives by binary search gives, to the last bit, the rank
    form it replaced: (sum of the positives' average ranks - P(P+1)/2) / (P N)."""
    from scipy.stats import rankdata

    rng = np.random.default_rng(11)
    for _ in range(300):
        n = int(rng.integers(2, 400))
        y = rng.random(n) < rng.uniform(0.05, 0.95)
        scores = np.round(rng.random(n), int(rng.integers(1, 4)))  # ties at every precision
        positives, negatives = int(y.sum()), int((~y).sum())
        if not positives or not negatives:
            continue
        ranks = rankdata(scores)
        expected = (ranks[y].sum() - positives * (positives + 1) / 2) / (positives * negatives)
        assert auc(y, scores) == float(expected)


def test_subgroup_bpsn_bnsp_by_hand():
    # rows: 0-3 subgroup, 4-7 background; labels and scores chosen so each AUC is readable.
    y = np.array([0, 0, 1, 1, 0, 0, 1, 1], dtype=bool)
    s = np.array([0.6, 0.7, 0.8, 0.9, 0.1, 0.2, 0.5, 0.65])
    sub = np.array([True] * 4 + [False] * 4)
    result = bias_metrics(y, s, {"muslim": sub}, min_per_class=1)
    row = result.subgroups[0]
    assert (row.positives, row.negatives) == (2, 2)
    assert row.subgroup_auc == 1.0  # within the subgroup, positives outrank negatives
    # BPSN: subgroup negatives {0.6, 0.7} vs background positives {0.5, 0.65}: 1 of 4 pairs.
    assert row.bpsn_auc == pytest.approx(1 / 4)
    assert row.bnsp_auc == 1.0  # subgroup positives {0.8, 0.9} above background negatives
    # At threshold 0.5: overall FPR = 2/4, subgroup FPR = 2/2 -> gap +0.5 (signed: the
    # subgroup's harmless texts are flagged more often); FNR 0 and 0.
    assert row.fpr_gap == pytest.approx(0.5) and row.fnr_gap == 0.0
    assert result.generalized_mean["bpsn_auc"] == pytest.approx(0.25)
    # Each value lies in its interval; at the default minimum (10 of each class) none has one.
    for kind, (low, high) in row.intervals.items():
        assert low <= getattr(row, kind) <= high
    assert set(row.intervals) == {"subgroup_auc", "bpsn_auc", "bnsp_auc", "fpr_gap", "fnr_gap"}
    default = bias_metrics(y, s, {"muslim": sub}).subgroups[0]
    assert all(math.isnan(getattr(default, k)) for k in row.intervals)
    assert not default.intervals and not default.gaps
    assert (default.positives, default.negatives) == (2, 2)


def test_generalized_mean_weights_the_worst():
    assert generalized_mean([0.9, 0.9, 0.9]) == pytest.approx(0.9)
    assert generalized_mean([0.95, 0.95, 0.5]) == pytest.approx(
        np.mean(np.array([0.95, 0.95, 0.5]) ** -5) ** (-1 / 5)
    )
    assert generalized_mean([0.95, 0.95, 0.5]) < 0.65 < np.mean([0.95, 0.95, 0.5])
    assert math.isnan(generalized_mean([math.nan]))


def test_shape_mismatch_is_one_line():
    with pytest.raises(TextfairError, match="expected one score per label"):
        bias_metrics(np.ones(3, bool), np.ones(4), {})
