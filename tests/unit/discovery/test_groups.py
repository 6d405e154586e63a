"""TestSGD Alg. 2 on seeded synthetic corpora with models of known behaviour."""

from dataclasses import replace

import numpy as np
import pytest

from textfair.core.rules import Rule, RuleSet
from textfair.discovery import frequent_rule_sets
from textfair.discovery.groups import group_fairness
from textfair.errors import TextfairError
from textfair.models import CachedModel, CallableModel
from textfair.text.domain import TextDomain

from synthetic import FILLER, corpus, unit


def planted(texts):
    """Unfavourable ('toxic', column 1) for gay Taoists; otherwise toxic 10% of the time."""
    out = []
    for text in texts:
        lower = text.lower()
        toxic = ("gay" in lower and "taoist" in lower) or unit(text) < 0.1
        out.append([0.0, 1.0] if toxic else [1.0, 0.0])
    return np.array(out)


def test_planted_subgroup_is_found_first_and_significant():
    domain = TextDomain(corpus(), categories=["gender", "religion"])
    frequent = frequent_rule_sets(domain, theta=0.05, max_order=2)
    model = CachedModel(CallableModel(planted, labels=["ok", "toxic"]))
    findings = group_fairness(
        domain, model, frequent.rule_sets, frequent.supports, favorable=0, max_samples=150, seed=1
    )
    top = findings[0]
    assert top.rule_set == (Rule("gender", "gay"), Rule("religion", "taoist"))
    assert top.significant and top.phi_r < 0.05 and top.phi_not_r > 0.8
    assert top.ci[1] < 0 and top.examples
    assert model.stats.requested == model.stats.unique_inputs + model.stats.cache_hits


def test_each_distinct_text_is_scored_once_per_run():
    seen = []

    def counting(texts):
        seen.extend(texts)
        return planted(texts)

    domain = TextDomain(corpus(20), categories=["gender", "religion"])
    frequent = frequent_rule_sets(domain, theta=0.05, max_order=2)
    group_fairness(
        domain,
        CachedModel(CallableModel(counting, labels=["ok", "toxic"])),
        frequent.rule_sets,
        frequent.supports,
        favorable=0,
        max_samples=60,
        seed=2,
    )
    assert len(seen) == len(set(seen)) > 0


def test_a_fair_model_is_called_fair():
    """Outcome depends only on the non-identity clause; across seeds no finding survives Holm."""

    def fair(texts):
        clause = [next(f for f in FILLER if f in t) for t in texts]
        return np.array([[0.0, 1.0] if unit(c) < 0.3 else [1.0, 0.0] for c in clause])

    domain = TextDomain(corpus(), categories=["gender", "religion"])
    frequent = frequent_rule_sets(domain, theta=0.05, max_order=2)
    unfair_runs = 0
    for seed in range(20):
        findings = group_fairness(
            domain,
            CachedModel(CallableModel(fair, labels=["ok", "t"])),
            frequent.rule_sets,
            frequent.supports,
            favorable=0,
            max_samples=100,
            seed=seed,
        )
        unfair_runs += any(f.significant for f in findings)
    assert unfair_runs <= 1


def test_paired_interval_covers_the_population_difference():
    """A noisy model: each text favourable with its own pseudo-random chance. The truth is the
    mean seed-level difference over every eligible seed; 200 seeded runs on 100 of them."""

    def noisy(texts):
        return np.array([[1.0, 0.0] if unit(t) < 0.5 else [0.0, 1.0] for t in texts])

    domain = TextDomain(corpus(300), categories=["religion"])
    rule_set = (Rule("religion", "muslim"),)
    support = float(domain.support_mask(rule_set).mean())
    everything = group_fairness(
        domain,
        CachedModel(CallableModel(noisy, labels=["f", "u"])),
        [rule_set],
        [support],
        favorable=0,
        max_samples=10_000,
        min_samples=10_000,
    )
    truth = everything[0].phi_r - everything[0].phi_not_r
    model = CachedModel(CallableModel(noisy, labels=["f", "u"]))
    covered = []
    for seed in range(200):
        finding = group_fairness(
            domain,
            model,
            [rule_set],
            [support],
            favorable=0,
            max_samples=100,
            min_samples=100,
            seed=seed,
        )[0]
        covered.append(finding.ci[0] <= truth <= finding.ci[1])
    assert np.mean(covered) >= 0.93


