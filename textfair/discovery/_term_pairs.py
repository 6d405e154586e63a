"""Themis's term pairs (the counterfactual token fairness gap): for the seeds naming term s
of a category, how often the decision flips and how much the favourable probability moves
when s becomes t, beside the same seeds' placebo edits; and every swap that flips.

Apart from the group score (`group_score`), which reads the same rewrites per term rather
than per pair, and from `keptpairs`, which decides which of the pairs tested are kept.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import Rule
from textfair.discovery._placebo import PlaceboDecision
from textfair.discovery.acceptable import (
    STRICT_ACCEPTABILITY,
    Strict,
    input_scorer,
    mean_score,
    scorer,
)
from textfair.discovery.results import Excess, FlippedPair, PairShift, paired_excess
from textfair.models.cached import CachedModel
from textfair.models.decision import Decision, decide, favourable_score, outcomes
from textfair.stats import bounded_mean

__all__ = ["term_pairs"]

#: One swap of a term pair: per seed paired, its place among the seeds naming `source`
#: and its rewrite to `target`.
Paired = list[tuple[int, Hashable]]


class _Beside(TypedDict, total=False):
    """What a `PairShift` holds beside its own flip rate and shift, where it applies: the
    placebo edit's, and the shift on the high-scoring seeds (`_strict_shift`)."""

    excess: Excess | None
    placebo_shift: float
    excess_shift: float
    excess_shift_ci: tuple[float, float]
    acceptability: float | None
    strict: Strict


def term_pairs(
    domain: Domain,
    model: CachedModel,
    category: str,
    favorable: int | Decision,
    seeds: Sequence[int],
    rewrites: dict[str, dict[int, Hashable]],
    confidence: float,
    placebos: dict[int, PlaceboDecision] | None,
    flipped: list[FlippedPair],
) -> Iterator[PairShift]:
    """Seeds naming exactly one term of the category, swapped to each other term; beside
    each pair, the same seeds' placebo edits. `rewrites`: per term, the seeds that may
    become it and their rewrites (as for `group_score`). Every swap that flips the decision
    is added to `flipped`, as a FlippedPair. The pairs are yielded one at a time: a large
    category's are not all kept (`PairKeeper`)."""
    by_term: dict[str, list[int]] = {}
    for i in seeds:
        values = domain.values_of(i, category)
        if len(values) == 1:
            by_term.setdefault(next(iter(values)), []).append(i)
    swaps: list[tuple[str, str, Paired]] = []
    for source, named in by_term.items():
        for rule in domain.single_rules(category):
            if rule.value == source:
                continue
            # Only the seeds that may become the target (its axis, no clash) are paired.
            becomes = rewrites[rule.value]
            pairs = [(k, becomes[i]) for k, i in enumerate(named) if i in becomes]
            if pairs:
                swaps.append((source, rule.value, pairs))
    inputs = [domain.input(i) for named in by_term.values() for i in named]
    for _, _, pairs in swaps:
        inputs += [swapped_input for _, swapped_input in pairs]
    # One model call for the category (see group_score), then sliced in the order built
    # above.
    answers = np.asarray(model.predict_proba(inputs)) if inputs else np.zeros((0, 0))
    # Every per-row reading once for the whole call (each row's is its own), then sliced:
    # a list with many terms has thousands of swaps, each of a few rows.
    read = _Read(
        outcomes(favorable, answers) if inputs else np.zeros(0),
        favourable_score(favorable, answers) if inputs else np.zeros(0),
        decide(favorable, answers) if inputs else np.zeros(0, dtype=bool),
    )
    first_row, at = {}, 0
    for source, named in by_term.items():
        first_row[source], at = at, at + len(named)
    score = scorer(domain)  # each swapped input's acceptability (None: not scored)
    for source, target, pairs in swaps:
        swapped, at = np.arange(at, at + len(pairs)), at + len(pairs)
        original = first_row[source] + np.array([k for k, _ in pairs], dtype=np.intp)
        flips = read.label[swapped] != read.label[original]
        # Probabilities may overshoot [0, 1] by rounding; the shift lies in [-1, 1].
        delta = np.clip(read.score[swapped] - read.score[original], -1.0, 1.0)
        flipped += _flipped(
            domain,
            (category, source, target),
            pairs,
            by_term[source],
            read,
            (original, swapped, flips),
            placebos,
        )
        flip = bounded_mean(flips, 0.0, 1.0, confidence)
        shift = bounded_mean(delta, -1.0, 1.0, confidence)
        scores = (
            np.array([score(by_term[source][k], (Rule(category, target),)) for k, _ in pairs])
            if score is not None
            else None
        )
        extra: _Beside = {}
        if scores is not None:  # without a placebo, the shift itself on the strict seeds
            extra = _strict_shift(delta, scores, confidence)
        if placebos is not None:
            seen = [placebos.get(by_term[source][k]) for k, _ in pairs]
            has = [k for k, p in enumerate(seen) if p is not None]
            present = [p for p in seen if p is not None]  # seen[k] for k in has
            if has:
                placebo_flip = [float(p.placebo_label != p.label) for p in present]
                swapped_score = read.score[swapped][has]
                placebo_score = np.array([p.placebo_score for p in present])
                placebo_delta = placebo_score - read.score[original][has]
                against = np.clip(swapped_score - placebo_score, -1.0, 1.0)
                versus = bounded_mean(against, -1.0, 1.0, confidence)
                extra = {
                    "excess": paired_excess(
                        flips[has].astype(float).tolist(), placebo_flip, confidence
                    ),
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


def _strict_shift(shifts: np.ndarray, scores: np.ndarray, confidence: float) -> _Beside:
    """A term pair's mean acceptability and its `Strict` shift: `bounded_mean` over the
    shifts of the seeds whose swapped input scores at least STRICT_ACCEPTABILITY, as the
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
    domain: Domain,
    swap: tuple[str, str, str],
    pairs: Paired,
    named: list[int],
    read: _Read,
    rows: tuple[np.ndarray, np.ndarray, np.ndarray],
    placebos: dict[int, PlaceboDecision] | None,
) -> list[FlippedPair]:
    """The pairs of one swap (category, source, target) whose decision differs. `read`:
    the call's readings; `rows`: the rows of the originals and of the swaps in it, and
    which flipped."""
    original, swapped, flips = rows
    scored = input_scorer(domain)
    before = read.score[original]
    after = read.score[swapped]
    decided = read.favoured[original]
    found = []
    for row in np.flatnonzero(flips):
        k, swapped_input = pairs[row]
        seen = placebos.get(named[k]) if placebos is not None else None
        found.append(
            FlippedPair(
                *swap,
                domain.input(named[k]),
                swapped_input,
                bool(decided[row]),
                float(before[row]),
                float(after[row]),
                None if seen is None else bool(seen.placebo_label != seen.label),
                scored(swapped_input) if scored is not None else None,
            )
        )
    return found
