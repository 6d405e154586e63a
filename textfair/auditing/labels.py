"""The label metrics of a text audit: with the texts' true labels, AUCs per identity
subgroup and their gaps (`textfair.stats._auc`), and the checks that the true labels are the
model's before any query.

Apart from the audit's discovery (`report`): these read the corpus as written, not its
rewrites, and only where true labels are given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from textfair.core.domain import Domain
from textfair.errors import TextfairError
from textfair.models import CachedModel
from textfair.models.decision import Decision
from textfair.report.model import LabelMetrics
from textfair.settings import AuditConfig
from textfair.stats.label_metrics import bias_metrics

__all__ = ["check_labels", "label_map_hint", "label_metrics"]


def check_labels(
    cached: CachedModel,
    labels: Sequence[object],
    decision: Decision,
    positive_label: str | None,
) -> str:
    """The positive class of the label metrics, once the true labels are known to be the
    model's (checked before the first query)."""
    names = [str(label) for label in cached.labels]
    if decision.by_threshold:
        # A multi-label head: the true labels say whether the rule's first label applies.
        positive = positive_label or decision.labels[decision.column]
    else:
        positive = positive_label or next(
            n for i, n in enumerate(names) if i not in decision.columns
        )
    if positive not in names:
        raise TextfairError(
            f"positive label {positive!r} is not one of the model's classes: "
            f"{', '.join(names)} (a model that calls them LABEL_0, LABEL_1 is given names "
            "with --label-names, label_names= in as_model)"
        )
    values = [str(label) for label in labels]
    unknown = sorted(set(values) - set(names))
    if unknown and not decision.by_threshold:
        raise TextfairError(
            f"the true labels hold {', '.join(map(repr, unknown[:5]))}, which the model does not "
            f"predict; its classes are: {', '.join(names)}{label_map_hint(values, names)}"
        )
    return positive


def label_map_hint(values: Sequence[object], names: Sequence[str]) -> str:
    """How to map true labels to the model's names, when there are as many of each: the
    values in sorted order against the model's labels in its order ("0=negative,
    1=positive"; "False=non-toxic,True=toxic"), for the user to check."""
    present = sorted({str(v) for v in values})
    if len(present) != len(names) or set(present) & set(names):
        return "; map them with --label-map (label_map= in Python)"
    pairs = ",".join(f"{v}={n}" for v, n in zip(present, names, strict=True))
    return f"; if {present[0]} means {names[0]}, pass --label-map {pairs!r} (label_map= in Python)"


def label_metrics(
    domain: Domain,
    cached: CachedModel,
    texts: Sequence[str],
    labels: Sequence[object],
    decision: Decision,
    positive_label: str | None,
    config: AuditConfig,
) -> LabelMetrics:
    """AUCs per identity subgroup of the texts and their gaps, for the class
    `positive_label` (see `check_labels`), at the audit's confidence and correction."""
    names = [str(label) for label in cached.labels]
    positive = check_labels(cached, labels, decision, positive_label)
    values = [str(label) for label in labels]
    scores = cached.predict_proba(list(texts))[:, names.index(positive)]
    truth = np.array([v == positive for v in values])
    subgroups = {
        rule.value: np.zeros(len(texts), dtype=bool)
        for c in domain.categories()
        for rule in domain.single_rules(c)
    }
    for i in range(len(texts)):
        for c in domain.categories():
            for term in domain.values_of(i, c):  # every mention, rewritable or not
                if term in subgroups:
                    subgroups[term][i] = True
    # Intervals at the audit's confidence; the gaps' tests corrected as the rule sets' are.
    found = bias_metrics(
        truth, scores, subgroups, confidence=config.confidence, correction=config.correction
    )
    return replace(found, positive_label=positive)
