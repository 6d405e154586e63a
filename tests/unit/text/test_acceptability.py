"""The acceptability score (issue 42, item 4): a logistic model shipped as JSON and scored
with NumPy, carried by every variant, and a threshold that leaves seeds out with their
reason; 0 gives the audit it gave before the score."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import textfair
from textfair.cli import main
from textfair.core.rules import Rule
from textfair.errors import TextfairError
from textfair.settings import DEFAULT_MIN_ACCEPTABILITY, AuditConfig
from textfair.text import _acceptability as acceptability
from textfair.text._acceptability import Scorer, score_variant
from textfair.text._acceptability_features import FEATURES
from textfair.text._acceptability_model import AcceptabilityModel, load_model
from textfair.text.domain import TextDomain
from textfair.text.matcher import Matcher

from conftest import runs_in_a_fresh_interpreter
from locations import DATA

TEXTS = [
    "Muslims are my neighbours.",
    "The Muslim family next door invited us.",
    "Christian Bale plays a Jewish lawyer in the film, and Mr. Bale is great.",
    "My gay friend and his husband came over.",
    "The sky is blue.",
]


def test_the_shipped_model_is_json_and_scores_probabilities():
    model = load_model()
    assert model.features == FEATURES
    assert np.all(model.scales > 0) and np.isfinite(model.coefficients).all()
    assert {"trained_on", "fitted", "labels"} <= set(model.meta)
    domain = TextDomain(TEXTS, min_acceptability=0)
    for index in range(len(TEXTS)):
        for category in domain.categories():
            for target in domain.targets_for(index, category):
                p = domain.acceptability(index, (Rule(category, target),))
                assert 0.0 < p < 1.0
    # No pickle anywhere: the package ships the JSON (package-data) and nothing else.
    files = {p.name for p in Path(acceptability.__file__).parent.iterdir()}
    assert "acceptability_model.json" in files
    assert not any(name.endswith((".pkl", ".pickle", ".joblib")) for name in files)


def test_scoring_needs_no_scikit_learn():
    runs_in_a_fresh_interpreter(
        "import sys, textfair\n"
        "v = textfair.counterfactuals('Muslims are my neighbours.')[0]\n"
        "assert 0 < v.acceptability < 1\n"
        "assert 'sklearn' not in sys.modules, 'sklearn imported'\n"
    )


def test_a_planted_feature_moves_the_score_the_way_its_sign_says():
    """A model that only rewards a name far from the mention: the text with a name right
    beside the mention scores lower than one without any name; flipped sign, flipped order."""
    k = FEATURES.index("log_name_distance")
    for sign in (1.0, -1.0):
        coefficients = np.zeros(len(FEATURES))
        coefficients[k] = sign
        model = AcceptabilityModel(
            FEATURES, np.zeros(len(FEATURES)), np.ones(len(FEATURES)), coefficients, 0.0
        )
        near = score_variant(
            "Our Jewish neighbour Daniel Levy came.", "religion", "muslim", model=model
        )
        far = score_variant("Our Jewish neighbour came.", "religion", "muslim", model=model)
        assert (far > near) == (sign > 0) and far != near
    # The Scorer (the domain's vectorised path) gives what score_variant gives.
    matcher = Matcher("dixon2018")
    text = TEXTS[2]
    scorer = Scorer(matcher.term_list)
    mentions = matcher.find(text)
    assert scorer.score(0, text, mentions, "religion", "muslim") == pytest.approx(
        score_variant(text, "religion", "muslim", terms=matcher, mentions=mentions)
    )


def test_every_variant_carries_its_score():
    (variant, *_) = textfair.counterfactuals("A gay man met an Asian woman.", ["race"])
    record = variant.to_record()
    assert record["acceptability"] == round(variant.acceptability, 3)
    rewritten = textfair.rule_satisfying("I am a lesbian.", {"gender": "gay"})
    assert rewritten is not None and 0 < rewritten.acceptability < 1
    domain = TextDomain(TEXTS, min_acceptability=0)
    made = domain.rewrite(0, (Rule("religion", "jewish"),))
    assert made is not None
    assert made.acceptability == domain.acceptability(0, (Rule("religion", "jewish"),))
    assert domain.acceptability_of(made.text) == made.acceptability
    assert domain.acceptability(0, (Rule("religion", "muslim"),)) == 1.0  # its own term
    assert domain.placebo(0, ["religion"]).acceptability is None


def test_a_threshold_leaves_seeds_out_as_low_acceptability():
    everything = TextDomain(TEXTS, categories=["religion"], min_acceptability=0)
    taking_part = int(everything.category_mask("religion").sum())
    assert taking_part >= 2 and everything.left_out["religion"]["low_acceptability"] == 0
    # Above every score: each seed that took part is left out, for that reason alone.
    none = TextDomain(TEXTS, categories=["religion"], min_acceptability=1.0)
    assert none.left_out["religion"]["low_acceptability"] == taking_part
    assert none.category_mask("religion").sum() == 0
    assert none.recall()["religion"] == 0.0
    # Between two seeds' best targets: the better one stays, with only its kept targets.
    best = {
        i: max(everything.acceptability(i, (Rule("religion", t),)) for t in targets)
        for i in np.flatnonzero(everything.category_mask("religion"))
        if (targets := everything.targets_for(int(i), "religion"))
    }
    low, high = sorted(best.values())[:2]
    middle = TextDomain(TEXTS, categories=["religion"], min_acceptability=(low + high) / 2)
    assert middle.left_out["religion"]["low_acceptability"] == 1
    for i in np.flatnonzero(middle.category_mask("religion")):
        for target in middle.targets_for(int(i), "religion"):
            assert middle.acceptability(int(i), (Rule("religion", target),)) >= (low + high) / 2
    # The generators take the same threshold.
    assert textfair.counterfactuals(TEXTS[0], ["religion"], min_acceptability=1.0) == []


def test_zero_gives_the_rules_alone():
    """At --min-acceptability 0 the score takes nothing out: every seed and target the rules
    allow on the bundled comments is audited (the same rows, targets and variants as the
    rules' own plans), and a threshold only ever removes (0.9: at the default 0.5 the
    refitted score of issue 56 leaves no seed of the comments out)."""
    from textfair.corpus import load_corpus

    texts = list(load_corpus(None).texts)
    everything = TextDomain(texts, min_acceptability=0)
    scored = TextDomain(texts, min_acceptability=0.9)
    plans = [
        everything.coherence.plan(t, everything.mentions(i), everything.matcher.other_uses(t))
        for i, t in enumerate(texts)
    ]
    for category in everything.categories():
        assert everything.left_out[category]["low_acceptability"] == 0
        for index in range(len(texts)):
            plan = plans[index].get(category)
            allowed = sorted(plan.targets) if plan and plan.left_out is None else []
            assert sorted(everything.targets_for(index, category)) == allowed
            assert set(scored.targets_for(index, category)) <= set(allowed)
    assert sum(scored.left_out[c]["low_acceptability"] for c in scored.categories()) > 0


def test_the_threshold_is_checked_before_anything_runs(capsys):
    assert AuditConfig().min_acceptability == DEFAULT_MIN_ACCEPTABILITY
    for wrong in (-0.1, 1.5, float("nan"), "0.5"):
        with pytest.raises(TextfairError, match="min_acceptability"):
            AuditConfig(min_acceptability=wrong).checked()
    with pytest.raises(TextfairError, match="min_acceptability"):
        TextDomain(TEXTS, min_acceptability=1.5)
    for command in (
        ["counterfactuals", "--text", TEXTS[0]],
        ["audit", "--out", "unused"],
        ["mitigate", "--out", "unused"],
    ):
        with pytest.raises(SystemExit) as stop:
            main([*command, "--min-acceptability", "1.5"])
        error = capsys.readouterr().err.strip().splitlines()
        assert stop.value.code == 2 and len(error) == 1 and "--min-acceptability" in error[0]
    # An old report (before the score) is read back as the audit it was: no threshold.
    assert AuditConfig.from_dict({"theta": 0.05}).min_acceptability == 0.0


def test_the_counterfactuals_command_writes_and_filters_by_the_score(capsys):
    """Each variant's score is the product of its swaps' (one category's targets share a
    score here, so a threshold between the two categories' keeps one category's swaps)."""
    text = "The gay Muslim man waved."
    with pytest.raises(SystemExit):
        main(["counterfactuals", "--text", text, "--min-acceptability", "0"])
    written = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert written and all(0 < r["acceptability"] < 1 for r in written)
    assert all(r["acceptability"] == round(r["acceptability"], 3) for r in written)
    single = {r["category"]: r["acceptability"] for r in written if "+" not in r["category"]}
    assert set(single) == {"gender", "religion"} and single["gender"] != single["religion"]
    for r in written:
        if "+" in r["category"]:
            assert r["acceptability"] == pytest.approx(
                single["gender"] * single["religion"], abs=0.002
            )
    cut = sum(single.values()) / 2
    with pytest.raises(SystemExit):
        main(["counterfactuals", "--text", text, "--min-acceptability", str(cut)])
    kept = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    better = max(single, key=single.__getitem__)
    assert kept and {r["category"] for r in kept} == {better}


def _fixture(tmp_path: Path) -> tuple[Path, int]:
    """A small gold file: 150 tune records of the acceptability gold set, and frozen records
    that would break the fit if they were read (a term no list has); with the number of
    readings of the units the current rules still write word for word."""
    from textfair.text._evaluation import rewrite_status

    lines = (DATA / "acceptability_gold.jsonl").read_text(encoding="utf-8").splitlines()
    records = [r for r in map(json.loads, lines) if r["split"] == "tune"][::7][:150]
    readings = sum(len(r["labels"]) for r in records if rewrite_status(r) == "same")
    for k in range(5):
        records.append(
            {"split": "frozen", "text": "x", "category": "nope", "target": f"no-term-{k}"}
        )
    path = tmp_path / "gold.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path, readings


# Slow tier: a grouped cross-validated refit over the C grid (4 s).
@pytest.mark.slow
def test_the_fit_script_refits_on_the_tune_half_and_writes_a_loadable_model(tmp_path, capsys):
    from textfair.text.acceptability_fit import main as fit

    out = tmp_path / "model.json"
    gold, readings = _fixture(tmp_path)
    assert fit(["--gold", str(gold), "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert 0 <= printed["cv_ece"] <= 1 and printed["readings"] == readings
    assert set(printed["per_kind"]) >= {"comment", "review", "sentence", "all"}
    model = load_model(out)
    assert model.meta["cross_validation"]["cv_ece"] == printed["cv_ece"]
    assert "tune half" in model.meta["trained_on"]
    p = score_variant(TEXTS[0], "religion", "jewish", model=model)
    assert 0 < p < 1


def test_ece_is_the_weighted_gap_between_confidence_and_accuracy():
    from textfair.text.acceptability_fit import ece

    rng = np.random.default_rng(0)
    p = rng.uniform(size=20000)
    assert ece(p, (rng.uniform(size=p.size) < p).astype(int)) < 0.02  # calibrated
    assert ece(np.full(1000, 0.9), np.zeros(1000)) == pytest.approx(0.9)


def test_an_audit_whose_every_seed_scores_too_low_says_so_not_that_none_mentions():
    with pytest.raises(TextfairError) as caught:
        # The corpus alone (templates would still test something): its one line.
        textfair.audit("toxicity-cnn-lstm", TEXTS, min_acceptability=1.0, templates="none")
    said = str(caught.value)
    assert "none can be rewritten" in said and "low_acceptability" in said
    assert "--min-acceptability (now 1;" in said and "\n" not in said
    assert "mentions a term" not in said
