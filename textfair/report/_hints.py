"""What would test a category an audit left untested, in words for the reading notes: the
--theta that would give it a rule set, why none can, and the other ways (sentences as texts,
templates)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from textfair.core.rules import RuleSet
from textfair.report._samples import SMALL_SAMPLE
from textfair.report._seedwords import agree, reason_words

if TYPE_CHECKING:
    from textfair.report.model import AuditReport

__all__ = ["no_rule_set", "other_ways", "untested_reasons", "what_would_help"]


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
            f"{count} {agree(count, reason_words(reason))}"
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


def no_rule_set(report: AuditReport) -> str:
    """Why a section scored no rule set at all, in words (the reading note under its empty
    table and the verdict's reason after "0 rule sets"): the support no term reached and
    what would help; empty when it scored one or did not look for any."""
    if report.findings or not report.settings.group:
        return ""
    if report.data.get("nothing_tested"):
        return str(report.data["nothing_tested"])
    taking_part = report.data.get("mentioning_rows")
    held = f" ({taking_part} {report.inputs} can be rewritten)" if taking_part is not None else ""
    most = report.data.get("most_seeds_per_term") or {}
    return (
        f"No rule set reached the support --theta {report.settings.theta:g}{held}: "
        + (
            what_would_help(report, max(most, key=most.__getitem__), alone=False)
            if most
            else "lower --theta or audit more data in which the terms occur."
        )
        + other_ways(report)
    )


def untested_reasons(report: AuditReport) -> dict[str, str]:
    """Per audited category that no rule set of this section tested, why, in words:
    "race": "No rule set for race (64 of 1,492 texts mention it): none of its terms
    reaches the support --theta 0.05 ...". What the reading notes print, the verdict's
    untested categories and `findings_frame().attrs["untested"]` hold."""
    if not report.settings.group:
        return {}
    if not report.findings:
        return dict.fromkeys(report.config.get("categories") or [], no_rule_set(report))
    # With rule sets, the categories the corpus was read for (a table's columns are not).
    mentioning = report.data.get("seeds_mentioning") or {}
    covered = {rule.category for f in report.findings for rule in RuleSet(f.rule_set)}
    missing = [c for c in mentioning if c not in covered]
    rows = report.data.get("rows")
    # "1,492", as the first line of every surface writes the rows (issue 57: "of 1492").
    shown = f"{rows:,}" if isinstance(rows, int) else "?"
    return {
        c: (
            f"No rule set for {c} ({mentioning.get(c, 0):,} of {shown} {report.inputs} "
            f"mention it): none of its terms reaches the support --theta {report.settings.theta:g} "
            f"(theta= in Python); {what_would_help(report, c)}{other_ways(report)}"
        )
        for c in missing
    }
