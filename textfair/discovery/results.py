"""What Themis reports (`textfair.discovery.themis`): a category set's causal score, a
category's group score, a term pair's shift, each swap that flipped a decision, and beside
each of them, where the domain has placebo edits, the identity edits' flip rate against the
placebo edit's (`Excess`).

Apart from the algorithms that compute them (`causal`, `group_score`, `term_pairs`), which
each build one of them: the report reads these types and nothing of the algorithms.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

from textfair.discovery.acceptable import Strict
from textfair.discovery.keptpairs import PairsLeftOut
from textfair.stats import bounded_mean

__all__ = [
    "CausalScore",
    "Excess",
    "FlippedPair",
    "GroupScore",
    "PairShift",
    "ThemisResult",
    "paired_excess",
]


@dataclass(frozen=True)
class Excess:
    """The identity edits' flip rate beside a placebo edit's on the same seeds.

    Per seed i: e_i, the share of its identity edits that change the decision, and q_i,
    whether its placebo edit does (`Domain.placebo`). The excess is the paired mean of
    d_i = e_i - q_i over the n seeds that have both, with `bounded_mean`'s interval on
    [-1, 1] at `confidence` (simultaneous over the tests of its family, Bonferroni) and a
    two-sided p-value of zero excess, adjusted over the family (Holm or BH): what a model
    that reacts to any edit alike would not show.
    """

    identity_rate: float
    placebo_rate: float
    excess: float
    ci: tuple[float, float]
    p_value: float
    n: int
    confidence: float
    p_adjusted: float = 1.0
    significant: bool = False


@dataclass(frozen=True)
class CausalScore:
    """Fraction of seeds whose label some counterfactual over `categories` changes, and the
    per-edit flip rate against a placebo edit's (`excess`; None where the domain has no
    placebo edit, as for table rows)."""

    categories: tuple[str, ...]
    score: float
    ci: tuple[float, float]
    flips: int
    n: int
    excess: Excess | None = None
    edited: int | None = None
    """Of the `n` seeds sampled, those with at least one real edit of `categories`: 0 means
    no seed could be rewritten there, so `score` (0) measures nothing. None in a report
    written before it was kept."""
    seeds: tuple[int, ...] | None = field(default=None, repr=False)
    """The `n` seeds sampled, in the run's order (a seed's index in the domain, as a
    paired `GroupFinding`'s `seeds`), each a row of `seed_flips`. None for table rows and in
    a report written before they were kept."""
    seed_flips: tuple[int, ...] | None = field(default=None, repr=False)
    """Per seed of `seeds`: 1 when some counterfactual of `categories` changed its
    decision, else 0 (`flips` is their sum): what two versions of a model audited on the
    same corpus and seed are compared on, seed by seed (`textfair.report.versions`)."""

    @property
    def measured(self) -> bool:
        """Whether any sampled seed was rewritten: a score over seeds none of which changed
        is no test (issue 57: "religion 0.0% [0.0%, 9.4%]" with no religion seed)."""
        return self.n > 0 and self.edited != 0


@dataclass(frozen=True)
class GroupScore:
    """A category's group score: the largest difference of the favourable rate between two
    of its terms, each pair compared on the seeds that may take both (0 where no two terms
    share seeds); `rates` are each term's rate on the seeds that may take it."""

    category: str
    score: float
    rates: dict[str, float]
    n: int
    excess: Excess | None = None
    """How often rewriting the seeds to the category's other terms changes the decision,
    against a placebo edit of the same seeds."""
    acceptability: float | None = None
    """The mean acceptability of the rewrites `excess` reads (None: the domain scores none)."""
    strict: Strict | None = None
    """`excess` recomputed, by the same method, on the seeds whose rewrites all score at
    least STRICT_ACCEPTABILITY (see :mod:`textfair.discovery.acceptable`)."""
    seeds_per_term: dict[str, int] | None = None
    """Per term of `rates`, the seeds its rate rests on (those that may take it): a rate on
    one seed is 0% or 100% whatever the model does. None in a report written before
    they were kept."""
    pairs_compared: int | None = None
    """How many pairs of terms share seeds, the pairs `score` is the largest difference of:
    0 means no two terms were written into the same text, so `score` compares nothing.
    None in a report written before it was kept."""


@dataclass(frozen=True)
class PairShift:
    """Swapping term `source` for `target`: label flip rate and mean favourable shift."""

    category: str
    source: str
    target: str
    flip_rate: float
    flip_ci: tuple[float, float]
    mean_shift: float
    shift_ci: tuple[float, float]
    n: int
    excess: Excess | None = None
    """The pair's flip rate against the placebo edit's, on the same seeds."""
    placebo_shift: float | None = None
    """Mean favourable shift of the placebo edit on the same seeds."""
    excess_shift: float | None = None
    excess_shift_ci: tuple[float, float] | None = None
    """Mean of P(favourable | swapped) - P(favourable | placebo), with its interval."""
    acceptability: float | None = None
    """The mean acceptability of the swapped inputs (None: the domain scores none)."""
    strict: Strict | None = None
    """The pair's shift (against the placebo edit where there is one, as `excess_shift`),
    with its interval by the same method, on the seeds whose swapped input scores at least
    STRICT_ACCEPTABILITY (see :mod:`textfair.discovery.acceptable`)."""


@dataclass(frozen=True)
class FlippedPair:
    """One swap of a term pair that changed the model's decision: the seed as written (with
    `source`) and rewritten with `target`, the favourable probability of each, and whether
    the seed's placebo edit flipped its decision too (None without a placebo edit)."""

    category: str
    source: str
    target: str
    text: Hashable
    counterfactual: Hashable
    favourable: bool
    score: float
    counterfactual_score: float
    placebo_flipped: bool | None = None
    acceptability: float | None = None
    """The counterfactual's acceptability score (None: the domain scores none)."""


@dataclass(frozen=True)
class ThemisResult:
    """Causal scores of the tested category sets, group scores, pair shifts, pruning stats."""

    causal: list[CausalScore]
    group: list[GroupScore]
    pairs: list[PairShift]
    tests_run: int
    tests_without_pruning: int
    pruned: list[tuple[str, ...]] = field(default_factory=list)  # category sets not tested
    flipped: list[FlippedPair] = field(default_factory=list)  # every term-pair swap that flips
    pairs_left_out: list[PairsLeftOut] = field(default_factory=list)
    """Categories with more term pairs than are kept in full (see `keptpairs`)."""


def paired_excess(
    identity: Sequence[float], placebo: Sequence[float], confidence: float
) -> Excess | None:
    """The paired excess of identity over placebo flip rates (see `Excess`)."""
    if not identity:
        return None
    e = np.asarray(identity, dtype=np.float64)
    q = np.asarray(placebo, dtype=np.float64)
    interval = bounded_mean(e - q, -1.0, 1.0, confidence)
    return Excess(
        float(e.sum()) / len(e),  # numpy's mean, to the bit, without its overhead
        float(q.sum()) / len(q),
        interval.estimate,
        (interval.low, interval.high),
        interval.p_value,
        interval.n,
        confidence,
    )
