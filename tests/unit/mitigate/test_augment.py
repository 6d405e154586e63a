"""Augmentation data: counterfactuals keep their label; TestSGD rows get the denied outcome."""

import json

import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.core.rules import Rule, RuleSet
from textfair.errors import TextfairError
from textfair.mitigate._strategies import target_rule_sets
from textfair.mitigate.augment import counterfactual_augmentation, rule_set_augmentation
from textfair.report.model import AuditReport, Finding, ModelInfo, RunStats
from textfair.text.matcher import default_matcher

TEXTS = ["I am a gay Muslim.", "A lesbian Christian spoke.", "Nothing here.", "Muslims pray."]


def report(significant=True) -> AuditReport:
    """An audit report with one finding: {gay, taoist} gets the favourable label far less."""
    finding = Finding(
        rule_set=RuleSet((Rule("gender", "gay"), Rule("religion", "taoist"))),
        phi_r=0.2,
        phi_not_r=0.9,
        score=0.7,
        margin=0.1,
        ci=(-0.8, -0.6),
        p_value=1e-6,
        n_r=100,
        n_not_r=100,
        support=0.1,
        p_adjusted=1e-5,
        significant=significant,
    )
    return AuditReport(
        kind="text",
        model=ModelInfo("m", None, ("non-toxic", "toxic"), "non-toxic"),
        data={},
        config={"term_list": "dixon2018"},
        findings=(finding,),
        counterfactual=None,
        metrics=None,
        run=RunStats(0, 0, 0, 0, 0, 0.0),
    )


def test_counterfactual_augmentation_keeps_labels_and_provenance():
    rows = counterfactual_augmentation(TEXTS, ["toxic", "ok", "ok", "toxic"], max_per_text=4)
    assert {row["seed_id"] for row in rows} == {0, 1, 3}
    assert all(row["label"] == ["toxic", "ok", "ok", "toxic"][row["seed_id"]] for row in rows)
    assert all(row["transformation"] == "counterfactual" and "->" in row["source"] for row in rows)
    assert len([r for r in rows if r["seed_id"] == 0]) == 4


def test_rule_set_augmentation_labels_with_the_denied_outcome():
    rows = rule_set_augmentation(report(), TEXTS, per_rule_set=10, seed=0)
    assert {row["seed_id"] for row in rows} == {0, 1}
    matcher = default_matcher()
    for row in rows:
        terms = {m.term_id for m in matcher.find(row["text"])}
        assert {"gay", "taoist"} <= terms
        assert row["label"] == "non-toxic"  # the favourable outcome the group was denied
    assert "I am a gay Taoist." in {row["text"] for row in rows}
    with pytest.raises(TextfairError, match="no significant finding"):
        rule_set_augmentation(report(significant=False), TEXTS)
    # Named targets (a comparison aiming at the most credible findings) are used as given.
    quiet = report(significant=False)
    targets = target_rule_sets(quiet, 3, credible=True)
    assert targets == [quiet.findings[0].rule_set] and not target_rule_sets(quiet, 3)
    named = rule_set_augmentation(quiet, TEXTS, per_rule_set=10, seed=0, targets=targets)
    assert named == rows


def test_augment_cli(tmp_path):
    data = tmp_path / "train.csv"
    data.write_text("text,label\nI am a gay Muslim.,toxic\nNothing here.,ok\n")
    (tmp_path / "report.json").write_text(json.dumps(report().to_dict()))
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "augment",
            "--data",
            str(data),
            "--text-column",
            "text",
            "--label-column",
            "label",
            "--out",
            str(tmp_path / "a.jsonl"),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert lines and all(line["label"] == "toxic" for line in lines)
    result = runner.invoke(
        app,
        [
            "augment",
            "--data",
            str(data),
            "--text-column",
            "text",
            "--method",
            "rule-sets",
            "--report",
            str(tmp_path / "report.json"),
            "--out",
            str(tmp_path / "b.csv"),
        ],
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app,
        ["augment", "--data", str(data), "--text-column", "text", "--out", str(tmp_path / "c.csv")],
    )
    assert result.exit_code == 2 and "needs --label-column" in result.output
