"""`textfair report`: show a saved report again, or render it as a page or as Markdown."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from textfair.cli._app import app, command

if TYPE_CHECKING:
    from textfair.report.model import AuditReport


@command(app, "report")
def report_command(
    report: Path = typer.Argument(
        ..., help="report.json of an audit, mitigation.json, or comparison.json."
    ),
    html: Path | None = typer.Option(None, "--html", help="Write the page (one HTML file) here."),
    markdown: Path | None = typer.Option(None, "--md", help="Write the Markdown report here."),
    top: int = typer.Option(10, "--top", min=1, help="Findings shown in the terminal and .md."),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Replace --html or --md files that exist."
    ),
    baseline: Path | None = typer.Option(
        None,
        "--baseline",
        help="report.json of the previous version's audit: each finding's change (rule sets "
        "and causal scores), paired on the same seeds (shown, and added to --html and --md).",
    ),
) -> None:
    """Render a saved report again: the page the audit wrote (byte for byte), Markdown, or the
    terminal view when no output is named."""
    from textfair.errors import TextfairError
    from textfair.io import Output, atomic_writer, check_outputs, read_json
    from textfair.report.comparison import render_comparison, render_comparison_html
    from textfair.report.html import render_html
    from textfair.report.markdown import render_markdown
    from textfair.report.mitigation import render_mitigation, render_mitigation_html
    from textfair.report.model import AuditReport
    from textfair.report.terminal import render_terminal

    check_outputs(
        [Output("--html", html), Output("--md", markdown)], {"REPORT": report}, overwrite=overwrite
    )
    record = read_json(report, "a report.json, mitigation.json or comparison.json textfair wrote")
    if isinstance(record, dict) and "comparison" in record and "steps" in record:
        page, text = render_mitigation_html(record), render_mitigation(record)
    elif isinstance(record, dict) and {"baseline", "methods", "pareto"} <= set(record):
        page, text = render_comparison_html(record), render_comparison(record)
    else:
        try:
            audit = AuditReport.from_dict(record)  # it checks that `record` is a report
        except TextfairError as err:
            raise TextfairError(f"{report}: {err}") from None
        comparison = _compared(baseline, audit)
        said = comparison["lines"] if comparison else []
        if comparison:  # the page and the Markdown show it as an audit's --baseline does
            audit = replace(audit, extra={**audit.extra, "baseline": comparison})
        page, text = render_html(audit), render_markdown(audit, top)
        if html is None and markdown is None:
            render_terminal(audit, top=top)
            for line in said:
                typer.echo(line)
            return
    for out, content in ((html, page), (markdown, text)):
        if out is not None:
            with atomic_writer(out, replace=overwrite) as handle:
                handle.write(content)
            typer.echo(f"wrote {out}", err=True)
    if html is None and markdown is None:
        typer.echo(text)


def _compared(baseline: Path | None, audit: AuditReport) -> dict[str, Any] | None:
    """`audit` compared with --baseline's report (`textfair.compare`), as report.json's
    ``baseline`` holds it; None without --baseline."""
    if baseline is None:
        return None
    from textfair.errors import TextfairError
    from textfair.report.model import AuditReport
    from textfair.report.versions import compare

    try:
        old = AuditReport.read(baseline / "report.json" if baseline.is_dir() else baseline)
    except TextfairError as err:
        raise TextfairError(f"--baseline {baseline}: {err}") from None
    return compare(old, audit).to_dict()
