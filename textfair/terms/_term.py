"""One identity term (:class:`Term`): the forms needed to find it and to write another term
in its place, and how forms are compared (:func:`normalize_form`).

A term list maps categories (gender, race, religion, age, ...) to identity terms. Each term
carries what the matcher and the rewriter need to find it and to write another term in its
place grammatically: its natural written form, plural and noun forms, spelling variants, an
article override and context flags. Apart from the lists that hold terms
(:mod:`textfair.terms.lists`): a term is what every reader of a text handles, one at a time.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

__all__ = ["Term", "normalize_form"]

Pos = Literal["adjective", "noun", "both"]
Gender = Literal["male", "female"]


_SEPARATORS = re.compile(r"[\s\-]+")


@functools.lru_cache(maxsize=1 << 16)  # asked for every candidate mention and listed form
def normalize_form(text: str) -> str:
    """Lowercase a surface form and join its words with single spaces.

    "African-American", "african  american" and "African American" all become
    "african american": the key the matcher and term ids use.
    """
    return " ".join(part for part in _SEPARATORS.split(text.strip().lower()) if part)


@dataclass(frozen=True)
class Term:
    """One identity term and the forms needed to find and to write it.

    A term list's entry: its natural written form, plural and noun forms, spelling variants,
    an article override and context flags, which the matcher uses to find the term and the
    rewriter to write another term in its place grammatically. Term lists build these;
    look one up with `TermList.term`.

    Attributes
    ----------
    text : str
        The natural written form (``"Muslim"``, ``"middle-aged"``).
    category : str
        The category the term belongs to (``"religion"``).
    pos : {"adjective", "noun", "both"}
        Its part of speech; a name group's or a gender's term is a noun.
    noun : str or None
        The singular noun, when it differs from the term (``"Jew"`` for ``"Jewish"``).
    plurals : tuple of str
        Plural noun forms (``"Jews"``); the first is the one written.
    aliases : tuple of str
        Other spellings (``"Moslem"``), found as the term.
    article : {"a", "an"} or None
        The indefinite article before the term, when its sound does not say it.
    person_context : bool
        The term counts only next to a person noun, or standing for people: ``"old car"``
        and ``"straight line"`` are not mentions, ``"an old man"`` and ``"he is black"``
        are.
    nominal : bool
        ``"the <term>"`` stands for people (``"the elderly"``).
    surname : bool
        The term is also a surname (recorded; any term after a first name, as in
        ``"Jack Black"``, is read as part of a name whatever this flag says).
    given_name : bool
        The term is also a first name: before a surname (``"Christian Slater"``) it is not
        a mention.
    comparative : bool
        A comparative (``"older"``): its mentions are found but never rewritten, unless
        the term has an `axis` of its own.
    gender : {"male", "female"} or None
        The gender the term implies (metadata).
    flags : tuple of str
        Labels kept as metadata (``"dispreferred"``, ``"polarizing"``); a run may leave
        out the terms holding one.
    names : tuple of str
        A group of first names: any is matched, one is written.
    write : int
        How many of `names`, from the first, a rewrite may write (0: all).
    words : tuple of str
        The gendered words that stand for the term (``"he"``, ``"him"``, ``"man"``, ...).
    swaps : str or None
        The gender-pair list `words` come from.
    axis : str or None
        The axis of its category the term lies on (``"nationality"``); rewrites stay on
        it.
    cues : tuple of str
        Words that go with this identity only (``"synagogue"``): a text holding one is not
        rewritten.
    related : tuple of (str, str)
        (role, word) pairs rewritten with the term (``("faith", "Judaism")``).
    clashes : tuple of str
        Words that contradict the term (``"God"`` for ``"atheist"``): it is never written
        beside one.
    adult_only : bool
        An adult age, never written before a child noun.
    attributive_only : bool
        Written only before a noun, never as a predicate.
    fixed_forms : tuple of str
        Forms found as the term but never rewritten (``"Roman Catholic"``).
    gradable : bool
        Reads as a degree (``"too young"``); there, only gradable terms are written.
    members : tuple of Term
        A group of terms (a World Bank income group's nationalities): each member is found
        as itself, under its own flags, and counts as the group; a rewrite to the group
        writes one member, picked by a hash of the text.

    Examples
    --------
    >>> term = textfair.load_term_list("dixon2018").term("Jews")
    >>> term.text, term.id, term.category, term.singular_noun, term.plural_noun
    ('Jewish', 'jewish', 'religion', 'Jew', 'Jews')
    """

    text: str
    category: str
    pos: Pos = "both"
    noun: str | None = None
    plurals: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    article: Literal["a", "an"] | None = None
    person_context: bool = False
    groups_only: bool = False
    """A mention naming one person ("a Syrian refugee", "a Romanian") counts only where the
    text shows a private person ("my Syrian neighbour"): read blind on tweets, one person
    called by a nationality was most often a real person in a news report."""
    nominal: bool = False
    surname: bool = False
    given_name: bool = False
    comparative: bool = False
    gender: Gender | None = None
    """The gender the term implies ("lesbian", "female"); a pronoun category's two terms are
    its genders. Recorded for every list; rewrites of identity terms do not act on it yet."""
    flags: tuple[str, ...] = ()
    """Metadata a list keeps about a term (HolisticBias: "dispreferred", "polarizing"); a
    run may leave out the terms holding a flag (`TermList.without_flags`)."""
    names: tuple[str, ...] = ()
    """A group of first names ("female name"): every name is matched when written with a
    capital, and a rewrite writes one of them, picked by a hash of the text and the name it
    replaces (the same text always gets the same name, whatever the run's seed)."""
    write: int = 0
    """How many of `names`, from the first, a rewrite may write (0: all of them)."""
    words: tuple[str, ...] = ()
    """Gendered words standing for the term ("he", "him", "his", "man", ...): a pronoun
    category's terms are the two genders, and a rewrite swaps every word of a text with its
    counterpart from the gender pairs, in context ("her car" -> "his car", "saw her" ->
    "saw him"), so he/him/his/himself all move together."""
    swaps: str | None = None
    """The gender-pair list `words` come from, which also gives their counterparts."""
    axis: str | None = None
    """The axis of its category the term lies on ("nationality", "sexual orientation"): a
    mention is rewritten only to terms of the same axis, so a nationality never becomes a
    race ("American dream" -> "Latina dream"). None: the category is one axis."""
    cues: tuple[str, ...] = ()
    """Words that go with this identity and with no other ("synagogue", "Qur'an"): a text
    holding one says which identity it is about, so its mentions of the category are not
    rewritten (the rest of the text would still name the old identity)."""
    related: tuple[tuple[str, str], ...] = ()
    """(role, word) pairs: words that go with the term and have a counterpart for every
    term of the axis ("faith": Judaism / Islam / Sikhism): rewritten with the term."""
    clashes: tuple[str, ...] = ()
    """Words that contradict the term ("God", "pray" for "atheist"): it is never written
    into a text holding one, and its own mentions there are not rewritten."""
    adult_only: bool = False
    """An age of adults ("old", "elderly"): never written before a child noun ("girls")."""
    attributive_only: bool = False
    """Written only before a noun ("teenage boys"), never as a predicate ("she is teenage")."""
    fixed_forms: tuple[str, ...] = ()
    """Forms found as the term but never rewritten ("Roman Catholic": a church's name as much
    as a faith); a text holding one is left out of the category's rows."""
    gradable: bool = False
    """Reads as a degree ("too young", "old enough", "very old"): in such a context the
    mention is rewritten, to gradable terms only ("too old", never "too elderly")."""
    members: tuple[Term, ...] = field(default=(), compare=False, repr=False)
    """A group of terms ("High income nationality": "American", "Japanese", ...): every
    member's forms are found, each read by the member's own flags ("Mexican food" is no
    mention), and count as the group; a rewrite to the group writes one member, picked by a
    hash of the text (`textfair.text.rewrite.pick_member`), with that member's related
    words. Compared by the group's other fields (its text names it)."""

    @cached_property
    def fixed_ids(self) -> frozenset[str]:
        """The normalised `fixed_forms` (``"roman catholic"``), as a frozenset of str."""
        return frozenset(normalize_form(form) for form in self.fixed_forms)

    @property
    def axis_name(self) -> str:
        """The axis the term lies on; its category's name when the category has one axis."""
        return self.axis or self.category

    @property
    def written_names(self) -> tuple[str, ...]:
        """The names a rewrite picks from: the most common ones when the list says so."""
        return self.names[: self.write] if self.write else self.names

    @cached_property
    def id(self) -> str:
        """Canonical id: the lowercase term with words joined by spaces (``"middle aged"``).

        Rule sets, swaps and reports name a term by its id.
        """
        return normalize_form(self.text)

    @property
    def singular_noun(self) -> str | None:
        """The singular noun to write ("Jew", "Muslim"), or None for adjective-only terms."""
        if self.noun:
            return self.noun
        return self.text if self.pos in ("noun", "both") else None

    @property
    def plural_noun(self) -> str | None:
        """The plural noun to write ("Jews"), or None when only "<term> people" is acceptable."""
        if self.plurals and (self.noun or self.pos in ("noun", "both")):
            return self.plurals[0]
        return None

    def surface_forms(self) -> Iterator[tuple[str, str]]:
        """Yield (form, role) for every written form the matcher should find.

        A name group's forms are its names, and a gendered term's its words, each with the
        role ``"noun"``; a group of terms' forms are its members' (the group's label is not
        written in text).

        Yields
        ------
        form : str
            The form as the list writes it.
        role : str
            ``"base"`` (the term, an alias or a fixed form), ``"noun"`` (a distinct singular
            noun) or ``"plural"``.

        Examples
        --------
        >>> term = textfair.load_term_list("dixon2018").term("jewish")
        >>> list(term.surface_forms())
        [('Jewish', 'base'), ('Jew', 'noun'), ('Jews', 'plural')]
        """
        if self.names or self.words:
            for word in self.names or self.words:
                yield word, "noun"
            return
        if self.members:
            for member in self.members:
                yield from member.surface_forms()
            return
        yield self.text, "base"
        for alias in (*self.aliases, *self.fixed_forms):
            yield alias, "base"
        if self.noun:
            yield self.noun, "noun"
        for plural in self.plurals:
            yield plural, "plural"
