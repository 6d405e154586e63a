r"""Two versions of a model compared finding by finding, paired on the same seeds.

Two audits of the same corpus (the same reading: texts, term list, reading settings and
textfair version) with the same seed and settings write every seed's variants alike and
read the seeds in the same order, so a rule set $R$'s rows in the old and the new audit
are the same seeds, one version's a prefix of the other's (each stops when its own
interval is narrow enough). On the $m$ seeds both read, with $d_i$ each version's seed-level
difference $y_i(R) - \overline{y_i(\neg R)} \in [-1, 1]$ (`GroupFinding.differences`), the
change is

$$
\Delta = \frac{1}{m} \sum_{i=1}^{m} \left(d_i^{new} - d_i^{old}\right),
$$

with `bounded_mean`'s interval on $[-2, 2]$ (its pseudo-seeds at $\pm 1$: one decision
flipped, the unseen change its floor stands for) and its p-value against no change, corrected
over a section's rule sets with the audit's correction. A model changed on a few texts
changes few $d_i$, so the paired interval is far narrower than the difference of two
independent audits' estimates, whose half-width is $\sqrt{h_{old}^2 + h_{new}^2}$
(`FindingChange.independent_ci`, given beside it).

A finding got worse when its change is significant and its difference on the compared seeds
moved away from zero ($|\bar d^{new}| > |\bar d^{old}|$), better when it moved toward zero.
A rule set tested in one version only is listed, not compared; a baseline audited on other
data, lists or settings is refused in one line (`check_baseline`).

A causal score (Themis's flip rate of a category set) is compared on the seeds both versions
sampled, its p-values corrected over the section's causal scores apart from its rule sets:
see `textfair.report._flipchanges`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from textfair.core.counts import counted
from textfair.core.rules import RuleSet
from textfair.discovery.findings import GroupFinding
from textfair.errors import TextfairError
from textfair.report._flipchanges import (
    CausalChange,
    PairedInterval,
    causal_changes,
    measured,
    paired_causal_change,
)
from textfair.report.model import AuditReport
from textfair.stats import bounded_mean
from textfair.stats.testing import adjust

__all__ = [
    "CausalChange",
    "FindingChange",
    "VersionComparison",
    "check_baseline",
    "compare",
    "paired_causal_change",
]

#: The settings that decide which seeds a rule set reads and how each is rewritten: two
#: audits compared seed by seed must agree on them (the corpus's reading aside).
ROW_SETTINGS = ("seed", "mode", "max_assignments", "categories", "term_list", "templates")


@dataclass(frozen=True)
class FindingChange(PairedInterval):
    """One rule set's change between two versions, on the seeds both read.

    `old` and `new`: each version's mean difference on those `n` seeds; `change` = new -
    old with its interval `ci` and p-value (corrected: `p_adjusted`, `significant`);
    `independent_ci`: the interval two independent audits would give the change (from each
    version's own interval, on all its seeds)."""

    section: str
    rule_set: RuleSet
    old: float
    new: float
    change: float
    ci: tuple[float, float]
    p_value: float
    n: int
    independent_ci: tuple[float, float]
    p_adjusted: float = math.nan
    significant: bool = False

    def label(self) -> str:
        """The rule set, as the verdict names it: ``{"gay"}``."""
        return self.rule_set.label()

    @property
    def worse(self) -> bool:
        """Significantly changed, away from no difference."""
        return self.significant and abs(self.new) > abs(self.old)

    @property
    def better(self) -> bool:
        """Significantly changed, toward no difference."""
        return self.significant and abs(self.new) < abs(self.old)


#: A rule set's change or a causal score's: what the verdict and the gate count alike.
Change = FindingChange | CausalChange
C = TypeVar("C", FindingChange, CausalChange)


@dataclass(frozen=True)
class VersionComparison:
    """Every finding of two audits compared: `changes` (the rule sets', paired), `causal`
    (the causal scores', paired), `not_compared` (one line per rule set or causal score
    tested in one version only, or read on other seeds)."""

    old_model: str
    new_model: str
    changes: tuple[FindingChange, ...]
    not_compared: tuple[str, ...]
    confidence: float
    correction: str
    causal: tuple[CausalChange, ...] = ()

    def worse(self, points: float = 0.0) -> tuple[Change, ...]:
        """The changes that got significantly worse by more than `points` (in points:
        100 × |change|): the rule sets', then the causal scores' (the smallest sets only:
        `_smallest`)."""
        causal = _smallest([c for c in self.causal if c.worse and 100 * abs(c.change) > points])
        rule_sets = [c for c in self.changes if c.worse and 100 * abs(c.change) > points]
        return (*rule_sets, *causal)

    def better(self) -> tuple[Change, ...]:
        """The changes that got significantly better: the rule sets', then the causal
        scores' (the smallest sets only)."""
        causal = _smallest([c for c in self.causal if c.better])
        return (*[c for c in self.changes if c.better], *causal)

    def verdict(self) -> str:
        """What changed from the old version to the new, in one sentence."""
        compared = f"{len(self.changes)} rule sets"
        if self.causal:
            compared += f" and {counted(len(self.causal), 'causal score')}"
        head = (
            f"{self.new_model or 'the new model'} against {self.old_model or 'the baseline'}: "
            f"{compared} compared on the same seeds"
        )
        worse, better = self.worse(), self.better()
        parts = [f"{len(worse)} got worse ({_listed(worse)})" if worse else "none got worse"]
        parts.append(f"{len(better)} got better ({_listed(better)})" if better else "none better")
        tail = f"; {len(self.not_compared)} not compared" if self.not_compared else ""
        return f"{head}: {', '.join(parts)} ({self.correction}){tail}."

    def lines(self) -> list[str]:
        """The comparison as text: the verdict, each significant change (rule sets, then
        causal scores), what was not compared."""
        said = [f"Against the baseline: {self.verdict()}"]
        for change in self.changes:
            if change.significant:
                said.append(
                    f"  {change.section}: {change.label()} {_points(change.old)} -> "
                    f"{_points(change.new)} points, change {_points(change.change)} "
                    f"[{_points(change.ci[0])}, {_points(change.ci[1])}] on {change.n} seeds"
                )
        for causal in self.causal:
            if causal.significant:
                said.append(
                    f"  {causal.section}: {causal.label()} {_percent(causal.old)} -> "
                    f"{_percent(causal.new)}, change {_points(causal.change)} "
                    f"[{_points(causal.ci[0])}, {_points(causal.ci[1])}] points on "
                    f"{causal.n} seeds"
                )
        said += [f"  not compared: {line}" for line in self.not_compared]
        return said

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        """What Jupyter shows: the page's *Against the baseline* section."""
        from textfair.report._baselinepage import baseline_section

        return "\n".join(baseline_section({"baseline": self.to_dict()}))

    def to_dict(self) -> dict[str, Any]:
        """The comparison as report.json's ``baseline`` holds it."""
        return {
            "old_model": self.old_model,
            "new_model": self.new_model,
            "confidence": self.confidence,
            "correction": self.correction,
            "verdict": self.verdict(),
            "changes": [
                {
                    **asdict(c),
                    "rule_set": c.rule_set.label(),
                    "ci": list(c.ci),
                    "independent_ci": list(c.independent_ci),
                    "worse": c.worse,
                    "better": c.better,
                }
                for c in self.changes
            ],
            "causal": [
                {
                    **asdict(c),
                    "categories": list(c.categories),
                    "ci": list(c.ci),
                    "independent_ci": list(c.independent_ci),
                    "worse": c.worse,
                    "better": c.better,
                }
                for c in self.causal
            ],
            "not_compared": list(self.not_compared),
            "lines": self.lines(),
        }


def _points(value: float) -> str:
    return f"{100 * value:+.1f}"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _smallest(changes: Sequence[CausalChange]) -> tuple[CausalChange, ...]:
    """The causal changes whose categories hold no other's of the same section: a flip rate
    over {gender, religion} moves with religion's, so one regression is counted once, at
    its smallest set (as the audit's own causal verdict names only the smallest sets)."""
    return tuple(
        c
        for c in changes
        if not any(
            o.section == c.section and set(o.categories) < set(c.categories) for o in changes
        )
    )


def _listed(changes: Sequence[Change]) -> str:
    shown = ", ".join(
        f"{c.label()}{' on templates' if c.section == 'templates' else ''} {_points(c.change)}"
        for c in changes[:3]
    )
    return shown + (f" and {len(changes) - 3} more" if len(changes) > 3 else "")


def check_baseline(old: AuditReport, new_data: dict[str, Any], new_config: dict[str, Any]) -> None:
    """Refuse, in one line, a baseline that cannot be compared seed by seed with an audit of
    `new_data` and `new_config` (a report's ``data`` and ``config``): another kind of audit,
    paper mode, a report without seed-level rows, another corpus, another reading (term
    list, reading settings, textfair's reader), or other settings that choose the rows."""
    fix = "audit the old model again on this corpus with these settings"
    if old.kind != "text" or new_data.get("texts_sha256") is None:
        raise TextfairError("--baseline: versions are compared for text audits only")
    if old.config.get("mode", "paired") != "paired" or new_config.get("mode") != "paired":
        raise TextfairError(f"--baseline: versions are compared in paired mode only; {fix}")
    if old.findings and not any(f.seeds for f in old.findings):
        raise TextfairError(
            "--baseline: the baseline report holds no seed-level rows (written by a textfair "
            f"before they were recorded); {fix} with this textfair"
        )
    if old.data.get("texts_sha256") != new_data.get("texts_sha256"):
        rows = f"{old.data.get('rows', '?')} texts against {new_data.get('rows', '?')}"
        raise TextfairError(f"--baseline was audited on other data ({rows}); {fix}")
    for name in ROW_SETTINGS:
        if old.config.get(name) != new_config.get(name) and name in new_config:
            raise TextfairError(
                f"--baseline was audited with {name} {old.config.get(name)!r}, this audit with "
                f"{new_config.get(name)!r}; {fix}"
            )
    if old.data.get("reading_key") != new_data.get("reading_key"):
        raise TextfairError(
            "--baseline was audited on another reading (another term list content, reading "
            f"settings or textfair version); {fix}"
        )


def compare(old: AuditReport | str | Path, new: AuditReport | str | Path) -> VersionComparison:
    r"""Compare two versions of a model audited on the same corpus with the same settings.

    Parameters
    ----------
    old
        The baseline: its `AuditReport`, or the path of its report.json (or of the report's
        directory).
    new
        The new version's report, likewise.

    Returns
    -------
    VersionComparison
        Every finding of either version: its change, paired on the seeds both read, with its
        interval and the audit's correction (both sections: texts and templates), the rule
        sets' (``changes``) and the causal scores' flip rates (``causal``); what got worse
        and better (``verdict()``, ``worse(points)``).

    Raises
    ------
    TextfairError
        One line, when the baseline cannot be compared seed by seed: another corpus,
        another reading (term list, reading settings, textfair version), other settings that
        choose the rows, paper mode, or a report written before seed-level rows.

    Notes
    -----
    On the $m$ seeds both audits read, a rule set's change is the mean of
    $d_i^{new} - d_i^{old} \in [-2, 2]$, with `bounded_mean`'s interval, corrected over the
    section's rule sets; a causal score's, on the seeds both sampled, the mean of
    $f_i^{new} - f_i^{old} \in [-1, 1]$ (whether seed $i$'s decision flipped), corrected
    over the section's causal scores (``causal``); see the module.

    Examples
    --------
    >>> comparison = textfair.compare("v1/report.json", "v2/report.json")  # doctest: +SKIP
    >>> print(comparison.verdict())  # doctest: +SKIP
    """
    old, new = _report(old), _report(new)
    check_baseline(old, new.data, new.config)
    sections = [("texts", old, new)]
    not_compared: list[str] = []
    if old.templates is not None and new.templates is not None:
        sections.append(("templates", old.templates, new.templates))
    elif old.templates is not None or new.templates is not None:
        only = "baseline" if old.templates is not None else "new audit"
        not_compared.append(f"the templates section (in the {only} only)")
    changes: list[FindingChange] = []
    causal: list[CausalChange] = []
    confidence = float(new.config.get("confidence", 0.95))
    correction = str(new.config.get("correction", "holm"))
    for name, before, after in sections:
        found, missing = _section_changes(name, before, after, confidence)
        changes += _corrected(found, correction, confidence)
        not_compared += missing
        # The causal scores: a family of their own, as the audit corrects them.
        flips, missing = causal_changes(name, before, after, confidence)
        causal += _corrected(flips, correction, confidence)
        not_compared += missing
    return VersionComparison(
        old.model.id,
        new.model.id,
        tuple(changes),
        tuple(not_compared),
        confidence,
        correction,
        tuple(causal),
    )


def _report(report: AuditReport | str | Path) -> AuditReport:
    if isinstance(report, AuditReport):
        return report
    path = Path(report)
    return AuditReport.read(path / "report.json" if path.is_dir() else path)


def _section_changes(
    section: str, old: AuditReport, new: AuditReport, confidence: float
) -> tuple[list[FindingChange], list[str]]:
    before = {RuleSet(f.rule_set): f for f in old.findings}
    after = {RuleSet(f.rule_set): f for f in new.findings}
    changes, missing = [], []
    for rule_set in sorted(set(before) | set(after)):
        if rule_set not in after or rule_set not in before:
            where = "baseline" if rule_set in before else "new audit"
            missing.append(f"{section}: {rule_set.label()} (tested in the {where} only)")
            continue
        change = paired_change(section, before[rule_set], after[rule_set], confidence)
        if change is None:
            missing.append(f"{section}: {rule_set.label()} (read on other seeds)")
        else:
            changes.append(change)
    return changes, missing


def paired_change(
    section: str, old: GroupFinding, new: GroupFinding, confidence: float
) -> FindingChange | None:
    """The change of one finding on the seeds both versions read (the shorter run's, which
    the longer's begin with); None when they do not (another corpus or reading)."""
    m = min(len(old.seeds), len(new.seeds))
    if m == 0 or old.seeds[:m] != new.seeds[:m]:
        return None
    before = np.asarray(old.differences[:m])
    after = np.asarray(new.differences[:m])
    # Pseudo-seeds at ±1: one flipped decision (see `bounded_mean`).
    interval = bounded_mean(after - before, -2.0, 2.0, confidence, pseudo=(-1.0, 1.0))
    # Two independent audits of the same number of seeds: each version's own interval on
    # them, the half-widths adding as variances do.
    own = [bounded_mean(d, confidence=confidence) for d in (before, after)]
    half = math.hypot(*(i.half_width for i in own))
    centre = own[1].estimate - own[0].estimate
    return FindingChange(
        section=section,
        rule_set=RuleSet(new.rule_set),
        **measured(before, after, interval),
        independent_ci=(centre - half, centre + half),
    )


def _corrected(changes: list[C], method: str, confidence: float) -> list[C]:
    """A family of a section's changes (its rule sets', or its causal scores') with p-values
    corrected over them (the audit's correction, at the audit's level)."""
    if not changes:
        return []
    adjusted = adjust([c.p_value for c in changes], method, alpha=1 - confidence)
    return [
        replace(c, p_adjusted=float(p), significant=bool(s))
        for c, p, s in zip(changes, adjusted.p_adjusted, adjusted.significant, strict=True)
    ]
