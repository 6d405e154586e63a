"""Aequitas: search for individual discrimination (Udeshi, Arora, Chattopadhyay 2018).

An input x is discriminatory when some x', equal to x except in the sensitive attributes, gets
a different outcome: a different label (``on="label"``) or a favourable probability more than
`gamma` apart (``on="probability"``). Any number of sensitive attributes, any number of values.

* **Global search** draws inputs uniformly from the schema's domain and tests each with every
  combination of sensitive values. The share of discriminatory inputs among them estimates how
  much of the input space is discriminatory (law of large numbers), with a Wilson interval.
* **Local search** perturbs a non-sensitive attribute of a discriminatory input by ±1 step:
  ``random`` picks attribute and direction uniformly; ``semi`` learns the direction per
  attribute from successes; ``fully`` also learns which attributes to perturb.

The reference implementation calls the model once per input. Here each round of perturbations
and all their sensitive variants go to the model in one batch; ``batch_size=1`` runs the same
algorithm one input at a time, for comparison.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from textfair.errors import TextfairError
from textfair.stats import Proportion, proportion

if TYPE_CHECKING:
    from textfair.models.base import Model
    from textfair.tabular.domain import TabularDomain

__all__ = ["SearchResult", "aequitas_search"]

STRATEGIES = ("random", "semi", "fully")
_STEP_UP = 0.1  # how much a success or failure moves a probability before renormalising


@dataclass(frozen=True)
class SearchResult:
    """Discriminatory inputs found, how much was tested, and the global estimate."""

    discriminatory: list[tuple]
    global_tested: int
    global_found: int
    local_tested: int
    local_found: int
    estimate: Proportion
    model_queries: int
    seconds: float

    @property
    def found(self) -> int:
        """Distinct discriminatory inputs."""
        return len(self.discriminatory)

    @property
    def per_second(self) -> float:
        """Distinct discriminatory inputs found per second."""
        return self.found / self.seconds if self.seconds > 0 else float("inf")


def aequitas_search(
    domain: TabularDomain,
    model: Model,
    *,
    favorable: int,
    strategy: str = "fully",
    on: str = "label",
    gamma: float = 0.0,
    global_budget: int = 1000,
    local_budget: int = 2000,
    time_budget: float | None = None,
    batch_size: int = 256,
    confidence: float = 0.95,
    seed: int = 0,
) -> SearchResult:
    """Global then local search; every model call is batched up to `batch_size` inputs."""
    if strategy not in STRATEGIES:
        raise TextfairError(f"unknown strategy {strategy!r}; expected one of {STRATEGIES}")
    if on not in ("label", "probability"):
        raise TextfairError.bad("on", f"{on!r}: expected label or probability")
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    search = _Search(domain, model, favorable, on, gamma, batch_size)
    found: dict[tuple, None] = {}
    global_rows = domain.random_rows(global_budget, rng)
    flags = search.discriminatory(global_rows)
    for row, flag in zip(global_rows, flags, strict=True):
        if flag:
            found.setdefault(row, None)
    global_found = int(sum(flags))
    local_tested = local_found = 0
    movable = [i for i, f in enumerate(domain.schema.features) if not f.sensitive]
    parameter_p = np.full(len(movable), 1.0 / max(len(movable), 1))
    up_p = np.full(len(movable), 0.5)
    while movable and found and local_tested < local_budget:
        if time_budget is not None and time.perf_counter() - started > time_budget:
            break
        pool = list(found)
        size = min(batch_size, local_budget - local_tested)
        seeds = [pool[i] for i in rng.integers(len(pool), size=size)]
        choices = (
            rng.choice(len(movable), size=size, p=parameter_p)
            if strategy == "fully"
            else rng.integers(len(movable), size=size)
        )
        ups = rng.random(size) < (up_p[choices] if strategy != "random" else 0.5)
        candidates = [
            _step(domain, seed_row, movable[c], bool(up))
            for seed_row, c, up in zip(seeds, choices, ups, strict=True)
        ]
        flags = search.discriminatory(candidates)
        local_tested += size
        for candidate, c, up, flag in zip(candidates, choices, ups, flags, strict=True):
            if flag and candidate not in found:
                found[candidate] = None
                local_found += 1
            if strategy != "random":
                # Move the direction towards what worked (or away from what did not).
                target = 1.0 if (flag == bool(up)) else 0.0
                up_p[c] = min(0.95, max(0.05, up_p[c] + _STEP_UP * (target - up_p[c])))
            if strategy == "fully" and flag:
                parameter_p[c] += _STEP_UP
        parameter_p /= parameter_p.sum()
    return SearchResult(
        discriminatory=list(found),
        global_tested=global_budget,
        global_found=global_found,
        local_tested=local_tested,
        local_found=local_found,
        estimate=proportion(global_found, global_budget, confidence),
        model_queries=search.queries,
        seconds=time.perf_counter() - started,
    )


class _Search:
    """Tests inputs for discrimination, batching each input with its sensitive variants."""

    def __init__(
        self,
        domain: TabularDomain,
        model: Model,
        favorable: int,
        on: str,
        gamma: float,
        batch_size: int,
    ) -> None:
        self.model, self.favorable, self.on, self.gamma = model, favorable, on, gamma
        self.batch_size = max(1, batch_size)
        self.variants = domain.sensitive_variants
        self.queries = 0

    def discriminatory(self, rows: list[tuple]) -> list[bool]:
        flags = []
        for begin in range(0, len(rows), self.batch_size):
            batch = rows[begin : begin + self.batch_size]
            expanded = [self.variants(row) for row in batch]
            flat = [v for group in expanded for v in group]
            if self.batch_size == 1:  # one input at a time, as the reference implementation
                probabilities = np.vstack([self.model.predict_proba([v]) for v in flat])
            else:
                probabilities = np.asarray(self.model.predict_proba(flat))
            self.queries += len(flat)
            offset = 0
            for group in expanded:
                block = probabilities[offset : offset + len(group)]
                offset += len(group)
                if self.on == "label":
                    flags.append(bool(len(set(block.argmax(axis=1).tolist())) > 1))
                else:
                    spread = block[:, self.favorable].max() - block[:, self.favorable].min()
                    flags.append(bool(spread > self.gamma))
        return flags


def _step(domain: TabularDomain, row: tuple, position: int, up: bool) -> tuple:
    """Move one non-sensitive attribute one step up or down, staying inside its domain."""
    feature = domain.schema.features[position]
    value = row[position]
    if feature.kind == "categorical":
        values = list(feature.values)
        index = values.index(value) if value in values else 0
        new = values[min(len(values) - 1, index + 1) if up else max(0, index - 1)]
    elif feature.kind == "integer":
        low, high = feature.bounds  # checked when the domain was built
        new = int(min(high, max(low, value + (1 if up else -1))))
    else:
        low, high = feature.bounds
        span = (high - low) / 100 or 0.01
        new = float(min(high, max(low, value + (span if up else -span))))
    changed = list(row)
    changed[position] = new
    return tuple(changed)
