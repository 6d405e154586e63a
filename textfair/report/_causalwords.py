"""The causal tests in the verdict's words: what identity swaps add to a placebo edit's
flips, or, without placebo edits, the largest flip rate said to be unmeasured against any
edit. Apart from the rest of the verdict (`textfair.report._prose`), which calls it, to keep
each module to one job and a readable length."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textfair.core.counts import counted
from textfair.discovery.results import CausalScore, Excess
from textfair.report._numbers import difference, informative, percent

if TYPE_CHECKING:
    from textfair.report.model import AuditReport

__all__ = ["causal_verdict"]


def causal_verdict(report: AuditReport) -> str:
    """The causal tests in a sentence, on the excess over the placebo edit: the category
    sets whose identity swaps flip decisions significantly more often, or that none do
    (with the largest excess measured, and how many of the table's category sets say
    too little to tell). Without placebo edits, the largest flip rate alone, said to be
    unmeasured against any edit. Empty without causal tests."""
    causal = list(report.counterfactual.causal) if report.counterfactual else []
    tests = [c for c in causal if c.excess and c.excess.n]
    if not tests:
        return _flips_without_placebo(report, causal)

    def excess(test: CausalScore) -> Excess:
        assert test.excess is not None  # `tests` holds only those with one
        return test.excess

    def said(test: CausalScore) -> str:
        e = excess(test)
        return (
            f"{' + '.join(test.categories)}, {100 * e.identity_rate:.1f}% of swaps vs "
            f"{100 * e.placebo_rate:.1f}% of placebo edits flip the decision, "
            f"{difference(e.excess, e.ci)} points"
        )

    found = [c for c in tests if excess(c).significant]
    if found:
        # A set that holds a found set adds little to it: the smallest sets are named.
        smallest = [
            c for c in found if not any(set(o.categories) < set(c.categories) for o in found)
        ]
        smallest.sort(key=lambda c: -excess(c).ci[0])
        more = len(found) - len(smallest)
        return (
            "Causal: identity swaps flip decisions significantly more often than a "
            "placebo edit for "
            + "; ".join(said(c) for c in smallest)
            + (f" (and {more} larger {'set' if more == 1 else 'sets'} holding one)" if more else "")
            + "."
        )
    head = "Causal: no identity swap flips decisions significantly more often than a placebo edit"
    # An excess whose interval spans nearly everything (a few texts with both edits), or
    # none at all, says nothing: the largest is named among those that say something,
    # and the others are counted out of every category set the table shows.
    told = [c for c in tests if informative(excess(c).ci)]
    vague = [c for c in causal if c not in told]
    most = max((c.excess.n if c.excess else 0 for c in vague), default=0)
    seen = (
        f"{len(vague)} of {len(causal)} category sets rest{'s' if len(vague) == 1 else ''} "
        f"on too few {report.inputs} with both edits (at most {most}) for an informative "
        "interval"
    )
    if not told:
        return f"{head}; {seen}."
    largest = max(told, key=lambda c: excess(c).excess)
    return f"{head}; largest excess: {said(largest)}" + (f"; {seen}." if vague else ".")


def _flips_without_placebo(report: AuditReport, causal: Sequence[CausalScore]) -> str:
    """The causal sentence where no placebo edit was measured (table rows, lists whose
    edits have none): the largest flip rate still reaches the verdict, said to be
    unmeasured against what any edit does. Empty when no causal test had an input."""
    tested = [c for c in causal if c.n]
    if not tested:
        return ""
    largest = max(tested, key=lambda c: (c.ci[0], c.score))
    return (
        f"Causal (no placebo edit measured, so what identity adds to any edit is unknown): "
        f"the largest flip rate: {' + '.join(largest.categories)}, "
        f"{percent(largest.score)} [{percent(largest.ci[0])}, {percent(largest.ci[1])}] of "
        f"{counted(largest.n, report.inputs[:-1])} flip under an identity swap."
    )
