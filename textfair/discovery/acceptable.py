r"""How much a finding rests on variants a strict reader would reject.

Every finding is the model's reaction to generated variants, and a variant that no longer
says what its seed said (a descriptor that describes no person, a pronoun left behind, a
real person renamed) makes the finding partly about broken inputs. Where the domain scores
its variants (its `acceptability(index, rule_set)`: the probability that a strict reader
accepts one; `scorer`), each finding carries two things beside its estimate:

* ``acceptability``: the mean score of the variants it used;
* ``strict``: the same estimate, with the same estimator and interval, on the seeds whose
  variants all score at least `STRICT_ACCEPTABILITY` (`Strict`).

Nothing is asked of the model again: the strict subset's rows are rows the finding already
read. A finding *holds on high-scoring seeds* when its strict interval lies on the same side
of 0 as its own and rests on at least `min_seeds` seeds (`holds_strictly`); a finding whose
own interval excludes 0 and that does not hold there is flagged in the report.

Why "all" of a seed's variants: a seed enters a paired difference through every variant it
was written to (under R and the assignments outside it), so one broken variant is enough to
make its difference partly about broken inputs. In paired mode, with $d_i$ seed $i$'s
difference, $a_{ik}$ the scores of the variants it compared and $\tau$ the level:

$$S = \{\, i : \min_k a_{ik} \ge \tau \,\}, \qquad
\hat\delta_S = \frac{1}{|S|} \sum_{i \in S} d_i,$$

with `bounded_mean`'s interval over $\{d_i\}_{i \in S}$, as the finding's own over every
$i$. Which seeds are in $S$ depends on the inputs, never on the model's outcomes, so the
interval holds at its confidence for the effect on the high-scoring seeds (a simulation in
tests/unit/discovery/test_acceptable.py checks it). The mean acceptability is the mean of every
$a_{ik}$ the finding read, a seed rewritten to its own term scoring 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import Rule
from textfair.stats import BoundedMean

__all__ = [
    "STRICT_ACCEPTABILITY",
    "Strict",
    "holds_strictly",
    "input_scorer",
    "mean_score",
    "scorer",
    "world_flags",
]

#: The level a variant must score for its seed to count as high-scoring: the probability
#: that a strict reader accepts it (recorded in report.json's ``config``). Chosen at 0.7 when
#: the score rarely went past 0.85; the refit of 2026-11-30, calibrated on the units today's
#: rules write, puts 777 of the tune half's 907 readings at 0.9 or above (cross-validated), so
#: 0.7 now keeps most seeds: a stricter level is a change of every report, not yet made.
STRICT_ACCEPTABILITY = 0.7


@dataclass(frozen=True)
class Strict:
    """A result recomputed on the seeds whose variants all score at least `level`.

    `estimate` is the same quantity as the result's own (a finding's signed difference, a
    term pair's shift against its placebo edit), `ci` its interval by the same method at the
    same confidence, `n` the seeds it rests on (of the result's own), `p_value` the
    estimator's two-sided p-value of no difference on those seeds (NaN where the
    estimator gives none, or where no seed is left).
    """

    level: float
    estimate: float
    ci: tuple[float, float]
    n: int
    p_value: float = math.nan

    @classmethod
    def of(cls, interval: BoundedMean, level: float = STRICT_ACCEPTABILITY) -> Strict:
        """From a `bounded_mean` over the high-scoring seeds (NaN estimate: none)."""
        return cls(
            level, interval.estimate, (interval.low, interval.high), interval.n, interval.p_value
        )


def holds_strictly(ci: tuple[float, float], strict: Strict | None, min_seeds: int) -> bool | None:
    """Whether a result whose own interval is `ci` holds on its high-scoring seeds: its
    strict interval excludes 0 on the same side as `ci`, from at least `min_seeds` seeds.

    None when there is nothing to hold (`ci` contains 0) or nothing to judge by (the domain
    scores no variant: `strict` is None)."""
    if strict is None or ci[0] <= 0 <= ci[1]:
        return None
    if strict.n < min_seeds:
        return False
    low, high = strict.ci
    return bool(low > 0) if ci[0] > 0 else bool(high < 0)


def scorer(domain: Domain) -> Callable[[int, tuple[Rule, ...]], float] | None:
    """The domain's score of a variant, ``score(index, rule_set)`` (None when the domain
    scores none, as for table rows).

    Scoring variants is not part of the `Domain` protocol: a domain that scores them has
    these two methods, and discovery reads them only through `scorer` and `input_scorer`."""
    return getattr(domain, "acceptability", None)


def world_flags(domain: Domain) -> Callable[[int, Sequence[str]], str | None] | None:
    """The domain's WORLD flag of a seed, ``flag(index, categories)``: what its rewrites in
    `categories` rest on where they may be false about a real, named person or work, or
    None (issue 56). None when the domain flags nothing (table rows): a domain that flags
    has ``worlds`` (`textfair.text._world.WorldFlags`)."""
    worlds = getattr(domain, "worlds", None)
    return None if worlds is None else worlds.of


def input_scorer(domain: Domain) -> Callable[[Hashable], float | None] | None:
    """The domain's score of an input it wrote or holds as a seed, ``score(input)`` (None
    for any other input; the function is None when the domain scores none)."""
    return getattr(domain, "acceptability_of", None)


def mean_score(scores: np.ndarray) -> float | None:
    """The mean of the scores observed (NaN: no variant), None when there are none."""
    seen = scores[~np.isnan(scores)]
    return float(seen.mean()) if seen.size else None
