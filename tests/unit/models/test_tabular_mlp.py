"""The six-layer tabular MLP: learns, round-trips without pickle, serves the tabular audit."""

import numpy as np
import pandas as pd
import pytest

from textfair.errors import TextfairError
from textfair.models.rows import RowModel
from textfair.models.tabular_mlp import TabularMLP

from conftest import DATA

ADULT = pd.read_csv(DATA / "adult_sample.csv")


def test_mlp_learns_round_trips_and_works_over_rows(tmp_path):
    features, labels = ADULT.drop(columns="income"), ADULT["income"]
    model = TabularMLP.train(features[:2400], labels[:2400], epochs=15, seed=0)
    linear = [m for m in model.network if m.__class__.__name__ == "Linear"]
    assert [m.out_features for m in linear] == [64, 32, 16, 8, 4, 2]
    accuracy = (
        model.predict_proba(features[2400:]).argmax(axis=1) == (labels[2400:] == ">50K").to_numpy()
    ).mean()
    majority = max((labels[2400:] == ">50K").mean(), (labels[2400:] != ">50K").mean())
    assert accuracy > majority
    saved = model.save(tmp_path / "mlp")
    assert sorted(p.name for p in saved.iterdir()) == ["config.json", "model.safetensors"]
    again = TabularMLP.load(saved)
    np.testing.assert_array_equal(
        again.predict_proba(features[:50]), model.predict_proba(features[:50])
    )
    rows = [tuple(r) for r in features[:5].itertuples(index=False, name=None)]
    np.testing.assert_allclose(
        RowModel(again, list(features.columns)).predict_proba(rows),
        model.predict_proba(features[:5]),
    )
    same = TabularMLP.train(features[:300], labels[:300], epochs=2, seed=4)
    np.testing.assert_array_equal(
        same.predict_proba(features[:10]),
        TabularMLP.train(features[:300], labels[:300], epochs=2, seed=4).predict_proba(
            features[:10]
        ),
    )


def test_load_errors(tmp_path):
    with pytest.raises(TextfairError, match="not a textfair tabular model"):
        TabularMLP.load(tmp_path)
