"""The Domain protocol: what discovery needs from data, implemented by the text and the
tabular domains alike."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

import numpy as np

from textfair.core.rules import Rule

__all__ = ["Domain", "Rewritten"]


class Rewritten(Protocol):
    """A seed rewritten by a domain (a text's `Variant`, a `RowVariant`): what discovery
    reads of it is what the model is given."""

    @property
    def input(self) -> Hashable:
        """The rewritten seed as the model sees it."""
        ...


class Domain(Protocol):
    """What discovery needs from data; text and tabular domains implement it the same way.

    A seed is one input of the data (a text, a row), addressed by its index. A rule set is
    any tuple of rules: discovery builds plain tuples, a report holds RuleSets."""

    @property
    def supports_placebo(self) -> bool:
        """Whether `placebo` writes edits. Where it does (text: a neutral word before each
        mention), Themis sets each finding's flip rate beside the placebo edit's (`Excess`);
        a domain without placebo edits (table rows) says False here, its `placebo` returns
        None, and discovery then neither asks for placebo edits nor scores anything for
        them."""
        ...

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

    def rewrite(self, index: int, rule_set: tuple[Rule, ...]) -> Rewritten | None:
        """Seed `index` rewritten to satisfy the rule set, or None."""
        ...

    def placebo(self, index: int, categories: Sequence[str]) -> Rewritten | None:
        """Seed `index` with an edit at the place of its identity swaps over `categories`
        that keeps every identity (what a model that reacts to any edit shows), or None:
        the seed has none, or the domain has no placebo edits (`supports_placebo`)."""
        ...

    def values_of(self, index: int, category: str) -> set[str]:
        """The values seed `index` has in a category."""
        ...

    def sample(
        self, rule_set: tuple[Rule, ...], n: int, rng: np.random.Generator, negate: bool = False
    ) -> Sequence[Rewritten]:
        """TestSGD's Sample(D, R) (or Sample(D, not R)): `n` rewritten seeds."""
        ...
