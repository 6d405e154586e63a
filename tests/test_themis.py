"""Themis for text: causal scores, Alg. 3's sound pruning, group scores, term-pair shifts."""

import numpy as np

from textfair.discovery.themis import themis
from textfair.models import CachedModel, CallableModel
from textfair.text.domain import TextDomain

from synthetic import corpus, unit


def gay_is_toxic(texts):
    """Unfavourable (column 1) whenever 'gay' appears; otherwise 20% by a text hash."""
    return np.array(
        [[0.0, 1.0] if "gay" in t.lower() or unit(t) < 0.2 else [1.0, 0.0] for t in texts]
    )


def test_pruning_skips_supersets_of_a_discriminating_set_and_scores_are_monotone():
    domain = TextDomain(
        [*corpus(30), "The weather is fine today."], categories=["gender", "religion"]
    )
    model = CachedModel(CallableModel(gay_is_toxic, labels=["ok", "toxic"]))
    result = themis(domain, model, favorable=0, threshold=0.1, max_samples=200, seed=0)
    tested = {c.categories: c for c in result.causal}
    assert ("gender",) in tested and tested[("gender",)].score > 0.5
    assert ("gender", "religion") not in tested  # pruned: its subset already discriminates
    assert result.tests_run == 2 and result.tests_without_pruning == 3
    unpruned = themis(domain, model, favorable=0, threshold=1.0, max_samples=200, seed=0)
    scores = {c.categories: c.score for c in unpruned.causal}
    assert scores[("gender", "religion")] >= max(scores[("gender",)], scores[("religion",)])
    assert unpruned.tests_run == 3
    assert model.stats.forwarded == model.stats.unique_inputs


def test_group_scores_and_term_pair_shifts():
    domain = TextDomain(corpus(30), categories=["gender", "religion"])
    model = CachedModel(CallableModel(gay_is_toxic, labels=["ok", "toxic"]))
    result = themis(domain, model, favorable=0, max_samples=300, seed=1)
    gender = next(g for g in result.group if g.category == "gender")
    assert gender.rates["gay"] == 0.0 and gender.score > 0.7
    religion = next(g for g in result.group if g.category == "religion")
    assert religion.score < 0.25
    to_gay = [p for p in result.pairs if p.target == "gay"]
    assert to_gay and all(p.mean_shift <= 0 for p in to_gay)
    assert all(p.mean_shift < 0 for p in to_gay if p.n >= 10)
    assert all(p.shift_ci[1] < 0 for p in to_gay if p.n >= 10)
    from_gay = [p for p in result.pairs if p.source == "gay"]
    assert all(p.mean_shift > 0 for p in from_gay)
    assert all(-1 <= p.shift_ci[0] <= p.shift_ci[1] <= 1 for p in result.pairs)


def test_a_model_that_ignores_identity_has_causal_score_zero():
    def blind(texts):
        return np.array([[1.0, 0.0] if "question" in t else [0.0, 1.0] for t in texts])

    domain = TextDomain(corpus(20), categories=["gender", "religion"])
    result = themis(
        domain,
        CachedModel(CallableModel(blind, labels=["ok", "t"])),
        favorable=0,
        max_samples=100,
        seed=2,
    )
    assert all(c.score == 0.0 and c.flips == 0 and c.ci[1] > 0 for c in result.causal)
    assert all(g.score == 0.0 for g in result.group)
