"""Themis for text: causal discrimination, group discrimination, and term-pair shifts.

* **Causal score** of a set of categories X (Themis Def. 3.7): the fraction of texts whose
  predicted label changes under some counterfactual that swaps only terms of X. It is measured
  on one population for every X — the texts mentioning any audited category — so it can only
  grow when X grows (a text flipped under X is flipped under X ∪ Y). That makes Alg. 3's
  pruning sound: once X discriminates above the threshold, no superset is tested. Alg. 3
  prunes on the point estimate; here a superset is pruned only when X's whole interval lies
  above the threshold, so a score near the threshold (0.112 against 0.1) does not decide by
  chance which sets are tested.
* **Group score** of a category (Def. 3.5/3.6): max minus min, over its terms, of the
  favourable rate when every eligible text is rewritten to that term.
* **Term pairs** (the counterfactual token fairness gap): for texts naming term s, how often
  the label flips and how much the favourable probability moves when s becomes t.

What is estimated does not depend on the run's seed: a text's counterfactual family is every
swap of one category plus joint assignments that are enumerated when there are at most
`joint_variants`, and otherwise a sample drawn with the text itself as the seed.

Sampling is adaptive: texts are drawn in batches until the interval is at most ±error wide
(after min_samples) or max_samples is reached. Every interval (flip rates and probability
shifts alike) is `bounded_mean`'s, which holds when only a few texts flip. Every text goes
through the model's cache, so a text scored for one test is never scored again.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import Rule
from textfair.core.seeds import seed_rng
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY, Strict, mean_score, scorer
from textfair.discovery.keptpairs import PairKeeper, PairsLeftOut, with_adjusted_excess
from textfair.discovery.sampling import Sampling, batches, seed_order
from textfair.models.base import Model
from textfair.models.cached import CachedModel
from textfair.models.decision import Decision, decide, favourable_score, outcomes
from textfair.stats import adjust, bounded_mean

__all__ = ["CausalScore", "Excess", "GroupScore", "PairShift", "ThemisResult", "themis"]

BATCH = 25  # texts between two checks of the stopping rule, as in group fairness
# Cells of a [terms × terms] product held at once by `_largest_paired_difference` (32 MB
# per float64 array): a category of 3,000 terms would otherwise hold several 72 MB arrays.
_BLOCK_CELLS = 4_000_000


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
    """Fraction of texts whose label some counterfactual over `categories` changes, and the
    per-edit flip rate against a placebo edit's (`excess`; None where the domain has no
    placebo edit, as for table rows)."""

    categories: tuple[str, ...]
    score: float
    ci: tuple[float, float]
    flips: int
    n: int
    excess: Excess | None = None


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
    """The mean acceptability of the swapped texts (None: the domain scores none)."""
    strict: Strict | None = None
    """The pair's shift (against the placebo edit where there is one, as `excess_shift`),
    with its interval by the same method, on the seeds whose swapped text scores at least
    STRICT_ACCEPTABILITY (see :mod:`textfair.discovery.acceptable`)."""


@dataclass(frozen=True)
class FlippedPair:
    """One swap of a term pair that changed the model's decision: the seed as written (with
    `source`) and rewritten with `target`, the favourable probability of each, and whether
    the seed's placebo edit flipped its decision too (None without a placebo edit)."""

    category: str
    source: str
    target: str
    text: object
    counterfactual: object
    favourable: bool
    score: float
    counterfactual_score: float
    placebo_flipped: bool | None = None
    acceptability: float | None = None
    """The counterfactual's acceptability score (text domains; None elsewhere)."""


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
    # Texts are gathered for several tests and asked for in one call, then read back per
    # test: only a model that remembers its answers makes that free of repeated queries.
    model = model if isinstance(model, CachedModel) else CachedModel(model)
    categories = domain.categories()
    max_order = max_order or len(categories)
    masks = {c: domain.category_mask(c) for c in categories}
    everything = seed_order(domain, seed)
    population = everything[np.any([masks[c] for c in categories], axis=0)[everything]]
    causal: list[CausalScore] = []
    memo: dict = {}  # counterfactual family texts per (seed, mentioned categories), this run
    sampling = Sampling(confidence, error, min_samples, max_samples, seed)
    subsets = [
        subset
        for size in range(1, max_order + 1)
        for subset in itertools.combinations(categories, size)
    ]
    placebo = hasattr(domain, "placebo")  # text domains have one; table rows do not
    run = _CausalRun(
        domain,
        model,
        favorable,
        masks,
        population,
        sampling,
        joint_variants,
        memo,
        placebo,
        _simultaneous(confidence, len(subsets)),
    )
    each_category = _simultaneous(confidence, len(categories))
    seeds = {c: [int(i) for i in everything if masks[c][int(i)]][:term_samples] for c in categories}
    rewrites = {c: _term_rewrites(domain, c, seeds[c]) for c in categories}
    edits = {c: _placebo_edits(domain, seeds[c], c, placebo, memo) for c in categories}
    # The group scores' and term pairs' texts: each category's seeds, their rewrites to
    # every term, their placebo edits. They depend on no test, so they join the first call.
    per_category = [
        _Batch(
            [domain.input(i) for i in seeds[c]]
            + [t for texts in rewrites[c].values() for t in texts.values()],
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
        firsts = [_first_batch(run, subset) for subset in level]
        _ask(model, firsts + (per_category if size == 1 else []))
        for subset, first in zip(level, firsts, strict=True):
            result = _causal(run, subset, first)
            causal.append(result)
            low = result.excess.ci[0] if result.excess is not None else result.ci[0]
            if low > threshold:  # the whole interval, not the point estimate
                discriminating.append(subset)
    group: list[GroupScore] = []
    # Every term pair is tested and corrected for; a large category's are not all kept.
    keeper = PairKeeper(confidence)
    flipped: list[FlippedPair] = []
    for category in categories:
        known = seeds[category], rewrites[category]
        placebos = _placebos(domain, model, category, favorable, known[0], edits[category])
        group.append(_group(domain, model, category, favorable, known, placebos, each_category))
        keeper.add(
            category,
            _pairs(domain, model, category, favorable, known, confidence, placebos, flipped),
        )
    causal = _adjusted(causal, correction, confidence)
    group = _adjusted(group, correction, confidence)
    pairs, left_out = keeper.result(correction)
    return ThemisResult(causal, group, pairs, len(causal), len(subsets), pruned, flipped, left_out)


def _simultaneous(confidence: float, tests: int) -> float:
    """Bonferroni: each of `tests` intervals at this level holds together at `confidence`."""
    return 1.0 - (1.0 - confidence) / max(tests, 1)


def _excess(identity, placebo, confidence: float) -> Excess | None:
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


def _adjusted(results: list, correction: str, confidence: float) -> list:
    """`results` with their excess p-values adjusted over the family; significant: adjusted
    p at most 1 - confidence and the identity edits flip more often than the placebo."""
    tested = [k for k, r in enumerate(results) if r.excess is not None]
    if not tested:
        return results
    adjusted = adjust([results[k].excess.p_value for k in tested], correction, 1.0 - confidence)
    results = list(results)
    for k, p_adjusted, significant in zip(
        tested, adjusted.p_adjusted, adjusted.significant, strict=True
    ):
        results[k] = with_adjusted_excess(results[k], p_adjusted, significant)
    return results


def _family_texts(domain, index, mentioned, joint_variants, memo) -> tuple[str, ...]:
    """The texts of seed `index`'s counterfactual family over the categories it mentions.

    The family depends only on those categories, so every category set that mentions the
    same ones shares it; `memo` keeps it for the rest of the run."""
    key = (index, mentioned)
    if key not in memo:
        family = _counterfactual_family(domain, index, mentioned, joint_variants)
        memo[key] = tuple(v.input for a in family if (v := domain.rewrite(index, a)) is not None)
    return memo[key]


def _counterfactual_family(domain, index, mentioned, joint_variants):
    """The rewrites of seed `index` that change the terms of a non-empty subset S of the
    categories it mentions: every swap of one category, and for |S| >= 2 every joint
    assignment when there are at most `joint_variants`, else that many drawn with the text
    and S as the random seed — fixed by the text, never by the run's `--seed`, so the
    causal score estimates the same quantity in every run.

    The family of a category set contains the family of each of its subsets exactly, so the
    causal score is monotone in the categories and Alg. 3's pruning stays sound.
    """
    options = {c: [r.value for r in domain.single_rules(c)] for c in mentioned}
    family = []
    for size in range(1, len(mentioned) + 1):
        for chosen in itertools.combinations(mentioned, size):
            joint = list(itertools.product(*(options[c] for c in chosen)))
            if size > 1 and len(joint) > joint_variants:
                rng = seed_rng(domain, index, *chosen)
                picks = sorted(rng.choice(len(joint), joint_variants, replace=False))
                joint = [joint[i] for i in picks]
            family += [
                tuple(Rule(c, v) for c, v in zip(chosen, values, strict=True)) for values in joint
            ]
    return family


@dataclass(frozen=True)
class _CausalRun:
    """What every causal test of one run shares: the seeds, the model, the sampling, the
    counterfactual families remembered so far, and the excess intervals' level (`each`)."""

    domain: Domain
    model: CachedModel
    favorable: int | Decision
    masks: dict[str, np.ndarray]
    population: np.ndarray
    sampling: Sampling
    joint_variants: int
    memo: dict
    placebo: bool
    each: float


def _causal(run: _CausalRun, subset: tuple[str, ...], first: _Batch | None = None) -> CausalScore:
    """Alg. 3's sequential test of one category set (`first`: its first batch, if built)."""
    model, sampling, population = run.model, run.sampling, run.population
    confidence, error, min_samples = sampling.confidence, sampling.error, sampling.min_samples
    flipped: list[bool] = []
    shares: list[float] = []  # per seed with a placebo: its identity edits' flip share
    placebo_flips: list[float] = []
    for k, (begin, end) in enumerate(_ranges(run)):
        seeds = population[begin:end]
        batch = first if k == 0 and first is not None else _batch(run, subset, seeds)
        texts, extra, rows = batch.texts, batch.placebos, batch.rows
        labels = outcomes(run.favorable, _with_placebos(model, texts, extra))
        flips, seed_labels, edit_shares = _row_flips(labels[: len(texts)], rows)
        flipped += flips.tolist()
        for (_, _, at, _), seed_label, share in zip(rows, seed_labels, edit_shares, strict=True):
            if at >= 0:
                shares.append(float(share))
                placebo_flips.append(float(labels[len(texts) + at] != seed_label))
        interval = bounded_mean(flipped, 0.0, 1.0, confidence)
        if interval.n >= min_samples and interval.half_width <= error:
            break
    interval = bounded_mean(flipped, 0.0, 1.0, confidence)
    n = interval.n
    return CausalScore(
        subset,
        interval.estimate if n else 0.0,
        (interval.low, interval.high),
        sum(flipped),
        n,
        _excess(shares, placebo_flips, run.each) if run.placebo else None,
    )


def _row_flips(labels: np.ndarray, rows: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per seed row of a causal batch (its texts `labels[start:stop]`: the seed, then its
    counterfactuals): whether any counterfactual's outcome differs from the seed's, the
    seed's outcome, and the share of its real edits (`edited`) that differ (NaN for a row
    with none). All rows at once: the rows tile the batch's texts in order."""
    if not rows:
        return np.zeros(0, dtype=bool), labels[:0], np.zeros(0)
    starts = np.fromiter((row[0] for row in rows), dtype=np.intp, count=len(rows))
    sizes = np.diff(np.append(starts, len(labels)))
    seed_labels = labels[starts]
    changed = labels != np.repeat(seed_labels, sizes)
    edited = np.zeros(len(labels), dtype=bool)  # a row's seed is no edit of itself
    for start, stop, _, row_edited in rows:
        edited[start + 1 : stop] = row_edited
    flips = np.logical_or.reduceat(changed, starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = np.add.reduceat(changed & edited, starts) / np.add.reduceat(edited, starts)
    return flips, seed_labels, shares


def _with_placebos(model: CachedModel, texts: list, placebos: list) -> np.ndarray:
    """The model's answers for `texts`, then `placebos`, in one call; the placebo edits'
    queries are counted as their own stage ("placebo"), so their cost is stated apart."""
    model.prefetch(texts, {"placebo": placebos})
    return np.asarray(model.predict_proba(texts + placebos))


@dataclass
class _Batch:
    """Texts to score together: identity texts, then placebo edits; for a causal batch,
    per seed (start, stop) of its texts, its placebo's place (-1: none) and which of its
    rewrites are real edits."""

    texts: list
    placebos: list
    rows: list = field(default_factory=list)


def _ranges(run: _CausalRun) -> list[tuple[int, int]]:
    """The seed ranges a causal test reads, stopping check after each (see `batches`)."""
    sampling = run.sampling
    total = min(len(run.population), sampling.max_samples)
    return batches(total, sampling.min_samples, BATCH)


def _batch(run: _CausalRun, subset: tuple[str, ...], seeds) -> _Batch:
    """Each seed's text and counterfactual family over the categories of `subset` it
    mentions, and, where one of them is a real edit, its placebo edit."""
    batch = _Batch([], [])
    for i in (int(i) for i in seeds):
        mentioned = tuple(sorted(c for c in subset if run.masks[c][i]))
        family = _family_texts(run.domain, i, mentioned, run.joint_variants, run.memo)
        start = len(batch.texts)
        seed_text = run.domain.input(i)
        batch.texts += [seed_text, *family]
        # The rewrite to a seed's own term may leave its text as it is: not an edit.
        edited = np.array([t != seed_text for t in family], dtype=bool)
        edit = None
        if run.placebo and edited.any():
            edit = _placebo_text(run.domain, i, mentioned, run.memo)
        at = len(batch.placebos) if edit is not None else -1
        batch.rows.append((start, len(batch.texts), at, edited))
        if edit is not None:
            batch.placebos.append(edit)
    return batch


def _first_batch(run: _CausalRun, subset: tuple[str, ...]) -> _Batch:
    """The texts of `subset`'s first range: every test reads at least these."""
    ranges = _ranges(run)
    if not ranges:
        return _Batch([], [])
    begin, end = ranges[0]
    return _batch(run, subset, run.population[begin:end])


def _ask(model: CachedModel, batches: list[_Batch]) -> None:
    """Score the batches' texts and their placebo edits (counted as the "placebo" stage)
    in one call, so the tests that read them find the answers remembered."""
    texts = [t for batch in batches for t in batch.texts]
    model.prefetch(texts, {"placebo": [t for batch in batches for t in batch.placebos]})


def _placebo_text(domain, index: int, categories: tuple[str, ...], memo) -> str | None:
    """The placebo edit of seed `index` over `categories` (remembered for the run)."""
    key = ("placebo", index, categories)
    if key not in memo:
        variant = domain.placebo(index, categories)
        memo[key] = variant.input if variant is not None else None
    return memo[key]


def _placebo_edits(domain, seeds, category, placebo: bool, memo) -> dict[int, str] | None:
    """Per seed of the category that has one, its placebo edit (None: no placebo edits)."""
    if not placebo:
        return None
    return {i: t for i in seeds if (t := _placebo_text(domain, i, (category,), memo)) is not None}


def _placebos(domain, model, category, favorable, seeds, edits) -> dict | None:
    """Per seed of the category: its decision, and its placebo edit's decision and favourable
    score (None without placebo edits). One model call for all of them."""
    if edits is None:
        return None
    originals = [domain.input(i) for i in seeds]
    answers = _with_placebos(model, originals, list(edits.values()))
    if not len(answers):
        return {}
    label = outcomes(favorable, answers)
    favoured = decide(favorable, answers)
    score = favourable_score(favorable, answers)
    at = {i: k for k, i in enumerate(seeds)}
    return {
        i: _Placebo(
            label[at[i]],
            label[len(seeds) + k],
            favoured[at[i]],
            favoured[len(seeds) + k],
            float(score[len(seeds) + k]),
        )
        for k, i in enumerate(edits)
    }


@dataclass(frozen=True)
class _Placebo:
    """A seed's decision and its placebo edit's: label, favourable or not, and score."""

    label: object
    placebo_label: object
    favoured: bool
    placebo_favoured: bool
    placebo_score: float


def _term_rewrites(domain, category, seeds) -> dict[str, dict[int, str]]:
    """Per term of the category, the seeds that may become it and their rewritten texts."""
    return {
        rule.value: {i: v.input for i in seeds if (v := domain.rewrite(i, (rule,))) is not None}
        for rule in domain.single_rules(category)
    }


def _group(domain, model, category, favorable, known, placebos, each) -> GroupScore:
    """Favourable rate per term, and the category's group score: the largest difference
    between two terms' rates, each pair compared on the seeds that may become both (a
    seed's axis and clashes decide which terms it may become; comparing rates over
    different seeds would measure the seeds, not the terms). Beside it (`excess`), how often
    a seed's rewrites to the category's other terms change its decision, against its
    placebo edit. `known`: the seeds and their rewrites per term (`_term_rewrites`)."""
    seeds, by_term = known
    # One model call for the whole category: the model sorts one long list by length and
    # fills its batches, where a call per term would pad many short batches.
    flat = [t for texts in by_term.values() for t in texts.values()]
    favoured = iter(_favoured(model, flat, favorable))
    outcome = {term: {i: next(favoured) for i in texts} for term, texts in by_term.items()}
    rates = {term: float(np.mean(list(y.values()))) for term, y in outcome.items() if y}
    score = _largest_paired_difference([outcome[term] for term in rates], seeds)
    excess = None
    strict: dict = {}
    if placebos is not None:
        shares, placebo_flips, lowest, scores = [], [], [], []
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
        excess = _excess(shares, placebo_flips, each)
        if score_of is not None and excess is not None:
            keep = np.asarray(lowest) >= STRICT_ACCEPTABILITY
            on = np.subtract(shares, placebo_flips)[keep]
            strict = {
                "acceptability": mean_score(np.asarray(scores)),
                "strict": Strict.of(bounded_mean(on, -1.0, 1.0, each)),
            }
    return GroupScore(category, score, rates, len(seeds), excess, **strict)


def _largest_paired_difference(outcomes_by_term: list[dict[int, bool]], seeds) -> float:
    """max over pairs of terms (a, b) with seeds in common of |mean over those seeds of
    y_a - y_b|, y the 0/1 outcome. With A[t, i] = y_t(i) where seed i may become t (else
    0) and P[t, i] = 1 where it may: the sums over common seeds are (A Pᵀ)[a, b] and
    (A Pᵀ)[b, a], their count (P Pᵀ)[a, b]. The sums are whole numbers, exact in float64,
    so this is the pairwise loop's value to the last bit, for every pair at once. The
    [terms × terms] products are taken a block of rows at a time (`_BLOCK_CELLS` cells):
    memory grows with the terms, not with their square."""
    if len(outcomes_by_term) < 2:
        return 0.0
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
    for start in range(0, terms, rows):
        block = slice(start, min(start + rows, terms))
        sums = favoured[block] @ present.T  # [a, b]: Σ y_a over the seeds a and b share
        sums_back = present[block] @ favoured.T  # [a, b]: Σ y_b over the same seeds
        common = present[block] @ present.T
        shared = common > 0
        own = np.arange(block.stop - start)
        shared[own, start + own] = False  # a term against itself
        if shared.any():
            gap = float(np.abs((sums - sums_back)[shared] / common[shared]).max())
            largest = gap if largest is None else max(largest, gap)
    return 0.0 if largest is None else largest


def _favoured(model, texts, favorable) -> np.ndarray:
    """Whether the model's label for each text is the favourable one."""
    if not texts:
        return np.zeros(0, dtype=bool)
    return decide(favorable, model.predict_proba(texts))


def _pairs(domain, model, category, favorable, known, confidence, placebos=None, flipped=None):
    """Seeds naming exactly one term of the category, swapped to each other term; beside
    each pair, the same seeds' placebo edits. `known`: as for `_group`. Every swap that
    flips the decision is added to `flipped` (a list), as a FlippedPair. The pairs are
    yielded one at a time: a large category's are not all kept (`PairKeeper`)."""
    seeds, rewrites = known
    by_term: dict[str, list[int]] = {}
    for i in seeds:
        values = domain.values_of(i, category)
        if len(values) == 1:
            by_term.setdefault(next(iter(values)), []).append(i)
    swaps = []
    for source, named in by_term.items():
        for rule in domain.single_rules(category):
            if rule.value == source:
                continue
            # Only the seeds that may become the target (its axis, no clash) are paired.
            target = rewrites[rule.value]
            pairs = [(k, target[i]) for k, i in enumerate(named) if i in target]
            if pairs:
                swaps.append((source, rule.value, pairs))
    texts = [domain.input(i) for named in by_term.values() for i in named]
    for _, _, pairs in swaps:
        texts += [text for _, text in pairs]
    # One model call for the category (see _group), then sliced in the order built above.
    answers = np.asarray(model.predict_proba(texts)) if texts else np.zeros((0, 0))
    # Every per-row reading once for the whole call (each row's is its own), then sliced:
    # a list with many terms has thousands of swaps, each of a few rows.
    read = _Read(
        outcomes(favorable, answers) if texts else np.zeros(0),
        favourable_score(favorable, answers) if texts else np.zeros(0),
        decide(favorable, answers) if texts else np.zeros(0, dtype=bool),
    )
    first_row, at = {}, 0
    for source, named in by_term.items():
        first_row[source], at = at, at + len(named)
    score = scorer(domain)  # each swapped text's acceptability (None: not scored)
    for source, target, pairs in swaps:
        swapped, at = np.arange(at, at + len(pairs)), at + len(pairs)
        original = first_row[source] + np.array([k for k, _ in pairs], dtype=np.intp)
        flips = read.label[swapped] != read.label[original]
        # Probabilities may overshoot [0, 1] by rounding; the shift lies in [-1, 1].
        delta = np.clip(read.score[swapped] - read.score[original], -1.0, 1.0)
        if flipped is not None:
            flipped += _flipped(
                domain,
                (category, source, target),
                pairs,
                by_term[source],
                (read, original, swapped, flips),
                placebos,
            )
        flip = bounded_mean(flips, 0.0, 1.0, confidence)
        shift = bounded_mean(delta, -1.0, 1.0, confidence)
        scores = (
            np.array([score(by_term[source][k], (Rule(category, target),)) for k, _ in pairs])
            if score is not None
            else None
        )
        extra: dict = {}
        if scores is not None:  # without a placebo, the shift itself on the strict seeds
            extra = _strict_shift(delta, scores, confidence)
        if placebos is not None:
            seen = [placebos.get(by_term[source][k]) for k, _ in pairs]
            has = [k for k, p in enumerate(seen) if p is not None]
            if has:
                placebo_flip = [float(seen[k].placebo_label != seen[k].label) for k in has]
                swapped_score = read.score[swapped][has]
                placebo_score = np.array([seen[k].placebo_score for k in has])
                placebo_delta = placebo_score - read.score[original][has]
                against = np.clip(swapped_score - placebo_score, -1.0, 1.0)
                versus = bounded_mean(against, -1.0, 1.0, confidence)
                extra = {
                    "excess": _excess(flips[has].astype(float).tolist(), placebo_flip, confidence),
                    "placebo_shift": float(np.mean(placebo_delta)),
                    "excess_shift": versus.estimate,
                    "excess_shift_ci": (versus.low, versus.high),
                }
                if scores is not None:
                    extra |= _strict_shift(against, scores[has], confidence)
        yield PairShift(
            category,
            source,
            target,
            flip.estimate,
            (flip.low, flip.high),
            shift.estimate,
            (shift.low, shift.high),
            len(pairs),
            **extra,
        )


def _strict_shift(shifts: np.ndarray, scores: np.ndarray, confidence: float) -> dict:
    """A term pair's mean acceptability and its `Strict` shift: `bounded_mean` over the
    shifts of the seeds whose swapped text scores at least STRICT_ACCEPTABILITY, as the
    pair's own shift is over all of them."""
    interval = bounded_mean(shifts[scores >= STRICT_ACCEPTABILITY], -1.0, 1.0, confidence)
    return {"acceptability": mean_score(scores), "strict": Strict.of(interval)}


@dataclass(frozen=True)
class _Read:
    """Per row of a model call: the outcome a flip compares, the favourable score, and
    whether the decision is favourable."""

    label: np.ndarray
    score: np.ndarray
    favoured: np.ndarray


def _flipped(
    domain, swap: tuple[str, str, str], pairs, named, answers, placebos
) -> list[FlippedPair]:
    """The pairs of one swap (category, source, target) whose decision differs. `answers`:
    the call's readings, the rows of the originals and of the swaps, and which flipped."""
    read, original, swapped, flips = answers
    scored = getattr(domain, "acceptability_of", None)  # text domains score their variants
    before = read.score[original]
    after = read.score[swapped]
    decided = read.favoured[original]
    found = []
    for row in np.flatnonzero(flips):
        k, text = pairs[row]
        seen = placebos.get(named[k]) if placebos is not None else None
        found.append(
            FlippedPair(
                *swap,
                domain.input(named[k]),
                text,
                bool(decided[row]),
                float(before[row]),
                float(after[row]),
                None if seen is None else bool(seen.placebo_label != seen.label),
                scored(text) if scored is not None else None,
            )
        )
    return found
