"""Text from a user's files made safe to print on a terminal (one job, used by every message
and table that shows a name read from a file).
"""

from __future__ import annotations


def printable(text: str) -> str:
    """`text` safe to print on a terminal: control characters (escape sequences, bells,
    carriage returns, line breaks) and bidirectional overrides become visible escapes
    (``\\x1b``, ``\\u202e``), so a name from a user's file cannot retitle the window, move
    the cursor, hide text or break a one-line message."""
    import unicodedata

    if text.isprintable():
        return text
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if char in _BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp")
        else char
        for char in text
    )


_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
