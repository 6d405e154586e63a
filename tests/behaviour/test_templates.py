"""Templated seeds beside the corpus (issue 55): every group tested whatever the corpus
names, reported apart, with the same statistics.

The planted model is a seeded coin whose odds depend on the text alone (held out: its salt
and its group were not used to write the suites); the statistics are the corpus's.
"""

import re

import numpy as np
import pytest

import textfair
from textfair.core.rules import Rule
from textfair.models import CallableModel
from textfair.terms import load_term_list
from textfair.text._minors import UNSAFE_FOR_MINORS, names_a_minor
from textfair.text.template_domain import TemplateDomain
from textfair.text.template_suites import SUITES, suite, suite_kinds

from synthetic import unit

BASE, GAP = 0.10, 0.25  # toxic with 0.10, or 0.35 for a text naming Muslims
MUSLIM = re.compile(r"\bmuslims?\b", re.IGNORECASE)


def _planted(salt: str) -> CallableModel:
    def predict(texts):
        odds = [BASE + (GAP if MUSLIM.search(t) else 0.0) for t in texts]
        return np.array(
            [
                [0.0, 1.0] if unit(f"{salt}:{t}") < p else [1.0, 0.0]
                for t, p in zip(texts, odds, strict=True)
            ]
        )

    return CallableModel(predict, labels=["non-toxic", "toxic"])


@pytest.fixture(scope="module")
def planted_report():
    """The default audit of the bundled comments by a model that judges texts naming
    Muslims toxic 35% of the time against 10% otherwise, toxic counted as favourable."""
    return textfair.audit(_planted("held-out-55"), favorable="toxic", model_id="planted")


def test_planted_anti_muslim_model_is_the_top_finding_on_templates(planted_report):
    section = planted_report.templates
    assert section is not None
    top = section.findings[0]
    assert top.rule_set == (Rule("religion", "muslim"),)
    assert top.significant and top.difference > 0
    # Whether its interval covers the planted 25 points is a draw of the model's coins:
    # test_planted_gap_is_covered_at_the_stated_rate counts it over many.
    # The verdict names it in the templates' part, never pooled with the corpus's.
    verdict = planted_report.summary()
    assert "On templates:" in verdict
    assert "muslim" in verdict.split("On templates:", 1)[1]


@pytest.mark.slow
def test_planted_gap_is_covered_at_the_stated_rate():
    """Over 40 held-out draws of the planted model's coins (default settings, every
    category of the default list, templates only: the corpus names nobody), the +25-point
    gap is the top finding and significant in at least 37 (its power, about 97% with the
    suite's 116 seeds per religion term and Holm's correction over 47 rule sets, measured
    39 of 40), and its 95% interval covers 25 in at least 35 of 40 (the binomial's 1st
    percentile at 95% is 35)."""
    found = covered = 0
    for k in range(40):
        report = textfair.audit(_planted(f"sim-{k}"), ["Nice."], favorable="toxic")
        top = report.templates.findings[0]
        found += top.rule_set == (Rule("religion", "muslim"),) and top.significant
        covered += top.ci[0] <= GAP <= top.ci[1]
    assert found >= 37, found
    assert covered >= 35, covered


def test_every_default_category_is_tested_on_the_bundled_comments(planted_report):
    coverage = {c.category: c for c in planted_report.coverage()}
    assert set(coverage) == {"gender", "race", "religion", "age"}
    assert all(c.tested for c in coverage.values()), coverage
    assert all(c.on_templates for c in coverage.values()), coverage
    assert planted_report.untested(["religion", "race"]) == ()


def test_report_json_round_trips_with_its_templates(planted_report):
    again = textfair.AuditReport.from_dict(planted_report.to_dict())
    assert again == planted_report
    assert again.templates is not None and again.templates.findings


