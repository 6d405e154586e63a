"""PyTorch text models: save/load round-trips, batching, determinism, bad directories."""

import json

import numpy as np
import pytest

from textfair.errors import TextfairError
from textfair.models import CachedModel
from textfair.models.torch_text import TorchTextModel, train_text_classifier

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
