"""The placebo edit's words: a neutral descriptor written before an identity mention.

`TextDomain.placebo` chooses which mentions and which word for each category; this module
writes the words into the text, keeping its articles and capitals right.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from textfair.text import _context as context
from textfair.text.mentions import Mention

__all__ = ["PLACEBO_WORDS", "with_placebo_words"]

#: Neutral descriptors a placebo edit writes before an identity mention: of people, of no
#: identity category, of no valence a toxicity or sentiment model should read, each starting
#: with a consonant ("a tall American").
PLACEBO_WORDS = ("tall", "local", "left-handed", "quiet")

_AN_BEFORE = re.compile(r"\b[aA]n(?=\s+$)")


def with_placebo_words(
    text: str, mentions: Sequence[Mention], words: Mapping[str, str]
) -> str | None:
    """`text` with `words[category]` written before each of its `mentions` of a category in
    `words` (not a related word or a gendered one); None when there is no such mention."""
    spots = sorted(
        (m.start, words[m.category], m.natural)
        for m in mentions
        if m.category in words and m.form not in ("related", "gendered")
    )
    if not spots:
        return None
    pieces, cursor = [], 0
    for start, word, natural in spots:
        # Every placebo word starts with a consonant: "an American" -> "a tall American".
        before = _AN_BEFORE.sub(lambda m: m.group()[0], text[cursor:start])
        head = ""  # the mention's first letter, lowercased when the capital moves
        written = text[start : start + len(natural)]
        if written.isupper() and not natural.isupper() and len(written) > 1:
            word = word.upper()  # a shouted mention ("GAY", not "LGBT") gets a shouted word
        elif text[start : start + 1].isupper() and context.is_sentence_initial(text, start):
            # The sentence's capital moves to the new first word: "Gay men" -> "Tall gay
            # men" ("Muslims" keeps its own: "Tall Muslims").
            word = word.capitalize()
            head = text[start].lower() if natural[:1].islower() else ""
        pieces += [before, word, " ", head]
        cursor = start + len(head)
    pieces.append(text[cursor:])
    return "".join(pieces)
