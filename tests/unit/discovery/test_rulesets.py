"""TestSGD Alg. 1 with apriori pruning finds exactly what brute force finds; TextDomain."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textfair.core.rules import Rule
from textfair.discovery import frequent_rule_sets
from textfair.errors import TextfairError
from textfair.text.domain import TextDomain


class ArrayDomain:
    """Rows of categorical values; a rule is one value of one column."""

    def __init__(self, columns: dict[str, np.ndarray]):
        self.columns = columns

    def categories(self):
        return list(self.columns)

    def single_rules(self, category):
        return [Rule(category, str(v)) for v in sorted(set(self.columns[category].tolist()))]

    def support_mask(self, rule_set):
        mask = np.ones(len(next(iter(self.columns.values()))), dtype=bool)
        for rule in rule_set:
            mask &= self.columns[rule.category].astype(str) == rule.value
        return mask


def brute_force(domain, theta, max_order):
    names = domain.categories()
    found = set()
    for order in range(1, max_order + 1):
        for combo in itertools.combinations(sorted(names), order):
            for rules in itertools.product(*(domain.single_rules(c) for c in combo)):
                if domain.support_mask(rules).mean() >= theta:
                    found.add(tuple(rules))
    return found


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10_000),
    theta=st.sampled_from([0.0, 0.02, 0.05, 0.1, 0.3]),
    max_order=st.integers(1, 4),
)
def test_apriori_equals_brute_force(seed, theta, max_order):
    rng = np.random.default_rng(seed)
    domain = ArrayDomain(
        {
            name: rng.integers(0, size, 200)
            for name, size in zip(
                ["age", "race", "religion", "sex"], rng.integers(2, 6, 4), strict=True
            )
        }
    )
    result = frequent_rule_sets(domain, theta=theta, max_order=max_order)
    assert set(result.rule_sets) == brute_force(domain, theta, max_order)
    for rule_set, support in zip(result.rule_sets, result.supports, strict=True):
        assert support == pytest.approx(domain.support_mask(rule_set).mean())
    assert result.support_computations <= result.candidates_without_pruning


def test_pruning_never_extends_an_infrequent_set():
    domain = ArrayDomain({"a": np.array([0] * 95 + [1] * 5), "b": np.array([0, 1] * 50)})
    result = frequent_rule_sets(domain, theta=0.1, max_order=2)
    assert (Rule("a", "1"),) not in result.rule_sets
    assert all(Rule("a", "1") not in rs for rs in result.rule_sets)
    assert result.support_computations == 4 + 2  # 4 single rules, 2 pairs of frequent ones


TEXTS = [
    "I am a gay Muslim.",
    "A lesbian Christian spoke.",
    "Muslims pray here.",
    "The old man is kind.",
    "Nothing to see.",
    "A straight Jewish woman and a gay man.",
]


def test_text_domain_support_and_sampling():
    domain = TextDomain(TEXTS)
    gay_muslim = (Rule("gender", "gay"), Rule("religion", "muslim"))
    # The last text names "straight" and "gay": rewriting both to one term would merge them,
    # so it takes no part in gender's rows.
    assert domain.support_mask(gay_muslim).tolist() == [True, True, False, False, False, False]
    assert domain.several_terms == {"gender": 1, "race": 0, "religion": 0, "age": 0}
    assert domain.support_mask((Rule("age", "old"),)).tolist() == [False] * 3 + [True] + [False] * 2
    sample = domain.sample(gay_muslim, 20, np.random.default_rng(0))
    assert len(sample) == 20 and {v.seed_id for v in sample} <= {0, 1}
    assert "A gay Muslim spoke." in {v.text for v in sample}
    again = domain.sample(gay_muslim, 20, np.random.default_rng(0))
    assert [v.text for v in again] == [v.text for v in sample]
    negated = domain.sample(gay_muslim, 30, np.random.default_rng(1), negate=True)
    for variant in negated:
        targets = {(s.category, s.target) for s in variant.swaps}
        assert not {("gender", "gay"), ("religion", "muslim")} <= targets
    result = frequent_rule_sets(domain, theta=0.3, max_order=2)
    assert (Rule("gender", "gay"), Rule("religion", "muslim")) in result.rule_sets
    assert all(r.category != "age" for rs in result.rule_sets for r in rs)


def test_bad_parameters():
    domain = TextDomain(TEXTS)
    with pytest.raises(TextfairError, match="theta is 5"):
        frequent_rule_sets(domain, theta=5)
    with pytest.raises(TextfairError, match="max_order is 0"):
        frequent_rule_sets(domain, max_order=0)
    with pytest.raises(TextfairError, match="no seed text mentions every category"):
        domain.sample((Rule("age", "old"), Rule("race", "asian")), 5, np.random.default_rng(0))
    with pytest.raises(TextfairError, match="no texts"):
        TextDomain([])
