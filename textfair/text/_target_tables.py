"""Which terms each seed may become, per category, as tables: the few distinct sets of
allowed targets (axes, clashes), kept once each, with a boolean row over the category's
terms, and each seed's set.

Apart from the domain (:mod:`textfair.text.domain`) because they are built once, from every
seed's plans, when the reading is done; the domain's support masks, counts and rewrites only
look them up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import NamedTuple

import numpy as np

from textfair.terms import TermList
from textfair.text._coherence import CategoryPlan

__all__ = ["TargetTables", "target_tables"]


class TargetTables(NamedTuple):
    """Per category: the distinct target sets, each seed's set, and the sets' rows."""

    sets: dict[str, list[frozenset[str]]]
    """The distinct sets of terms a seed may become (its own terms included)."""
    set_of: dict[str, np.ndarray]
    """Each seed's place in `sets` (-1: it takes no part in the category's rows)."""
    table: dict[str, np.ndarray]
    """One boolean row per set, one column per term of the category (in the list's order)."""


def target_tables(
    plans: Sequence[dict[str, CategoryPlan]],
    terms: Sequence[Mapping[str, AbstractSet[str]]],
    categories: Sequence[str],
    term_list: TermList,
) -> TargetTables:
    """The target tables of seeds with these `plans` (per seed and category) and `terms`
    (per seed and category, the terms it names), over `categories` of `term_list`."""
    # Which terms each seed may become, per category: a few distinct sets (axes, clashes),
    # kept once each, with a boolean row over the category's terms.
    target_sets: dict[str, list[frozenset[str]]] = {c: [] for c in categories}
    target_set_of = {c: np.full(len(plans), -1) for c in categories}
    interned: dict[tuple[str, frozenset[str]], int] = {}
    for i, by_category in enumerate(plans):
        for c, plan in by_category.items():
            if c not in target_set_of or plan.left_out is not None:
                continue
            allowed = plan.targets | terms[i][c]
            key = (c, allowed)
            if key not in interned:
                interned[key] = len(target_sets[c])
                target_sets[c].append(allowed)
            target_set_of[c][i] = interned[key]
    table = {
        c: np.array(
            [[t.id in allowed for t in term_list.categories[c]] for allowed in sets],
            dtype=bool,
        ).reshape(len(sets), len(term_list.categories[c]))
        for c, sets in target_sets.items()
    }
    return TargetTables(target_sets, target_set_of, table)
