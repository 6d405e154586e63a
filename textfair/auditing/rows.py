"""The rows audit: a classifier of table rows, `textfair tabular audit`'s audit.

The same discovery as the text audit (`report`), over the rows' sensitive columns
(`TabularDomain`), with the group metrics of a table (DI, SPD, EOD, AOD, ERD, consistency,
the Theil index) in place of a text audit's label metrics.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from textfair.auditing.decision import prepare
from textfair.auditing.report import audit_domain
from textfair.models import CachedModel
from textfair.report.model import AuditReport, TableMetrics
from textfair.run import Run, collecting_new_objects_only
from textfair.settings import AuditConfig
from textfair.stats.metrics import consistency, group_metrics, theil_index
from textfair.tabular.domain import TabularDomain
from textfair.tabular.schema import Schema

__all__ = ["CONSISTENCY_ROWS", "audit_rows"]


@collecting_new_objects_only()
def audit_rows(
    model: object,
    frame: pd.DataFrame,
    schema: Schema,
    *,
    config: AuditConfig | None = None,
    model_id: str = "",
    data_info: dict[str, object] | None = None,
    command: str = "",
    progress: Callable[[str], None] | None = None,
) -> AuditReport:
    """Audit a classifier of table rows: the same discovery, plus the group-metric set.

    `schema` names the sensitive features, the label column and the favourable label.
    """
    run = Run(model_id, command, progress)
    config, cached, decision = prepare(model, config, str(schema.favorable))
    favorable = str(schema.favorable)
    domain = TabularDomain(frame[[f.name for f in schema.features]], schema)

    def metrics() -> TableMetrics:
        return _table_metrics(domain, cached, frame[schema.label].tolist(), favorable, config.seed)

    data_info = {**(data_info or {}), "rows": len(frame), "label_column": schema.label}
    recorded: dict[str, object] = {"bins": schema.bins}
    return audit_domain(domain, cached, decision, config, metrics, run, data_info, recorded)


CONSISTENCY_ROWS = 5000  # exact 5-NN is quadratic: measured on a seeded sample of this size


def _table_metrics(
    domain: TabularDomain, cached: CachedModel, truth: list[object], favorable: str, seed: int
) -> TableMetrics:
    """DI, SPD, EOD, AOD, ERD for each value of each categorical sensitive feature against
    the rest, with consistency (on a seeded sample) and the Theil index."""
    names = list(cached.labels)
    predicted = [names[i] for i in cached.predict_proba(domain.rows).argmax(axis=1)]
    labels = [str(v) for v in truth]
    groups = {}
    for feature in domain.schema.sensitive:
        if feature.kind != "categorical":
            continue
        column = domain.frame[feature.name].to_numpy()
        for value in feature.values:
            mask = column == value
            if mask.all() or not mask.any():
                continue
            groups[f"{feature.name}={value}"] = group_metrics(
                labels, predicted, mask, favorable=favorable
            )
    encoded = pd.get_dummies(domain.frame, dtype=float)
    encoded = (encoded - encoded.mean()) / encoded.std(ddof=0).replace(0, 1)
    rows = np.random.default_rng(seed).permutation(len(encoded))[:CONSISTENCY_ROWS]
    return TableMetrics(
        groups=groups,
        consistency=consistency(
            encoded.to_numpy()[rows], np.array(predicted)[rows], favorable=favorable
        ),
        consistency_rows=len(rows),
        theil_index=theil_index(labels, predicted, favorable=favorable),
    )
