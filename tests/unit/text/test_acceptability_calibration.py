"""The acceptability score's calibration step (issue 56): a monotone map stored as plain
numbers in the model JSON, applied wherever the score is read, chosen by nested grouped
cross-validation, and able to correct a miscalibrated score on draws it did not see."""

from __future__ import annotations

import json

import numpy as np
import pytest

from textfair.text._acceptability import Scorer, score_variant
from textfair.text._acceptability_calibration import (
    METHODS,
    Calibration,
    choose,
    fit_calibration,
    nested_calibration,
)
from textfair.text._acceptability_features import FEATURES
from textfair.text._acceptability_model import AcceptabilityModel
from textfair.text.acceptability_fit import ece
from textfair.text.matcher import Matcher


def _under_confident(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Scores whose logit is half the truth's (an under-confident score), and labels drawn
    from the true probability."""
    rng = np.random.default_rng(seed)
    z = rng.normal(1.5, 1.5, size=n)
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-z))).astype(int)
    return 1 / (1 + np.exp(-z / 2)), y


@pytest.mark.parametrize("method", METHODS)
def test_every_calibration_map_is_monotone_and_stays_in_0_1(method):
    p, y = _under_confident(4000, 1)
    calibration = fit_calibration(method, p, y)
    grid = np.linspace(0, 1, 1001)
    mapped = calibration(grid)
    assert np.all(np.diff(mapped) >= -1e-12)
    assert mapped.min() >= 0 and mapped.max() <= 1


@pytest.mark.parametrize("method", ["platt", "isotonic"])
def test_a_simulated_under_confident_score_is_corrected_on_draws_it_did_not_see(method):
    p, y = _under_confident(6000, 2)
    calibration = fit_calibration(method, p, y)
    p_new, y_new = _under_confident(6000, 3)
    assert ece(p_new, y_new) > 0.08  # as miscalibrated as the fresh read
    assert ece(calibration(p_new), y_new) < 0.03


@pytest.mark.parametrize("method", METHODS)
def test_a_calibration_reads_back_from_plain_json_numbers(method):
    p, y = _under_confident(2000, 4)
    calibration = fit_calibration(method, p, y)
    stored = json.loads(json.dumps(calibration.to_dict()))
    assert all(isinstance(v, (str, float, list)) for v in stored.values())
    again = Calibration.from_dict(stored)
    grid = np.linspace(0, 1, 101)
    assert np.array_equal(again(grid), calibration(grid))


def test_the_model_applies_its_calibration_wherever_the_score_is_read():
    k = FEATURES.index("log_words")
    coefficients = np.zeros(len(FEATURES))
    coefficients[k] = 0.5
    plain = AcceptabilityModel(
        FEATURES, np.zeros(len(FEATURES)), np.ones(len(FEATURES)), coefficients, 0.2
    )
    platt = Calibration("platt", 2.0, -0.5)
    model = AcceptabilityModel.from_dict({**plain.to_dict(), "calibration": platt.to_dict()})
    assert model.calibration == platt
    assert model.uncalibrated().to_dict() == plain.to_dict()
    assert AcceptabilityModel.from_dict(model.to_dict()).calibration == platt
    text = "Muslims are my neighbours and friends."
    raw = score_variant(text, "religion", "jewish", model=plain)
    calibrated = score_variant(text, "religion", "jewish", model=model)
    assert calibrated == pytest.approx(float(platt(np.array(raw))))
    # The domain's vectorised scorer gives the same.
    matcher = Matcher("dixon2018")
    scorer = Scorer(matcher.term_list, model)
    got = scorer.score(0, text, matcher.find(text), "religion", "jewish")
    assert got == pytest.approx(calibrated)


def test_a_model_json_without_a_calibration_is_uncalibrated():
    model = AcceptabilityModel(
        FEATURES, np.zeros(len(FEATURES)), np.ones(len(FEATURES)), np.zeros(len(FEATURES)), 0.0
    )
    data = model.to_dict()
    del data["calibration"]
    assert AcceptabilityModel.from_dict(data).calibration == Calibration()
    with pytest.raises(ValueError, match="not one of"):
        Calibration.from_dict({"method": "beta"})


def test_the_nested_choice_calibrates_an_under_confident_score_and_harms_no_calibrated_one():
    """Scores fixed in advance stand in for a model: an under-confident one is calibrated on
    the held-out folds; on a calibrated one every map stays calibrated; none wins a tie."""
    for scale in (2.0, 1.0):
        rng = np.random.default_rng(5)
        z = rng.normal(1.5, 1.5, size=3000)
        y = (rng.uniform(size=z.size) < 1 / (1 + np.exp(-z))).astype(int)
        score = 1 / (1 + np.exp(-z / scale))
        folds = np.arange(z.size) % 5

        def outer(index, folds=folds):
            return [index[folds[index] == k] for k in range(5)]

        def inner(index, score=score):
            return score[index]

        def fit_score(train, test, score=score):
            return score[test]

        nested = nested_calibration(y, outer, inner, fit_score)
        eces = {m: ece(p, y) for m, p in nested.items()}
        if scale == 2.0:
            assert eces["none"] > 0.08 and choose(eces) in {"platt", "isotonic"}
            assert eces[choose(eces)] < 0.03
        else:
            assert max(eces.values()) < 0.03
    assert choose({"none": 0.02, "platt": 0.02, "isotonic": 0.02}) == "none"
    assert choose({"none": 0.02, "platt": 0.01, "isotonic": 0.015}) == "platt"
