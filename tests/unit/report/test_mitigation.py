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
            "rule_set": '{"gay"}',
            "role": "target",
            "before": _side(0.336, 0.404, (-0.114, -0.017), True),
            "after": _side(0.395, 0.401, (-0.05, 0.04), False),
            "reduction": 0.91,
        },
        {
            "rule_set": '{"queer"}',
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
    assert 'larger after (worse): {"queer"} 0.4 → 2.5 points' in verdict
    markdown = render_mitigation(REPORT)
    assert (
        '| {"queer"} | held-out term | -0.4 [-4.0, +3.0] | -2.5 [-7.0, +2.0] | '
        "+2.1, larger (worse) |" in markdown
    )
    assert (
        '| {"gay"} | target | -6.8 [-11.4, -1.7] * | -0.6 [-5.0, +4.0] | -6.2, smaller |'
        in markdown
    )


def test_the_page_has_a_before_after_plot_and_signed_intervals():
    page = render_mitigation_html(REPORT)
    assert page.count("<svg") == 1 and "Before and after" in page
    cells = re.findall(r"<td[^>]*>(.*?)</td>", page)
    assert "-6.8 [-11.4, -1.7] *" in cells and "-0.6 [-5.0, +4.0]" in cells
    assert '<span class="out">+2.1, larger (worse)</span>' in cells
    assert "Larger after retraining (worse): {&quot;queer&quot;} (held-out term)" in page
    assert "larger after (worse)" in page  # in the verdict at the top


def test_nothing_significant_is_said_in_a_sentence_not_none_rows():
    report = {
        **REPORT,
        "status": "nothing to mitigate: the audit has no significant finding",
        "data": {"path": "wiki_toxicity.csv"},  # what the CLI adds; the loop never split
        "comparison": [],
        "held_out": {"rows": None, "before": None, "after": None},
    }
    markdown = render_mitigation(report)
    assert "None" not in markdown
    assert "the audit found no significant finding, so there was nothing to aim" in markdown
    assert "1194 training rows, 298 held out" in render_mitigation(REPORT)


def _piped(print_report, report) -> list[str]:
    """What a pipe (`| cat`, a CI log) gets: rich's default of 80 columns, no terminal."""
    import io

    from rich.console import Console

    out = io.StringIO()
    print_report(report, Console(file=out, width=80, force_terminal=False))
    return out.getvalue().splitlines()


def _table_rows(lines: list[str], first: str, names: list[str]) -> dict[str, str]:
    """Each named row of a printed table (its first cell `names`), the one line it has."""
    rows = {}
    for name in names:
        found = [line for line in lines if line.startswith(name + " ")]
        assert len(found) >= 1, (name, lines)
        rows[name] = found[0]
    return rows


def test_the_mitigation_report_keeps_its_columns_and_one_line_per_row_in_a_pipe():
    from textfair.report.mitigation import print_mitigation

    report = {
        **REPORT,
        "steps": [
            {"added": 50, "worst_target_score": 0.06, "held_out_accuracy": 0.87, "kept": False},
            {
                "added": 800,
                "extended": True,
                "worst_target_score": 0.01,
                "held_out_accuracy": 0.86,
                "kept": True,
            },
        ],
    }
    lines = _piped(print_mitigation, report)
    assert all(len(line) <= 80 for line in lines if "│" in line or "─" in line)
    head = next(line for line in lines if line.startswith("augmentation rows"))
    assert all(c in head for c in ("worst target", "accuracy", "kept"))
    assert (
        next(line for line in lines if line.startswith("800 (extended)")).rstrip().endswith("yes")
    )
    # Each target or held-out term is one line: never a cell broken word by word.
    assert any(line.startswith('  {"gay"} (target): -6.8 [-11.4, -1.7] *') for line in lines)
