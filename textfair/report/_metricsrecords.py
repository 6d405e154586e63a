"""report.json's `metrics`: the label metrics of a text audit (AUCs, rate gaps, their
intervals and gaps) and the group metrics of a table audit, written and read back.

Apart from `textfair.report.records`, which writes and reads the rest of the report and
calls these for its `metrics`.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from textfair.report._jsonvalues import _number, _pair_or_none
from textfair.report.parts import LabelMetrics, TableMetrics
from textfair.stats.label_metrics import AUC_KINDS, RATE_GAPS, AucGap, SubgroupMetrics
from textfair.stats.metrics import GroupMetrics

__all__ = ["metrics_record", "read_metrics"]


def metrics_record(metrics: LabelMetrics | TableMetrics | None) -> dict | None:
    if metrics is None:
        return None
    if isinstance(metrics, TableMetrics):
        return {
            "groups": {name: asdict(g) for name, g in metrics.groups.items()},
            "consistency": metrics.consistency,
            "consistency_rows": metrics.consistency_rows,
            "theil_index": metrics.theil_index,
        }
    return {
        "overall_auc": metrics.overall_auc,
        "overall_auc_ci": metrics.overall_auc_ci,
        "positives": metrics.positives,
        "negatives": metrics.negatives,
        "subgroups": [_subgroup_record(s) for s in metrics.subgroups],
        "generalized_mean": dict(metrics.generalized_mean),
        "fpr_equality_difference": metrics.fpr_equality_difference,
        "fnr_equality_difference": metrics.fnr_equality_difference,
        "power": metrics.power,
        "threshold": metrics.threshold,
        "positive_label": metrics.positive_label,
        "confidence": metrics.confidence,
        "correction": metrics.correction,
        "min_per_class": metrics.min_per_class,
    }


def _subgroup_record(metrics: SubgroupMetrics) -> dict[str, Any]:
    """A subgroup's metrics: each value (null with too few texts), the subgroup's counts of
    each class, every metric's interval (null where it has no value) and the AUCs' gaps."""
    return {
        **asdict(metrics),
        "intervals": {k: metrics.intervals.get(k) for k in (*AUC_KINDS, *RATE_GAPS)},
        "gaps": {k: asdict(g) for k, g in metrics.gaps.items()},
    }


def read_metrics(record: dict | None) -> LabelMetrics | TableMetrics | None:
    if record is None:
        return None
    if "groups" in record:
        return TableMetrics(
            groups={
                name: GroupMetrics(**{k: _number(v) for k, v in g.items()})
                for name, g in record["groups"].items()
            },
            consistency=_number(record["consistency"]),
            consistency_rows=int(record["consistency_rows"]),
            theil_index=_number(record["theil_index"]),
        )
    return LabelMetrics(
        overall_auc=_number(record["overall_auc"]),
        subgroups=tuple(_read_subgroup(s) for s in record["subgroups"]),
        generalized_mean={k: _number(v) for k, v in record["generalized_mean"].items()},
        fpr_equality_difference=_number(record["fpr_equality_difference"]),
        fnr_equality_difference=_number(record["fnr_equality_difference"]),
        power=_number(record["power"]),
        threshold=_number(record["threshold"]),
        positive_label=record["positive_label"],
        # Records written before the intervals hold none of these.
        overall_auc_ci=_pair_or_none(record.get("overall_auc_ci")),
        positives=record.get("positives"),
        negatives=record.get("negatives"),
        confidence=record.get("confidence"),
        correction=record.get("correction", ""),
        min_per_class=record.get("min_per_class"),
    )


def _read_subgroup(record: dict) -> SubgroupMetrics:
    counts = ("subgroup", "size", "positives", "negatives")
    values = {k: v if k in counts else _number(v) for k, v in record.items()}
    values["intervals"] = {
        k: (_number(v[0]), _number(v[1]))
        for k, v in (record.get("intervals") or {}).items()
        if v is not None
    }
    values["gaps"] = {
        k: AucGap(**{**g, "ci": _pair_or_none(g["ci"])})
        for k, g in (record.get("gaps") or {}).items()
    }
    return SubgroupMetrics(**values)
