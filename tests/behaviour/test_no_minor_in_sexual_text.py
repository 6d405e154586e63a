"""No command writes a minor into sexual text (issue 56): over adult-content lines, with every
built-in list, no text the model is asked about and no row a command writes holds a word
naming a minor that its seed did not hold ("Young Japanese girl ..." never becomes
"Teenage ..." nor "... boy"), while the same lines without sexual words still get those
variants (the gate costs only what it must)."""

import collections
import json
import re
import sys

import pandas as pd
import pytest
from typer.testing import CliRunner

import textfair
from textfair.cli import app
from textfair.mitigate.augment import counterfactual_rows
from textfair.text._minors import MINOR_WORDS, sexual_content
from textfair.text.domain import TextDomain
from textfair.text.matcher import Matcher

runner = CliRunner()

LISTS = ("dixon2018", "holistic", "names", "names_ethnicity", "nationality", "pronouns")

#: Adult-content lines written for this test, naming identities of every list.
ADULT = [
    "Young Japanese girl shows her naked body on webcam, xxx",
    "Hot old woman wants sex tonight, call her now",
    "Sexy Mexican women want to meet you for sex",
    "He is a horny gay man looking for sex",
    "My friend Emily is a sexy lesbian who posts nude photos, and she loves it",
    "Elderly men watch porn all day",
    "My girlfriend is a slut and she sleeps with old men",
    "Hot American moms want sex",
    "Sexy black woman, naked on camera",
    "My neighbour Jose is a middle-aged guy who watches porn with his wife",
    "Young boys and girls, xxx videos",
    "She is a horny girl looking for fun",
]
#: The same people without sexual words: the minor terms are written there.
PLAIN = [
    "The young girl went to school with her mother.",
    "The old woman walked her dog in the park.",
    "An elderly man read the newspaper.",
]

_WORD = re.compile(r"[a-z]+")


def minors(text: str) -> collections.Counter:
    return collections.Counter(w for w in _WORD.findall(text.lower()) if w in MINOR_WORDS)


def assert_no_minor_written(texts, seeds=ADULT + PLAIN):
    """Every sexual text among `texts` holds no more minor words than some seed holds."""
    allowed = [minors(seed) for seed in seeds if sexual_content(seed)]
    written = [t for t in texts if sexual_content(t)]
    for text in written:
        found = minors(text)
        assert any(not (found - seed) for seed in allowed), text
    return written


@pytest.mark.parametrize(
    "terms",
    # holistic's 571 descriptors: 7 s, in the slow tier (CI runs both).
    [pytest.param(t, marks=pytest.mark.slow) if t == "holistic" else t for t in LISTS],
)
def test_counterfactuals_and_augmentation_rows_write_no_minor_into_sexual_text(terms):
    matcher = Matcher(terms)
    variants = [v.text for text in ADULT for v in textfair.counterfactuals(text, matcher=matcher)]
    assert_no_minor_written(variants)
    rows = [
        row["text"]
        for i, text in enumerate(ADULT)
        for row in counterfactual_rows(
            i, text, "toxic", categories=None, max_per_text=50, seed=0, matcher=matcher
        )
    ]
    assert_no_minor_written(rows)
    # The rule-set writer (augment --method rule-sets, mitigation's TestSGD loop): every term.
    satisfying = [
        variant.text
        for text in ADULT
        for category, terms in matcher.term_list.categories.items()
        for term in terms
        if (variant := textfair.rule_satisfying(text, {category: term.id}, matcher=matcher))
    ]
    assert_no_minor_written(satisfying)


def test_the_minor_terms_are_still_written_into_plain_text_and_the_reason_is_counted():
    matcher = Matcher("dixon2018")
    plain = {v.text for v in textfair.counterfactuals(PLAIN[1], matcher=matcher)}
    assert "The young woman walked her dog in the park." in plain
    adult = {v.text for v in textfair.counterfactuals(ADULT[1], matcher=matcher)}
    assert adult and not any(minors(t) for t in adult)  # "old" -> elderly, middle-aged only
    girl = {v.text for v in textfair.counterfactuals(PLAIN[0], matcher=matcher)}
    assert "The teenage girl went to school with her mother." in girl
    domain = TextDomain(ADULT, "pronouns")
    assert domain.left_out["pronouns"]["minor_in_sexual_text"] == 1  # "girl": no "boy"
    assert textfair.swap_term(ADULT[1], "old", "teenage") is None
    assert textfair.swap_term(PLAIN[1], "old", "teenage") is not None


@pytest.fixture
def recorder(tmp_path, monkeypatch):
    """A model whose answers vary by text and that keeps every text it is asked about."""
    (tmp_path / "recorder.py").write_text(
        "import numpy as np\n"
        "SEEN = []\n"
        "def predict(texts):\n"
        "    SEEN.extend(texts)\n"
        "    p = np.array([(sum(map(ord, t)) % 97) / 97 for t in texts])\n"
        "    return np.stack([1 - p, p], axis=1)\n"
        "predict.labels = ['non-toxic', 'toxic']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    pd.DataFrame({"text": ADULT + PLAIN, "label": ["toxic"] * len(ADULT + PLAIN)}).to_csv(
        tmp_path / "adult.csv", index=False
    )
    (tmp_path / "templates.txt").write_text(
        "A {identity} person sent me nude photos.\nA {identity} person walked by.\n"
        "{identity:name} sent me nude photos of {himself}.\n{identity:name} walked by.\n"
    )
    yield tmp_path
    sys.modules.pop("recorder", None)


def _invoke(*args):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.slow
@pytest.mark.parametrize("terms", LISTS)
def test_no_command_asks_the_model_about_or_writes_a_minor_in_sexual_text(recorder, terms):
    data = recorder / "adult.csv"
    common = ["--data", data, "--text-column", "text", "--terms", terms]
    model = ["--model", "py:recorder:predict", "--min-samples", "20", "--max-samples", "60"]
    _invoke("audit", *model, *common, "--templates", recorder / "templates.txt",
            "--out", recorder / "audit", "--pairs", recorder / "pairs.jsonl")  # fmt: skip
    _invoke("causal", *model, *common, "--out", recorder / "causal")
    asked = sys.modules["recorder"].SEEN
    assert assert_no_minor_written(asked)  # the templates' sexual frame at least
    _invoke("counterfactuals", *common, "--out", recorder / "variants.jsonl")
    lines = (recorder / "variants.jsonl").read_text().splitlines()
    written = [json.loads(line)["text"] for line in lines]
    report = recorder / "audit" / "report.json"  # augment writes with the audit's list
    out = recorder / "augment.csv"
    _invoke("augment", *common[:4], "--report", report, "--label-column", "label", "--out", out)
    written += pd.read_csv(out)["text"].astype(str).tolist()
    assert written
    assert_no_minor_written(written)
