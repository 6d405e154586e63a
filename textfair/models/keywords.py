"""Keyword arguments renamed in the Python API: the old name is still accepted, with a
FutureWarning naming the new one (the model specs, `as_model` and the audits share it).
"""

from __future__ import annotations

import warnings
from typing import TypeVar

from textfair.errors import TextfairError

T = TypeVar("T")


def renamed(
    new_name: str, new: T | None, old: T | None, why: str, old_name: str = "labels"
) -> T | None:
    """`new`, or the value given under the keyword's old name `old_name`, with a
    FutureWarning naming the new one and `why`; both at once is a one-line error."""
    if old is None:
        return new
    if new is not None:
        raise TextfairError.bad(old_name, f"is the old name of {new_name}; give {new_name} alone")
    warnings.warn(f"{old_name}= is now {new_name}= ({why})", FutureWarning, stacklevel=3)
    return old
