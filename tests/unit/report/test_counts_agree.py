"""Every count a report prints agrees with report.json, on every surface (issue 57).

A real audit's report is redrawn at random (which rule sets each section holds and which
are significant, how many rows the table shows, what the corpus holds per category), then
rendered: the terminal, report.md, the page and `summary()` must give the counts report.json
holds (texts, texts naming a term, texts that can be rewritten, seeds naming and taking
part per category, rule sets and significant ones), and every findings table must list
every significant finding and say how many rows it left out, so the rows it shows and the
rows it says it left out make the count in its heading.
"""

from __future__ import annotations

import dataclasses
import html
import io
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from textfair.report.markdown import render_markdown
from textfair.report.model import AuditReport
from textfair.report.terminal import render_terminal

# A count as a surface prints it: "1,492" or "1492".
COUNT = r"(\d[\d,]*)"


def number(text: str) -> int:
    return int(text.replace(",", ""))


@st.composite
def redrawn(draw: st.DrawFn, report: AuditReport) -> tuple[AuditReport, int]:
    """`report` with each section's findings a random subset, each significant or not,
    its corpus counts random, and a random number of findings table rows."""

    def section(part: AuditReport) -> AuditReport:
        kept = [f for f in part.findings if draw(st.booleans())]
        findings = tuple(dataclasses.replace(f, significant=draw(st.booleans())) for f in kept)
        return dataclasses.replace(part, findings=findings)

    rows = draw(st.integers(1, 20_000))
    naming = draw(st.integers(0, rows))
    categories = list(report.config["categories"])
    mentioning = {c: draw(st.integers(0, naming)) for c in categories}
    data = {
        **report.data,
        "rows": rows,
        "naming_rows": naming,
        "mentioning_rows": draw(st.integers(0, naming)),
        "seeds_mentioning": mentioning,
        "seeds_rewritable": {c: draw(st.integers(0, n)) for c, n in mentioning.items()},
    }
    templates = section(report.templates) if report.templates is not None else None
    shown = dataclasses.replace(section(report), data=data, templates=templates)
    return shown, draw(st.integers(1, 12))


def terminal(report: AuditReport, top: int) -> str:
    console = Console(file=io.StringIO(), width=220, color_system=None, record=True)
    render_terminal(report, top=top, console=console)
    return console.export_text()


def check_corpus_counts(record: dict, said: str, where: str) -> None:
    data = record["data"]
    expected = (
        f"{data['rows']:,} texts: {data['naming_rows']:,} name an identity term, "
        f"{data['mentioning_rows']:,} can be rewritten"
    )
    assert expected in said, f"{where}: not {expected!r}"


def check_headings(part: AuditReport, text: str) -> None:
    """One section of report.md: the heading's count is the section's, every significant
    rule set is a row, and the rows shown plus those said left out make the heading's
    count."""
    record = json.loads(json.dumps(part.to_dict()))
    findings = record["findings"]
    if not findings:
        return
    match = re.search(r"Group fairness \((\d+) rule sets?,", text)
    assert match and int(match.group(1)) == len(findings), text[:400]
    table = text[text.index("| rule set |") :].split("\n\n", 1)[0].splitlines()[2:]
    listed = [row.split(" | ", 1)[0].removeprefix("| ") for row in table]
    left = re.search(r"(\d+) more rule sets?, none significant", text)
    assert len(listed) + (int(left.group(1)) if left else 0) == len(findings)
    for finding in part.significant:
        assert part.label(finding.rule_set) in listed, (part.label(finding.rule_set), listed)
    significant = sum(f["significant"] for f in findings)
    said = re.search(r"(\d+) of (\d+) rule sets? differs? significantly", text)
    assert said and (int(said.group(1)), int(said.group(2))) == (significant, len(findings))


@pytest.mark.slow  # six reports rendered on every surface, the page's charts included: 14 s
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_surface_gives_report_jsons_counts(bundled_gender_religion_report, data):
    report, top = data.draw(redrawn(bundled_gender_religion_report))
    record = json.loads(json.dumps(report.to_dict()))
    parts = [record] + ([record["templates"]] if record.get("templates") else [])
    markdown = render_markdown(report, top=top)
    page = html.unescape(report.to_html())
    shown_terminal = terminal(report, top)
    summary = report.summary()

    # What the corpus holds: the same words and numbers on the three surfaces.
    for where, said in (("terminal", shown_terminal), ("report.md", markdown), ("page", page)):
        check_corpus_counts(record, said, where)

    # Per category: seeds naming it and those that can be rewritten, in the seeds table
    # of report.md and in the verdict's "race: 64 texts name it, 11 can be rewritten".
    naming, rewritable = record["data"]["seeds_mentioning"], record["data"]["seeds_rewritable"]
    for category, n in naming.items():
        row = re.search(rf"\| {category} \| (\d+) \| (\d+) \(", markdown)
        assert row and (int(row.group(1)), int(row.group(2))) == (n, rewritable[category])
    for category, n, k in re.findall(
        rf"(\w+): {COUNT} texts? names? it(?:, {COUNT} can be rewritten)?", summary
    ):
        assert number(n) == naming[category]
        if k:
            assert number(k) == rewritable[category]

    # Rule sets: the verdict's and the terminal's counts per section are report.json's.
    heads = re.findall(r"(\d+) rule sets?, (\d+) significant after correction", summary)
    expected = [
        (len(p["findings"]), sum(f["significant"] for f in p["findings"]))
        for p in parts
        if p["findings"]
    ]
    assert [(int(a), int(b)) for a, b in heads] == expected, summary
    assert not re.search(r"(?<![\d,])1 (rule sets|tests)\b", summary + markdown + shown_terminal)
    for p, heading in zip(
        [p for p in parts if p["findings"]],
        re.findall(r"Group fairness: (?:top )?(\d+) of (\d+) rule sets?", shown_terminal),
        strict=True,
    ):
        listed, total = int(heading[0]), int(heading[1])
        assert total == len(p["findings"])
        significant = sum(f["significant"] for f in p["findings"])
        assert listed == len(p["findings"][:top]) + max(
            0, significant - sum(f["significant"] for f in p["findings"][:top])
        )

    # report.md: every heading's count, every significant finding listed, the rest counted.
    if report.templates is None:
        check_headings(report, markdown)
    else:
        ours, templated = markdown.split("## On templates")
        check_headings(report, ours)
        check_headings(report.templates, templated)
