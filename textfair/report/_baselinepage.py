"""The page's "Against the baseline" section: what `textfair audit --baseline OLD` found
changed between two versions of a model, read from report.json's ``baseline`` (as
`textfair.report.versions.VersionComparison.to_dict` wrote it), so the page is built from
report.json alone like the rest of it.

Every finding both versions read is a row: a rule set's difference or a causal score's flip
rate, in the baseline and now, and the change measured paired on the same seeds, with its
interval beside the one two independent audits would give (their widths' ratio says what
pairing bought).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textfair.report._numbers import difference
from textfair.report._page import escape, number, table

__all__ = ["baseline_section"]


def baseline_section(extra: Mapping[str, Any]) -> list[str]:
    """The section, when the report holds a comparison with a baseline; else nothing."""
    compared = extra.get("baseline")
    if not isinstance(compared, Mapping) or "verdict" not in compared:
        return []
    rows = [
        _row(change, "difference", str(change.get("rule_set", "")))
        for change in _listed(compared, "changes")
    ]
    rows += [
        _row(change, "flip rate", "{" + ", ".join(map(str, change.get("categories", []))) + "}")
        for change in _listed(compared, "causal")
    ]
    confidence = compared.get("confidence")
    level = f"{round(100 * confidence)}% " if isinstance(confidence, int | float) else ""
    parts = [
        '<h2 id="against-the-baseline">Against the baseline</h2>',
        f'<p class="verdict">{escape(compared["verdict"])}</p>',
    ]
    if rows:
        parts.append(
            table(
                "baseline",
                f"Every finding both versions read, compared on the same seeds ({level}"
                "intervals, corrected as the verdict says)",
                [
                    "section",
                    "finding",
                    "measure",
                    "baseline, points",
                    "now, points",
                    "change [interval], points",
                    "two audits' interval, points",
                    "paired / independent width",
                    "seeds",
                    "changed",
                ],
                rows,
            )
        )
    parts += [
        f'<p class="muted">Not compared: {escape(line)}</p>'
        for line in compared.get("not_compared", [])
    ]
    return parts


def _listed(compared: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    return [c for c in compared.get(key, []) if isinstance(c, Mapping)]


def _row(change: Mapping[str, Any], measure: str, finding: str) -> list[tuple[str, str | None]]:
    """One compared finding's cells: what it was, what it is, and the paired change."""
    ci, independent = change["ci"], change["independent_ci"]
    paired_width, independent_width = ci[1] - ci[0], independent[1] - independent[0]
    ratio = paired_width / independent_width if independent_width > 0 else float("nan")
    verdict = "worse" if change.get("worse") else "better" if change.get("better") else "no"
    return [
        (escape(change.get("section", "")), None),
        (escape(finding), None),
        (measure, None),
        number(change["old"], signed=measure == "difference"),
        number(change["new"], signed=measure == "difference"),
        (escape(difference(change["change"], ci)), f"{100 * change['change']:.4f}"),
        (escape(difference(change["change"], independent)), f"{100 * change['change']:.4f}"),
        ("–" if ratio != ratio else f"{ratio:.2f}", "" if ratio != ratio else f"{ratio:.4f}"),
        (str(change["n"]), str(change["n"])),
        (verdict, None),
    ]
