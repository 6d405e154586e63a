"""The `textfair` command line. Each command is a thin call into the library."""

from __future__ import annotations

from textfair.cli.app import app


def main() -> None:
    """Entry point of the `textfair` console script."""
    app()


__all__ = ["app", "main"]
