"""Model outputs as they are: multi-label sigmoid heads, star ratings and LABEL_0/1 heads are
audited with the right decision rule, and argmax would have answered differently."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from textfair.auditing.text import audit_text
from textfair.cli import app
from textfair.errors import TextfairError
from textfair.models import CallableModel
from textfair.models.decision import parse_decision, recorded_decision
from textfair.settings import AuditConfig
from textfair.text.templates import expand_template

from synthetic import FILLER, unit

STARS = ("1 star", "2 stars", "3 stars", "4 stars", "5 stars")
HEADS = ("toxic", "obscene", "insult")


@pytest.fixture(scope="module")
def texts():
    """Real sentences over the dixon2018 religion terms: 300 distinct seeds (a clause and a
    page number each), each naming one religion term drawn with a fixed seed."""
    rng = np.random.default_rng(1)
    out = []
    for page in range(150):
        for template in ("A {religion} editor XX on page NN.", "The {religion} user XX (NN)."):
            variant = expand_template(
                template, categories=["religion"], max_variants=1, seed=int(rng.integers(1 << 30))
            )[0]
            filler = FILLER[int(rng.integers(len(FILLER)))]
            out.append(variant.text.replace("XX", filler).replace("NN", str(page)))
    return out


def star_model(texts):
    """Mostly 5 stars; "Muslim" moves a review to 4 stars (still favourable), "Jewish" to 2
    stars (unfavourable)."""
    rows = []
    for text in texts:
        row = np.full(5, 0.025)
        star = 4
        if "Muslim" in text and unit(f"m:{text}") < 0.6:
            star = 3
        if "Jew" in text and unit(f"j:{text}") < 0.6:
            star = 1
        row[star] = 0.9
        rows.append(row)
    return np.array(rows)


def sigmoid_model(texts):
    """Three independent sigmoids: every text is rather obscene (0.85), so argmax always says
    "obscene"; "Muslim" makes a text toxic (0.8) in 60% of cases, else 0.2."""
    rows = []
    for text in texts:
        toxic = 0.8 if "Muslim" in text and unit(f"t:{text}") < 0.6 else 0.2
        rows.append([toxic, 0.85, 0.1])
    return np.array(rows)


def top(report):
    best = report.findings[0]
    return [rule.value for rule in best.rule_set], best


def test_star_ratings_with_a_favourable_set(texts):
    config = AuditConfig(categories=["religion"], causal=False, max_order=1, seed=2)
    model = CallableModel(star_model, labels=STARS)
    by_set = audit_text(model, texts, favorable="4 stars,5 stars", config=config)
    terms, finding = top(by_set)
    assert terms == ["jewish"] and finding.significant
    assert by_set.model.favorable == "4 stars,5 stars"
    rate = {f.rule_set[0].value: f for f in by_set.findings}
    assert rate["muslim"].phi_r == rate["christian"].phi_r == 1.0  # 5 -> 4 stars: still good
    # Argmax against one favourable label ("5 stars") calls the 4-star reviews unfavourable.
    by_argmax = {
        f.rule_set[0].value: f
        for f in audit_text(model, texts, favorable="5 stars", config=config).findings
    }
    muslim = by_argmax["muslim"]
    assert muslim.significant and muslim.phi_r < muslim.phi_not_r - 0.3


def test_multi_label_sigmoid_head_with_a_threshold_rule(texts):
    config = AuditConfig(categories=["religion"], max_order=1, seed=2)
    model = CallableModel(sigmoid_model, labels=HEADS, multi_label=True)
    with pytest.raises(TextfairError, match=r"multi-label.*--decision"):
        audit_text(model, texts, config=config)
    report = audit_text(model, texts, decision="toxic<0.5", config=config)
    terms, finding = top(report)
    assert terms == ["muslim"] and finding.significant and finding.phi_r < finding.phi_not_r
    assert report.model.favorable == "toxic<0.5"
    assert report.counterfactual.causal[0].score > 0.1  # swapping "Muslim" flips the rule

    # Argmax reads every text as "obscene" (favourable: not "toxic"), the same outcome for
    # every group: nothing found
    # (rows rescaled to sum to 1 so a softmax reading accepts them; argmax is unchanged).
    def as_softmax(batch):
        rows = sigmoid_model(batch)
        return rows / rows.sum(axis=1, keepdims=True)

    argmax = audit_text(
        CallableModel(as_softmax, labels=HEADS), texts, favorable="obscene,insult", config=config
    )
    assert not any(f.significant for f in argmax.findings)


def test_threshold_rules_combine_labels():
    probabilities = np.array([[0.2, 0.7, 0.1], [0.6, 0.1, 0.1], [0.1, 0.1, 0.1]])
    every = parse_decision(HEADS, rule="all(toxic,obscene)<0.5")
    some = parse_decision(HEADS, rule="any(toxic, obscene)<0.5")
    assert every.favourable(probabilities).tolist() == [False, False, True]
    assert some.favourable(probabilities).tolist() == [True, True, True]
    assert every.describe() == "all(toxic,obscene)<0.5"
    np.testing.assert_allclose(every.score(probabilities), [0.3, 0.4, 0.9])
    assert parse_decision(HEADS, rule="insult>=0.05").favourable(probabilities).all()
    assert recorded_decision(HEADS, "all(toxic,obscene)<0.5") == every
    assert recorded_decision(STARS, "4 stars,5 stars").columns == (3, 4)


@pytest.mark.parametrize(
    ("labels", "favorable", "rule", "message"),
    [
        (HEADS, None, "toxc<0.5", "'toxc' is not a label of the model; its labels are: toxic"),
        (HEADS, None, "toxic<1.5", "threshold 1.5"),
        (HEADS, None, "toxic=0.5", "is not a rule; expected LABEL<0.5"),
        (HEADS, "toxic", "toxic<0.5", "both --favorable"),
        (STARS, "4 stars,6 stars", None, "'6 stars' is not a label"),
        (("LABEL_0", "LABEL_1"), None, None, "names no labels"),
        (("no", "yes"), "no,yes", None, "every label"),
    ],
)
def test_decision_mistakes_are_one_line_with_the_labels(labels, favorable, rule, message):
    with pytest.raises(TextfairError, match=message.replace("(", r"\(")) as caught:
        parse_decision(labels, favorable, rule)
    assert "\n" not in str(caught.value)


def _corpus(texts, path):
    """The religion sentences as a one-column CSV (no labels: no label metrics)."""
    import pandas as pd

    pd.DataFrame({"text": texts}).to_csv(path, index=False)
    return ["--data", str(path), "--text-column", "text", "--categories", "religion"]


def test_label_0_1_heads_need_a_named_label(texts, tmp_path):
    """A tiny Hugging Face model built here, whose config names no labels (LABEL_0/1)."""
    model_dir = _tiny_hf_model(tmp_path / "plain", multi_label=False)
    runner = CliRunner()
    args = ["audit", "--model", f"hf:{model_dir}", *_corpus(texts, tmp_path / "c.csv")]
    failed = runner.invoke(app, [*args, "--out", str(tmp_path / "a")])
    assert failed.exit_code == 2
    assert "LABEL_0, LABEL_1" in failed.output and "names no labels" in failed.output
    out = str(tmp_path / "b")
    done = runner.invoke(
        app, [*args, "--favorable", "LABEL_0", "--max-samples", "100", "--out", out]
    )
    assert done.exit_code in (0, 1), done.output
    saved = json.loads((tmp_path / "b" / "report.json").read_text())
    assert saved["model"]["favorable"] == "LABEL_0"


def test_a_multi_label_hub_model_is_read_with_sigmoids(texts, tmp_path):
    """`problem_type: multi_label_classification` in the config: one sigmoid per label."""
    from textfair.models.spec import load_model

    model_dir = _tiny_hf_model(tmp_path / "multi", multi_label=True)
    model = load_model(f"hf:{model_dir}")
    assert model.multi_label and model.labels == HEADS
    out = model.predict_proba(["a gay man", "hello there friend", ""])
    assert out.shape == (3, 3) and ((out > 0) & (out < 1)).all()
    assert not np.allclose(out.sum(axis=1), 1.0)
    runner = CliRunner()
    predict = ["predict", "--model", f"hf:{model_dir}", "--text", "a gay man"]
    line = json.loads(runner.invoke(app, [*predict, "--decision", "toxic<0.5"]).output)
    assert "label" not in line and line["favorable"] == (line["probabilities"]["toxic"] < 0.5)
    audit = ["audit", "--model", f"hf:{model_dir}", *_corpus(texts, tmp_path / "c.csv")]
    audit += ["--max-order", "1", "--out", str(tmp_path / "r")]
    refused = runner.invoke(app, audit)
    assert refused.exit_code == 2 and "--decision" in refused.output
    audited = runner.invoke(app, [*audit, "--decision", "all(toxic,insult)<0.5"])
    assert audited.exit_code in (0, 1), audited.output
    saved = json.loads((tmp_path / "r" / "report.json").read_text())
    assert saved["model"]["favorable"] == "all(toxic,insult)<0.5"


def _tiny_hf_model(path, multi_label: bool):
    """A 1-layer BERT with a word-level tokenizer, saved as a Hugging Face model folder."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    words = "[PAD] [UNK] [CLS] [SEP] a an the gay man muslim jewish christian editor".split()
    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        model_max_length=64,
    )
    extra = (
        {"problem_type": "multi_label_classification", "id2label": dict(enumerate(HEADS))}
        if multi_label
        else {"num_labels": 2}
    )
    config = BertConfig(
        vocab_size=len(words),
        hidden_size=8,
        num_hidden_layers=1,
        num_attention_heads=1,
        intermediate_size=16,
        max_position_embeddings=64,
        **extra,
    )
    if multi_label:
        config.label2id = {label: i for i, label in enumerate(HEADS)}
    torch.manual_seed(0)
    network = BertForSequenceClassification(config)
    network.save_pretrained(path)
    fast.save_pretrained(path)
    return path


@pytest.mark.parametrize(
    ("message", "revision", "says"),
    [
        (
            "You are trying to access a gated repo. Access to model org/m is restricted.",
            None,
            "gated or private",
        ),
        ("401 Client Error: Unauthorized for url", None, "huggingface-cli login"),
        (
            "org/nope is not a local folder and is not a valid model identifier listed on the hub",
            None,
            "no Hugging Face model",
        ),
        (
            "v9 is not a valid git identifier (branch name, tag name or commit id)",
            "v9",
            "has no revision 'v9'",
        ),
    ],
)
def test_hub_loading_failures_are_one_line_with_what_to_do(message, revision, says):
    from textfair.models.hf import load_error

    error = load_error(OSError(message), "org/m", revision, offline=False)
    assert says in str(error) and "\n" not in str(error)
    offline = load_error(OSError(message), "org/m", revision, offline=True)
    assert "offline" in str(offline)
