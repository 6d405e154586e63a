"""The Domain protocol: what discovery needs from data, implemented by the text and the
tabular domains alike."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar

import numpy as np

from textfair.core.rules import Rule

__all__ = ["Domain", "Rewritten"]

# What the model sees of a seed: a text (str) in the text domain, a row (tuple) in tables.
Input = TypeVar("Input", bound=Hashable, covariant=True)


class Rewritten(Protocol[Input]):
    """A seed rewritten to satisfy a rule set (a text's Variant, a table's RowVariant): what
    discovery reads of it."""

    @property
    def input(self) -> Input:
        """The rewritten seed as the model sees it."""
        ...


class Domain(Protocol[Input]):
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

    def input(self, index: int) -> Input:
        """Seed `index` as the model sees it."""
        ...

    def rewrite(self, index: int, rule_set: tuple[Rule, ...]) -> Rewritten[Input] | None:
        """Seed `index` rewritten to satisfy the rule set (a Variant), or None."""
        ...

    def values_of(self, index: int, category: str) -> set[str]:
        """The values seed `index` has in a category."""
        ...

    def sample(
        self, rule_set: tuple[Rule, ...], n: int, rng: np.random.Generator, negate: bool = False
    ) -> Sequence[Rewritten[Input]]:
        """TestSGD's Sample(D, R) (or Sample(D, not R)): `n` rewritten seeds."""
        ...
