"""Themis: causal discrimination, group discrimination, and term-pair shifts, over any Domain.

* **Causal score** of a set of categories X (Themis Def. 3.7): the fraction of seeds whose
  predicted label changes under some counterfactual that swaps only terms of X. It is measured
  on one population for every X — the seeds that can be rewritten in any audited category —
  so it can only grow when X grows (a seed flipped under X is flipped under X ∪ Y). That makes
  Alg. 3's pruning sound: once X discriminates above the threshold, no superset is tested.
  Alg. 3 prunes on the point estimate; here a superset is pruned only when X's whole interval
  lies above the threshold, so a score near the threshold (0.112 against 0.1) does not decide
  by chance which sets are tested.
* **Group score** of a category (Def. 3.5/3.6): max minus min, over its terms, of the
  favourable rate when every eligible seed is rewritten to that term.
* **Term pairs** (the counterfactual token fairness gap): for seeds naming term s, how often
  the label flips and how much the favourable probability moves when s becomes t.

(A term is a value of a category's single rule: an identity term, a column's value.)

What is estimated does not depend on the run's seed: a seed's counterfactual family is every
swap of one category plus joint assignments that are enumerated when there are at most
`joint_variants`, and otherwise a sample drawn with the seed itself as the random seed.

Sampling is adaptive: seeds are drawn in batches until the interval is at most ±error wide
(after min_samples) or max_samples is reached. Every interval (flip rates and probability
shifts alike) is `bounded_mean`'s, which holds when only a few seeds flip. Every input goes
through the model's cache, so an input scored for one test is never scored again.

This module runs them: which category sets are tested, the model calls the tests share, and
the corrections over each family. The tests are in `causal`, `group_score` and `term_pairs`,
the placebo edits in `placebo`, what they report in `results`.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence

import numpy as np

from textfair.core.domain import Domain
from textfair.discovery._causal import (
    Batch,
    CausalRun,
    FamilyMemo,
    ask,
    causal_score,
    first_batch,
)
from textfair.discovery._group_score import group_score
from textfair.discovery._placebo import PlaceboMemo, placebo_decisions, placebo_edits
from textfair.discovery._sampling import Sampling, seed_order
from textfair.discovery._term_pairs import term_pairs
from textfair.discovery.keptpairs import Adjustable, PairKeeper, with_adjusted_excess
from textfair.discovery.results import CausalScore, FlippedPair, GroupScore, ThemisResult
from textfair.models.base import Model
from textfair.models.cached import CachedModel
from textfair.models.decision import Decision
from textfair.stats import adjust

__all__ = ["themis"]


def themis(
    domain: Domain,
    model: Model,
    *,
    favorable: int | Decision,
    threshold: float = 0.1,
    max_order: int | None = None,
    confidence: float = 0.95,
    error: float = 0.05,
    min_samples: int = 100,
    max_samples: int = 1000,
    joint_variants: int = 32,
    term_samples: int | None = None,
    seed: int = 0,
    correction: str = "holm",
    prune: bool = True,
) -> ThemisResult:
    """Causal scores with Alg. 3 pruning, group scores and term-pair shifts, each beside a
    placebo edit where the domain has one (`Excess`).

    Seeds are taken in the run's shared order (`seed_order`), and counterfactuals are the
    domain's rewrites, so inputs generated for group fairness are reused here, not re-scored.
    Group scores and term pairs use the first `term_samples` seeds that name the category
    (default: `min_samples`, the seeds group fairness scores first).

    With placebo edits, a category set discriminates when its excess interval lies wholly
    above `threshold`; its supersets are then not tested (`prune`) and are covered by it.
    The excess intervals of the category sets, and those of the categories' group scores,
    are simultaneous over their family: each at 1 - (1 - confidence) / m for the family's m
    tests, so all of them hold together at `confidence`. A term pair's intervals hold at
    `confidence` for the pair on its own (as a rule set's do). p-values are adjusted with
    `correction` in every family.
    """
    term_samples = term_samples or min_samples
    # Inputs are gathered for several tests and asked for in one call, then read back per
    # test: only a model that remembers its answers makes that free of repeated queries.
    cached = model if isinstance(model, CachedModel) else CachedModel(model)
    categories = domain.categories()
    max_order = max_order or len(categories)
    masks = {c: domain.category_mask(c) for c in categories}
    everything = seed_order(domain, seed)
    population = everything[np.any([masks[c] for c in categories], axis=0)[everything]]
    causal: list[CausalScore] = []
    # Counterfactual families per (seed, mentioned categories), and placebo edits per
    # (seed, categories), remembered for this run.
    families: FamilyMemo = {}
    placebos: PlaceboMemo = {}
    sampling = Sampling(confidence, error, min_samples, max_samples, seed)
    subsets = [
        subset
        for size in range(1, max_order + 1)
        for subset in itertools.combinations(categories, size)
    ]
    run = CausalRun(
        domain,
        cached,
        favorable,
        masks,
        population,
        sampling,
        joint_variants,
        families,
        placebos,
        _simultaneous(confidence, len(subsets)),
    )
    category_confidence = _simultaneous(confidence, len(categories))
    seeds = {c: everything[masks[c][everything]][:term_samples].tolist() for c in categories}
    rewrites = {c: _term_rewrites(domain, c, seeds[c]) for c in categories}
    edits = {c: placebo_edits(domain, seeds[c], c, placebos) for c in categories}
    # The group scores' and term pairs' inputs: each category's seeds, their rewrites to
    # every term, their placebo edits. They depend on no test, so they join the first call.
    per_category = [
        Batch(
            [domain.input(i) for i in seeds[c]]
            + [t for inputs in rewrites[c].values() for t in inputs.values()],
            list((edits[c] or {}).values()),
        )
        for c in categories
    ]
    discriminating: list[tuple[str, ...]] = []
    pruned: list[tuple[str, ...]] = []
    # Level by level: a set is pruned only by a smaller one (Themis Thm 4.1, read on the
    # excess), so a level's sets are known before any of them is tested, and their first
    # batches go to the model together: a few long calls rather than one short call per set.
    for size in range(1, max_order + 1):
        level = []
        for subset in (s for s in subsets if len(s) == size):
            if prune and any(set(found) <= set(subset) for found in discriminating):
                pruned.append(subset)  # covered by `found`
            else:
                level.append(subset)
        firsts = [first_batch(run, subset) for subset in level]
        ask(cached, firsts + (per_category if size == 1 else []))
        for subset, first in zip(level, firsts, strict=True):
            result = causal_score(run, subset, first)
            causal.append(result)
            low = result.excess.ci[0] if result.excess is not None else result.ci[0]
            if low > threshold:  # the whole interval, not the point estimate
                discriminating.append(subset)
    group: list[GroupScore] = []
    # Every term pair is tested and corrected for; a large category's are not all kept.
    keeper = PairKeeper(confidence)
    flipped: list[FlippedPair] = []
    for category in categories:
        decisions = placebo_decisions(domain, cached, favorable, seeds[category], edits[category])
        group.append(
            group_score(
                domain,
                cached,
                category,
                favorable,
                seeds[category],
                rewrites[category],
                decisions,
                category_confidence,
            )
        )
        keeper.add(
            category,
            term_pairs(
                domain,
                cached,
                category,
                favorable,
                seeds[category],
                rewrites[category],
                confidence,
                decisions,
                flipped,
            ),
        )
    causal = _adjusted(causal, correction, confidence)
    group = _adjusted(group, correction, confidence)
    pairs, left_out = keeper.result(correction)
    return ThemisResult(causal, group, pairs, len(causal), len(subsets), pruned, flipped, left_out)


def _term_rewrites(
    domain: Domain, category: str, seeds: Sequence[int]
) -> dict[str, dict[int, Hashable]]:
    """Per term of the category, the seeds that may become it and their rewrites."""
    rules = domain.single_rules(category)
    taken = getattr(domain, "assignments_taken", None)
    columns_of = getattr(domain, "assignment_columns", None)
    if taken is None or columns_of is None:
        return {
            rule.value: {i: v.input for i in seeds if (v := domain.rewrite(i, (rule,))) is not None}
            for rule in rules
        }
    # A text domain: the terms each seed may become, read at once from its target tables
    # (most seeds may become few of a category's terms), then only those rewritten.
    columns = columns_of([(rule,) for rule in rules])
    may = [taken(i, (category,), columns) for i in seeds]
    return {
        rule.value: {
            i: v.input
            for i, row in zip(seeds, may, strict=True)
            if row[j] and (v := domain.rewrite(i, (rule,))) is not None
        }
        for j, rule in enumerate(rules)
    }


def _simultaneous(confidence: float, tests: int) -> float:
    """Bonferroni: each of `tests` intervals at this level holds together at `confidence`."""
    return 1.0 - (1.0 - confidence) / max(tests, 1)


def _adjusted(results: list[Adjustable], correction: str, confidence: float) -> list[Adjustable]:
    """`results` with their excess p-values adjusted over the family; significant: adjusted
    p at most 1 - confidence and the identity edits flip more often than the placebo."""
    tested = [k for k, r in enumerate(results) if r.excess is not None]
    if not tested:
        return results
    p_values = [excess.p_value for k in tested if (excess := results[k].excess) is not None]
    adjusted = adjust(p_values, correction, 1.0 - confidence)
    results = list(results)
    for k, p_adjusted, significant in zip(
        tested, adjusted.p_adjusted, adjusted.significant, strict=True
    ):
        results[k] = with_adjusted_excess(results[k], p_adjusted, significant)
    return results
