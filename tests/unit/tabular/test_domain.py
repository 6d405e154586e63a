"""Tabular data on the shared discovery core: schema, TabularDomain, planted bias."""

import zlib

import numpy as np
import pandas as pd
import pytest

from textfair.core.rules import Rule
from textfair.discovery import frequent_rule_sets
from textfair.discovery.groups import group_fairness
from textfair.discovery.themis import themis
from textfair.errors import TextfairError
from textfair.models import CachedModel, CallableModel
from textfair.tabular.domain import TabularDomain
from textfair.tabular.schema import infer_schema, load_schema

from conftest import DATA

ADULT = pd.read_csv(DATA / "adult_sample.csv")
SENSITIVE = ["sex", "race", "age"]


@pytest.fixture(scope="module")
def domain():
    schema = infer_schema(ADULT, label="income", sensitive=SENSITIVE)
    return TabularDomain(ADULT[[f.name for f in schema.features]], schema)


def planted(domain, salt=0, effect=0.2):
    """'<=50K' (column 1, unfavourable) with probability 0.1, plus `effect` for Black women.
    The noise depends only on non-sensitive columns, so identity alone moves the outcome."""
    position = {c: i for i, c in enumerate(domain.columns)}
    sensitive = {position[c] for c in SENSITIVE}

    def predict(rows):
        out = []
        for row in rows:
            p = 0.1 + (
                effect
                if row[position["sex"]] == "Female" and row[position["race"]] == "Black"
                else 0.0
            )
            rest = repr((salt, tuple(v for i, v in enumerate(row) if i not in sensitive)))
            out.append([0.0, 1.0] if zlib.crc32(rest.encode()) / 2**32 < p else [1.0, 0.0])
        return np.array(out)

    return CachedModel(CallableModel(predict, labels=[">50K", "<=50K"]))


def test_schema_inference_and_rules(domain):
    schema = domain.schema
    assert [(f.name, f.kind) for f in schema.sensitive] == [
        ("age", "integer"),
        ("race", "categorical"),
        ("sex", "categorical"),
    ]
    assert schema.favorable == ">50K"
    assert len(domain.single_rules("race")) == 2**5 - 2  # value subsets of 1..4 of 5 values
    assert len(domain.single_rules("sex")) == 2
    assert len(domain.single_rules("age")) == 10 * 11 // 2 - 1  # runs of adjacent bins
    female = domain.support_mask((Rule("sex", "Female"),))
    assert female.sum() == (ADULT["sex"] == "Female").sum()


def test_rewrite_sample_and_counterfactuals(domain):
    position = {c: i for i, c in enumerate(domain.columns)}
    rule_set = (Rule("race", "Black"), Rule("sex", "Female"))
    row = domain.rewrite(0, rule_set).input
    assert row[position["race"]] == "Black" and row[position["sex"]] == "Female"
    assert [v for i, v in enumerate(row) if i not in (position["race"], position["sex"])] == [
        v for i, v in enumerate(domain.input(0)) if i not in (position["race"], position["sex"])
    ]
    for variant in domain.sample(rule_set, 50, np.random.default_rng(0)):
        seed = domain.input(variant.seed_id)
        changed = [i for i, (a, b) in enumerate(zip(variant.input, seed, strict=True)) if a != b]
        assert len(changed) <= 1 and all(domain.columns[i] not in SENSITIVE for i in changed)
        assert domain.support_mask(rule_set)[variant.seed_id]
    counterfactuals = domain.counterfactuals(0, ["sex", "race"])
    assert len(counterfactuals) == 2 * 5 - 1


def test_planted_subgroup_is_found_first(domain):
    frequent = frequent_rule_sets(domain, theta=0.01, max_order=2, categories=["race", "sex"])
    findings = group_fairness(
        domain, planted(domain), frequent.rule_sets, frequent.supports, favorable=0, seed=1
    )
    top = findings[0]
    assert {(r.category, r.value) for r in top.rule_set} == {("race", "Black"), ("sex", "Female")}
    assert top.significant and top.ci[0] <= -0.2 <= top.ci[1]
    result = themis(domain, planted(domain), favorable=0, threshold=0.1, seed=1)
    scores = {c.categories: c.score for c in result.causal}
    assert scores[("age",)] == 0.0 and scores[("race", "sex")] > 0.1
    assert result.tests_run < result.tests_without_pruning


@pytest.mark.slow
def test_interval_coverage_and_a_fair_model_over_200_seeded_runs(domain):
    rule_set = (Rule("race", "Black"), Rule("sex", "Female"))
    support = float(domain.support_mask(rule_set).mean())
    covered, unfair = [], 0
    for run in range(200):
        finding = group_fairness(
            domain,
            planted(domain, salt=run),
            [rule_set],
            [support],
            favorable=0,
            max_samples=300,
            seed=run,
        )[0]
        covered.append(finding.ci[0] <= -0.2 <= finding.ci[1])
        fair = group_fairness(
            domain,
            planted(domain, salt=run, effect=0.0),
            [rule_set],
            [support],
            favorable=0,
            max_samples=300,
            seed=run,
        )[0]
        unfair += fair.significant
    assert np.mean(covered) >= 0.93
    assert unfair <= 10


def test_bad_input(tmp_path):
    with pytest.raises(TextfairError, match=r"no column 'gender'; columns are: age, workclass"):
        infer_schema(ADULT, label="income", sensitive=["gender"])
    with pytest.raises(TextfairError, match=r"has 16 values .*name the favourable one"):
        infer_schema(ADULT, label="education", sensitive=["sex"])
    with pytest.raises(TextfairError, match="sensitive feature 'sex' has a single value"):
        infer_schema(ADULT[ADULT["sex"] == "Male"], label="income", sensitive=["sex"])
    (tmp_path / "s.yaml").write_text(
        "label: income\nfavorable: '>50K'\nfeatures:\n"
        "  age: {kind: integer, low: 18, high: 65, sensitive: true}\n"
        "  sex: {kind: categorical, values: [Female, Male], sensitive: true}\n"
    )
    schema = load_schema(tmp_path / "s.yaml")
    with pytest.raises(TextfairError, match=r"'age' ranges over \[17, 90\], outside the schema"):
        schema.validate(ADULT)
