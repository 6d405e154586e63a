"""The mitigation page shows before and after as signed differences with intervals, in a
plot and a table, and a held-out term that got worse as worse (issue 29, friction 6: the
page showed unsigned scores and queer 0.4 → 2.5 as "–")."""

import re

from textfair.report.mitigation import (
    mitigation_verdict,
    render_mitigation,
    render_mitigation_html,
)


def _side(phi_r, phi_not_r, ci, significant):
    return {
        "score": abs(phi_r - phi_not_r),
        "ci": list(ci),
        "phi_r": phi_r,
        "phi_not_r": phi_not_r,
        "p_adjusted": 0.01 if significant else 1.0,
        "significant": significant,
    }


REPORT = {
    "status": "mitigated",
    "model": {"id": "toxicity-cnn-lstm", "retrainer": "torch"},
    "data": {"train_rows": 1194, "held_out_rows": 298},
    "comparison": [
        {
            "rule_set": "gender=gay",
            "role": "target",
            "before": _side(0.336, 0.404, (-0.114, -0.017), True),
            "after": _side(0.395, 0.401, (-0.05, 0.04), False),
            "reduction": 0.91,
        },
        {
            "rule_set": "gender=queer",
            "role": "held-out term",
            "before": _side(0.40, 0.404, (-0.04, 0.03), False),
            "after": _side(0.379, 0.404, (-0.07, 0.02), False),
            "reduction": None,
        },
    ],
    "held_out": {
        "rows": 298,
        "before": {"accuracy": 0.872, "roc_auc": 0.888},
        "after": {"accuracy": 0.869, "roc_auc": 0.89},
    },
    "steps": [],
    "run": {"seconds": 12.0},
}


def test_a_held_out_term_that_got_worse_is_said_to_be_worse_everywhere():
    verdict = mitigation_verdict(REPORT)
    assert "larger after (worse): gender=queer 0.4 → 2.5 points" in verdict
    markdown = render_mitigation(REPORT)
    assert (
        "| gender=queer | held-out term | -0.4 [-4.0, +3.0] | -2.5 [-7.0, +2.0] | "
        "+2.1, larger (worse) |" in markdown
    )
    assert (
        "| gender=gay | target | -6.8 [-11.4, -1.7] * | -0.6 [-5.0, +4.0] | -6.2, smaller |"
        in markdown
    )


def test_the_page_has_a_before_after_plot_and_signed_intervals():
    page = render_mitigation_html(REPORT)
    assert page.count("<svg") == 1 and "Before and after" in page
    cells = re.findall(r"<td[^>]*>(.*?)</td>", page)
    assert "-6.8 [-11.4, -1.7] *" in cells and "-0.6 [-5.0, +4.0]" in cells
    assert '<span class="out">+2.1, larger (worse)</span>' in cells
    assert "Larger after retraining (worse): gender=queer (held-out term)" in page
    assert "larger after (worse)" in page  # in the verdict at the top
