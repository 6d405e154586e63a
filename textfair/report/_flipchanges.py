r"""A causal score's change between two versions of a model, paired on the seeds both
sampled: what `textfair.report.versions` compares beside the rule sets.

A causal score (Themis's, of a category set $X$) keeps its seed rows
(`CausalScore.seeds`, `seed_flips`): $f_i \in \{0, 1\}$, whether some counterfactual of
$X$ changed seed $i$'s decision. Every category set reads the seeds in the run's one order,
so on the $m$ seeds both versions sampled (the shorter run's)

$$
\Delta_X = \frac{1}{m} \sum_{i=1}^{m} \left(f_i^{new} - f_i^{old}\right),
\qquad f_i^{new} - f_i^{old} \in \{-1, 0, 1\},
$$

the change of the flip rate, with `bounded_mean`'s interval on $[-1, 1]$ (its pseudo-seeds
at the range's ends: one seed that flips in one version only) and its p-value against no
change (`CausalChange`). A version changed on a few texts changes few $f_i$, so the paired
interval is narrower than two independent audits' (`CausalChange.independent_ci`, beside
it). The p-values are corrected with the audit's correction over the section's causal
scores, apart from its rule sets: the audit corrects its causal tests in a family of their
own (`themis`), and a handful of category sets pooled with hundreds of rule sets would need
a far larger change to count. A causal score got worse when its change is significant and
its flip rate rose ($\Delta_X > 0$), better when it fell. The flip rate counts every flip,
as Themis's score does: a version that reacts more to any edit, identity or not, flips more
too (the excess over a placebo edit is the audit's, not compared here).

A category set tested in one version only (the other pruned it, or ran no causal tests),
one without seed rows (a report written before they were kept), one no sampled seed could
be rewritten in, or one sampled on no common seed is listed, not compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from textfair.discovery.results import CausalScore
from textfair.stats import bounded_mean
from textfair.stats.estimate import BoundedMean

if TYPE_CHECKING:
    from textfair.report.model import AuditReport

__all__ = [
    "CausalChange",
    "PairedInterval",
    "causal_changes",
    "measured",
    "paired_causal_change",
]


class PairedInterval:
    """What a paired change (a rule set's or a causal score's) says of its interval beside
    the one two independent audits give: `width_ratio`."""

    ci: tuple[float, float]
    independent_ci: tuple[float, float]

    @property
    def width_ratio(self) -> float:
        """The paired interval's width over the independent one's."""
        paired, independent = (
            self.ci[1] - self.ci[0],
            self.independent_ci[1] - self.independent_ci[0],
        )
        return paired / independent if independent > 0 else math.nan


@dataclass(frozen=True)
class CausalChange(PairedInterval):
    r"""One causal score's change between two versions, on the seeds both sampled.

    `old` and `new`: each version's flip rate (the share of seeds some counterfactual of
    `categories` flips) on those `n` seeds; `change` = new - old, the mean of
    $f_i^{new} - f_i^{old} \in \{-1, 0, 1\}$, with its interval `ci` and p-value
    (corrected over the section's causal scores: `p_adjusted`, `significant`);
    `independent_ci`: the interval two independent audits of as many seeds would give."""

    section: str
    categories: tuple[str, ...]
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
        """The category set's flip rate, as the verdict names it: "flip rate of gender +
        race"."""
        return f"flip rate of {' + '.join(self.categories)}"

    @property
    def worse(self) -> bool:
        """Significantly changed, flipping more decisions."""
        return self.significant and self.change > 0

    @property
    def better(self) -> bool:
        """Significantly changed, flipping fewer decisions."""
        return self.significant and self.change < 0


def measured(before: np.ndarray, after: np.ndarray, interval: BoundedMean) -> dict[str, Any]:
    """A paired change's measured fields: each version's mean on the seeds compared, the
    change with its interval and p-value, and how many seeds."""
    return {
        "old": float(before.mean()),
        "new": float(after.mean()),
        "change": interval.estimate,
        "ci": (interval.low, interval.high),
        "p_value": interval.p_value,
        "n": len(before),
    }


def causal_changes(
    section: str, old: AuditReport, new: AuditReport, confidence: float
) -> tuple[list[CausalChange], list[str]]:
    """A section's causal scores compared, and one line per category set that is not: tested
    in one version only (pruned in the other, or no causal tests there), without seed rows
    (a baseline written before they were kept), with no seed rewritten, or sampled on no
    common seed."""
    if old.counterfactual is None or new.counterfactual is None:
        if old.counterfactual is None and new.counterfactual is None:
            return [], []
        where = "baseline" if old.counterfactual is not None else "new audit"
        return [], [f"{section}: the causal tests (run in the {where} only)"]
    before = {c.categories: c for c in old.counterfactual.causal}
    after = {c.categories: c for c in new.counterfactual.causal}
    pruned = {
        "baseline": set(old.counterfactual.pruned),
        "new audit": set(new.counterfactual.pruned),
    }
    changes, missing = [], []
    for categories in sorted(set(before) | set(after), key=lambda c: (len(c), c)):
        named = f"{section}: causal {' + '.join(categories)}"
        if categories not in after or categories not in before:
            where, other = (
                ("baseline", "new audit") if categories in before else ("new audit", "baseline")
            )
            why = f", pruned in the {other}" if categories in pruned[other] else ""
            missing.append(f"{named} (tested in the {where} only{why})")
            continue
        lacking = [
            w
            for w, c in (("baseline", before), ("new audit", after))
            if c[categories].seeds is None
        ]
        if lacking:
            missing.append(
                f"{named} (the {' and the '.join(lacking)} holds no seed rows: written by a "
                "textfair before they were kept)"
            )
            continue
        if not (before[categories].measured and after[categories].measured):
            missing.append(f"{named} (no seed sampled could be rewritten in it)")
            continue
        change = paired_causal_change(section, before[categories], after[categories], confidence)
        if change is None:
            missing.append(f"{named} (sampled on no common seed)")
        else:
            changes.append(change)
    return changes, missing


def paired_causal_change(
    section: str, old: CausalScore, new: CausalScore, confidence: float
) -> CausalChange | None:
    r"""The change of one causal score's flip rate on the seeds both versions sampled; None
    when they sampled none in common (or a score lacks its seed rows).

    Notes
    -----
    With $f_i \in \{0, 1\}$ each version's flip on seed $i$, over the $m$ common seeds
    (in the baseline's order: a prefix of both runs when the audits agree), the change is
    the mean of $f_i^{new} - f_i^{old} \in [-1, 1]$ with `bounded_mean`'s interval there
    (its pseudo-seeds at $\pm 1$: one seed that flips in one version only) and its p-value
    against 0. The independent interval is what two audits of the same $m$ seeds, each on
    its own, would give: each flip rate's `bounded_mean` interval $[l, u]$ on $[0, 1]$
    around its rate $r$, combined arm by arm as variances add (Newcombe's method, as
    `difference` combines two proportions):
    $\Delta \pm$ $\sqrt{(r^{new} - l^{new})^2 + (u^{old} - r^{old})^2}$ below and
    $\sqrt{(u^{new} - r^{new})^2 + (r^{old} - l^{old})^2}$ above. A flip rate near 0 has an
    interval cut at 0, so the two arms differ; adding symmetric half-widths, as for a rule
    set, would take the cut arm for the whole and make two audits that flip nothing look
    surer than they are (±3.2 points at 100 seeds against the paired ±3.8; arm by arm ±4.5).
    """
    if old.seeds is None or new.seeds is None or old.seed_flips is None or new.seed_flips is None:
        return None
    flips_new = dict(zip(new.seeds, new.seed_flips, strict=True))
    common = [
        (f, flips_new[i]) for i, f in zip(old.seeds, old.seed_flips, strict=True) if i in flips_new
    ]
    if not common:
        return None
    before, after = (np.asarray(column, dtype=np.float64) for column in zip(*common, strict=True))
    interval = bounded_mean(after - before, -1.0, 1.0, confidence)
    was, now = (bounded_mean(f, 0.0, 1.0, confidence) for f in (before, after))
    centre = now.estimate - was.estimate
    below = math.hypot(now.estimate - now.low, was.high - was.estimate)
    above = math.hypot(now.high - now.estimate, was.estimate - was.low)
    return CausalChange(
        section=section,
        categories=tuple(new.categories),
        **measured(before, after, interval),
        independent_ci=(centre - below, centre + above),
    )
