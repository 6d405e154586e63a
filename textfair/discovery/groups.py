"""TestSGD Alg. 2: the group fairness score of each rule set, with honest intervals.

For a rule set R, phi_r is the rate of the favourable outcome on inputs satisfying R and
phi_not_r the rate on inputs that do not; the score is |phi_r - phi_not_r|.

* ``mode="paired"`` (default): the same seed texts are rewritten to R's terms and to every
  other assignment of terms of R's categories, so the identity terms are the only difference
  between the two sides. Per seed, d = y(R) - mean y(not R) in [-1, 1]; the score is |mean d|
  and its interval is `bounded_mean`'s over the seeds (one value per seed, since the variants
  of one seed are correlated), which holds its coverage when only a few seeds vary.
* ``mode="paper"``: as TestSGD — x from Sample(D, R), x' from Sample(D, not R), independent;
  Newcombe's interval for the difference of two proportions, and TestSGD's margin. Each rule
  set draws from its own generator (the run's seed and its name).

A rule set's finding is its own: its seeds are those that can be rewritten to it (and to at
least one other assignment), taken in the run's order; "not R" is every assignment of every
term of its categories that the seed can take (all of the list's terms, not only the frequent
ones); and it stops at its own checkpoints — `min_samples` of its seeds, then every
`BATCH_SEEDS` more — once its interval is at most ±`error` wide, or at `max_samples`. None of
this reads another rule set, so its estimate, n and interval are the same whichever other rule
sets --theta let through. Rule sets over the same categories share the rewritten texts, so each
distinct text is scored once for the whole run. The stopping rule reads the same interval as
the report, so it cannot stop on a falsely narrow one. Significance is corrected over all rule
sets tested (Holm by default): the one thing that depends on how many were tested.

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

from textfair.core.domain import Domain
from textfair.core.rules import Rule, RuleSet
from textfair.core.seeds import keyed_rng, seed_rng
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY, Strict, mean_score, scorer
from textfair.discovery.sampling import Sampling, seed_order
from textfair.errors import TextfairError
from textfair.models.base import Model
from textfair.models.decision import Decision, decide
from textfair.settings import MAX_ASSIGNMENTS
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
    "GroupFinding",
    "assignments_per_seed",
    "by_credibility",
    "credible_bound",
    "group_fairness",
]

# A rule set's seeds between two checks of its stopping rule (after min_samples). Small, so
# it stops close to where its interval reaches ±error; the rule reads each interval's width, not
# its position, so checking often does not bias coverage (the simulations in tests/ check).
BATCH_SEEDS = 25
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
    acceptability: float | None = None
    """The mean acceptability of the variants the finding used (None: the domain scores
    none, as for table rows; see :mod:`textfair.discovery.acceptable`)."""
    strict: Strict | None = None
    """The signed difference and its interval, by the same method, on the seeds whose
    variants all score at least `STRICT_ACCEPTABILITY` (None where `acceptability` is)."""

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
                    # Its own draws: the same whichever rule sets come before it.
                    keyed_rng(seed, "paper", RuleSet(rule_set).key),
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
    (or, past `bound` of them, to a sample per seed: see `_assignment_picks`). Each rule
    set's finding reads only its own rows (`_paired_rows`), so it is the same whichever
    other rule sets are scored beside it."""
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
    texts, matrix, used, seeds = _paired_rows(rows, model, favorable, sampling)
    scores = _row_scores(domain, assignments, texts, seeds, used.values())
    findings = []
    for rule_set in group:
        if len(used[rule_set]) == 0:
            continue  # no seed's sample of assignments held R (reported as not reached)
        own = matrix[used[rule_set]]
        j = column[rule_set]
        held, d, compared = _compared(own, j, outside[rule_set], _row_totals(own))
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
                n_not_r=int(compared.sum()),
                support=support_of[rule_set],
                examples=_paired_examples([texts[i] for i in used[rule_set]], own, j, n_examples),
                acceptability=acceptability,
                strict=strict,
            )
        )
    return findings


def _row_scores(domain, assignments, texts, seeds, used) -> np.ndarray | None:
    """The acceptability of each variant of the rows some rule set reads (NaN elsewhere,
    and where a row has no variant); None when the domain scores none. Rows no rule set
    reads are not scored: their scores would never be read."""
    score = scorer(domain)
    if score is None:
        return None
    scores = np.full((len(texts), len(assignments)), np.nan)
    rows = sorted({int(r) for u in used for r in u})
    for row in rows:
        for k in texts[row]:
            scores[row, k] = score(seeds[row], assignments[k])
    return scores