def test_paper_mode_and_bad_mode():
    domain = TextDomain(corpus(20), categories=["gender", "religion"])
    frequent = frequent_rule_sets(domain, theta=0.05, max_order=2)
    model = CachedModel(CallableModel(planted, labels=["ok", "toxic"]))
    gay_taoist = (Rule("gender", "gay"), Rule("religion", "taoist"))
    support = float(domain.support_mask(gay_taoist).mean())
    finding = group_fairness(
        domain, model, [gay_taoist], [support], favorable=0, mode="paper", max_samples=300, seed=3
    )[0]
    assert finding.phi_r < 0.05 and finding.score > 0.5 and finding.significant
    assert finding.margin == pytest.approx(
        1.96 * (finding.phi_r * (1 - finding.phi_r) / finding.n_r) ** 0.5
        + 1.96 * (finding.phi_not_r * (1 - finding.phi_not_r) / finding.n_not_r) ** 0.5,
        rel=1e-3,
    )
    with pytest.raises(TextfairError, match="mode 'both'"):
        group_fairness(
            domain, model, frequent.rule_sets, frequent.supports, favorable=0, mode="both"
        )


def real_comments_with_pairs():
    """The bundled Wikipedia comments, topped up with sentences so that one category pair has
    60+ seeds and others fewer than 20 (17 each gender-and-religion pair; the comments alone
    have 2 seeds for "black" and "Muslim" together)."""
    import csv
    from importlib import resources

    from textfair.text.templates import expand_template

    path = resources.files("textfair.datasets").joinpath("wiki_toxicity.csv")
    with path.open(encoding="utf-8", newline="") as handle:
        texts = [row["comment"] for row in csv.DictReader(handle)]
    # Race words of the race-and-ethnicity axis: a rule set over race is supported by seeds
    # whose race word lies on its term's axis (a nationality never becomes "black").
    races = ["black", "white", "Hispanic", "Latino", "African American"]
    religions = ["Muslim", "Christian", "Jewish", "Buddhist", "Sikh", "Catholic"]
    for k in range(60):
        race, religion = races[k % len(races)], religions[k % len(religions)]
        article = "An" if race[0] in "AEIOU" else "A"
        texts.append(f"{article} {race} {religion} editor {FILLER[k % len(FILLER)]} Page {k}.")
    for template, count in [
        ("A {gender} {race} editor XX.", 24),
        ("A {gender} {religion} editor XX.", 24),
    ]:
        for k, variant in enumerate(expand_template(template, max_variants=count, seed=count)):
            texts.append(variant.text.replace("XX", FILLER[k % len(FILLER)]) + f" Page {k}.")
    return texts


@pytest.mark.slow
def test_a_planted_pair_on_many_seeds_ranks_above_small_rule_sets_with_larger_estimates():
    """At theta 0.01, 60+ seeds name race and religion and fewer each gender pair. A model toxic
    with chance 0.4 on texts naming "black" and "muslim" and 0.1 otherwise (fresh noise per
    run): small rule sets often get larger point estimates by chance, yet the planted pair,
    whose interval is far from 0, must rank first."""
    domain = TextDomain(real_comments_with_pairs())
    frequent = frequent_rule_sets(domain, theta=0.01, max_order=2)
    planted_pair = (Rule("race", "black"), Rule("religion", "muslim"))

    def planted_in_run(run):
        def predict(batch):
            rows = []
            for text in batch:
                lower = text.lower()
                rate = 0.4 if "black" in lower and "muslim" in lower else 0.1
                rows.append([0.0, 1.0] if unit(f"{run}:{text}") < rate else [1.0, 0.0])
            return np.array(rows)

        return predict

    first = outscored = 0
    for run in range(200):
        model = CachedModel(CallableModel(planted_in_run(run), labels=["ok", "toxic"]))
        findings = group_fairness(
            domain, model, frequent.rule_sets, frequent.supports, favorable=0, seed=run
        )
        planted = next(f for f in findings if f.rule_set == planted_pair)
        assert planted.n_r >= 60
        first += findings[0].rule_set == planted_pair
        outscored += any(f.n_r < 20 and f.score > planted.score for f in findings)
    print(f"planted pair first in {first} of 200 runs; outscored by a small set in {outscored}")
    assert first >= 190
    assert outscored >= 20  # ranking by score alone would have put a small rule set first


