"""The terminal view fits its width: compact tables whose names wrap but are never cut, then
the notes and the verdict (issue 29, friction 1: two 150-column tables, "{"hetero…" cut)."""

import io
import re
from dataclasses import replace

import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

from textfair.cli import app
from textfair.core.rules import Rule, RuleSet
from textfair.report.terminal import render_terminal

from locations import ROOT

BOX = set("┏┃┡│└┗━┳╇┩┓┴┼─┬┌┐┘├┤")


@pytest.fixture
def report(bundled_gender_religion_report):
    return bundled_gender_religion_report


def _table_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1] in BOX]


@pytest.mark.slow  # an audit from the command line, 5 s: the fast tier keeps to 3 minutes
def test_a_log_gets_tables_under_100_columns_with_whole_names_and_the_verdict_last(report):
    # A log of 100 columns, whatever width the test process inherits (a pytest-xdist
    # worker's COLUMNS is its terminal's).
    result = CliRunner().invoke(
        app, ["audit", "--categories", "gender,religion"], env={"COLUMNS": "100"}
    )
    assert result.exit_code == 0, result.output
    tables = _table_lines(result.stdout)
    assert tables and max(cell_len(line) for line in tables) <= 100
    for finding in report.findings[:10]:
        label = report.label(finding.rule_set)
        assert any(label in line for line in tables), label  # whole, on one line
    assert "…" not in result.stdout
    # The label of the user's model, not "favourable", heads the rate column.
    assert any("non-toxic" in line for line in tables[:3])
    # The verdict is the last line of the report, whole (a log keeps it on one line).
    last = result.stdout.strip().splitlines()[-1]
    assert last == f"Verdict: {report.summary()}"
    # It names the group that fares worst and by how much, in words, significant or not.
    assert re.search(
        r"(Disadvantaged|The most disadvantaged): texts that mention \w+ are judged non-toxic "
        r"\d+\.\d points less often than the same texts with another [\w ]+ term, "
        r"-\d+\.\d \[[-+]\d+\.\d, [-+]\d+\.\d\] points",
        last,
    ), last


@pytest.mark.parametrize("width", [80, 100])
def test_a_narrow_terminal_folds_long_names_and_cuts_none(report, width):
    long = RuleSet(
        (
            Rule("gender", "heterosexual"),
            Rule("religion", "jehovahs witness"),
            Rule("race", "native hawaiian or other pacific islander"),
        )
    )
    findings = (replace(report.findings[0], rule_set=long), *report.findings[1:])
    shown = io.StringIO()
    console = Console(file=shown, width=width, force_terminal=True, color_system=None)
    render_terminal(replace(report, findings=findings), console=console)
    text = shown.getvalue()
    assert max(cell_len(line) for line in text.splitlines()) <= width
    assert "…" not in text
    # Every word of the long name is there, folded over lines of its column.
    column = "".join(
        line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│")
    )
    assert report.label(long).replace(" ", "") in column.replace(" ", "")


def test_a_table_too_wide_for_its_terminal_is_one_line_per_row_with_every_column(report):
    shown = io.StringIO()
    console = Console(file=shown, width=60, force_terminal=False, color_system=None)
    render_terminal(report, console=console)
    text = shown.getvalue()
    for finding in report.findings[:10]:
        line = next(
            x for x in text.splitlines() if x.startswith(f"  {report.label(finding.rule_set)}:")
        )
        for head in (
            "difference [interval], points",
            "non-toxic with",
            "without",
            "p adj.",
            "seeds",
        ):
            assert head in line, line
    assert "too narrow" not in text


