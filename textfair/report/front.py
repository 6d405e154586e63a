"""The trade-off of a mitigation comparison: each method as a point (worst target against
held-out accuracy), the Pareto front of those points, and the method the verdict leads with.

Pure functions over plain values, so the comparison (`textfair.mitigate.compare`) and its
renderers (`textfair.report.comparison`, which re-chooses the headline of a comparison saved
before it recorded one) share one definition without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Point", "headline", "pareto_front"]


@dataclass(frozen=True)
class Point:
    """One method on the trade-off: its worst target (|difference|), held-out accuracy, and
    whether the accuracy it lost is over the budget."""

    method: str
    worst: float
    accuracy: float
    over_budget: bool = False


def pareto_front(points: Sequence[Point]) -> list[str]:
    """The methods no other beats on both axes (a worst target as small and an accuracy as
    high, one of them strictly), in the order given."""
    return [
        p.method
        for p in points
        if not any(
            q.worst <= p.worst
            and q.accuracy >= p.accuracy
            and (q.worst < p.worst or q.accuracy > p.accuracy)
            for q in points
        )
    ]


def headline(points: Sequence[Point], front: Sequence[str]) -> str | None:
    """The method the verdict leads with: of the Pareto front's methods (the audited model,
    "none", aside), the one with the smallest worst target (ties: the more accurate), among
    those within the accuracy budget when any is; None when no method is on the front.

    A dominated method is never the headline: another method is at least as fair and at
    least as accurate, and strictly better on one."""
    candidates = [p for p in points if p.method in front and p.method != "none"]
    within = [p for p in candidates if not p.over_budget]
    pool = within or candidates
    if not pool:
        return None
    return min(pool, key=lambda p: (p.worst, -p.accuracy)).method
