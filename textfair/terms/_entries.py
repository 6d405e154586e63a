"""The parsing of a term list's entries: a YAML mapping (``categories:``, each a list of
terms, a string or a mapping with the keys of ``_TERM_KEYS``) or a CSV file
(``category,term``) into a :class:`~textfair.terms.lists.TermList`, every field checked.

Apart from where the text comes from (:mod:`textfair.terms._reading`) and the checks of the
whole list (:mod:`textfair.terms._validation`). Every malformed entry is a one-line error
naming the file, the entry and the fix.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from textfair.errors import TextfairError
from textfair.terms._source import Source
from textfair.terms._term import Term
from textfair.terms._validation import NodePath, reject_unknown_keys, validated
from textfair.terms.lists import TermList
from textfair.terms.pairs import GENDER_ADJECTIVES, OFTEN_NOT_PEOPLE, load_gender_pairs

__all__ = ["parse_csv", "parse_term_mapping"]

# The keys of a term's mapping and what each means: checked here, and printed as the schema
# by the template of `textfair terms new` (`textfair.terms.template`).
_TERM_KEYS = {
    "term": "natural written form",
    "pos": "adjective | noun | both",
    "noun": "singular noun when it differs from the term",
    "plural": "plural noun form(s)",
    "aliases": "other spellings",
    "article": "a | an",
    "person_context": "true: counts only next to a person noun",
    "groups_only": "true: one person called by it counts only where the text shows a private "
    "one (my Syrian neighbour; a Syrian refugee in the news is real)",
    "nominal": "true: 'the <term>' stands for people",
    "surname": "true: also a surname",
    "given_name": "true: also a first name",
    "comparative": "true: a comparative ('older'); its mentions are never rewritten",
    "gender": "male | female: the gender the term implies (metadata)",
    "flags": "labels kept as metadata (dispreferred, polarizing); excludable",
    "names": "a group of first names: any is matched, one is written",
    "write": "how many of `names`, from the first, swaps write (default all)",
    "swaps": "a gender-pair list (gender_pairs): the term is its words of `gender`",
    "axis": "the axis of the category the term lies on (nationality, race); swaps stay on it",
    "cues": "words that go with this identity only (synagogue): the text is not rewritten",
    "related": "role: word pairs rewritten with the term (faith: Judaism)",
    "clashes": "words that contradict the term (God for atheist): never written beside one",
    "adult_only": "true: an adult age, never written before a child noun",
    "attributive_only": "true: written only before a noun, never as a predicate",
    "gradable": "true: reads as a degree ('too young'); there, only gradable terms are written",
    "fixed_forms": "forms found as the term but never rewritten (Roman Catholic)",
    "members": "a group of terms (mappings): each is found as itself, a rewrite writes one",
}
_LIST_KEYS = ("name", "description", "source", "licence", "categories")


def parse_term_mapping(data: dict[str, Any], source: Source) -> TermList:
    """The validated list a YAML mapping (`data`, read from `source`) describes."""
    reject_unknown_keys(data, _LIST_KEYS, source, "the top level", ())
    categories_raw = data.get("categories")
    if not isinstance(categories_raw, dict) or not categories_raw:
        raise source.error(
            "expected `categories:` mapping each category to a list of terms; "
            "add at least one category with two or more terms",
            "categories",
        )
    categories: dict[str, tuple[Term, ...]] = {}
    for category, entries in categories_raw.items():
        where = ("categories", category)
        category = str(category)
        if not isinstance(entries, list):
            entries = [] if entries is None else entries
            if not isinstance(entries, list):
                raise source.error(
                    f"category {category!r} is {entries!r}; expected a list of terms", *where
                )
        categories[category] = tuple(
            _parse_term(entry, category, source, (*where, index))
            for index, entry in enumerate(entries)
        )
    return validated(
        TermList(
            name=str(data.get("name", Path(source.label).stem)),
            categories=categories,
            description=str(data.get("description", "")),
            source=str(data.get("source", "")),
            licence=str(data.get("licence", "")),
            path=source.label,
        ),
        source,
    )


def _parse_term(entry: Any, category: str, source: Source, where: NodePath) -> Term:
    """The term an entry of `category` describes (a string, or a mapping of `_TERM_KEYS`),
    every field checked; `where`: the entry's path, for errors."""
    if isinstance(entry, str):
        entry = {"term": entry}
    if not isinstance(entry, dict) or not isinstance(entry.get("term"), str):
        raise source.error(
            f"entry {entry!r} in category {category!r} has no `term:`; "
            "write a plain string or a mapping with a `term:` key",
            *where,
        )
    label = f"term {entry['term']!r} (category {category!r})"
    reject_unknown_keys(entry, tuple(_TERM_KEYS), source, label, where)
    text = entry["term"].strip()
    if not text:
        raise source.error(f"empty term in category {category!r}; remove it", *where)
    if not any(character.isalnum() for character in text):
        raise source.error(
            f"term {text!r} in category {category!r} has no letter or digit, so it would "
            "match punctuation; write the identity word",
            *where,
        )
    pos = entry.get("pos", "both")
    if pos not in ("adjective", "noun", "both"):
        raise source.error(
            f"{label} has pos: {pos!r}; expected adjective, noun or both", *where, "pos"
        )
    article = entry.get("article")
    if article not in (None, "a", "an"):
        raise source.error(f"{label} has article: {article!r}; expected a or an", *where, "article")
    flags = {}
    for key in (
        "person_context",
        "groups_only",
        "nominal",
        "surname",
        "given_name",
        "comparative",
        "adult_only",
        "attributive_only",
        "gradable",
    ):
        value = entry.get(key, False)
        if not isinstance(value, bool):
            raise source.error(f"{label} has {key}: {value!r}; expected true or false", *where, key)
        flags[key] = value
    gender = entry.get("gender")
    if gender not in (None, "male", "female"):
        raise source.error(f"{label} has gender: {gender!r}; expected male or female", *where)
    names = _str_tuple(entry.get("names"), "names", label, source, where)
    if names and not all(name[:1].isupper() for name in names):
        lower = next(name for name in names if not name[:1].isupper())
        raise source.error(
            f"{label} has the name {lower!r} in `names:`; write first names capitalised "
            "(they are matched only when written with a capital)",
            *where,
            "names",
        )
    words = _gendered_words(entry.get("swaps"), gender, label, source, where)
    members = _members(entry.get("members"), category, label, source, where)
    return Term(
        text=text,
        category=category,
        pos="noun" if names or words or members else pos,
        noun=_optional_str(entry.get("noun"), "noun", label, source, where),
        plurals=_str_tuple(entry.get("plural"), "plural", label, source, where),
        aliases=_str_tuple(entry.get("aliases"), "aliases", label, source, where),
        article=article,
        gender=gender,
        flags=_str_tuple(entry.get("flags"), "flags", label, source, where),
        names=names,
        write=_write_count(entry.get("write", 0), len(names), label, source, where),
        words=words,
        swaps=entry.get("swaps") if words else None,
        axis=_optional_str(entry.get("axis"), "axis", label, source, where),
        cues=_str_tuple(entry.get("cues"), "cues", label, source, where),
        related=_related(entry.get("related"), label, source, where),
        clashes=_str_tuple(entry.get("clashes"), "clashes", label, source, where),
        fixed_forms=_str_tuple(entry.get("fixed_forms"), "fixed_forms", label, source, where),
        members=members,
        **flags,
    )


