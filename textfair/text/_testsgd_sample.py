"""TestSGD's Sample(D, R) over a text domain: seeds drawn with replacement and rewritten.

Apart from `TextDomain`, which reads and rewrites: this module only draws (the paper's
sampling mode, `--mode paper`; the paired mode reads seeds in the run's order instead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from textfair.core.rules import Rule
from textfair.errors import TextfairError
from textfair.text.variants import Variant

if TYPE_CHECKING:
    from textfair.text.domain import TextDomain

__all__ = ["testsgd_sample"]


def testsgd_sample(
    domain: TextDomain,
    rule_set: tuple[Rule, ...],
    n: int,
    rng: np.random.Generator,
    negate: bool = False,
) -> list[Variant]:
    """TestSGD's Sample(D, R), or Sample(D, not R) with `negate`: `n` seeds drawn with
    replacement among texts mentioning R's categories, rewritten to R's terms, or each to
    another assignment of terms of the same categories (a uniform draw among those other
    than R); a seed that cannot take the assignment drawn gives no variant."""
    seeds = domain.seeds_for(rule_set)
    if len(seeds) == 0:
        raise TextfairError(f"no seed text mentions every category of {_label(rule_set)}")
    picks = rng.choice(seeds, size=n, replace=True)
    if not negate:
        return [v for i in picks if (v := domain.rewrite(int(i), rule_set)) is not None]
    others = []
    for i in picks:
        variant = domain.rewrite(int(i), _other_assignment(domain, rule_set, rng))
        if variant is not None:
            others.append(variant)
    return others


def _other_assignment(
    domain: TextDomain, rule_set: tuple[Rule, ...], rng: np.random.Generator
) -> tuple[Rule, ...]:
    """A uniform draw among the assignments of R's categories other than R itself."""
    while True:
        other = tuple(
            Rule(rule.category, _random_term(domain, rule.category, rng)) for rule in rule_set
        )
        if other != rule_set:
            return other


def _random_term(domain: TextDomain, category: str, rng: np.random.Generator) -> str:
    rules = domain.single_rules(category)
    return rules[int(rng.integers(len(rules)))].value


def _label(rule_set: tuple[Rule, ...]) -> str:
    return "{" + ", ".join(f"{r.category}: {r.value}" for r in rule_set) + "}"
