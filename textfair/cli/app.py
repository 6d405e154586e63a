"""The typer application and the error handling every command shares.

Library errors (:class:`textfair.errors.TextfairError`) become one line on stderr and exit
code 2, never a traceback. Heavy libraries are imported inside commands, so `--help` is fast.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import typer

from textfair.cli.options import with_options
from textfair.errors import ModelError, TextfairError

F = TypeVar("F", bound=Callable[..., object])

# Exit codes, a contract for CI: 0 done (fair, or nothing crossed --fail-above); 1 only when a
# significant finding scores above --fail-above; 2 a mistake in the input or a model that
# cannot be used; 3 the model failed during the run; 130 interrupted.
EXIT_UNFAIR, EXIT_USAGE, EXIT_MODEL_FAILED, EXIT_INTERRUPTED = 1, 2, 3, 130

app = typer.Typer(
    name="textfair",
    help="Test text classifiers for discrimination against identity groups.",
    epilog="Exit codes: 0 done; 1 only when --fail-above is crossed; 2 a mistake in the input "
    "or a model that cannot be used; 3 the model failed during the run; 130 interrupted.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
terms_app = typer.Typer(help="List, show and validate identity term lists.", no_args_is_help=True)
app.add_typer(terms_app, name="terms")


def user_errors(command: F) -> F:
    """Turn a TextfairError (or an unwritable output) into one line on stderr and exit 2."""

    @functools.wraps(command)
    def wrapper(*args: object, **kwargs: object) -> object:
        try:
            return command(*args, **kwargs)
        except ModelError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(EXIT_MODEL_FAILED) from None
        except KeyboardInterrupt:
            resume = (
                f"; the model's answers so far are kept in {_cache_in_use[0]}: run the same "
                "command again to resume"
                if _cache_in_use
                else ""
            )
            typer.echo(f"interrupted; no output was written{resume}", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except TextfairError as err:
            typer.echo(f"error: {_with_flags(err)}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        except BrokenPipeError:
            # The reader went away (`textfair ... | head`): stop quietly, like other Unix tools.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(0) from None
        except OSError as err:
            where = f"{err.filename}: " if err.filename else ""
            typer.echo(
                f"error: {where}{err.strerror or err}; check the path and permissions", err=True
            )
            raise typer.Exit(EXIT_USAGE) from None

    return wrapper  # type: ignore[return-value]


def command(group: typer.Typer, name: str, *shared: str, **settings: object) -> Callable[[F], F]:
    """Register a command on `group` (the app or a sub-app): with the shared options named in
    `shared` (see cli/options.py) and its mistakes reported in one line (:func:`user_errors`)."""

    def decorate(function: F) -> F:
        group.command(name, **settings)(user_errors(with_options(*shared)(function)))
        return function

    return decorate


# The on-disk cache of the running command, for the resume hint after Ctrl-C.
_cache_in_use: list[Path] = []


def cached_model(model, spec: str, options: dict, context: str = ""):
    """The model behind one CachedModel for the whole run. With --cache, or by default a file
    beside --out (DIR.cache.sqlite), answers are also kept on disk, keyed by a fingerprint of
    the model's files (and `context`, e.g. a table model's column order), and committed once
    per chunk of 16 batches: a rerun after a kill asks the model only what it had not
    answered."""
    from textfair.models import CachedModel
    from textfair.models.spec import spec_fingerprint

    path, out = options.get("cache_path"), options.get("out")
    implicit = path is None and out is not None
    if implicit:
        path = Path(str(out).rstrip("/\\") + ".cache.sqlite")
    if path is None:
        return CachedModel(model)
    try:
        key = spec_fingerprint(spec, model)
    except TextfairError:
        if implicit:
            return CachedModel(model)  # nothing identifies the model: no default cache
        raise
    if context:
        key += ":" + hashlib.sha256(context.encode()).hexdigest()[:12]
    chunk = 16 * int(options.get("batch_size") or 64)
    cached = CachedModel(model, cache_path=path, cache_key=key, batch_size=chunk)
    _cache_in_use[:] = [path]
    return cached


def _with_flags(err: TextfairError) -> str:
    """The library names a parameter ("theta is 1.5"); the command line names its flag."""
    message = str(err)
    if not err.parameter:
        return message
    flag = _flag_of(err.parameter)
    if message.startswith(err.parameter + " "):
        return flag + message[len(err.parameter) :]
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


def settings_of(config_type, options: dict, **overrides):
    """A settings dataclass (AuditConfig, MitigationConfig) from a command's options: the
    options named like its fields, "categories" split at commas, then `overrides`."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(config_type)}
    values = {k: v for k, v in options.items() if k in names}
    if isinstance(values.get("categories"), str):
        values["categories"] = split_list(values["categories"])
    return config_type(**{**values, **overrides})


def check_report_options(options: dict, inputs: list) -> None:
    """Before the first model query: --fail-above must be a number in [0, 1] (a NaN would
    never fail, and the gate would pass whatever the audit finds); --out must not hold one of
    the command's inputs where a report file goes, nor an earlier report without --overwrite,
    nor anything else."""
    from textfair.io import check_output_directory, refuse_overwriting_inputs
    from textfair.report.render import REPORT_FILES

    threshold = options["fail_above"]
    if threshold is not None and not 0.0 <= threshold <= 1.0:
        raise TextfairError(f"--fail-above is {threshold}; expected a score in [0, 1]")
    refuse_overwriting_inputs(options["out"], REPORT_FILES, inputs)
    check_output_directory(options["out"], REPORT_FILES, options["overwrite"])


def publish(report, options: dict, err) -> None:
    """Show an audit's top findings, write report.json and report.md to --out, and apply
    --fail-above: exit 1 when a significant finding scores above it. Exit 1 means only
    this; every other problem exits 2."""
    from textfair.report import render_terminal, write_report

    top, out, threshold = options["top"], options["out"], options["fail_above"]
    render_terminal(report, top=top)
    if out is not None:
        json_path, md_path = write_report(report, out, top=top, overwrite=options["overwrite"])
        err.print(f"wrote {json_path} and {md_path}")
    failing = report.failing(threshold) if threshold is not None else []
    if failing:
        err.print(f"{len(failing)} significant finding(s) score above {threshold}: failing")
        raise typer.Exit(EXIT_UNFAIR)


# Register the commands (imported for their side effect on `app`).
from textfair.cli import audit as _audit  # noqa: E402, F401
from textfair.cli import augment as _augment  # noqa: E402, F401
from textfair.cli import counterfactuals as _counterfactuals  # noqa: E402, F401
from textfair.cli import mitigate as _mitigate  # noqa: E402, F401
from textfair.cli import predict as _predict  # noqa: E402, F401
from textfair.cli import tabular as _tabular  # noqa: E402, F401
from textfair.cli import terms as _terms  # noqa: E402, F401
