"""Findings that say how much they rest on doubtful text (issue 42, item 5).

Each finding carries the mean acceptability of its variants and its estimate on the seeds
whose variants all score at least STRICT_ACCEPTABILITY, by the finding's own estimator on
rows it already read: checked here against a recomputation by hand, with no extra model
query; the report flags a finding that does not hold there, and only such a finding."""

import json
from dataclasses import replace

import numpy as np
import pytest

from textfair.core.rules import Rule, RuleSet
from textfair.discovery import frequent_rule_sets
from textfair.discovery._sampling import seed_order
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY, Strict, holds_strictly
from textfair.discovery.groups import group_fairness
from textfair.discovery.themis import themis
from textfair.models import CachedModel, CallableModel
from textfair.report._samples import SMALL_SAMPLE
from textfair.report.model import AuditReport
from textfair.stats import bounded_mean
from textfair.text.domain import TextDomain

from locations import DATA
from synthetic import corpus, unit

BEFORE = DATA / "bundled_audit_report_before_acceptability.json"


def leaning(texts):
    """Toxic (column 1) for most texts naming gay, 20% of the others: a real difference."""
    out = []
    for text in texts:
        toxic = ("gay" in text.lower() and unit(text) < 0.6) or unit(text) < 0.2
        out.append([0.0, 1.0] if toxic else [1.0, 0.0])
    return np.array(out)


def pseudo_score(index, rule_set) -> float:
    """A variant's acceptability fixed by its seed and rule set: 1 for 95% of them, else
    0.5, so about half the seeds (14 variants each) have every variant at the strict level."""
    return 1.0 if unit(f"{index}|{rule_set}|acceptable") < 0.95 else 0.5


class ScoredDomain(TextDomain):
    """A TextDomain whose variants score `pseudo_score` (the shared interface:
    `acceptability(index, rule_set)`, the score of `rewrite(index, rule_set)`)."""

    def acceptability(self, index, rule_set):
        return pseudo_score(index, rule_set)


def _domain(cls, texts, categories):
    # Every variant generated: the scores here are the test's own.
    return cls(texts, categories=categories, min_acceptability=0.0)


def _findings(cls, mode="paired", seed=3, samples=10_000):
    domain = _domain(cls, corpus(30), ["gender"])
    frequent = frequent_rule_sets(domain, theta=0.05, max_order=1)
    model = CachedModel(CallableModel(leaning, labels=["ok", "toxic"]))
    findings = group_fairness(
        domain,
        model,
        frequent.rule_sets,
        frequent.supports,
        favorable=0,
        mode=mode,
        min_samples=samples,  # every seed: the hand's recomputation reads them all
        max_samples=samples,
        seed=seed,
    )
    return domain, model, findings


def test_the_strict_estimate_is_the_finding_recomputed_by_hand_on_its_high_scoring_seeds():
    domain, _, findings = _findings(ScoredDomain)
    checked = 0
    for finding in findings:
        (rule,) = RuleSet(finding.rule_set)
        rules = domain.single_rules(rule.category)
        seen, d, strict, scores = set(), [], [], []
        eligible = set(domain.seeds_for((rule,)).tolist())
        for i in (int(i) for i in seed_order(domain, 3) if int(i) in eligible):
            row = {r.value: v.input for r in rules if (v := domain.rewrite(i, (r,)))}
            if len(row) < 2 or tuple(row.items()) in seen:
                continue  # as the finding: a seed with nothing to compare, a case twice
            seen.add(tuple(row.items()))
            y = {term: float(leaning([text])[0, 0] == 1.0) for term, text in row.items()}
            others = [y[t] for t in row if t != rule.value]
            d.append(y[rule.value] - np.mean(others))
            row_scores = [pseudo_score(i, (Rule(rule.category, t),)) for t in row]
            scores += row_scores
            if min(row_scores) >= STRICT_ACCEPTABILITY:
                strict.append(d[-1])
        own = bounded_mean(d)
        assert finding.n_r == len(d) and finding.difference == pytest.approx(own.estimate)
        expected = bounded_mean(strict)
        assert 0 < finding.strict.n == len(strict) < len(d)  # a real subset
        assert finding.strict.estimate == pytest.approx(expected.estimate, abs=1e-12)
        assert finding.strict.ci == pytest.approx((expected.low, expected.high), abs=1e-12)
        assert finding.strict.level == STRICT_ACCEPTABILITY
        assert finding.acceptability == pytest.approx(np.mean(scores))
        checked += 1
    assert checked >= 5


