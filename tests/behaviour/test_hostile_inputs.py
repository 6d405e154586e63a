"""What a hostile or careless input must not do (issue 27's probe, class by class): print raw
terminal escapes, put HTML into a Markdown report, mix a model's prints into predict's output,
let two runs replace each other's output in silence, show Python's warning format, advise
loading a pickle unsafely, or raise a TypeError that names no parameter. The one-line cases
with their exit codes are in test_faults.py; these need more than one line to check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import textfair
from textfair.cli import main
from textfair.errors import TextfairError
from textfair.io import atomic_directory, atomic_writer, printable

CONTROL = {chr(c) for c in range(32)} - {"\n"} | {"\x7f", "\u202e"}

BIASED = """
import numpy as np

def biased(texts):
    # Toxic whenever "gay" appears: a planted finding, so the report shows examples.
    toxic = np.array([0.9 if "gay" in t.lower() else 0.1 for t in texts])
    return np.stack([1 - toxic, toxic], axis=1)
biased.labels = ["non-toxic", "toxic"]

def chatty(texts):
    import os
    print("loading weights...")
    os.write(1, b"native library says hi\\n")
    return np.tile([0.8, 0.2], (len(texts), 1))
chatty.labels = ["non-toxic", "toxic"]

def slow(texts):
    import time
    time.sleep(1.5)
    return np.tile([0.8, 0.2], (len(texts), 1))
