"""Term list files loaded: a built-in list by name, a user's YAML or CSV file by path, or
several of them combined (``"dixon2018,mine.yaml"``).

The public loader (:func:`load_term_list`) over the reading of the text
(:mod:`textfair.terms._reading`), its parsing (:mod:`textfair.terms._entries`) and the checks
of the whole list (:mod:`textfair.terms._validation`); the gender pairs load with
:func:`textfair.terms.pairs.load_gender_pairs`.
"""

from __future__ import annotations

import functools
from pathlib import Path

from textfair.terms._entries import parse_csv, parse_term_mapping
from textfair.terms._reading import BUILTIN_TERM_LISTS, parse_yaml, read_source
from textfair.terms._source import Source
from textfair.terms._term import Term
from textfair.terms._validation import validated
from textfair.terms.lists import TermList

__all__ = ["load_term_list"]


def load_term_list(spec: str | Path) -> TermList:
    """Load a built-in term list by name, or a user's YAML or CSV file by path.

    A built-in list is parsed once per process. A YAML file has the schema of the shipped
    lists (``name``, ``description``, ``source``, ``licence`` and ``categories``, each
    category a list of terms: a string, or a mapping with ``term:`` and the keys `Term`
    describes); a CSV file has the header ``category,term`` and one term a line.

    Parameters
    ----------
    spec
        A built-in list's name (see `builtin_term_lists`) or a file path. Several lists
        separated by commas (``"dixon2018,mine.yaml"``) are combined into one, named by
        their names joined with ``+``; a category in more than one holds the terms of each.

    Returns
    -------
    TermList
        The list, validated: every category has two or more terms, no term is listed twice,
        and each written form belongs to one term only.

    Raises
    ------
    TextfairError
        A one-line message naming the file, the entry and the fix when the list is
        malformed, or when no built-in list or file has that name.

    Examples
    --------
    >>> terms = textfair.load_term_list("dixon2018,pronouns")
    >>> terms.name, list(terms.categories)
    ('dixon2018+pronouns', ['gender', 'race', 'religion', 'age', 'pronouns'])
    >>> textfair.load_term_list("my_terms.yaml")  # doctest: +SKIP
    """
    if isinstance(spec, str) and "," in spec and not Path(spec).exists():
        return _combined([load_term_list(part.strip()) for part in spec.split(",") if part.strip()])
    if isinstance(spec, str) and BUILTIN_TERM_LISTS.get(spec) == "terms":
        return _builtin_term_list(spec)
    return _term_list_of(read_source(spec, kind="terms"))


@functools.cache
def _builtin_term_list(name: str) -> TermList:
    """A shipped list, parsed once per process (its YAML takes a tenth of a second)."""
    return _term_list_of(read_source(name, kind="terms"))


def _term_list_of(source: Source) -> TermList:
    """The list `source` holds: CSV by its name's suffix, YAML otherwise."""
    if source.label.lower().endswith(".csv"):
        return parse_csv(source)
    data = parse_yaml(source)
    return parse_term_mapping(data, source)


def _combined(lists: list[TermList]) -> TermList:
    """Several lists as one ("dixon2018,mine.yaml"): a category in more than one holds the
    terms of each; a written form may still belong to one term only (checked as for one
    list)."""
    if len(lists) == 1:
        return lists[0]
    categories: dict[str, tuple[Term, ...]] = {}
    for term_list in lists:
        for category, terms in term_list.categories.items():
            categories[category] = categories.get(category, ()) + terms
    return validated(
        TermList(
            name="+".join(t.name for t in lists),
            categories=categories,
            description="; ".join(t.description for t in lists if t.description),
            source="; ".join(t.source for t in lists if t.source),
            licence="; ".join(t.licence for t in lists if t.licence),
            path=",".join(t.path or t.name for t in lists),
        )
    )
