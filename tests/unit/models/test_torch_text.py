"""PyTorch text models: save/load round-trips, batching, determinism, bad directories."""

import json

import numpy as np
import pytest

from textfair.errors import TextfairError
from textfair.models import CachedModel
from textfair.models.text_training import train_text_classifier
from textfair.models.torch_text import TorchTextModel

TEXTS = [
    "you are a wonderful editor, thanks",
    "great work on this article",
    "thanks for the help",
    "I appreciate your careful edits",
    "nice job fixing the references",
    "welcome to wikipedia",
    "you are an idiot and a moron",
    "shut up you stupid troll",
    "go away idiot",
    "you stupid moron stop vandalising",
    "this is garbage you idiot",
    "what a stupid troll",
] * 3
LABELS = (["ok"] * 6 + ["toxic"] * 6) * 3


@pytest.fixture(scope="module", params=["cnn", "lstm", "cnn_lstm"])
def trained(request):
    return train_text_classifier(
        TEXTS,
        LABELS,
        arch=request.param,
        epochs=12,
        seed=1,
        batch_size=8,
        embed_dim=16,
        hidden=16,
        filters=16,
    )


def test_learns_and_round_trips_with_identical_probabilities(trained, tmp_path):
    probe = ["you idiot", "thanks for the great work", "an unseen sentence entirely", ""]
    before = trained.predict_proba(probe)
    assert before[0, 1] > 0.5 > before[1, 1]
    saved = trained.save(tmp_path / "model")
    assert sorted(p.name for p in saved.iterdir()) == [
        "config.json",
        "model.safetensors",
        "vocab.json",
    ]
    loaded = TorchTextModel.load(saved)
    np.testing.assert_array_equal(loaded.predict_proba(probe), before)
    assert loaded.labels == ("ok", "toxic") and loaded.fingerprint == trained.fingerprint


def test_results_do_not_depend_on_batch_size_or_order(trained):
    texts = [t + " " + "word " * i for i, t in enumerate(TEXTS[:20])]
    reference = trained.predict_proba(texts)
    for batch_size in (1, 3, 64):
        trained.batch_size = batch_size
        order = np.random.default_rng(batch_size).permutation(len(texts))
        np.testing.assert_allclose(
            trained.predict_proba([texts[i] for i in order]), reference[order], atol=1e-6
        )
    trained.batch_size = 64


def test_same_seed_same_model_other_seed_other_model():
    def probs(seed):
        model = train_text_classifier(
            TEXTS, LABELS, arch="cnn", epochs=2, seed=seed, embed_dim=8, filters=8
        )
        return model.predict_proba(["you idiot", "thanks"])

    np.testing.assert_array_equal(probs(3), probs(3))
    assert not np.array_equal(probs(3), probs(4))


def test_load_errors_are_one_line(tmp_path):
    with pytest.raises(TextfairError, match="no such directory"):
        TorchTextModel.load(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(TextfairError, match=r"not a textfair text model \(missing config.json"):
        TorchTextModel.load(tmp_path / "empty")
    bad = train_text_classifier(
        TEXTS, LABELS, arch="cnn", epochs=1, seed=0, embed_dim=8, filters=8
    ).save(tmp_path / "bad")
    config = json.loads((bad / "config.json").read_text())
    (bad / "config.json").write_text(json.dumps({**config, "arch": "transformer"}))
    with pytest.raises(TextfairError, match="unknown architecture 'transformer'"):
        TorchTextModel.load(bad)
    with pytest.raises(TextfairError, match="a classifier needs two or more classes"):
        train_text_classifier(["a", "b"], ["x", "x"])


def test_cached_model_over_a_real_network_forwards_each_text_once(trained):
    calls = []
    original = trained.predict_proba

    def counting(inputs):
        calls.append(list(inputs))
        return original(inputs)

    trained.predict_proba = counting
    try:
        cached = CachedModel(trained)
        cached.predict_proba(["you idiot", "thanks", "you idiot"])
        cached.predict_proba(["thanks", "new text"])
    finally:
        del trained.predict_proba
    assert calls == [["you idiot", "thanks"], ["new text"]]


def _reference_tokens(text: str) -> list[str]:
    """The tokenizer the bundled models were trained with: nltk's, each token lowercased."""
    from textfair.core.words import word_tokenizer

    return [token.lower() for token in word_tokenizer().tokenize(text)]


def _bundled_comments() -> list[str]:
    from importlib import resources

    from textfair.corpus import load_corpus

    examples = resources.files("textfair.datasets").joinpath("wiki_examples.csv")
    return load_corpus().texts + load_corpus(str(examples), text_column="comment").texts


def test_lowercasing_moves_no_character_between_word_space_and_punctuation():
    """Why `tokenize` may lowercase the whole text before splitting it: for every code point,
    each character of its lowercase is of the same kind (word, space, apostrophe, other)."""
    import regex

    def kind(char: str) -> str:
        if regex.fullmatch(r"\w", char):
            return "word"
        if regex.fullmatch(r"\s", char):
            return "space"
        return "apostrophe" if char in "'’" else "other"

    changed = [
        chr(c)
        for c in range(0x110000)
        if not 0xD800 <= c < 0xE000 and chr(c).lower() != chr(c)
        if any(kind(low) != kind(chr(c)) for low in chr(c).lower())
    ]
    assert not changed


def test_the_fast_tokenizer_gives_the_reference_tokens():
    import random

    from textfair.models.torch_text import tokenize

    rng = random.Random(7)
    alphabet = [chr(c) for c in range(0x20, 0x3000) if chr(c).isprintable()] + list("'’ Σ") * 40
    made_up = ["".join(rng.choices(alphabet, k=rng.randint(0, 40))) for _ in range(20_000)]
    # A capital sigma lowercases by its neighbours, across a token's edge: split first.
    sigma = ["ΟΔΟΣ.Α", "Α·Σ", "ΣΑΣ's ΟΔΟΣ’ Σ", "İSTANBUL’S Σ."]
    texts = _bundled_comments() + made_up + sigma
    different = [text for text in texts if tokenize(text) != _reference_tokens(text)]
    assert not different, different[:3]


@pytest.mark.parametrize(
    "name",
    # The second model the same tokenizer code serves: 3 s, in the slow tier.
    ["toxicity-cnn-lstm", pytest.param("sentiment-lstm", marks=pytest.mark.slow)],
)
def test_bundled_models_answer_as_with_the_reference_tokenizer(name, monkeypatch):
    """Every bundled word-vocabulary model's probabilities on the bundled comments, to 1e-6.
    (The tiny transformer has its own Hugging Face tokenizer, which textfair did not change.)"""
    from textfair.models import torch_text
    from textfair.models.spec import load_model

    model = load_model(name, device="cpu")
    texts = _bundled_comments()
    fast = model.predict_proba(texts)
    monkeypatch.setattr(torch_text, "tokenize", _reference_tokens)
    assert np.allclose(model.predict_proba(texts), fast, rtol=0, atol=1e-6)
