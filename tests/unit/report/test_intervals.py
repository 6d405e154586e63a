"""Every printed difference keeps its sign and sits inside its printed interval, on every
surface (issue 41): the terminal, report.md, the page, the verdict (`summary()`) and
`findings_frame()`, for texts and for table rows.

The verdict once took ``sorted(abs(100 * v) for v in finding.ci)``: the table said
``{"muslim"} │ -7.0 [-15.9, +3.0]`` and the verdict "7.0 points less often … [3.0, 15.9]
(not significant: its interval holds 0)". The property test renders thousands of random
findings (random signs and widths, intervals crossing 0, tiny and huge values) and reads every
"estimate [low, high]" back from what was printed.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from textfair.core.rules import Rule, RuleSet
from textfair.discovery.results import Excess
from textfair.report.html import render_html
from textfair.report.markdown import render_markdown
from textfair.report.model import AuditReport
from textfair.report.terminal import render_terminal

from locations import DATA

BUNDLED = DATA / "bundled_audit_report.json"
# "estimate [low, high]" as every surface prints a difference: the ends always signed.
PRINTED = re.compile(r"(?<![\w.])([+-]\d+\.\d|0) \[([+-]\d+\.\d), ([+-]\d+\.\d)\]")
TEXT_RULES = [
    Rule(category, term)
    for category, terms in {
        "gender": ["gay", "lgbt", "queer", "straight", "female"],
        "religion": ["muslim", "christian", "jewish", "sikh"],
        "race": ["black", "white", "asian"],
    }.items()
    for term in terms
]
ROW_RULES = [
    Rule("sex", "Male"),
    Rule("sex", "Female"),
    Rule("race", "Black"),
    Rule("race", "White"),
    Rule("race", "Asian-Pac-Islander"),
]


@pytest.fixture(scope="module")
def bundled() -> AuditReport:
    record = json.loads(BUNDLED.read_text(encoding="utf-8"))
    # The pinned file leaves the run's cost out (it varies from run to run).
    for section in (record, record["templates"]):  # the templated section's run too
        section["run"] = {"model_calls": 1, "seconds": 1.0, **section["run"]}
    return AuditReport.from_dict(record)


def signed(value: float) -> str:
    """What the table shows for a value, written here independently of the renderers."""
    return f"{100 * value:+.1f}"


def expected(difference: float, ci) -> str:
    estimate = "0" if difference == 0 else signed(difference)
    return f"{estimate} [{signed(ci[0])}, {signed(ci[1])}]"


def surfaces(report: AuditReport, width: int) -> dict[str, str]:
    shown = io.StringIO()
    render_terminal(report, console=Console(file=shown, width=width, color_system=None))
    return {
        "terminal": shown.getvalue(),
        "report.md": render_markdown(report),
        "page": render_html(report),
        "summary": report.summary(),
    }


def check_printed(text: str, where: str) -> int:
    """Every printed interval holds its printed estimate; returns how many were read."""
    found = PRINTED.findall(text)
    for estimate, low, high in found:
        assert float(low) <= float(estimate) <= float(high), (where, estimate, low, high)
    return len(found)


# --- random findings ------------------------------------------------------------------

# Tiny steps and wide ones; an end may lie outside [-1, 1] (a renderer must not care).
spread = st.one_of(
    st.just(0.0),
    st.floats(0, 1e-6),
    st.floats(0, 0.3),
    st.floats(0, 2.5),
)


@st.composite
def numbers(draw):
    """A finding's rates, interval (holding the difference) and test."""
    phi_not_r = draw(st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0, 1)))
    phi_r = draw(
        st.one_of(st.just(phi_not_r), st.floats(0, 1), st.just(min(1.0, phi_not_r + 1e-9)))
    )
    d = phi_r - phi_not_r
    low, high = d - draw(spread), d + draw(spread)
    significant = draw(st.booleans()) and (low > 0 or high < 0)
    return {
        "phi_r": phi_r,
        "phi_not_r": phi_not_r,
        "score": abs(d),
        "ci": (low, high),
        "p_adjusted": draw(st.floats(0, 1)),
        "significant": significant,
        "n_r": draw(st.integers(1, 400)),
    }


