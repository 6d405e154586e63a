"""The Markdown reports read as tables: a rule set over several values of a column
("race=Black|Other") stays one cell in the tabular report.md and mitigation.md, and in the
terminal view of a mitigation."""

from __future__ import annotations

import re

import joblib
import pandas as pd
import pytest
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from textfair.cli import app
from textfair.models.baselines import logistic_regression
from textfair.report.markdown import markdown_cell

from conftest import DATA


def tables(markdown: str) -> list[list[list[str]]]:
    """Every table of a Markdown document as rows of cell texts, parsed as GitHub does."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    found, row, cell = [], None, None
    for token in tokens:
        if token.type == "table_open":
            found.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type in ("th_open", "td_open"):
            cell = ""
        elif token.type == "inline" and cell is not None:
            cell += token.content
        elif token.type in ("th_close", "td_close"):
            row.append(cell)
            cell = None
        elif token.type == "tr_close":
            found[-1].append(row)
    return found


def test_markdown_cell_keeps_a_bar_and_a_line_break_inside_the_cell():
    markdown = "| a | b |\n|---|---|\n| " + markdown_cell("x|y\nz") + " | 1 |\n"
    assert tables(markdown) == [[["a", "b"], ["x|y z", "1"]]]


@pytest.fixture(scope="module")
def table_runs(tmp_path_factory):
    """A tabular audit and a tabular mitigation of a logistic regression on Adult rows."""
    root = tmp_path_factory.mktemp("markdown")
    frame = pd.read_csv(DATA / "adult_sample.csv")
    model = logistic_regression(frame.drop(columns="income"), frame["income"], max_iter=500)
    joblib.dump(model, root / "lr.joblib")
    rows = [
        "--model",
        f"sklearn:{root / 'lr.joblib'}",
        "--data",
        str(DATA / "adult_sample.csv"),
        "--sensitive",
        "sex,race",
        "--label-column",
        "income",
        "--favorable",
        ">50K",
    ]
    runner = CliRunner()
    audit = runner.invoke(app, ["tabular", "audit", *rows, "--out", str(root / "audit")])
    assert audit.exit_code == 0, audit.output
    mitigation = runner.invoke(
        app, ["tabular", "mitigate", *rows, "--max-rounds", "2", "--out", str(root / "fix")]
    )
    assert mitigation.exit_code == 0, mitigation.output
    return root, mitigation.output


@pytest.mark.slow  # a tabular audit and mitigation, 12 s: the fast tier keeps to 3 minutes
@pytest.mark.parametrize("name", ["audit/report.md", "fix/mitigation.md", "fix/before/report.md"])
def test_every_table_row_has_as_many_cells_as_its_header(table_runs, name):
    root, _ = table_runs
    found = tables((root / name).read_text(encoding="utf-8"))
    assert found
    for table in found:
        widths = {len(row) for row in table}
        assert widths == {len(table[0])}, table
    cells = [cell for table in found for row in table for cell in row]
    # The rule sets over several values of a column are there, each one cell.
    assert any("race" in cell and "|" in cell for cell in cells)


@pytest.mark.slow  # the same tabular mitigation
def test_the_mitigation_terminal_keeps_a_rule_set_and_its_numbers_on_one_line(table_runs):
    _, printed = table_runs
    # One line per rule set: the rule set whole, its role, before → after in points.
    row = next(line for line in printed.splitlines() if "(target)" in line)
    assert row.lstrip().startswith("{race ∈ ") and "} (target): " in row
    assert " → " in row and row.count("[") == 2
    # The retraining steps give the worst target in points, not as a percentage.
    head = next(line for line in printed.splitlines() if "worst target, points" in line)
    step = printed.splitlines()[printed.splitlines().index(head) + 2]
    assert "%" not in step.split()[1]


def test_a_text_report_says_how_many_seeds_of_each_category_took_part():
    import numpy as np

    from textfair.auditing.text import audit_text
    from textfair.models import CachedModel, CallableModel
    from textfair.report.markdown import render_markdown
    from textfair.settings import AuditConfig

    texts = [
        "The Jews met the rabbi.",  # a cue of the identity: left out
        "Christians and Muslims met.",  # two terms: left out
        *[f"The Muslims met on day {k}." for k in range(8)],
        *[f"A gay man spoke on day {k}." for k in range(8)],
    ]
    model = CachedModel(CallableModel(lambda b: np.full((len(b), 2), 0.5), labels=["ok", "bad"]))
    config = AuditConfig(categories=["gender", "religion"], causal=False, theta=0.1)
    report = audit_text(model, texts, favorable="ok", config=config)
    assert report.data["seeds_mentioning"] == {"gender": 8, "religion": 10}
    # Texts naming any term (18), and those that can be rewritten (16): the header's counts.
    assert (report.data["naming_rows"], report.data["mentioning_rows"]) == (18, 16)
    assert ": 18 texts: 18 name an identity term, 16 can be rewritten." in render_markdown(report)
    assert report.data["seeds_left_out"]["religion"]["cue"] == 1
    rows = {row[0]: row for row in tables(render_markdown(report))[1][1:]}
    # Each reason in plain words (report.seedwords), never its key.
    assert rows["religion"] == [
        "religion",
        "10",
        "8 (80%)",  # the seeds that can be rewritten, and their share (issue 57)
        '1 names two of its terms; 1 holds a word of one identity alone ("synagogue")',
    ]
    assert rows["gender"] == ["gender", "8", "8 (100%)", "none"]


def test_a_category_with_one_rated_term_is_not_its_own_lowest_and_highest():
    """report.md said "lowest african (79.1%), highest african (79.1%)" (issue 29)."""
    from textfair.report.markdown import rate_extremes

    assert rate_extremes({"african": 0.791}) == ("african (79.1%), the only term rated", "–")
    assert rate_extremes({"a": 0.5, "b": 0.5}) == ("all 2 terms (50.0%)", "–")
    assert rate_extremes({"a": 0.4, "b": 0.6}) == ("a (40.0%)", "b (60.0%)")
    # Issue 57: a rate on one text is 0% or 100% whatever the model does; each end says
    # how many texts it rests on.
    assert rate_extremes({"latina": 0.0, "african": 1.0}, {"latina": 1, "african": 3}) == (
        "latina (0.0%, 1 text)",
        "african (100.0%, 3 texts)",
    )


def test_a_group_score_over_terms_that_share_no_text_is_said_to_compare_nothing():
    """Issue 57: the page's race chart drew latina at 0% and african at 100% over "Group
    score 0.0 points": each rate rested on one text of its own, no two terms were written
    into the same text, and the intervals were drawn as if each rested on every text."""
    from textfair.discovery.results import GroupScore
    from textfair.report._figures import _group_score_sentence, term_seeds

    group = GroupScore(
        "race",
        0.0,
        {"latina": 0.0, "african": 1.0},
        9,
        seeds_per_term={"latina": 1, "african": 1},
        pairs_compared=0,
    )
    sentence = _group_score_sentence(group, "texts")
    assert sentence.startswith("No group score: no two terms were written into the same text")
    assert "0.0 points" not in sentence
    assert term_seeds(group, "latina") == 1
    shared = GroupScore("race", 0.25, {"a": 0.5, "b": 0.75}, 8, pairs_compared=1)
    assert _group_score_sentence(shared, "texts").startswith("Group score 25.0 points")
    # A report written before the counts were kept draws the category's seeds, as it did.
    assert term_seeds(shared, "a") == 8


_NUMBER = r"[+-]?\d+(?:\.\d+)?"
# `strict_result`: "–", "no texts", or the estimate, its interval and its seeds, "?" when
# the finding does not hold on them.
STRICT_CELL = re.compile(rf"–|(?:no \w+|{_NUMBER} \[{_NUMBER}, {_NUMBER}\], \d+)(?: \?)?")


def test_each_findings_cell_is_under_its_own_header(bundled_gender_religion_report):
    """report.md put the seeds under "acceptability (mean)", the acceptability under the
    strict column and the strict result under "seeds": the header's order was not the
    cells' (found reading the names_ethnicity report, 2026-11-26)."""
    from textfair.report.markdown import render_markdown

    report = bundled_gender_religion_report
    header, *rows = tables(render_markdown(report))[0]
    assert header[0] == "rule set" and rows
    for row in rows:
        cell = dict(zip(header, row, strict=True))
        assert cell["seeds"].removesuffix(" !").isdigit()
        assert 0 <= float(cell["acceptability (mean)"]) <= 1
        strict = next(v for k, v in cell.items() if k.startswith("on seeds scoring"))
        # No strict result, or a difference with its interval and the seeds it rests on
        # ("+13.2 [+3.6, +21.4], 67"), whole.
        assert STRICT_CELL.fullmatch(strict), strict
        assert cell["difference [interval] (points)"][0] in "+-0"
