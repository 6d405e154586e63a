"""What a retraining loop reads after each fit: the worst target score and held-out quality.

The target rule sets are scored on the same domain, with the audit's settings and seed, so
every step sees the same generated inputs as the audit before it: the scores of different
steps differ only by the model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.metrics import roc_auc_score

from textfair.core.rules import RuleSet
from textfair.discovery.groups import group_fairness
from textfair.models import CachedModel
from textfair.models.base import Model, favorable_index
from textfair.report.model import AuditReport

if TYPE_CHECKING:
    from textfair.core.domain import Domain
    from textfair.settings import AuditConfig

__all__ = ["Measurement", "Measurer", "held_out_quality"]


@dataclass(frozen=True)
class Measurement:
    """One model's worst target score, held-out accuracy, and per-target scores and AUC."""

    score: float
    accuracy: float
    extra: dict


class Measurer:
    """measure(model) -> (worst target score, held-out accuracy, extras), as the loops need.

    `wrap` turns a freshly fitted model into a Model (rows need their columns); `baseline`
    is the measurement of the audited model itself, taken when the Measurer is built.
    """

    def __init__(
        self,
        domain: Domain,
        targets: Sequence[RuleSet],
        before: AuditReport,
        audit_config: AuditConfig,
        held_inputs: Sequence,
        held_truth: Sequence[str],
        audited: CachedModel,
        wrap: Callable[[Any], Model] = lambda model: model,
    ) -> None:
        self.domain, self.targets, self.audit = domain, list(targets), audit_config
        self.favorable, self.kind = before.model.favorable, before.kind
        self.inputs, self.truth, self.wrap = list(held_inputs), list(held_truth), wrap
        self.supports = [
            finding.support if (finding := before.finding(rs)) else 0.0 for rs in self.targets
        ]
        self.baseline = self._measure(audited)

    def __call__(self, fitted: Any) -> tuple[float, float, dict]:
        measured = self._measure(CachedModel(self.wrap(fitted)))
        return measured.score, measured.accuracy, measured.extra

    def _measure(self, model: CachedModel) -> Measurement:
        findings = group_fairness(
            self.domain,
            model,
            self.targets,
            self.supports,
            favorable=favorable_index(model.labels, self.favorable),
            mode=self.audit.mode,
            confidence=self.audit.confidence,
            error=self.audit.error_fraction,
            min_samples=self.audit.min_samples,
            max_samples=self.audit.max_samples,
            correction="none",
            seed=self.audit.seed,
            n_examples=0,
        )
        held = held_out_quality(model, self.inputs, self.truth, self.favorable)
        # Keyed as the audit writes a rule set ({"lgbt"}), like every mitigation output.
        scores = {RuleSet(f.rule_set).label(self.kind): round(f.score, 6) for f in findings}
        extra = {"scores": scores, "roc_auc": held["roc_auc"]}
        return Measurement(max(scores.values()), held["accuracy"], extra)


def held_out_quality(model: Model, inputs: Sequence, truth: Sequence[str], favorable: str) -> dict:
    """Accuracy on the held-out part, and the AUC of the unfavourable class (e.g. toxic)."""
    names = list(model.labels)
    probabilities = model.predict_proba(list(inputs))
    predicted = [names[i] for i in probabilities.argmax(axis=1)]
    accuracy = float(np.mean([p == t for p, t in zip(predicted, truth, strict=True)]))
    unfavourable = np.array([t != favorable for t in truth])
    auc = None
    if 0 < unfavourable.sum() < len(truth):
        auc = float(roc_auc_score(unfavourable, 1 - probabilities[:, names.index(favorable)]))
    return {"accuracy": accuracy, "roc_auc": auc, "rows": len(truth)}
