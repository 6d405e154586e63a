"""TestSGD Alg. 1, FrequentRuleSets, over any Domain, with apriori pruning.

A rule picks one value of one sensitive category (text: one identity term); a rule set picks
at most one rule per category. Its support is the fraction of seed data satisfying every rule
(text: mentioning every category of the set). Support can only fall when a rule is added, so
a level-wise search that never extends an infrequent set finds exactly the rule sets the paper
finds by enumerating all combinations and filtering, with far fewer support computations.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import Rule, RuleSet
from textfair.errors import TextfairError

__all__ = ["MIN_SEEDS", "FrequentRuleSets", "frequent_rule_sets"]

#: The seeds that make a rule set worth testing whatever share of the corpus they are
#: (`frequent_rule_sets`' `min_seeds`). A seed's paired difference lies in [-1, 1], and for
#: decisions that flip on a minority of seeds its standard deviation is at most about 0.5;
#: the interval's half-width is then about $t_{0.975, n-1} \cdot 0.5 / \sqrt{n}$, which is
#: 0.19 (19 points) at $n = 30$: narrow enough to tell a 20-point difference from none,
#: where 10 seeds (32 points) could not. TestSGD's θ, a share of all rows, alone would
#: leave a category of a large corpus, or of a sentence-split one, untested however many
#: texts name it.
MIN_SEEDS = 30


@dataclass(frozen=True)
class FrequentRuleSets:
    """The frequent rule sets with their supports, and how much work the search did."""

    rule_sets: tuple[RuleSet, ...]
    supports: tuple[float, ...]
    support_computations: int
    candidates_without_pruning: int


def frequent_rule_sets(
    domain: Domain,
    *,
    theta: float = 0.05,
    max_order: int = 2,
    categories: Sequence[str] | None = None,
    min_seeds: int | None = None,
) -> FrequentRuleSets:
    """All rule sets of at most `max_order` rules whose support is at least `theta`, or
    that at least `min_seeds` seeds support (None: θ alone, as TestSGD). A count, like a
    share, can only fall when a rule is added, so the apriori pruning still holds."""
    if not 0.0 <= theta <= 1.0:
        raise TextfairError.bad("theta", f"is {theta}; expected a fraction between 0 and 1")
    if max_order < 1:
        raise TextfairError.bad("max_order", f"is {max_order}; expected 1 or more")
    names = list(categories) if categories is not None else domain.categories()
    rules = {name: domain.single_rules(name) for name in names}
    masks: dict[tuple[Rule, ...], np.ndarray] = {}
    found: list[tuple[tuple[Rule, ...], float]] = []
    computations = 0
    level: list[tuple[Rule, ...]] = []
    for name in names:
        for rule in rules[name]:
            mask = domain.support_mask((rule,))
            computations += 1
            if _frequent(mask, theta, min_seeds):
                masks[(rule,)] = mask
                level.append((rule,))
                found.append(((rule,), float(mask.mean())))
    for _ in range(2, max_order + 1):
        if not level:
            break  # nothing frequent to extend: no larger rule set can be frequent either
        next_level = []
        frequent = set(level)
        for left, right in itertools.combinations(level, 2):
            candidate = _join(left, right) or _join(right, left)
            if candidate is None or candidate in masks:
                continue
            # Apriori: every subset one rule smaller must itself be frequent.
            if any(sub not in frequent for sub in _subsets_one_smaller(candidate)):
                continue
            mask = masks[candidate[:-1]] & masks[candidate[-1:]]
            computations += 1
            if _frequent(mask, theta, min_seeds):
                masks[candidate] = mask
                next_level.append(candidate)
                found.append((candidate, float(mask.mean())))
        level = next_level
        if not level:
            break
    unpruned = sum(
        _count_rule_sets([len(rules[n]) for n in combo])
        for order in range(1, min(max_order, len(names)) + 1)
        for combo in itertools.combinations(names, order)
    )
    return FrequentRuleSets(
        rule_sets=tuple(RuleSet(rule_set) for rule_set, _ in found),
        supports=tuple(support for _, support in found),
        support_computations=computations,
        candidates_without_pruning=unpruned,
    )


def _frequent(mask: np.ndarray, theta: float, min_seeds: int | None) -> bool:
    """Support at least θ, or at least `min_seeds` seeds (a domain of no seeds: neither)."""
    if mask.size and mask.mean() >= theta:
        return True
    return min_seeds is not None and int(np.count_nonzero(mask)) >= min_seeds


def _join(left: tuple[Rule, ...], right: tuple[Rule, ...]) -> tuple[Rule, ...] | None:
    """Join two k-sets sharing k-1 rules into a (k+1)-set over distinct categories."""
    if left[:-1] != right[:-1] or left[-1].category >= right[-1].category:
        return None
    return (*left, right[-1])


def _subsets_one_smaller(rule_set: tuple[Rule, ...]) -> list[tuple[Rule, ...]]:
    return [rule_set[:i] + rule_set[i + 1 :] for i in range(len(rule_set))]


def _count_rule_sets(sizes: list[int]) -> int:
    count = 1
    for size in sizes:
        count *= size
    return count
