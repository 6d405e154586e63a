"""The audit report as typed objects: what every consumer of an audit reads.

`AuditReport` holds the findings (`Finding`: a rule set, its rates, score, interval and
significance), the counterfactual results (`Counterfactual`: causal scores, group scores, term
pairs), the label metrics (`LabelMetrics` for text, `TableMetrics` for rows) and the run's
statistics. Renderers, augmentation, mitigation, the CLI and notebooks read these objects;
`to_dict()` writes report.json (the contract in the README) and `from_dict()` reads it back,
so `AuditReport.from_dict(report.to_dict()) == report`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from textfair.discovery.groups import GroupFinding
from textfair.discovery.rulesets import RuleSet
from textfair.discovery.themis import CausalScore, GroupScore, PairShift, ThemisResult
from textfair.errors import TextfairError
from textfair.io import read_utf8
from textfair.stats.auc import BiasMetrics, SubgroupMetrics
from textfair.stats.metrics import GroupMetrics

__all__ = [
    "REPORT_VERSION",
    "AuditReport",
    "Counterfactual",
    "Finding",
    "LabelMetrics",
    "ModelInfo",
    "RunStats",
    "TableMetrics",
]

# 2: "kind" and "report_version" written; rule sets read back through RuleSet.
REPORT_VERSION = 2

Kind = Literal["text", "rows"]
Finding = GroupFinding  # one rule set's group fairness result (see discovery.groups)


@dataclass(frozen=True)
class ModelInfo:
    """Which model was audited and which of its labels is the favourable outcome."""

    id: str
    fingerprint: str | None
    labels: tuple[str, ...]
    favorable: str


@dataclass(frozen=True)
class RunStats:
    """What the run cost: texts asked for, model queries and calls, cache hits, seconds."""

    model_queries: int
    model_calls: int
    unique_inputs: int
    cache_hits: int
    requested: int
    seconds: float


@dataclass(frozen=True)
class Counterfactual:
    """Themis's results: causal scores of category sets, group scores, term-pair shifts."""

    causal: tuple[CausalScore, ...]
    group: tuple[GroupScore, ...]
    term_pairs: tuple[PairShift, ...]  # most negative mean shift first
    tests_run: int
    tests_without_pruning: int
    pruned: tuple[tuple[str, ...], ...] = ()  # supersets of a set wholly above the threshold

    @classmethod
    def from_themis(cls, result: ThemisResult) -> Counterfactual:
        return cls(
            causal=tuple(result.causal),
            group=tuple(result.group),
            term_pairs=tuple(sorted(result.pairs, key=lambda p: p.mean_shift)),
            tests_run=result.tests_run,
            tests_without_pruning=result.tests_without_pruning,
            pruned=tuple(tuple(c) for c in result.pruned),
        )


# Label-based metrics of a text classifier (Borkan et al. 2019): per-subgroup AUCs and
# error-rate gaps, their generalized means, and the overall AUC (see stats.auc).
LabelMetrics = BiasMetrics


@dataclass(frozen=True)
class TableMetrics:
    """AIF360's group metrics per sensitive value against the rest, consistency, Theil."""

    groups: dict[str, GroupMetrics]
    consistency: float
    consistency_rows: int
    theil_index: float


