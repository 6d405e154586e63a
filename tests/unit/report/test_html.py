"""The report page without a browser: what users wrote is escaped, two-category rule sets
get their heatmap, the swapped words are marked, and rendering is deterministic."""

from dataclasses import replace

from textfair.report.html import _marked, render_html
from unit.mitigate.test_augment import report


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


def test_a_heatmaps_colour_bar_speaks_the_units_of_its_cells():
    """The colour bar said "decisions flipped, %" but ran 0-1 while the cells printed 13 and
    33 (issue 29, friction 6): both are in percent now."""
    import re

    import numpy as np

    from textfair.report import _plots as plots

    values = np.array([[np.nan, 0.13], [0.33, np.nan]])
    svg = plots.heatmap(
        ["gay", "straight"],
        ["gay", "straight"],
        values,
        unit="decisions flipped, %",
        diverging=False,
        description="test",
    )
    texts = [t.strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]
    numbers = [float(t.replace("−", "-")) for t in texts if re.fullmatch(r"[−-]?\d+(\.\d+)?", t)]
    assert "13" in texts and "33" in texts
    ticks = [n for n in numbers if n not in (13, 33)]
    assert ticks and max(ticks) > 1 and all(float(n).is_integer() for n in ticks), texts
