"""The typer application and the error handling every command shares.

Library errors (:class:`textfair.errors.TextfairError`) become one line on stderr and exit
code 2, never a traceback. Heavy libraries are imported inside commands, so `--help` is fast.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from textfair.cli._signatures import with_options
from textfair.errors import ModelError, TextfairError
from textfair.io import printable

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

F = TypeVar("F", bound=Callable[..., object])
# A settings dataclass (AuditConfig, MitigationConfig), built from a command's options.
C = TypeVar("C", bound="DataclassInstance")

# Exit codes, a contract for CI: 0 done (fair, or nothing crossed --fail-above); 1 only when a
# significant finding scores above --fail-above; 2 a mistake in the input or a model that
# cannot be used; 3 the model failed during the run; 4 textfair itself failed (out of
# memory, a bug); 5 the gate cannot be judged (nothing tested under --fail-above, or a
# --require category untested); 130 interrupted.
EXIT_UNFAIR, EXIT_USAGE, EXIT_MODEL_FAILED, EXIT_FAILED, EXIT_INTERRUPTED = 1, 2, 3, 4, 130
EXIT_UNTESTED = 5

app = typer.Typer(
    name="textfair",
    help="Test text classifiers for discrimination against identity groups.",
    epilog="Exit codes: 0 done; 1 only when --fail-above is crossed; 2 a mistake in the input "
    "or a model that cannot be used; 3 the model failed during the run; 4 textfair itself "
    "failed (out of memory, a bug); 5 the gate cannot be judged: nothing was tested under "
    "--fail-above, or a --require category was not; 130 interrupted.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        from textfair._version import __version__

        typer.echo(f"textfair {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: bool = typer.Option(
        False,
        "--version",
        "-V",
        callback=_print_version,
        is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """Test text classifiers for discrimination against identity groups."""


terms_app = typer.Typer(
    help="List, show, validate and start identity term lists.", no_args_is_help=True
)
app.add_typer(terms_app, name="terms")


# What typer raises for a mistake on the command line (the ClickException of the click it
# runs on, its own copy in recent releases): left to typer, which prints it in one line.
_CLICK_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)

# The on-disk cache of the running command, for the resume hint after Ctrl-C
# (set by cli/_runs.cached_model).
cache_in_use: list[Path] = []


def user_errors(command: F) -> F:
    """Turn a TextfairError (or an unwritable output) into one line on stderr and exit 2."""

    @functools.wraps(command)
    def wrapper(*args: object, **kwargs: object) -> object:
        cache_in_use.clear()  # set again by this command if it keeps answers on disk
        try:
            return command(*args, **kwargs)
        except ModelError as err:
            typer.echo(f"error: {printable(str(err))}", err=True)
            raise typer.Exit(EXIT_MODEL_FAILED) from None
        except KeyboardInterrupt:
            resume = (
                f"; the model's answers so far are kept in {cache_in_use[0]}: run the same "
                "command again to resume"
                if cache_in_use
                else ""
            )
            typer.echo(f"interrupted; no output was written{resume}", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except TextfairError as err:
            typer.echo(f"error: {printable(_with_flags(err))}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        except BrokenPipeError:
            # The reader went away (`textfair ... | head`): stop quietly, like other Unix tools.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(0) from None
        except OSError as err:
            where = f"{err.filename}: " if err.filename else ""
            typer.echo(
                f"error: {printable(where + str(err.strerror or err))}; check the path and "
                "permissions",
                err=True,
            )
            raise typer.Exit(EXIT_USAGE) from None
        except (typer.Exit, typer.Abort, _CLICK_ERROR):
            raise  # the command's own exit (the gate's 1) and the command line's mistakes
        except MemoryError:
            # Never exit 1 (the gate's code) for a run that could not finish.
            typer.echo(
                "error: textfair ran out of memory; audit fewer categories (--categories), "
                "fewer seeds (--max-samples) or fewer terms, or set TEXTFAIR_MAX_MEMORY to "
                "what the machine can really give so that such a run is refused before it "
                "starts",
                err=True,
            )
            raise typer.Exit(EXIT_FAILED) from None
        except Exception as err:  # a bug: one line and its own code, not the gate's 1
            if os.environ.get("TEXTFAIR_DEBUG"):
                raise
            typer.echo(
                f"error: textfair failed ({type(err).__name__}: {printable(str(err))[:300]}); "
                "this is a bug: please report it, with the traceback that TEXTFAIR_DEBUG=1 "
                "prints",
                err=True,
            )
            raise typer.Exit(EXIT_FAILED) from None

    return wrapper  # type: ignore[return-value]


def command(group: typer.Typer, name: str, *shared: str, **settings: Any) -> Callable[[F], F]:
    """Register a command on `group` (the app or a sub-app): with the shared options named in
    `shared` (see cli/_options.py) and its mistakes reported in one line (:func:`user_errors`)."""

    def decorate(function: F) -> F:
        if "help" not in settings and function.__doc__:
            # The docstring with each paragraph on one line: typer would keep its line breaks
            # and break sentences at the source's width.
            paragraphs = inspect.cleandoc(function.__doc__).split("\n\n")
            settings["help"] = "\n\n".join(" ".join(p.split()) for p in paragraphs)
        group.command(name, **settings)(user_errors(with_options(*shared)(function)))
        return function

    return decorate


def _with_flags(err: Exception | str) -> str:
    """The library names a parameter ("theta is 1.5"); the command line names its flag (an
    error's, or a note's such as PointsNote's)."""
    message = str(err)
    parameter = getattr(err, "parameter", None)
    if not parameter:
        return message
    flag = _flag_of(parameter)
    if message.startswith(parameter + " "):
        return flag + message[len(parameter) :]
    return f"{message} ({flag})"


def _flag_of(parameter: str) -> str:
    """The running command's flag for a parameter (--max-order for max_order)."""
    import click

    context = click.get_current_context(silent=True)
    for param in context.command.params if context else ():
        if param.name == parameter and getattr(param, "opts", None):
            return max(param.opts, key=len)
    return "--" + parameter.replace("_", "-")


def split_list(value: str | None) -> list[str] | None:
    """Parse a comma-separated option ("gender,race") into a list; None stays None."""
    if value is None:
        return None
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or None


def settings_of(config_type: type[C], options: dict, **overrides: object) -> C:
    """A settings dataclass (AuditConfig, MitigationConfig) from a command's options: the
    options named like its fields, "categories" split at commas, then `overrides`."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(config_type)}
    values = {k: v for k, v in options.items() if k in names}
    if isinstance(values.get("categories"), str):
        values["categories"] = split_list(values["categories"])
    return config_type(**{**values, **overrides})


# Register the commands (imported for their side effect on `app`).
from textfair.cli import _audit as _audit  # noqa: E402
from textfair.cli import _augment as _augment  # noqa: E402
from textfair.cli import _counterfactuals as _counterfactuals  # noqa: E402
from textfair.cli import _mitigate as _mitigate  # noqa: E402
from textfair.cli import _predict as _predict  # noqa: E402
from textfair.cli import _report as _report  # noqa: E402
from textfair.cli import _tabular as _tabular  # noqa: E402
from textfair.cli import _terms as _terms  # noqa: E402
