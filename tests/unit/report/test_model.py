"""The typed report: real audits survive report.json unchanged, and every consumer reads it."""

import json

import pandas as pd
import pytest

from textfair.auditing.rows import audit_rows
from textfair.core.rules import Rule, RuleSet
from textfair.errors import TextfairError
from textfair.models.baselines import logistic_regression
from textfair.models.rows import RowModel
from textfair.report.markdown import render_markdown
from textfair.report.model import AuditReport, LabelMetrics, TableMetrics
from textfair.settings import AuditConfig
from textfair.tabular.schema import infer_schema

from conftest import DATA


@pytest.fixture(scope="module")
def text_report(bundled_gender_religion_report) -> AuditReport:
    # The bundled model's audit of the bundled comments on gender and religion: the session's
    # one (an audit of its own here cost the fast tier 5 s more).
    return bundled_gender_religion_report


@pytest.fixture(scope="module")
def table_report() -> AuditReport:
    frame = pd.read_csv(DATA / "adult_sample.csv")
    schema = infer_schema(frame, label="income", sensitive=["sex", "race"])
    columns = [f.name for f in schema.features]
    fitted = logistic_regression(frame[columns], frame["income"], max_iter=500)
    return audit_rows(RowModel(fitted, columns), frame, schema, config=AuditConfig(max_samples=200))


@pytest.mark.parametrize("which", ["text_report", "table_report"])
def test_a_real_audit_survives_report_json(which, request):
    report = request.getfixturevalue(which)
    written = json.dumps(report.to_dict(), allow_nan=False)  # strict JSON: NaN became null
    again = AuditReport.from_dict(json.loads(written))
    assert again == report
    assert again.to_dict() == report.to_dict()
    assert report.findings and all(isinstance(f.rule_set, RuleSet) for f in report.findings)


def test_text_and_rows_are_told_by_the_report_not_by_its_keys(text_report, table_report):
    assert text_report.kind == "text" and isinstance(text_report.metrics, LabelMetrics)
    assert table_report.kind == "rows" and isinstance(table_report.metrics, TableMetrics)
    record = table_report.to_dict()
    assert set(record["findings"][0]["rule_set"][0]) == {"feature", "values"}
    assert set(text_report.to_dict()["findings"][0]["rule_set"][0]) == {"category", "term"}
    # Seed rows (issue 58: what versions are compared on) are kept for text only.
    assert all(c.seeds and len(c.seed_flips) == c.n for c in text_report.counterfactual.causal)
    assert "seed_flips" not in str(record["counterfactual"]["causal"])
    # A report written before "kind" existed is still read, and read as what it is.
    del record["kind"], record["report_version"]
    assert AuditReport.from_dict(record).kind == "rows"
    # The placebo edits' queries are stated apart (report version 3); an older report
    # without them reads as none.
    assert 0 < text_report.run.placebo_queries < text_report.run.model_queries
    assert "of them placebo edits" in render_markdown(text_report)
    del record["run"]["placebo_queries"]
    assert AuditReport.from_dict(record).run.placebo_queries == 0


def test_rule_sets_show_and_round_trip_through_one_class():
    text = RuleSet((Rule("gender", "gay"), Rule("religion", "taoist")))
    assert text.label("text") == '{"gay", "taoist"}'
    assert text.key == "gender=gay & religion=taoist"
    assert RuleSet.from_records(text.to_records("text"), "text") == text
    rows = RuleSet((Rule("race", "Black|Other"),))
    assert rows.label("rows") == "{race ∈ Black|Other}"
    assert RuleSet.from_records(rows.to_records("rows"), "rows") == rows
    assert hash(text) == hash(tuple(text))  # discovery's dictionaries keep working


