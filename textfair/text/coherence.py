"""Whether a text's mentions of a category can be rewritten and the whole text still hang
together, and which terms it may become.

A variant is evidence about a model only if it says what its seed said with another
identity. Rewriting the mentions is not enough when the rest of the text names the old
identity too: "Jews" become "Sikhs" while "synagogue" and "anti-Semite" stay; "Americans"
become "Canadians" beside "America's wealth". So the decision is taken per text and per
category, precision first:

* **left out** (the text takes no part in the category's rows), with the reason counted in
  the report: it names two distinct terms (rewriting them to one would merge two groups:
  ``several_terms``); a mention is fixed ("older than", "too young": ``fixed_form``); the
  mentioned identity is also named where it is not rewritten, in a title, an institution
  or a nation's thing ("Catholic Church", "American politics": ``other_use``); a word that
  goes with one identity of the axis and has no counterpart is there ("Qur'an",
  "synagogue": ``cue``); or no other term fits (``no_target``);
* otherwise **the terms it may become**: those of the mention's axis (a nationality never
  becomes a race, a gender identity never a sexual orientation), less those the text
  contradicts: a term whose `clashes` are in the text ("atheist" beside "pray"), a gendered
  term beside words of the other gender ("female" where the text says "he"), an adult age
  before a child noun ("old girls"), an attributive-only term in a predicate ("she is
  teenage"), a term without the counterpart of a related word the text holds;
* the **related words** of the mentioned term ("Judaism" for "Jewish", "America" for
  "American") are rewritten with it, to the target's word of the same role.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from textfair.terms import Term, TermList, normalize_form
from textfair.terms.files import GENDER_ADJECTIVES, load_gender_pairs
from textfair.text import context, gates
from textfair.text.matcher import Matcher, Mention

__all__ = ["LEFT_OUT_REASONS", "CategoryPlan", "Coherence", "coherence_of"]

#: Why a text takes no part in a category's rows, in the order they are checked;
#: ``low_acceptability``: every target left scores below the acceptability threshold
#: (`textfair.text.acceptability.keep_acceptable`).
LEFT_OUT_REASONS = (
    "several_terms",
    "fixed_form",
    "other_use",
    "cue",
    "no_target",
    "low_acceptability",
)

# Nouns for children: an adult age before one reads wrong ("elderly child", "old girls").
CHILD_NOUNS = frozenset(
    """
    child children kid kids baby babies boy boys girl girls son sons daughter daughters
    toddler toddlers infant infants schoolboy schoolboys schoolgirl schoolgirls youngster
    youngsters teen teens teenager teenagers kiddo kiddos lad lads lass lasses tot tots
    newborn newborns grandson grandsons granddaughter granddaughters
    """.split()
)


# Nouns that carry an age of their own: any other age contradicts them ("young geezer").
AGED_NOUNS = frozenset(
    """
    geezer geezers codger codgers oldster oldsters crone crones retiree retirees pensioner
    pensioners granny grannies grandpa grandpas grandma grandmas grandfather grandfathers
    grandmother grandmothers grandparent grandparents
    """.split()
)
# A stated age ("at the age of 76", "a 79-year-old", "aged 12", "in his 80s"): a life-stage
# term rewritten beside one contradicts it.
STATED_AGE = re.compile(
    r"\b(?:ages?|aged)\s+(?:of\s+)?\d{1,3}\b|\b\d{1,3}[\s-]*(?:years?|yrs?)\.?[\s-]*old\b"
    r"|\bin\s+(?:his|her|their)\s+(?:early\s+|late\s+|mid-?)?"
    r"(?:\d0s|teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class CategoryPlan:
    """How a text's mentions of one category may be rewritten."""

    left_out: str | None
    """The reason the text takes no part in the category's rows (LEFT_OUT_REASONS)."""
    targets: frozenset[str] = frozenset()
    """The term ids the text may be rewritten to (its own term not among them)."""
    related: tuple[Mention, ...] = ()
    """Related words of the mentioned term, rewritten with it ("Judaism" -> "Sikhism")."""


@dataclass(frozen=True)
class _Word:
    start: int
    end: int
    kind: str  # "cue", "related", "clash"
    terms: tuple[Term, ...]
    role: str = ""


