"""The documentation as an executable document: every command of the `console` blocks of
README.md and the site's pages runs as written, in reading order (docs/mkdocs.yml's nav), in
one working directory (a copy of `examples/` and the package's data beside it, so earlier
steps make the files later ones read), and none exits non-zero or prints a traceback. A
block preceded by `<!-- file: NAME -->` is written to NAME first (the term-list page's
example list)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from documents import ROOT, documents, read

BLOCK = re.compile(r"(?:<!-- file: (?P<file>\S+) -->\n)?```(?P<kind>\w+)\n(?P<body>.*?)```", re.S)


def doc_steps(text: str) -> list[tuple[str, str]]:
    """("write", "NAME\\nCONTENT") and ("run", COMMAND) steps of one page, in order. A command is a
    `$ ` line with its `\\` continuations; the lines after it, up to the next `$ `, are what
    it prints."""
    steps = []
    for block in BLOCK.finditer(text):
        if block["file"]:
            steps.append(("write", f"{block['file']}\n{block['body']}"))
        if block["kind"] != "console":
            continue
        command: list[str] = []
        for line in block["body"].splitlines():
            if line.startswith("$ "):
                command = [line[2:]]
            elif command and command[-1].rstrip().endswith("\\"):
                command.append(line)
            else:
                continue
            if not command[-1].rstrip().endswith("\\"):
                steps.append(("run", "\n".join(command)))
                command = []
    return steps


# Pages whose commands need nothing an earlier page made run as tests of their own, which
# the slow tier's second worker takes beside the long one (the Ray page: each command
# starts a Ray instance).
ON_THEIR_OWN = ("ray.md",)


def all_steps(pages: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """The steps of every page in reading order, less ON_THEIR_OWN's; or of `pages`."""
    chosen = [
        path
        for path in documents()
        if (path.name in pages if pages else path.name not in ON_THEIR_OWN)
    ]
    return [step for path in chosen for step in doc_steps(read(path))]


