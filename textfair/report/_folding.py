"""Fold near-duplicate rule sets of a table audit for display.

A numeric feature is split into equal-width bins, and a rule is a run of adjacent bins, so
the Adult audit tests {age ∈ [17, 82.7)}, {age ∈ [17, 75.4)} and {age ∈ [17, 68.1)}: three
rule sets for one finding, which crowd the top of every view. For display, a rule set is
folded into a more credible one that is the same on every feature but one, where one run of
bins holds the other. report.json keeps every rule set; the views say how many were folded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textfair.core.rules import Rule
    from textfair.report.parts import Finding

# "[17, 82.7)", "[60.8, 90]": a run of bins as RuleSet.label writes it.
_RUN = re.compile(r"^[\[(]\s*([-+0-9.eE]+)\s*,\s*([-+0-9.eE]+)\s*[\])]$")


def _run(value: str) -> tuple[float, float] | None:
    match = _RUN.match(str(value))
    return None if match is None else (float(match[1]), float(match[2]))


def nested(kept: Iterable[Rule], other: Iterable[Rule]) -> bool:
    """Whether rule set `other` differs from `kept` only by a run of bins of one numeric
    feature that starts or ends where `kept`'s does and holds, or is held by, it: [17, 75.4)
    and [17, 82.7), not [17, 82.7) and [38.9, 53.5), which is another group."""
    first = {rule.category: rule.value for rule in kept}
    second = {rule.category: rule.value for rule in other}
    if first.keys() != second.keys():
        return False
    differing = [name for name in first if first[name] != second[name]]
    if len(differing) != 1:
        return False
    a, b = _run(first[differing[0]]), _run(second[differing[0]])
    if a is None or b is None:
        return False
    shared_end = a[0] == b[0] or a[1] == b[1]
    return shared_end and ((a[0] <= b[0] and b[1] <= a[1]) or (b[0] <= a[0] and a[1] <= b[1]))


def fold_nested(findings: Sequence[Finding], kind: str) -> list[tuple[Finding, int]]:
    """The findings to show, in their order, each with how many later ones were folded into
    it (see the module docstring). A finding is folded only into one whose difference has
    the same sign, and a significant one never into one that is not. Text rule sets have no
    bins: they are returned as they are."""
    if kind != "rows":
        return [(f, 0) for f in findings]
    kept: dict[frozenset, list[list]] = {}  # features -> [finding, folded] in order
    order: list[list] = []
    for finding in findings:
        features = frozenset(rule.category for rule in finding.rule_set)
        same = kept.setdefault(features, [])
        into = next(
            (
                entry
                for entry in same
                if (entry[0].significant or not finding.significant)
                and (entry[0].difference > 0) == (finding.difference > 0)
                and nested(entry[0].rule_set, finding.rule_set)
            ),
            None,
        )
        if into is not None:
            into[1] += 1
        else:
            entry = [finding, 0]
            same.append(entry)
            order.append(entry)
    return [(finding, folded) for finding, folded in order]