def test_the_strict_estimate_asks_the_model_nothing_more(monkeypatch):
    _, scored_model, scored = _findings(ScoredDomain)
    # The same run with the findings' scoring switched off.
    monkeypatch.setattr("textfair.discovery._paired.scorer", lambda domain: None)
    _, plain_model, plain = _findings(ScoredDomain)
    assert all(f.strict is None for f in plain)
    assert scored_model.stats.forwarded == plain_model.stats.forwarded
    assert scored_model.stats.requested == plain_model.stats.requested
    strip = [replace(f, strict=None, acceptability=None) for f in scored]
    assert strip == [replace(f, strict=None, acceptability=None) for f in plain]


def test_paper_mode_recomputes_newcombe_on_the_draws_that_score_high():
    # Paper mode draws independent samples of R and not R; a thousand a side show what is
    # checked here (ten thousand took 6 s of the fast tier).
    _, _, findings = _findings(ScoredDomain, mode="paper", samples=1_000)
    for finding in findings:
        assert finding.strict is not None and 0 < finding.strict.n <= finding.n_r
        low, high = finding.strict.ci
        assert -1 <= low <= finding.strict.estimate <= high <= 1
        assert 0.5 <= finding.acceptability <= 1.0
    assert sum(f.strict.n < f.n_r for f in findings) >= len(findings) // 2


def test_every_variant_at_the_strict_level_leaves_the_finding_as_it_is():
    class Perfect(TextDomain):
        def acceptability(self, index, rule_set):
            return 1.0

    _, _, findings = _findings(Perfect)
    for finding in findings:
        assert finding.acceptability == 1.0
        strict = finding.strict
        assert (strict.level, strict.n) == (STRICT_ACCEPTABILITY, finding.n_r)
        assert strict.ci == finding.ci
        assert strict.estimate == pytest.approx(finding.difference, abs=1e-12)
        assert strict.p_value == finding.p_value


def test_a_term_pairs_strict_shift_is_its_shift_against_the_placebo_on_its_high_scoring_seeds():
    texts = corpus(30)
    scored = themis(
        _domain(ScoredDomain, texts, ["gender"]),
        CachedModel(CallableModel(leaning, labels=["ok", "toxic"])),
        favorable=0,
        min_samples=10_000,
        max_samples=10_000,
    )

    class Perfect(ScoredDomain):
        def acceptability(self, index, rule_set):
            return 1.0

    perfect = themis(
        _domain(Perfect, texts, ["gender"]),
        CachedModel(CallableModel(leaning, labels=["ok", "toxic"])),
        favorable=0,
        min_samples=10_000,
        max_samples=10_000,
    )
    assert [replace(p, strict=None, acceptability=None) for p in scored.pairs] == [
        replace(p, strict=None, acceptability=None) for p in perfect.pairs
    ]
    fewer = 0
    for ours, everything in zip(scored.pairs, perfect.pairs, strict=True):
        assert everything.strict.estimate == pytest.approx(everything.excess_shift)
        assert everything.strict.ci == pytest.approx(everything.excess_shift_ci)
        assert ours.strict.n <= everything.strict.n
        fewer += ours.strict.n < everything.strict.n
        assert 0.5 <= ours.acceptability <= 1.0
    assert fewer > 0
    # A category's group score: its excess over the placebo, on the seeds whose rewrites to
    # its other terms all score high.
    (group,), (whole,) = scored.group, perfect.group
    assert whole.strict.estimate == pytest.approx(whole.excess.excess)
    assert (whole.strict.ci, whole.strict.n) == (whole.excess.ci, whole.excess.n)
    assert 0 < group.strict.n < whole.strict.n and 0.5 < group.acceptability < 1.0


# --- the flag -----------------------------------------------------------------------------


def _strict(estimate, ci, n):
    return Strict(STRICT_ACCEPTABILITY, estimate, ci, n)


# (own interval, strict result, whether it is flagged, the words of its cell)
CASES = {
    "holds": ((0.05, 0.2), _strict(0.1, (0.02, 0.18), 80), False, "yes"),
    "holds, negative": ((-0.2, -0.05), _strict(-0.1, (-0.18, -0.02), 80), False, "yes"),
    "holds 0": ((0.05, 0.2), _strict(0.03, (-0.02, 0.08), 80), True, "no: interval holds 0"),
    "too few": ((-0.2, -0.05), _strict(-0.1, (-0.15, -0.05), SMALL_SAMPLE - 1), True, "no: too"),
    "none left": ((0.05, 0.2), _strict(float("nan"), (-1.0, 1.0), 0), True, "no: too few"),
    "turns": ((0.05, 0.2), _strict(-0.1, (-0.18, -0.02), 80), True, "no: other direction"),
    "own holds 0": ((-0.05, 0.2), _strict(0.0, (-0.3, 0.3), 5), False, "–"),
    "not scored": ((0.05, 0.2), None, False, "–"),
}


