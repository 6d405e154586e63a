"""`textfair tabular audit` and `search` on a real logistic regression over Adult rows."""

import json

import joblib
import pandas as pd
import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.tabular.baselines import logistic_regression

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
        "--label",
        "income",
    ]
    return runner.invoke(app, ["tabular", args[0], *base, *args[1:]], env={"COLUMNS": "200"})


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
        (["--sensitive", "sex", "--label", "education"], "name the favourable one (--favorable)"),
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
            "--label",
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
