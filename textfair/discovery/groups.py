"""TestSGD Alg. 2: the group fairness score of each rule set, with honest intervals.

For a rule set R, phi_r is the rate of the favourable outcome on inputs satisfying R and
phi_not_r the rate on inputs that do not; the score is |phi_r - phi_not_r|.

* ``mode="paired"`` (default): the same seeds are rewritten to R's terms and to every other
  assignment of terms of R's categories, so the sensitive terms are the only difference
  between the two sides. Per seed, d = y(R) - mean y(not R) in [-1, 1]; the score is |mean d|
  and its interval is `bounded_mean`'s over the seeds (one value per seed, since the variants
  of one seed are correlated), which holds its coverage when only a few seeds vary
  (`paired`, `paired_rows`).
* ``mode="paper"``: as TestSGD — x from Sample(D, R), x' from Sample(D, not R), independent;
  Newcombe's interval for the difference of two proportions, and TestSGD's margin. Each rule
  set draws from its own generator (the run's seed and its name) (`paper`).

A rule set's finding is its own: its seeds are those that can be rewritten to it (and to at
least one other assignment), taken in the run's order; "not R" is every assignment of every
term of its categories that the seed can take (all of the categories' terms, not only the
frequent ones); and it stops at its own checkpoints — `min_samples` of its seeds, then every
`BATCH_SEEDS` more — once its interval is at most ±`error` wide, or at `max_samples`. None of
this reads another rule set, so its estimate, n and interval are the same whichever other rule
sets --theta let through. Rule sets over the same categories share the rewritten inputs, so
each distinct input is scored once for the whole run. The stopping rule reads the same
interval as the report, so it cannot stop on a falsely narrow one. Significance is corrected
over all rule sets tested (Holm by default): the one thing that depends on how many were
tested. Findings are returned most credible first (`findings.by_credibility`).

This module runs the rule sets, by category combination, in either mode, and corrects
their significance; the findings it returns are `findings.GroupFinding`s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from textfair.core.domain import Domain
from textfair.core.rules import RuleSet
from textfair.core.seeds import keyed_rng
from textfair.discovery._paired import paired_findings
from textfair.discovery._paper import paper_finding
from textfair.discovery._sampling import Sampling
from textfair.discovery.findings import GroupFinding, by_credibility
from textfair.errors import TextfairError
from textfair.models.base import Model
from textfair.models.decision import Decision
from textfair.settings import MAX_ASSIGNMENTS
from textfair.stats import adjust

__all__ = ["group_fairness"]


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
            findings += paired_findings(
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
                paper_finding(
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
        replace(f, p_adjusted=float(p), significant=bool(s))
        for f, p, s in zip(findings, adjusted.p_adjusted, adjusted.significant, strict=True)
    ]
    return sorted(findings, key=by_credibility)
