"""The rows of paired-mode group fairness: which seeds a category combination's rule sets
read, each rewritten to its assignments and scored, and where each rule set stops.

Apart from `paired`, which turns each rule set's rows into its finding: this module decides
what is asked of the model (and in which batches), that one only reads the answers.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import Rule, RuleSet
from textfair.core.seeds import seed_rng
from textfair.discovery._answering_ahead import answering_ahead
from textfair.discovery._sampling import Sampling, seed_order
from textfair.models.base import Model
from textfair.models.decision import Decision, decide
from textfair.settings import MAX_ASSIGNMENTS
from textfair.stats import bounded_mean

__all__ = [
    "BATCH_SEEDS",
    "PairedRows",
    "assignments_per_seed",
    "compared",
    "paired_rows",
    "row_totals",
]

# A rule set's seeds between two checks of its stopping rule (after min_samples). Small, so
# it stops close to where its interval reaches ±error; the rule reads each interval's width, not
# its position, so checking often does not bias coverage (the simulations in tests/ check).
BATCH_SEEDS = 25


def assignments_per_seed(total: int, bound: int = MAX_ASSIGNMENTS) -> int:
    """How many of a category combination's `total` assignments each seed is rewritten to."""
    return min(total, bound)


@dataclass(frozen=True)
class PairedRows:
    """What `paired_rows` rewrites each seed to, for one category combination."""

    domain: Domain
    categories: tuple[str, ...]
    assignments: list[tuple[Rule, ...]]
    column: dict[tuple[Rule, ...], int]
    outside: dict[RuleSet, list[int] | None]
    group: list[RuleSet]
    bound: int
    columns: np.ndarray | None = None
    """A text domain's term column of each assignment's rule per category
    (`TextDomain.assignment_columns`), which rules out the assignments a seed cannot take
    at once; None for a domain of rows."""


def _assignment_picks(
    domain: Domain, index: int, categories: tuple[str, ...], total: int, bound: int
) -> np.ndarray:
    """The assignments seed `index` is rewritten to: all of them up to `bound`, else that
    many drawn without replacement by a generator fixed by the seed's input.

    Why the estimand stays the same: for a rule set R drawn into a seed's sample S, S less R
    is a uniform sample of the other assignments, so the mean outcome over it is unbiased for
    the mean over all of them, and d = y(R) - mean y(S less R) has the full design's
    expectation for that seed. Whether R is drawn does not depend on the model's outcomes,
    so the seeds holding R are a random subset and `bounded_mean` over their d covers the
    same quantity (with fewer seeds, hence a wider interval). The draw depends on the input,
    not on the run's seed: the estimand and every input scored are the same in every run."""
    if total <= bound:
        return np.arange(total)
    rng = seed_rng(domain, index, "assignments", *categories)
    return np.sort(rng.choice(total, bound, replace=False))


