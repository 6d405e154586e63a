"""Split a document into sentences, so a long text can be audited sentence by sentence.

A variant of a long document carries the whole document: a review that names "Jews" once
and "the synagogue" three paragraphs later cannot be rewritten coherently, and is left out
of the religion rows. Audited sentence by sentence (``--unit sentence``), each sentence is a
seed of its own: a variant changes one sentence and carries no context that contradicts it,
so far more of a corpus takes part. The split is rule-based (no downloaded model): at ".",
"!" or "?" before a capital or an opening quote, at line breaks and at HTML breaks
("<br />" in IMDB reviews), never after a title or an initial ("Mr.", "J.").
"""

from __future__ import annotations

import re

__all__ = ["split_sentences"]

_BOUNDARY = re.compile(r"(?<=[.!?])[\"”’')\]]*\s+(?=[\"“‘'(\[]*[A-Z0-9])|\s*(?:<br\s*/?>\s*)+|\n+")
_ABBREVIATION = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Dr|St|Mt|Jr|Sr|Prof|Rev|Gen|Col|Lt|Sgt|Capt|vs|etc|No|Vol|Fig|ca)\.|"
    r"\b[A-Z]\.|\b(?:[A-Z]\.){2,})[\"”’')\]]*$"
)


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, stripped, in order; a text without a boundary is one."""
    pieces: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        piece = text[start : match.start()]
        if _ABBREVIATION.search(text, max(start, match.start() - 12), match.start()) and (
            "\n" not in match.group() and "<" not in match.group()
        ):
            continue  # "Mr. Smith", "J. Edgar": not a sentence end
        pieces.append(piece)
        start = match.end()
    pieces.append(text[start:])
    return [piece.strip() for piece in pieces if piece.strip()]
