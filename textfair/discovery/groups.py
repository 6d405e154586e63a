"""TestSGD Alg. 2: the group fairness score of each rule set, with honest intervals.

For a rule set R, phi_r is the rate of the favourable outcome on inputs satisfying R and
phi_not_r the rate on inputs that do not; the score is |phi_r - phi_not_r|.

* ``mode="paired"`` (default): the same seed texts are rewritten to R's terms and to every
  other assignment of terms of R's categories, so the identity terms are the only difference
  between the two sides. Per seed, d = y(R) - mean y(not R) in [-1, 1]; the score is |mean d|
  and its interval is `bounded_mean`'s over the seeds (one value per seed, since the variants
  of one seed are correlated), which holds its coverage when only a few seeds vary. All rule
  sets over the same categories share these texts, so each distinct text is scored once for
  the whole run.
* ``mode="paper"``: as TestSGD — x from Sample(D, R), x' from Sample(D, not R), independent;
  Newcombe's interval for the difference of two proportions, and TestSGD's margin.

Seeds are processed in batches; a category combination stops when every rule set over it has
an interval at most ±`error` wide (after `min_samples` seeds), or at `max_samples`. The
stopping rule reads the same interval as the report, so it cannot stop on a falsely narrow
one. Significance is corrected over all rule sets tested (Holm by default).

Findings are ranked by what is credible: first by `credible_bound`, the end of the interval
nearest zero (0 when the interval contains 0), in absolute value, then by score. A rule set
seen on 17 seeds with a large point estimate and an interval reaching down to 0.007 ranks
below one seen on 65 seeds whose interval is [0.12, 0.36].
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from textfair.discovery.rulesets import Domain, Rule, RuleSet
from textfair.discovery.sampling import Sampling, batches, seed_order, seed_rng
from textfair.errors import TextfairError
from textfair.models.base import Model
from textfair.models.decision import Decision, decide
from textfair.stats import (
    adjust,
    bounded_mean,
    difference,
    proportion,
    should_stop,
    testsgd_margin,
    two_proportion_p_value,
)

__all__ = [
    "MAX_ASSIGNMENTS",
    "GroupFinding",
    "assignments_per_seed",
    "by_credibility",
    "credible_bound",
    "group_fairness",
]

# Seeds between two checks of the stopping rule (after min_samples). Small, so a category
# stops close to where its intervals reach ±error; the rule reads each interval's width, not
# its position, so checking often does not bias coverage (the simulations in tests/ check).
BATCH_SEEDS = 25
# Assignments per seed at most. Two HolisticBias axes of 100 descriptors make 10,000
# assignments; past this bound each seed is rewritten to a sample of them (fixed by its text).
# Every pair of dixon2018 categories (at most 17 x 16 = 272) stays exhaustive.
MAX_ASSIGNMENTS = 512
PAPER_BATCH = 100  # pairs per draw in paper mode


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

    @property
    def credible_bound(self) -> float:
        """The end of the interval nearest zero, signed; 0 when the interval contains 0."""
        return credible_bound(self.ci)

    @property
    def difference(self) -> float:
        """phi_r − phi_not_r, signed: negative when the rule set's texts fare worse. TestSGD's
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


def by_credibility(finding: GroupFinding) -> tuple:
    """Sort key: most credible first (|credible_bound|), then larger score, then the rules."""
    return (-abs(finding.credible_bound), -finding.score, finding.rule_set)


