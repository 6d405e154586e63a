"""Themis's causal test of one category set (Alg. 3's sequential test), and the batches of
inputs it reads: each seed's counterfactual family and its placebo edit.

The **causal score** of a set of categories X (Themis Def. 3.7) is the fraction of seeds
whose predicted label changes under some counterfactual that changes only values of X.
A seed's counterfactual family is every swap of one category plus joint assignments that
are enumerated when there are at most `joint_variants`, and otherwise a sample drawn with
the seed itself as the random seed, so what is estimated does not depend on the run's seed.

Apart from `themis`, which decides which category sets are tested (the pruning) and
gathers the first batches of a level into one model call: this module tests one set.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from dataclasses import dataclass, field

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import Rule
from textfair.core.seeds import seed_rng
from textfair.discovery._answering_ahead import answering_ahead
from textfair.discovery._placebo import PlaceboMemo, placebo_input, with_placebos
from textfair.discovery._sampling import Sampling, batches
from textfair.discovery.results import CausalScore, paired_excess
from textfair.models.cached import CachedModel
from textfair.models.decision import Decision, outcomes
from textfair.stats import bounded_mean

__all__ = ["BATCH", "Batch", "CausalRun", "FamilyMemo", "ask", "causal_score", "first_batch"]

BATCH = 25  # seeds between two checks of the stopping rule, as in group fairness

#: Each seed's counterfactual family per (seed, mentioned categories): this run's.
FamilyMemo = dict[tuple[int, tuple[str, ...]], tuple[Hashable, ...]]

#: Per seed of a causal batch: where its inputs start and stop in the batch (the seed,
#: then its counterfactual family), its placebo edit's place among the batch's placebo
#: edits (-1: none), and which of its counterfactuals are real edits.
SeedRow = tuple[int, int, int, np.ndarray]


def _family_inputs(
    domain: Domain,
    index: int,
    mentioned: tuple[str, ...],
    joint_variants: int,
    memo: FamilyMemo,
) -> tuple[Hashable, ...]:
    """The inputs of seed `index`'s counterfactual family over the categories it mentions.

    The family depends only on those categories, so every category set that mentions the
    same ones shares it; `memo` keeps it for the rest of the run."""
    key = (index, mentioned)
    if key not in memo:
        family = _counterfactual_family(domain, index, mentioned, joint_variants)
        write = getattr(domain, "rewrite_input", None)
        if write is not None:  # a text domain's inputs, without a Variant each
            memo[key] = tuple(text for a in family if (text := write(index, a)) is not None)
        else:
            memo[key] = tuple(
                v.input for a in family if (v := domain.rewrite(index, a)) is not None
            )
    return memo[key]


def _counterfactual_family(
    domain: Domain, index: int, mentioned: tuple[str, ...], joint_variants: int
) -> list[tuple[Rule, ...]]:
    """The rewrites of seed `index` that change the values of a non-empty subset S of the
    categories it mentions: every swap of one category, and for |S| >= 2 every joint
    assignment when there are at most `joint_variants`, else that many drawn with the seed
    and S as the random seed — fixed by the seed, never by the run's `--seed`, so the
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
class CausalRun:
    """What every causal test of one run shares: the seeds, the model, the sampling, the
    counterfactual families and placebo edits remembered so far, and the level of the
    excess intervals (simultaneous over the tested category sets)."""

    domain: Domain
    model: CachedModel
    favorable: int | Decision
    masks: dict[str, np.ndarray]
    population: np.ndarray
    sampling: Sampling
    joint_variants: int
    families: FamilyMemo
    placebos: PlaceboMemo
    excess_confidence: float


def causal_score(
    run: CausalRun, subset: tuple[str, ...], first: Batch | None = None
) -> CausalScore:
    """Alg. 3's sequential test of one category set (`first`: its first batch, if built)."""
    model, sampling, population = run.model, run.sampling, run.population
    confidence, error, min_samples = sampling.confidence, sampling.error, sampling.min_samples
    tally = _Tally()
    ranges = _ranges(run)
    written: Batch | None = first
    with answering_ahead(model, run.domain) as pipeline:
        for k, (begin, end) in enumerate(ranges):
            seeds = population[begin:end]
            batch = written if written is not None else _batch(run, subset, seeds)
            written = None
            if pipeline is None:
                answers = with_placebos(model, batch.inputs, batch.placebos)
            else:  # the next range written while the model answers this one
                answering = pipeline.submit(with_placebos, model, batch.inputs, batch.placebos)
                if k + 1 < len(ranges):
                    written = _batch(run, subset, population[slice(*ranges[k + 1])])
                answers = answering.result()
            tally.read(batch, outcomes(run.favorable, answers), seeds)
            interval = bounded_mean(tally.flipped, 0.0, 1.0, confidence)
            if interval.n >= min_samples and interval.half_width <= error:
                break
    interval = bounded_mean(tally.flipped, 0.0, 1.0, confidence)
    n = interval.n
    return CausalScore(
        subset,
        interval.estimate if n else 0.0,
        (interval.low, interval.high),
        sum(tally.flipped),
        n,
        (
            paired_excess(tally.shares, tally.placebo_flips, run.excess_confidence)
            if run.domain.supports_placebo
            else None
        ),
        tally.edited,
        seeds=tuple(tally.sampled),
        seed_flips=tuple(int(f) for f in tally.flipped),
    )


