"""Find identity mentions in text.

All written forms of all terms (terms, aliases, distinct nouns, plurals) are compiled into one
regular expression shaped as a prefix trie, so a text is scanned once whatever the size of the
term list. Matching is case-insensitive on word boundaries; multi-word terms match across
spaces or hyphens ("African-American"); the longest form wins ("African American" over
"African"); possessives ("Muslim's", "Muslims’") are part of the mention.

Context gates then drop what is not an identity mention: anything inside a known collocation
("black and white", "old friend", "Indian Ocean"), surnames and first names ("Jack Black",
"Christian Slater"), and, for terms flagged ``person_context``, every use that does not
modify or stand for people ("old car", "straight line" are dropped; "an old man",
"white people", "he is black", "the elderly" are kept).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

from textfair.terms import Term, TermList, load_term_list, normalize_form
from textfair.text import context

__all__ = ["Matcher", "Mention", "default_matcher", "find_mentions"]

Form = Literal["adjective", "noun", "plural", "collective"]

# Possessive: 's, or a bare apostrophe after a plural in s (a bare apostrophe after anything
# else is a closing quote, handled in `_possessive`).
_POSSESSIVE = r"(?P<poss>['’][sS](?![\w])|['’](?![\w]))?"
_NOMINAL_FOLLOWERS = frozenset(
    """
    and or who whom that are were have had will would can could should must do did in of at
    to from with
    """.split()
)


@dataclass(frozen=True)
class Mention:
    """One identity mention: where it is, which term, and how it was written.

    `start`/`end` span the whole mention including a possessive suffix; `surface` is the
    written term without it; `natural` is the list's spelling of the form that matched (the
    rewriter compares the two to copy the writer's capitalisation).
    """

    start: int
    end: int
    term: Term
    surface: str
    natural: str
    form: Form
    possessive: str = ""

    @property
    def category(self) -> str:
        """The term's category."""
        return self.term.category

    @property
    def term_id(self) -> str:
        """The term's canonical id."""
        return self.term.id


class Matcher:
    """Finds mentions of a term list's terms in text; build once, call `find` many times."""

    def __init__(self, terms: TermList | str = "dixon2018") -> None:
        self.term_list = load_term_list(terms) if isinstance(terms, str) else terms
        self._forms: dict[str, tuple[Term, str, str]] = {}
        for term in self.term_list.terms():
            for form, role in term.surface_forms():
                # The first role listed wins: "Chinese" is a base form before it is a plural.
                self._forms.setdefault(normalize_form(form), (term, role, form))
        trie = context.trie_pattern(self._forms)
        self._pattern = re.compile(
            r"(?<![\w])(?P<m>" + trie + r")" + _POSSESSIVE + r"(?![\w+])", re.IGNORECASE
        )

    def find(self, text: str, categories: list[str] | None = None) -> list[Mention]:
        """All identity mentions in `text`, left to right, optionally of some categories only."""
        wanted = set(self.term_list.category_names(categories)) if categories else None
        candidates = []
        for match in self._pattern.finditer(text):
            term, role, natural = self._forms[normalize_form(match.group("m"))]
            if wanted is None or term.category in wanted:
                candidates.append((match, term, role, natural))
        if not candidates:
            return []
        blocked = [m.span() for m in context.collocation_regex().finditer(text)]
        mentions = []
        for match, term, role, natural in candidates:
            start, end = match.span("m")
            if any(b_start <= start and end <= b_end for b_start, b_end in blocked):
                continue
            if _is_name(text, start, end, term):
                continue
            form = self._form(text, start, end, term, role)
            if form is None:
                continue
            possessive = _possessive(match.group("poss"), match.group("m"))
            mentions.append(
                Mention(
                    start=start,
                    end=end + len(possessive),
                    term=term,
                    surface=match.group("m"),
                    natural=natural,
                    form=form,
                    possessive=possessive,
                )
            )
        return mentions

    def is_identity_word(self, token: str) -> bool:
        """True when `token` is a written form of some term ("Americans", "male")."""
        return normalize_form(token) in self._forms

    def _form(self, text: str, start: int, end: int, term: Term, role: str) -> Form | None:
        """The grammatical form of a candidate, or None when the context gate rejects it."""
        if role == "plural":
            return "plural"
        if term.nominal and self._is_collective(text, start, end):
            return "collective"
        if term.person_context:
            return self._gated_form(text, start, end, term)
        if role == "noun":
            return "noun"
        if term.pos == "adjective":
            return "adjective"
        if term.pos == "noun":
            return "noun"
        if context.noun_follows(text, end) or not context.determiner_before(text, start):
            return "adjective"
        return "noun"

    def _gated_form(self, text: str, start: int, end: int, term: Term) -> Form | None:
        """Keep a person-context term only when it modifies or stands for people."""
        if self._person_follows(text, end):
            return "adjective"
        before = [context.normalize_token(t) for t in context.tokens_before(text, start)]
        return "adjective" if _is_predicate(before) else None

    @staticmethod
    def _is_collective(text: str, start: int, end: int) -> bool:
        """ "the elderly", "the young and the old": the adjective stands for people."""
        before = context.tokens_before(text, start, count=1)
        if not before or context.normalize_token(before[0]) != "the":
            return False
        after = context.tokens_after(text, end, count=1)
        if not after:
            return True
        if not context.is_word(after[0]):
            return after[0] != ","
        return context.normalize_token(after[0]) in _NOMINAL_FOLLOWERS

    def _person_follows(self, text: str, end: int) -> bool:
        """A person noun or identity word within the next three words ("a young, shy girl")."""
        nouns = context.person_nouns()
        words = 0
        for token in context.tokens_after(text, end, count=6):
            if not context.is_word(token):
                if token in ",-":
                    continue
                return False
            lower = context.normalize_token(token)
            if lower in nouns or self.is_identity_word(lower):
                return True
            if lower in context.FUNCTION_WORDS:
                return False
            words += 1
            if words == 3:
                return False
        return False


def _is_predicate(before: list[str]) -> bool:
    """ "he is old", "I'm white", "they are not straight", "being black"."""
    if not before:
        return False
    if before[-1] in context.DEGREE_WORDS:
        before = before[:-1]
    if not before:
        return False
    if before[-1] in context.COPULA_CONTRACTIONS or before[-1] == "being":
        return True
    return (
        len(before) >= 2
        and before[-1] in context.COPULAS
        and before[-2] in context.SUBJECT_PRONOUNS
    )


def _is_name(text: str, start: int, end: int, term: Term) -> bool:
    """ "Jack Black", "Betty White" (surname) or "Christian Slater" (first name)."""
    if not text[start].isupper():
        return False
    if term.surname:
        before = context.tokens_before(text, start, count=1)
        if before and before[0] in context.first_names():
            return True
    if term.given_name:
        after = context.tokens_after(text, end, count=1)
        if (
            after
            and after[0][0].isupper()
            and after[0] in context.last_names()
            and after[0].lower() not in context.person_nouns()
        ):
            return True
    return False


def _possessive(suffix: str | None, surface: str) -> str:
    if not suffix:
        return ""
    if len(suffix) == 1 and not surface.lower().endswith("s"):
        return ""  # "'gay'": a closing quote, not a plural possessive
    return suffix


@cache
def default_matcher() -> Matcher:
    """The matcher for the built-in dixon2018 list, built once per process."""
    return Matcher("dixon2018")


def find_mentions(text: str, categories: list[str] | None = None) -> list[Mention]:
    """Identity mentions of the dixon2018 terms in `text`."""
    return default_matcher().find(text, categories)
