"""Which term each distinct term of a seed text becomes in its counterfactuals: the seed's
slots (one per distinct term, all its mentions changing together) and the assignments of
target terms to them, injective within a category, enumerated or drawn.

Apart from the generators that write the variants (:mod:`textfair.text.generate`) because
the rule-satisfying rewrite (:mod:`textfair.text.rule_satisfying`) reads the same slots.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.random  # numpy loads it on first use: the first text sampled (12 ms)

from textfair.terms import Term
from textfair.text.mentions import Mention

__all__ = ["Slot", "slots_of", "target_assignments"]


@dataclass(frozen=True)
class Slot:
    """A distinct term of the seed text: all its mentions change together."""

    category: str
    source: Term
    mention_indices: tuple[int, ...]


def slots_of(mentions: Sequence[Mention]) -> list[Slot]:
    """One slot per distinct term `mentions` name, in the order first mentioned, with the
    indices of its mentions."""
    by_term: dict[tuple[str, str], list[int]] = {}
    terms: dict[tuple[str, str], Term] = {}
    for index, mention in enumerate(mentions):
        key = (mention.category, mention.term_id)
        by_term.setdefault(key, []).append(index)
        terms[key] = mention.term
    return [Slot(key[0], terms[key], tuple(ix)) for key, ix in by_term.items()]


def target_assignments(
    slots: list[Slot], options: Mapping[str, list[Term]], max_variants: int, seed: int
) -> list[tuple[int, ...]]:
    """Target assignments for the slots, as indices into their category's options.

    Injective within a category, identity excluded: two distinct terms of one category never
    become the same term ("Christians and Muslims" never becomes "Taoists and Taoists"), so
    each variant still names distinct groups.
    """
    per_category: dict[str, list[int]] = {}
    for index, slot in enumerate(slots):
        per_category.setdefault(slot.category, []).append(index)
    sizes = {category: len(options[category]) for category in per_category}
    total = math.prod(math.perm(sizes[c], len(ix)) for c, ix in per_category.items()) - 1
    identity = tuple(
        next(i for i, term in enumerate(options[slot.category]) if term.id == slot.source.id)
        for slot in slots
    )
    if total <= max_variants:
        if len(slots) == 1:  # one term (most texts): every other option, in order
            return [(pick,) for pick in range(sizes[slots[0].category]) if pick != identity[0]]
        return [a for a in _enumerate(len(slots), sizes, per_category) if a != identity]
    rng = np.random.default_rng(seed)
    chosen: dict[tuple[int, ...], None] = {}
    while len(chosen) < max_variants:
        # A batch of uniform injective picks per category: the first k columns of a random
        # permutation of the category's terms, drawn for the whole batch at once.
        batch = 2 * max_variants
        columns = np.empty((batch, len(slots)), dtype=np.int64)
        for category, indices in per_category.items():
            permutations = rng.random((batch, sizes[category])).argsort(axis=1)
            columns[:, indices] = permutations[:, : len(indices)]
        for row in map(tuple, columns.tolist()):
            if row != identity:
                chosen.setdefault(row, None)
                if len(chosen) == max_variants:
                    break
    return list(chosen)


def _enumerate(
    n_slots: int, sizes: Mapping[str, int], per_category: Mapping[str, list[int]]
) -> Iterator[tuple[int, ...]]:
    """Every assignment of `n_slots` slots, injective within each category, in a fixed
    order (the categories' permutations, one after another)."""
    order = [index for indices in per_category.values() for index in indices]
    choices = [itertools.permutations(range(sizes[c]), len(ix)) for c, ix in per_category.items()]
    for combination in itertools.product(*choices):
        assignment = [0] * n_slots
        flat = (pick for group in combination for pick in group)
        for slot_index, pick in zip(order, flat, strict=False):
            assignment[slot_index] = pick
        yield tuple(assignment)
