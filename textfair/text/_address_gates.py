"""The gates of the matcher that read an address: a candidate inside a web address or a
file name ("www.Christian-Bible.com"), or inside a wiki user or page name
("User:Sikh-history"), names no identity. Apart from the other gates because they read
the characters of a token, not words, and because the name gates ask them too.
"""

from __future__ import annotations

import re

__all__ = ["in_url", "in_username", "signs_the_text"]


# The rest of a token from a place in it, to the next space or line break (or the end):
# one match, cheaper than two finds and the choice of the nearer one.
_TOKEN_REST = re.compile(r"[^ \n]*")


# A word, one space, and a word ending in a top-level domain: a site's name written with a
# space ("jew watch.com", issue 56).
_SPACED_SITE = re.compile(r"\w+ [A-Za-z]+\.(?:org|com|net)\b")


def in_url(text: str, start: int) -> bool:
    """Part of a web address or file name: "www.Christian-Bible.com",
    ".../official-neglect-for-anglo-sikh-war-monuments2704.html"."""
    if start > 0 and text[start - 1] in ".@_":
        return True
    if _SPACED_SITE.match(text, start):
        return True  # "jew watch.com": a site's name written with a space in it
    token_start = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    rest = _TOKEN_REST.match(text, start)
    assert rest is not None  # a run of no length matches anywhere
    token = text[token_start : rest.end()]
    if "." not in token and "/" not in token:
        return False  # every sign below has a dot or a slash: most words end here
    token = token.lower()
    return (
        "://" in token
        or "www." in token
        or ".htm" in token
        or token.count("/") >= 2
        or re.search(r"\.(?:org|com|net|edu|gov)\b", token) is not None
    )


_NAMESPACE = re.compile(r"(?:user|talk|user talk|wikipedia|category|template|file)\s*:\S*$", re.I)


def in_username(text: str, start: int) -> bool:
    """Part of a wiki user name or page name: "User:Sikh-history", "Category:Jewish_x"."""
    begin = max(0, start - 40)
    # The namespace's colon must be in the window; looking for it is cheaper than the search.
    return text.find(":", begin, start) >= 0 and _NAMESPACE.search(text, begin, start) is not None


# A name standing alone at a comment's end, set apart by a line break, two spaces or a
# dash, with at most a surname after it ("...    Dylan Hunt  `", "-- Paul"): the writer's
# signature, a user's name, not a person spoken of (issue 56).
_SIGNATURE_BEFORE = re.compile(r"(?:\n|[ ]{2,}|--|—|~)[ ]*$")
_SIGNATURE_AFTER = re.compile(r"(?:[ ]+[A-Z][\w'’\-]*)?[\s`'\".,]*$")


def signs_the_text(text: str, start: int, end: int) -> bool:
    """A name that signs the text: alone at its end, set apart (see `_SIGNATURE_BEFORE`)."""
    return (
        _SIGNATURE_AFTER.match(text, end) is not None
        and _SIGNATURE_BEFORE.search(text, max(0, start - 8), start) is not None
    )
