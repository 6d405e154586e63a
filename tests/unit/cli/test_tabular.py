"""`textfair tabular audit` and `search` on a real logistic regression over Adult rows."""

import json

import joblib
import pandas as pd
import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.models.baselines import logistic_regression

from conftest import DATA

runner = CliRunner()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    out = tmp_path_factory.mktemp("adult")
    frame = pd.read_csv(DATA / "adult_sample.csv")
    pipeline = logistic_regression(frame.drop(columns="income"), frame["income"], max_iter=500)
    joblib.dump(pipeline, out / "lr.joblib")
    frame.to_csv(out / "adult.csv", index=False)
    return out


def invoke(files, *args):
    base = [
        "--model",
        f"sklearn:{files / 'lr.joblib'}",
        "--data",
        str(files / "adult.csv"),
        "--label-column",
        "income",
    ]
    return runner.invoke(app, ["tabular", args[0], *base, *args[1:]], env={"COLUMNS": "200"})


@pytest.mark.slow  # a command-line tabular audit, 3 s: the fast tier keeps to 3 minutes
def test_tabular_audit_writes_findings_and_group_metrics(files):
    result = invoke(
        files,
        "audit",
        "--sensitive",
        "sex,race",
        "--favorable",
        ">50K",
        "--out",
        str(files / "report"),
    )
    assert result.exit_code == 0, result.output
    report = json.loads((files / "report" / "report.json").read_text())
    assert report["findings"] and set(report["findings"][0]["rule_set"][0]) == {"feature", "values"}
    groups = report["metrics"]["groups"]
    assert groups["sex=Female"]["disparate_impact"] < 1
    assert 0 <= report["metrics"]["consistency"] <= 1
    assert "## Group metrics" in (files / "report" / "report.md").read_text()


def test_tabular_search_exports_discriminatory_inputs(files):
    result = invoke(
        files,
        "search",
        "--sensitive",
        "sex,race",
        "--favorable",
        ">50K",
        "--global-budget",
        "300",
        "--local-budget",
        "300",
        "--out",
        str(files / "found.csv"),
    )
    assert result.exit_code == 0, result.output
    assert "discriminatory inputs" in result.output
    found = pd.read_csv(files / "found.csv")
    assert list(found.columns)[:3] == ["age", "workclass", "fnlwgt"] and len(found) > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sensitive", "gender"], "no column 'gender'; columns are: age"),
        (
            ["--sensitive", "sex", "--label-column", "education"],
            "name the favourable one (--favorable)",
        ),
        (["--sensitive", "sex", "--favorable", "rich"], "not a value of 'income'"),
    ],
)
def test_tabular_bad_input_is_one_line_exit_2(files, args, message):
    result = invoke(files, "audit", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_single_valued_sensitive_feature_and_schema_bounds(files, tmp_path):
    frame = pd.read_csv(files / "adult.csv")
    frame[frame["sex"] == "Male"].to_csv(tmp_path / "men.csv", index=False)
    result = runner.invoke(
        app,
        [
            "tabular",
            "audit",
            "--model",
            f"sklearn:{files / 'lr.joblib'}",
            "--data",
            str(tmp_path / "men.csv"),
            "--label-column",
            "income",
            "--sensitive",
            "sex",
            "--favorable",
            ">50K",
        ],
    )
    assert result.exit_code == 2 and "has a single value" in result.output
    (tmp_path / "s.yaml").write_text(
        "label: income\nfeatures:\n  age: {kind: integer, low: 18, high: 65}\n"
    )
    result = invoke(
        files,
        "audit",
        "--sensitive",
        "sex",
        "--favorable",
        ">50K",
        "--schema",
        str(tmp_path / "s.yaml"),
    )
    assert result.exit_code == 2 and "outside the schema's bounds [18, 65]" in result.output


def test_a_model_trained_on_other_label_names_needs_a_label_map(files, tmp_path):
    """A model trained on 0/1 and data labelled '>50K'/'<=50K': one line suggesting the map;
    with --label-map the audit runs. Empty labels are refused with a count."""
    frame = pd.read_csv(DATA / "adult_sample.csv")
    fitted = logistic_regression(
        frame.drop(columns="income"), (frame["income"] == ">50K").astype(int), max_iter=300
    )
    joblib.dump(fitted, tmp_path / "binary.joblib")
    base = ["tabular", "audit", "--model", f"sklearn:{tmp_path / 'binary.joblib'}"]
    base += ["--data", str(files / "adult.csv"), "--sensitive", "sex", "--label-column", "income"]
    refused = runner.invoke(app, [*base, "--favorable", ">50K"])
    assert refused.exit_code == 2, refused.output
    assert "the model's labels are 0, 1" in refused.output and "(--label-map)" in refused.output
    mapped = runner.invoke(
        app, [*base, "--label-map", ">50K=1,<=50K=0", "--favorable", "1", "--max-samples", "200"]
    )
    assert mapped.exit_code == 0, mapped.output
    holes = frame.copy()
    holes.loc[:4, "income"] = None
    holes.to_csv(tmp_path / "holes.csv", index=False)
    args = [*base[:4], "--data", str(tmp_path / "holes.csv"), "--sensitive", "sex"]
    empty = runner.invoke(app, [*args, "--label-column", "income", "--favorable", ">50K"])
    assert empty.exit_code == 2 and "is empty in 5 of" in empty.output