class Coherence:
    """The per-text decisions for one term list; build once, call `plan` per text."""

    def __init__(self, term_list: TermList) -> None:
        self.term_list = term_list
        by_word: dict[tuple[str, str, str], list[Term]] = {}
        for term in term_list.terms():
            for word in term.cues:
                by_word.setdefault((word, "cue", ""), []).append(term)
            for role, word in term.related:
                by_word.setdefault((word, "related", role), []).append(term)
            for word in term.clashes:
                by_word.setdefault((word, "clash", ""), []).append(term)
        # One trie over every word, matched ignoring case; a word listed with a capital
        # ("Mass", "Church") counts only as listed or in capitals, a lowercase one in any case.
        self._words: dict[str, list[tuple[str, str, tuple[Term, ...], str]]] = {}
        for (word, kind, role), listed in by_word.items():
            self._words.setdefault(normalize_form(word), []).append(
                (kind, role, tuple(listed), word)
            )
        source = r"(?<![\w\-])" + context.trie_pattern(self._words) + r"(?![\w\-])"
        self._pattern = re.compile(source, re.I) if self._words else None
        # Matching the lowercased text is twice as fast as ignoring case (the matcher's trick);
        # used when lowercasing keeps the text's length, so offsets stay the text's.
        self._lower_pattern = re.compile(source) if self._words else None
        self._axes: dict[tuple[str, str], frozenset[str]] = {}
        for category, terms in term_list.categories.items():
            for term in terms:
                key = (category, term.axis_name)
                self._axes[key] = self._axes.get(key, frozenset()) | {term.id}
        self._roles = {term.id: dict(term.related) for term in term_list.terms() if term.related}
        # Categories with a gendered term (not a pronoun category's own words): only their
        # texts are searched for gendered words.
        self._gendered_category = {
            c: any(t.gender and not t.words for t in terms)
            for c, terms in term_list.categories.items()
        }
        self._last: tuple[str | None, list[_Word], frozenset[str] | None] = (None, [], None)
        # The pronoun matcher, made when a list of names needs it.
        self._pronouns: Matcher | None = None

    def _gendered_words(self, text: str, source: Term) -> tuple[Mention, ...]:
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

    def related_word(self, term: Term, role: str) -> str | None:
        """The word `term` has for `role` ("faith" of "muslim": "Islam"), if any."""
        return self._roles.get(term.id, {}).get(role)

    def plan(
        self,
        text: str,
        mentions: Sequence[Mention],
        other_uses: Sequence[Mention] = (),
        several: bool = False,
    ) -> dict[str, CategoryPlan]:
        """The plan of every category `mentions` name (mentions of one text, any categories).

        With `several`, a text naming distinct terms of a category is planned too (their
        targets: the axis's other terms, which counterfactuals map injectively); without,
        it is left out (a rule-set rewrite would merge them)."""
        by_category: dict[str, list[Mention]] = {}
        for mention in mentions:
            by_category.setdefault(mention.category, []).append(mention)
        if not by_category:
            return {}
        words = self._scan(text)
        return {
            category: self._plan(text, category, found, words, frozenset(), other_uses, several)
            for category, found in by_category.items()
        }

    def _scan(self, text: str) -> list[_Word]:
        """The cue, related and clash words of `text` and the genders its gendered words
        have; remembered for the last text (one text is asked about category by category)."""
        if self._last[0] is text or self._last[0] == text:
            return self._last[1]
        words = []
        lower = context.lower_in_place(text)
        pattern, scanned = (self._pattern, text) if lower is None else (self._lower_pattern, lower)
        for match in pattern.finditer(scanned) if pattern else ():
            found = text[match.start() : match.end()]
            for kind, role, terms, listed in self._words[normalize_form(found)]:
                if listed != listed.lower() and " ".join(found.split()) not in (
                    listed,
                    listed.upper(),
                ):
                    continue  # "mass" is not "Mass"
                words.append(_Word(match.start(), match.end(), kind, terms, role))
        self._last = (text, words, None)
        return words

    def _genders_of(self, text: str) -> frozenset[str]:
        """The genders of the text's gendered words, found once per text when asked."""
        genders = self._last[2]
        if genders is None:
            genders = _genders(text)
            self._last = (self._last[0], self._last[1], genders)
        return genders

    def _plan(self, text, category, found, words, genders, other_uses, several) -> CategoryPlan:
        sources = {m.term_id: m.term for m in found}
        related = []
        for word in words:
            if word.kind != "related":
                continue
            owners = [t for t in word.terms if t.category == category]
            # "church" goes with Christian, Catholic and Protestant: it belongs to the one
            # the text mentions; with none mentioned it names each (and so several terms).
            mentioned = [t for t in owners if t.id in sources]
            related += [(word, t) for t in (mentioned[:1] or owners)]
        for _, term in related:
            sources.setdefault(term.id, term)
        if len(sources) > 1 and not several:
            return CategoryPlan("several_terms")
        if any(m.fixed for m in found):
            return CategoryPlan("fixed_form")
        if any(use.term_id in sources for use in other_uses):
            return CategoryPlan("other_use")
        axes = {(category, term.axis_name) for term in sources.values()}
        if len(axes) > 1:
            return CategoryPlan("several_terms")  # two axes: no term fits both
        axis = self._axes[axes.pop()]
        for word in words:
            if word.kind == "cue" and any(
                t.category == category and t.id in axis for t in word.terms
            ):
                return CategoryPlan("cue")
            if word.kind == "clash" and any(t.id in sources for t in word.terms):
                return CategoryPlan("cue")
        companions: tuple[Mention, ...] = ()
        if self._gendered_category[category]:
            genders = self._genders_of(text)
        if any(t.names for t in sources.values()) and genders:
            # A first name beside gendered words: they are rewritten with it ("Emily ... she"
            # -> "Michael ... he"), which keeps them agreeing; with words of both genders it
            # is not known which refer to whom, and the text is left out.
            if len(genders) > 1 or len(sources) > 1:
                return CategoryPlan("no_target")
            companions = self._gendered_words(text, next(iter(sources.values())))
            genders = frozenset()
        clashing = {t.id for w in words if w.kind == "clash" for t in w.terms}
        roles = {w.role for w, _ in related}
        if any(t.adult_only for t in self.term_list.categories[category]) and (
            STATED_AGE.search(text) or any(_head_noun(text, m) in AGED_NOUNS for m in found)
        ):
            return CategoryPlan("cue")  # "an elderly man ... died at the age of 76"
        child = any(_before_child(text, m) for m in found)
        predicate = any(_predicative(text, m) for m in found)
        degree = any(
            m.form == "adjective" and gates.gradable_context(text, m.start, m.end) for m in found
        )
        targets = set()
        for term in self.term_list.categories[category]:
            if term.id in sources or term.id not in axis or term.id in clashing:
                continue
            if term.gender and not term.words and (genders - {term.gender}):
                continue  # "female" where the text says "he"; "Emily" beside "his"
            if (child and term.adult_only) or (predicate and term.attributive_only):
                continue
            if degree and not term.gradable:
                continue  # "too young" -> "too old", never "too elderly"
            if any(self.related_word(term, role) is None for role in roles):
                continue
            targets.add(term.id)
        if len(targets) < len(sources):
            return CategoryPlan("no_target")  # too few terms to map each source to a new one
        mentions = tuple(
            Mention(
                w.start,
                w.end,
                term,
                text[w.start : w.end],
                self.related_word(term, w.role) or text[w.start : w.end],
                "related",
                role=w.role,
            )
            for w, term in related
        )
        return CategoryPlan(None, frozenset(targets), mentions + companions)


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


