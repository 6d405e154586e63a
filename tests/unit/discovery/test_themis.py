"""Themis for text: causal scores, Alg. 3's sound pruning, group scores, term-pair shifts."""

import numpy as np
import pytest

from textfair.discovery.themis import themis
from textfair.models import CachedModel, CallableModel
from textfair.text.domain import TextDomain

from synthetic import corpus, unit


def gay_is_toxic(texts):
    """Unfavourable (column 1) whenever 'gay' appears; otherwise 20% by a text hash."""
    return np.array(
        [[0.0, 1.0] if "gay" in t.lower() or unit(t) < 0.2 else [1.0, 0.0] for t in texts]
    )


QUEER_WORDS = ("gay", "lesbian", "queer", "bisexual", "lgbt")


def queer_is_toxic(texts):
    """Unfavourable whenever a queer identity word appears: about half the gender terms."""
    return np.array(
        [[0.0, 1.0] if any(w in t.lower() for w in QUEER_WORDS) else [1.0, 0.0] for t in texts]
    )


def test_pruning_reads_the_excess_and_skips_only_supersets_of_a_finding():
    domain = TextDomain(
        [*corpus(30), "The weather is fine today."], categories=["gender", "religion"]
    )
    model = CachedModel(CallableModel(queer_is_toxic, labels=["ok", "toxic"]))
    result = themis(domain, model, favorable=0, threshold=0.1, max_samples=200, seed=0)
    tested = {c.categories: c for c in result.causal}
    gender = tested[("gender",)]
    assert gender.score > 0.5 and gender.excess.placebo_rate == 0.0  # the placebo keeps "gay"
    assert gender.excess.ci[0] > 0.1 and gender.excess.significant
    assert ("gender", "religion") not in tested  # pruned: its subset's excess is above 0.1
    assert result.tests_run == 2 and result.tests_without_pruning == 3
    assert not tested[("religion",)].excess.significant
    unpruned = themis(domain, model, favorable=0, threshold=0.1, max_samples=200, prune=False)
    scores = {c.categories: c.score for c in unpruned.causal}
    assert scores[("gender", "religion")] >= max(scores[("gender",)], scores[("religion",)])
    assert unpruned.tests_run == 3
    # Nothing above the threshold is lost: every unpruned set whose excess lies above it
    # was tested, or contains a tested set whose excess lies above it.
    found = [c.categories for c in result.causal if c.excess.ci[0] > 0.1]
    for c in unpruned.causal:
        if c.excess.ci[0] > 0.1:
            assert c.categories in tested or any(set(f) <= set(c.categories) for f in found)
    assert model.stats.forwarded == model.stats.unique_inputs  # placebo texts: once each


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


def test_a_causal_batch_read_at_once_is_the_loop_over_its_seeds():
    """`_row_flips` gives, per seed row, what the loop over rows gave: any flip among the
    seed's texts, the seed's outcome, and the share of its real edits that flip."""
    import numpy as np

    from textfair.discovery._causal import _row_flips

    rng = np.random.default_rng(5)
    for _ in range(300):
        rows, cursor = [], 0
        for _ in range(int(rng.integers(1, 30))):
            size = int(rng.integers(1, 12))  # the seed and its counterfactuals
            edited = rng.random(size - 1) < 0.7
            rows.append((cursor, cursor + size, 0 if edited.any() else -1, edited))
            cursor += size
        labels = rng.integers(0, 3, cursor)
        flips, seed_labels, shares = _row_flips(labels, rows)
        for k, (start, stop, at, edited) in enumerate(rows):
            own = labels[start:stop]
            assert flips[k] == bool((own != own[0]).any())
            assert seed_labels[k] == own[0]
            if at >= 0:
                assert float(shares[k]) == float(np.mean(own[1:][edited] != own[0]))
    assert len(_row_flips(np.array([1, 0]), [])[0]) == 0


@pytest.mark.parametrize("block_cells", [4_000_000, 5])
def test_the_group_score_is_the_largest_paired_difference_of_the_pairwise_loop(
    block_cells, monkeypatch
):
    """Every pair of terms at once (two matrix products, a block of rows at a time: here
    also blocks of one row) gives, to the last bit, the loop over pairs: the largest
    |mean of y_a - y_b| over the seeds both terms may take."""
    from itertools import combinations

    import numpy as np

    from textfair.discovery import _group_score as group_score
    from textfair.discovery._group_score import _largest_paired_difference

    monkeypatch.setattr(group_score, "_BLOCK_CELLS", block_cells)

    def loop(by_term):
        score, pairs = 0.0, 0
        for first, second in combinations(by_term, 2):
            common = first.keys() & second.keys()
            if common:
                pairs += 1
                difference = np.mean([float(first[i]) - second[i] for i in common])
                score = max(score, abs(float(difference)))
        return score, pairs

    rng = np.random.default_rng(3)
    for _ in range(300):
        seeds = list(rng.choice(1000, int(rng.integers(1, 60)), replace=False))
        by_term = []
        for _ in range(int(rng.integers(1, 9))):
            taken = [int(s) for s in seeds if rng.random() < rng.uniform(0.1, 1.0)]
            by_term.append({s: bool(rng.random() < 0.4) for s in taken})
        assert _largest_paired_difference(by_term, seeds) == loop(by_term)
    # Terms that share no seed are never compared, and the count of pairs compared says so
    # (issue 57: a race chart drew 0% and 100% over "Group score 0.0 points").
    assert _largest_paired_difference([{1: True}, {2: False}], [1, 2]) == (0.0, 0)
    assert _largest_paired_difference([{1: True, 2: True}, {2: False}], [1, 2]) == (1.0, 1)
