"""A table audit's near-duplicate rule sets (nested runs of bins of one feature) are folded
into the most credible one for display (issue 29, friction 6: the Adult page led with
{age ∈ [17, 82.7)}, {age ∈ [17, 75.4)}, {age ∈ [17, 68.1)})."""

from textfair.core.rules import Rule, RuleSet
from textfair.discovery.findings import GroupFinding
from textfair.report._folding import fold_nested, nested
from textfair.report._labels import wrap_label


def _rules(**values) -> RuleSet:
    return RuleSet(Rule(feature, value) for feature, value in values.items())


def _finding(rule_set, difference=-0.1, significant=True):
    return GroupFinding(
        rule_set,
        0.5 + difference,
        0.5,
        abs(difference),
        0.02,
        (difference - 0.02, difference + 0.02),
        0.001,
        200,
        800,
        0.1,
        0.001,
        significant,
    )


def test_runs_that_share_an_end_and_nest_are_near_duplicates_others_are_not():
    assert nested(_rules(age="[17, 82.7)"), _rules(age="[17, 75.4)"))
    assert nested(_rules(age="[60.8, 90]", sex="Male"), _rules(age="[68.1, 90]", sex="Male"))
    # Another group: held but sharing no end, or not held, or another feature differs too.
    assert not nested(_rules(age="[17, 82.7)"), _rules(age="[38.9, 53.5)"))
    assert not nested(_rules(age="[17, 38.9)"), _rules(age="[24.3, 46.2)"))
    assert not nested(_rules(age="[17, 82.7)", sex="Male"), _rules(age="[17, 75.4)", sex="Female"))
    assert not nested(_rules(race="Black|White"), _rules(race="Black"))
    assert not nested(_rules(age="[17, 82.7)"), _rules(age="[17, 82.7)", sex="Male"))


def test_folding_keeps_the_order_the_direction_and_significance():
    wide = _finding(_rules(age="[17, 82.7)"), -0.176)
    narrower = _finding(_rules(age="[17, 75.4)"), -0.165)
    favoured = _finding(_rules(age="[17, 68.1)"), +0.05)  # the other direction: kept
    old = _finding(_rules(age="[60.8, 90]"), +0.14)
    weak = _finding(_rules(age="[68.1, 90]"), +0.01, significant=False)
    older = _finding(_rules(age="[75.4, 90]"), +0.02)
    shown = fold_nested([wide, narrower, favoured, old, weak, older], "rows")
    assert [(f.rule_set, n) for f, n in shown] == [
        (wide.rule_set, 1),
        (favoured.rule_set, 0),
        (old.rule_set, 2),
    ]
    # A significant finding is not folded into one that is not.
    weak = _finding(_rules(age="[17, 53.5)"), +0.01, significant=False)
    strong = _finding(_rules(age="[17, 46.2)"), +0.03)
    assert [n for _, n in fold_nested([weak, strong], "rows")] == [0, 0]
    assert [n for _, n in fold_nested([strong, weak], "rows")] == [1]
    # Text rule sets are never folded.
    assert [n for _, n in fold_nested([wide, narrower], "text")] == [0, 0]


def test_a_long_label_is_broken_between_values_and_never_cut():
    label = "{age ∈ [17, 38.9), race ∈ Amer-Indian-Eskimo|Asian-Pac-Islander|Black|Other}"
    for width in (12, 20, 30, 44):
        lines = wrap_label(label, width)
        assert "".join(lines).replace(" ", "") == label.replace(" ", "")
        assert all(len(line) <= width for line in lines)
    assert wrap_label(label, 30)[1] == "Amer-Indian-Eskimo|"
