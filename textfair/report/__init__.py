"""Audit reports: the JSON contract, Markdown and terminal renderings."""

from textfair.report.render import render_markdown, render_terminal, write_report

__all__ = ["render_markdown", "render_terminal", "write_report"]
