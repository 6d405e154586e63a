"""Titles that hold a first name, for the name gates (`_name_gates`): an item of a list
of titles ("Comedies I hated: Evan Almighty, The Brothers Solomon, Good Luck Chuck") and a
run of capitalised words joined by a title's small words ending on the name ("Sunday in the
Park with George"). Apart from `_name_gates` for its size alone."""

from __future__ import annotations

import re

from textfair.text import _context as context
from textfair.text._references import NOT_NAMES

__all__ = ["GLUE_WORDS", "TITLE_GLUE", "TITLE_WORD", "ends_a_title", "in_title_list"]

# A run of capitalised words, which may hold short lowercase words as titles do:
# "No Country for Old Men", "American Association for the Advancement of Science".
TITLE_WORD = r"[A-Z][a-z][\w'’]*"
TITLE_GLUE = r"(?:(?:of|the|for|in|on|a|an|to|at|by)[ ]+)*"
GLUE_WORDS = frozenset("of the for in on a an to at by and or with from".split())


_TITLE_CASE_ITEM = re.compile(rf"(?:The |An? )?{TITLE_WORD}(?:[ ]+{TITLE_GLUE}{TITLE_WORD})+")


def in_title_list(text: str, start: int, end: int) -> bool:
    """A first name heading a list's item of two capitalised words, the second no name
    ("Evan Almighty"), in a run of comma-separated items of which at least two others are
    titles: two to six capitalised words not opening on a first name ("2007 Comedies I
    hated: Evan Almighty, The Brothers Solomon, Good Luck Chuck"). A list of people
    ("Gretchen Mol, Chris Bauer, Lili Taylor") opens its items on first names, and a
    person's films in brackets ("Lucas Haas (Brick, Alpha Dog)") are a list of their own:
    neither is one (issue 56)."""
    following = _NEXT_CAPITALISED.match(text, end)
    if not following or following.group(1) in context.last_names():
        return False
    if following.group(1) in context.first_names():
        return False
    begin = max(0, start - 160)
    stop = min(len(text), end + 160)
    left = _LIST_BREAK.split(text[begin:start])[-1]
    right = _LIST_BREAK.split(text[end:stop])[0]
    if left.split(",")[-1].strip():
        return False  # the name does not open its item ("Homer and John Tzetzes")
    items = [item.strip() for item in (left + right).split(",")]
    if len(items) < 3:
        return False
    titles, long = 0, False
    for item in items:
        match = _TITLE_CASE_ITEM.match(item)
        if match is None or text[start:end] in item.split():
            continue
        words = match.group().split()
        opening = words[1] if words[0] in ("The", "A", "An") else words[0]
        if len(words) <= 6 and opening not in context.first_names():
            titles += 1
            # a name has two words and no article: a title of three, or with one, shows
            # the list is of titles ("Alger Hiss, Toshikazu Kase" is of people)
            long = long or len(words) > 2 or any(w in GLUE_WORDS for w in words)
    return titles >= 2 and long


_NEXT_CAPITALISED = re.compile(rf"[ ]+({TITLE_WORD})(?:,|$|[ ]*\n)")
_LIST_BREAK = re.compile(r"[():;\n]|[ ]{2,}|[.!?][ ]")


# A run of capitalised words joined by a title's small words before a name: "Sunday in the
# Park with George", a title that ends on a name (issue 56).
_TITLE_BEFORE_NAME = re.compile(
    r"(?:[A-Z][a-z][\w'’]*[ ]+(?:(?:in|the|of|with|on)[ ]+)*)*"
    r"[A-Z][a-z][\w'’]*[ ]+(?:in|the|of|with|on)[ ]+(?:(?:in|the|of|with|on)[ ]+)*$"
)


def ends_a_title(text: str, start: int) -> bool:
    """The name ends a run of capitalised words joined by a title's small words ("in",
    "the", "of", "with", "on"), two of them neither first names (a day, a month, a place
    is none) nor a sentence's first word: a title, not a person."""
    run = _TITLE_BEFORE_NAME.search(text, max(0, start - 80), start)
    if run is None:
        return False
    words = [w for w in run.group().split() if w[:1].isupper()]
    if context.is_sentence_initial(text, run.start()):
        words = words[1:]
    first = context.first_names()
    return sum(w not in first or w.lower() in NOT_NAMES for w in words) >= 2
