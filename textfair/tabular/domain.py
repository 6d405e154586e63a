"""TabularDomain: rows of a table as the Domain protocol of discovery.

Exactly what differs from text, and nothing more:

* categories are the sensitive columns;
* a rule is a subset of a categorical feature's values (1 to |L|-1 of them; single values only
  above `max_subset_values` values), or a run of adjacent equal-width bins of a numeric one;
* every row has every sensitive attribute, so a counterfactual over any of them exists;
* rewriting a row to satisfy a rule set sets each sensitive value to one the rule allows
  (kept when it already does; otherwise the first value of the subset, or the middle of the
  run of bins);
* Sample(D, R) is TestSGD's 4.3: a seed row satisfying R with one random non-sensitive
  attribute moved by ±1 (integers), ±0.01 (floats) or to another value (categorical), within
  its domain.

A row is given to the model as a tuple in column order, so it can be cached and compared.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from textfair.core.rules import Rule
from textfair.errors import TextfairError
from textfair.tabular.schema import Feature, Schema

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RowVariant", "TabularDomain"]

# A cell of a user's table, as pandas read it: a string, a number or a bool, compared with
# the values and bounds a rule allows.
Cell = Any


@dataclass(frozen=True)
class RowVariant:
    """A generated row and what was changed to get it."""

    input: tuple
    swaps: tuple = ()
    seed_id: int | None = None


class TabularDomain:
    """Seed rows and the rules, masks and samples discovery needs."""

    def __init__(self, frame: pd.DataFrame, schema: Schema, max_subset_values: int = 6) -> None:
        schema.validate(frame)
        if not schema.sensitive:
            raise TextfairError("no sensitive feature; name at least one sensitive column")
        self.schema = schema
        self.columns = [f.name for f in schema.features]
        self.frame = frame[self.columns].reset_index(drop=True)
        self.rows = [tuple(row) for row in self.frame.itertuples(index=False, name=None)]
        self._position = {name: i for i, name in enumerate(self.columns)}
        self._max_subset = max_subset_values
        self._rules: dict[str, list[Rule]] = {}
        # rule -> set of values, or (low, high, closed) bounds
        self._allowed: dict[Rule, set | tuple[float, float, bool]] = {}
        for feature in schema.sensitive:
            self._rules[feature.name] = self._make_rules(feature)

    def __len__(self) -> int:
        return len(self.rows)

    # --- the Domain protocol ---------------------------------------------------------

    def categories(self) -> list[str]:
        """The sensitive columns."""
        return [f.name for f in self.schema.sensitive]

    def single_rules(self, category: str) -> list[Rule]:
        """Value subsets (categorical) or runs of adjacent bins (numeric) of the column."""
        return list(self._rules[category])

    def support_mask(self, rule_set: tuple[Rule, ...]) -> np.ndarray:
        """Rows satisfying every rule of the set."""
        mask = np.ones(len(self.rows), dtype=bool)
        for rule in rule_set:
            mask &= self._rule_mask(rule)
        return mask

    def category_mask(self, category: str) -> np.ndarray:
        """Every row has every sensitive attribute."""
        return np.ones(len(self.rows), dtype=bool)

    def disjoint(self, first: tuple[Rule, ...], second: tuple[Rule, ...]) -> bool:
        """No row satisfies both: some shared column whose two rules allow no common value."""
        rules = {rule.category: rule for rule in first}
        return any(
            rule.category in rules and not self._overlap(rules[rule.category], rule)
            for rule in second
        )

    def values_of(self, index: int, category: str) -> set[str]:
        """The single-value rule (value, or bin) that row `index` falls in."""
        for rule in self._rules[category]:
            if self._single(rule) and self._satisfies(self.rows[index], rule):
                return {rule.value}
        return set()

    def input(self, index: int) -> tuple:
        """Row `index` as the model sees it."""
        return self.rows[index]

    def seeds_for(self, rule_set: tuple[Rule, ...]) -> np.ndarray:
        """Rows that can be rewritten to satisfy the rule set: all of them."""
        return np.arange(len(self.rows))

    supports_placebo = False
    """Rows have no placebo edit: every value of a row is a feature the model reads, so no
    edit of one is neutral (`Domain.supports_placebo`)."""

    def placebo(self, index: int, categories: Sequence[str]) -> None:
        """None: rows have no placebo edit."""
        return None

    # --- what an audit records of rows (`textfair.auditing.report.AuditedDomain`) ----------

    kind: Literal["rows"] = "rows"
    """The report's kind."""
    settings_not_read = ("terms", "exclude_flags", "templates")
    """Settings report.json does not record for rows: rows have features, not terms or
    templates."""

    def scored_examples(self, examples: Sequence[dict]) -> list[dict]:
        """A finding's examples as they are: rows are not scored."""
        return list(examples)

    def rewrite(self, index: int, rule_set: tuple[Rule, ...]) -> RowVariant:
        """Row `index` with each sensitive value of the rule set's columns made to satisfy it."""
        row = list(self.rows[index])
        swaps = []
        for rule in rule_set:
            position = self._position[rule.category]
            if not self._allowed_value(row[position], rule):
                new = self._representative(rule)
                swaps.append((rule.category, row[position], new))
                row[position] = new
        return RowVariant(tuple(row), tuple(swaps), index)

    def sample(
        self, rule_set: tuple[Rule, ...], n: int, rng: np.random.Generator, negate: bool = False
    ) -> list[RowVariant]:
        """TestSGD 4.3: seeds satisfying R (or not, with `negate`), each with one random
        non-sensitive attribute perturbed within its domain."""
        mask = self.support_mask(rule_set)
        seeds = np.flatnonzero(~mask if negate else mask)
        if len(seeds) == 0:
            side = "outside" if negate else "inside"
            raise TextfairError(f"no row lies {side} the rule set {_label(rule_set)}")
        movable = [f for f in self.schema.features if not f.sensitive]
        variants = []
        for index in rng.choice(seeds, size=n, replace=True):
            row = list(self.rows[int(index)])
            if movable:
                feature = movable[int(rng.integers(len(movable)))]
                position = self._position[feature.name]
                row[position] = _perturb(row[position], feature, rng)
            variants.append(RowVariant(tuple(row), (), int(index)))
        return variants

    def counterfactuals(
        self, index: int, categories: Sequence[str], **_: object
    ) -> list[RowVariant]:
        """Every combination of the chosen sensitive values, except the row's own."""
        options = [self._representatives(c) for c in categories]
        original = self.rows[index]
        variants = []
        for values in itertools.product(*options):
            row = list(original)
            for category, value in zip(categories, values, strict=True):
                row[self._position[category]] = value
            if tuple(row) != original:
                variants.append(RowVariant(tuple(row), (), index))
        return variants

    def sensitive_values(self, category: str) -> list:
        """One value per single rule of the column: each value, or each bin's middle."""
        return self._representatives(category)

    def sensitive_variants(self, row: tuple) -> list[tuple]:
        """The row under every combination of sensitive values (itself included)."""
        positions = [self.columns.index(c) for c in self.categories()]
        out = []
        for values in itertools.product(*(self.sensitive_values(c) for c in self.categories())):
            variant = list(row)
            for position, value in zip(positions, values, strict=True):
                variant[position] = value
            out.append(tuple(variant))
        return out

    def random_rows(self, n: int, rng: np.random.Generator) -> list[tuple]:
        """Rows drawn uniformly from the schema's domain (Aequitas's global search)."""
        columns = []
        for feature in self.schema.features:
            if feature.kind == "categorical":
                values = list(feature.values)
                columns.append([values[i] for i in rng.integers(len(values), size=n)])
            elif feature.kind == "integer":
                low, high = feature.bounds
                columns.append(rng.integers(int(low), int(high) + 1, size=n).tolist())
            else:
                columns.append(rng.uniform(*feature.bounds, size=n).tolist())
        return list(zip(*columns, strict=True))

    # --- rules -------------------------------------------------------------------------

    def _make_rules(self, feature: Feature) -> list[Rule]:
        rules = []
        if feature.kind == "categorical":
            values = list(feature.values)
            sizes = range(1, len(values)) if len(values) <= self._max_subset else [1]
            for size in sizes:
                for subset in itertools.combinations(values, size):
                    rule = Rule(feature.name, "|".join(map(str, subset)))
                    self._allowed[rule] = set(subset)
                    rules.append(rule)
            return rules
        edges = feature.bin_edges(self.schema.bins)
        k = len(edges) - 1
        for start in range(k):
            for end in range(start + 1, k + 1):
                if start == 0 and end == k:
                    continue  # the whole range is no rule
                low, high = float(edges[start]), float(edges[end])
                closed = end == k  # the last bin includes the maximum
                rule = Rule(feature.name, f"[{low:g}, {high:g}{']' if closed else ')'}")
                self._allowed[rule] = (low, high, closed)
                rules.append(rule)
        return rules

    def _single(self, rule: Rule) -> bool:
        allowed = self._allowed[rule]
        if isinstance(allowed, set):
            return len(allowed) == 1
        low, high = self.schema.feature(rule.category).bounds
        width = (high - low) / self.schema.bins
        return abs((allowed[1] - allowed[0]) - width) < 1e-9 * max(1.0, abs(width))

    def _overlap(self, first: Rule, second: Rule) -> bool:
        # Two rules of one column: two sets of values, or two runs of bins.
        a, b = self._allowed[first], self._allowed[second]
        if isinstance(a, set):
            assert isinstance(b, set)
            return bool(a & b)
        assert not isinstance(b, set)
        return a[0] < b[1] and b[0] < a[1]

    def _allowed_value(self, value: Cell, rule: Rule) -> bool:
        allowed = self._allowed[rule]
        if isinstance(allowed, set):
            return value in allowed
        low, high, closed = allowed
        return low <= value < high or (closed and value == high)

    def _satisfies(self, row: tuple, rule: Rule) -> bool:
        return self._allowed_value(row[self._position[rule.category]], rule)

    def _rule_mask(self, rule: Rule) -> np.ndarray:
        column = self.frame[rule.category].to_numpy()
        allowed = self._allowed[rule]
        if isinstance(allowed, set):
            return np.isin(column, list(allowed))
        low, high, closed = allowed
        return (column >= low) & ((column <= high) if closed else (column < high))

    def _representative(self, rule: Rule) -> Cell:
        allowed = self._allowed[rule]
        if isinstance(allowed, set):
            return sorted(allowed, key=str)[0]
        low, high, _ = allowed
        feature = self.schema.feature(rule.category)
        middle = (low + high) / 2
        return round(middle) if feature.kind == "integer" else middle

    def _representatives(self, category: str) -> list:
        return [self._representative(r) for r in self._rules[category] if self._single(r)]


def _perturb(value: Cell, feature: Feature, rng: np.random.Generator) -> Cell:
    if feature.kind == "categorical":
        others = [v for v in feature.values if v != value]
        return others[int(rng.integers(len(others)))] if others else value
    step = 1 if feature.kind == "integer" else 0.01
    moved = value + step * (1 if rng.random() < 0.5 else -1)
    if moved < feature.low or moved > feature.high:
        moved = value - (moved - value)  # bounce back inside the domain
    return type(value)(moved) if feature.kind == "integer" else moved


def _label(rule_set: tuple[Rule, ...]) -> str:
    return "{" + ", ".join(f"{r.category}: {r.value}" for r in rule_set) + "}"
