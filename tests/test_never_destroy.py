"""A user's input is never overwritten: an --out that would replace the data, the model or the
report the run reads stops the run before any work, with one line and exit code 2."""

import hashlib

import joblib
import pandas as pd
import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.tabular.baselines import logistic_regression

from conftest import DATA, write_flat_model

runner = CliRunner()


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    out = tmp_path_factory.mktemp("inputs")
    (out / "c.csv").write_text(
        "comment,label\nI am a gay man.,toxic\nA Muslim woman spoke.,non-toxic\n"
    )
    frame = pd.read_csv(DATA / "adult_sample.csv")
    (out / "adult.csv").write_text(frame.to_csv(index=False))
    model_dir = out / "OUT" / "model"
    model_dir.mkdir(parents=True)
    fitted = logistic_regression(frame.drop(columns="income"), frame["income"], max_iter=300)
    joblib.dump(fitted, model_dir / "model.joblib")
    return out


def cases(files):
    c, adult, model = files / "c.csv", files / "adult.csv", files / "OUT" / "model" / "model.joblib"
    table = ["--sensitive", "sex", "--label", "income", "--favorable", ">50K"]
    return {
        "counterfactuals onto its data": (
            ["counterfactuals", "--data", str(c), "--text-column", "comment", "--out", str(c)],
            c,
        ),
        "augment onto its data": (
            [
                "augment",
                "--data",
                str(c),
                "--text-column",
                "comment",
                "--label-column",
                "label",
                "--out",
                str(c),
            ],
            c,
        ),
        "predict onto its data": (
            ["predict", "--data", str(c), "--text-column", "comment", "--out", str(c)],
            c,
        ),
        "tabular search onto its data": (
            [
                "tabular",
                "search",
                "--model",
                f"sklearn:{model}",
                "--data",
                str(adult),
                *table,
                "--out",
                str(adult),
            ],
            adult,
        ),
        "tabular augment onto its model": (
            [
                "tabular",
                "augment",
                "--model",
                f"sklearn:{model}",
                "--data",
                str(adult),
                *table,
                "--out",
                str(model),
            ],
            model,
        ),
        "tabular mitigate over the folder of its model": (
            [
                "tabular",
                "mitigate",
                "--model",
                f"sklearn:{model}",
                "--data",
                str(adult),
                *table,
                "--out",
                str(files / "OUT"),
            ],
            model,
        ),
    }


@pytest.mark.parametrize(
    "name",
    [
        "counterfactuals onto its data",
        "augment onto its data",
        "predict onto its data",
        "tabular search onto its data",
        "tabular augment onto its model",
        "tabular mitigate over the folder of its model",
    ],
)
def test_an_output_that_would_replace_an_input_is_refused(files, name):
    args, endangered = cases(files)[name]
    before = digest(endangered)
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "would overwrite" in line and len(line.splitlines()) == 1 and "Traceback" not in line
    assert digest(endangered) == before


def test_an_audit_may_write_beside_its_data(files, monkeypatch):
    """The output directory may hold the data: only report.json and report.md are written."""
    write_flat_model(files)
    monkeypatch.syspath_prepend(str(files))
    before = digest(files / "c.csv")
    args = ["audit", "--model", "py:models:flat", "--data", str(files / "c.csv")]
    result = runner.invoke(app, [*args, "--text-column", "comment", "--out", str(files)])
    assert result.exit_code == 0, result.output
    assert (files / "report.json").is_file() and digest(files / "c.csv") == before
