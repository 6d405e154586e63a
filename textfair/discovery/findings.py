"""A rule set's group fairness finding (TestSGD Alg. 2's result), and the order findings are
ranked in.

Findings are ranked by what is credible: first by `credible_bound`, the end of the interval
nearest zero (0 when the interval contains 0), in absolute value, then by score. A rule set
seen on 17 seeds with a large point estimate and an interval reaching down to 0.007 ranks
below one seen on 65 seeds whose interval is [0.12, 0.36].

Apart from `groups`, which computes findings: the report, the mitigations and the
comparisons read and rank them without it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from textfair.core.rules import RuleSet
from textfair.discovery.acceptable import Strict

__all__ = ["GroupFinding", "by_credibility", "credible_bound"]


@dataclass(frozen=True)
class GroupFinding:
    """The score of one rule set, its interval and significance, with example pairs."""

    rule_set: RuleSet
    phi_r: float
    phi_not_r: float
    score: float
    margin: float
    ci: tuple[float, float]
    p_value: float
    n_r: int
    n_not_r: int
    support: float
    p_adjusted: float = math.nan
    significant: bool = False
    examples: list[dict] = field(default_factory=list)
    acceptability: float | None = None
    """The mean acceptability of the variants the finding used (None: the domain scores
    none, as for table rows; see :mod:`textfair.discovery.acceptable`)."""
    strict: Strict | None = None
    """The signed difference and its interval, by the same method, on the seeds whose
    variants all score at least `STRICT_ACCEPTABILITY` (None where `acceptability` is)."""
    world: int | None = None
    """Of its `n_r` seeds (paper mode: draws under R), those whose variants rest on a real,
    named person or work (WORLD, issue 56: coherent, possibly false about them, a valid test
    counted apart); None where the domain flags none (table rows, reports before it)."""
    seeds: tuple[int, ...] = field(default=(), repr=False)
    """Paired mode: the seeds the finding read, in the run's order (a seed's index in the
    domain), each a row of `differences`; empty in paper mode."""
    differences: tuple[float, ...] = field(default=(), repr=False)
    """Paired mode: each seed's difference d = y(R) - mean y(not R), in [-1, 1]: what two
    versions of a model audited on the same corpus and seed are compared on, seed by seed
    (`textfair.report.versions`)."""

    @property
    def credible_bound(self) -> float:
        """The end of the interval nearest zero, signed; 0 when the interval contains 0."""
        return credible_bound(self.ci)

    @property
    def difference(self) -> float:
        """phi_r − phi_not_r, signed: negative when the rule set's inputs fare worse. TestSGD's
        `score` is its absolute value; `ci` is its interval."""
        return self.phi_r - self.phi_not_r


def credible_bound(ci: tuple[float, float]) -> float:
    """The smallest difference an interval supports: its end nearest zero, or 0 inside it."""
    low, high = ci
    if low > 0:
        return low
    if high < 0:
        return high
    return 0.0


def by_credibility(finding: GroupFinding) -> tuple[float, float, RuleSet]:
    """Sort key: most credible first (|credible_bound|), then larger score, then the rules."""
    return (-abs(finding.credible_bound), -finding.score, finding.rule_set)
