"""Bad input and faults, tried as a careful user would: every case ends with its documented
exit code (2 a mistake in the input or an unusable model, 3 a model that failed during the
run: never 1, which only --fail-above may give), one line on stderr saying what was wrong and
what to do, no traceback, and every input file and model byte for byte as it was."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import joblib
import pandas as pd
import pytest

from textfair.cli import main
from textfair.models.baselines import logistic_regression

from conftest import DATA, PACKAGE_DATA

MODELS = """
import numpy as np

def flat(texts):
    return np.tile([0.8, 0.2], (len(texts), 1))
flat.labels = ["non-toxic", "toxic"]

def dies_midway(texts):
    # Answers the two-text probe, then fails as a server going away would.
    if len(texts) > 2:
        raise ConnectionError("model server went away")
    return np.tile([0.8, 0.2], (len(texts), 1))
dies_midway.labels = ["non-toxic", "toxic"]

def interrupted(texts):
    # Ctrl-C while the model works on the first batch after the probe.
    if len(texts) > 2:
        raise KeyboardInterrupt
    return np.tile([0.8, 0.2], (len(texts), 1))
interrupted.labels = ["non-toxic", "toxic"]

def strings(texts):
    return ["maybe"] * len(texts)
strings.labels = ["non-toxic", "toxic"]

def dicts(texts):
    return [{"toxic": 0.1}] * len(texts)
dicts.labels = ["non-toxic", "toxic"]