@dataclass(frozen=True)
class AuditReport:
    """One audit: the model, the data, the settings, and everything found."""

    kind: Kind
    model: ModelInfo
    data: dict[str, Any]
    config: dict[str, Any]
    findings: tuple[Finding, ...]
    counterfactual: Counterfactual | None
    metrics: LabelMetrics | TableMetrics | None
    run: RunStats
    seed: int = 0
    command: str = ""
    textfair_version: str = ""
    report_version: int = REPORT_VERSION
    extra: dict[str, Any] = field(default_factory=dict)  # keys a newer writer added

    @property
    def significant(self) -> tuple[Finding, ...]:
        """The findings significant after the correction for testing many rule sets."""
        return tuple(f for f in self.findings if f.significant)

    def failing(self, threshold: float) -> tuple[Finding, ...]:
        """Significant findings whose score is above `threshold` (what --fail-above gates)."""
        return tuple(f for f in self.significant if f.score > threshold)

    def finding(self, rule_set: RuleSet) -> Finding | None:
        """The finding of a rule set, if it was tested."""
        return next((f for f in self.findings if f.rule_set == rule_set), None)

    def label(self, rule_set: RuleSet) -> str:
        """A rule set as people read it in this report's domain."""
        return RuleSet(rule_set).label(self.kind)

    # --- report.json ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """report.json as a JSON-ready dict (NaN written as null)."""
        return _finite(
            {
                "report_version": self.report_version,
                "kind": self.kind,
                "textfair_version": self.textfair_version,
                "command": self.command,
                "seed": self.seed,
                "model": {**asdict(self.model), "labels": list(self.model.labels)},
                "data": self.data,
                "config": self.config,
                "rule_sets_tested": len(self.findings),
                "findings": [_finding_record(f, self.kind) for f in self.findings],
                "counterfactual": _counterfactual_record(self.counterfactual),
                "metrics": _metrics_record(self.metrics),
                "run": asdict(self.run),
                **self.extra,
            }
        )

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> AuditReport:
        """Read a report written by `to_dict` (or report.json); one-line error otherwise."""
        if not isinstance(record, dict) or "findings" not in record or "model" not in record:
            raise TextfairError(
                f"a {type(record).__name__} is not an audit report; expected the object in "
                "a report.json written by textfair audit"
            )
        try:
            kind = record.get("kind") or _kind_of_version_1(record)
            known = {f.name for f in fields(cls)} | {"rule_sets_tested"}
            model = record["model"]
            return cls(
                kind=kind,
                model=ModelInfo(
                    model.get("id", ""),
                    model.get("fingerprint"),
                    tuple(model["labels"]),
                    model["favorable"],
                ),
                data=dict(record.get("data") or {}),
                config=dict(record.get("config") or {}),
                findings=tuple(_read_finding(f, kind) for f in record["findings"]),
                counterfactual=_read_counterfactual(record.get("counterfactual")),
                metrics=_read_metrics(record.get("metrics")),
                run=RunStats(**record["run"]),
                seed=int(record.get("seed", 0)),
                command=record.get("command", ""),
                textfair_version=record.get("textfair_version", ""),
                report_version=int(record.get("report_version", 1)),
                extra={k: v for k, v in record.items() if k not in known},
            )
        except (KeyError, TypeError, ValueError) as err:
            raise TextfairError(
                f"the report is incomplete or malformed ({type(err).__name__}: {err}); "
                "expected a report.json written by textfair audit"
            ) from None

    @classmethod
    def read(cls, path: str | Path) -> AuditReport:
        """Read a report.json; a one-line error when it is missing or not an audit report."""
        file = Path(path)
        if not file.is_file():
            raise TextfairError(f"{file}: no such file; pass the report.json of an audit")
        try:
            record = json.loads(read_utf8(file))
        except ValueError as err:
            raise TextfairError(f"{file}: not a JSON report ({err})") from None
        try:
            return cls.from_dict(record)
        except TextfairError as err:
            raise TextfairError(f"{file}: {err}") from None

    # --- notebooks -----------------------------------------------------------------------

    def findings_frame(self):
        """The findings as a pandas DataFrame, most credible first."""
        import pandas as pd

        return pd.DataFrame(
            [
                {
                    "rule_set": self.label(f.rule_set),
                    "phi_r": f.phi_r,
                    "phi_not_r": f.phi_not_r,
                    "score": f.score,
                    "ci_low": f.ci[0],
                    "ci_high": f.ci[1],
                    "credible_bound": f.credible_bound,
                    "p_adjusted": f.p_adjusted,
                    "significant": f.significant,
                    "seeds": f.n_r,
                    "support": f.support,
                }
                for f in self.findings
            ]
        )

    def summary(self) -> str:
        """One sentence: what was audited, how many rule sets, the most credible finding."""
        head = (
            f"{self.model.id or 'the model'}: {len(self.findings)} rule sets, "
            f"{len(self.significant)} significant after correction"
        )
        if not self.findings:
            return head + "."
        best = self.findings[0]
        low, high = best.ci
        return (
            f"{head}; most credible {self.label(best.rule_set)}: favourable "
            f"{100 * best.phi_r:.1f}% vs {100 * best.phi_not_r:.1f}%, difference in "
            f"[{100 * low:+.1f}, {100 * high:+.1f}] points."
        )

    def _repr_markdown_(self) -> str:
        from textfair.report.render import render_markdown

        return render_markdown(self)

    def _repr_html_(self) -> str:
        import html

        table = self.findings_frame().head(10).to_html(index=False, float_format="{:.3f}".format)
        return f"<p>{html.escape(self.summary())}</p>{table}"


