"""CachedModel and the callable adapter: each unique input is forwarded once; bad outputs fail."""

import numpy as np
import pytest

from textfair.errors import TextfairError
from textfair.models import CachedModel, CallableModel, load_callable
from textfair.models.base import favorable_index


class CountingModel:
    """A real (if simple) model that records every input it is asked about."""

    labels = ("neg", "pos")

    def __init__(self):
        self.seen = []
        self.calls = 0

    def predict_proba(self, inputs):
        self.calls += 1
        self.seen.extend(inputs)
        p = np.array([min(len(x), 20) / 20 for x in inputs])
        return np.column_stack([1 - p, p])


def test_each_unique_input_is_forwarded_once_per_run():
    model = CountingModel()
    cached = CachedModel(model, batch_size=2)
    first = cached.predict_proba(["a", "bb", "a", "ccc"])
    second = cached.predict_proba(["ccc", "dddd", "bb"])
    assert sorted(model.seen) == ["a", "bb", "ccc", "dddd"]
    assert cached.stats.requested == 7 and cached.stats.unique_inputs == 4
    assert cached.stats.cache_hits == 3 and cached.stats.forwarded == 4
    assert cached.stats.model_calls == 3  # batches of 2: [a, bb], [ccc], [dddd]
    np.testing.assert_allclose(first[1], second[2])
    np.testing.assert_allclose(first[0], first[2])


def test_prefetch_answers_in_one_call_and_counts_each_input_once():
    """Texts gathered for several tests go to the model together; the tests' own calls then
    count them as requested (not as cache hits), and each stage is charged its inputs."""
    model = CountingModel()
    cached = CachedModel(model)
    with cached.stage("causal"):
        cached.prefetch(["a", "bb"], {"placebo": ["tall a", "bb"]})
        assert model.calls == 1 and sorted(model.seen) == ["a", "bb", "tall a"]
        assert cached.stats.requested == 0
        cached.predict_proba(["a", "bb"])
        cached.predict_proba(["a", "tall a"])
    assert model.calls == 1  # nothing asked twice
    stats = cached.stats
    assert (stats.requested, stats.unique_inputs, stats.forwarded) == (4, 3, 3)
    assert stats.cache_hits == stats.requested - stats.unique_inputs == 1
    assert stats.stages["causal"].forwarded == 1  # "bb" was named as both: placebo wins
    assert stats.stages["placebo"].forwarded == 2
    assert stats.stages["causal"].seconds >= stats.stages["causal"].model_seconds > 0


def test_stages_nest_and_the_innermost_counts():
    model = CountingModel()
    cached = CachedModel(model)
    cached.predict_proba(["outside"])
    with cached.stage("outer"):
        cached.predict_proba(["x"])
        with cached.stage("inner"):
            cached.predict_proba(["yy", "zzz"])
        cached.predict_proba(["wwww"])
    assert {name: cost.forwarded for name, cost in cached.stats.stages.items()} == {
        "other": 1,
        "outer": 2,
        "inner": 2,
    }
    assert "other" in cached.stats.stages and cached.stats.stages["other"].seconds == 0.0


def test_results_do_not_depend_on_order_or_batch_size():
    texts = [f"text {i}" * (i % 5 + 1) for i in range(30)]
    reference = CountingModel().predict_proba(texts)
    for batch_size in (1, 7, 64):
        shuffled = np.random.default_rng(batch_size).permutation(len(texts))
        out = CachedModel(CountingModel(), batch_size=batch_size).predict_proba(
            [texts[i] for i in shuffled]
        )
        np.testing.assert_allclose(out, reference[shuffled])


def test_on_disk_cache_answers_a_second_run(tmp_path):
    path = tmp_path / "cache.sqlite"
    model = CountingModel()
    run1 = CachedModel(model, cache_path=path, fingerprint="counting-v1")
    out1 = run1.predict_proba(["x", "yy", "x"])
    run1.close()
    run2 = CachedModel(model, cache_path=path, fingerprint="counting-v1")
    out2 = run2.predict_proba(["yy", "x", "zzz"])
    run2.close()
    assert model.seen == ["x", "yy", "zzz"]
    assert run2.stats.disk_hits == 2
    np.testing.assert_allclose(out2[:2], out1[[1, 0]])
    other = CachedModel(model, cache_path=path, fingerprint="another-model")
    other.predict_proba(["x"])
    assert model.seen[-1] == "x"  # another model's answers are never reused
    with pytest.raises(TextfairError, match="needs a model fingerprint"):
        CachedModel(CallableModel(lambda xs: np.ones((len(xs), 1)), labels=["x"]), cache_path=path)