def paired_rows(
    plan: PairedRows, model: Model, favorable: int | Decision, sampling: Sampling
) -> tuple[list[dict[int, Hashable]], np.ndarray, dict[RuleSet, np.ndarray], list[int]]:
    """Seeds in the run's order, each rewritten to its assignments and scored, batch by
    batch, until every rule set of the combination has stopped.

    A rule set R reads its own rows only: in the run's order, the distinct seeds that can
    be rewritten to R and to at least one assignment outside it (`compared`). It stops at
    the first of its own checkpoints (min_samples rows of its own, then every BATCH_SEEDS
    more) at which its interval is at most ±error wide, at max_samples rows, or when the
    seeds run out; it keeps exactly the rows up to that point. Which rows R reads and where
    it stops are functions of R's own sequence of rows, so they do not depend on which other
    rule sets are scored beside it (nor on --theta); the rule sets only share the inputs, and
    a seed is scored once for all of them. Each rule set's stopping rule is the one a rule
    set scored alone would use, and reads the same interval as the report.

    Returns per row the inputs by assignment column, the outcome matrix (1/0; NaN where a
    seed's sample or its axis left an assignment out), per rule set the indices of the
    rows it reads, in order, and the seed of each row."""
    confidence, error = sampling.confidence, sampling.error
    min_samples, max_samples = sampling.min_samples, sampling.max_samples
    domain, assignments, column, outside = plan.domain, plan.assignments, plan.column, plan.outside
    everything = seed_order(domain, sampling.seed)
    # Seeds that can be rewritten to satisfy each rule set; a seed is rewritten while one
    # of the rule sets it can take has not stopped.
    eligible = np.zeros((len(plan.group), len(everything)), dtype=bool)
    for k, r in enumerate(plan.group):
        eligible[k, domain.seeds_for(r)] = True
    can_take_one = np.asarray(eligible.any(axis=0), dtype=bool)
    order = everything[can_take_one[everything]]
    total = len(assignments)
    outcomes = np.empty((0, total))  # one row per distinct seed
    variants: list[dict[int, Hashable]] = []  # per row, its inputs by column
    seeds: list[int] = []  # the seed of each row
    seen: set[tuple[tuple[int, Hashable], ...]] = set()
    running = list(range(len(plan.group)))  # rule sets (by position) not yet stopped
    used: dict[RuleSet, np.ndarray] = {}
    checkpoint = {k: min(min_samples, max_samples) for k in running}
    cursor = 0
    # Each rule set's column, looked up once: a rule set's hash and equality are Python
    # calls per rule, and the test below asks them for every running rule set per seed.
    own_column = [column[r] for r in plan.group]
    ahead: dict[int, dict[int, Hashable]] = {}  # rows written while the model answered
    with answering_ahead(model, plan.domain) as pipeline:
        while running and cursor < len(order):
            # The first batch covers min_samples rows (no rule set can stop before), in one
            # model call; then BATCH_SEEDS rows between checks.
            size = max(min_samples, BATCH_SEEDS) if not variants else BATCH_SEEDS
            rows: list[dict[int, Hashable]] = []
            while len(rows) < size and cursor < len(order):
                i = int(order[cursor])
                cursor += 1
                if not eligible[running, i].any():
                    continue  # only stopped rule sets can read it: past their last row
                row = ahead.pop(i, None) or _rewritten(plan, i, total)
                # Seeds that differ only in these categories give the same variants: one case,
                # counted once (else its outcome would be counted as independent evidence).
                key = tuple(row.items())
                # Kept when a rule set still running holds it (its sample of assignments
                # may have left them all out) and it has something to compare with.
                wanted = any(own_column[k] in row for k in running)
                if len(row) > 1 and wanted and key not in seen:
                    seen.add(key)
                    rows.append(row)
                    seeds.append(i)
            if not rows:
                break
            flat = [variant for row in rows for variant in row.values()]
            if pipeline is None:
                answers = model.predict_proba(flat)
            else:  # the next seeds written while the model answers (`_write_ahead`)
                answering = pipeline.submit(model.predict_proba, flat)
                ahead = _write_ahead(plan, order[cursor:], eligible, running, BATCH_SEEDS, total)
                answers = answering.result()
            predicted = decide(favorable, answers)
            block = np.full((len(rows), total), np.nan)
            start = 0
            for position, row in enumerate(rows):
                block[position, list(row)] = predicted[start : start + len(row)]
                start += len(row)
            outcomes = np.vstack([outcomes, block])
            variants += rows
            totals = row_totals(outcomes)
            for k in list(running):
                r = plan.group[k]
                held, d, _ = compared(outcomes, own_column[k], outside[r], totals)
                stop = _stopping_point(
                    d, checkpoint, k, min_samples, max_samples, confidence, error
                )
                if stop is not None:
                    used[r] = held[:stop]
                    running.remove(k)
    totals = row_totals(outcomes)
    for k in running:  # the seeds ran out first: every row it holds
        r = plan.group[k]
        used[r] = compared(outcomes, column[r], outside[r], totals)[0][:max_samples]
    return variants, outcomes, used, seeds


