"""Giving a command the shared options: :func:`with_options` rewrites its signature so typer
sees each shared declaration (textfair.cli._options), and an option's old name as a hidden
flag whose value arrives under the new name with a note.

Apart from the declarations, which are data: this is the mechanism that reads them.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import TypeVar

import typer

from textfair.cli._options import ALIASES, SHARED

F = TypeVar("F", bound=Callable[..., object])


def with_options(*names: str) -> Callable[[F], F]:
    """Give a command the shared options `names`.

    A keyword-only parameter of the command without a default that is named in `names` gets
    the shared declaration; the other names are appended and arrive in its ``**options``. A
    parameter with a default of its own keeps it. An option with an old name in
    :data:`textfair.cli._options.ALIASES` also gets that name as a hidden flag, whose value
    arrives under the new name with a note on stderr.
    """
    unknown = [name for name in names if name not in SHARED]
    if unknown:
        raise ValueError(f"no shared option {unknown}")

    def decorate(command: F) -> F:
        signature = inspect.signature(command)
        hints = typing.get_type_hints(command)
        parameters = []
        for name, parameter in signature.parameters.items():
            if parameter.kind is parameter.VAR_KEYWORD:
                continue
            if name in names and parameter.default is parameter.empty:
                parameter = parameter.replace(default=SHARED[name][1])
            parameters.append(parameter.replace(annotation=hints.get(name, parameter.annotation)))
        present = {parameter.name for parameter in parameters}
        parameters += [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
            for name in names
            if name not in present
            for kind, option in [SHARED[name]]
        ]
        aliased = {n: ALIASES[n] for n in names if n in ALIASES}
        parameters += [
            inspect.Parameter(
                _alias_parameter(name),
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Option(None, old, hidden=True, help=f"Old name of {_flag(name)}."),
                annotation=str | None,
            )
            for name, old in aliased.items()
        ]

        @functools.wraps(command)
        def run(*args: object, **kwargs: object) -> object:
            for name, old in aliased.items():
                value = kwargs.pop(_alias_parameter(name), None)
                if value is not None:
                    flag = _flag(name)
                    typer.echo(
                        f"note: {old} is now {flag}; {old} goes in a later release", err=True
                    )
                    kwargs[name] = kwargs.get(name) or value
            return command(*args, **kwargs)

        run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        return run  # type: ignore[return-value]

    return decorate


def _flag(name: str) -> str:
    """The option's flag ("--label-column"): every shared option is declared with one."""
    declared = SHARED[name][1].param_decls
    assert declared, name
    return declared[0]


def _alias_parameter(name: str) -> str:
    return f"{name}_old_name"
