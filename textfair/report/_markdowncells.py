"""Markdown's small parts: a section's heading and table head, and the escaping that keeps a
user's text (a comment, a term, a column or file name) shown as written inside Markdown.

Apart from report.md's renderer (`textfair.report.markdown`, which re-exports them) so that
the renderer stays one job: what a report says, not how a character is escaped.
"""

from __future__ import annotations

__all__ = ["_section", "code_span", "markdown_cell", "markdown_text"]


def _section(title: str, intro: str | None, columns: list[str]) -> list[str]:
    """A Markdown section that opens with a table: heading, optional sentence, table head."""
    lines = ["", f"## {title}", ""]
    if intro:
        lines += [intro, ""]
    return [*lines, "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]


def markdown_text(text: object) -> str:
    """A user's text (a comment, a term, a column or file name) inside Markdown, shown as
    written and never run: HTML (`<script>`, `<!-- -->`) becomes entities; a code mark, a
    table bar and a link's `](` are escaped; a line break cannot end the line or start a new
    block. (Emphasis marks are left: they change how a text looks, never what a page does.)"""
    import html

    flat = html.escape(" ".join(str(text).split()), quote=False)
    marked = "".join("\\" + char if char in "\\`|" else char for char in flat)
    return marked.replace("](", "]\\(")


def markdown_cell(text: object) -> str:
    """A Markdown table cell (:func:`markdown_text`): a "|" inside a value ("Black|Other")
    no longer splits the cell."""
    return markdown_text(text)


def code_span(text: object) -> str:
    """`text` as a Markdown code span (shown literally): fenced with more backticks than any
    run inside it, so a backtick in a path or a model id cannot close it early."""
    import re

    flat = " ".join(str(text).split())
    fence = "`" * (max((len(run) for run in re.findall("`+", flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"
