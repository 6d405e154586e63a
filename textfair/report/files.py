"""The report on disk: report.json read back, the report directory (report.json, report.md
and report.html) written as one set, and the page written alone.

Apart from the report's data (`textfair.report.model`), whose `read`, `save` and `to_html`
delegate here: writing a set calls the renderers, which the data never imports. The
renderers know `AuditReport` only as a type, and this module builds a report only from the
class it is given, so nothing here waits on the model.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from textfair.errors import TextfairError
from textfair.io import atomic_directory, atomic_writer, check_output_directory, read_json
from textfair.report import records
from textfair.report.gate import Gate
from textfair.report.markdown import render_markdown

if TYPE_CHECKING:
    from textfair.report.model import AuditReport

__all__ = ["REPORT_FILES", "read_report", "write_page", "write_report"]


def read_report(cls: type[AuditReport], path: str | Path) -> AuditReport:
    """A report.json read as a report of class `cls` (`AuditReport.read`), without flipped
    pairs, which report.json does not hold.

    Raises
    ------
    TextfairError
        The file is missing or not JSON, or it is not an audit report; the message starts
        with the path.
    """
    record = read_json(path, "the report.json of an audit")
    try:
        return records.report_from_record(cls, record)
    except TextfairError as err:
        raise TextfairError(f"{path}: {err}") from None


# What a report directory holds: it is replaced as one set.
REPORT_FILES = ["report.json", "report.md", "report.html"]


def write_report(
    report: AuditReport,
    directory: str | Path,
    top: int = 10,
    *,
    overwrite: bool = False,
    fail_above: float | str | Gate | None = None,
) -> tuple[Path, Path, Path]:
    """Write report.json, report.md and report.html into `directory`, as one set.

    The files are staged in a directory beside it that then takes its place in one step, so
    an interrupted write leaves the complete old set or the complete new one, never a mix.
    A directory holding an earlier report is replaced only with `overwrite`; one holding
    other files is refused (see :func:`textfair.io.check_output_directory`). `fail_above`,
    the CI gate the audit ran with (a number, "gender=0.05,race=0.1" or a Gate), is
    recorded in report.json and drawn on the page. The page is rendered from report.json as
    written, so `textfair report` renders it again byte for byte.
    """
    # Here, not at the top: the page's plots load matplotlib, which reading a report or
    # REPORT_FILES does not need.
    from textfair.report.html import render_html

    out = Path(directory)
    check_output_directory(out, REPORT_FILES, overwrite)
    if fail_above is not None:
        gate = Gate.parse(fail_above).to_json()
        report = replace(report, extra={**report.extra, "fail_above": gate})
    text = json.dumps(report.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    page = render_html(type(report).from_dict(json.loads(text)))
    with atomic_directory(out, replace=overwrite) as staging:
        for name, content in (
            ("report.json", text),
            ("report.md", render_markdown(report, top)),
            ("report.html", page),
        ):
            with open(staging / name, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(content)
    return out / "report.json", out / "report.md", out / "report.html"


def write_page(report: AuditReport, path: str | Path | None, *, overwrite: bool) -> str:
    """The report page (`AuditReport.to_html`), written to `path` too unless it is None; an
    existing file is replaced only with `overwrite`."""
    from textfair.report.html import render_html

    # From the JSON form, as write_report renders it: the same bytes as report.html.
    page = render_html(type(report).from_dict(json.loads(json.dumps(report.to_dict()))))
    if path is not None:
        if Path(path).exists() and not overwrite:
            raise TextfairError.bad("path", f"{path} exists; pass overwrite=True to replace it")
        with atomic_writer(path, replace=overwrite) as handle:
            handle.write(page)
    return page
