"""The cells that say how much a finding rests on doubtful text: its variants' mean
acceptability and its difference on its high-scoring seeds (report.md, the terminal and the
page share them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textfair.report._numbers import difference

if TYPE_CHECKING:
    from textfair.discovery.acceptable import Strict
    from textfair.report.model import AuditReport
    from textfair.report.parts import Finding

__all__ = ["scored", "strict_cells", "strict_columns", "strict_result"]


def scored(report: AuditReport) -> bool:
    """Whether the report's findings carry acceptability scores (version 5, text)."""
    return any(f.strict is not None for f in report.findings)


def strict_columns(report: AuditReport) -> list[str]:
    """The two columns `strict_cells` fills, at the report's strict level."""
    level = report.strict_level
    return [
        "acceptability (mean)",
        f"on {report.unit} scoring ≥ {level:g} [interval] (points)"
        if level is not None
        else "on high-scoring seeds",
    ]


def strict_cells(report: AuditReport, f: Finding) -> tuple[str, str]:
    """A finding's mean acceptability ("0.93") and its difference on its high-scoring seeds
    with its interval and their number ("+3.1 [-1.0, +7.0], 64"), marked "?" when it does
    not hold there (`AuditReport.holds_strictly`); dashes without scores."""
    return strict_result(report, f.acceptability, f.strict, f.ci)


def strict_result(
    report: AuditReport,
    acceptability: float | None,
    strict: Strict | None,
    ci: tuple[float, float],
) -> tuple[str, str]:
    """Two cells: the mean acceptability, and the strict estimate with its interval and
    seeds, marked "?" where the result (interval `ci`) does not hold on them."""
    if strict is None:
        return "–", "–"
    mark = " ?" if report.holds_on(ci, strict) is False else ""
    accepted = "–" if acceptability is None else f"{acceptability:.2f}"
    said = (
        f"{difference(strict.estimate, strict.ci)}, {strict.n}" if strict.n else f"no {report.unit}"
    )
    return accepted, said + mark
