"""The coherence plan's reference check: whether a swap of first names or gendered words can
rewrite every other reference to the people a text speaks of, and the genders of a text's
gendered words.

A swap of a first name or a pronoun says something about a person; the rules of
`textfair.text._references` say which other words of the text may refer to them (a full
name, a first name elsewhere, a name of no known gender, a gendered identity word). Here
they are applied to one text's mentions: the reason the text is left out, or the other
words the swap rewrites with it ("Emily said she" -> "Michael said he"). Apart from the
plan (`textfair.text._coherence`), which asks it once per text and category, because it
holds matchers of its own (the pronouns and the names lists).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from textfair.terms import Term, TermList
from textfair.terms.pairs import GENDER_ADJECTIVES, load_gender_pairs
from textfair.text import _context as context
from textfair.text import _references as references
from textfair.text.matcher import Matcher
from textfair.text.mentions import Mention

__all__ = ["ReferenceCheck", "pronoun_genders", "word_genders"]


class ReferenceCheck:
    """The reference check for one term list; build once (a `Coherence` does), ask per
    text."""

    def __init__(self, term_list: TermList) -> None:
        self.term_list = term_list
        # The pronoun matcher, made when a list of names needs it; the names matcher, when
        # a list of gendered words does.
        self._pronouns: Matcher | None = None
        self._names: Matcher | None = None
        self._names_found: tuple[str, list[Mention]] | None = None  # the last text's

    def _names_in(self, text: str) -> list[Mention]:
        """The first names the names list finds in `text`, found once per text: a text's
        mentions are read one after another, and each may ask."""
        if self._names_found is None or self._names_found[0] != text:
            if self._names is None:
                self._names = Matcher("names")
            self._names_found = (text, self._names.find(text))
        return self._names_found[1]

    def name_genders(self, text: str, start: int, end: int) -> frozenset[str]:
        """The genders of the first names written in `text` between `start` and `end`
        ("Emily is a lesbian": female), by the names list; ``"unknown"`` among them where a
        first name the names list leaves out is written there ("Tom Atkins is a queer",
        "Nico Bellic is a Gay mexican": whose gender a swap cannot know, so a term of either
        binary gender may contradict it)."""
        named = self._names_in(text)
        genders: set[str] = {
            m.term.gender for m in named if start <= m.start < end and m.term.gender
        }
        spans = [(m.start, m.end) for m in named]
        if references.unknown_first_names(text, spans, start, end):
            genders.add("unknown")
        return frozenset(genders)

    def gendered_words(self, text: str, source: Term) -> tuple[Mention, ...]:
        """The gendered words of `text` (he, her, mother, ...) as mentions of the first-name
        term `source`, form "gendered": a rewrite to a name of the other gender swaps them."""
        if self._pronouns is None:
            self._pronouns = Matcher("pronouns")
        return tuple(
            Mention(
                m.start,
                m.end,
                source,
                m.surface,
                m.natural,
                "gendered",
                m.possessive,
                role=m.term.gender or "",
            )
            for m in self._pronouns.find(text)
        )

    def left_out(
        self,
        text: str,
        found: Sequence[Mention],
        sources: dict[str, Term],
        several: bool,
        private_names: bool = False,
    ) -> tuple[str | None, tuple[Mention, ...], str | None]:
        """Whether a swap of first names or gendered words can rewrite every other
        reference to the people it speaks of (`textfair.text._references`): the reason the
        text is left out if not (``full_name``, ``reference``), the first names a
        gendered-word swap rewrites with it ("Emily said she" -> "Michael said he"), and
        what a first name's swap rests on where it may make the text false about a real,
        named person or work (WORLD, issue 56), or None.

        A first name's swap that renames a real person stays coherent: "Charles Lindbergh"
        -> "Jamal Lindbergh", a film's "Lisa" -> "Keisha", a "Molly" the text does not show
        to be a private person's. Such a variant is a valid test (whether the decision
        depends on the name), so it is written and flagged, never left out; a gendered
        word's swap beside a named person ("Bill Nighy ... her") contradicts the name in
        the text itself and is left out (``full_name``)."""
        names = any(t.names for t in sources.values())
        words = any(t.words for t in sources.values())
        if not (names or words):
            return None, (), None
        first_names = [m for m in found if m.term.names]
        world = None
        if names:
            full = next(
                (
                    full
                    for m in first_names
                    if (full := references.full_name_of(text, m.start, m.start + len(m.surface)))
                ),
                None,
            )
            if full is not None:
                world = f"full name '{full}'"  # "John Banner" -> "Chloe Banner": WORLD
        if names and references.named_elsewhere(text, first_names):
            return "reference", (), None  # "Richard the Lionheart ... Richard's": one person
        if (
            names
            and world is None
            and references.about_a_work(text)
            and not all(references.the_writers_own(text, m.start) for m in first_names)
        ):
            # "Lisa wanders about lost": a film's character, an actor
            world = f"first name '{first_names[0].surface}' in a text about a work"
        if (
            names
            and world is None
            and not private_names
            and not all(references.shown_private(text, m.start) for m in first_names)
        ):
            # "Molly", "Zac", "Paul on Big Brother": who knows
            world = f"first name '{first_names[0].surface}', not shown to be a private person's"
        if words and references.named_people(text):
            return "full_name", (), None  # "Bill Nighy ... him" never becomes "... her"
        if references.gendered_identity_words(text):
            return "reference", (), None  # "Emily, a female nurse" -> "Michael, a female nurse"
        if not words:
            return None, (), world
        named = self._names_in(text)
        if any(references.full_name_at(text, m.start, m.start + len(m.surface)) for m in named):
            return "full_name", (), None  # "Reverend Billy ... he", "the Book of Daniel"
        if references.unknown_first_names(text, [(m.start, m.end) for m in named]):
            return "reference", (), None  # "Joyce ... he": a name of no known gender stays
        by_gender = {t.gender: t for t in self.term_list.categories[found[0].category]}
        companions = []
        taken = [(m.start, m.end) for m in found]
        for mention in named:
            if any(s < mention.end and mention.start < e for s, e in taken):
                continue  # a word the swap rewrites already
            term = by_gender.get(mention.term.gender)
            gender = mention.term.gender or ""
            if term is None or (term.id not in sources and not several):
                return "reference", (), None  # "Emily ... he": flipping "he" alone would pair them
            companions.append(replace(mention, term=term, form="name", role=gender))
        return None, tuple(companions), world


@cache
def _gender_regexes(lowercase: bool = False) -> dict[str, re.Pattern[str]]:
    """Per gender, a pattern for its gendered words; `lowercase`: for text already lowercased
    (twice as fast as ignoring case, as the matcher found)."""
    pairs = load_gender_pairs("gender_pairs").pairs
    sides = {"male": {p.masculine for p in pairs}, "female": {p.feminine for p in pairs}}
    return {
        gender: re.compile(
            r"(?<![\w'’])"
            + context.trie_pattern(w.lower() for w in words - GENDER_ADJECTIVES)
            + r"(?![\w])",
            0 if lowercase else re.IGNORECASE,
        )
        for gender, words in sides.items()
    }


_PRONOUN = re.compile(r"(?<![\w'’])(?:he|him|his|himself|she|her|hers|herself)(?![\w])", re.I)


def pronoun_genders(text: str) -> bool:
    """Whether `text` holds a personal pronoun of a binary gender ("he", "her", ...)."""
    return _PRONOUN.search(text) is not None


def word_genders(text: str) -> frozenset[str]:
    """The genders of the gendered words of `text` ("he", "wife", "Mr"...)."""
    lower = context.lower_in_place(text)
    patterns, scanned = (
        (_gender_regexes(), text) if lower is None else (_gender_regexes(lowercase=True), lower)
    )
    return frozenset(g for g, pattern in patterns.items() if pattern.search(scanned))
