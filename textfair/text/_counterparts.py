"""The opposite-gender word of a gendered word in its context: he <-> she, his -> her/hers,
her -> his/him, man <-> woman, ...

English has one feminine word for two masculine ones ("her" is both "his" and "him") and the
reverse ("his" is both "her" and "hers"); the pair list says which counterpart applies before
a noun ("her car" -> "his car") and which otherwise ("saw her." -> "saw him."). The rewriter
asks this when it swaps a gendered term; `gender.GenderSwapper` builds on it to swap a text.
"""

from __future__ import annotations

import re
from functools import cache

from textfair.terms import GenderPairs, load_gender_pairs
from textfair.text import _context as context

__all__ = ["GenderCounterparts", "gender_counterparts"]


class GenderCounterparts:
    """The counterparts of every gendered word of a pair list; build once, ask often."""

    def __init__(self, pairs: GenderPairs | str = "gender_pairs") -> None:
        self.pairs = load_gender_pairs(pairs) if isinstance(pairs, str) else pairs
        self._counterparts: dict[str, list[tuple[str, str | None]]] = {}
        for pair in self.pairs.pairs:
            for word, other in ((pair.masculine, pair.feminine), (pair.feminine, pair.masculine)):
                options = self._counterparts.setdefault(word.lower(), [])
                if other.lower() not in [o for o, _ in options]:
                    options.append((other.lower(), pair.when))
        self._pattern = re.compile(
            r"(?<![\w])(?P<m>"
            + context.trie_pattern(self._counterparts)
            + r")(?P<poss>['’]s)?(?![\w])",
            re.IGNORECASE,
        )

    def counterpart(self, word: str, text: str, end: int) -> str:
        """The opposite-gender word for `word` ending at `end` in `text` (lowercase)."""
        options = self._counterparts[word.lower()]
        if len(options) == 1:
            return options[0][0]
        wanted = "before_noun" if _determiner_use(word.lower(), text, end) else "not_before_noun"
        for other, when in options:
            if when == wanted:
                return other
        return options[0][0]


@cache
def gender_counterparts(pairs: str = "gender_pairs") -> GenderCounterparts:
    """The counterparts of a gender-pair list, built once (it knows "her" -> "his"/"him")."""
    return GenderCounterparts(pairs)


# "make her stand", "let her go": after a causative verb "her" is the object of the verb that
# follows, whatever that verb looks like ("stand", "cry"), so it becomes "him".
_CAUSATIVES = frozenset("make makes made making let lets letting help helps helped helping".split())
# ... unless the next word is a noun no verb is spelt like: "make her life hell", "made her day",
# "help her career" keep "her" a determiner ("his life"; a tweet read in issue 56 had "make
# him life hell"). Written by the textfair authors: nouns of what a person has or is (their
# life, time, body, kin) seen after these verbs in the bundled corpora.
_POSSESSED_AFTER_CAUSATIVES = frozenset(
    """
    life lives day days job career childhood marriage family world future own body face eyes
    hair heart mind head voice name money birthday husband wife son daughter mother father
    kids children friends parents boyfriend girlfriend
    """.split()
)
_QUOTES = "`'\"“”‘’"
# Words that follow an object pronoun, never a noun it determines.
_ADVERBS_AFTER_OBJECTS = frozenset(
    """
    now nowadays again too back away up down out off here there today yesterday tomorrow
    twice once anymore alone home instead either as than that about all both
    """.split()
)


def _determiner_use(word: str, text: str, end: int) -> bool:
    """Whether `word` ("her", "his") ending at `end` determines a noun after it ("her car",
    "his ``research``", "his A game") rather than standing alone ("saw her", "is his")."""
    rest = text[end:].lstrip(" " + _QUOTES)
    if rest[:1] == "(" and ")" in rest[:60]:
        # A parenthesis is read past: "His (few) killings" keeps "Her", not "Hers".
        return _determiner_use(word, text, len(text) - len(rest) + rest.index(")") + 1)
    if word == "his":
        # "hers" only where nothing follows in the clause: "the book is his.", "his or hers"
        return bool(rest[:1].isalnum()) and context.normalize_token(rest.split()[0]) not in (
            "and",
            "or",
        )
    before = context.tokens_before(text, end - len(word), count=1)
    after = context.tokens_after(text, end, count=2)
    following = context.normalize_token(after[0]) if after else ""
    if before and context.normalize_token(before[0]) in _CAUSATIVES:
        return following in _POSSESSED_AFTER_CAUSATIVES
    if after:
        if following == "half" and (len(after) < 2 or _degree_half(after[1])):
            return False  # "beat her half to death", "scared her half out of her wits"
        if following in _ADVERBS_AFTER_OBJECTS:
            return False  # "see her nowadays", "called her twice"
        if following.endswith("ed") and not (len(after) > 1 and context.is_word(after[1])):
            return False  # "kept her entertained and", "got her killed."
        if following.endswith("ed") and context.normalize_token(after[1]) in ("and", "or"):
            return False
    return context.noun_follows(text, end)


def _degree_half(after_half: str) -> bool:
    """Whether "half" before `after_half` is an adverb of degree ("half to death", "half
    out of her wits", "half asleep"): a function word after it other than "of" ("her half
    of the bed" is a share of something, "her half brother" a noun phrase)."""
    word = context.normalize_token(after_half)
    return not context.is_word(after_half) or (word in context.FUNCTION_WORDS and word != "of")