@pytest.mark.parametrize(
    ("output", "message"),
    [
        (np.ones((2, 3)) / 3, r"shape \(2, 3\) for 2 inputs; expected \(2, 2\)"),
        (np.array([[np.nan, 1.0], [0.5, 0.5]]), "NaN probabilities"),
        (np.array([[-0.5, 1.5], [0.5, 0.5]]), "negative probabilities"),
        (np.array([[0.2, 0.2], [0.5, 0.5]]), "do not sum to 1"),
    ],
)
def test_bad_model_outputs_get_one_line(output, message):
    model = CallableModel(lambda xs: output, labels=["neg", "pos"])
    with pytest.raises(TextfairError, match=message) as caught:
        CachedModel(model).predict_proba(["a", "b"])
    assert "\n" not in str(caught.value)


def test_callable_returning_labels_is_one_hot():
    model = CallableModel(
        lambda xs: ["pos" if "good" in x else "neg" for x in xs], labels=["neg", "pos"]
    )
    np.testing.assert_array_equal(model.predict_proba(["good", "bad"]), [[0, 1], [1, 0]])
    with pytest.raises(TextfairError, match="returned label 'maybe'"):
        CallableModel(lambda xs: ["maybe"] * len(xs), labels=["neg", "pos"]).predict_proba(["x"])
    with pytest.raises(TextfairError, match=r"label_names=\[\.\.\.\]"):
        CallableModel(lambda xs: ["neg"] * len(xs)).predict_proba(["x"])


def test_favorable_label_must_exist_and_callable_specs():
    assert favorable_index(("neg", "pos"), "pos") == 1
    with pytest.raises(TextfairError, match="its labels are: neg, pos"):
        favorable_index(("neg", "pos"), "toxic")
    assert load_callable("os.path:basename")("/a/b") == "b"
    with pytest.raises(TextfairError, match="not module:function"):
        load_callable("nomodule")
    with pytest.raises(TextfairError, match="cannot import module 'no_such_mod_xyz'"):
        load_callable("no_such_mod_xyz:f")
    with pytest.raises(TextfairError, match="has no attribute 'nope'"):
        load_callable("os.path:nope")


def test_a_run_leaves_the_cycle_collector_as_it_found_it():
    """Audits walk only their own objects in the collector (`gc.freeze`), and give the
    frozen ones back at the end, after an error too; a caller's own freeze is kept."""
    import gc

    from textfair.run import collecting_new_objects_only

    assert gc.get_freeze_count() == 0
    with collecting_new_objects_only():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    with pytest.raises(ValueError), collecting_new_objects_only():
        raise ValueError("a failed run")
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collecting_new_objects_only():
            pass
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_long_lived_objects_are_frozen_until_the_run_ends_and_only_inside_one():
    """Issue 58: a corpus's reading is made with the collector paused and frozen with the
    run's other long-lived objects; the run's end gives them back, the collector is left as
    it was (paused by the caller stays paused), and outside a run nothing is frozen."""
    import gc

    from textfair.run import collecting_new_objects_only, long_lived_objects

    with long_lived_objects():  # no run: nothing frozen, the collector untouched
        assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    with collecting_new_objects_only():
        before = gc.get_freeze_count()
        with long_lived_objects():
            assert not gc.isenabled()
            reading = [[object()] for _ in range(1000)]  # tracked objects, made here
        assert gc.isenabled()
        assert gc.get_freeze_count() >= before + len(reading)
        gc.disable()
        try:
            with long_lived_objects():
                pass
            assert not gc.isenabled()  # the caller's pause is kept
        finally:
            gc.enable()
    assert gc.get_freeze_count() == 0