def before_issue42() -> dict:
    """The bundled audit's report.json as it was before issue 42 (version 4), with the
    run's cost the pinned copy leaves out."""
    record = json.loads(BEFORE.read_text(encoding="utf-8"))
    record["run"] = {"model_calls": 0, "seconds": 0.0, **record["run"]}
    return record


def _flag_report() -> AuditReport:
    base = AuditReport.from_dict(before_issue42())
    template = base.findings[0]
    findings = tuple(
        replace(
            template,
            rule_set=RuleSet((Rule("gender", f"term {k}"),)),
            ci=ci,
            phi_r=0.5 + sum(ci) / 2,
            phi_not_r=0.5,
            significant=True,
            acceptability=None if strict is None else 0.9,
            strict=strict,
        )
        for k, (ci, strict, _, _) in enumerate(CASES.values())
    )
    config = {**base.config, "strict_acceptability": STRICT_ACCEPTABILITY}
    return replace(base, findings=findings, config=config, report_version=5)


@pytest.mark.parametrize("case", CASES)
def test_holds_strictly_reads_the_strict_interval_and_its_seeds(case):
    ci, strict, flagged, _ = CASES[case]
    holds = holds_strictly(ci, strict, SMALL_SAMPLE)
    assert (holds is False) == flagged
    assert (holds is None) == (strict is None or ci[0] <= 0 <= ci[1])


def test_the_views_flag_exactly_the_findings_that_do_not_hold_on_high_scoring_seeds():
    from textfair.report.html import render_html
    from textfair.report.markdown import render_markdown

    report = _flag_report()
    flagged = {f"term {k}" for k, case in enumerate(CASES.values()) if case[2]}
    assert {f.rule_set[0].value for f in report.doubtful()} == flagged
    for k, (_, _, _, words) in enumerate(CASES.values()):
        assert report.holds_words(report.findings[k]).startswith(words)
    page = render_html(report)
    table = page[page.index('id="findings"') : page.index("</table>", page.index('id="findings"'))]
    rows = table.split("<tr>")[2:]
    assert len(rows) == len(CASES)
    for row in rows:
        name = row.split("</td>")[0].split("term ")[1].split("&")[0]
        assert ('<span class="out">no' in row) == (f"term {name}" in flagged), row
    markdown = render_markdown(report, top=len(CASES))
    marked = [line for line in markdown.splitlines() if line.startswith("|") and " ?" in line]
    assert len(marked) == len(flagged)
    summary = report.summary()
    assert f"{len(flagged)} of {len(CASES) - 1} significant findings do not hold" in summary
    assert all(report.label(f.rule_set) in summary for f in report.doubtful()[:3])
    assert "and 1 more." in summary  # 4 flagged: 3 named
    notes = " ".join(report.reading_notes(top=len(CASES)))
    assert "too few (under 30) to tell" in notes
    assert f"none of its seeds has every variant scoring at least {STRICT_ACCEPTABILITY:g}" in notes
    assert report.strict_words(report.findings[5]).endswith(
        "-10.0 [-18.0, -2.0] points: the other direction"
    )


def test_a_report_whose_findings_all_hold_says_so_and_flags_none():
    report = _flag_report()
    holding = tuple(f for f in report.findings if report.holds_strictly(f))
    report = replace(report, findings=holding)
    assert not report.doubtful()
    assert "all 2 hold; their variants' mean acceptability 0.90" in report.summary()
    assert '<span class="out">no' not in __import__(
        "textfair.report.html", fromlist=["render_html"]
    ).render_html(report)


# --- report.json ----------------------------------------------------------------------------


def test_report_json_version_5_round_trips_the_strict_results():
    report = _flag_report()
    record = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert record["report_version"] == 5
    assert record["config"]["strict_acceptability"] == STRICT_ACCEPTABILITY
    assert record["findings"][0]["strict"] == {
        "level": STRICT_ACCEPTABILITY,
        "estimate": 0.1,
        "ci": [0.02, 0.18],
        "n": 80,
        "p_value": None,
    }
    again = AuditReport.from_dict(record)
    assert [f.rule_set for f in again.findings] == [f.rule_set for f in report.findings]
    for ours, read in zip(report.findings, again.findings, strict=True):
        assert read.acceptability == ours.acceptability
        if ours.strict is None:
            assert read.strict is None
        else:  # NaN (no seed, no p-value) is written as null and read back as NaN
            assert (read.strict.n, read.strict.ci, read.strict.level) == (
                ours.strict.n,
                ours.strict.ci,
                ours.strict.level,
            )
            assert read.strict.estimate == pytest.approx(ours.strict.estimate, nan_ok=True)
    assert again.doubtful() == tuple(
        f for f in again.findings if f.rule_set in {g.rule_set for g in report.doubtful()}
    )


