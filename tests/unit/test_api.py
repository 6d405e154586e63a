"""The Python API returns what the CLI writes: the same findings and counterfactual results for
the same model, inputs and seed, whichever form the model takes in the notebook."""

import json
from importlib import resources

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from typer.testing import CliRunner

import textfair
from textfair.cli import app
from textfair.errors import TextfairError
from textfair.report.model import AuditReport

from conftest import DATA, bundled_comments

SETTINGS = {"categories": ["gender", "religion"], "max_samples": 200, "seed": 4}
OPTIONS = ["--categories", "gender,religion", "--max-samples", "200", "--seed", "4"]
KEYWORDS = ("stupid", "idiot", "fuck", "gay", "jew")

runner = CliRunner()


def keyword_model(texts):
    """A plain function: toxic when a keyword appears (a crude but deterministic classifier)."""
    hits = np.array([any(k in t.lower() for k in KEYWORDS) for t in texts], dtype=float)
    return np.column_stack([1 - 0.8 * hits - 0.1, 0.8 * hits + 0.1])


keyword_model.labels = ["non-toxic", "toxic"]


def _cli_report(tmp_path, spec: str) -> dict:
    out = tmp_path / "cli"
    result = runner.invoke(
        app, ["audit", "--model", spec, "--device", "cpu", *OPTIONS, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return json.loads((out / "report.json").read_text())


def _same(api: AuditReport, cli: dict) -> None:
    record = api.to_dict()
    assert record["findings"] == cli["findings"]
    # Probabilities may differ in the last bits when a transformer's batches are cut
    # differently; decisions, and so findings and flip counts, do not.
    assert _close(record["counterfactual"], cli["counterfactual"])
    assert _close(record["metrics"], cli["metrics"])
    assert api.findings, "the audit found no rule set to compare"


def _close(first, second, tolerance: float = 1e-6) -> bool:
    if isinstance(first, dict) and isinstance(second, dict):
        return first.keys() == second.keys() and all(_close(first[k], second[k]) for k in first)
    if isinstance(first, list) and isinstance(second, list):
        return len(first) == len(second) and all(map(_close, first, second))
    if isinstance(first, float) and isinstance(second, float):
        return abs(first - second) <= tolerance
    return first == second


@pytest.mark.slow  # builds and trains a small transformer: about 6 s
def test_a_hugging_face_pipeline(tmp_path):
    from transformers import pipeline  # seconds to import: only the tests that use it pay

    tiny = textfair.load_model("toxicity-tiny-transformer", device="cpu", batch_size=64)
    classifier = pipeline("text-classification", model=tiny.network, tokenizer=tiny.tokenizer)
    report = textfair.audit(classifier, **SETTINGS)
    assert isinstance(report, AuditReport) and report.model.labels == ("non-toxic", "toxic")
    bundled = resources.files("textfair").joinpath("bundled_models", "toxicity-tiny-transformer")
    _same(report, _cli_report(tmp_path, f"hf:{bundled}"))


@pytest.mark.slow  # trains a pipeline and audits it twice: 5 s of the fast tier's 3 minutes
def test_a_scikit_learn_pipeline_trained_here(tmp_path):
    texts, labels = bundled_comments()
    fitted = Pipeline([("tfidf", TfidfVectorizer()), ("lr", LogisticRegression(max_iter=500))])
    fitted.fit(texts, labels)
    report = textfair.audit(fitted, **SETTINGS)
    joblib.dump(fitted, tmp_path / "lr.joblib")
    _same(report, _cli_report(tmp_path, f"sklearn:{tmp_path / 'lr.joblib'}"))


def test_a_plain_function(tmp_path, monkeypatch):
    (tmp_path / "keywords.py").write_text(
        "from unit.test_api import keyword_model\n"  # the very function the API call below gets
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    report = textfair.audit(keyword_model, **SETTINGS)
    _same(report, _cli_report(tmp_path, "py:keywords:keyword_model"))


def test_data_as_a_frame_a_list_or_a_path(tmp_path):
    texts, labels = bundled_comments()
    frame = pd.DataFrame({"comment": texts, "toxic": labels})
    settings = {"categories": ["religion"], "max_samples": 100, "causal": False}
    from_frame = textfair.audit(
        keyword_model, frame, text_column="comment", labels="toxic", **settings
    )
    from_list = textfair.audit(keyword_model, texts, labels=labels, **settings)
    frame.to_csv(tmp_path / "c.csv", index=False)
    from_path = textfair.audit(
        keyword_model, tmp_path / "c.csv", text_column="comment", labels="toxic", **settings
    )
    assert from_frame.findings == from_list.findings == from_path.findings
    assert from_frame.metrics == from_list.metrics
    # A TermList object as `terms` gives the same audit, and a report that can be written.
    as_object = textfair.audit(
        keyword_model, texts, terms=textfair.load_term_list("dixon2018"), **settings
    )
    assert as_object.findings == from_list.findings
    assert json.loads(json.dumps(as_object.to_dict()))["config"]["term_list"] == "dixon2018"
    with pytest.raises(TextfairError, match="unknown setting 'thetta'"):
        textfair.audit(keyword_model, texts, thetta=0.1)
    with pytest.raises(TextfairError, match="labels has 2 values for"):
        textfair.audit(keyword_model, texts, labels=["toxic", "non-toxic"])
    with pytest.raises(TextfairError, match="data is a int"):
        textfair.audit(keyword_model, 3)


def test_audit_table_takes_a_frame_and_a_fitted_pipeline():
    from textfair.models.baselines import logistic_regression

    frame = pd.read_csv(DATA / "adult_sample.csv")
    fitted = logistic_regression(frame.drop(columns="income"), frame["income"], max_iter=500)
    report = textfair.audit_table(
        fitted, frame, label="income", sensitive=["sex", "race"], max_samples=200
    )
    assert report.kind == "rows" and report.findings
    assert report.findings_frame()["rule_set"].str.startswith("{").all()


def test_a_library_error_names_the_parameter_as_python_spells_it():
    """A notebook user is told favorable=, not only the CLI's --favorable (issue 29)."""
    from textfair.models.decision import parse_decision

    with pytest.raises(TextfairError, match=r"--favorable \(favorable= in Python"):
        parse_decision(("LABEL_0", "LABEL_1"))