def test_the_docs_parser_finds_every_command():
    steps = all_steps()
    commands = [body for kind, body in steps if kind == "run"]
    assert len(commands) >= 20
    # The example term list is written before the commands that read it.
    kinds = [k for k, _ in steps]
    written = kinds.index("write")
    assert steps[written][1].startswith("mine.yaml\nname: mine\n")
    assert any("mine.yaml" in body for _, body in steps[written + 1 :])
    # A continued command is one step; no step is an output line.
    assert any("\\\n" in c for c in commands)
    assert all(c.split()[0] in ("textfair", "python") for c in commands), commands


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A working directory with a copy of examples/ and the package's data (read by path in
    some commands), and the environment the commands run in."""
    work = tmp_path / "docs"
    work.mkdir()
    shutil.copytree(ROOT / "examples", work / "examples", ignore=shutil.ignore_patterns("out"))
    (work / "textfair").symlink_to(ROOT / "textfair", target_is_directory=True)
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "COLUMNS": "120",
        # The textfair and python of this interpreter's environment.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    return work, env


@pytest.mark.slow
def test_every_documented_command_runs_as_written(tmp_path):
    work, env = _workspace(tmp_path)
    _run_steps(all_steps(), work, env)
    _check_the_bundled_mitigation(work / "mitigated")


# A smaller mitigation than the README's (one target instead of three, one retraining with 50
# augmentation rows and no extension), on a smaller corpus: the bundled comments' rows that
# name a gender term (every one, so the audit finds the same significant target, "lgbt") and
# every fourth other row, 468 rows. Training from scratch on a quarter of the rows costs a
# quarter of the time; what is checked, the same model beside a load in at most 3x the time,
# holds for any size of mitigation, as long as it retrains (checked: one step, 50 rows).
SMALL_MITIGATION = (
    "textfair mitigate --out mitigated/ --top 1 --categories gender --max-fraction 0.04 "
    "--extend-to 0.04 --data gender-comments.csv --text-column comment --label-column toxic "
    '--label-map "True=toxic,False=non-toxic"'
)


def _gender_comments(path: Path) -> None:
    """SMALL_MITIGATION's corpus: the bundled comments naming a gender term of dixon2018,
    and every fourth other one, in their order."""
    import csv

    from textfair.terms import load_term_list
    from textfair.text.domain import TextDomain

    bundled = ROOT / "textfair" / "datasets" / "wiki_toxicity.csv"
    with bundled.open(encoding="utf-8", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    named = TextDomain([row[1] for row in rows], load_term_list("dixon2018"), ["gender"])
    mask = named.category_mask("gender")
    kept = [row for k, row in enumerate(rows) if mask[k] or k % 4 == 0]
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([header, *kept])


@pytest.mark.slow
def test_a_mitigation_beside_two_busy_processes_gives_the_same_model_in_at_most_3x(tmp_path):
    work, env = _workspace(tmp_path)
    _gender_comments(work / "gender-comments.csv")
    seconds = _run_steps([("run", SMALL_MITIGATION)], work, env)
    report = json.loads((work / "mitigated" / "mitigation.json").read_text(encoding="utf-8"))
    # It retrained: the check is of training beside a load, not of an audit alone.
    assert [step["added"] for step in report["steps"]] == [50], report["steps"]
    _check_the_same_mitigation_under_load(work, env, SMALL_MITIGATION, seconds[SMALL_MITIGATION])


@pytest.mark.slow
def test_the_ray_pages_commands_run_as_written(tmp_path):
    """Skipped without the ray extra, except where TEXTFAIR_REQUIRE_RAY=1 (CI)."""
    import importlib.util

    if importlib.util.find_spec("ray") is None and not os.environ.get("TEXTFAIR_REQUIRE_RAY"):
        pytest.skip('the ray extra is not installed (pip install ".[ray]")')
    steps = all_steps(ON_THEIR_OWN)
    assert sum(kind == "run" for kind, _ in steps) >= 4
    work, env = _workspace(tmp_path)
    _run_steps(steps, work, env)
    assert list((work / "scored").glob("*.parquet"))
    assert (work / "ray-report" / "report.json").is_file()


def _run_steps(steps: list[tuple[str, str]], work: Path, env: dict[str, str]) -> dict[str, float]:
    """Run the steps in `work`; each command must exit 0 without a traceback. Returns the
    seconds each command took."""
    seconds: dict[str, float] = {}
    for kind, body in steps:
        if kind == "write":
            name, _, content = body.partition("\n")
            (work / name).write_text(content, encoding="utf-8")
            continue
        started = time.perf_counter()
        done = subprocess.run(
            ["bash", "-c", body],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        seconds[body] = time.perf_counter() - started
        # What each command cost: in CI's log (-rP shows a passed test's output).
        print(f"{seconds[body]:6.1f} s  {body.splitlines()[0][:90]}")
        said = done.stdout[-2000:] + done.stderr[-2000:]
        assert done.returncode == 0, f"$ {body}\nexit {done.returncode}\n{said}"
        assert "Traceback" not in done.stderr, f"$ {body}\n{said}"
    return seconds


def _check_the_same_mitigation_under_load(work: Path, env: dict, quiet: str, idle: float):
    """A mitigation again, beside two processes that keep both cores busy: the
    same mitigation.json (training runs on a fixed thread count, never one chosen from the
    load), in at most 3 times the quiet run's time (that count never oversubscribes the
    cores; with one thread per core it took 48 minutes against 135 s)."""
    import multiprocessing

    loaded = quiet.replace("--out mitigated/", "--out mitigated-loaded/")
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=_spin, args=(stop,)) for _ in range(2)]
    for spinner in spinners:
        spinner.start()
    try:
        started = time.perf_counter()
        done = subprocess.run(
            ["bash", "-c", loaded], cwd=work, env=env, capture_output=True, text=True, timeout=3600
        )
        took = time.perf_counter() - started
    finally:
        stop.set()
        for spinner in spinners:
            spinner.join()
    print(f"{took:6.1f} s  the same, beside two busy processes ({idle:.1f} s quiet)")
    assert done.returncode == 0, done.stderr[-2000:]
    first, second = (
        _comparable(json.loads((work / name / "mitigation.json").read_text(encoding="utf-8")))
        for name in ("mitigated", "mitigated-loaded")
    )
    assert first == second
    assert took <= 3 * idle, f"{took:.0f} s beside the load against {idle:.0f} s quiet"


def _comparable(report: dict) -> dict:
    """A mitigation report less what names the run rather than its result: the command
    line, the output paths and the seconds."""
    return {k: v for k, v in report.items() if k not in ("command", "files", "run")}


def _spin(stop) -> None:
    while not stop.is_set():
        sum(range(10_000))


def _check_the_bundled_mitigation(out: Path) -> None:
    """Issue 6's bar on the README's `textfair mitigate --out mitigated/` (the defaults on the
    bundled CNN-LSTM): the top significant finding's score falls by at least half, held-out
    accuracy stays within 1 point, and the held-out terms are re-audited. (That the whole run
    matches each comment once is checked in-process by test_mitigate.)"""
    from textfair.models.torch_text import TorchTextModel

    report = json.loads((out / "mitigation.json").read_text(encoding="utf-8"))
    top = report["comparison"][0]
    # Significant in the audit that chose it (every text); before and after are measured on
    # the half of the texts the step choice never saw (issue 41).
    assert top["audit"]["significant"] and top["reduction"] >= 0.5, top
    assert report["top_target_halved"]
    held = report["held_out"]
    assert held["after"]["accuracy"] >= held["before"]["accuracy"] - 0.01
    terms = [r for r in report["comparison"] if r["role"] == "held-out term"]
    assert terms and all(r["after"] is not None for r in terms)
    assert TorchTextModel.load(out / "model").labels == ("non-toxic", "toxic")