slow.labels = ["non-toxic", "toxic"]
"""


@pytest.fixture
def models(tmp_path, monkeypatch) -> Path:
    (tmp_path / "hostile_models.py").write_text(BIASED)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(argv, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as ended:
        main([str(a) for a in argv])
    captured = capsys.readouterr()
    return ended.value.code, captured.out, captured.err


def test_printable_makes_every_control_character_visible():
    hostile = "name\x1b]0;pwned\x07\x1b[2J\r\u202eevil\u2028x"
    shown = printable(hostile)
    assert not set(shown) & CONTROL and "\u2028" not in shown
    assert "\\x1b]0;pwned\\x07" in shown and "\\u202e" in shown
    assert printable("café – naïve 🎉") == "café – naïve 🎉"


@pytest.mark.parametrize("where", ["column", "file name"])
def test_names_from_a_users_file_reach_the_terminal_escaped(where, tmp_path, capsys):
    name = "\x1b]0;pwned\x07"
    data = tmp_path / (f"{name}.csv" if where == "file name" else "c.csv")
    data.write_text(f"{name if where == 'column' else 'comment'},label\na gay man,toxic\n")
    code, _, err = run(["audit", "--data", data, "--text-column", "nope"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert not set(err.strip()) & CONTROL, repr(err)
    assert "\\x1b]0;pwned\\x07" in err


def test_report_md_shows_user_html_as_text(models, capsys):
    hostile = "<script>alert(1)</script> <!-- hidden --> [link](javascript:x)"
    rows = [f"{hostile} a gay man said hi {i}" for i in range(40)]
    rows += [f"{hostile} a straight man said hi {i}" for i in range(40)]
    (models / "c.csv").write_text("comment\n" + "\n".join(f'"{r}"' for r in rows) + "\n")
    argv = ["audit", "--model", "py:hostile_models:biased", "--data", "c.csv"]
    code, _, err = run([*argv, "--text-column", "comment", "--out", "r"], capsys)
    assert code == 0, err
    markdown = (models / "r" / "report.md").read_text()
    assert "Example for" in markdown  # the planted finding's example lines are there
    assert "<script>" not in markdown and "<!--" not in markdown and "](javascript" not in markdown
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in markdown


def test_a_models_prints_never_reach_predicts_output(models, capfd):
    texts = ["--text", "a gay man", "--text", "a straight woman"]
    with pytest.raises(SystemExit) as ended:
        main(["predict", "--model", "py:hostile_models:chatty", *texts])
    out, err = capfd.readouterr()
    assert ended.value.code == 0, err
    records = [json.loads(line) for line in out.splitlines()]  # every line is a record
    assert [r["text"] for r in records] == ["a gay man", "a straight woman"]
    assert "loading weights" in err and "native library says hi" in err


def test_a_pickle_warning_is_one_line(models, capsys):
    import joblib
    from sklearn.dummy import DummyClassifier

    joblib.dump(DummyClassifier().fit([[0], [1]], ["non-toxic", "toxic"]), models / "m.joblib")
    with pytest.warns(UserWarning):  # the library warns as Python does
        textfair.models.spec.load_model(f"sklearn:{models / 'm.joblib'}")
    code, _, err = run(["predict", "--model", "sklearn:m.joblib", "--text", "a"], capsys)
    lines = err.strip().splitlines()
    assert code == 0 and len(lines) == 1 and lines[0].startswith("warning: loading m.joblib")


def test_a_damaged_pytorch_checkpoint_is_one_line_without_unsafe_advice(models, capsys):
    from conftest import PACKAGE_DATA

    bundled = PACKAGE_DATA.parent / "bundled_models" / "toxicity-tiny-transformer"
    target = models / "hf_damaged"
    target.mkdir()
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json"):
        (target / name).write_bytes((bundled / name).read_bytes())
    (target / "pytorch_model.bin").write_bytes(b"not a checkpoint")
    code, _, err = run(["predict", "--model", "hf:hf_damaged", "--text", "a"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert "weights_only" not in err and "safe_serialization" in lines[0]


def test_a_duplicate_column_error_says_so_once(tmp_path, capsys):
    (tmp_path / "d.csv").write_text("comment,comment\na gay man,x\n")
    code, _, err = run(["audit", "--data", tmp_path / "d.csv", "--text-column", "x"], capsys)
    assert code == 2 and "duplicate column" in err and "could not parse" not in err


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"true_labels": 5}, "true_labels"),
        ({"theta": "abc"}, "theta"),
        ({"seed": 1.5}, "seed"),
        ({"max_order": None}, "max_order"),
        ({"group": "yes"}, "group"),
    ],
)
def test_the_python_api_names_the_parameter_of_the_wrong_type(settings, named):
    def flat(texts):
        return np.tile([0.8, 0.2], (len(texts), 1))

    flat.labels = ["non-toxic", "toxic"]
    with pytest.raises(TextfairError) as raised:
        textfair.audit(flat, ["a gay man", "a straight man"], **settings)
    assert str(raised.value).startswith(named + " ")


def test_numpy_numbers_are_settings_too():
    from textfair.settings import AuditConfig

    assert AuditConfig(seed=np.int64(3), theta=np.float64(0.1)).checked().seed == 3


@pytest.mark.parametrize(("group", "causal"), [(True, True), (True, False), (False, True)])
def test_an_audit_announces_as_many_stages_as_it_runs(group, causal):
    from textfair.auditing.report import audit_stages
    from textfair.auditing.text import audit_text
    from textfair.settings import AuditConfig

    def flat(texts):
        return np.tile([0.8, 0.2], (len(texts), 1))

    flat.labels = ["non-toxic", "toxic"]
    texts = ["a gay man", "a straight man", "a muslim woman", "a christian woman"] * 5
    for labels in (None, ["toxic", "non-toxic"] * 10):
        config = AuditConfig(group=group, causal=causal, min_samples=5, max_samples=20)
        stages: list[str] = []
        audit_text(flat, texts, labels=labels, config=config, progress=stages.append)
        assert len(stages) == audit_stages(config), stages


def test_progress_never_shows_more_stages_than_its_total():
    import io

    from rich.console import Console

    from textfair.cli._progress import Stages

    shown = Stages(2, console=Console(file=io.StringIO(), force_terminal=False), every=60)
    with shown as advance:
        for stage in ("one", "two", "three"):
            advance(stage)
    assert shown.number == 3 and shown.stages == 3


def test_a_file_another_run_published_meanwhile_is_kept(tmp_path):
    target = tmp_path / "variants.jsonl"
    with (
        pytest.raises(TextfairError, match="another run"),
        atomic_writer(target, replace=False) as handle,
    ):
        handle.write("mine\n")
        target.write_text("theirs\n")  # the other run finishes first
    assert target.read_text() == "theirs\n"
    assert [p.name for p in tmp_path.iterdir()] == ["variants.jsonl"]  # no staging left


def test_a_directory_another_run_published_meanwhile_is_kept(tmp_path):
    target = tmp_path / "report"
    target.mkdir()  # empty: allowed at the start
    with (
        pytest.raises(TextfairError, match="another run"),
        atomic_directory(target, replace=False) as staging,
    ):
        (staging / "report.json").write_text("mine")
        (target / "report.json").write_text("theirs")
    assert (target / "report.json").read_text() == "theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["report"]


@pytest.mark.slow  # two command-line audits at once, 4 s: the fast tier keeps to 3 minutes
def test_two_runs_given_one_new_out_do_not_both_succeed(models):
    """Both start before either has written: one publishes, the other says so (exit 2)."""
    (models / "c.csv").write_text("comment\na gay man\na straight man\n")
    argv = [sys.executable, "-m", "textfair", "predict", "--model", "py:hostile_models:slow"]
    argv += ["--data", "c.csv", "--text-column", "comment", "--out", "scores.jsonl"]
    import os

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(models), *sys.path])}
    runs = [
        subprocess.Popen(argv, cwd=models, env=env, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    results = sorted((p.wait(timeout=120), p.stderr.read()) for p in runs)
    assert [code for code, _ in results] == [0, 2], results
    assert "another run" in results[1][1] and len(results[1][1].strip().splitlines()) == 1
    assert len((models / "scores.jsonl").read_text().splitlines()) == 2


def test_names_from_a_users_term_list_reach_the_terminal_tables_escaped(models, capsys):
    """A term list's own names are user text too: the causal table shows a category name
    with a bidi override escaped, and rich's markup in it as text."""
    (models / "t.yaml").write_text(
        "name: t\ncategories:\n"
        '  "[bold]orient\\u202eation": [gay, straight]\n  religion: [muslim, christian]\n'
    )
    rows = [
        f"a {t} {r} man said hi {i}"
        for t in ("gay", "straight")
        for r in ("muslim", "christian")
        for i in range(20)
    ]
    (models / "c.csv").write_text("comment\n" + "\n".join(rows) + "\n")
    argv = ["audit", "--model", "py:hostile_models:biased", "--data", "c.csv"]
    code, out, err = run([*argv, "--text-column", "comment", "--terms", "t.yaml"], capsys)
    assert code == 0, err
    assert "[bold]orient\\u202eation" in out and not set(out) & CONTROL


def test_in_a_terminal_the_bar_follows_the_items_done():
    """Work counted in items (predict, counterfactuals): the bar's count is the items done,
    read while the work runs, not only the stages begun."""
    import io
    import time

    from rich.console import Console

    from textfair.cli._progress import Stages

    done = [0]
    stages = Stages(
        items=lambda: done[0],
        total=10,
        console=Console(file=io.StringIO(), force_terminal=True, width=80),
    )
    with stages as advance:
        advance("predicting")
        done[0] = 7
        deadline = time.monotonic() + 10
        while stages._bar.tasks[0].completed != 7 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert stages._bar.tasks[0].completed == 7
        assert stages._bar.tasks[0].total == 10