@dataclass
class _Tally:
    """What one causal test has read so far, batch by batch: per seed whether some
    counterfactual flips its decision (`flipped`, in the order of `sampled`); per seed with a
    placebo edit, the share of its identity edits that flip (`shares`) and whether its
    placebo edit flips (`placebo_flips`); and the seeds with at least one real edit of the
    category set (`edited`)."""

    flipped: list[bool] = field(default_factory=list)
    sampled: list[int] = field(default_factory=list)
    shares: list[float] = field(default_factory=list)
    placebo_flips: list[float] = field(default_factory=list)
    edited: int = 0

    def read(self, batch: Batch, labels: np.ndarray, seeds: np.ndarray) -> None:
        """Add a batch's outcomes (`labels`: its inputs', then its placebo edits')."""
        inputs, rows = batch.inputs, batch.rows
        flips, seed_labels, edit_shares = _row_flips(labels[: len(inputs)], rows)
        self.flipped += flips.tolist()
        self.sampled += seeds.tolist()
        self.edited += sum(bool(row[3].any()) for row in rows)
        for (_, _, at, _), seed_label, share in zip(rows, seed_labels, edit_shares, strict=True):
            if at >= 0:
                self.shares.append(float(share))
                self.placebo_flips.append(float(labels[len(inputs) + at] != seed_label))


def _row_flips(
    labels: np.ndarray, rows: list[SeedRow]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per seed row of a causal batch (its inputs `labels[start:stop]`: the seed, then its
    counterfactuals): whether any counterfactual's outcome differs from the seed's, the
    seed's outcome, and the share of its real edits (`edited`) that differ (NaN for a row
    with none). All rows at once: the rows tile the batch's inputs in order."""
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


@dataclass
class Batch:
    """Inputs to score together: identity inputs, then placebo edits; for a causal batch,
    per seed its `SeedRow`."""

    inputs: list[Hashable]
    placebos: list[Hashable]
    rows: list[SeedRow] = field(default_factory=list)


def _ranges(run: CausalRun) -> list[tuple[int, int]]:
    """The seed ranges a causal test reads, stopping check after each (see `batches`)."""
    sampling = run.sampling
    total = min(len(run.population), sampling.max_samples)
    return batches(total, sampling.min_samples, BATCH)


def _batch(run: CausalRun, subset: tuple[str, ...], seeds: np.ndarray) -> Batch:
    """Each seed's input and counterfactual family over the categories of `subset` it
    mentions, and, where one of them is a real edit, its placebo edit."""
    batch = Batch([], [])
    for i in (int(i) for i in seeds):
        mentioned = tuple(sorted(c for c in subset if run.masks[c][i]))
        family = _family_inputs(run.domain, i, mentioned, run.joint_variants, run.families)
        start = len(batch.inputs)
        seed_input = run.domain.input(i)
        batch.inputs += [seed_input, *family]
        # The rewrite to a seed's own value may leave it as it is: not an edit.
        edited = np.array([t != seed_input for t in family], dtype=bool)
        edit = None
        if run.domain.supports_placebo and edited.any():
            edit = placebo_input(run.domain, i, mentioned, run.placebos)
        at = len(batch.placebos) if edit is not None else -1
        batch.rows.append((start, len(batch.inputs), at, edited))
        if edit is not None:
            batch.placebos.append(edit)
    return batch


def first_batch(run: CausalRun, subset: tuple[str, ...]) -> Batch:
    """The inputs of `subset`'s first range: every test reads at least these."""
    ranges = _ranges(run)
    if not ranges:
        return Batch([], [])
    begin, end = ranges[0]
    return _batch(run, subset, run.population[begin:end])


def ask(model: CachedModel, batches: list[Batch]) -> None:
    """Score the batches' inputs and their placebo edits (counted as the "placebo" stage)
    in one call, so the tests that read them find the answers remembered."""
    inputs = [t for batch in batches for t in batch.inputs]
    model.prefetch(inputs, {"placebo": [t for batch in batches for t in batch.placebos]})