def _genders(text: str) -> frozenset[str]:
    """The genders of the gendered words of `text` ("he", "wife", "Mr"...)."""
    lower = context.lower_in_place(text)
    patterns, scanned = (
        (_gender_regexes(), text) if lower is None else (_gender_regexes(lowercase=True), lower)
    )
    return frozenset(g for g, pattern in patterns.items() if pattern.search(scanned))


def _head_noun(text: str, mention: Mention) -> str | None:
    """The noun an adjective mention modifies, within the next three words, lowercased."""
    if mention.form != "adjective":
        return None
    for token in context.tokens_after(text, mention.end, count=3):
        word = context.normalize_token(token)
        if word in CHILD_NOUNS or word in AGED_NOUNS or context.is_person_noun(word):
            return word
        if not context.is_word(token) and token not in ",-":
            return None
    return None


def _before_child(text: str, mention: Mention) -> bool:
    """The mention modifies a child noun ("young girls")."""
    return _head_noun(text, mention) in CHILD_NOUNS


def _predicative(text: str, mention: Mention) -> bool:
    """ "she is young", "they're old": the term is the predicate."""
    if mention.form != "adjective":
        return False
    before = [context.plain_token(t) for t in context.tokens_before(text, mention.start, count=4)]
    return gates.is_predicate(before)


# One Coherence per matcher (it holds the list's tables and a one-text memo): made on first
# use, and gone with the matcher.
_OF_MATCHER: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def coherence_of(matcher: Matcher) -> Coherence:
    """The per-text coherence decisions for `matcher`'s term list, made once per matcher."""
    found = _OF_MATCHER.get(matcher)
    if found is None:
        found = _OF_MATCHER[matcher] = Coherence(matcher.term_list)
    return found