def _strict_paired(scores: np.ndarray, d: np.ndarray, j: int, others, confidence: float):
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
    batch, until every rule set of the combination has stopped.

    A rule set R reads its own rows only: in the run's order, the distinct seeds that can
    be rewritten to R and to at least one assignment outside it (`_compared`). It stops at
    the first of its own checkpoints (min_samples rows of its own, then every BATCH_SEEDS
    more) at which its interval is at most ±error wide, at max_samples rows, or when the
    seeds run out; it keeps exactly the rows up to that point. Which rows R reads and where
    it stops are functions of R's own sequence of rows, so they do not depend on which other
    rule sets are scored beside it (nor on --theta); the rule sets only share the texts, and
    a seed is scored once for all of them. Each rule set's stopping rule is the one a rule
    set scored alone would use, and reads the same interval as the report.

    Returns per row the texts by assignment column, the outcome matrix (1/0; NaN where a
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
    texts: list[dict[int, str]] = []
    seeds: list[int] = []  # the seed of each row
    seen: set[tuple] = set()
    running = list(range(len(plan.group)))  # rule sets (by position) not yet stopped
    used: dict = {}
    checkpoint = {k: min(min_samples, max_samples) for k in running}
    cursor = 0
    while running and cursor < len(order):
        # The first batch covers min_samples rows (no rule set can stop before), in one
        # model call; then BATCH_SEEDS rows between checks.
        size = max(min_samples, BATCH_SEEDS) if not texts else BATCH_SEEDS
        rows: list[dict[int, str]] = []
        while len(rows) < size and cursor < len(order):
            i = int(order[cursor])
            cursor += 1
            if not eligible[running, i].any():
                continue  # only stopped rule sets can read it: past their last row
            row = _rewritten(plan, i, total)
            # Seeds that differ only in these categories give the same variants: one case,
            # counted once (else its outcome would be counted as independent evidence).
            key = tuple(row.items())
            # Kept when a rule set still running holds it (its sample of assignments
            # may have left them all out) and it has something to compare with.
            wanted = any(column[plan.group[k]] in row for k in running)
            if len(row) > 1 and wanted and key not in seen:
                seen.add(key)
                rows.append(row)
                seeds.append(i)
        if not rows:
            break
        flat = [text for row in rows for text in row.values()]
        predicted = decide(favorable, model.predict_proba(flat))
        block = np.full((len(rows), total), np.nan)
        start = 0
        for r, row in enumerate(rows):
            block[r, list(row)] = predicted[start : start + len(row)]
            start += len(row)
        outcomes = np.vstack([outcomes, block])
        texts += rows
        totals = _row_totals(outcomes)
        for k in list(running):
            r = plan.group[k]
            held, d, _ = _compared(outcomes, column[r], outside[r], totals)
            stop = _stopping_point(d, checkpoint, k, min_samples, max_samples, confidence, error)
            if stop is not None:
                used[r] = held[:stop]
                running.remove(k)
    totals = _row_totals(outcomes)
    for k in running:  # the seeds ran out first: every row it holds
        r = plan.group[k]
        used[r] = _compared(outcomes, column[r], outside[r], totals)[0][:max_samples]
    return texts, outcomes, used, seeds


def _rewritten(plan: _PairedRows, index: int, total: int) -> dict[int, str]:
    """Seed `index` rewritten to each of its assignments, by column. An assignment the
    seed may not take (another axis, a clash) is left out of its row, as one its sample
    did not draw."""
    picks = _assignment_picks(plan.domain, index, plan.categories, total, plan.bound)
    return {
        int(k): v.input
        for k in picks
        if (v := plan.domain.rewrite(index, plan.assignments[k])) is not None
    }


def _stopping_point(d, checkpoint, k, min_samples, max_samples, confidence, error):
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


def _compared(matrix: np.ndarray, j: int, others: list[int] | None, totals):
    """Per seed holding R (column j) and at least one assignment outside it: its outcome
    under R minus the mean outcome under the assignments that do not satisfy R (`others`;
    None: every other column) that the seed was rewritten to. `totals` are
    `_row_totals(matrix)`, computed once per matrix.

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


def _row_totals(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the sum of the outcomes observed, and how many there are."""
    observed = ~np.isnan(matrix)
    return np.where(observed, matrix, 0.0).sum(axis=1, dtype=float), observed.sum(axis=1)


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
    scores: tuple[list, list] = ([], [])  # each variant's acceptability, on each side
    pairs: list[tuple[str, str]] = []
    while len(y_r) < max_samples:
        size = min(PAPER_BATCH, max_samples - len(y_r))
        inside = domain.sample(rule_set, size, rng)
        outside = domain.sample(rule_set, size, rng, negate=True)
        flat = [v.input for v in inside] + [v.input for v in outside]
        predicted = decide(favorable, model.predict_proba(flat))
        y_r += predicted[: len(inside)].tolist()
        y_not += predicted[len(inside) :].tolist()
        scores[0].extend(getattr(v, "acceptability", None) for v in inside)
        scores[1].extend(getattr(v, "acceptability", None) for v in outside)
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
    acceptability, strict = _strict_paper(y_r, y_not, scores, confidence)
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
        acceptability=acceptability,
        strict=strict,
    )


def _strict_paper(y_r, y_not, scores, confidence):
    """A paper-mode finding's mean acceptability and `Strict` result: Newcombe's interval
    of the same difference, on the draws (each side's on its own, as they were drawn
    independently) whose variant scores at least STRICT_ACCEPTABILITY. (None, None) when
    the domain scores no variant."""
    inside, outside = (np.array(s, dtype=float) for s in scores)  # None -> NaN
    both = np.concatenate([inside, outside])
    if not both.size or np.isnan(both).all():
        return None, None
    keep_r = np.asarray(y_r)[~(inside < STRICT_ACCEPTABILITY)]
    keep_not = np.asarray(y_not)[~(outside < STRICT_ACCEPTABILITY)]
    k_r, n_r, k_not, n_not = int(keep_r.sum()), len(keep_r), int(keep_not.sum()), len(keep_not)
    if n_r == 0 or n_not == 0:
        strict = Strict(STRICT_ACCEPTABILITY, math.nan, (-1.0, 1.0), n_r)
    else:
        diff = difference(k_r, n_r, k_not, n_not, confidence)
        p = two_proportion_p_value(k_r, n_r, k_not, n_not)
        strict = Strict(STRICT_ACCEPTABILITY, diff.estimate, (diff.low, diff.high), n_r, p)
    return mean_score(both), strict


def _with(finding: GroupFinding, **changes) -> GroupFinding:
    return replace(finding, **changes)
