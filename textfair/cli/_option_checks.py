"""The checks of shared options' values that typer runs before a command (its callbacks):
a device, a dtype, a thread count, an accuracy budget. One line each, before any work.

Apart from the declarations (textfair.cli._options): these import the library parts that
know what is valid, and only when a value is checked.
"""

from __future__ import annotations

import typer


def check_device(value: str) -> str:
    """auto, cpu, mps, cuda or cuda:N; anything else is one line before any work."""
    index = value.partition(":")[2] if value.startswith("cuda:") else ""
    if value in ("auto", "cpu", "mps", "cuda") or index.isdigit():
        return value
    raise typer.BadParameter(f"{value!r} is not auto, cpu, mps, cuda or cuda:N (e.g. cuda:0)")


def accuracy_drop_fraction(value: float) -> float:
    """--max-accuracy-drop in points, as every difference is given, handed on as the fraction
    mitigation compares accuracies in (a number below 1 is a fraction, with a note)."""
    from textfair.settings import points

    return points("--max-accuracy-drop", value) / 100.0


def check_dtype(value: str) -> str:
    """auto, float32, float16 or bfloat16; anything else is one line before any work."""
    from textfair.models.hf import DTYPES

    if value not in DTYPES:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(DTYPES)}")
    return value


def check_threads(value: int | None) -> int | None:
    """At most the cores this process may use: more threads than cores only wait for each
    other (and a huge count makes torch fail to start its pool)."""
    from textfair.core.machine import usable_cores

    if value is not None and value > usable_cores():
        raise typer.BadParameter(
            f"{value} is more than the {usable_cores()} cores this process may use; pass at "
            "most that, or leave --threads out"
        )
    return value
