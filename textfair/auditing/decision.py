"""The favourable outcome an audit counts, settled with the model and the settings before
any query: apart from the audits, because the CLI and the mitigations ask it of a model
they do not audit (`textfair predict`, `textfair mitigate`)."""

from __future__ import annotations

from typing import Protocol

from textfair.corpus import FAVORABLE_GUESSES
from textfair.models import CachedModel, as_model
from textfair.models.decision import Decision, parse_decision
from textfair.settings import AuditConfig

__all__ = ["Labelled", "model_decision", "prepare"]


class Labelled(Protocol):
    """A model, or what is known of one (a model loaded on a Ray cluster): its class names
    (and, where it says so, `multi_label: bool` for a multi-label head)."""

    @property
    def labels(self) -> tuple[str, ...]:
        """The class names, one per column of the model's probabilities."""
        ...


def prepare(
    model: object,
    config: AuditConfig | None,
    favorable: str | Decision | None,
    decision: str | None = None,
) -> tuple[AuditConfig, CachedModel, Decision]:
    """Checked settings, the model behind one cache and its favourable outcome, before any
    query."""
    config = (config or AuditConfig()).checked()
    cached = model if isinstance(model, CachedModel) else CachedModel(as_model(model))
    return config, cached, model_decision(cached, favorable, decision)


def model_decision(
    model: Labelled, favorable: str | Decision | None = None, decision: str | None = None
) -> Decision:
    """The favourable outcome of `model`: a Decision as given, else one parsed from a label
    or label set (`favorable`) or a threshold rule (`decision`); with neither, the label a
    toxicity or sentiment model usually calls favourable (non-toxic, positive, ...)."""
    if isinstance(favorable, Decision):
        return favorable
    multi_label = bool(getattr(model, "multi_label", False))
    if favorable is None and decision is None and not multi_label:
        favorable = next((g for g in FAVORABLE_GUESSES if g in model.labels), None)
    return parse_decision(model.labels, favorable, decision, multi_label)