@pytest.mark.slow  # a whole audit through the CLI: 7 s
def test_in_a_pipe_the_audit_keeps_every_column_and_wraps_no_cell(tmp_path):
    """`textfair audit | cat` (issue 41): no column left out ("too narrow for: texts with
    both"), no cell broken over lines, at the width a pipe gets without $COLUMNS."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = subprocess.run(
        [sys.executable, "-m", "textfair", "audit", "--out", str(tmp_path / "r")],
        capture_output=True,  # stdout a pipe, as `| cat` gives it
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "too narrow" not in out and "…" not in out
    heads = out.replace("┃", " ")
    for header in (
        "rule set", "difference", "[interval], points", "non-toxic", "without", "p adj.",
        "seeds", "categories", "excess", "identity", "swap", "placebo", "edit", "Themis",
        "score", "texts", "with both",
    ):  # fmt: skip
        assert header in heads, header
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert len(rows) >= 20
    for line in rows:
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        # Every cell of every row on its line: a wrapped cell would leave a line whose
        # other cells are empty.
        assert all(cells), line


@pytest.mark.parametrize("width", [80, 120])
def test_fitted_table_cuts_a_column_of_words_and_never_a_number(width):
    """What `mitigate` shows: a long status in words beside numbers. At 80 columns the
    words are cut with "…" on their one line; numbers and names stay whole."""
    from textfair.report.terminal import fitted_table

    status = "no retrained version kept the accuracy within the budget of one point"
    rows = [
        [f"method {k}", status, f"+{k}.5 [-1.2, +{k + 3}.0]", "81.2%", "0.0431"] for k in range(4)
    ]
    columns = ["method", "status", "worst target\n[interval], points", "accuracy", "p adj."]
    table = fitted_table("Comparison", columns, rows, width)
    shown = io.StringIO()
    Console(file=shown, width=width, color_system=None).print(table)
    lines = shown.getvalue().splitlines()
    assert max(cell_len(line) for line in lines) <= width
    assert all(c.splitlines()[0] in shown.getvalue() for c in columns)  # no column left out
    body = [line for line in lines if line.startswith("│")]
    assert len(body) == len(rows)  # one line per row: nothing wrapped
    for k, line in enumerate(body):
        assert f"+{k}.5 [-1.2, +{k + 3}.0]" in line and f"method {k}" in line
        assert ("…" in line) == (len(status) + 60 > width), line


def test_fitted_table_too_wide_even_cut_is_one_line_per_row():
    from textfair.report.terminal import fitted_table

    rows = [['{"heterosexual"}', "+11.8 [+5.1, +17.7] *", "50.0%", "38.2%", "0.0086", "110"]]
    columns = ["rule set", "difference\n[interval], points", "with", "without", "p", "seeds"]
    lines = fitted_table("Group fairness", columns, rows, 40)
    shown = io.StringIO()
    Console(file=shown, width=200, color_system=None).print(lines)
    assert shown.getvalue().splitlines()[1] == (
        '  {"heterosexual"}: difference [interval], points +11.8 [+5.1, +17.7] *; '
        "with 50.0%; without 38.2%; p 0.0086; seeds 110"
    )


def test_a_causal_row_with_no_text_rewritten_reads_as_no_test_on_every_surface(report):
    """Issue 57: the religion causal row read "0.0% [0.0%, 9.4%]" when no religion seed
    took part: a Themis score over seeds none of which was rewritten measures nothing, so
    every surface says so instead of printing 0%."""
    from textfair.discovery.results import CausalScore

    causal = report.counterfactual.causal
    none_rewritten = CausalScore(("religion",), 0.0, (0.0, 0.094), 0, 38, None, edited=0)
    assert not none_rewritten.measured and all(c.measured for c in causal)
    changed = replace(
        report,
        counterfactual=replace(report.counterfactual, causal=(none_rewritten, *causal[1:])),
    )
    console = Console(file=io.StringIO(), width=100, color_system=None)
    render_terminal(changed, console=console)
    row = next(line for line in console.file.getvalue().splitlines() if "│ religion  " in line)
    assert "no text" in row and "0.0%" not in row
    from textfair.report.markdown import render_markdown

    markdown = render_markdown(changed)
    causal_row = next(line for line in markdown.splitlines() if "no text rewritten" in line)
    assert causal_row.startswith("| religion | no text rewritten | – |")
    assert "9.4%" not in causal_row
    assert "no text rewritten" in changed.to_html()
    # report.json keeps the count, and a report read back says the same.
    assert type(changed).from_dict(changed.to_dict()).counterfactual.causal[0].edited == 0
