"""Two versions of a model compared on the same seeds (`textfair.compare`): the paired
interval holds at its level on planted changes (of a rule set's difference and of a causal
score's flip rate), is narrower than two independent audits', and a baseline that cannot be
paired is refused in one line."""

import dataclasses
import json
import math
import zlib

import numpy as np
import pytest

import textfair
from textfair.core.rules import Rule, RuleSet
from textfair.discovery._causal import BATCH
from textfair.discovery.findings import GroupFinding
from textfair.discovery.paired_rows import BATCH_SEEDS
from textfair.discovery.results import CausalScore
from textfair.report.model import AuditReport
from textfair.report.versions import paired_causal_change, paired_change
from textfair.stats import bounded_mean

from conftest import bundled_comments, one_line_error

TEXTS = bundled_comments()[0][:500]
SETTINGS = dict(categories=["gender"], templates="none", causal=False, seed=0)


def _stopped(d: np.ndarray, error: float = 0.05, least: int = 100, most: int = 1000) -> int:
    """Where an audit's rule set stops reading seeds (`paired_rows`' rule): at the first
    checkpoint (least, then every BATCH_SEEDS) whose interval is at most ±error."""
    n = least
    while n < most and bounded_mean(d[:n]).half_width > error:
        n += BATCH_SEEDS
    return min(n, most)


def _finding(seeds: np.ndarray, d: np.ndarray) -> GroupFinding:
    n = _stopped(d)
    interval = bounded_mean(d[:n])
    return GroupFinding(
        rule_set=RuleSet((Rule("gender", "gay"),)),
        phi_r=float(d[:n].mean()),
        phi_not_r=0.0,
        score=abs(float(d[:n].mean())),
        margin=0.0,
        ci=(interval.low, interval.high),
        p_value=interval.p_value,
        n_r=n,
        n_not_r=n,
        support=0.1,
        seeds=tuple(int(s) for s in seeds[:n]),
        differences=tuple(float(x) for x in d[:n]),
    )


def _versions(rng, seeds: int, others: int, rate: float, flip: float, planted: float):
    """Per seed, the old version's difference d = y(R) - mean y(not R) and the new one's,
    over `seeds` seeds of a population: each seed has its own rate of unfavourable outcomes
    (a Beta around `rate`) for its R variant and `others` other variants; the new version
    flips each decision with probability `flip` and turns R's to unfavourable with
    probability `planted` (the planted change). The same draws decide both versions'
    unchanged decisions, as one corpus does."""
    p = rng.beta(rate * 4 + 0.1, (1 - rate) * 4 + 0.1, size=(seeds, 1))
    old = (rng.random((seeds, others + 1)) < p).astype(float)
    new = np.where(rng.random(old.shape) < flip, 1 - old, old)
    new[:, 0] = np.where(rng.random(seeds) < planted, 0.0, new[:, 0])
    return old[:, 0] - old[:, 1:].mean(axis=1), new[:, 0] - new[:, 1:].mean(axis=1)


# (others, rate, flip, planted): rare and common changes, few and many other assignments.
CASES = [
    (1, 0.2, 0.0, 0.02),
    (1, 0.5, 0.03, 0.1),
    (4, 0.02, 0.005, 0.05),
    (4, 0.2, 0.03, 0.0),
    (15, 0.5, 0.15, 0.1),
    (15, 0.02, 0.03, 0.3),
]