def group_fairness(
    domain: Domain,
    model: Model,
    rule_sets: Sequence[RuleSet],
    supports: Sequence[float],
    *,
    favorable: int | Decision,
    mode: str = "paired",
    confidence: float = 0.95,
    error: float = 0.05,
    min_samples: int = 100,
    max_samples: int = 1000,
    correction: str = "holm",
    seed: int = 0,
    n_examples: int = 3,
    max_assignments: int = MAX_ASSIGNMENTS,
) -> list[GroupFinding]:
    """Score every rule set; return findings worst first with corrected significance.

    `model` is a CachedModel (or any Model); `favorable` is the column of the favourable label
    (the most probable label decides) or a `Decision` (label sets, threshold rules).
    `max_assignments` bounds the assignments each seed is rewritten to (paired mode).
    """
    if mode not in ("paired", "paper"):
        raise TextfairError.bad("mode", f"{mode!r}: expected paired or paper")
    rng = np.random.default_rng(seed)
    sampling = Sampling(confidence, error, min_samples, max_samples, seed)
    support_of = dict(zip(rule_sets, supports, strict=True))
    findings: list[GroupFinding] = []
    by_categories: dict[tuple[str, ...], list[RuleSet]] = {}
    for rule_set in rule_sets:
        by_categories.setdefault(tuple(r.category for r in rule_set), []).append(rule_set)
    for categories, group in by_categories.items():
        if mode == "paired":
            findings += _paired(
                domain,
                model,
                categories,
                group,
                support_of,
                favorable,
                sampling,
                n_examples,
                max_assignments,
            )
        else:
            findings += [
                _paper(
                    domain,
                    model,
                    rule_set,
                    support_of[rule_set],
                    favorable,
                    rng,
                    sampling,
                    n_examples,
                )
                for rule_set in group
            ]
    if not findings:
        return []
    adjusted = adjust([f.p_value for f in findings], correction, alpha=1 - confidence)
    findings = [
        _with(f, p_adjusted=float(p), significant=bool(s))
        for f, p, s in zip(findings, adjusted.p_adjusted, adjusted.significant, strict=True)
    ]
    return sorted(findings, key=by_credibility)


def _paired(domain, model, categories, group, support_of, favorable, sampling, n_examples, bound):
    """All rule sets over `categories`, from the same seeds rewritten to every assignment
    (or, past `bound` of them, to a sample per seed: see `_assignment_picks`)."""
    options = [[r.value for r in domain.single_rules(c)] for c in categories]
    assignments = [
        tuple(Rule(c, v) for c, v in zip(categories, values, strict=True))
        for values in itertools.product(*options)
    ]
    column = {a: i for i, a in enumerate(assignments)}
    # "Not R": the assignments that cannot satisfy R. Where each category's values exclude
    # each other (terms of text), that is every other assignment (None: no list of 10,000
    # columns per rule set); for rows, rules over a column may overlap ({Black} and
    # {Black, Other}), so they are listed.
    if all(_values_exclusive(domain, category) for category in categories):
        outside = dict.fromkeys(group)
    else:
        outside = {
            r: [i for i, a in enumerate(assignments) if domain.disjoint(a, r)] for r in group
        }
    rows = _PairedRows(domain, categories, assignments, column, outside, group, bound)
    texts, matrix = _paired_rows(rows, model, favorable, sampling)
    findings = []
    totals = _row_totals(matrix)
    for rule_set in group:
        j = column[rule_set]
        d = _differences(matrix, j, outside[rule_set], totals)
        n = len(d)
        if n == 0:
            continue  # no seed's sample of assignments held R (reported as not reached)
        interval = bounded_mean(d, confidence=sampling.confidence)
        mean = interval.estimate
        phi_r = float(np.nanmean(matrix[:, j]))
        phi_not_r = phi_r - mean
        first = _counts(phi_r, n)
        second = _counts(phi_not_r, n)
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
                n_not_r=_outside_observed(matrix, j, outside[rule_set], totals),
                support=support_of[rule_set],
                examples=_paired_examples(texts, matrix, j, n_examples),
            )
        )
    return findings


def assignments_per_seed(total: int, bound: int = MAX_ASSIGNMENTS) -> int:
    """How many of a category combination's `total` assignments each seed is rewritten to."""
    return min(total, bound)


@dataclass(frozen=True)
class _PairedRows:
    """What `_paired_rows` rewrites each seed to, for one category combination."""

    domain: Domain
    categories: tuple[str, ...]
    assignments: list
    column: dict
    outside: dict
    group: list
    bound: int


