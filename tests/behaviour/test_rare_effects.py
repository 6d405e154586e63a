"""Intervals that hold when few seeds vary: 200 seeded audits of sparse planted models.

The corpus has 2,000 distinct seeds, each naming one religion term and a number that is the
seed's identity. The model's favourable probability depends on that number alone, except
for "Buddhist" texts on a small share of seeds, where it turns p into 1 - p. So only 2-5% of
seeds vary, the case where a t interval's variance estimate rests on a handful of values.
The truth is exhaustive: every eligible seed scored under every assignment.
"""

import re

import numpy as np
import pytest

from textfair.core.rules import Rule
from textfair.discovery.groups import group_fairness
from textfair.discovery.themis import themis
from textfair.models import CachedModel, CallableModel
from textfair.terms import load_term_list
from textfair.text.domain import TextDomain

from synthetic import unit

pytestmark = pytest.mark.slow

RUNS = 200
NUMBER = re.compile(r"number (\d+)")


def religion_corpus(size=2000, seed=0):
    terms = [t.text for t in load_term_list("dixon2018").terms(["religion"])]
    rng = np.random.default_rng(seed)
    return [
        f"The {terms[rng.integers(len(terms))]} editor fixed typo number {k}." for k in range(size)
    ]


STEMS = "christian muslim jew buddhist catholic protestant sikh taoist atheist".split()


def sparse_model(rate, direction):
    """Favourable probability p from the seed's number. On a share `rate` of seeds one
    religion term is the seed's trigger ("buddhist" on 40% of them, another term otherwise),
    and texts naming it get 1 - p: on every such seed (direction "both"), or only where p
    was favourable ("down": a rare and small disadvantage). A rule set's seed differences
    are then mostly small (another term's trigger) with a few large ones (its own): the
    mixture where a t interval built from the few values seen is falsely narrow."""

    def predict(texts):
        rows = []
        for text in texts:
            key = NUMBER.search(text).group(1)
            p = 0.05 + 0.9 * unit("base" + key)
            if unit("flip" + key) < rate:
                pick = unit("which" + key)
                trigger = "buddhist" if pick < 0.4 else STEMS[int((pick - 0.4) / 0.6 * 9)]
                if trigger in text.lower() and (direction == "both" or p > 0.5):
                    p = 1.0 - p
            rows.append([p, 1.0 - p])
        return np.array(rows)

    return predict


def fair_model(texts):
    """No term is favoured: each text, whatever its terms, turns p into 1 - p with chance 3%
    (by a hash of the whole text), so a few seeds vary, in no direction."""
    rows = sparse_model(0.0, "both")(texts)
    noisy = np.array([unit("noise" + text) < 0.03 for text in texts])
    rows[noisy] = rows[noisy][:, ::-1]
    return rows


@pytest.fixture(scope="module")
def domain():
    return TextDomain(religion_corpus(), categories=["religion"])


def rules(domain):
    rule_sets = [(r,) for r in domain.single_rules("religion")]
    supports = [float(domain.support_mask(r).mean()) for r in rule_sets]
    return rule_sets, supports


@pytest.mark.parametrize(
    ("rate", "direction"),
    [(0.02, "both"), (0.05, "both"), (0.08, "down")],
    ids=["2%-of-seeds", "5%-of-seeds", "rare-and-small"],
)
def test_intervals_cover_the_exhaustive_truth_when_few_seeds_vary(domain, rate, direction):
    predict = sparse_model(rate, direction)
    rule_sets, supports = rules(domain)
    buddhist = (Rule("religion", "buddhist"),)
    model = CachedModel(CallableModel(predict, labels=["ok", "toxic"]))
    everything = group_fairness(
        domain, model, rule_sets, supports, favorable=0, min_samples=10_000, max_samples=10_000
    )
    truth = {f.rule_set: f.phi_r - f.phi_not_r for f in everything}
    if direction == "down":
        assert 0.01 <= -truth[buddhist] <= 0.02  # a rare and small effect
    full = themis(domain, model, favorable=0, min_samples=10_000, max_samples=10_000)
    causal_truth = full.causal[0].score
    pair_truth = {(p.source, p.target): (p.flip_rate, p.mean_shift) for p in full.pairs}
    assert 0.25 * rate <= causal_truth <= 1.5 * rate

    covered = {"difference": [], "buddhist difference": [], "flip": [], "shift": [], "causal": []}
    for seed in range(RUNS):
        findings = group_fairness(domain, model, rule_sets, supports, favorable=0, seed=seed)
        for f in findings:
            hit = f.ci[0] <= truth[f.rule_set] <= f.ci[1]
            covered["difference"].append(hit)
            if f.rule_set == buddhist:
                covered["buddhist difference"].append(hit)
        result = themis(domain, model, favorable=0, seed=seed, term_samples=300)
        causal = result.causal[0]
        covered["causal"].append(causal.ci[0] <= causal_truth <= causal.ci[1])
        for p in result.pairs:
            if "buddhist" in (p.source, p.target):
                flip, shift = pair_truth[(p.source, p.target)]
                covered["flip"].append(p.flip_ci[0] <= flip <= p.flip_ci[1])
                covered["shift"].append(p.shift_ci[0] <= shift <= p.shift_ci[1])
    coverage = {kind: float(np.mean(hits)) for kind, hits in covered.items()}
    print(rate, direction, coverage)
    assert min(coverage.values()) >= 0.93, coverage


def test_a_fair_model_gets_no_significant_finding(domain):
    rule_sets, supports = rules(domain)
    model = CachedModel(CallableModel(fair_model, labels=["ok", "toxic"]))
    unfair_runs = sum(
        any(
            f.significant
            for f in group_fairness(domain, model, rule_sets, supports, favorable=0, seed=seed)
        )
        for seed in range(RUNS)
    )
    print("fair model: runs with a significant finding", unfair_runs, "of", RUNS)
    assert unfair_runs <= 0.05 * RUNS