def ragged(texts):
    return [[0.5, 0.5], [1.0]] * (len(texts) // 2) + [[1.0]] * (len(texts) % 2)
ragged.labels = ["non-toxic", "toxic"]

def short(texts):
    return np.tile([0.8, 0.2], (max(0, len(texts) - 1), 1))
short.labels = ["non-toxic", "toxic"]

def not_probabilities(texts):
    return np.tile([3.0, -2.0], (len(texts), 1))
not_probabilities.labels = ["non-toxic", "toxic"]

def nan(texts):
    return np.tile([np.nan, np.nan], (len(texts), 1))
nan.labels = ["non-toxic", "toxic"]

not_callable = 3

def exits_midway(texts):
    # Answers the two-text probe, then ends the process as a careless script would.
    if len(texts) > 2:
        import sys
        sys.exit(0)
    return np.tile([0.8, 0.2], (len(texts), 1))
exits_midway.labels = ["non-toxic", "toxic"]

def rows_dying(frame):
    raise RuntimeError("row model crashed")
rows_dying.labels = [">50K", "<=50K"]
"""

COMMENTS = [
    "I am a gay man and proud.",
    "A Muslim woman spoke at the meeting.",
    "The old man walked his dog.",
    "Black people and white people live here.",
    "A Christian family moved in.",
    "My Jewish friend cooks well.",
    "Young people vote less.",
    "She is a lesbian teacher.",
    "An Asian student won the prize.",
    "The straight couple laughed.",
] * 6


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("inputs")
    labels = ["toxic" if i % 3 == 0 else "non-toxic" for i in range(len(COMMENTS))]
    pd.DataFrame({"comment": COMMENTS, "label": labels}).to_csv(root / "c.csv", index=False)
    (root / "fault_models.py").write_text(MODELS)
    frame = pd.read_csv(DATA / "adult_sample.csv")
    frame.to_csv(root / "adult.csv", index=False)
    (root / "OUT" / "model").mkdir(parents=True)
    fitted = logistic_regression(frame.drop(columns="income"), frame["income"], max_iter=300)
    joblib.dump(fitted, root / "OUT" / "model" / "model.joblib")
    shutil.copy(root / "OUT" / "model" / "model.joblib", root / "model.pkl")
    bundled = PACKAGE_DATA.parent / "bundled_models" / "toxicity-cnn-lstm"
    shutil.copytree(bundled, root / "truncated")
    weights = root / "truncated" / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:1000])
    (root / "broken_hf").mkdir()
    (root / "broken_hf" / "config.json").write_text("{not json")
    write = {
        "latin.csv": "comment\ncaf\xe9 gay\n".encode("latin-1"),
        "utf16.csv": "comment\na gay man\n".encode("utf-16-le"),
        "dupes.csv": b"comment,comment\na gay man,x\n",
        "ragged.csv": b"comment,label\na gay man,toxic,extra,more\nok\n",
        "empty.csv": b"",
        "header_only.csv": b"comment,label\n",
        "binary.csv": bytes(range(256)) * 4,
        "nul.csv": b"comment\na gay\x00 man\n",
        "blank_labels.csv": b"comment,label\na gay man,\na Muslim woman,\n",
        "report_array.json": b"[1, 2, 3]",
        "report_garbage.json": b"{not json",
        "tagged.yaml": b"!!python/object/apply:os.system ['echo hi']\n",
        "nested.yaml": (
            "categories:\n" + "".join("  " * i + "- \n" for i in range(1, 60))
        ).encode(),
        "dash_term.yaml": b"name: dash\ncategories:\n  gender:\n    terms: ['-', 'gay']\n",
        "bad_schema.yaml": b"features: [\n",
        "terms.yaml": (PACKAGE_DATA.parent.parent / "term_lists" / "dixon2018.yaml").read_bytes(),
        "other.csv": b"a,b\n1,2\n",
        "empty_file.sqlite": b"",
        "alias_bomb.yaml": _alias_bomb(),
        "escape_header.csv": b"\x1b]0;pwned\x07,label\na gay man,toxic\n",
        "\x1b]0;pwned\x07.csv": b"comment\na gay man\n",
        "long_header.csv": b"comment," + b"x" * 200_000 + b"\na gay man,1\n",
        "raises_at_import.py": b"raise RuntimeError('no GPU found')\ndef f(texts): ...\n",
        "exits_at_import.py": b"import sys\nsys.exit(0)\n",
        "syntax_error.py": b"def f(texts) return texts\n",
    }
    for name, content in write.items():
        (root / name).write_bytes(content)
    (root / "a_directory.csv").mkdir()
    os.mkfifo(root / "fifo.csv")
    user_db = sqlite3.connect(root / "user.db")
    user_db.execute("CREATE TABLE mine (x)")
    user_db.commit()
    user_db.close()
    return root


def _alias_bomb() -> bytes:
    """Nine levels of nine aliases each: a few hundred bytes, 9^9 items when walked."""
    lines = ["categories:", '  a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(1, 9):
        previous = "a" if level == 1 else f"l{level - 1}"
        lines.append(f"  l{level}: &l{level} [{', '.join([f'*{previous}'] * 9)}]")
    return ("\n".join(lines) + "\n").encode()


def digest_tree(root: Path) -> dict[str, str]:
    """Every file under `root` and its SHA-256 (byte-compiled caches aside)."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


TEXT = ["--data", "{in}/c.csv", "--text-column", "comment"]
FLAT = ["audit", "--model", "py:fault_models:flat", *TEXT]
TABLE = ["--data", "{in}/adult.csv", "--sensitive", "sex,race", "--label-column", "income"]
SKLEARN = ["--model", "sklearn:{in}/OUT/model/model.joblib", *TABLE, "--favorable", ">50K"]

# (name, arguments, exit code, words the message must hold)
CASES = [
    # The command line itself.
    ("unknown option", [*FLAT, "--nope"], 2, "No such option"),
    ("theta not a number", [*FLAT, "--theta", "abc"], 2, "--theta"),
    ("batch size 0", [*FLAT, "--batch-size", "0"], 2, "--batch-size"),
    ("unknown unit", [*FLAT, "--unit", "paragraph"], 2, "--unit"),
    ("threads 0", [*FLAT, "--threads", "0"], 2, "--threads"),
    ("missing required option", ["tabular", "audit", *TABLE], 2, "--model"),
    ("unknown command", ["audt"], 2, "No such command"),
    # Options out of range: refused before any model query.
    ("theta 0", [*FLAT, "--theta", "0"], 2, "--theta"),
    ("theta 1.5", [*FLAT, "--theta", "1.5"], 2, "--theta"),
    ("theta nan", [*FLAT, "--theta", "nan"], 2, "--theta"),
    ("max order 0", [*FLAT, "--max-order", "0"], 2, "--max-order"),
    ("max order above categories", [*FLAT, "--max-order", "1000000"], 2, "--max-order"),
    ("error 0", [*FLAT, "--error", "0"], 2, "--error"),
    ("error nan", [*FLAT, "--error", "nan"], 2, "--error"),
    ("error 100 points", [*FLAT, "--error", "100"], 2, "--error"),
    ("confidence 1", [*FLAT, "--confidence", "1"], 2, "--confidence"),
    ("min samples 0", [*FLAT, "--min-samples", "0"], 2, "--min-samples"),
    ("max samples 0", [*FLAT, "--min-samples", "0", "--max-samples", "0"], 2, "samples"),
    ("negative sample size", [*FLAT, "--max-samples", "-5"], 2, "--max-samples"),
    ("min above max", [*FLAT, "--min-samples", "500", "--max-samples", "100"], 2, "max_samples"),
    ("seed -1", [*FLAT, "--seed", "-1"], 2, "--seed"),
    ("fail above nan", [*FLAT, "--fail-above", "nan"], 2, "--fail-above"),
    ("fail above 150 points", [*FLAT, "--fail-above", "150"], 2, "--fail-above"),
    ("fail above negative", [*FLAT, "--fail-above", "-0.1"], 2, "--fail-above"),
    (
        "a gate on causal tests, which make no finding to gate on",
        ["causal", *FLAT[1:], "--fail-above", "0"],
        2,
        "--fail-above",
    ),
    ("threads above the cores", [*FLAT, "--threads", "100000"], 2, "--threads"),
    ("top negative", [*FLAT, "--top", "-1"], 2, "--top"),
    ("unknown mode", [*FLAT, "--mode", "bogus"], 2, "mode"),
    ("unknown correction", [*FLAT, "--correction", "bogus"], 2, "correction"),
    ("unknown category", [*FLAT, "--categories", "colour"], 2, "colour"),
    ("unknown term list", [*FLAT, "--terms", "nope"], 2, "nope"),
    ("unknown favourable label", [*FLAT, "--favorable", "good"], 2, "good"),
    ("tabular theta", ["tabular", "audit", *SKLEARN, "--theta", "7"], 2, "--theta"),
    # Data files.
    (
        "data missing",
        ["audit", "--model", "py:fault_models:flat", "--data", "{in}/nope.csv"],
        2,
        "nope",
    ),
    ("data is a directory", [*FLAT[:3], "--data", "{in}/a_directory.csv"], 2, "directory"),
    (
        "predict data is a directory",
        ["predict", *FLAT[1:3], "--data", "{in}/a_directory.csv"],
        2,
        "is a directory",
    ),
    ("data is a FIFO", [*FLAT[:3], "--data", "{in}/fifo.csv"], 2, "not a regular file"),
    ("data is /dev/null", [*FLAT[:3], "--data", "/dev/null"], 2, "not a regular file"),
    (
        "header over the csv module's field limit",
        [*FLAT[:3], "--data", "{in}/long_header.csv", "--text-column", "text"],
        2,
        "no column 'text'",
    ),
    ("data empty", [*FLAT[:3], "--data", "{in}/empty.csv"], 2, "empty"),
    ("data header only", [*FLAT[:3], "--data", "{in}/header_only.csv"], 2, "header_only"),
    ("data binary", [*FLAT[:3], "--data", "{in}/binary.csv"], 2, "binary"),
    ("data latin-1", [*FLAT[:3], "--data", "{in}/latin.csv"], 2, "UTF-8"),
    ("data UTF-16 without BOM", [*FLAT[:3], "--data", "{in}/utf16.csv"], 2, "UTF-16"),
    ("duplicate columns", [*FLAT[:3], "--data", "{in}/dupes.csv"], 2, "duplicate"),
    ("ragged rows", [*FLAT[:3], "--data", "{in}/ragged.csv"], 2, "ragged"),
    ("text column missing", [*FLAT[:5], "text", "--data", "{in}/c.csv"], 2, "text"),
    ("label column missing", [*FLAT, "--label-column", "nope"], 2, "nope"),
    ("label map malformed", [*FLAT, "--label-column", "label", "--label-map", "x"], 2, "label"),
    ("label map unknown", [*FLAT, "--label-column", "label", "--label-map", "a=b"], 2, "label"),
    (
        "blank labels",
        [*FLAT[:3], "--data", "{in}/blank_labels.csv", "--label-column", "label"],
        2,
        "label",
    ),
    (
        "tabular label column missing",
        [
            "tabular",
            "audit",
            *SKLEARN[:2],
            "--data",
            "{in}/adult.csv",
            "--sensitive",
            "sex",
            "--label-column",
            "nope",
        ],
        2,
        "nope",
    ),
    (
        "tabular sensitive missing",
        [
            "tabular",
            "audit",
            *SKLEARN[:2],
            "--data",
            "{in}/adult.csv",
            "--sensitive",
            "colour",
            "--label-column",
            "income",
        ],
        2,
        "colour",
    ),
    (
        "tabular schema malformed",
        ["tabular", "audit", *SKLEARN, "--schema", "{in}/bad_schema.yaml"],
        2,
        "YAML",
    ),
    # Term lists.
    ("YAML alias bomb", [*FLAT, "--terms", "{in}/alias_bomb.yaml"], 2, "aliases"),
    ("YAML alias bomb, validated", ["terms", "validate", "{in}/alias_bomb.yaml"], 2, "aliases"),
    ("term list with a YAML tag", [*FLAT, "--terms", "{in}/tagged.yaml"], 2, "tagged.yaml"),
    ("deeply nested term list", [*FLAT, "--terms", "{in}/nested.yaml"], 2, "nested.yaml"),
    ("a term that is only a dash", [*FLAT, "--terms", "{in}/dash_term.yaml"], 2, "'-'"),
    # Models that cannot be used.
    ("unknown model name", ["audit", "--model", "no-such-model", *TEXT], 2, "no-such-model"),
    ("pickle without prefix", ["audit", "--model", "{in}/model.pkl", *TEXT], 2, "sklearn:"),
    ("sklearn file missing", ["audit", "--model", "sklearn:{in}/nope.joblib", *TEXT], 2, "nope"),
    (
        "truncated safetensors",
        ["audit", "--model", "textfair:{in}/truncated", *TEXT],
        2,
        "truncated",
    ),
    ("broken hf config", ["audit", "--model", "hf:{in}/broken_hf", *TEXT], 2, "broken_hf"),
    ("hub id offline", ["audit", "--model", "hf:someone/no-such-model", *TEXT], 2, "offline"),
    ("py module missing", ["audit", "--model", "py:no_module:f", *TEXT], 2, "no_module"),
    ("py attribute missing", ["audit", "--model", "py:fault_models:nothing", *TEXT], 2, "nothing"),
    ("py not callable", ["audit", "--model", "py:fault_models:not_callable", *TEXT], 2, "callable"),
    ("py raises at import", ["audit", "--model", "py:raises_at_import:f", *TEXT], 2, "no GPU"),
    ("py exits at import", ["predict", "--model", "py:exits_at_import:f", *TEXT], 2, "sys.exit"),
    ("py syntax error", ["audit", "--model", "py:syntax_error:f", *TEXT], 2, "SyntaxError"),
    (
        "model returns unknown labels",
        ["audit", "--model", "py:fault_models:strings", *TEXT],
        2,
        "maybe",
    ),
    ("model returns dicts", ["audit", "--model", "py:fault_models:dicts", *TEXT], 2, "dicts"),
    (
        "model returns ragged lists",
        ["audit", "--model", "py:fault_models:ragged", *TEXT],
        2,
        "ragged",
    ),
    (
        "model returns too few rows",
        ["audit", "--model", "py:fault_models:short", *TEXT],
        2,
        "short",
    ),
    (
        "model returns non-probabilities",
        ["audit", "--model", "py:fault_models:not_probabilities", *TEXT],
        2,
        "probabilit",
    ),
    ("model returns NaN", ["audit", "--model", "py:fault_models:nan", *TEXT], 2, "nan"),
    ("revision of a model not from the hub", [*FLAT, "--revision", "main"], 2, "--revision"),
    ("max length of a model not from the hub", [*FLAT, "--max-length", "8"], 2, "--max-length"),
    # A model that fails during the run: exit 3, never 1, with or without --fail-above.
    (
        "model dies midway",
        ["audit", "--model", "py:fault_models:dies_midway", *TEXT],
        3,
        "went away",
    ),
    (
        "model dies midway, gate set",
        ["audit", "--model", "py:fault_models:dies_midway", *TEXT, "--fail-above", "1"],
        3,
        "went away",
    ),
    (
        "model calls sys.exit midway",
        ["audit", "--model", "py:fault_models:exits_midway", *TEXT],
        3,
        "sys.exit",
    ),
    (
        "row model fails at once",
        [
            "tabular",
            "audit",
            "--model",
            "py:fault_models:rows_dying",
            *TABLE,
            "--favorable",
            ">50K",
        ],
        2,
        "probe",
    ),
    # Outputs that would destroy an input or an earlier result.
    (
        "counterfactuals onto its data",
        ["counterfactuals", *TEXT, "--out", "{in}/c.csv"],
        2,
        "input",
    ),
    (
        "augment onto its data",
        ["augment", *TEXT, "--label-column", "label", "--out", "{in}/c.csv"],
        2,
        "input",
    ),
    (
        "predict onto its data",
        ["predict", "--model", "py:fault_models:flat", *TEXT, "--out", "{in}/c.csv"],
        2,
        "input",
    ),
    ("audit out is a file", [*FLAT, "--out", "{in}/c.csv"], 2, "c.csv"),
    ("audit out holds the data", [*FLAT, "--out", "{in}"], 2, "did not write"),
    (
        "audit out over the data, overwrite",
        [*FLAT, "--out", "{in}", "--overwrite"],
        2,
        "did not write",
    ),
    ("earlier report without overwrite", [*FLAT, "--out", "{out}/earlier"], 2, "--overwrite"),
    ("out in an unwritable place", [*FLAT, "--out", "/proc/textfair-report"], 2, "proc"),
    ("cache is the data", [*FLAT, "--cache", "{in}/c.csv"], 2, "input"),
    ("cache is a user's CSV", [*FLAT, "--cache", "{in}/other.csv"], 2, "not a textfair cache"),
    ("cache is an empty file", [*FLAT, "--cache", "{in}/empty_file.sqlite"], 2, "not a textfair"),
    ("cache is a user's database", [*FLAT, "--cache", "{in}/user.db"], 2, "other tables"),
    (
        "predict cache is a user's database",
        ["predict", "--model", "py:fault_models:flat", *TEXT, "--cache", "{in}/user.db"],
        2,
        "other tables",
    ),
    (
        "cache and out are one file",
        [
            "predict",
            "--model",
            "py:fault_models:flat",
            *TEXT,
            "--out",
            "{out}/x.jsonl",
            "--cache",
            "{out}/x.jsonl",
        ],
        2,
        "both name",
    ),
    (
        "cache inside the report directory",
        [*FLAT, "--out", "{out}/r", "--cache", "{out}/r/c"],
        2,
        "inside",
    ),
    (
        "counterfactuals onto its term list",
        ["counterfactuals", *TEXT, "--terms", "{in}/terms.yaml", "--out", "{in}/terms.yaml"],
        2,
        "input",
    ),
    (
        "counterfactuals over an earlier file",
        ["counterfactuals", *TEXT, "--out", "{out}/files/old.jsonl"],
        2,
        "--overwrite",
    ),
    (
        "augment over an earlier file",
        ["augment", *TEXT, "--label-column", "label", "--out", "{out}/files/old.csv"],
        2,
        "--overwrite",
    ),
    (
        "predict into a missing directory",
        ["predict", "--model", "py:fault_models:flat", *TEXT, "--out", "{out}/no/x.jsonl"],
        2,
        "does not exist",
    ),
    ("cache is a directory", [*FLAT, "--cache", "{in}/a_directory.csv"], 2, "directory"),
    (
        "augment report is an array",
        [
            "augment",
            *TEXT,
            "--report",
            "{in}/report_array.json",
            "--method",
            "rule-sets",
            "--out",
            "{out}/aug.csv",
        ],
        2,
        "report",
    ),
    (
        "augment report is garbage",
        [
            "augment",
            *TEXT,
            "--report",
            "{in}/report_garbage.json",
            "--method",
            "rule-sets",
            "--out",
            "{out}/aug.csv",
        ],
        2,
        "report",
    ),
    (
        "mitigate without labels",
        ["mitigate", "--model", "py:fault_models:flat", *TEXT, "--out", "{out}/m"],
        2,
        "--label-column",
    ),
    ("mitigate onto its model", ["tabular", "mitigate", *SKLEARN, "--out", "{in}/OUT"], 2, "input"),
    (
        "tabular search onto its data",
        ["tabular", "search", *SKLEARN, "--out", "{in}/adult.csv"],
        2,
        "input",
    ),
    (
        "tabular augment onto its data",
        ["tabular", "augment", *SKLEARN, "--out", "{in}/adult.csv"],
        2,
        "input",
    ),
]


def test_there_are_at_least_60_cases():
    assert len(CASES) >= 60 and len({name for name, *_ in CASES}) == len(CASES)


@pytest.mark.parametrize(("name", "args", "code", "words"), CASES, ids=[c[0] for c in CASES])
def test_a_fault_ends_in_one_line_and_its_exit_code_and_changes_no_input(
    name, args, code, words, inputs, tmp_path, monkeypatch, capsys
):
    monkeypatch.syspath_prepend(str(inputs))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (tmp_path / "earlier").mkdir()
    (tmp_path / "earlier" / "report.json").write_text(json.dumps({"kind": "text"}))
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "old.jsonl").write_text('{"text": "from an earlier run"}\n')
    (tmp_path / "files" / "old.csv").write_text("text\nfrom an earlier run\n")
    before, earlier = digest_tree(inputs), digest_tree(tmp_path)
    argv = [a.replace("{in}", str(inputs)).replace("{out}", str(tmp_path)) for a in args]
    with pytest.raises(SystemExit) as ended:
        main(argv)
    captured = capsys.readouterr()
    assert ended.value.code == code, captured.err
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    assert words.lower() in lines[0].lower(), lines[0]
    assert digest_tree(inputs) == before
    assert {k: v for k, v in digest_tree(tmp_path).items() if k in earlier} == earlier


