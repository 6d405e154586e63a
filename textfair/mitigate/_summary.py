"""mitigation.json: the targets and held-out terms before and after, and every loop step."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from textfair._version import __version__
from textfair.core.rules import RuleSet
from textfair.mitigate._measure import Measurement
from textfair.mitigate.retrain import LoopResult, Retrainer
from textfair.report.model import AuditReport

if TYPE_CHECKING:
    from textfair.mitigate.pipeline import MitigationConfig
    from textfair.run import Run

__all__ = ["Outcome", "mitigation_report"]


@dataclass(frozen=True)
class Outcome:
    """Everything the mitigation report is made of."""

    before: AuditReport
    retrainer: Retrainer
    after: AuditReport | None = None
    targets: list[RuleSet] = field(default_factory=list)
    held_out: list[RuleSet] = field(default_factory=list)  # single-term rule sets
    result: LoopResult = field(default_factory=lambda: LoopResult([], None, None))
    baseline: Measurement | None = None
    data: dict = field(default_factory=dict)
    augmentation: dict = field(default_factory=dict)
    # The audit that chose the targets (every seed input), when `before` reports on the
    # half the step choice never saw; None: `before` is that audit.
    audit: AuditReport | None = None


def _side(report: AuditReport | None, rule_set: RuleSet) -> dict | None:
    finding = report.finding(rule_set) if report is not None else None
    if finding is None:
        return None
    return {
        "score": finding.score,
        "ci": list(finding.ci),
        "phi_r": finding.phi_r,
        "phi_not_r": finding.phi_not_r,
        "p_adjusted": finding.p_adjusted,
        "significant": finding.significant,
    }


# A relative change is reported only from a base of at least 2 points: from 0.1% to 0.4% is
# "-300%", which says nothing a reader can use (the change in points still is reported).
RELATIVE_BASE = 0.02


def _comparison_row(outcome: Outcome, rule_set: RuleSet, role: str) -> dict:
    first, second = _side(outcome.before, rule_set), _side(outcome.after, rule_set)
    reduction = None
    if first and second and first["score"] >= RELATIVE_BASE:
        reduction = 1 - second["score"] / first["score"]
    return {
        "rule_set": outcome.before.label(rule_set),  # as the audit writes it: {"lgbt"}
        "rules": rule_set.to_records(outcome.before.kind),
        "role": role,
        # The finding as the audit that chose the targets scored it (every seed input).
        "audit": _side(outcome.audit or outcome.before, rule_set),
        "before": first,
        "after": second,
        "reduction": reduction,
    }


def _status(result: LoopResult, baseline: Measurement | None, config: MitigationConfig) -> str:
    """What the loop kept, in words: a version within the accuracy budget, the most
    accurate one over it (with what it cost), or none."""
    if result.chosen is None:
        return "no retrained version kept the accuracy"
    if not result.over_budget:
        return "mitigated"
    lost = (baseline.accuracy if baseline else 0.0) - result.steps[result.chosen].accuracy
    budget = 100 * config.max_accuracy_drop
    return (
        f"over budget: no retrained version kept the accuracy; the most accurate lost "
        f"{100 * lost:.1f} points of held-out accuracy (budget {budget:.1f})"
    )


def mitigation_report(outcome: Outcome, config: MitigationConfig, run: Run) -> dict:
    """mitigation.json: targets and held-out terms before and after, each loop step."""
    result = outcome.result
    chosen = None if result.chosen is None else result.steps[result.chosen]
    comparison = [_comparison_row(outcome, rs, "target") for rs in outcome.targets] + [
        _comparison_row(outcome, rs, "held-out term") for rs in outcome.held_out
    ]
    top = comparison[0] if comparison else None
    baseline = outcome.baseline
    return {
        "textfair_version": __version__,
        "command": run.command,
        "status": _status(result, outcome.baseline, config),
        "model": {"id": run.model_id, "retrainer": outcome.retrainer.kind},
        "data": outcome.data,
        "config": dataclasses.asdict(config),
        "audit_config": outcome.before.config,
        "comparison": comparison,
        "over_budget": result.over_budget,
        "top_target_halved": bool(top and top["reduction"] is not None and top["reduction"] >= 0.5),
        "held_out": {
            "rows": outcome.data.get("held_out_rows"),
            "before": {
                "accuracy": baseline.accuracy if baseline else None,
                "roc_auc": baseline.extra.get("roc_auc") if baseline else None,
            },
            "after": None
            if chosen is None
            else {"accuracy": chosen.accuracy, "roc_auc": chosen.extra.get("roc_auc")},
        },
        "augmentation": outcome.augmentation,
        "steps": [
            {
                "added": s.added,
                "worst_target_score": s.score,
                "held_out_accuracy": s.accuracy,
                "kept": i == result.chosen,
                **{k: v for k, v in s.extra.items() if k != "rows"},
            }
            for i, s in enumerate(result.steps)
        ],
        "run": {"seconds": round(run.seconds(), 1)},
    }
