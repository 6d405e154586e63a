"""TestSGD Alg. 1, FrequentRuleSets, over any Domain, with apriori pruning.

A rule picks one value of one sensitive category (text: one identity term); a rule set picks
at most one rule per category. Its support is the fraction of seed data satisfying every rule
(text: mentioning every category of the set). Support can only fall when a rule is added, so
a level-wise search that never extends an infrequent set finds exactly the rule sets the paper
finds by enumerating all combinations and filtering, with far fewer support computations.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from textfair.errors import TextfairError

__all__ = ["Domain", "FrequentRuleSets", "Rule", "RuleSet", "frequent_rule_sets"]


@dataclass(frozen=True, order=True)
class Rule:
    """One sensitive category and the value it takes (text: a term id)."""

    category: str
    value: str


class RuleSet(tuple[Rule, ...]):
    """At most one rule per category: the one representation of a rule set, for text and
    rows alike. A tuple, so discovery hashes, orders and indexes rule sets as it always did;
    these methods are the only place a rule set is shown, written or read back.

    In a report, a text rule set is written ``[{"category": c, "term": t}, ...]`` and a row
    rule set ``[{"feature": f, "values": v}, ...]``; `kind` says which ("text" or "rows").
    """

    __slots__ = ()

    def __new__(cls, rules=()) -> RuleSet:
        return super().__new__(cls, rules)

    def label(self, kind: str = "text") -> str:
        """For people: {"gay", "taoist"} for text, {sex ∈ Female, race ∈ Black} for rows."""
        if kind == "text":
            return "{" + ", ".join(f'"{rule.value}"' for rule in self) + "}"
        return "{" + ", ".join(f"{rule.category} ∈ {rule.value}" for rule in self) + "}"

    @property
    def key(self) -> str:
        """A stable one-line name, "gender=gay & religion=taoist", for files and tables."""
        return " & ".join(f"{rule.category}={rule.value}" for rule in self)

    def to_records(self, kind: str = "text") -> list[dict[str, str]]:
        """The rule set as report.json writes it."""
        first, second = _RECORD_KEYS[kind]
        return [{first: rule.category, second: rule.value} for rule in self]

    @classmethod
    def from_records(cls, records, kind: str = "text") -> RuleSet:
        """Read back what `to_records` wrote."""
        first, second = _RECORD_KEYS[kind]
        return cls(Rule(str(item[first]), str(item[second])) for item in records)


_RECORD_KEYS = {"text": ("category", "term"), "rows": ("feature", "values")}


class Domain(Protocol):
    """What discovery needs from data; text and tabular domains implement it the same way.

    A seed is one input of the data (a text, a row), addressed by its index. A rule set is
    any tuple of rules: discovery builds plain tuples, a report holds RuleSets."""

    def categories(self) -> list[str]:
        """The sensitive categories (identity categories, sensitive columns)."""
        ...

    def single_rules(self, category: str) -> list[Rule]:
        """One rule per value a category can take."""
        ...

    def support_mask(self, rule_set: tuple[Rule, ...]) -> np.ndarray:
        """Seeds that can be rewritten to satisfy the rule set."""
        ...

    def category_mask(self, category: str) -> np.ndarray:
        """Seeds that can be rewritten in this category."""
        ...

    def seeds_for(self, rule_set: tuple[Rule, ...]) -> np.ndarray:
        """Indices of the seeds in `support_mask`."""
        ...

    def disjoint(self, first: tuple[Rule, ...], second: tuple[Rule, ...]) -> bool:
        """No input satisfies both rule sets."""
        ...

    def input(self, index: int) -> Hashable:
        """Seed `index` as the model sees it."""
        ...

    def rewrite(self, index: int, rule_set: tuple[Rule, ...]):
        """Seed `index` rewritten to satisfy the rule set (a Variant), or None."""
        ...

    def values_of(self, index: int, category: str) -> set[str]:
        """The values seed `index` has in a category."""
        ...

    def sample(
        self, rule_set: tuple[Rule, ...], n: int, rng: np.random.Generator, negate: bool = False
    ):
        """TestSGD's Sample(D, R) (or Sample(D, not R)): `n` rewritten seeds."""
        ...


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
) -> FrequentRuleSets:
    """All rule sets of at most `max_order` rules whose support is at least `theta`."""
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
            if mask.mean() >= theta:
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
            if mask.mean() >= theta:
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
