"""The grammatical form of a candidate identity mention, read from its context.

A mention is written back in the form it was found in: an adjective ("a gay man"), a noun
("an American"), a plural ("Muslims") or a collective ("the elderly"). For terms flagged
``person_context`` the same reading is the gate that keeps only uses that modify or stand
for people ("an old man", "the Japanese are") and drops the rest ("old car", "in Japanese").
"""

from __future__ import annotations

import re
from typing import Literal

from textfair.terms import Term, normalize_form
from textfair.text import _context as context
from textfair.text._grammar_gates import (
    SINGULAR_DETERMINERS,
    is_collective,
    is_predicate,
    modifies_next,
    stands_for_people,
)
from textfair.text._name_gates import capitalised
from textfair.text._phrase_gates import in_compound
from textfair.text._references import NOT_NAMES

__all__ = ["Form", "FormReader"]

Form = Literal["adjective", "noun", "plural", "collective", "related", "gendered", "name"]

_LANGUAGE_CUES = frozenset("original dubbed subtitled in speak speaks spoke speaking".split())
_PLURAL_SUBJECT_FOLLOWERS = frozenset(
    "are were have had will would can could should must do did who".split()
)
# Nouns for what a group holds as a group: "gay rights", "the Muslim community", "of Jewish
# descent". The adjective stands for the people there, and every term of a category
# reads as well before them.
GROUP_NOUNS = frozenset(
    """
    rights community communities culture cultures heritage ancestry descent origin origins
    background backgrounds population populations minority minorities identity identities
    faith
    """.split()
)
_PLURAL_VERBS = frozenset("tend seem want say think like love hate need know live make do".split())
# A copula opening a question before its subject: "Is he gay", "are you straight?".
_ASKING_COPULAS = frozenset("am is are was were isn't aren't wasn't weren't".split())


def _asked_of(before: list[str]) -> bool:
    """ "Is he gay or straight?", "are you old?": the predicate of a question to a pronoun
    (a recall bug of issue 56: the first term of such a question was no mention)."""
    return (
        len(before) >= 2
        and before[-1] in context.SUBJECT_PRONOUNS
        and before[-1] != "who"
        and before[-2] in _ASKING_COPULAS
    )


def _names_a_thing(after: list[str]) -> bool:
    """After a first name: a surname, then a noun for no person ("Andy Hardy films")."""
    return (
        len(after) >= 2
        and capitalised(after[0])
        and context.is_content_word(after[1])
        and not after[1][:1].isupper()
        and not context.is_person_noun(context.normalize_token(after[1]))
    )


