"""How every surface of a report writes a difference: signed points, with its interval.

The terminal, report.md, the page, the verdict (`AuditReport.summary`) and the gate all write
a difference through `difference` (``-7.0 [-15.9, +3.0]``), so the estimate and the ends of
its interval keep their signs everywhere and the printed interval holds the printed estimate
(rounding to one decimal is monotone). Words say the direction ("less often"); the numbers
never drop a sign.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from textfair.stats import informative

__all__ = [
    "acceptability_note",
    "difference",
    "informative",
    "interval",
    "percent",
    "points",
    "signed",
]


def percent(value: float | None) -> str:
    """A rate as a percentage: ``50.0%``; ``-`` when there is none (NaN, None)."""
    return "-" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


def signed(value: float | None) -> str:
    """A fraction as signed percentage points, always with its sign: ``+0.0``, ``-2.1``;
    ``-`` when there is none (NaN, None)."""
    return "-" if value is None or math.isnan(value) else f"{100 * value:+.1f}"


def points(value: float | None) -> str:
    """A signed difference in percentage points: ``+10.4``, ``-2.1``; ``0`` for exactly
    zero; ``-`` when there is none (NaN, None)."""
    return "0" if value == 0 else signed(value)


def interval(ci: Sequence[float]) -> str:
    """An interval of a difference in signed points: ``[-15.9, +3.0]``."""
    return f"[{signed(ci[0])}, {signed(ci[1])}]"


def difference(value: float | None, ci: Sequence[float]) -> str:
    r"""A signed difference with its interval, in points: ``-7.0 [-15.9, +3.0]``.

    The one form every surface writes a difference in. Both ends keep their signs, so an
    interval that crosses 0 reads as one; rounding to a tenth of a point is monotone, so a
    value $v$ with $l \le v \le h$ is printed inside its printed interval.

    Parameters
    ----------
    value
        The difference, a fraction in [-1, 1] (``phi_r - phi_not_r``, an excess).
    ci
        Its interval (low, high), fractions.

    Returns
    -------
    str
        ``"-7.0 [-15.9, +3.0]"``.
    """
    return f"{points(value)} {interval(ci)}"


def acceptability_note(score: object) -> str:
    """ " (acceptability 0.912)" after an example's text; nothing for an old report's
    example or a text without a score."""
    if not isinstance(score, int | float) or isinstance(score, bool):
        return ""
    return f" (acceptability {score:.3f})"
