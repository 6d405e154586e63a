"""Placebo edits in Themis: each seed's placebo edit (`Domain.placebo`), remembered for the
run, and the model's decisions on it beside the seed's.

An identity edit's flip rate says little alone: a model may react to any edit (a new token,
a longer input). Each finding of Themis is therefore set beside the flip rate of an edit at
the same place that keeps every identity (`results.Excess`). This module is what the causal
test, the group score and the term pairs share of it; a domain without placebo edits
(`Domain.supports_placebo` False) is never asked for one.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from textfair.core.domain import Domain
from textfair.models.cached import CachedModel
from textfair.models.decision import Decision, decide, favourable_score, outcomes

__all__ = [
    "PlaceboDecision",
    "PlaceboMemo",
    "placebo_decisions",
    "placebo_edits",
    "placebo_input",
    "with_placebos",
]

#: Each seed's placebo edit per (seed, categories), or None where it has none: this run's.
PlaceboMemo = dict[tuple[int, tuple[str, ...]], Hashable | None]


@dataclass(frozen=True)
class PlaceboDecision:
    """A seed's decision and its placebo edit's: label, favourable or not, and score."""

    label: object
    placebo_label: object
    favoured: bool
    placebo_favoured: bool
    placebo_score: float


def with_placebos(
    model: CachedModel, inputs: list[Hashable], placebos: list[Hashable]
) -> np.ndarray:
    """The model's answers for `inputs`, then `placebos`, in one call; the placebo edits'
    queries are counted as their own stage ("placebo"), so their cost is stated apart."""
    model.prefetch(inputs, {"placebo": placebos})
    return np.asarray(model.predict_proba(inputs + placebos))


def placebo_input(
    domain: Domain, index: int, categories: tuple[str, ...], memo: PlaceboMemo
) -> Hashable | None:
    """The placebo edit of seed `index` over `categories` (remembered for the run)."""
    key = (index, categories)
    if key not in memo:
        variant = domain.placebo(index, categories)
        memo[key] = variant.input if variant is not None else None
    return memo[key]


def placebo_edits(
    domain: Domain, seeds: Sequence[int], category: str, memo: PlaceboMemo
) -> dict[int, Hashable] | None:
    """Per seed of the category that has one, its placebo edit (None: no placebo edits)."""
    if not domain.supports_placebo:
        return None
    return {i: t for i in seeds if (t := placebo_input(domain, i, (category,), memo)) is not None}


def placebo_decisions(
    domain: Domain,
    model: CachedModel,
    favorable: int | Decision,
    seeds: Sequence[int],
    edits: dict[int, Hashable] | None,
) -> dict[int, PlaceboDecision] | None:
    """Per seed of the category: its decision, and its placebo edit's decision and favourable
    score (None without placebo edits). One model call for all of them."""
    if edits is None:
        return None
    originals = [domain.input(i) for i in seeds]
    answers = with_placebos(model, originals, list(edits.values()))
    if not len(answers):
        return {}
    label = outcomes(favorable, answers)
    favoured = decide(favorable, answers)
    score = favourable_score(favorable, answers)
    at = {i: k for k, i in enumerate(seeds)}
    return {
        i: PlaceboDecision(
            label[at[i]],
            label[len(seeds) + k],
            favoured[at[i]],
            favoured[len(seeds) + k],
            float(score[len(seeds) + k]),
        )
        for k, i in enumerate(edits)
    }