def _assignment_picks(domain, index: int, categories, total: int, bound: int) -> np.ndarray:
    """The assignments seed `index` is rewritten to: all of them up to `bound`, else that
    many drawn without replacement by a generator fixed by the seed's text.

    Why the estimand stays the same: for a rule set R drawn into a seed's sample S, S less R
    is a uniform sample of the other assignments, so the mean outcome over it is unbiased for
    the mean over all of them, and d = y(R) - mean y(S less R) has the full design's
    expectation for that seed. Whether R is drawn does not depend on the model's outcomes,
    so the seeds holding R are a random subset and `bounded_mean` over their d covers the
    same quantity (with fewer seeds, hence a wider interval). The draw depends on the text,
    not on the run's seed: the estimand and every text scored are the same in every run."""
    if total <= bound:
        return np.arange(total)
    rng = seed_rng(domain, index, "assignments", *categories)
    return np.sort(rng.choice(total, bound, replace=False))


def _paired_rows(plan: _PairedRows, model, favorable, sampling):
    """Seeds in the run's order, each rewritten to its assignments and scored, batch by
    batch, until every rule set's interval is at most ±error wide (after min_samples) or
    max_samples distinct rows are in. Returns per row the texts by assignment column, and
    the outcome matrix (1/0; NaN where a seed's sample left an assignment out)."""
    confidence, error = sampling.confidence, sampling.error
    min_samples, max_samples = sampling.min_samples, sampling.max_samples
    domain, assignments, column, outside = plan.domain, plan.assignments, plan.column, plan.outside
    everything = seed_order(domain, sampling.seed)
    eligible = np.zeros(len(everything), dtype=bool)
    eligible[domain.seeds_for(plan.group[0])] = True  # seeds that can be rewritten to satisfy R
    order = everything[eligible[everything]]
    total = len(assignments)
    outcomes = np.empty((0, total))  # one row per distinct seed
    texts: list[dict[int, str]] = []
    seen: set[tuple] = set()
    for begin, end in batches(len(order), min_samples, BATCH_SEEDS):
        rows: list[dict[int, str]] = []
        for i in order[begin:end]:
            picks = _assignment_picks(domain, int(i), plan.categories, total, plan.bound)
            # An assignment the seed may not take (another axis, a clash) is left out of
            # its row, as one its sample did not draw.
            row = {
                int(k): v.input
                for k in picks
                if (v := domain.rewrite(int(i), assignments[k])) is not None
            }
            # Seeds that differ only in these categories give the same variants: one case,
            # counted once (else its outcome would be counted as independent evidence).
            key = tuple(row.items())
            if row and key not in seen and len(texts) + len(rows) < max_samples:
                seen.add(key)
                rows.append(row)
        if not rows:
            if len(texts) >= max_samples:
                break
            continue
        flat = [text for row in rows for text in row.values()]
        predicted = decide(favorable, model.predict_proba(flat))
        block = np.full((len(rows), total), np.nan)
        cursor = 0
        for r, row in enumerate(rows):
            block[r, list(row)] = predicted[cursor : cursor + len(row)]
            cursor += len(row)
        outcomes = np.vstack([outcomes, block])
        texts += rows
        n = len(outcomes)
        if n >= max_samples:
            break
        if n >= min_samples:
            totals = _row_totals(outcomes)
            if all(
                bounded_mean(
                    _differences(outcomes, column[r], outside[r], totals), confidence=confidence
                ).half_width
                <= error
                for r in plan.group
            ):
                break
    return texts, outcomes


def _differences(matrix: np.ndarray, j: int, others: list[int] | None, totals=None) -> np.ndarray:
    """Per seed holding R: outcome under R (column j) minus the mean outcome under the
    assignments that do not satisfy R (`others`; None: every other column) that the seed
    was rewritten to. `totals` are `_row_totals(matrix)`, computed once per matrix."""
    if len(matrix) == 0:
        return np.empty(0)
    rows = ~np.isnan(matrix[:, j])
    y = matrix[rows, j].astype(float)
    if others is None:
        sums, counts = totals if totals is not None else _row_totals(matrix)
        rest_sum, rest_count = sums[rows] - y, counts[rows] - 1
    else:
        rest = matrix[rows][:, others]
        observed = ~np.isnan(rest)
        rest_sum, rest_count = np.where(observed, rest, 0.0).sum(axis=1), observed.sum(axis=1)
    keep = rest_count > 0
    return y[keep] - rest_sum[keep] / rest_count[keep]


