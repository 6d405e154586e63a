"""Notes about the input (`textfair.errors.InputNote`: which column was read as the
texts, a fraction read as points), held until the input is known to be valid.

A run that fails says one line, its error, not its notes; a run that goes on says them
before the model is asked anything, so they come before the report and its verdict
(issue 57: a note about how the file was read came last, after the verdict it qualifies).
"""

from __future__ import annotations

import sys

__all__ = ["clear", "hold", "say"]

_HELD: list[str] = []


def clear() -> None:
    """Forget the notes of an earlier run in this process (the tests run many)."""
    _HELD.clear()


def hold(line: str) -> None:
    """Keep a note's line until `say`."""
    _HELD.append(line)


def say() -> None:
    """Print the notes held so far on stderr, once each: a command calls this when its
    input is validated, before the first model query; the entry point calls it again as
    the run ends well, for notes raised later."""
    for line in _HELD:
        print(line, file=sys.stderr)
    _HELD.clear()
