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
from textfair.discovery.rulesets import Rule, RuleSet
from textfair.report.render import render_terminal

BOX = set("┏┃┡│└┗━┳╇┩┓┴┼─┬┌┐┘├┤")


@pytest.fixture
def report(bundled_gender_religion_report):
    return bundled_gender_religion_report


def _table_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1] in BOX]


def test_a_log_gets_tables_under_100_columns_with_whole_names_and_the_verdict_last(report):
    result = CliRunner().invoke(app, ["audit", "--categories", "gender,religion"])
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