@st.composite
def reports(draw, base: AuditReport):
    kind = draw(st.sampled_from(["text", "rows"]))
    rules = TEXT_RULES if kind == "text" else ROW_RULES
    count = draw(st.integers(1, 12))
    picked = draw(
        st.lists(
            st.lists(st.sampled_from(rules), min_size=1, max_size=2, unique=True),
            min_size=count,
            max_size=count,
            unique_by=lambda r: tuple(sorted(r)),
        )
    )
    template = base.findings[0]
    findings = []
    for chosen in picked:
        if len({rule.category for rule in chosen}) < len(chosen):
            chosen = chosen[:1]  # one rule per category
        findings.append(replace(template, rule_set=RuleSet(chosen), examples=[], **draw(numbers())))
    unique = {f.rule_set: f for f in findings}
    counterfactual = base.counterfactual
    if kind == "rows":
        counterfactual = None
    elif counterfactual is not None:
        causal = []
        for test in counterfactual.causal:
            values = draw(numbers())
            low, high = values["ci"]
            excess = Excess(
                identity_rate=values["phi_r"],
                placebo_rate=values["phi_not_r"],
                excess=values["phi_r"] - values["phi_not_r"],
                ci=(low, high),
                p_value=values["p_adjusted"],
                n=values["n_r"],
                confidence=0.95,
                p_adjusted=values["p_adjusted"],
                significant=values["significant"],
            )
            causal.append(replace(test, excess=excess))
        counterfactual = replace(counterfactual, causal=tuple(causal))
    return replace(
        base,
        kind=kind,
        findings=tuple(unique.values()),
        counterfactual=counterfactual,
        metrics=None if kind == "rows" else base.metrics,
        data=base.data if kind == "text" else {"rows": 100, "label_column": "income"},
        templates=base.templates if kind == "text" else None,  # rows have no templates
    )


def _no_plot(*args, **kwargs) -> str:
    return ""


@pytest.mark.slow  # 200 drawn reports rendered: 8 s
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
@given(data=st.data())
def test_every_printed_interval_holds_its_estimate_with_the_tables_signs(bundled, data):
    report = data.draw(reports(bundled))
    width = data.draw(st.sampled_from([80, 100, 200]))
    # The page's SVG plots hold no printed interval and cost a second a page: left out.
    with mock.patch.multiple(
        "textfair.report._plots", forest=_no_plot, heatmap=_no_plot, rates=_no_plot
    ):
        printed = surfaces(report, width)
    for where, text in printed.items():
        check_printed(text, where)
    # Each shown finding, as the table has it, signs and all, on the terminal and in
    # report.md (top 10) and on the page (all of them).
    for rank, (finding, _) in enumerate(report.shown_findings()):
        said = expected(finding.difference, finding.ci)
        assert said in printed["page"], said
        if rank < 10:
            assert said in printed["report.md"], said
            assert said in printed["terminal"], (said, printed["terminal"])
    # The verdict: each finding it names is the table's, and its words say the direction
    # and the size of the same estimate.
    verdict = printed["summary"]
    for size, word, estimate, low, high in re.findall(
        r"(\d+\.\d) points (less|more) often than[^,]*, "
        r"([+-]\d+\.\d|0) \[([+-]\d+\.\d), ([+-]\d+\.\d)\] points",
        verdict,
    ):
        assert size == estimate.lstrip("+-"), verdict
        assert (word == "less") == estimate.startswith("-"), verdict
        # The corpus's section's findings, or the templates' (named in their own part).
        named = [*report.findings, *(report.templates.findings if report.templates else ())]
        assert any(expected(f.difference, f.ci) == f"{estimate} [{low}, {high}]" for f in named), (
            verdict
        )
    frame = report.findings_frame()
    assert (frame["ci_low_points"] <= frame["difference_points"] + 1e-10).all()
    assert (frame["difference_points"] <= frame["ci_high_points"] + 1e-10).all()


# --- the three cases the issue saw ----------------------------------------------------


@pytest.mark.slow  # every surface, the page included, three times: 12 s of the fast tier
@pytest.mark.parametrize(
    ("rule", "difference", "ci", "wrong"),
    [
        # the table: {"muslim"} │ -7.0 [-15.9, +3.0]; the verdict said [3.0, 15.9]
        (Rule("religion", "muslim"), -0.070, (-0.159, 0.030), "[3.0, 15.9]"),
        # --theta 0.01: "gay … 5.7 points less often … [0.9, 11.6] (… holds 0)"
        (Rule("gender", "gay"), -0.057, (-0.116, 0.009), "[0.9, 11.6]"),
        # --terms holistic: "6.9 points less often … [10.3, 22.2]", outside its interval
        (Rule("gender", "queer"), -0.069, (-0.222, 0.103), "[10.3, 22.2]"),
    ],
)
def test_the_verdict_keeps_the_signs_of_an_interval_that_crosses_0(
    bundled, rule, difference, ci, wrong
):
    finding = replace(
        bundled.findings[0],
        rule_set=RuleSet((rule,)),
        phi_r=0.40 + difference,
        phi_not_r=0.40,
        score=abs(difference),
        ci=ci,
        p_adjusted=1.0,
        significant=False,
        examples=[],
    )
    report = replace(bundled, findings=(finding,))
    said = expected(finding.difference, ci)
    size = f"{abs(100 * difference):.1f} points less often"
    for where, text in surfaces(report, 100).items():
        flat = " ".join(text.split())
        assert said in flat, where
        assert wrong not in flat, where
    verdict = report.summary()
    assert f"{size} than the same texts with another" in verdict
    assert f"{said} points (not significant: its interval holds 0)" in verdict