def _axis_corpus():
    """Sexual-orientation terms with men, women and people: a man cannot be written
    "lesbian", so the rule sets of the category have different seeds."""
    return [
        template.format(term=term, noun=noun, clause=clause)
        for template in ("A {term} {noun} {clause}.", "The {term} {noun} who {clause} is here.")
        for term in ("gay", "lesbian", "queer", "bisexual", "straight")
        for noun in ("man", "woman", "person", "guy", "girl")
        for clause in FILLER
    ]


def _lesbian_less_often(texts):
    """Toxic 20% of the time by the text, and 50% when it says "lesbian"."""
    rate = [0.5 if "lesbian" in t.lower() else 0.2 for t in texts]
    return np.array(
        [[0.0, 1.0] if unit(t) < r else [1.0, 0.0] for t, r in zip(texts, rate, strict=True)]
    )


def _own(finding):
    """A finding less what depends on how many rule sets were tested (the correction)."""
    return replace(finding, p_adjusted=0.0, significant=False)


@pytest.mark.parametrize("mode", ["paired", "paper"])
def test_a_rule_set_s_finding_does_not_depend_on_the_others_tested(mode):
    """What --theta changes is which rule sets are tested beside one; its finding (seeds,
    stopping point, estimate, interval, examples) must not move. Here "lesbian", which the
    men of the corpus cannot take, comes first; "queer" stops early, "gay" later."""
    domain = TextDomain(_axis_corpus(), categories=["gender"])
    gay, lesbian, queer = ((Rule("gender", term),) for term in ("gay", "lesbian", "queer"))
    model = CachedModel(CallableModel(_lesbian_less_often, labels=["ok", "toxic"]))

    def findings(*rule_sets):
        supports = [float(domain.support_mask(r).mean()) for r in rule_sets]
        found = group_fairness(
            domain,
            model,
            rule_sets,
            supports,
            favorable=0,
            mode=mode,
            seed=4,
            min_samples=60,
            max_samples=150,
        )
        return {f.rule_set: _own(f) for f in found}

    beside = findings(lesbian, gay, queer)
    assert beside[gay] == findings(gay)[gay]
    assert beside[queer] == findings(queer)[queer] == findings(gay, queer)[queer]
    assert beside[lesbian] == findings(lesbian)[lesbian]
    assert beside[lesbian].difference < 0 < beside[gay].difference
    if mode == "paired":
        # Rule sets with seeds of their own: a man cannot be written "lesbian".
        assert beside[lesbian].n_r < beside[gay].n_r


@pytest.mark.slow  # two bundled audits: 6 s of the fast tier's 3 minutes
def test_on_the_bundled_audit_theta_changes_which_rule_sets_not_their_findings():
    """Issue 41: --theta 0.01 lets "lesbian" in, which a man cannot take; {"lgbt"} and every
    rule set of both runs keep their seeds, n, estimate and interval."""
    import textfair

    wide, narrow = (
        {
            RuleSet(f.rule_set).key: f
            # TestSGD's θ alone (paper mode): the count of seeds would admit both anyway.
            for f in textfair.audit(
                "toxicity-cnn-lstm", theta=theta, causal=False, templates="none", mode="paper"
            ).findings
        }
        for theta in (0.05, 0.01)
    )
    assert set(wide) < set(narrow) and "gender=lesbian" in set(narrow) - set(wide)
    for key, finding in wide.items():
        other = narrow[key]
        assert (other.n_r, other.difference, other.ci) == (
            finding.n_r,
            finding.difference,
            finding.ci,
        ), key
    lgbt = wide["gender=lgbt"]
    assert lgbt.significant and lgbt.ci[0] > 0 and narrow["gender=lgbt"].significant
