"""Paper-mode group fairness: TestSGD as published, a rule set's finding from independent
samples of Sample(D, R) and Sample(D, not R), with Newcombe's interval and TestSGD's margin.

Apart from the paired mode (`paired`, `paired_rows`), which shares nothing with it but the
finding it returns (`findings.GroupFinding`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np

from textfair.core.domain import Domain
from textfair.core.rules import RuleSet
from textfair.discovery._sampling import Sampling
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY, Strict, mean_score
from textfair.discovery.findings import GroupFinding
from textfair.models.base import Model
from textfair.models.decision import Decision, decide
from textfair.stats import difference, should_stop, two_proportion_p_value

__all__ = ["PAPER_BATCH", "paper_finding"]

PAPER_BATCH = 100  # pairs per draw in paper mode


def paper_finding(
    domain: Domain,
    model: Model,
    rule_set: RuleSet,
    support: float,
    favorable: int | Decision,
    rng: np.random.Generator,
    sampling: Sampling,
    n_examples: int,
) -> GroupFinding:
    """TestSGD as published: independent samples from Sample(D, R) and Sample(D, not R)."""
    confidence, error = sampling.confidence, sampling.error
    min_samples, max_samples = sampling.min_samples, sampling.max_samples

    y_r: list[bool] = []
    y_not: list[bool] = []
    # each variant's acceptability, on each side
    scores: tuple[list[float | None], list[float | None]] = ([], [])
    pairs: list[tuple[Hashable, Hashable]] = []
    flagged: list[bool | None] = []  # each draw under R: its variant flagged WORLD
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
        flagged.extend(
            getattr(v, "world", None) is not None if hasattr(v, "world") else None for v in inside
        )
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
        world=None if not flagged or None in flagged else sum(map(bool, flagged)),
    )


def _strict_paper(
    y_r: list[bool],
    y_not: list[bool],
    scores: tuple[list[float | None], list[float | None]],
    confidence: float,
) -> tuple[float | None, Strict | None]:
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
