"""What would test a category an audit left untested, in words for the reading notes: the
--theta that would give it a rule set, why none can, and the other ways (sentences as texts,
templates)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from textfair.report._samples import SMALL_SAMPLE
from textfair.report._seedwords import reason_words

if TYPE_CHECKING:
    from textfair.report.model import AuditReport

__all__ = ["other_ways", "what_would_help"]


def other_ways(report: AuditReport) -> str:
    """What else would test a category a text corpus leaves untested: its texts read
    sentence by sentence, and the templates where they did not run."""
    if report.kind != "text":
        return ""
    ways = " Long texts: --unit sentence reads each sentence as a text."
    if report.templates is None and "templates" not in report.data:
        ways += " Templates test every category whatever the texts name: --templates auto."
    return ways


def what_would_help(report: AuditReport, category: str, alone: bool = True) -> str:
    """What would give `category` a rule set (`alone`: the sentence is about it; else
    about every category, this one holding the term of largest support): the --theta at
    which its term of largest support becomes one (that support, rounded down to two
    significant digits), or why no --theta can (no text that mentions it can be
    rewritten, and why)."""
    most = (report.data.get("most_seeds_per_term") or {}).get(category)
    rows = report.data.get("rows")
    if most is None or not rows:
        return "lower --theta, or audit more data that mentions it."
    if most == 0 and alone and not (report.data.get("seeds_mentioning") or {}).get(category):
        return f"no {report.inputs[:-1]} mentions it; audit data that does."
    if most == 0:
        left_out = (report.data.get("seeds_left_out") or {}).get(category) or {}
        reasons = ", ".join(
            f"{count} {reason_words(reason)}"
            for reason, count in left_out.items()
            if count and alone
        )
        return (
            f"lowering --theta cannot help: none of the {report.inputs} that "
            + ("mention it" if alone else "hold a term")
            + " can be rewritten to another term and still hang together"
            + (f" ({reasons})" if reasons else "")
            + "; audit more data that mentions "
            + ("it." if alone else "the terms.")
        )
    support = most / rows
    digits = max(1 - math.floor(math.log10(support)), 0)
    theta = math.floor(support * 10**digits) / 10**digits
    whose = "its terms" if alone else "the terms"
    if theta >= report.settings.theta:
        return (
            f"{whose} reach it in {most} {report.inputs}, none of which could be compared "
            "with another term."
        )
    few = f", on few {report.inputs}" if most < SMALL_SAMPLE else ""
    return (
        f"{whose} can each be written into at most {most} {report.inputs} "
        + ("(" if alone else f"({category}; ")
        + f"support {support:.3g}): --theta {theta:g} or below gives "
        + ("it" if alone else f"{category}")
        + f" a rule set{few}; or audit more data that mentions "
        + ("it." if alone else "the terms.")
    )
