"""The templated section audited in a thread beside the corpus, for a model that waits
(issue 58): the same report, the model's answers given back, each section's failure said
once and the other section stopped."""

import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

import textfair
from textfair.auditing._template_section import TemplateSection
from textfair.errors import ModelError
from textfair.models import CachedModel
from textfair.report.model import AuditReport
from textfair.text.reading_store import forget_readings

from conftest import bundled_comments

SETTINGS = {"categories": ["gender"], "causal": False}
TEXTS = bundled_comments()[0][:300]


class _Waiting:
    """A model on a 'device': it waits while it works; it records every text it is asked
    (and in which thread), and fails on a text that contains `fails_on`."""

    labels = ("non-toxic", "toxic")

    def __init__(self, fails_on: str | None = None) -> None:
        self.fails_on = fails_on
        self.calls: list[tuple[str, list[str]]] = []

    def predict_proba(self, texts):
        self.calls.append((threading.current_thread().name, list(texts)))
        if self.fails_on is not None and any(self.fails_on in t for t in texts):
            raise RuntimeError(f"cannot read {self.fails_on!r}")
        time.sleep(len(texts) / 50_000)
        hits = np.array([("gay" in t.lower()) or ("stupid" in t.lower()) for t in texts], float)
        return np.column_stack([0.9 - 0.8 * hits, 0.1 + 0.8 * hits])


def _template_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("textfair-templates")]


def test_a_waiting_model_has_its_templates_audited_at_once_and_keeps_every_answer(monkeypatch):
    started: list[TemplateSection] = []
    start = TemplateSection.start
    monkeypatch.setattr(TemplateSection, "start", lambda self: (started.append(self), start(self)))
    forget_readings()
    cached = CachedModel(_Waiting(), batch_size=64)
    said: list[str] = []
    report = textfair.audit(cached, TEXTS, model_id="m", progress=said.append, **SETTINGS)
    assert started, "the model waits: its templates ran in a thread of their own"
    assert report.templates is not None and report.templates.findings
    # Both sections' stages are said, the templates' named as theirs.
    assert "templates: finding frequent rule sets" in said
    assert "finding frequent rule sets" in said
    # The model's counts are both sections' once the audit ends; each section's its own.
    assert cached.stats.forwarded == report.run.model_queries + report.templates.run.model_queries
    # Every answer is kept: the same audit again asks the model nothing.
    asked = cached.stats.forwarded
    forget_readings()
    textfair.audit(cached, TEXTS, model_id="m", **SETTINGS)
    assert cached.stats.forwarded == asked
    assert not _template_threads()


def test_the_report_is_the_same_whether_the_templates_run_at_once_or_after(monkeypatch):
    def audited() -> dict:
        forget_readings()
        report = textfair.audit(_Waiting(), TEXTS, model_id="m", **SETTINGS).to_dict()
        for section in (report, report["templates"]):
            del section["run"]["seconds"]
        del report["run"]["reading"]
        return report

    at_once = audited()
    monkeypatch.setattr(TemplateSection, "start", lambda self: None)  # audited after
    assert audited() == at_once


def test_a_model_failing_on_the_templates_is_said_once_and_the_corpus_stops_asking():
    model = _Waiting(fails_on="Nobody cares what a")  # a toxicity template
    with pytest.raises(ModelError, match="cannot read 'Nobody cares what a'") as raised:
        forget_readings()
        textfair.audit(model, TEXTS, model_id="m", **SETTINGS)
    assert isinstance(raised.value, ModelError)
    failed = next(
        k
        for k, (_, texts) in enumerate(model.calls)
        if any("Nobody cares what a" in t for t in texts)
    )
    # After the failing call, the corpus's section made at most the call it had begun.
    assert len(model.calls) - failed - 1 <= 1
    assert not _template_threads()


def test_a_model_failing_on_the_corpus_stops_the_templates_at_their_next_call(monkeypatch):
    recorded = _Waiting()
    forget_readings()
    textfair.audit(recorded, TEXTS, model_id="m", **SETTINGS)
    # The corpus's rule sets are asked in a thread named after the corpus's ("MainThread-").
    corpus_calls = [t for name, t in recorded.calls if name.startswith("MainThread-model")]
    text = corpus_calls[len(corpus_calls) // 2][0]  # a text the corpus's section asks midway
    model = _Waiting(fails_on=text)
    # The corpus's error reaches the audit slowly, as on a loaded machine: the templates
    # must be stopped by the failing call itself, not when the error arrives.
    answers = CachedModel._answers

    def slow_to_arrive(self, batches):
        try:
            yield from answers(self, batches)
        except ModelError:
            time.sleep(0.3)
            raise

    monkeypatch.setattr(CachedModel, "_answers", slow_to_arrive)
    forget_readings()
    with pytest.raises(ModelError, match="cannot read"):
        textfair.audit(model, TEXTS, model_id="m", **SETTINGS)
    failed = next(k for k, (_, texts) in enumerate(model.calls) if text in texts)
    assert not model.calls[failed][0].startswith("textfair-templates")
    # The failing call marks the failure before it gives the model back, so the templates'
    # next call is stopped whatever the load: no call follows it (under load, one that
    # waited for the error to reach the audit had let the templates make two).
    assert model.calls[failed + 1 :] == []
    assert not _template_threads()


def test_a_model_on_this_cpu_has_its_templates_audited_after_the_corpus(monkeypatch):
    monkeypatch.setattr(TemplateSection, "start", lambda self: pytest.fail("started"))
    waiting = _Waiting()
    on_cpu = SimpleNamespace(
        labels=waiting.labels, device="cpu", predict_proba=waiting.predict_proba
    )
    forget_readings()
    report = textfair.audit(on_cpu, TEXTS, model_id="m", **SETTINGS)
    assert isinstance(report.templates, AuditReport)
    assert {name for name, _ in waiting.calls} == {"MainThread"}


class _Pool(_Waiting):
    """A pool of workers (`predict_proba_batches`): one call spans its batches, from the
    call to its last answer, and another call in between would mix their queues."""

    def __init__(self) -> None:
        super().__init__()
        self.open_calls = 0
        self.overlapped = False

    def predict_proba_batches(self, batches):
        self.overlapped |= self.open_calls > 0
        self.open_calls += 1
        answers = [self.predict_proba(batch) for batch in batches]  # "submitted" now

        def answered():
            try:
                for answer in answers:
                    time.sleep(0.001)
                    yield answer
            finally:
                self.open_calls -= 1

        return answered()


def test_a_pools_call_holds_the_model_from_its_call_to_its_last_answer():
    pool = _Pool()
    forget_readings()
    report = textfair.audit(CachedModel(pool, batch_size=64), TEXTS, model_id="m", **SETTINGS)
    assert report.templates is not None
    assert {name.startswith("textfair-templates") for name, _ in pool.calls} == {True, False}
    assert not pool.overlapped
