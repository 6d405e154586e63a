"""Hugging Face, scikit-learn and spec loading, on the bundled real models."""

import json
import textwrap

import joblib
import numpy as np
import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.errors import TextfairError
from textfair.models import CachedModel
from textfair.models.hf import HFModel
from textfair.models.sklearn import PickleWarning, SklearnModel
from textfair.models.spec import bundled_models, load_model, spec_fingerprint
from textfair.models.torch_text import TorchTextModel

from conftest import PACKAGE_DATA

PROBES = [
    "you are a stupid idiot",
    "thanks for fixing the references",
    "a gay man",
    "",
    "I am a Muslim. " * 80,
]


@pytest.fixture(scope="module")
def tiny():
    return load_model("toxicity-tiny-transformer", device="cpu")


def test_bundled_models_load_offline_with_their_labels(tiny):
    assert bundled_models() == ["sentiment-lstm", "toxicity-cnn-lstm", "toxicity-tiny-transformer"]
    assert isinstance(tiny, HFModel) and tiny.labels == ("non-toxic", "toxic")
    assert isinstance(load_model("toxicity-cnn-lstm"), TorchTextModel)
    assert load_model("textfair:sentiment-lstm").labels == ("negative", "positive")
    out = tiny.predict_proba(PROBES)
    assert out.shape == (5, 2) and out[0, 1] > 0.5 > out[1, 1]


def test_hf_round_trip_and_independence_of_batching_and_sorting(tiny, tmp_path):
    reference = tiny.predict_proba(PROBES)
    tiny.network.save_pretrained(tmp_path / "copy")
    tiny.tokenizer.save_pretrained(tmp_path / "copy")
    again = load_model(f"hf:{tmp_path / 'copy'}", device="cpu")
    # Equal to float rounding: torch may split a reduction differently with another thread count.
    np.testing.assert_allclose(again.predict_proba(PROBES), reference, rtol=1e-5, atol=1e-7)
    for batch_size, sort in ((1, True), (2, False), (64, True)):
        tiny.batch_size, tiny.sort_by_length = batch_size, sort
        order = np.random.default_rng(batch_size).permutation(len(PROBES))
        np.testing.assert_allclose(
            tiny.predict_proba([PROBES[i] for i in order]), reference[order], atol=1e-5
        )
    tiny.batch_size, tiny.sort_by_length = 32, True


def test_hf_truncates_at_the_model_maximum(tiny):
    assert tiny.max_length == 128
    assert np.isfinite(tiny.predict_proba(["word " * 5000])).all()


