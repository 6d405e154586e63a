"""Generators: counterfactual enumeration and sampling, rule-satisfying rewrites, templates."""

import math

import pytest

from textfair.errors import TextfairError
from textfair.text.gender import gender_swap
from textfair.text.generate import counterfactuals
from textfair.text.rule_satisfying import rule_satisfying, sample_rule_satisfying
from textfair.text.templates import TEMPLATES, expand_template, expand_templates


def test_one_mention_gives_every_other_term_of_its_category():
    variants = counterfactuals("I am a Muslim.", ["religion"])
    assert len(variants) == 8
    assert {v.swaps[0].target for v in variants} == {
        "christian",
        "jewish",
        "buddhist",
        "catholic",
        "protestant",
        "sikh",
        "taoist",
        "atheist",
    }
    assert "I am a Jew." in {v.text for v in variants}
    assert all(v.swaps[0].source == "muslim" for v in variants)


def test_joint_categories_enumerate_the_product_without_the_original():
    # "gay" lies on the sexual-orientation axis (9 terms of gender's 14): it never becomes
    # a gender identity ("a female Muslim").
    variants = counterfactuals("A gay Muslim.", ["gender", "religion"], max_variants=10_000)
    assert len(variants) == 9 * 9 - 1
    assert len({v.text for v in variants}) == len(variants)
    assert "A gay Muslim." not in {v.text for v in variants}
    single = [v for v in variants if len(v.swaps) == 1]
    assert len(single) == 8 + 8  # one category changed, the other kept


def test_distinct_terms_stay_distinct_and_mentions_of_one_term_change_together():
    text = "Christians and Muslims pray. A Muslim spoke."
    variants = counterfactuals(text, ["religion"], max_variants=10_000)
    # "atheist" is never written beside "pray" (a clash): 8 of the 9 terms remain.
    assert len(variants) == math.perm(8, 2) - 1
    for variant in variants:
        targets = [s.target for s in variant.swaps]
        assert len(targets) == len(set(targets))
    only_muslims = [
        v for v in variants if [(s.source, s.target) for s in v.swaps] == [("muslim", "jewish")]
    ]
    assert [v.text for v in only_muslims] == ["Christians and Jews pray. A Jew spoke."]


def test_sampling_is_seeded_uniform_and_without_repeats():
    text = "A gay Muslim Asian elderly man."
    first = counterfactuals(text, max_variants=50, seed=3)
    again = counterfactuals(text, max_variants=50, seed=3)
    other = counterfactuals(text, max_variants=50, seed=4)
    assert [v.text for v in first] == [v.text for v in again]
    assert [v.text for v in first] != [v.text for v in other]
    assert len({v.text for v in first}) == 50


def test_no_mention_no_variant_and_bad_arguments():
    assert counterfactuals("The weather is nice.") == []
    with pytest.raises(TextfairError, match="max_variants is 0"):
        counterfactuals("a gay man", max_variants=0)
    with pytest.raises(TextfairError, match="unknown category 'colour'"):
        counterfactuals("a gay man", ["colour"])


def test_rule_satisfying_is_testsgds_sample_d_r():
    variant = rule_satisfying(
        "I am a lesbian and a Muslim.", {"gender": "gay", "religion": "taoist"}
    )
    assert variant.text == "I am a gay person and a Taoist."
    assert {(s.category, s.source, s.target) for s in variant.swaps} == {
        ("gender", "lesbian", "gay"),
        ("religion", "muslim", "taoist"),
    }
    assert rule_satisfying("I am a lesbian.", {"gender": "gay", "religion": "taoist"}) is None
    with pytest.raises(TextfairError, match="'gay' is in category 'gender', not 'religion'"):
        rule_satisfying("a gay man", {"religion": "gay"})


def test_sample_rule_satisfying_draws_only_eligible_seeds_with_the_seed():
    texts = ["a gay man", "the weather", "Muslims pray", "a lesbian Muslim"]
    sample = sample_rule_satisfying(texts, {"religion": "sikh"}, 20, seed=1)
    assert len(sample) == 20 and {v.seed_id for v in sample} <= {2, 3}
    assert [v.text for v in sample] == [
        v.text for v in sample_rule_satisfying(texts, {"religion": "sikh"}, 20, seed=1)
    ]
    with pytest.raises(TextfairError, match="no text mentions every category"):
        sample_rule_satisfying(["the weather"], {"religion": "sikh"}, 5, seed=0)


def test_templates_cover_both_tasks_and_write_grammatical_text():
    assert len(TEMPLATES) >= 20
    assert {t.task for t in TEMPLATES} == {"toxicity", "sentiment"}
    texts = {v.text for v in expand_template("I am a {identity} person.")}
    assert {"I am an Asian person.", "I am a European person.", "I am an LGBT person."} <= texts
    plurals = {v.text for v in expand_template("{religion:plural} will love this film.")}
    assert "Jews will love this film." in plurals
    nouns = {v.text for v in expand_template("She is a {age:noun}.")}
    assert {"She is a teenager.", "She is an old person."} <= nouns
    two = expand_template("A {religion} and a {religion} walk in.")
    assert len(two) == 9 * 8
    sampled = expand_templates(categories=["age"], max_per_template=2, seed=5)
    assert len(sampled) == 2 * len(TEMPLATES)
    assert sampled == expand_templates(categories=["age"], max_per_template=2, seed=5)
    with pytest.raises(TextfairError, match="names no category"):
        expand_template("a {colour} car")
    with pytest.raises(TextfairError, match="has no slot"):
        expand_template("no slot here")


def test_gender_swap_variant_records_its_swaps():
    variant = gender_swap("He loves her.", seed_id=7)
    record = variant.to_record()
    assert record["text"] == "She loves him." and record["seed_id"] == 7
    assert record["category"] == "gender_pairs+gender_pairs"
    assert [s["from"] for s in record["swaps"]] == ["he", "her"]
    assert gender_swap("The weather is nice.") is None


def test_sampled_targets_are_uniform_over_the_category():
    """Chi-square over 300 seeded runs: every term "gay" may become is drawn equally often
    (its axis, sexual orientation, less "lesbian", which "man" contradicts)."""
    from collections import Counter

    counts = Counter()
    for seed in range(300):
        for variant in counterfactuals(
            "A gay Muslim Asian elderly man.", max_variants=20, seed=seed, with_edits=False
        ):
            counts[next((s.target for s in variant.swaps if s.category == "gender"), "gay")] += 1
    expected = sum(counts.values()) / 8
    chi_square = sum((counts[t] - expected) ** 2 / expected for t in counts)
    assert len(counts) == 8
    assert "lesbian" not in counts
    assert chi_square < 24.3  # 99.9th percentile of chi-square with 7 degrees of freedom