def test_the_verdict_names_the_terms_axis(bundled):
    """ "gay" is compared with other sexual-orientation terms, as the term list's axis says;
    a term whose category has one axis falls back to the category's name."""
    verdict = bundled.summary()
    assert "lgbt are judged non-toxic" in verdict
    assert "another sexual orientation term" in verdict
    assert "another gender term" not in verdict
    religion = replace(
        bundled.findings[0], rule_set=RuleSet((Rule("religion", "muslim"),)), examples=[]
    )
    assert "another religion term" in replace(bundled, findings=(religion,)).summary()
    # A report written before version 4 has no axes: the category's name, as it said then.
    old = replace(bundled, data={k: v for k, v in bundled.data.items() if k != "term_axes"})
    assert "another gender term" in old.summary()


def test_a_vacuous_interval_is_not_cited_in_the_verdict(bundled):
    """ "largest excess: race, +18.3 [-100.0, +100.0] points" says nothing: with only such
    intervals the verdict says how few texts had both edits; otherwise it names the largest
    excess among the informative ones."""
    assert bundled.counterfactual is not None
    causal = bundled.counterfactual.causal

    def excess(test, value, ci, n):
        assert test.excess is not None
        return replace(test, excess=replace(test.excess, excess=value, ci=ci, n=n))

    vague = tuple(excess(c, 0.183, (-1.0, 1.0), 3) for c in causal)
    # The corpus's section alone: the templates' has causal tests of its own.
    report = replace(
        bundled, counterfactual=replace(bundled.counterfactual, causal=vague), templates=None
    )
    verdict = report.summary()
    assert "-100.0, +100.0" not in verdict and "largest excess" not in verdict
    assert f"{len(causal)} of {len(causal)} category sets rest on too few texts" in verdict
    assert "(at most 3)" in verdict
    mixed = (excess(causal[0], 0.02, (-0.05, 0.09), 80), *vague[1:])
    report = replace(
        bundled, counterfactual=replace(bundled.counterfactual, causal=mixed), templates=None
    )
    verdict = report.summary()
    assert f"largest excess: {' + '.join(causal[0].categories)}," in verdict
    assert "+2.0 [-5.0, +9.0] points" in verdict and "+18.3" not in verdict


def test_one_statement_of_what_an_interval_covers_on_every_surface(bundled):
    statement = bundled.intervals_statement
    tests = len(bundled.findings)  # 17 before issue 42's --min-acceptability, 13 with it
    assert statement == (
        f"Each interval holds at 95% for its own rule set, not for all {tests} at once; a rule "
        f"set is significant when its p-value, adjusted with Holm's correction over all {tests}, "
        "is at most 0.05."
    )
    for where, text in surfaces(bundled, 100).items():
        if where != "summary":
            assert statement.replace("'", "&#x27;") in text or statement in " ".join(
                text.split()
            ), where
    unadjusted = replace(bundled, config={**bundled.config, "correction": "none"})
    assert f"not adjusted for the {tests} tests" in unadjusted.intervals_statement


def test_report_json_carries_a_signed_difference_and_reads_version_3(bundled):
    record = bundled.to_dict()
    assert record["report_version"] == 5
    for written, finding in zip(record["findings"], bundled.findings, strict=True):
        assert written["difference"] == pytest.approx(finding.phi_r - finding.phi_not_r)
        assert written["score"] == pytest.approx(abs(written["difference"]))
        assert written["ci"][0] <= written["difference"] <= written["ci"][1]
    # A version-3 report: no signed difference, no axes; read as it was.
    old = json.loads(json.dumps(record))
    old["report_version"] = 3
    old["data"].pop("term_axes")
    for finding in old["findings"]:
        del finding["difference"], finding["acceptability"], finding["strict"]  # 5's too
    again = AuditReport.from_dict(old)
    assert again.findings == tuple(
        replace(f, acceptability=None, strict=None) for f in bundled.findings
    )
    assert [f.difference for f in again.findings] == [f.difference for f in bundled.findings]