def _row_totals(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the sum of the outcomes observed, and how many there are."""
    observed = ~np.isnan(matrix)
    return np.where(observed, matrix, 0.0).sum(axis=1, dtype=float), observed.sum(axis=1)


def _outside_observed(matrix: np.ndarray, j: int, others: list[int] | None, totals) -> int:
    """How many outcomes outside R the differences for column j averaged: per seed holding
    R, the other assignments it was rewritten to (fewer than all where a seed's axis or a
    clash rules some out, or its sample left them out)."""
    rows = ~np.isnan(matrix[:, j])
    if others is None:
        rest = totals[1][rows] - 1
    else:
        rest = (~np.isnan(matrix[rows][:, others])).sum(axis=1)
    return int(rest[rest > 0].sum())


def _values_exclusive(domain, category: str) -> bool:
    """Whether no input satisfies two different rules of `category` (two terms of a text's
    category; for rows, bins that do not overlap)."""
    rules = domain.single_rules(category)
    return all(
        domain.disjoint(RuleSet((first,)), RuleSet((second,)))
        for first, second in itertools.combinations(rules, 2)
    )


def _counts(rate: float, n: int):
    return proportion(round(min(max(rate, 0.0), 1.0) * n), n)


def _paired_examples(texts, matrix, j, n_examples):
    """Seeds where the outcome under R differs from some other assignment."""
    examples = []
    for row, outcome in zip(texts, matrix, strict=True):
        if j not in row:
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


def _paper(
    domain,
    model,
    rule_set,
    support,
    favorable,
    rng,
    sampling,
    n_examples,
):
    """TestSGD as published: independent samples from Sample(D, R) and Sample(D, not R)."""
    confidence, error = sampling.confidence, sampling.error
    min_samples, max_samples = sampling.min_samples, sampling.max_samples

    y_r: list[bool] = []
    y_not: list[bool] = []
    pairs: list[tuple[str, str]] = []
    while len(y_r) < max_samples:
        size = min(PAPER_BATCH, max_samples - len(y_r))
        inside = domain.sample(rule_set, size, rng)
        outside = domain.sample(rule_set, size, rng, negate=True)
        flat = [v.input for v in inside] + [v.input for v in outside]
        predicted = decide(favorable, model.predict_proba(flat))
        y_r += predicted[: len(inside)].tolist()
        y_not += predicted[len(inside) :].tolist()
        pairs += [(a.input, b.input) for a, b in zip(inside, outside, strict=False)]
        if should_stop(
            sum(y_r),
            len(y_r),
            sum(y_not),
            len(y_not),
            error=error,
            confidence=confidence,
            min_samples=min_samples,
            max_samples=max_samples,
        ).stop:
            break
    diff = difference(sum(y_r), len(y_r), sum(y_not), len(y_not), confidence)
    examples = [
        {
            "text": a,
            "favorable": bool(ya),
            "counterfactual": b,
            "counterfactual_favorable": bool(yb),
        }
        for (a, b), ya, yb in zip(pairs, y_r, y_not, strict=False)
        if ya != yb
    ][:n_examples]
    return GroupFinding(
        rule_set=rule_set,
        phi_r=diff.first.estimate,
        phi_not_r=diff.second.estimate,
        score=abs(diff.estimate),
        margin=diff.margin,
        ci=(diff.low, diff.high),
        p_value=two_proportion_p_value(sum(y_r), len(y_r), sum(y_not), len(y_not)),
        n_r=len(y_r),
        n_not_r=len(y_not),
        support=support,
        examples=examples,
    )


def _with(finding: GroupFinding, **changes) -> GroupFinding:
    return replace(finding, **changes)
