"""Aequitas search over rows: found inputs are real, batching changes nothing but speed."""

import numpy as np
import pandas as pd
import pytest

from textfair.errors import TextfairError
from textfair.models import CachedModel
from textfair.models.rows import RowModel
from textfair.tabular.domain import TabularDomain
from textfair.tabular.schema import infer_schema
from textfair.tabular.search import aequitas_search

from conftest import DATA

ADULT = pd.read_csv(DATA / "adult_sample.csv")


@pytest.fixture(scope="module")
def setup():
    schema = infer_schema(ADULT, label="income", sensitive=["sex", "race"])
    domain = TabularDomain(ADULT[[f.name for f in schema.features]], schema)

    def rule(frame: pd.DataFrame) -> np.ndarray:
        """'>50K' for long hours, except for women working more than 45 hours."""
        good = (frame["hours_per_week"] > 40) & ~(
            (frame["sex"] == "Female") & (frame["hours_per_week"] > 45)
        )
        return np.column_stack([~good, good]).astype(float)

    return domain, RowModel(rule, domain.columns, labels=["<=50K", ">50K"])


def truly_discriminatory(model, row, domain):
    """Check one input by brute force: every sensitive combination, one model call."""
    from textfair.tabular.search import _Search

    search = _Search(domain, model, 1, "label", 0.0, 1)
    labels = model.predict_proba(search.variants(row)).argmax(axis=1)
    return len(set(labels.tolist())) > 1


def test_found_inputs_are_discriminatory_and_directed_search_finds_more(setup):
    domain, model = setup
    results = {
        s: aequitas_search(
            domain,
            CachedModel(model),
            favorable=1,
            strategy=s,
            global_budget=400,
            local_budget=1500,
            seed=3,
        )
        for s in ("random", "semi", "fully")
    }
    fully = results["fully"]
    assert fully.found > 0
    assert all(truly_discriminatory(model, row, domain) for row in fully.discriminatory[:200])
    position = domain.columns.index("hours_per_week")
    assert all(row[position] > 45 for row in fully.discriminatory)
    assert fully.local_found / fully.local_tested > 0.3
    assert fully.found >= results["random"].found * 0.9


def test_global_estimate_covers_the_true_discriminatory_fraction(setup):
    domain, model = setup
    truth_rows = domain.random_rows(20_000, np.random.default_rng(99))
    position = domain.columns.index("hours_per_week")
    truth = np.mean([row[position] > 45 for row in truth_rows])
    covered = []
    for seed in range(40):
        estimate = aequitas_search(
            domain, CachedModel(model), favorable=1, global_budget=500, local_budget=0, seed=seed
        ).estimate
        covered.append(estimate.low <= truth <= estimate.high)
    assert np.mean(covered) >= 0.9


def test_batching_changes_speed_not_results(setup):
    domain, model = setup
    one = aequitas_search(
        domain, model, favorable=1, global_budget=60, local_budget=0, batch_size=1, seed=5
    )
    many = aequitas_search(
        domain,
        CachedModel(model),
        favorable=1,
        global_budget=60,
        local_budget=0,
        batch_size=256,
        seed=5,
    )
    assert one.discriminatory == many.discriminatory
    assert one.estimate == many.estimate


def test_bad_arguments(setup):
    domain, model = setup
    with pytest.raises(TextfairError, match="unknown strategy 'directed'"):
        aequitas_search(domain, model, favorable=1, strategy="directed")
    with pytest.raises(TextfairError, match="on 'score'"):
        aequitas_search(domain, model, favorable=1, on="score")
