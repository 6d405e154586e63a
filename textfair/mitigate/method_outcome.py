"""One method's outcome in a comparison: what is recorded of it (`MethodOutcome`) and how it
is measured on the evaluation part, the same way for every method and for the audited model
(method "none"): its targets before and after, its held-out quality and group metrics, what
it cost in held-out accuracy, and its point on the Pareto front.

The change of a target's difference d = phi_r - phi_not_r is reported signed with the
interval d_after - d_before +- sqrt(h_before^2 + h_after^2), h each side's half-width: the
two audits score the same generated inputs, so their errors are positively correlated and
this interval is conservative.

Apart from the comparison (`textfair.mitigate.compare`), which runs the methods and builds
the whole `Comparison` from these outcomes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from textfair.mitigate._evaluation import quality
from textfair.report.front import Point

if TYPE_CHECKING:
    from textfair.core.rules import RuleSet
    from textfair.mitigate._setting import Mitigated, Setting
    from textfair.models.base import Model
    from textfair.report.model import AuditReport

__all__ = ["MethodOutcome", "costed", "front_point", "measure_outcome"]

# The group metrics of a model's decisions on the evaluation part (`evaluation.group_table`).
Fairness = Callable[["Model"], dict[str, Any]]


@dataclass(frozen=True)
class MethodOutcome:
    """One method's measurements on the evaluation part (the baseline is method "none")."""

    method: str
    stage: str
    changes: str
    seconds: float
    quality: dict
    targets: list[dict]
    group_metrics: dict
    worst_target: float | None
    worst_spd: float | None
    note: str = ""
    skipped: str = ""
    extra: dict = field(default_factory=dict)
    # Held-out accuracy lost against the audited model (a fraction; negative: gained), and
    # whether that is more than the comparison's budget.
    accuracy_cost: float | None = None
    over_budget: bool = False


def costed(outcome: MethodOutcome, baseline: MethodOutcome, budget: float) -> MethodOutcome:
    """The outcome with the held-out accuracy it cost against the audited model's, and
    whether that is over the budget."""
    if not outcome.quality or not baseline.quality:
        return outcome
    cost = baseline.quality["accuracy"]["value"] - outcome.quality["accuracy"]["value"]
    return replace(
        outcome, accuracy_cost=round(cost, 4), over_budget=cost > budget + 1e-9
    )  # 1e-9: the accuracies are rounded to 4 places


def front_point(outcome: MethodOutcome) -> Point | None:
    """The outcome on the trade-off (worst target against held-out accuracy), or None for
    a method that left no model."""
    if outcome.worst_target is None or not outcome.quality:
        return None
    accuracy = outcome.quality["accuracy"]["value"]
    return Point(outcome.method, outcome.worst_target, accuracy, outcome.over_budget)


def measure_outcome(
    name: str,
    stage: str,
    mitigated: Mitigated,
    after: AuditReport | None,
    before: AuditReport,
    targets: Sequence[RuleSet],
    fairness: Fairness,
    evaluation: Sequence[Any],
    truth: Sequence[str] | np.ndarray,
    setting: Setting,
) -> MethodOutcome:
    """What is recorded of one method (`name`, its `stage`) that left `mitigated`: its
    audit `after` against the audit `before` on each target, its quality and group metrics
    (`fairness`) on the `evaluation` inputs and their `truth`."""
    if mitigated.model is None:
        return MethodOutcome(
            name,
            stage,
            mitigated.changes,
            mitigated.seconds,
            {},
            [],
            {},
            None,
            None,
            note=mitigated.note,
            skipped=mitigated.skipped,
        )
    rows = [_target_change(before, after, rs) for rs in targets]
    worst = max((abs(r["after"]["difference"]) for r in rows if r["after"]), default=None)
    table = fairness(mitigated.model)
    spds = [abs(g["spd"]) for g in table["groups"].values() if g["spd"] is not None]
    return MethodOutcome(
        name,
        stage,
        mitigated.changes,
        mitigated.seconds,
        quality(mitigated.model, evaluation, truth, setting.favorable, setting.seed),
        rows,
        table,
        worst,
        round(max(spds), 4) if spds else None,
        note=mitigated.note,
        extra=mitigated.extra,
    )


def _side(report: AuditReport | None, rule_set: RuleSet) -> dict[str, Any] | None:
    finding = report.finding(rule_set) if report is not None else None
    if finding is None:
        return None
    return {
        "difference": round(finding.difference, 6),
        "ci": [round(v, 6) for v in finding.ci],
        "significant": bool(finding.significant),
    }


def _target_change(
    before: AuditReport, after: AuditReport | None, rule_set: RuleSet
) -> dict[str, Any]:
    first, second = _side(before, rule_set), _side(after, rule_set)
    change = None
    if first and second:
        half = [(s["ci"][1] - s["ci"][0]) / 2 for s in (first, second)]
        width = math.hypot(*half)
        estimate = second["difference"] - first["difference"]
        change = {
            "estimate": round(estimate, 6),
            "ci": [round(estimate - width, 6), round(estimate + width, 6)],
        }
    return {"rule_set": before.label(rule_set), "before": first, "after": second, "change": change}
