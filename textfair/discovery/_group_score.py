"""Themis's group score of one category (Def. 3.5/3.6), beside its placebo edits.

The group score is the largest difference of the favourable rate between two of the
category's terms (its single rules' values), when every eligible seed is rewritten to each;
each pair of terms is compared on the seeds that may take both. Apart from the causal test
(`causal`) and the term pairs (`term_pairs`), which read the same rewrites differently.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import Rule
from textfair.discovery._placebo import PlaceboDecision
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY, Strict, mean_score, scorer
from textfair.discovery.results import GroupScore, paired_excess
from textfair.models.cached import CachedModel
from textfair.models.decision import Decision, decide
from textfair.stats import bounded_mean

__all__ = ["group_score"]

# Cells of a [terms × terms] product held at once by `_largest_paired_difference` (32 MB
# per float64 array): a category of 3,000 terms would otherwise hold several 72 MB arrays.
_BLOCK_CELLS = 4_000_000


def group_score(
    domain: Domain,
    model: CachedModel,
    category: str,
    favorable: int | Decision,
    seeds: Sequence[int],
    rewrites: dict[str, dict[int, Hashable]],
    placebos: dict[int, PlaceboDecision] | None,
    excess_confidence: float,
) -> GroupScore:
    """Favourable rate per term, and the category's group score: the largest difference
    between two terms' rates, each pair compared on the seeds that may become both (a
    seed's axis and clashes decide which terms it may become; comparing rates over
    different seeds would measure the seeds, not the terms). Beside it (`excess`, its
    interval at `excess_confidence`), how often a seed's rewrites to the category's other
    terms change its decision, against its placebo edit. `rewrites`: per term, the seeds
    that may become it and their rewrites."""
    # One model call for the whole category: the model sorts one long list by length and
    # fills its batches, where a call per term would pad many short batches.
    flat = [t for inputs in rewrites.values() for t in inputs.values()]
    favoured = iter(_favoured(model, flat, favorable))
    outcome = {term: {i: next(favoured) for i in inputs} for term, inputs in rewrites.items()}
    rates = {term: float(np.mean(list(y.values()))) for term, y in outcome.items() if y}
    score, pairs_compared = _largest_paired_difference([outcome[term] for term in rates], seeds)
    excess = None
    acceptability: float | None = None
    strict: Strict | None = None
    if placebos is not None:
        shares: list[float] = []
        placebo_flips: list[float] = []
        lowest: list[float] = []
        scores: list[float] = []
        score_of = scorer(domain)
        for i, seen in placebos.items():
            own = domain.values_of(i, category)
            terms = [t for t, y in outcome.items() if i in y and t not in own]
            if terms:
                shares.append(float(np.mean([outcome[t][i] != seen.favoured for t in terms])))
                placebo_flips.append(float(seen.placebo_favoured != seen.favoured))
                if score_of is not None:
                    scored = [score_of(i, (Rule(category, t),)) for t in terms]
                    scores += scored
                    lowest.append(min(scored))
        excess = paired_excess(shares, placebo_flips, excess_confidence)
        if score_of is not None and excess is not None:
            keep = np.asarray(lowest) >= STRICT_ACCEPTABILITY
            on = np.subtract(shares, placebo_flips)[keep]
            acceptability = mean_score(np.asarray(scores))
            strict = Strict.of(bounded_mean(on, -1.0, 1.0, excess_confidence))
    counts = {term: len(outcome[term]) for term in rates}
    return GroupScore(
        category,
        score,
        rates,
        len(seeds),
        excess,
        acceptability,
        strict,
        seeds_per_term=counts,
        pairs_compared=pairs_compared,
    )


def _largest_paired_difference(
    outcomes_by_term: list[dict[int, bool]], seeds: Sequence[int]
) -> tuple[float, int]:
    """max over pairs of terms (a, b) with seeds in common of |mean over those seeds of
    y_a - y_b|, y the 0/1 outcome. With A[t, i] = y_t(i) where seed i may become t (else
    0) and P[t, i] = 1 where it may: the sums over common seeds are (A Pᵀ)[a, b] and
    (A Pᵀ)[b, a], their count (P Pᵀ)[a, b]. The sums are whole numbers, exact in float64,
    so this is the pairwise loop's value to the last bit, for every pair at once. The
    [terms × terms] products are taken a block of rows at a time (`_BLOCK_CELLS` cells):
    memory grows with the terms, not with their square. Returned beside it: how many
    pairs (a, b), a < b, share a seed (0: the value compares nothing)."""
    if len(outcomes_by_term) < 2:
        return 0.0, 0
    column = {seed: k for k, seed in enumerate(seeds)}
    present = np.zeros((len(outcomes_by_term), len(column)))
    favoured = np.zeros_like(present)
    for t, by_seed in enumerate(outcomes_by_term):
        at = [column[i] for i in by_seed]
        present[t, at] = 1.0
        favoured[t, at] = np.fromiter(by_seed.values(), dtype=np.float64, count=len(at))
    terms = len(outcomes_by_term)
    rows = max(1, _BLOCK_CELLS // terms)
    largest = None
    pairs = 0
    for start in range(0, terms, rows):
        block = slice(start, min(start + rows, terms))
        sums = favoured[block] @ present.T  # [a, b]: Σ y_a over the seeds a and b share
        sums_back = present[block] @ favoured.T  # [a, b]: Σ y_b over the same seeds
        common = present[block] @ present.T
        shared = common > 0
        own = np.arange(block.stop - start)
        shared[own, start + own] = False  # a term against itself
        pairs += int(shared.sum())
        if shared.any():
            gap = float(np.abs((sums - sums_back)[shared] / common[shared]).max())
            largest = gap if largest is None else max(largest, gap)
    # `shared` is symmetric over the whole product: each unordered pair was counted twice.
    return (0.0 if largest is None else largest), pairs // 2


def _favoured(model: CachedModel, inputs: list[Hashable], favorable: int | Decision) -> np.ndarray:
    """Whether the model's label for each input is the favourable one."""
    if not inputs:
        return np.zeros(0, dtype=bool)
    return decide(favorable, model.predict_proba(inputs))
