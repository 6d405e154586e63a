"""Long rule-set labels broken over lines, never cut, for the terminal and the plots."""

from __future__ import annotations

import textwrap


def wrap_label(label: str, width: int) -> list[str]:
    """`label` in lines of at most `width` characters: broken after a space or after a "|"
    between values ({race ∈ Black|Other}) where it can be, inside a word only where it must.
    Joined again, the lines hold every character of the label."""
    spaced = label.replace("|", "|\0 ")  # a place to break between values
    lines = textwrap.wrap(spaced, max(width, 1), break_on_hyphens=False)
    return [line.replace("\0 ", "").replace("\0", "") for line in lines] or [label]
