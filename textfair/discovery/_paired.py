"""Paired-mode group fairness findings: each rule set's rows (`paired_rows`) read as its
finding — the seed-level differences d = y(R) - mean y(not R), their `bounded_mean`
interval, TestSGD's margin, examples, and the estimate on the high-scoring seeds.

Apart from `paired_rows`, which decides what is asked of the model: this module asks nothing
and only reads the answers.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import Rule, RuleSet
from textfair.discovery._sampling import Sampling
from textfair.discovery.acceptable import (
    STRICT_ACCEPTABILITY,
    Strict,
    mean_score,
    scorer,
    world_flags,
)
from textfair.discovery.findings import GroupFinding
from textfair.discovery.paired_rows import PairedRows, compared, paired_rows, row_totals
from textfair.models.base import Model
from textfair.models.decision import Decision
from textfair.stats import Proportion, bounded_mean, proportion, testsgd_margin

__all__ = ["paired_findings"]


def paired_findings(
    domain: Domain,
    model: Model,
    categories: tuple[str, ...],
    group: list[RuleSet],
    support_of: dict[RuleSet, float],
    favorable: int | Decision,
    sampling: Sampling,
    n_examples: int,
    bound: int,
) -> list[GroupFinding]:
    """All rule sets over `categories`, from the same seeds rewritten to every assignment
    (or, past `bound` of them, to a sample per seed: see `paired_rows`). Each rule
    set's finding reads only its own rows (`paired_rows`), so it is the same whichever
    other rule sets are scored beside it."""
    options = [[r.value for r in domain.single_rules(c)] for c in categories]
    assignments = [
        tuple(Rule(c, v) for c, v in zip(categories, values, strict=True))
        for values in itertools.product(*options)
    ]
    column = {a: i for i, a in enumerate(assignments)}
    # "Not R": the assignments that cannot satisfy R. Where each category's values exclude
    # each other (a text's terms), that is every other assignment (None: no list of 10,000
    # columns per rule set); for rows, rules over a column may overlap ({Black} and
    # {Black, Other}), so they are listed.
    outside: dict[RuleSet, list[int] | None]
    if all(_values_exclusive(domain, category) for category in categories):
        outside = dict.fromkeys(group)
    else:
        outside = {
            r: [i for i, a in enumerate(assignments) if domain.disjoint(a, r)] for r in group
        }
    columns = getattr(domain, "assignment_columns", None)
    plan = PairedRows(
        domain,
        categories,
        assignments,
        column,
        outside,
        group,
        bound,
        columns(assignments) if columns is not None else None,
    )
    variants, matrix, used, seeds = paired_rows(plan, model, favorable, sampling)
    scores = _row_scores(domain, assignments, variants, seeds, used.values())
    flag = world_flags(domain)
    # Once per group, read per rule set: each row's WORLD flag (the seed's) and totals.
    flagged = (
        None
        if flag is None
        else np.array([flag(s, categories) is not None for s in seeds], dtype=bool)
    )
    sums, counts = row_totals(matrix)
    findings = []
    for rule_set in group:
        rows = used[rule_set]
        if len(rows) == 0:
            continue  # no seed's sample of assignments held R (reported as not reached)
        own = matrix[rows]
        j = column[rule_set]
        held, d, outside_counts = compared(own, j, outside[rule_set], (sums[rows], counts[rows]))
        n = len(d)
        interval = bounded_mean(d, confidence=sampling.confidence)
        mean = interval.estimate
        phi_r = float(own[:, j].mean())
        phi_not_r = phi_r - mean
        first = _counts(phi_r, n)
        second = _counts(phi_not_r, n)
        acceptability, strict = (
            _strict_paired(
                scores[used[rule_set]][held], d, j, outside[rule_set], sampling.confidence
            )
            if scores is not None
            else (None, None)
        )
        findings.append(
            GroupFinding(
                rule_set=rule_set,
                phi_r=phi_r,
                phi_not_r=phi_not_r,
                score=abs(mean),
                margin=testsgd_margin(first, second),
                ci=(interval.low, interval.high),
                p_value=interval.p_value,
                n_r=n,
                n_not_r=int(outside_counts.sum()),
                support=support_of[rule_set],
                examples=_paired_examples(
                    [variants[i] for i in used[rule_set]], own, j, n_examples
                ),
                acceptability=acceptability,
                strict=strict,
                world=None if flagged is None else int(flagged[rows[held]].sum()),
                seeds=tuple(int(seeds[row]) for row in used[rule_set][held]),
                differences=tuple(float(x) for x in d),
            )
        )
    return findings


def _row_scores(
    domain: Domain,
    assignments: list[tuple[Rule, ...]],
    variants: list[dict[int, Hashable]],
    seeds: list[int],
    used: Iterable[np.ndarray],
) -> np.ndarray | None:
    """The acceptability of each variant of the rows some rule set reads (NaN elsewhere,
    and where a row has no variant); None when the domain scores none. Rows no rule set
    reads are not scored: their scores would never be read."""
    score = scorer(domain)
    if score is None:
        return None
    scores = np.full((len(variants), len(assignments)), np.nan)
    rows = sorted({int(r) for u in used for r in u})
    for row in rows:
        for k in variants[row]:
            scores[row, k] = score(seeds[row], assignments[k])
    return scores


def _strict_paired(
    scores: np.ndarray, d: np.ndarray, j: int, others: list[int] | None, confidence: float
) -> tuple[float | None, Strict]:
    """A paired finding's mean acceptability and `Strict` result. `scores` are the
    acceptabilities of its rows (NaN: no variant), `d` their differences, `others` the
    columns outside R (None: every other column). A row is high-scoring when every variant
    its difference reads (under R and outside it) scores at least STRICT_ACCEPTABILITY; the
    strict result is `bounded_mean` over those rows' differences, as the finding's own."""
    read = scores.copy()
    if others is not None:
        keep = np.zeros(scores.shape[1], dtype=bool)
        keep[[j, *others]] = True
        read[:, ~keep] = np.nan
    passed = np.where(np.isnan(read), True, read >= STRICT_ACCEPTABILITY).all(axis=1)
    return mean_score(read), Strict.of(bounded_mean(d[passed], confidence=confidence))


def _values_exclusive(domain: Domain, category: str) -> bool:
    """Whether no input satisfies two different rules of `category` (two terms of a text's
    category; for rows, bins that do not overlap). A domain whose `disjoint` says so of any
    two values (`values_exclusive`: text domains) skips the check of every pair, which for a
    3,000-term category is 4.5 million calls."""
    if getattr(domain, "values_exclusive", False):
        return True
    rules = domain.single_rules(category)
    return all(
        domain.disjoint(RuleSet((first,)), RuleSet((second,)))
        for first, second in itertools.combinations(rules, 2)
    )


def _counts(rate: float, n: int) -> Proportion:
    """A rate over `n` seeds as a proportion of whole seeds (for TestSGD's margin)."""
    return proportion(round(min(max(rate, 0.0), 1.0) * n), n)


def _paired_examples(
    variants: list[dict[int, Hashable]], matrix: np.ndarray, j: int, n_examples: int
) -> list[dict]:
    """Seeds where the outcome under R differs from some other assignment."""
    examples = []
    # Which seeds have any outcome unlike R's, in one array operation: a superset (columns a
    # seed lacks count too), which spares looking element by element at the seeds where
    # every outcome agrees — most of them, and every one under a fair model.
    may_differ = (matrix != matrix[:, [j]]).any(axis=1) if len(variants) else []
    for row, outcome, candidate in zip(variants, matrix, may_differ, strict=True):
        if not candidate or j not in row:
            continue
        differs = [k for k in row if outcome[k] != outcome[j]]
        if differs:
            k = differs[0]
            examples.append(
                {
                    "text": row[j],
                    "favorable": bool(outcome[j]),
                    "counterfactual": row[k],
                    "counterfactual_favorable": bool(outcome[k]),
                }
            )
        if len(examples) == n_examples:
            break
    return examples
