"""The release gate (--fail-above): one threshold, or one per category or term."""

import pytest

from textfair.core.rules import Rule, RuleSet
from textfair.errors import TextfairError
from textfair.report.gate import Gate
from textfair.report.parts import Finding
from textfair.settings import PointsNote


def _finding(rules, difference, significant=True):
    rule_set = RuleSet(Rule(category, value) for category, value in rules)
    return Finding(
        rule_set=rule_set,
        phi_r=0.5 + difference,
        phi_not_r=0.5,
        score=abs(difference),
        margin=0.02,
        ci=(difference - 0.02, difference + 0.02),
        p_value=0.001,
        n_r=100,
        n_not_r=900,
        support=0.1,
        p_adjusted=0.001,
        significant=significant,
    )


def test_a_number_or_named_thresholds_are_read_and_written_back():
    """In points (10 is 0.1 of 1); a number below 1 is still read as a fraction."""
    assert Gate.parse("10") == Gate(0.1)
    assert Gate.parse(10) == Gate(0.1)
    with pytest.warns(PointsNote):
        assert Gate.parse(0.1) == Gate(0.1)
    gate = Gate.parse("gender=5, race=10,20")
    assert gate == Gate(0.2, {"gender": 0.05, "race": 0.1})
    assert Gate.parse(str(gate)) == gate
    assert Gate.from_json(gate.to_json()) == gate
    assert Gate.from_json(0.3) == Gate(0.3) and Gate(0.3).to_json() == 0.3
    assert Gate.parse("*=20,gender=5") == Gate(0.2, {"gender": 0.05})


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("nan", "nan is not points in [0, 100]"),
        ("150", "150 is not points in [0, 100]"),
        ("gender=", "'' is not a number"),
        ("=10", "'=10' names nothing before '='"),
        ("gender=10,gender=20", "it names gender twice"),
        ("10,20", "it gives the default threshold twice"),
    ],
)
def test_a_bad_gate_is_one_line_naming_the_form(spec, why):
    with pytest.raises(TextfairError) as caught:
        Gate.parse(spec)
    message = str(caught.value)
    assert why in message and "gender=5,race=10" in message and "\n" not in message


def test_a_finding_takes_its_terms_threshold_then_its_categorys_the_strictest_then_the_default():
    gate = Gate.parse("gay=20,gender=5,religion=1")
    assert gate.threshold(_finding([("gender", "gay")], 0.1).rule_set) == 0.2
    assert gate.threshold(_finding([("gender", "lgbt")], 0.1).rule_set) == 0.05
    both = _finding([("gender", "gay"), ("religion", "sikh")], 0.1).rule_set
    assert gate.threshold(both) == 0.01  # the strictest of its rules
    assert gate.threshold(_finding([("race", "black")], 0.1).rule_set) is None  # not gated
    assert Gate.parse("gender=5,30").threshold(_finding([("race", "black")], 0).rule_set) == 0.3
    findings = [
        _finding([("gender", "gay")], -0.15),  # under its term's 0.2
        _finding([("gender", "lgbt")], 0.08),  # over gender's 0.05
        _finding([("gender", "queer")], -0.3, significant=False),  # not significant
        _finding([("race", "black")], 0.5),  # not gated
    ]
    assert [f.rule_set for f in gate.failing(findings)] == [findings[1].rule_set]


def test_names_are_checked_against_what_the_audit_knows():
    gate = Gate.parse("gender=5,sex=10")
    with pytest.raises(TextfairError, match="--fail-above names sex; expected a category"):
        gate.check_names(["gender", "race", "gay"], ["gender", "race"], "a category")
    checked = Gate.parse("gay=10")
    assert checked.check_names(["gender", "gay"], ["gender"], "a category") is checked
