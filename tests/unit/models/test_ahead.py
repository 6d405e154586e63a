"""Model calls made ahead while the corpus is read (textfair.models.ahead): made once each,
in order, the same calls whichever thread makes them, so the report is the same; a failure
is raised where the audit would have met it; a model on this CPU is never asked ahead."""

import functools
import json
import os
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

import textfair
from textfair.auditing.templates import template_domain, template_texts
from textfair.auditing.text import AHEAD_BATCH
from textfair.discovery._answering_ahead import AnsweringAhead
from textfair.errors import ModelError, TextfairError
from textfair.models.ahead import Ahead, computes_on_this_cpu
from textfair.settings import AuditConfig
from textfair.text.domain import TextDomain
from textfair.text.reading_store import forget_readings

from conftest import bundled_comments


def _recording_calls(count: int, seconds: float):
    made: list[tuple[int, int]] = []  # (call, thread)

    def call(k: int) -> None:
        time.sleep(seconds)  # waits, as a model on a device does
        made.append((k, threading.get_ident()))

    return made, [lambda k=k: call(k) for k in range(count)]


def test_calls_are_made_once_each_in_order_some_ahead():
    made, calls = _recording_calls(6, 0.01)
    ahead = Ahead(calls)
    ahead.start()
    time.sleep(0.3)  # the corpus is being read
    ahead.finish()
    assert [k for k, _ in made] == list(range(6))
    assert ahead.made_ahead == sum(ident != threading.get_ident() for _, ident in made)
    assert ahead.made_ahead >= 1


def test_without_start_finish_makes_every_call_here():
    made, calls = _recording_calls(4, 0.0)
    ahead = Ahead(calls)
    ahead.finish()
    assert made == [(k, threading.get_ident()) for k in range(4)] and ahead.made_ahead == 0


def test_a_failure_ahead_is_raised_by_finish_and_no_later_call_is_made():
    made: list[int] = []

    def fail() -> None:
        raise ModelError("the server answered 500")

    ahead = Ahead([lambda: made.append(0), fail, lambda: made.append(2)])
    ahead.start()
    time.sleep(0.1)
    with pytest.raises(ModelError, match="500"):
        ahead.finish()
    assert made == [0]


def test_cancel_makes_no_other_call_and_raises_nothing():
    made, calls = _recording_calls(50, 0.005)
    ahead = Ahead(calls)
    ahead.start()
    ahead.cancel()
    count = len(made)
    ahead.cancel()
    assert len(made) == count < 50


class _Device:
    type = "cpu"


def test_a_model_on_this_cpu_says_so():
    on_cpu = type("M", (), {"device": "cpu"})()
    assert computes_on_this_cpu(on_cpu) and computes_on_this_cpu(
        type("M", (), {"device": _Device()})()
    )
    assert not computes_on_this_cpu(type("M", (), {"device": "cuda:0"})())
    assert not computes_on_this_cpu(lambda texts: texts)


def _waiting_model(batches: list[list[str]], templates: list[list[str]] | None = None):
    """A model on a 'device': it waits while it works, and records every batch: the
    corpus's in `batches`, the templated section's in `templates` (dropped without). The
    templates are audited in a thread of their own beside the corpus
    (`textfair.auditing._template_section`), so each section's calls keep their order but
    the two interleave as the threads run."""
    written = _template_texts()

    def model(texts):
        section = templates if texts[0] in written else batches
        if section is not None:
            section.append(list(texts))
        time.sleep(len(texts) / 50_000)
        hits = np.array([("gay" in t.lower()) or ("stupid" in t.lower()) for t in texts], float)
        return np.column_stack([0.9 - 0.8 * hits, 0.1 + 0.8 * hits])

    model.labels = ["non-toxic", "toxic"]
    return model


@functools.cache
def _template_texts() -> frozenset[str]:
    """Every text the toxicity templates can write with the default list (placebo edits
    included)."""
    choice = template_texts("toxicity", ())
    assert choice is not None
    domain = template_domain(choice, AuditConfig())
    return frozenset(
        domain.write(i, term, placebo)
        for i, seed in enumerate(domain.seeds)
        for term in seed.terms
        for placebo in (False, True)
    )


def _audit(texts, labels, batches):
    forget_readings()  # each audit reads the corpus, as the calls made ahead wait on it
    model = _waiting_model(batches)
    settings = {"categories": ["religion"], "max_samples": 100, "min_samples": 50}
    report = textfair.audit(model, texts, true_labels=labels, **settings).to_dict()
    del report["run"]["seconds"]
    del report["templates"]["run"]["seconds"]  # the templates' section is timed apart
    return json.dumps(report, sort_keys=True)