def test_sklearn_pipeline_round_trips_with_a_pickle_warning(tmp_path):
    import csv

    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    with open(PACKAGE_DATA / "wiki_toxicity.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))[:400]
    pipeline = make_pipeline(TfidfVectorizer(), LogisticRegression(max_iter=200))
    pipeline.fit([r["comment"] for r in rows], [r["toxic"] for r in rows])
    joblib.dump(pipeline, tmp_path / "pipe.joblib")
    with pytest.raises(TextfairError, match="loaded only with a prefix"):
        load_model(str(tmp_path / "pipe.joblib"))  # no prefix: never unpickled
    with pytest.warns(PickleWarning, match="runs any code stored in it"):
        model = load_model(f"sklearn:{tmp_path / 'pipe.joblib'}")
    assert isinstance(model, SklearnModel) and model.labels == ("False", "True")
    np.testing.assert_array_equal(model.predict_proba(PROBES), pipeline.predict_proba(PROBES))
    (tmp_path / "junk.joblib").write_text("not a pickle")
    with pytest.warns(PickleWarning), pytest.raises(TextfairError, match="could not be loaded"):
        SklearnModel.load(tmp_path / "junk.joblib")
    with pytest.raises(TextfairError, match="has no predict_proba"):
        SklearnModel(object())


def test_spec_errors(tmp_path):
    with pytest.raises(TextfairError, match="no such file or directory"):
        load_model(str(tmp_path / "missing"))
    with pytest.raises(TextfairError, match="a directory, but not a model"):
        load_model(str(tmp_path))
    with pytest.raises(TextfairError, match="not a Hugging Face model directory"):
        load_model(f"hf:{tmp_path}")
    with pytest.raises(TextfairError, match="not a textfair text model"):
        load_model(f"textfair:{tmp_path}")
    with pytest.raises(TextfairError, match="names nothing after 'hf:'"):
        load_model("hf:")


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """A user's module of model functions, importable as `user_models`."""
    (tmp_path / "user_models.py").write_text(
        textwrap.dedent("""
        import numpy as np
        def good(texts):
            return np.tile([0.25, 0.75], (len(texts), 1))
        def wrong_shape(texts):
            return np.ones((len(texts), 3)) / 3
        def nan(texts):
            return np.full((len(texts), 2), np.nan)
        def labels(texts):
            return ["pos" if "good" in t else "neg" for t in texts]
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_py_callables_and_cached_forwarding(user_module):
    model = load_model("py:user_models:labels", label_names=["neg", "pos"])
    cached = CachedModel(model)
    np.testing.assert_array_equal(
        cached.predict_proba(["good", "bad", "good"]), [[0, 1], [1, 0], [0, 1]]
    )
    assert cached.stats.forwarded == 2


runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "missing-dir/x"], "no such file or directory"),
        (["--model", "."], "a directory, but not a model"),
        (["--model", "py:user_models:wrong_shape", "--label-names", "a,b"], "shape (1, 3)"),
        (["--model", "py:user_models:nan", "--label-names", "a,b"], "NaN probabilities"),
        (["--favorable", "positive"], "its labels are: non-toxic, toxic"),
        (["--model", "toxicity-cnn-lstm", "--device", "cuda:7"], None),
    ],
)
def test_predict_cli_errors_are_one_line_exit_2(user_module, args, message):
    result = runner.invoke(app, ["predict", "--text", "hello", *args])
    if message is None:  # a GPU may or may not exist; either it runs or it says why in one line
        assert result.exit_code in (0, 2)
        return
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_predict_cli_scores_texts(user_module):
    result = runner.invoke(
        app,
        [
            "predict",
            "--model",
            "py:user_models:good",
            "--label-names",
            "neg,pos",
            "--text",
            "a",
            "--text",
            "b",
            "--favorable",
            "pos",
        ],
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line["favorable_score"] for line in lines] == [0.75, 0.75]
    assert [line["favorable"] for line in lines] == [True, True]
    assert lines[0]["label"] == "pos"


def test_as_model_takes_what_a_notebook_holds(tiny):
    """A transformers pipeline, a (model, tokenizer) pair, a fitted scikit-learn Pipeline and
    a function become Models; each scores like the object it wraps."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from transformers import pipeline

    from textfair.models import as_model

    reference = tiny.predict_proba(PROBES)
    classifier = pipeline("text-classification", model=tiny.network, tokenizer=tiny.tokenizer)
    for obj in (classifier, (tiny.network, tiny.tokenizer)):
        model = as_model(obj)
        assert isinstance(model, HFModel) and model.labels == ("non-toxic", "toxic")
        np.testing.assert_allclose(model.predict_proba(PROBES), reference, atol=1e-5)
    # The pipeline's own top label agrees with the wrapped model's argmax.
    top = [r["label"] for r in classifier(PROBES[:3])]
    assert top == [model.labels[i] for i in reference[:3].argmax(axis=1)]

    texts = ["you idiot", "thank you", "stupid troll", "nice work"] * 5
    sklearn_pipeline = Pipeline([("tfidf", TfidfVectorizer()), ("lr", LogisticRegression())]).fit(
        texts, ["toxic", "non-toxic", "toxic", "non-toxic"] * 5
    )
    model = as_model(sklearn_pipeline)
    assert model.labels == ("non-toxic", "toxic")
    assert model.predict_proba(["you idiot"])[0, 1] > 0.5

    def by_rule(batch):
        return ["toxic" if "idiot" in text else "non-toxic" for text in batch]

    model = as_model(by_rule, label_names=["non-toxic", "toxic"])
    assert model.predict_proba(["an idiot", "a friend"]).tolist() == [[0, 1], [1, 0]]
    assert as_model(tiny) is tiny
    assert isinstance(as_model("toxicity-cnn-lstm"), TorchTextModel)


@pytest.mark.parametrize(
    "obj, message",
    [
        (42, "model is a int; expected a Hugging Face pipeline"),
        ([1, 2], "model is a list; expected"),
        ("no-such-model", "no such file or directory, and no bundled model"),
    ],
)
def test_as_model_refuses_what_it_cannot_score(obj, message):
    from textfair.models import as_model

    with pytest.raises(TextfairError, match=message):
        as_model(obj)


def test_as_model_refuses_unfitted_estimators_and_other_pipelines(tiny):
    from sklearn.linear_model import LogisticRegression
    from transformers import pipeline

    from textfair.models import as_model

    with pytest.raises(TextfairError, match=r"call \.fit first"):
        as_model(LogisticRegression())
    extractor = pipeline("feature-extraction", model=tiny.network, tokenizer=tiny.tokenizer)
    with pytest.raises(TextfairError, match="task is 'feature-extraction'"):
        as_model(extractor)


def test_hf_precision_is_half_only_where_asked_or_on_a_gpu_and_keys_the_answers():
    auto = load_model("toxicity-tiny-transformer", device="cpu")
    assert auto.dtype == "float32" and not auto.fingerprint.endswith("float32")  # CPU: full
    half = load_model("toxicity-tiny-transformer", device="cpu", dtype="bfloat16")
    assert half.dtype == "bfloat16" and half.fingerprint == f"{auto.fingerprint}:bfloat16"
    # The on-disk cache key too: a bundled model is keyed by its files, then its precision.
    plain = spec_fingerprint("toxicity-tiny-transformer", auto)
    assert spec_fingerprint("toxicity-tiny-transformer", half) == f"{plain}:bfloat16"
    assert str(next(half.network.parameters()).dtype) == "torch.bfloat16"
    answers = half.predict_proba(PROBES)
    assert answers.dtype == np.float64 and np.allclose(answers.sum(axis=1), 1.0)
    np.testing.assert_allclose(answers, auto.predict_proba(PROBES), atol=0.05)
    with pytest.raises(TextfairError, match=r"^dtype is 'half'"):
        load_model("toxicity-tiny-transformer", device="cpu", dtype="half")
    with pytest.raises(TextfairError, match=r"^dtype applies to Hugging Face models"):
        load_model("toxicity-cnn-lstm", dtype="float16")
    result = CliRunner().invoke(app, ["predict", "--text", "hi", "--dtype", "double"])
    assert result.exit_code == 2 and "'double' is not one of auto" in result.output


def test_a_plain_function_is_adapted_without_importing_transformers_pipelines():
    """Checking whether a model is a Hugging Face pipeline imported transformers' pipelines
    (4-7 s) for every audit of a plain function."""
    from conftest import runs_in_a_fresh_interpreter

    runs_in_a_fresh_interpreter(
        "import sys, textfair\n"
        "from textfair.models import as_model\n"
        "as_model(lambda texts: [[0.5, 0.5]] * len(texts), label_names=['ok', 'bad'])\n"
        "assert 'transformers.pipelines' not in sys.modules, 'imported'\n"
    )
