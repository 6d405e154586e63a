"""Term pairs in bounded memory: a large category's pairs are all tested and corrected for,
and the ones kept are exactly what keeping all of them would give for those pairs."""

import numpy as np
import pytest

from textfair.discovery.keptpairs import PairKeeper, pair_order
from textfair.discovery.results import Excess, PairShift
from textfair.discovery.themis import _adjusted


def _pairs(category, n, seed):
    """`n` term pairs with excesses and shifts drawn at random: some with wide intervals
    (a text or two), some with narrow ones, a few with small p-values."""
    rng = np.random.default_rng(seed)
    pairs = []
    for k in range(n):
        wide = rng.random() < 0.5
        shift = float(rng.uniform(-0.5, 0.5))
        half = 0.9 if wide else 0.1
        p_value = float(rng.uniform(0, 0.002)) if rng.random() < 0.05 else float(rng.random())
        excess = float(rng.uniform(-0.3, 0.3))
        pairs.append(
            PairShift(
                category,
                f"t{k % 37}",
                f"u{k}",
                0.1,
                (0.0, 0.3),
                shift,
                (shift - half, shift + half),
                1 if wide else 40,
                excess=Excess(0.2, 0.1, excess, (excess - half, excess + half), p_value, 40, 0.95),
                excess_shift=shift,
                excess_shift_ci=(shift - half, shift + half),
            )
        )
    return pairs


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_kept_pairs_are_those_of_keeping_all_with_the_same_adjusted_p_values(correction):
    big, small = _pairs("big", 3000, 1), _pairs("small", 40, 2)
    everything = _adjusted(big + small, correction, 0.95)  # what keeping all gives
    keeper = PairKeeper(0.95, limit=100)
    keeper.add("big", iter(big))
    keeper.add("small", iter(small))
    kept, left_out = keeper.result(correction)

    truth = {(p.category, p.source, p.target): p for p in everything}
    assert all(truth[(p.category, p.source, p.target)] == p for p in kept)
    # Every pair that is significant over the whole family is kept; the small category whole.
    significant = {key for key, p in truth.items() if p.excess.significant}
    assert significant and significant <= {(p.category, p.source, p.target) for p in kept}
    assert sum(p.category == "small" for p in kept) == 40
    # The big category keeps its 100 first in the report's order, informative ones first.
    informative = sorted(
        (p for p in everything if p.category == "big" and p.n == 40), key=pair_order
    )
    kept_big = {(p.source, p.target) for p in kept if p.category == "big"}
    assert {(p.source, p.target) for p in informative[:100]} <= kept_big
    (counts,) = left_out
    assert (counts.category, counts.tested) == ("big", 3000)
    assert counts.kept == len(kept_big) and counts.kept < 3000
    assert counts.uninformative == sum(p.n == 1 for p in big)


def test_a_category_within_the_limit_keeps_every_pair_in_order():
    pairs = _pairs("c", 50, 3)
    keeper = PairKeeper(0.95, limit=50)
    keeper.add("c", iter(pairs))
    kept, left_out = keeper.result("holm")
    assert kept == _adjusted(pairs, "holm", 0.95) and left_out == []
