"""The verdict's sentences by rule (issue 57): every case the rules distinguish, enumerated
on one real report whose findings are replaced, so each sentence is read off what it says
rather than pinned as a whole.

The cases: no rule set (and why), one, many; none significant, disadvantaged only,
favoured only, both; causal tests with placebo edits, causal tests without (their flip
rate still reaches the verdict), category sets too thin to tell; number agreement.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from textfair.core.rules import Rule, RuleSet
from textfair.discovery.results import CausalScore
from textfair.report.model import AuditReport, Finding


@pytest.fixture(scope="module")
def pinned(bundled_gender_religion_report) -> AuditReport:
    # The corpus's section alone, without a gate: its findings are replaced per case.
    return dataclasses.replace(bundled_gender_religion_report, templates=None, extra={})


def finding(term: str, difference: float, significant: bool, n: int = 100) -> Finding:
    """A rule set of one gender term whose rate differs by `difference` (a fraction)."""
    width = 0.03 if significant else 0.2
    return Finding(
        rule_set=RuleSet((Rule("gender", term),)),
        phi_r=0.5 + difference,
        phi_not_r=0.5,
        score=abs(difference),
        margin=width,
        ci=(difference - width, difference + width),
        p_value=0.001 if significant else 0.5,
        n_r=n,
        n_not_r=n,
        support=0.1,
        p_adjusted=0.002 if significant else 1.0,
        significant=significant,
    )


def verdict(report: AuditReport, *findings: Finding) -> str:
    return dataclasses.replace(report, findings=tuple(findings)).summary()


def test_no_rule_set_says_why_not_zero_rule_sets(pinned):
    said = verdict(pinned)
    assert "0 rule sets" not in said
    assert "no rule set tested. No rule set reached the support --theta 0.05" in said


@pytest.mark.parametrize("count", [1, 2, 5])
def test_the_count_of_rule_sets_agrees_in_number(pinned, count):
    said = verdict(
        pinned,
        *(finding(t, 0.01, False) for t in ["gay", "lesbian", "queer", "male", "female"][:count]),
    )
    assert f"{count} rule set{'s' if count > 1 else ''}, 0 significant" in said
    assert "1 rule sets" not in said


def test_none_significant_names_the_most_disadvantaged_with_why(pinned):
    said = verdict(pinned, finding("gay", -0.05, False), finding("lesbian", 0.02, False))
    assert "no significant difference between groups" in said
    assert (
        "No group's texts fare significantly worse. The most disadvantaged: texts that mention gay"
        in said
    )
    assert "(not significant: its interval holds 0)" in said
    assert "Favoured" not in said and "Disadvantaged" not in said


def test_disadvantaged_only(pinned):
    said = verdict(pinned, finding("gay", -0.2, True), finding("lesbian", 0.01, False))
    assert (
        "Disadvantaged: texts that mention gay are judged non-toxic 20.0 points less often" in said
    )
    assert "Favoured" not in said and "No group" not in said


def test_favoured_only_never_says_that_no_group_fares_worse(pinned):
    # A favoured group is one the others fare worse beside: "No group's texts fare worse.
    # Favoured: ..." contradicted itself.
    said = verdict(pinned, finding("lgbt", 0.2, True), finding("gay", 0.01, False))
    assert "fare worse." not in said.replace("significantly worse", "")
    assert (
        "No group's texts fare significantly worse on their own; texts with the other terms "
        "fare worse only beside the favoured one below." in said
    )
    assert said.index("No group's texts fare significantly worse") < said.index(
        "Favoured: texts that mention lgbt"
    )


def test_both_directions_name_both(pinned):
    said = verdict(
        pinned,
        finding("gay", -0.2, True),
        finding("lgbt", 0.15, True),
        finding("queer", 0.12, True),
        finding("male", 0.11, True),
    )
    assert "4 rule sets, 4 significant after correction." in said
    assert "Disadvantaged: texts that mention gay" in said
    assert re.search(
        r"Favoured: texts that mention lgbt .*; texts that mention queer .* \(and 1 more\)\.", said
    )


def test_causal_without_placebo_still_reaches_the_verdict(pinned):
    causal = [CausalScore(("names",), 0.07, (0.04, 0.12), 14, 200, excess=None)]
    counterfactual = dataclasses.replace(pinned.counterfactual, causal=causal)
    said = dataclasses.replace(pinned, counterfactual=counterfactual).summary()
    assert (
        "Causal (no placebo edit measured, so what identity adds to any edit is unknown): "
        "the largest flip rate: names, 7.0% [4.0%, 12.0%] of 200 texts flip" in said
    )


def test_thin_category_sets_are_counted_out_of_every_row_of_the_table(pinned):
    # A category set with no text holding both edits is a row of the table: it is counted
    # (the verdict said "2 of 14 category sets" over a table of 15 rows).
    causal = list(pinned.counterfactual.causal)
    empty = dataclasses.replace(causal[0], categories=("nothing",), n=0, flips=0, excess=None)
    counterfactual = dataclasses.replace(pinned.counterfactual, causal=[*causal, empty])
    said = dataclasses.replace(pinned, counterfactual=counterfactual).summary()
    match = re.search(r"(\d+) of (\d+) category sets rests? on too few", said)
    assert match and int(match.group(2)) == len(causal) + 1


def test_the_api_carries_the_reasons_and_an_empty_frame_keeps_its_columns(pinned):
    # Issue 57: summary() said "0 rule sets" without why, and findings_frame() was
    # "Empty DataFrame Columns: []" with the reasons only in reading_notes().
    empty = dataclasses.replace(pinned, findings=())
    frame = empty.findings_frame()
    assert frame.empty and list(frame.columns) == list(pinned.findings_frame().columns)
    assert {"difference_points", "ci_low_points", "ci_high_points"} <= set(frame.columns)
    untested = frame.attrs["untested"]["texts"]
    assert set(untested) == set(pinned.config["categories"])
    assert all(why.startswith("No rule set reached the support") for why in untested.values())
    assert untested["gender"] in empty.summary()
    assert frame.attrs["notes"]["texts"] == empty.reading_notes()


def test_a_category_without_a_rule_set_is_named_with_why_in_the_frame(pinned):
    religion_only = tuple(
        f for f in pinned.findings if all(r.category == "religion" for r in f.rule_set)
    )
    report = dataclasses.replace(pinned, findings=religion_only)
    untested = report.findings_frame().attrs["untested"]["texts"]
    assert list(untested) == ["gender"]
    assert untested["gender"].startswith("No rule set for gender (")
    assert untested["gender"] in report.reading_notes()
