"""The checks of a term list file that are not about one field: no key the schema does not
know (:func:`reject_unknown_keys`), and a whole list that can yield counterfactuals and
matches each form to one term only (:func:`validated`).

Apart from the parsing of each field (:mod:`textfair.terms._entries`) because the gender pairs
(:mod:`textfair.terms.pairs`) and the combined lists (:mod:`textfair.terms._files`) are
checked by the same rules. Every malformed entry is a one-line error naming the file, the
entry and the fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textfair.terms._source import Source
from textfair.terms._term import normalize_form
from textfair.terms.lists import TermList

__all__ = ["NodePath", "reject_unknown_keys", "validated"]

#: The path of a node of a list file, by keys and indexes ("categories", category, index,
#: key): what an error names, and `Source.error` finds the line of.
NodePath = tuple[str | int, ...]


def validated(term_list: TermList, source: Source | None = None) -> TermList:
    """Reject lists that cannot yield counterfactuals or that match ambiguously."""
    source = source or Source(term_list.path or term_list.name, "")
    if not term_list.categories:
        raise source.error("no categories; add at least one with two or more terms")
    owner: dict[str, tuple[str, str, str]] = {}
    for category, terms in term_list.categories.items():
        if not terms:
            raise source.error(
                f"category {category!r} is empty; add at least two terms or remove it",
                "categories",
                category,
            )
        if len(terms) == 1:
            raise source.error(
                f"category {category!r} has one term ({terms[0].text!r}), so no counterfactual "
                "exists; add another term or remove the category",
                "categories",
                category,
            )
        ids = [term.id for term in terms]
        for index, term_id in enumerate(ids):
            if term_id in ids[:index]:
                raise source.error(
                    f"term {term_id!r} is listed twice in {category!r}; remove one",
                    "categories",
                    category,
                    index,
                )
        for index, term in enumerate(terms):
            # A group's members are terms of their own here: two may not share a form.
            for unit in term.members or (term,):
                for form, _role in unit.surface_forms():
                    key = normalize_form(form)
                    if key in owner and owner[key] != (category, term.id, unit.id):
                        other_category, other_group, other_term = owner[key]
                        where = (
                            f"in both {other_category!r} and {category!r}"
                            if other_category != category
                            else f"twice in {category!r}"
                        )
                        raise source.error(
                            f"{form!r} (term {unit.id!r}) is {where} (already a form of "
                            f"{other_term!r}"
                            f"{f' of {other_group!r}' if other_group != other_term else ''}"
                            "); keep each form in one place",
                            "categories",
                            category,
                            index,
                        )
                    owner[key] = (category, term.id, unit.id)
    return term_list


def reject_unknown_keys(
    entry: Mapping[str, Any], allowed: tuple[str, ...], source: Source, what: str, path: NodePath
) -> None:
    """A one-line error, at `path`, for the first key of `entry` not in `allowed` (`what`: the
    entry, as the message names it)."""
    unknown = [key for key in entry if key not in allowed]
    if unknown:
        raise source.error(
            f"unknown key {str(unknown[0])!r} in {what}; expected one of: {', '.join(allowed)}",
            *path,
            unknown[0],
        )
