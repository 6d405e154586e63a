"""The `textfair` command line. Each command is a thin call into the library."""

from __future__ import annotations

import sys
import warnings
from typing import TYPE_CHECKING, TextIO, cast

from textfair.cli import _notes
from textfair.cli._app import EXIT_INTERRUPTED, EXIT_USAGE, app
from textfair.errors import InputNote
from textfair.io import printable

if TYPE_CHECKING:
    from typer._click.exceptions import UsageError


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `textfair` console script.

    A mistake on the command line (an unknown option, a value out of range) is one line on
    stderr and exit code 2, like every other mistake, rather than a framed usage box.
    """
    import typer

    # Typer raises the UsageError of the click it runs on (its own copy in recent releases):
    # found from a public exception's ancestry rather than a private module path.
    # (The checker knows the class by the path of the typer it was run with.)
    usage_error = cast(
        "type[UsageError]",
        next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError"),
    )
    _notes.clear()
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line_warning
            code = app(args=argv, prog_name="textfair", standalone_mode=False)
    except usage_error as mistake:
        if type(mistake).__name__ == "NoArgsIsHelpError":  # `textfair`, `textfair tabular`
            typer.echo(mistake.ctx.get_help() if mistake.ctx else str(mistake), err=True)
            sys.exit(EXIT_USAGE)
        where = mistake.ctx.command_path if mistake.ctx else "textfair"
        message = printable(" ".join(mistake.format_message().split()).rstrip("."))
        typer.echo(f"error: {message}; see `{where} --help`", err=True)
        sys.exit(EXIT_USAGE)
    except typer.Abort:
        typer.echo("interrupted; no output was written", err=True)
        sys.exit(EXIT_INTERRUPTED)
    code = code if isinstance(code, int) else 0
    if code in (0, 1, 5):  # a run that failed says one line: its error, not its notes
        _notes.say()
    sys.exit(code)


def _one_line_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning as one line on stderr ("warning: ..."), without Python's file name, line
    number and source line, which tell a user of the command nothing."""
    if getattr(message, "parameter", None):  # the library's name, as the command's flag
        from textfair.cli._app import _with_flags

        message = _with_flags(message)
    first = (str(message).strip().splitlines() or [""])[0]
    own = category.__module__.startswith("textfair")
    shown = first if own else f"{category.__name__}: {first}"
    if issubclass(category, InputNote):
        _notes.hold(f"note: {printable(shown)}")  # said once the input is known valid
        return
    print(f"warning: {printable(shown)}", file=file or sys.stderr)


__all__ = ["app", "main"]