def test_the_model_is_asked_the_same_batches_and_the_report_is_the_same_ahead_or_not(
    monkeypatch,
):
    texts, labels = bundled_comments()
    # 700 comments name religion often enough; reading all 1,492 twice took 5 s.
    texts, labels = texts[:700], labels[:700]
    made_ahead: list[Ahead] = []
    start = Ahead.start

    def recorded_start(self):
        made_ahead.append(self)
        start(self)

    monkeypatch.setattr(Ahead, "start", recorded_start)
    batches_ahead: list[list[str]] = []
    with_ahead = _audit(texts, labels, batches_ahead)
    assert made_ahead, "the corpus mentions the categories: the calls were started"
    monkeypatch.setattr(Ahead, "start", lambda self: None)  # every call made after reading
    batches_here: list[list[str]] = []
    assert _audit(texts, labels, batches_here) == with_ahead
    assert batches_here == batches_ahead
    # The corpus's texts come first: the probe's two, then calls of at most AHEAD_BATCH.
    assert batches_here[0] == texts[:2]
    assert len(batches_here[1]) == min(AHEAD_BATCH, len(set(texts)) - 2)


def test_a_corpus_with_nothing_to_audit_asks_the_model_nothing():
    batches: list[list[str]] = []
    texts = ["a sunny day", "the weather is nice"] * 300
    with pytest.raises(TextfairError, match="none of the 600 texts"):
        textfair.audit(
            _waiting_model(batches), texts, true_labels=["non-toxic"] * 600, templates="none"
        )
    assert batches == []


def test_the_first_seed_starts_the_calls_only_in_the_reading_process(tmp_path):
    """A seed read by a worker process starts nothing there (nor anything twice)."""
    texts, _ = bundled_comments()
    started = tmp_path / "started"

    def note() -> None:
        with started.open("a") as handle:
            handle.write(f"{os.getpid()}\n")

    TextDomain(texts, categories=["gender"], workers=2, on_first_seed=note)
    assert started.read_text().split() == [str(os.getpid())]


def test_the_seeds_written_while_the_model_answers_change_nothing(monkeypatch):
    """Paired scoring writes the next seeds while a model that waits answers (issue 58): the
    model is asked the same batches, in the same order, and the report is the same as when
    every seed is written between calls (the same model, said to compute on this CPU)."""
    texts = bundled_comments()[0][:700]
    settings = {"categories": ["gender"], "templates": "none", "causal": False}
    _same_ahead_or_not(monkeypatch, texts, settings)


def test_the_templates_written_while_the_model_answers_change_nothing(monkeypatch):
    """The templated section's paired scoring writes ahead too (its domain remembers what it
    wrote): the same batches, in the same order, and the same report."""
    texts = bundled_comments()[0][:300]
    settings = {"categories": ["gender"], "causal": False}
    assert "TemplateDomain" in _same_ahead_or_not(monkeypatch, texts, settings)


def test_the_causal_ranges_written_while_the_model_answers_change_nothing(monkeypatch):
    """The causal test writes its next range of seeds while a model that waits answers this
    one (issue 58): the same batches, in the same order, and the same report."""
    texts = bundled_comments()[0][:700]
    settings = {"categories": ["gender"], "templates": "none"}
    answered_ahead: list[str] = []
    submit = AnsweringAhead.submit

    def recorded(self, call, *args):
        answered_ahead.append(call.__name__)
        return submit(self, call, *args)

    monkeypatch.setattr(AnsweringAhead, "submit", recorded)
    _same_ahead_or_not(monkeypatch, texts, settings)
    assert "with_placebos" in answered_ahead, "the causal test's calls were made ahead"


def _same_ahead_or_not(monkeypatch, texts, settings) -> set[str]:
    """The domains (by class) whose seeds were written ahead for the waiting model."""
    import textfair.discovery.paired_rows as paired_rows

    written_ahead: list[str] = []
    write_ahead = paired_rows._write_ahead

    def counted(plan, *args):
        written_ahead.append(type(plan.domain).__name__)
        return write_ahead(plan, *args)

    monkeypatch.setattr(paired_rows, "_write_ahead", counted)
    reports, asked = [], []
    for device in (None, "cpu"):
        batches: list[list[str]] = []
        templates: list[list[str]] = []
        model = _waiting_model(batches, templates)
        if device:  # a model that says it computes here (`computes_on_this_cpu`)
            model = SimpleNamespace(labels=model.labels, device=device, predict_proba=model)
        report = textfair.audit(model, texts, model_id="m", **settings).to_dict()
        del report["run"]["seconds"], report["run"]["reading"]
        if report.get("templates"):
            del report["templates"]["run"]["seconds"]
        reports.append(json.dumps(report, sort_keys=True))
        asked.append([batches, templates])
        # Written ahead for the waiting model only.
        assert bool(written_ahead) == (device is None)
        if device is None:
            domains = set(written_ahead)
        written_ahead.clear()
    assert asked[0] == asked[1]
    assert reports[0] == reports[1]
    return domains
