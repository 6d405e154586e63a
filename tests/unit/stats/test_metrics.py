"""Group metrics against fairlearn (to 1e-12) and hand-computed CNT and TI."""

import math

import numpy as np
import pytest
from fairlearn.metrics import (
    MetricFrame,
    demographic_parity_difference,
    demographic_parity_ratio,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)

from textfair.errors import TextfairError
from textfair.stats.metrics import consistency, group_metrics, theil_index


@pytest.mark.parametrize("seed", range(6))
def test_group_metrics_agree_with_fairlearn(seed):
    rng = np.random.default_rng(seed)
    n = 500
    group = rng.choice(["female", "male"], n, p=[0.4, 0.6])
    y_true = rng.integers(0, 2, n)
    y_pred = np.where(rng.random(n) < 0.8, y_true, 1 - y_true)
    y_pred[(group == "female") & (rng.random(n) < 0.2)] = 0  # a planted disadvantage
    ours = group_metrics(y_true, y_pred, group == "female")
    frame = MetricFrame(
        metrics={
            "sel": selection_rate,
            "tpr": true_positive_rate,
            "fpr": false_positive_rate,
            "err": lambda t, p: float(np.mean(t != p)),
        },
        y_true=y_true,
        y_pred=y_pred,
        sensitive_features=group,
    ).by_group
    u, p = frame.loc["female"], frame.loc["male"]
    assert ours.statistical_parity_difference == pytest.approx(u["sel"] - p["sel"], abs=1e-12)
    assert ours.disparate_impact == pytest.approx(u["sel"] / p["sel"], abs=1e-12)
    assert ours.equal_opportunity_difference == pytest.approx(u["tpr"] - p["tpr"], abs=1e-12)
    assert ours.average_odds_difference == pytest.approx(
        ((u["fpr"] - p["fpr"]) + (u["tpr"] - p["tpr"])) / 2, abs=1e-12
    )
    assert ours.error_rate_difference == pytest.approx(u["err"] - p["err"], abs=1e-12)
    assert abs(ours.statistical_parity_difference) == pytest.approx(
        demographic_parity_difference(y_true, y_pred, sensitive_features=group), abs=1e-12
    )
    assert min(ours.disparate_impact, 1 / ours.disparate_impact) == pytest.approx(
        demographic_parity_ratio(y_true, y_pred, sensitive_features=group), abs=1e-12
    )


def test_any_label_encoding_works():
    y_true = np.array(["good", "bad", "good", "bad", "good", "good"])
    y_pred = np.array(["good", "good", "bad", "bad", "good", "good"])
    u = np.array([True, True, True, False, False, False])
    text = group_metrics(y_true, y_pred, u, favorable="good")
    coded = group_metrics((y_true == "good") * 2 - 1, (y_pred == "good") * 2 - 1, u, favorable=1)
    assert text == coded
    assert text.statistical_parity_difference == pytest.approx(2 / 3 - 2 / 3)
    assert text.equal_opportunity_difference == pytest.approx(1 / 2 - 1.0)


def test_consistency_by_hand():
    # Two clusters of three points; k = 3 neighbours (self included).
    x = np.array([[0.0], [0.1], [0.2], [10.0], [10.1], [10.2]])
    y_pred = np.array([1, 1, 0, 0, 0, 0])
    # Cluster 1: neighbour means 2/3 each -> |1-2/3|, |1-2/3|, |0-2/3| = 1/3, 1/3, 2/3.
    # Cluster 2: all 0 -> 0. Mean = (4/3) / 6 = 2/9.
    assert consistency(x, y_pred, k=3) == pytest.approx(1 - 2 / 9, abs=1e-12)
    assert consistency(x, np.zeros(6), k=3) == 1.0


def test_theil_index_by_hand():
    y_true = np.array([1, 0, 1, 0])
    y_pred = np.array([1, 1, 0, 0])
    # b = [1, 2, 0, 1], mu = 1: (1/4) * (1 ln 1 + 2 ln 2 + 0 + 1 ln 1) = ln(2) / 2.
    assert theil_index(y_true, y_pred) == pytest.approx(math.log(2) / 2, abs=1e-12)
    assert theil_index(y_true, y_true) == 0.0


def test_bad_input():
    with pytest.raises(TextfairError, match="differ in length"):
        group_metrics([1, 0], [1], [True, False])
    with pytest.raises(TextfairError, match="both need at least one"):
        group_metrics([1, 0], [1, 0], [True, True])
    with pytest.raises(TextfairError, match="at least k = 5 rows"):
        consistency([[0.0]] * 3, [1, 1, 1])