def _members(
    value: Any, category: str, label: str, source: Source, where: NodePath
) -> tuple[Term, ...]:
    """`members: [{term: Mexican, plural: [Mexicans], ...}, ...]`: the terms of a group, each
    parsed as a term of the category; a member is no group itself."""
    if value is None:
        return ()
    if not isinstance(value, list) or not value:
        raise source.error(
            f"{label} has members: {value!r}; expected a list of terms", *where, "members"
        )
    members = tuple(
        _parse_term(entry, category, source, (*where, "members", index))
        for index, entry in enumerate(value)
    )
    for index, member in enumerate(members):
        if member.id in (m.id for m in members[:index]):
            raise source.error(
                f"member {member.id!r} is listed twice in {label}; remove one",
                *where,
                "members",
                index,
            )
        if member.members or member.names or member.words:
            raise source.error(
                f"member {member.text!r} of {label} is a group itself; list its terms instead",
                *where,
                "members",
                index,
            )
    return members


def _related(
    value: Any, label: str, source: Source, where: NodePath
) -> tuple[tuple[str, str], ...]:
    """`related: {faith: Judaism, country: Israel}`: one word per role."""
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in value.items()
    ):
        raise source.error(
            f"{label} has related: {value!r}; expected a mapping of roles to one word each, "
            "e.g. related: {faith: Judaism}",
            *where,
            "related",
        )
    return tuple((str(k), v.strip()) for k, v in value.items())