def test_notebook_views_and_markdown(text_report, table_report):
    frame = text_report.findings_frame()
    assert frame["rule_set"].iloc[0] == text_report.label(text_report.findings[0].rule_set)
    # The model's label names and a signed difference, not the paper's phi_r and |score|.
    first = text_report.findings[0]
    assert frame["non-toxic_rate_with"].iloc[0] == first.phi_r
    # Differences in points, as every other surface prints them (issue 57), named so.
    assert frame["difference_points"].iloc[0] == pytest.approx(
        100 * (first.phi_r - first.phi_not_r)
    )
    assert frame["ci_low_points"].iloc[0] == pytest.approx(100 * first.ci[0])
    assert not {"difference", "ci_low", "ci_high"} & set(frame.columns)
    assert not {"phi_r", "phi_not_r", "score"} & set(frame.columns)
    # Of its seeds, those flagged WORLD (issue 56): the finding's count, column by column.
    assert list(frame["world_seeds"].iloc[: len(text_report.findings)]) == [
        f.world for f in text_report.findings
    ]
    templated = text_report.templates.findings if text_report.templates else ()
    assert len(frame) == len(text_report.findings) + len(templated)
    assert list(frame["section"].unique()) == ["texts", "templates"][: 1 + bool(templated)]
    # Where each category was tested, then each section's verdict.
    assert text_report.summary().startswith("Tested: ")
    assert "On your texts: toxicity-cnn-lstm: " in text_report.summary()
    assert "<table" in text_report._repr_html_()
    assert text_report._repr_markdown_().startswith("# textfair audit")
    assert "## Label-based metrics" in render_markdown(text_report)
    markdown = render_markdown(table_report)
    assert "## Group metrics" in markdown
    # A value holding "|" would split a Markdown cell: it is escaped.
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    assert all("\\|" in line for line in rows if "Asian-Pac-Islander|" in line)


def test_what_is_not_a_report_is_one_line(tmp_path):
    for content, message in [
        ("[1, 2]", "a list is not an audit report"),
        ('{"model": {}, "findings": []}', "incomplete or malformed"),
        ("{", "not JSON"),
    ]:
        path = tmp_path / "r.json"
        path.write_text(content)
        with pytest.raises(TextfairError, match=message):
            AuditReport.read(path)
    with pytest.raises(TextfairError, match="no such file"):
        AuditReport.read(tmp_path / "missing.json")


def test_a_report_of_a_newer_version_is_refused_in_one_line_or_read_when_compatible(
    text_report, tmp_path
):
    import subprocess
    import sys

    from textfair.errors import InputNote

    record = text_report.to_dict()
    record["report_version"] = 99
    path = tmp_path / "report.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(TextfairError, match="version 99, newer than the 5 this textfair reads"):
        AuditReport.read(path)
    shown = subprocess.run(
        [sys.executable, "-m", "textfair", "report", str(path)], capture_output=True, text=True
    )
    assert shown.returncode == 2 and "Traceback" not in shown.stderr
    assert shown.stderr.strip().splitlines()[-1].startswith(f"error: {path}: the report is ")
    # A writer that says version 5 readers can read it: read, with a note.
    record["compatible_with"] = 5
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.warns(InputNote, match="its writer says version 5 readers can read it"):
        assert AuditReport.read(path).findings == text_report.findings


@pytest.mark.slow  # the page written with its charts: 7 s of the fast tier's 3 minutes
def test_a_notebook_prints_a_line_and_saves_the_report_and_the_page(text_report, tmp_path):
    """print(report) is one line, not the whole report; save() writes what `textfair audit
    --out` writes, and to_html() the same page."""
    shown = repr(text_report)
    assert "\n" not in shown and len(shown) < 400 and shown.startswith("<AuditReport text")
    saved = text_report.save(tmp_path / "report")
    assert sorted(p.name for p in saved.iterdir()) == ["report.html", "report.json", "report.md"]
    page = text_report.to_html(tmp_path / "page.html")
    assert (tmp_path / "page.html").read_text(encoding="utf-8") == page
    assert page == (saved / "report.html").read_text(encoding="utf-8")
    with pytest.raises(TextfairError, match="overwrite=True"):
        text_report.to_html(tmp_path / "page.html")
    with pytest.raises(TextfairError, match="overwrite"):
        text_report.save(tmp_path / "report")
    text_report.save(tmp_path / "report", overwrite=True)
