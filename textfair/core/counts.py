"""A count with its noun in the right number ("1 rule set", "2 rule sets").

One function, so that every sentence of every surface (the verdict, the notes, the tables'
headings, the CLI's messages) agrees in number the same way instead of each writing
``f"{n} rule sets"`` and reading "1 rule sets".
"""

from __future__ import annotations

__all__ = ["agrees", "counted"]


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and `noun`, singular for exactly one: ``counted(1, "rule set")`` is
    "1 rule set", ``counted(3, "category", "categories")`` is "3 categories".

    Parameters
    ----------
    n
        The count.
    noun
        The singular noun.
    plural
        The plural where it is not `noun` + "s" ("categories", "texts with both edits").

    Returns
    -------
    str
        The count and the noun, separated by one space.
    """
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def agrees(n: int, singular: str, plural: str) -> str:
    """The verb (or word) that agrees with a count of `n`: ``agrees(1, "has", "have")`` is
    "has", ``agrees(3, "has", "have")`` "have" (for "1 of 18 rule sets has ...")."""
    return singular if n == 1 else plural
