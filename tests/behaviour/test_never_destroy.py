"""A user's input is never overwritten: an --out that would replace the data, the model or the
report the run reads stops the run before any work, with one line and exit code 2."""

import hashlib
import os
import shutil
import sys

import joblib
import pandas as pd
import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.models.baselines import logistic_regression
from textfair.report.files import write_report

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
    table = ["--sensitive", "sex", "--label-column", "income", "--favorable", ">50K"]
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


def test_an_output_directory_holding_other_files_is_refused_before_the_audit(files, monkeypatch):
    """The report directory is replaced as a whole, so one that holds the data (or anything
    textfair did not write) is refused, with --overwrite too."""
    write_flat_model(files)
    monkeypatch.syspath_prepend(str(files))
    before = digest(files / "c.csv")
    args = ["audit", "--model", "py:models:flat", "--data", str(files / "c.csv")]
    for extra in ([], ["--overwrite"]):
        result = runner.invoke(
            app, [*args, "--text-column", "comment", "--out", str(files), *extra]
        )
        assert result.exit_code == 2, result.output
        assert "did not write" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (files / "report.json").exists() and digest(files / "c.csv") == before


@pytest.mark.slow  # three audits through the CLI: 9 s of the fast tier's 3 minutes
def test_an_earlier_report_is_replaced_only_with_overwrite(files, monkeypatch):
    write_flat_model(files)
    monkeypatch.syspath_prepend(str(files))
    args = ["audit", "--model", "py:models:flat", "--data", str(files / "c.csv")]
    args += ["--text-column", "comment", "--out", str(files / "report")]
    assert runner.invoke(app, args).exit_code == 0
    first = digest(files / "report" / "report.json")
    again = runner.invoke(app, [*args, "--seed", "1"])
    assert again.exit_code == 2 and "--overwrite" in again.output
    assert digest(files / "report" / "report.json") == first
    replaced = runner.invoke(app, [*args, "--seed", "1", "--overwrite"])
    assert replaced.exit_code == 0, replaced.output
    assert digest(files / "report" / "report.json") != first
    assert sorted(p.name for p in files.iterdir() if p.name.startswith(".")) == []


def _write_killed_at(step: int, report, out, page: str) -> int:
    """Write `report` over `out` in a child process that dies (os._exit, as under SIGKILL:
    no cleanup runs) at the `step`-th line executed in textfair's writing code; its exit
    code is 9 when it died there, 0 when the write finished first. The page is the one
    rendered beforehand (rendering is deterministic), so tracing stays in the writing code."""
    pid = os.fork()
    if pid == 0:  # the child
        import textfair.report.html

        textfair.report.html.render_html = lambda _report: page
        seen = 0

        def trace(frame, event, arg):
            nonlocal seen
            code = frame.f_code
            if code.co_filename.endswith(WRITING_CODE) or code.co_name == "write_report":
                if event == "line":
                    seen += 1
                    if seen == step:
                        os._exit(9)
                return trace
            return None

        sys.settrace(trace)
        try:
            write_report(report, out, overwrite=True)
        finally:
            os._exit(0)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


# The modules that write a report set (a write killed inside them must leave a whole set).
WRITING_CODE = ("textfair/io/_atomic.py", "textfair/report/files.py")


@pytest.mark.slow  # about 13 s: a write killed at every step, each in a fresh process
def test_a_report_write_killed_at_any_step_leaves_the_old_set_or_the_new_one(tmp_path):
    import textfair

    texts = ["a gay man", "a straight man", "a Muslim woman", "a Christian woman"] * 30

    def flags_gay(batch):
        return ["toxic" if "gay" in t else "non-toxic" for t in batch]

    model = textfair.as_model(flags_gay, label_names=["non-toxic", "toxic"])
    old = textfair.audit(model, texts, seed=0, min_samples=10, max_samples=40)
    new = textfair.audit(model, texts, seed=1, min_samples=10, max_samples=40)
    out = tmp_path / "report"
    write_report(old, out)
    old_set = {p.name: p.read_bytes() for p in out.iterdir()}
    write_report(new, tmp_path / "expected")
    new_set = {p.name: p.read_bytes() for p in (tmp_path / "expected").iterdir()}
    assert old_set != new_set and set(old_set) == set(new_set)
    outcomes, step = [], 1
    while True:
        code = _write_killed_at(step, new, out, new_set["report.html"].decode())
        found = {p.name: p.read_bytes() for p in out.iterdir()}
        assert found in (old_set, new_set), f"killed at step {step}: a mix or a partial set"
        outcomes.append("new" if found == new_set else "old")
        if code == 0:
            break
        assert code == 9
        shutil.rmtree(out)  # back to the old set for the next kill
        out.mkdir()
        for name, content in old_set.items():
            (out / name).write_bytes(content)
        step += 1
    assert step > 20 and "old" in outcomes and outcomes[-1] == "new"
    # What killed writers left beside the directory goes with the next write.
    write_report(new, out, overwrite=True)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
