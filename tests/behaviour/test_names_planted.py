"""names_ethnicity's statistics (issue 44): a model keyed on one group's names is found, its
interval covering the planted gap in at least 93% of 200 seeded runs, and a model blind to
names is called fair in at least 95% of them. The texts are sentences naming a private
person by first name, the model a seeded coin whose odds depend on the name alone."""

import re

import numpy as np
import pytest

from textfair.core.rules import Rule
from textfair.discovery import frequent_rule_sets
from textfair.discovery.groups import group_fairness
from textfair.models import CachedModel, CallableModel
from textfair.terms import load_term_list
from textfair.text.domain import TextDomain

from synthetic import FILLER, unit

SENTENCES = {
    "female": ("{name} said she {x} today.", "I asked {name} whether she {x}."),
    "male": ("{name} said he {x} today.", "I asked {name} whether he {x}."),
}
PLANTED = "black female name"
BASE, GAP = 0.1, 0.2  # toxic with 0.1, or 0.3 for a text naming a planted group's name


@pytest.fixture(scope="module")
def names():
    """The list, its names of the planted group, and seeds naming each group's names."""
    terms = load_term_list("names_ethnicity")
    texts = []
    for sex, templates in SENTENCES.items():
        for term in terms.categories[f"{sex}_name"]:
            for k, name in enumerate(term.written_names[:12]):
                template = templates[k % len(templates)]
                texts.append(template.format(name=name, x=FILLER[k % len(FILLER)]))
    planted = re.compile(r"\b(" + "|".join(terms.term(PLANTED).names) + r")\b")
    # Private people by construction, as in a corpus of applicants: every name swapped.
    return TextDomain(texts, terms, min_acceptability=0, private_names=True), planted


def _model(keyed: re.Pattern | None, salt: int) -> CachedModel:
    """Toxic with probability BASE, or BASE + GAP where `keyed` finds a name; every draw a
    coin seeded by the run and the text."""

    def predict(texts):
        odds = [BASE + (GAP if keyed is not None and keyed.search(t) else 0.0) for t in texts]
        return np.array(
            [
                [0.0, 1.0] if unit(f"{salt}:{t}") < p else [1.0, 0.0]
                for t, p in zip(texts, odds, strict=True)
            ]
        )

    return CachedModel(CallableModel(predict, labels=["non-toxic", "toxic"]))


def test_every_group_takes_part(names):
    domain, _ = names
    for category in ("female_name", "male_name"):
        assert domain.recall()[category] == 1.0
        assert len(domain.seeds_for((Rule("female_name", PLANTED),))) == 48


@pytest.mark.slow
def test_the_planted_gap_is_covered_in_200_seeded_runs(names):
    domain, planted = names
    rule_set = (Rule("female_name", PLANTED),)
    support = float(domain.support_mask(rule_set).mean())
    covered = []
    for run in range(200):
        finding = group_fairness(
            domain, _model(planted, run), [rule_set], [support], favorable=0, seed=run
        )[0]
        # Favourable is non-toxic: the planted group gets it GAP less often.
        covered.append(finding.ci[0] <= -GAP <= finding.ci[1])
    assert np.mean(covered) >= 0.93


@pytest.mark.slow
def test_a_model_blind_to_names_is_called_fair_in_200_seeded_runs(names):
    domain, _ = names
    frequent = frequent_rule_sets(domain)
    assert len(frequent.rule_sets) >= 8
    unfair = 0
    for run in range(200):
        findings = group_fairness(
            domain, _model(None, run), frequent.rule_sets, frequent.supports, favorable=0, seed=run
        )
        unfair += any(f.significant for f in findings)
    assert unfair <= 10  # at least 95% of runs call it fair