def _gendered_words(
    swaps: Any, gender: str | None, label: str, source: Source, where: NodePath
) -> tuple[str, ...]:
    """The pronouns and person nouns of one gender in a gender-pair list ("he", "him",
    "his", "himself", "man", "waiter", ...); adjectives ("male", "masculine") and abstract
    nouns ("manhood") are left out: the adjectives are identity terms of their own lists."""
    if swaps is None:
        return ()
    if not isinstance(swaps, str) or gender is None:
        raise source.error(
            f"{label} has swaps: {swaps!r}; expected the name of a gender-pair list "
            "(gender_pairs) and a gender: male or female beside it",
            *where,
            "swaps",
        )
    pairs = load_gender_pairs(swaps)
    side = "masculine" if gender == "male" else "feminine"
    words = (getattr(pair, side) for pair in pairs.pairs)
    return tuple(
        dict.fromkeys(
            w
            for w in words
            if w.lower() not in GENDER_ADJECTIVES | OFTEN_NOT_PEOPLE and not w.endswith("hood")
        )
    )


def _write_count(value: Any, available: int, label: str, source: Source, where: NodePath) -> int:
    """`write:`, how many of the `available` names a rewrite may write (0: all)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= available:
        raise source.error(
            f"{label} has write: {value!r}; expected a whole number from 1 to the number of "
            f"`names:` ({available}), or leave it out to write any of them",
            *where,
            "write",
        )
    return value


def parse_csv(source: Source) -> TermList:
    """The validated list a CSV file holds: the header ``category,term``, one term a line."""
    rows = list(csv.reader(io.StringIO(source.text)))
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    header = [cell.strip().lower() for cell in rows[0]] if rows else []
    if header != ["category", "term"]:
        raise TextfairError(
            f"{source.label}: CSV header is {','.join(header) or '(empty)'!r}; "
            "expected exactly 'category,term' on the first line"
        )
    categories: dict[str, list[Term]] = {}
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != 2 or not row[0].strip() or not row[1].strip():
            raise TextfairError(
                f"{source.label}: line {line} is {','.join(row)!r}; "
                "expected two non-empty cells: category,term"
            )
        category, text = row[0].strip(), row[1].strip()
        categories.setdefault(category, []).append(Term(text=text, category=category))
    return validated(
        TermList(
            name=Path(source.label).stem,
            categories={name: tuple(terms) for name, terms in categories.items()},
            path=source.label,
        )
    )


def _optional_str(value: Any, key: str, label: str, source: Source, where: NodePath) -> str | None:
    """A field of one word (`noun:`, `axis:`), stripped; None when not given."""
    if value is None or (isinstance(value, str) and value.strip()):
        return value.strip() if isinstance(value, str) else None
    raise source.error(f"{label} has {key}: {value!r}; expected a word", *where, key)


def _str_tuple(
    value: Any, key: str, label: str, source: Source, where: NodePath
) -> tuple[str, ...]:
    """A field of a word or a list of words (`plural:`, `aliases:`, ...), each stripped."""
    if value is None:
        return ()
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
        raise source.error(
            f"{label} has {key}: {value!r}; expected a word or a list of words", *where, key
        )
    return tuple(v.strip() for v in values)
