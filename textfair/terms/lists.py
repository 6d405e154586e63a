"""The lists of a term list file: :class:`TermList` (categories of identity terms, with
provenance) and :class:`GenderPairs` (the gender-swap pairs).

Apart from the terms they hold (:mod:`textfair.terms._term`): a list is looked up, combined
and filtered as a whole; what a list file may hold is checked by
:mod:`textfair.terms._validation`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from textfair.errors import TextfairError
from textfair.terms._term import Term, normalize_form

__all__ = ["GenderPair", "GenderPairs", "TermList"]


@dataclass(frozen=True)
class TermList:
    """Categories of identity terms, with provenance.

    What `load_term_list` returns. A valid list has at least one category, each of two or
    more distinct terms, and each written form belongs to one term only. ``len()`` counts
    its terms.

    Attributes
    ----------
    name : str
        The list's name (``"dixon2018"``; ``"dixon2018+mine"`` for combined lists).
    categories : Mapping of str to tuple of Term
        The terms of each category, in file order.
    description, source, licence : str
        What the list is, where it comes from, and its licence.
    path : str
        Where it was read from (``"dixon2018 (built-in)"``, a file path).

    Examples
    --------
    >>> terms = textfair.load_term_list("dixon2018")
    >>> len(terms), list(terms.categories)
    (48, ['gender', 'race', 'religion', 'age'])
    """

    name: str
    categories: Mapping[str, tuple[Term, ...]]
    description: str = ""
    source: str = ""
    licence: str = ""
    path: str = ""

    def terms(self, categories: list[str] | tuple[str, ...] | None = None) -> list[Term]:
        """All terms, or those of the given categories, in file order.

        Parameters
        ----------
        categories
            Category names; None (default): all of them.

        Returns
        -------
        list of Term
            The terms, category by category in the order given.

        Raises
        ------
        TextfairError
            A category the list does not have.
        """
        names = self.category_names(categories)
        return [term for name in names for term in self.categories[name]]

    def category_names(self, categories: list[str] | tuple[str, ...] | None = None) -> list[str]:
        """Check category names against the list; None means all of them.

        Parameters
        ----------
        categories
            Category names, or None.

        Returns
        -------
        list of str
            The names as given, or every category of the list for None.

        Raises
        ------
        TextfairError
            An unknown category; the message lists the available ones.
        """
        if categories is None:
            return list(self.categories)
        for name in categories:
            if name not in self.categories:
                raise TextfairError(
                    f"unknown category {name!r} in term list {self.name!r}; "
                    f"available: {', '.join(self.categories)}"
                )
        return list(categories)

    def term(self, term_id: str) -> Term:
        """Look a term up by its id or any of its written forms.

        The lookup ignores case, hyphens and repeated spaces (``"African-American"`` finds
        ``"african american"``).

        Parameters
        ----------
        term_id
            The term's id, or any form `Term.surface_forms` yields (``"Jews"``).

        Returns
        -------
        Term
            The term.

        Raises
        ------
        TextfairError
            No term of the list has that id or form.

        Examples
        --------
        >>> textfair.load_term_list("dixon2018").term("Jews").id
        'jewish'
        """
        key = normalize_form(term_id)
        for term in self.terms():
            if key == term.id or key in {normalize_form(f) for f, _ in term.surface_forms()}:
                return term
        raise TextfairError(
            f"unknown term {term_id!r} in term list {self.name!r}; "
            f"see `textfair terms show {self.name}` for its terms"
        )

    def without_flags(self, flags: Iterable[str]) -> TermList:
        """The list without the terms holding any of `flags`.

        Parameters
        ----------
        flags
            Flags such as ``"dispreferred"`` or ``"polarizing"``.

        Returns
        -------
        TermList
            A copy without those terms; a category left with fewer than two terms is
            dropped (nothing to swap). The list itself when `flags` is empty.

        Examples
        --------
        >>> holistic = textfair.load_term_list("holistic")
        >>> len(holistic.without_flags(["dispreferred"])) < len(holistic)
        True
        """
        dropped = set(flags)
        if not dropped:
            return self
        categories = {
            name: kept
            for name, terms in self.categories.items()
            if len(kept := tuple(t for t in terms if dropped.isdisjoint(t.flags))) >= 2
        }
        return replace(self, categories=categories)

    def __len__(self) -> int:
        return sum(len(terms) for terms in self.categories.values())


@dataclass(frozen=True)
class GenderPair:
    """A masculine/feminine word pair; `when` picks between several counterparts."""

    masculine: str
    feminine: str
    when: Literal["before_noun", "not_before_noun"] | None = None


@dataclass(frozen=True)
class GenderPairs:
    """The gender-swap pairs, with provenance.

    What `load_gender_pairs` returns; `GenderSwapper` swaps the words of its pairs.
    ``len()`` counts its pairs.

    Attributes
    ----------
    name : str
        The list's name (``"gender_pairs"``).
    pairs : tuple of GenderPair
        Masculine/feminine word pairs (``masculine``, ``feminine``), each with ``when``:
        ``"before_noun"``, ``"not_before_noun"`` or None, which picks between a word's
        several counterparts (``"her car"`` -> ``"his car"``, ``"saw her"`` ->
        ``"saw him"``).
    description, source, licence : str
        What the list is, where it comes from, and its licence.
    path : str
        Where it was read from.

    Examples
    --------
    >>> pairs = textfair.load_gender_pairs()
    >>> pairs.pairs[0]
    GenderPair(masculine='he', feminine='she', when=None)
    """

    name: str
    pairs: tuple[GenderPair, ...]
    description: str = ""
    source: str = ""
    licence: str = ""
    path: str = ""

    def __len__(self) -> int:
        return len(self.pairs)