def test_a_version_4_report_reads_without_strict_results_and_renders_as_before():
    from textfair.report.html import render_html
    from textfair.report.markdown import render_markdown

    record = before_issue42()
    assert record["report_version"] == 4
    old = AuditReport.from_dict(record)
    assert all(f.strict is None and f.acceptability is None for f in old.findings)
    assert all(p.strict is None for p in old.counterfactual.term_pairs)
    assert not old.doubtful() and old.strict_level is None
    assert "strict reader" not in old.summary()
    column = "acceptability (mean)"  # no strict columns: nothing was scored
    assert column not in render_markdown(old) and column not in render_html(old)
    assert AuditReport.from_dict(old.to_dict()).findings == old.findings


def test_every_reason_a_seed_is_left_out_for_is_said_in_plain_words():
    """A reason added to text.coherence must be given words in report.seedwords: the
    report shows each reason per category, never its key."""
    from textfair.report._seedwords import LEFT_OUT_WORDS, agree, reason_words, seed_rows
    from textfair.text._coherence import LEFT_OUT_REASONS

    assert set(LEFT_OUT_REASONS) <= set(LEFT_OUT_WORDS)
    data = {
        "seeds_mentioning": {"gender": 10},
        "seeds_left_out": {"gender": {r: k + 1 for k, r in enumerate(LEFT_OUT_REASONS)}},
        "seeds_taking_part": {"gender": 0.5},
    }
    (row,) = seed_rows(data)
    assert [count for count, _ in row.left_out] == sorted(range(1, len(LEFT_OUT_REASONS) + 1))[::-1]
    for k, reason in enumerate(LEFT_OUT_REASONS):
        said = f"{k + 1} {agree(k + 1, reason_words(reason))}"
        assert said in row.reasons() and reason not in row.reasons()
    assert reason_words("a_newer_reason") == "a newer reason"  # a newer writer's: still words


def test_the_strict_interval_covers_the_effect_on_high_scoring_seeds_at_its_confidence():
    """Simulation: half the seeds have every variant at the strict level and an effect of
    +10 points, the others a broken variant and -20 points. Which seeds are high-scoring
    does not depend on the outcomes, so the strict interval (bounded_mean over their
    differences) covers +10 at its 95%; the finding's own interval covers the mixture."""
    from textfair.discovery._paired import _strict_paired

    rng = np.random.default_rng(42)
    seeds, columns, runs = 160, 5, 600
    covered = mixture_covered = 0
    for _ in range(runs):
        high = rng.random(seeds) < 0.5
        scores = np.where(high[:, None], 0.95, 1.0) * np.ones((seeds, columns))
        scores[~high, 1 + rng.integers(columns - 1, size=(~high).sum())] = 0.4
        p_r = np.where(high, 0.5, 0.2)
        y_r = rng.random(seeds) < p_r
        others = (rng.random((seeds, columns - 1)) < 0.4).mean(axis=1)
        d = y_r - others
        acceptability, strict = _strict_paired(scores, d, 0, None, 0.95)
        assert strict.n == high.sum() and 0.4 < acceptability < 1.0
        covered += strict.ci[0] <= 0.1 <= strict.ci[1]
        own = bounded_mean(d)
        mixture = 0.5 * 0.1 + 0.5 * -0.2
        mixture_covered += own.low <= mixture <= own.high
    assert covered / runs >= 0.93, covered / runs
    assert mixture_covered / runs >= 0.93, mixture_covered / runs


def test_the_page_says_when_a_group_scores_excess_does_not_hold_on_high_scoring_seeds():
    from textfair.report.html import render_html

    report = _flag_report()
    group = report.counterfactual.group[0]
    excess = replace(group.excess, excess=0.1, ci=(0.05, 0.15))

    def page(strict):
        changed = replace(group, excess=excess, acceptability=0.8, strict=strict)
        groups = (changed, *report.counterfactual.group[1:])
        return render_html(
            replace(report, counterfactual=replace(report.counterfactual, group=groups))
        )

    assert "it does not hold there" in page(_strict(0.02, (-0.03, 0.07), 60))
    holding = page(_strict(0.1, (0.04, 0.16), 60))
    assert "excess +10.0 [+4.0, +16.0] points." in holding
    assert "it does not hold there" not in holding