@pytest.mark.parametrize(
    "terms",
    # nationality's templates take 7 s: in the slow tier.
    ["names_ethnicity", pytest.param("nationality", marks=pytest.mark.slow)],
)
def test_lists_that_need_names_test_something_on_a_corpus_naming_nobody(terms):
    texts = ["The weather is nice today.", "Nothing happened here.", "Great film."]
    report = textfair.audit(_planted("names"), texts, terms=terms, max_samples=200)
    assert report.findings == ()  # the texts name nobody ...
    assert "nothing_tested" in report.data
    assert report.templates is not None and report.templates.findings  # ... templates do
    verdict = report.summary()
    assert verdict.startswith("Tested: ") and "On your texts: nothing tested" in verdict


def test_templates_none_on_a_corpus_naming_nobody_is_one_line():
    with pytest.raises(textfair.TextfairError, match="none of the 2 texts read mentions"):
        textfair.audit(_planted("x"), ["Nice.", "Fine."], templates="none")


def test_every_term_fills_every_template_that_suits_it():
    terms = load_term_list("dixon2018")
    domain = TemplateDomain(suite("toxicity"), terms, None, suite_kinds("toxicity"))
    for index, seed in enumerate(domain.seeds):
        texts = {domain.rewrite(index, (Rule(seed.category, t.id),)).text for t in seed.terms}
        assert len(texts) == len(seed.terms), texts  # each term writes its own text
    per_term = {}
    for seed in domain.seeds:
        for term in seed.terms:
            per_term[(seed.category, term.id)] = per_term.get((seed.category, term.id), 0) + 1
    # Every term on an axis of two or more terms (millennial is alone on its own).
    expected = {(c, t.id) for c, ts in terms.categories.items() for t in ts if t.id != "millennial"}
    assert set(per_term) == expected
    assert min(per_term.values()) >= 30


def test_names_get_a_placebo_edit_of_another_name_of_the_same_group():
    terms = load_term_list("names_ethnicity")
    domain = TemplateDomain(suite("toxicity"), terms, None, suite_kinds("toxicity"))
    for index in range(0, len(domain.seeds), 7):
        seed = domain.seeds[index]
        placebo = domain.placebo(index, [seed.category])
        assert placebo is not None and placebo.text != domain.input(index)
        first = placebo.text.split()[0] if not placebo.text.startswith("I ") else None
        names = set(seed.own.names)
        assert any(word.strip(",.") in names for word in placebo.text.split()), first


def test_pronouns_agree_with_the_name_written():
    terms = load_term_list("names")
    domain = TemplateDomain(
        ["{identity:name} said {he} would call {him} back about {his} edit."], terms
    )
    seed = domain.seeds[0]
    female = next(t for t in seed.terms if t.gender == "female")
    male = next(t for t in seed.terms if t.gender == "male")
    assert " said she would call her back about her edit." in domain.write(0, female)
    assert " said he would call him back about his edit." in domain.write(0, male)


def test_no_minor_is_written_into_sexual_or_violent_text():
    # The built-in suites hold no such word, so they never need the rule ...
    for frames in SUITES.values():
        for frame in frames:
            assert not set(re.findall(r"[a-z]+", frame.text.lower())) & UNSAFE_FOR_MINORS, frame
    # ... and a user's template that does is never written with a term naming a minor.
    terms = load_term_list("dixon2018")
    domain = TemplateDomain(["I want to kiss a {age} person."], terms)
    written = {t.id for seed in domain.seeds for t in seed.terms}
    assert written and not {"teenage", "young", "younger"} & written
    assert domain.minors_left_out["age"] > 0
    assert names_a_minor(terms.term("teenage")) and not names_a_minor(terms.term("elderly"))


def test_a_template_without_one_identity_slot_is_one_line():
    terms = load_term_list("dixon2018")
    for bad in ["No slot here.", "{religion} and {age} people."]:
        with pytest.raises(textfair.TextfairError, match="identity slots; expected one"):
            TemplateDomain([bad], terms)
    with pytest.raises(textfair.TextfairError, match="names no category"):
        TemplateDomain(["I am a {colour} person."], terms)
