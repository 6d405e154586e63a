"""The report page without a browser: what users wrote is escaped, two-category rule sets
get their heatmap, the swapped words are marked, and rendering is deterministic."""

from dataclasses import replace

from test_augment import report

from textfair.report.html import _marked, render_html


def test_user_text_is_escaped_and_the_swap_is_marked():
    hostile = '<script>alert("x")</script> a gay man'
    example = {
        "text": hostile,
        "favorable": False,
        "counterfactual": hostile.replace("gay", "straight"),
        "counterfactual_favorable": True,
    }
    base = report()
    finding = replace(base.findings[0], examples=[example])
    page = render_html(replace(base, findings=(finding,)))
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page
    assert "<mark>gay</mark>" in page and "<mark>straight</mark>" in page


def test_a_two_category_rule_set_gets_a_heatmap_and_the_gate_is_drawn():
    base = report()
    plain = render_html(base)
    gated = render_html(replace(base, extra={"fail_above": 0.3}))
    assert "Two categories at once" in plain and plain.count('role="img"') == 2
    assert "--fail-above" in gated and "--fail-above" not in plain
    assert render_html(base) == plain  # deterministic: the same bytes every time


def test_marking_handles_texts_of_different_lengths():
    left, right = _marked("the old man", "the elderly person here")
    assert left == "the <mark>old</mark> <mark>man</mark>"
    assert right == "the <mark>elderly</mark> <mark>person here</mark>"