def test_ctrl_c_is_one_line_exit_130_and_says_how_to_resume(inputs, tmp_path, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(inputs))
    out, cache = tmp_path / "report", tmp_path / "answers.sqlite"
    argv = ["audit", "--model", "py:fault_models:interrupted", *TEXT, "--out", str(out)]
    argv += ["--cache", str(cache)]
    with pytest.raises(SystemExit) as ended:
        main([a.replace("{in}", str(inputs)) for a in argv])
    lines = capsys.readouterr().err.strip().splitlines()
    assert ended.value.code == 130 and len(lines) == 1
    assert "interrupted" in lines[0] and str(cache) in lines[0] and "resume" in lines[0]
    assert not out.exists() and cache.is_file()  # no report; the probe's answers are kept


def test_a_py_model_in_the_current_directory_loads_from_the_console_script(
    tmp_path, monkeypatch, capsys
):
    """The console script does not put the current directory on the import path; the error
    advised running from the module's directory, which did not help. Now it does."""
    (tmp_path / "model_beside_me.py").write_text(
        "def f(texts):\n    return [[0.5, 0.5]] * len(texts)\nf.labels = ['non-toxic', 'toxic']\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in __import__("sys").path if p not in ("", ".")])
    with pytest.raises(SystemExit) as ended:
        main(["predict", "--model", "py:model_beside_me:f", "--text", "a gay man"])
    assert ended.value.code == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["label"] in ("non-toxic", "toxic")


@pytest.mark.slow  # a Hugging Face model loaded from disk, 4 s: the fast tier keeps to 3 minutes
def test_a_hugging_face_model_keeps_max_length_tokens(capsys):
    from textfair.models.spec import load_model

    tiny = load_model("toxicity-tiny-transformer", device="cpu", max_length=6)
    assert tiny.max_length == 6
    long = "you are a gay man and " * 40
    assert tiny.predict_proba([long]).shape == (1, len(tiny.labels))
    with pytest.raises(SystemExit) as ended:
        main(
            ["predict", "--model", "toxicity-tiny-transformer", "--max-length", "6", "--text", long]
        )
    assert ended.value.code == 0, capsys.readouterr().err
