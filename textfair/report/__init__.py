"""Audit reports: the JSON contract, Markdown and terminal renderings."""

from textfair.report.render import REPORT_FILES, render_markdown, render_terminal, write_report

__all__ = ["REPORT_FILES", "render_markdown", "render_terminal", "write_report"]