def _coverage(case, runs: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    old, new = _versions(rng, 400_000, *case)
    truth = float((new - old).mean())  # the population's change, to ±0.002
    covered = 0
    for _ in range(runs):
        picked = rng.choice(400_000, size=1000, replace=False)
        change = paired_change(
            "texts",
            _finding(picked, old[picked]),
            _finding(picked, new[picked]),
            0.95,
        )
        assert change is not None
        covered += change.ci[0] <= truth <= change.ci[1]
    return covered / runs


def test_the_paired_interval_covers_planted_changes():
    """Two versions, each stopping as an audit does on its own interval; the change read
    on the seeds both read: 95% intervals cover the planted change at least 93% of the
    time over every case (200 runs each here; the slow test runs 1,000)."""
    coverages = [_coverage(case, 200, 5801 + k) for k, case in enumerate(CASES)]
    assert sum(coverages) / len(coverages) >= 0.93, coverages
    assert min(coverages) >= 0.9, coverages


@pytest.mark.slow  # 6,000 simulated comparisons: about a minute
def test_the_paired_interval_covers_planted_changes_at_length():
    coverages = [_coverage(case, 1000, 5811 + k) for k, case in enumerate(CASES)]
    assert min(coverages) >= 0.93, coverages


def _sampled(flips: np.ndarray, error: float = 0.05, least: int = 100, most: int = 1000) -> int:
    """Where an audit's causal test stops sampling seeds (`_causal`'s rule): at the first
    checkpoint (least, then every BATCH) whose flip rate's interval is at most ±error."""
    n = least
    while n < most and bounded_mean(flips[:n], 0.0, 1.0).half_width > error:
        n += BATCH
    return min(n, most)


def _causal(seeds: np.ndarray, flips: np.ndarray) -> CausalScore:
    n = _sampled(flips)
    interval = bounded_mean(flips[:n], 0.0, 1.0)
    return CausalScore(
        ("gender",),
        interval.estimate,
        (interval.low, interval.high),
        int(flips[:n].sum()),
        n,
        edited=n,
        seeds=tuple(int(s) for s in seeds[:n]),
        seed_flips=tuple(int(f) for f in flips[:n]),
    )


def _flip_versions(rng, seeds: int, rate: float, churn: float, planted: float):
    """Per seed, whether some counterfactual flips the old version's decision and the new
    one's: each seed flips with its own propensity (a Beta around `rate`) in the old
    version; the new one draws a seed's flip again, from the same propensity, with
    probability `churn` (changes that cancel out on average), and plants a change: with
    probability `planted` a seed that did not flip now does (`planted` < 0: with probability
    -`planted` a seed that flipped no longer does)."""
    p = rng.beta(rate * 4 + 0.1, (1 - rate) * 4 + 0.1, size=seeds)
    old = rng.random(seeds) < p
    new = np.where(rng.random(seeds) < churn, rng.random(seeds) < p, old)
    moved = rng.random(seeds) < abs(planted)
    new = np.where(moved & (new != (planted > 0)), planted > 0, new)
    return old.astype(float), new.astype(float)


# (rate, churn, planted): flips rare and common, a change on a few seeds and on many, up and
# down, and changes that cancel out.
CAUSAL_CASES = [
    (0.01, 0.0, 0.01),
    (0.02, 0.005, 0.03),
    (0.05, 0.02, 0.0),
    (0.2, 0.05, 0.1),
    (0.3, 0.1, -0.2),
    (0.5, 0.0, 0.05),
]


def _causal_coverage(case, runs: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    old, new = _flip_versions(rng, 400_000, *case)
    truth = float((new - old).mean())  # the population's change, to ±0.001
    covered = 0
    for _ in range(runs):
        picked = rng.choice(400_000, size=1000, replace=False)
        change = paired_causal_change(
            "texts", _causal(picked, old[picked]), _causal(picked, new[picked]), 0.95
        )
        assert change is not None
        covered += change.ci[0] <= truth <= change.ci[1]
    return covered / runs


def test_the_paired_flip_rate_interval_covers_planted_changes():
    """A causal score's flip rate in two versions, each stopping as an audit's causal test
    does; the change read on the seeds both sampled: 95% intervals cover the planted change
    at least 93% of the time over every case (200 runs each here; the slow test runs
    1,000)."""
    coverages = [_causal_coverage(case, 200, 5831 + k) for k, case in enumerate(CAUSAL_CASES)]
    assert sum(coverages) / len(coverages) >= 0.93, coverages
    assert min(coverages) >= 0.9, coverages


@pytest.mark.slow  # 6,000 simulated comparisons
def test_the_paired_flip_rate_interval_covers_planted_changes_at_length():
    coverages = [_causal_coverage(case, 1000, 5841 + k) for k, case in enumerate(CAUSAL_CASES)]
    assert min(coverages) >= 0.93, coverages


def test_flip_rates_are_paired_on_the_seeds_both_sampled_and_none_is_no_comparison():
    old = CausalScore(("race",), 0.5, (0.2, 0.8), 2, 4, seeds=(7, 3, 9, 1), seed_flips=(1, 0, 1, 0))
    new = CausalScore(("race",), 0.5, (0.2, 0.8), 1, 2, seeds=(7, 3), seed_flips=(0, 1))
    change = paired_causal_change("texts", old, new, 0.95)
    assert change is not None and change.n == 2
    assert (change.old, change.new, change.change) == (0.5, 0.5, 0.0)
    elsewhere = dataclasses.replace(new, seeds=(2, 4))
    assert paired_causal_change("texts", old, elsewhere, 0.95) is None
    unkept = dataclasses.replace(old, seeds=None, seed_flips=None)
    assert paired_causal_change("texts", unkept, new, 0.95) is None


def test_a_version_compared_with_itself_has_changed_nothing():
    report = textfair.audit("toxicity-cnn-lstm", TEXTS, **SETTINGS)
    assert report.findings and all(f.seeds for f in report.findings)
    comparison = textfair.compare(report, report)
    assert len(comparison.changes) == len(report.findings)
    assert comparison.worse() == () and comparison.better() == ()
    assert all(c.change == 0 and c.ci[0] < 0 < c.ci[1] for c in comparison.changes)
    assert "none got worse, none better" in comparison.verdict()


class _FlipsOnMuslim:
    """The bundled model, except that a third of the texts naming "muslim" (chosen by the
    text itself, so every audit picks the same ones) are answered toxic: a new version whose
    decisions flip more often when only a religion term changes."""

    def __init__(self, base):
        self.base, self.labels = base, base.labels

    def predict_proba(self, texts):
        answers = np.array(self.base.predict_proba(texts), dtype=float)
        hit = ["muslim" in t.lower() and zlib.crc32(t.encode()) % 3 == 0 for t in texts]
        answers[np.array(hit, dtype=bool)] = [0.1, 0.9]  # (non-toxic, toxic)
        return answers


@pytest.fixture(scope="module")
def flipping_versions():
    """The bundled model and its version that flips more under religion swaps, audited on
    500 comments (gender and religion, causal tests on): about 3 s."""
    base = textfair.load_model("toxicity-cnn-lstm")
    assert base.labels == ("non-toxic", "toxic")
    settings = dict(categories=["gender", "religion"], templates="none", seed=0)
    old = textfair.audit(base, TEXTS, model_id="v1", **settings)
    new = textfair.audit(_FlipsOnMuslim(base), TEXTS, model_id="v2", **settings)
    return old, new


def test_a_version_that_flips_more_on_religion_is_worse_on_its_causal_score(flipping_versions):
    """Real audits: religion's flip rate (and that of the sets holding it) got significantly
    worse, gender's did not change, and every paired interval is at most as wide as the one
    two independent audits of as many seeds give."""
    old, new = flipping_versions
    assert all(
        c.seeds and len(c.seeds) == c.n == len(c.seed_flips) for c in old.counterfactual.causal
    )
    assert all(sum(c.seed_flips) == c.flips for c in new.counterfactual.causal)
    comparison = textfair.compare(old, new)
    by_set = {c.categories: c for c in comparison.causal}
    assert set(by_set) == {("gender",), ("religion",), ("gender", "religion")}
    religion, gender = by_set[("religion",)], by_set[("gender",)]
    assert religion.worse and religion.change > 0.1 and religion.ci[0] > 0
    sampled = [
        c.n for v in (old, new) for c in v.counterfactual.causal if c.categories == ("religion",)
    ]
    assert religion.n == min(sampled)  # the seeds both sampled: the shorter run's
    assert gender.change == 0 and not gender.significant
    assert all(c.width_ratio <= 1 for c in comparison.causal), [
        c.width_ratio for c in comparison.causal
    ]
    assert gender.width_ratio < 0.6  # nothing moved: pairing halves the interval
    # The verdict, the gate and the lines count it; report.json's baseline holds it.
    assert religion in comparison.worse(5) and "flip rate of religion +" in comparison.verdict()
    # One regression counted once: {gender, religion} moved with religion, at its smallest set.
    assert [c.categories for c in comparison.worse() if c in comparison.causal] == [("religion",)]
    assert any(line.startswith("  texts: flip rate of religion ") for line in comparison.lines())
    held = comparison.to_dict()["causal"]
    assert [c["categories"] for c in held if c["worse"]] == [["religion"], ["gender", "religion"]]
    # A notebook shows the page's section, and print() the lines the terminal says.
    shown = comparison._repr_html_()
    assert shown.startswith('<h2 id="against-the-baseline">') and "<td>{religion}</td>" in shown
    assert str(comparison).splitlines() == comparison.lines()
    # A version compared with itself: every flip rate unchanged.
    same = textfair.compare(new, new)
    assert same.causal and all(c.change == 0 and not c.significant for c in same.causal)


def test_a_report_without_causal_seed_rows_loads_and_lists_them_not_compared(flipping_versions):
    """A report written before the causal scores kept their seed rows reads with None, and
    compares its rule sets while listing its causal scores as not compared."""
    old, new = flipping_versions
    record = old.to_dict()
    for causal in record["counterfactual"]["causal"]:
        del causal["seeds"], causal["seed_flips"]
    before = AuditReport.from_dict(record)
    assert all(c.seeds is None and c.seed_flips is None for c in before.counterfactual.causal)
    assert before.to_dict() == record
    comparison = textfair.compare(before, new)
    assert comparison.changes and not comparison.causal
    assert "texts: causal religion (the baseline holds no seed rows" in " ".join(
        comparison.not_compared
    )


@pytest.mark.slow  # five audits of 500 comments: 30 s of the fast tier's 3 minutes
def test_a_baseline_that_cannot_be_paired_is_refused_in_one_line(tmp_path):
    """Another corpus, another seed, paper mode, another term list's reading, a report
    without seed-level rows: one line each, saying what differs and how to fix it."""
    new = textfair.audit("toxicity-cnn-lstm", TEXTS, **SETTINGS)
    other_data = textfair.audit("toxicity-cnn-lstm", TEXTS[:450], **SETTINGS)
    assert "audited on other data (450 texts against 500)" in str(
        one_line_error(textfair.compare, other_data, new)
    )
    other_seed = textfair.audit("toxicity-cnn-lstm", TEXTS, **{**SETTINGS, "seed": 1})
    assert "seed 1" in str(one_line_error(textfair.compare, other_seed, new))
    threshold = textfair.audit("toxicity-cnn-lstm", TEXTS, min_acceptability=0.7, **SETTINGS)
    assert "another reading" in str(one_line_error(textfair.compare, threshold, new))
    paper = textfair.audit("toxicity-cnn-lstm", TEXTS, mode="paper", **SETTINGS)
    assert "paired mode only" in str(one_line_error(textfair.compare, paper, new))
    old = dataclasses.replace(
        new,
        findings=tuple(dataclasses.replace(f, seeds=(), differences=()) for f in new.findings),
    )
    assert "no seed-level rows" in str(one_line_error(textfair.compare, old, new))
    # The report as written and read back compares as the report in memory.
    new.save(tmp_path / "v1")
    read, held = textfair.compare(tmp_path / "v1", new), textfair.compare(new, new)
    assert [(c.rule_set, c.n) for c in read.changes] == [(c.rule_set, c.n) for c in held.changes]
    assert np.allclose([c.ci for c in read.changes], [c.ci for c in held.changes], atol=1e-6)


@pytest.mark.slow  # two audits of the bundled comments: about 20 s
def test_the_paired_interval_is_narrower_than_two_independent_audits():
    """The bundled model against its mitigated version (per-term thresholds fitted on the
    comments): every change's paired interval, a rule set's or a causal score's, is
    narrower than the one two independent audits of as many seeds give."""
    from textfair.mitigate._group_thresholds import fit_group_thresholds
    from textfair.mitigate._text_methods import text_groups
    from textfair.models import CachedModel
    from textfair.text.matcher import Matcher

    texts, labels = bundled_comments()
    base = textfair.load_model("toxicity-cnn-lstm")
    groups = text_groups(Matcher(textfair.load_term_list("dixon2018")))
    mitigated = fit_group_thresholds(CachedModel(base), texts, labels, groups, "non-toxic")
    comparison = textfair.compare(textfair.audit(base, seed=0), textfair.audit(mitigated, seed=0))
    ratios = [c.width_ratio for c in comparison.changes]
    assert comparison.changes and all(r < 1 for r in ratios), max(ratios)
    assert comparison.worse() or comparison.better()
    assert math.isfinite(float(np.median(ratios)))
    # The causal scores' too (0.84 to 0.93 when written); per-term thresholds make the
    # decision hang on the term, so gender swaps flip it far more often (4% -> 26%).
    flips = [c.width_ratio for c in comparison.causal]
    assert comparison.causal and all(r < 1 for r in flips), max(flips)
    assert any(c.categories == ("gender",) and c.worse for c in comparison.causal)


def test_the_verdict_names_the_templates_section_and_the_markdown_lists_each_change():
    """The same rule set worse on the texts and on templates reads as two findings, the
    second named "on templates"; report.md lists each change as its own item."""
    from textfair.report.markdown import render_markdown
    from textfair.report.versions import FindingChange, VersionComparison

    muslim = RuleSet([Rule("religion", "muslim")])
    changes = tuple(
        FindingChange(section, muslim, -0.01, -0.3, -0.29, (-0.4, -0.2), 1e-6, 200, (-0.5, -0.1))
        for section in ("texts", "templates")
    )
    changes = tuple(dataclasses.replace(c, p_adjusted=1e-5, significant=True) for c in changes)
    comparison = VersionComparison("v1", "v2", changes, (), 0.95, "holm")
    verdict = comparison.verdict()
    assert '2 got worse ({"muslim"} -29.0, {"muslim"} on templates -29.0)' in verdict
    # The pinned default audit, read rather than run (its run's cost is left out there).
    from locations import DATA

    record = json.loads((DATA / "bundled_audit_report.json").read_text(encoding="utf-8"))
    for section in (record, record["templates"]):
        section["run"] = {"model_calls": 1, "seconds": 1.0, **section["run"]}
    report = AuditReport.from_dict(record)
    extra = {"baseline": comparison.to_dict()}
    text = render_markdown(dataclasses.replace(report, extra=extra))
    listed = text.split("## Against the baseline")[1].split("\n## ")[0]
    assert listed.count("\n- texts: ") == 1 and listed.count("\n- templates: ") == 1