def _kind_of_version_1(record: dict) -> Kind:
    """Reports written before version 2 say nothing of their kind: rows name features."""
    for finding in record["findings"]:
        return "rows" if "feature" in finding["rule_set"][0] else "text"
    return "rows" if "label_column" in (record.get("data") or {}) else "text"


def _finding_record(finding: Finding, kind: Kind) -> dict[str, Any]:
    return {
        "rule_set": RuleSet(finding.rule_set).to_records(kind),
        "phi_r": finding.phi_r,
        "phi_not_r": finding.phi_not_r,
        "score": finding.score,
        "margin": finding.margin,
        "ci": list(finding.ci),
        "credible_bound": finding.credible_bound,
        "p_value": finding.p_value,
        "p_adjusted": finding.p_adjusted,
        "significant": finding.significant,
        "n_r": finding.n_r,
        "n_not_r": finding.n_not_r,
        "support": finding.support,
        "examples": finding.examples,
    }


def _read_finding(record: dict, kind: Kind) -> Finding:
    return Finding(
        rule_set=RuleSet.from_records(record["rule_set"], kind),
        phi_r=_number(record["phi_r"]),
        phi_not_r=_number(record["phi_not_r"]),
        score=_number(record["score"]),
        margin=_number(record["margin"]),
        ci=tuple(_number(x) for x in record["ci"]),
        p_value=_number(record["p_value"]),
        n_r=int(record["n_r"]),
        n_not_r=int(record["n_not_r"]),
        support=_number(record["support"]),
        p_adjusted=_number(record["p_adjusted"]),
        significant=bool(record["significant"]),
        examples=list(record.get("examples", [])),
    )


def _counterfactual_record(result: Counterfactual | None) -> dict | None:
    if result is None:
        return None
    return {
        "causal": [
            {
                "categories": list(c.categories),
                "flip_rate": c.score,
                "ci": list(c.ci),
                "flips": c.flips,
                "n": c.n,
            }
            for c in result.causal
        ],
        "group": [asdict(g) for g in result.group],
        "term_pairs": [asdict(p) for p in result.term_pairs],
        "tests_run": result.tests_run,
        "tests_without_pruning": result.tests_without_pruning,
        "pruned": [list(c) for c in result.pruned],
    }


def _read_counterfactual(record: dict | None) -> Counterfactual | None:
    if record is None:
        return None
    return Counterfactual(
        causal=tuple(
            CausalScore(
                tuple(c["categories"]),
                _number(c["flip_rate"]),
                tuple(_number(x) for x in c["ci"]),
                int(c["flips"]),
                int(c["n"]),
            )
            for c in record["causal"]
        ),
        group=tuple(GroupScore(**g) for g in record["group"]),
        term_pairs=tuple(
            PairShift(
                **{
                    **p,
                    "flip_ci": tuple(_number(x) for x in p["flip_ci"]),
                    "shift_ci": tuple(_number(x) for x in p["shift_ci"]),
                }
            )
            for p in record["term_pairs"]
        ),
        tests_run=int(record["tests_run"]),
        tests_without_pruning=int(record["tests_without_pruning"]),
        pruned=tuple(tuple(c) for c in record.get("pruned", [])),
    )


def _metrics_record(metrics: LabelMetrics | TableMetrics | None) -> dict | None:
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
        "subgroups": [asdict(s) for s in metrics.subgroups],
        "generalized_mean": dict(metrics.generalized_mean),
        "fpr_equality_difference": metrics.fpr_equality_difference,
        "fnr_equality_difference": metrics.fnr_equality_difference,
        "power": metrics.power,
        "threshold": metrics.threshold,
        "positive_label": metrics.positive_label,
    }


def _read_metrics(record: dict | None) -> LabelMetrics | TableMetrics | None:
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
        subgroups=tuple(
            SubgroupMetrics(**{k: v if k == "subgroup" else _number(v) for k, v in s.items()})
            for s in record["subgroups"]
        ),
        generalized_mean={k: _number(v) for k, v in record["generalized_mean"].items()},
        fpr_equality_difference=_number(record["fpr_equality_difference"]),
        fnr_equality_difference=_number(record["fnr_equality_difference"]),
        power=_number(record["power"]),
        threshold=_number(record["threshold"]),
        positive_label=record["positive_label"],
    )


def _number(value) -> float:
    """report.json writes NaN as null; read it back as NaN."""
    return math.nan if value is None else value


def _finite(value):
    """JSON has no NaN: write null instead."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value