class FormReader:
    """Reads a candidate's form; `forms` maps each normalised written form of the term list
    to (term, role, spelling), as the matcher builds it."""

    def __init__(self, forms: dict[str, tuple[Term, str, str]]) -> None:
        self._forms = forms

    def is_identity_word(self, token: str) -> bool:
        """True when `token` is a written form of some term ("Americans", "male")."""
        return normalize_form(token) in self._forms

    def is_person_word(self, token: str) -> bool:
        """A person noun, a first name, or a form of a term that needs no context ("Muslims").

        A gated term ("Black") does not vouch for its neighbour: "old Black & White movies".
        """
        lower = context.normalize_token(token)
        if context.is_person_noun(lower):
            return True
        if token[:1].isupper() and token in context.first_names() and lower not in NOT_NAMES:
            return True  # "a very young Bob Saget", "the older Victoria"; not "native Israel"
        found = self._forms.get(normalize_form(lower))
        if found is None:
            return False
        term, role = found[0], found[1]
        # A demonym that is also a noun stands for a person ("a Chinese-born American").
        return not term.person_context or role == "plural" or term.pos == "both"

    def form(self, text: str, start: int, end: int, term: Term, role: str) -> Form | None:
        """The grammatical form of a candidate, or None when the context gate rejects it."""
        if role == "plural":
            return "plural"
        if term.nominal and is_collective(text, start, end):
            # "the elderly" stays "the young"; in a list without "the" ("women, children and
            # elderly") the people are written as a plural ("and young people").
            before = context.tokens_before(text, start, count=1)
            return "collective" if context.normalize_token(before[0]) == "the" else "plural"
        if term.person_context and stands_for_people(text, start, end):
            return "collective"  # "the disabled who", "the poor have": any descriptor
        if term.person_context:
            if role == "noun":
                return "noun"  # a distinct noun form ("Middle Easterner") names a person
            return self._gated_form(text, start, end, term)
        if role == "noun":
            return "noun"
        if term.pos == "adjective":
            # "a queer", "a confirmed homosexual": an adjective standing as a noun is written
            # as one in a swap ("a gay person"), never as a bare adjective ("a gay").
            if context.determiner_before(text, start) and not context.noun_follows(text, end):
                return "noun"
            return "adjective"
        if term.pos == "noun":
            return "noun"
        if modifies_next(text, start, end):
            return "adjective"
        if term.id in {normalize_form(p) for p in term.plurals}:
            # "Chinese are here", "the Japanese": a plural spelled like the term itself,
            # unless a singular determiner says otherwise ("a Chinese").
            before = context.tokens_before(text, start, count=1)
            singular = before and context.normalize_token(before[0]) in SINGULAR_DETERMINERS
            return "noun" if singular else "plural"
        return "noun" if context.determiner_before(text, start) else "adjective"

    def _gated_form(self, text: str, start: int, end: int, term: Term) -> Form | None:
        """Keep a person-context term only when it modifies or stands for people."""
        if self._person_follows(text, end):
            return "adjective"
        while in_compound(text, start):  # read "half-Chinese" from where the word starts
            hyphen = re.search(r"[\w'’]*-$", text[:start])
            assert hyphen is not None  # in_compound: the text before `start` ends in "-"
            start = hyphen.start()
        same_as_plural = term.id in {normalize_form(p) for p in term.plurals}
        previous = context.tokens_before(text, start, count=1)
        singular = bool(previous) and context.normalize_token(previous[0]) in SINGULAR_DETERMINERS
        if (
            term.pos != "adjective"
            and (singular if same_as_plural else context.determiner_before(text, start))
            and not context.noun_follows(text, end)
        ):
            return "noun"  # "an American", "a Mexican": the noun stands for a person
        if same_as_plural and self._the_people(text, start, end):
            return "plural"  # "the Japanese tend to", "Chinese are": the people
        before = context.tokens_before(text, start, count=4)
        plain = [context.plain_token(t) for t in before]
        if (
            is_predicate(plain)
            or _asked_of(plain)
            or (
                # "I am Italian American": another demonym between the copula and the term
                len(before) >= 2 and capitalised(before[-1]) and is_predicate(plain[:-1])
            )
        ):
            return "adjective"
        # Coordinated with an identity word: "people, gay and straight", "Indian or Black".
        if len(before) >= 2 and before[-1].lower() in context.COORDINATORS:
            return "adjective" if self.is_identity_word(before[-2]) else None
        return None

    def _the_people(self, text: str, start: int, end: int) -> bool:
        """ "the Japanese are", "Chinese who", "the Chinese tend to": a demonym spelled like
        its plural, standing for the people (not "the Japanese one", "original Japanese")."""
        if is_collective(text, start, end):
            return True
        before = context.tokens_before(text, start, count=1)
        after = context.tokens_after(text, end, count=1)
        if not after or (before and context.normalize_token(before[0]) in _LANGUAGE_CUES):
            return False  # "the original Japanese had", "in Chinese": the language
        following = context.normalize_token(after[0])
        if following in _PLURAL_SUBJECT_FOLLOWERS:
            return True
        return bool(
            before
            and context.normalize_token(before[0]) == "the"
            and (context.looks_like_verb(after[0]) or following in _PLURAL_VERBS)
        )

    def _identity_before_thing(self, tokens: list[str], index: int) -> bool:
        """The person word at `index` is an identity adjective of a thing, not a person:
        "the old American neighborhood" (a person noun within the next two words keeps it:
        "old Jewish book peddlers")."""
        token = tokens[index]
        lower = context.normalize_token(token)
        found = self._forms.get(normalize_form(lower))
        if (
            found is None
            or found[1] != "base"
            or found[0].id in {normalize_form(p) for p in found[0].plurals}
        ):
            return False  # a person noun, a name, a plural: people ("black Africans know")
        following = [t for t in tokens[index + 1 : index + 3] if context.is_word(t)]
        if not following or not context.is_content_word(following[0]):
            return False
        if following[0][:1].isupper() or context.looks_like_verb(following[0]):
            return False
        return not any(
            self.is_person_word(t) or context.normalize_token(t) in GROUP_NOUNS for t in following
        )

    def _person_follows(self, text: str, end: int) -> bool:
        """A person word within the next three words ("a young, shy girl"), looking through
        a coordinated identity word ("black and white audiences")."""
        tokens = context.tokens_after(text, end, count=8)
        words = 0
        index = 0
        while index < len(tokens) and words < 3:
            token = tokens[index]
            lower = token.lower()
            if index > 0 and token in context.first_names() and not context.is_person_noun(lower):
                return False  # a first name counts right after the term only: "a young Bob"
            if index == 0 and token in context.first_names() and _names_a_thing(tokens[1:4]):
                return False  # "these old Andy Hardy films": a name heading a thing
            if lower in context.COORDINATORS:
                following = tokens[index + 1] if index + 1 < len(tokens) else ""
                # Coordinated with an identity word or another demonym: "black and white
                # audiences", "American and British actors".
                if self.is_identity_word(following) or capitalised(following):
                    index += 2
                    words += 1
                    continue
                return False
            if not context.is_word(token):
                if token in ",-":
                    index += 1
                    continue
                return False
            if self.is_person_word(token) or (
                words == 0 and context.normalize_token(token) in GROUP_NOUNS
            ):
                return not self._identity_before_thing(tokens, index)
            if context.normalize_token(token) in context.FUNCTION_WORDS:
                return False
            words += 1
            index += 1
        return False
