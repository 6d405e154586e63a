"""The example scripts run on a fresh clone: their data ships in examples/data, they take no
required argument, and they write under examples/out, never into the package."""

from __future__ import annotations

import subprocess
import sys

import pytest

from locations import ROOT

EXAMPLES = ROOT / "examples"
SCRIPTS = sorted(p for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))
sys.path.insert(0, str(EXAMPLES))

import _tabular  # noqa: E402
import _training  # noqa: E402


# Training the tiny transformer takes about 6 s: it runs in the slow tier.
@pytest.mark.parametrize(
    "script",
    [
        pytest.param(p, marks=pytest.mark.slow) if p.name == "train_tiny_transformer.py" else p
        for p in SCRIPTS
    ],
    ids=lambda p: p.name,
)
def test_every_example_explains_itself_and_needs_no_argument(script):
    done = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout and "required" not in done.stdout


@pytest.mark.parametrize("name", sorted(_tabular.DATASETS))
def test_the_tabular_data_ships_with_the_examples(name):
    frame, label, favorable, sensitive = _tabular.DATASETS[name]()
    assert len(frame) >= 1000 and label in frame.columns
    assert favorable in set(frame[label]) and set(sensitive) <= set(frame.columns)
    assert not frame.isna().all(axis=None)


def test_the_text_data_has_its_header_and_both_classes():
    texts, labels = _training.imdb()
    assert len(texts) == 999 and set(labels) == {"positive", "negative"}
    assert texts[0].startswith("I had the privilege")  # the header is not a review
    texts, labels = _training.wiki_toxicity()
    assert len(texts) == 1492 and labels.count("toxic") == 248


def test_training_scripts_write_under_examples_out_unless_asked(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["train"])
    out = _training.destination("toxicity-cnn-lstm", "train")
    assert out == EXAMPLES / "out" / "toxicity-cnn-lstm"
    monkeypatch.setattr(sys, "argv", ["train", "--bundled"])
    assert _training.destination("toxicity-cnn-lstm", "train") == _training.BUNDLED / (
        "toxicity-cnn-lstm"
    )
    assert _tabular.OUT == EXAMPLES / "out"