def _write_ahead(
    plan: PairedRows,
    upcoming: np.ndarray,
    eligible: np.ndarray,
    running: list[int],
    count: int,
    total: int,
) -> dict[int, dict[int, Hashable]]:
    """The next `count` seeds of `upcoming` that a running rule set may read, each rewritten
    (`_rewritten`'s row, by seed): the loop takes them as written. What the loop keeps and
    asks is unchanged (it decides as before); only when the writing happens moves."""
    written: dict[int, dict[int, Hashable]] = {}
    for index in upcoming:
        if len(written) >= count:
            break
        if eligible[running, int(index)].any():
            written[int(index)] = _rewritten(plan, int(index), total)
    return written


def _rewritten(plan: PairedRows, index: int, total: int) -> dict[int, Hashable]:
    """Seed `index` rewritten to each of its assignments, by column. An assignment the
    seed may not take (another axis, a clash) is left out of its row, as one its sample
    did not draw."""
    picks = _assignment_picks(plan.domain, index, plan.categories, total, plan.bound)
    write = getattr(plan.domain, "rewrite_input", None)
    taken = getattr(plan.domain, "assignments_taken", None)
    if taken is not None and plan.columns is not None:
        # Most picks a seed cannot take (another axis, a term it may not become): ruled
        # out at once, for all of them, where asking each gave None after a rewrite's checks.
        picks = picks[taken(index, plan.categories, plan.columns)[picks]]
    if write is not None:  # a text domain's inputs, without a Variant each
        return {
            int(k): text for k in picks if (text := write(index, plan.assignments[k])) is not None
        }
    return {
        int(k): v.input
        for k in picks
        if (v := plan.domain.rewrite(index, plan.assignments[k])) is not None
    }


def _stopping_point(
    d: np.ndarray,
    checkpoint: dict[int, int],
    k: int,
    min_samples: int,
    max_samples: int,
    confidence: float,
    error: float,
) -> int | None:
    """The number of rows at which rule set `k` stops, reading its differences `d` so far
    at its own checkpoints (`checkpoint[k]`, advanced here); None while it goes on."""
    while checkpoint[k] <= len(d):
        n = checkpoint[k]
        if n >= max_samples:
            return max_samples
        if bounded_mean(d[:n], confidence=confidence).half_width <= error:
            return n
        checkpoint[k] = min(n + BATCH_SEEDS, max_samples)
    return None


def compared(
    matrix: np.ndarray,
    j: int,
    others: list[int] | None,
    totals: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per seed holding R (column j) and at least one assignment outside it: its outcome
    under R minus the mean outcome under the assignments that do not satisfy R (`others`;
    None: every other column) that the seed was rewritten to. `totals` are
    `row_totals(matrix)`, computed once per matrix.

    Returns the rows compared (indices, in order), their differences, and how many
    outcomes outside R each averaged (fewer than all where a seed's axis or a clash rules
    some out, or its sample left them out)."""
    rows = ~np.isnan(matrix[:, j])
    y = np.where(rows, matrix[:, j], 0.0)
    if others is None:
        sums, counts = totals
        rest_sum, rest_count = sums - y, counts - rows
    else:
        rest = matrix[:, others]
        observed = ~np.isnan(rest)
        rest_sum, rest_count = np.where(observed, rest, 0.0).sum(axis=1), observed.sum(axis=1)
    held = np.flatnonzero(rows & (rest_count > 0))
    return held, y[held] - rest_sum[held] / rest_count[held], rest_count[held]


def row_totals(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the sum of the outcomes observed, and how many there are."""
    observed = ~np.isnan(matrix)
    return np.where(observed, matrix, 0.0).sum(axis=1, dtype=float), observed.sum(axis=1)
