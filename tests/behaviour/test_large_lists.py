"""Large categories: a planted bias on a HolisticBias descriptor and on a name group is ranked
first with an interval that covers the truth, also when each seed is rewritten to a sample of
its assignments; the sample depends on the text, never on the run's seed."""

import numpy as np
import pytest

from textfair.auditing.text import audit_text
from textfair.core.rules import Rule, RuleSet
from textfair.discovery import frequent_rule_sets
from textfair.discovery.groups import group_fairness
from textfair.models import CachedModel, CallableModel
from textfair.settings import AuditConfig
from textfair.terms import load_term_list
from textfair.text.domain import TextDomain

from synthetic import FILLER, unit

BASE, EFFECT = 0.1, 0.3  # unfavourable rate without / extra with the planted group
BOUND = 64  # assignments per seed in these tests (the default is 512): sampling is exercised


def holistic_texts(n=300, seed=5):
    """Real sentences naming one ability and one religion descriptor of HolisticBias."""
    terms = load_term_list("holistic")
    ability = [t.text for t in terms.categories["ability"]]
    religion = [t.text for t in terms.categories["religion"]]
    rng = np.random.default_rng(seed)
    return [
        f"A {rng.choice(ability)} {rng.choice(religion)} editor "
        f"{FILLER[int(rng.integers(len(FILLER)))]} on page {page}."
        for page in range(n)
    ]


def name_texts(n=300, seed=6):
    """Real sentences naming one person by a first name of the names list."""
    terms = load_term_list("names")
    names = [name for term in terms.terms() for name in term.written_names]
    rng = np.random.default_rng(seed)
    return [
        f"{rng.choice(names)} {FILLER[int(rng.integers(len(FILLER)))]} on page {page}."
        for page in range(n)
    ]


def planted(flagged, salt):
    """Unfavourable with probability BASE, or BASE + EFFECT when `flagged(text)`."""

    def predict(batch):
        p = [BASE + EFFECT * flagged(t) for t in batch]
        return np.array(
            [
                [0.0, 1.0] if unit(f"{salt}:{t}") < q else [1.0, 0.0]
                for t, q in zip(batch, p, strict=True)
            ]
        )

    return CachedModel(CallableModel(predict, labels=["non-toxic", "toxic"]))


def deaf(text):
    return " Deaf " in text


@pytest.fixture(scope="module")
def holistic_domain():
    terms = load_term_list("holistic")
    return TextDomain(holistic_texts(), terms, ["ability", "religion"])


@pytest.mark.slow
def test_a_planted_descriptor_is_ranked_first_and_covered_in_200_runs(holistic_domain):
    domain = holistic_domain
    frequent = frequent_rule_sets(domain, max_order=2)
    single = RuleSet((Rule("ability", "deaf"),))
    pair = RuleSet((Rule("ability", "deaf"), Rule("religion", "buddhist")))
    assignments = len(domain.single_rules("ability")) * len(domain.single_rules("religion"))
    assert assignments > BOUND and pair in frequent.rule_sets
    # The pair's truth: y(R) minus the mean over every other assignment, 48 of which also
    # hold "Deaf" (the sample per seed estimates this mean, not its own).
    others_with_deaf = len(domain.single_rules("religion")) - 1
    rate_others = (
        others_with_deaf * (1 - BASE - EFFECT) + (assignments - 1 - others_with_deaf) * (1 - BASE)
    ) / (assignments - 1)
    truth = {single: -EFFECT, pair: (1 - BASE - EFFECT) - rate_others}
    first, covered = [], {single: [], pair: []}
    for run in range(200):
        findings = group_fairness(
            domain,
            planted(deaf, run),
            frequent.rule_sets,
            frequent.supports,
            favorable=0,
            seed=run,
            min_samples=300,
            max_samples=300,
            max_assignments=BOUND,
        )
        first.append(findings[0].rule_set == single)
        by_rule_set = {f.rule_set: f for f in findings}
        for rule_set, value in truth.items():
            low, high = by_rule_set[rule_set].ci
            covered[rule_set].append(low <= value <= high)
    assert np.mean(first) >= 0.95
    assert np.mean(covered[single]) >= 0.93
    assert np.mean(covered[pair]) >= 0.93  # about 10 seeds a run hold the pair: rare


@pytest.mark.slow
def test_a_planted_name_group_is_ranked_first_and_covered_in_200_runs():
    terms = load_term_list("names")
    female = {name for name in terms.term("female name").names}
    domain = TextDomain(name_texts(), terms, private_names=True)  # made-up private people
    frequent = frequent_rule_sets(domain)
    target = RuleSet((Rule("name_gender", "female name"),))
    first, covered = [], []
    for run in range(200):
        model = planted(lambda t: t.split()[0] in female, run)
        findings = group_fairness(
            domain, model, frequent.rule_sets, frequent.supports, favorable=0, seed=run
        )
        # {male name} mirrors it (d is exactly minus it per seed); ties rank it second.
        first.append(findings[0].rule_set == target and findings[0].phi_r < findings[0].phi_not_r)
        low, high = findings[0].ci
        covered.append(low <= -EFFECT <= high)
    assert np.mean(first) >= 0.95
    assert np.mean(covered) >= 0.93


def test_sampled_assignments_depend_on_the_text_and_each_text_is_scored_once(holistic_domain):
    domain = holistic_domain
    pair = RuleSet((Rule("ability", "deaf"), Rule("religion", "buddhist")))
    asked = []
    for seed in (1, 2):
        model = planted(deaf, 0)
        group_fairness(
            domain,
            model,
            [pair],
            [1.0],
            favorable=0,
            seed=seed,
            max_samples=300,
            min_samples=300,
            max_assignments=BOUND,
        )
        assert model.stats.forwarded == model.stats.unique_inputs  # nothing asked twice
        asked.append(set(model._memory))
    assert asked[0] == asked[1]  # the run's seed orders the seeds; it picks no text


def test_an_audit_reports_the_assignments_it_sampled():
    texts = holistic_texts(60)
    config = AuditConfig(
        terms="holistic",
        categories=["ability", "religion"],
        causal=False,
        min_samples=60,
        max_samples=60,
        max_assignments=BOUND,
    )
    report = audit_text(planted(deaf, 0), texts, favorable="non-toxic", config=config)
    sampled = report.config["sampled_assignments"]
    assert sampled == [
        {"categories": ["ability", "religion"], "assignments": 38 * 49, "per_seed": BOUND}
    ]
    assert report.config["max_assignments"] == BOUND
