"""Term pairs in bounded memory: every pair tested and corrected for, a bounded number kept.

A category of n terms has up to n(n - 1) term pairs, each seed that names one term swapped
to every other: 3,000 terms and 100 seeds make some 300,000 pairs of one or two seeds each.
Every pair is tested, and its p-value joins the family that the correction (Holm or BH)
adjusts over, exactly as if all were kept. But only these are kept in full (a `PairShift`
each, what the report lists and plots):

* every pair that may turn out significant: an excess above zero with a raw p-value at most
  1 - confidence (an adjusted p-value is never below the raw one, so no other pair can be);
* the `limit` first of the category in the report's order (most harmful shift first), the
  pairs whose interval says something (`informative`) before those that do not.

A category with at most `limit` pairs keeps them all, so its report is what it always was.
For the rest, `PairsLeftOut` counts what was tested but not kept, and how many of all the
pairs tested had an interval too wide to say anything. Memory then grows with the pairs
kept, not with the square of the category's size.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from textfair.stats import adjust, informative

if TYPE_CHECKING:
    from textfair.discovery.results import CausalScore, GroupScore, PairShift

__all__ = ["PAIRS_KEPT", "PairKeeper", "PairsLeftOut", "pair_order", "with_adjusted_excess"]

#: A result with an excess whose p-value a family adjusts (`with_adjusted_excess`).
Adjustable = TypeVar("Adjustable", "CausalScore", "GroupScore", "PairShift")

# Pairs kept in full per category. The built-in lists' largest category keeps 623 on the
# bundled comments (holistic's religion): none of their reports loses a pair.
PAIRS_KEPT = 1000


@dataclass(frozen=True)
class PairsLeftOut:
    """A category whose term pairs were not all kept: how many were tested, how many kept,
    and how many of those tested had an uninformative interval (seen on a seed or two)."""

    category: str
    tested: int
    kept: int
    uninformative: int


def pair_shift(pair: PairShift) -> tuple[float, tuple[float, float]]:
    """A term pair's shift against its placebo edit and its interval (without a placebo,
    the raw shift)."""
    if pair.excess_shift is None or pair.excess_shift_ci is None:
        return pair.mean_shift, pair.shift_ci
    return pair.excess_shift, pair.excess_shift_ci


def pair_order(pair: PairShift) -> tuple:
    """Most harmful first: the shift against the placebo edit where there is one. Shifts
    equal to 1e-6 are ties, broken by name: a model's float32 answers move in the 7th digit
    with what they are batched with, and two swaps the model cannot tell apart (two
    out-of-vocabulary terms) must not trade places from one run to the next."""
    return (round(pair_shift(pair)[0], 6), pair.category, pair.source, pair.target)


def with_adjusted_excess(result: Adjustable, p_adjusted: float, significant: bool) -> Adjustable:
    """`result` (a causal score, group score or term pair) with its excess's adjusted
    p-value; significant only where the identity edits flip more often than the placebo."""
    excess = result.excess
    assert excess is not None, "only a result with an excess is adjusted"
    return replace(
        result,
        excess=replace(
            excess,
            p_adjusted=float(p_adjusted),
            significant=bool(significant) and excess.excess > 0,
        ),
    )


class _Last:
    """A heap entry's key, reversed: `heapq` keeps its smallest entry on top, so the kept
    pair that comes last in the report's order is the first to give way."""

    __slots__ = ("key",)

    def __init__(self, key: tuple) -> None:
        self.key = key

    def __lt__(self, other: _Last) -> bool:
        return self.key > other.key


class PairKeeper:
    """Takes each category's term pairs as they are tested; `result` corrects every p-value
    over the family and returns the pairs kept, in the order they were tested."""

    def __init__(self, confidence: float, limit: int = PAIRS_KEPT) -> None:
        self.alpha = 1.0 - confidence
        self.limit = limit
        self.p_values: list[float] = []  # every tested pair with an excess, in test order
        self._kept: dict[int, tuple[PairShift, int | None]] = {}  # test order -> pair, p index
        self._left_out: list[PairsLeftOut] = []
        self._tested = 0

    def add(self, category: str, pairs: Iterable[PairShift]) -> None:
        """Test and keep one category's pairs (see the module's docstring)."""
        heap: list[tuple[_Last, int]] = []
        candidates: set[int] = set()
        entries: dict[int, tuple[PairShift, int | None]] = {}
        tested = uninformative = 0
        for tested, pair in enumerate(pairs, start=1):
            order = self._tested + tested  # where the pair stands among all those tested
            p_index = None
            if pair.excess is not None:
                p_index = len(self.p_values)
                self.p_values.append(pair.excess.p_value)
            said = informative(pair_shift(pair)[1])
            uninformative += not said
            keep = False
            if (
                pair.excess is not None
                and pair.excess.excess > 0
                and pair.excess.p_value <= self.alpha
            ):
                candidates.add(order)
                keep = True
            entry = (_Last((not said, *pair_order(pair))), order)
            if len(heap) < self.limit:
                heapq.heappush(heap, entry)
                keep = True
            elif entry[0].key < heap[0][0].key:
                _, dropped = heapq.heapreplace(heap, entry)
                keep = True
                if dropped not in candidates:
                    del entries[dropped]
            if keep:
                entries[order] = (pair, p_index)
        self._tested += tested
        self._kept.update(entries)
        if len(entries) < tested:
            self._left_out.append(PairsLeftOut(category, tested, len(entries), uninformative))

    def result(self, correction: str) -> tuple[list[PairShift], list[PairsLeftOut]]:
        """The kept pairs, in the order they were tested, with their excess p-values adjusted
        over every tested pair; and the categories whose pairs were not all kept."""
        adjusted = adjust(self.p_values, correction, self.alpha) if self.p_values else None
        kept = []
        for order in sorted(self._kept):
            pair, p_index = self._kept[order]
            if adjusted is not None and p_index is not None:
                pair = with_adjusted_excess(
                    pair, adjusted.p_adjusted[p_index], adjusted.significant[p_index]
                )
            kept.append(pair)
        return kept, list(self._left_out)
