"""Term list files: the built-in lists and a user's YAML or CSV, read and validated.

The shipped lists live in the repository's top-level ``term_lists/`` (installed as the
package ``textfair.term_lists``); users pass their own YAML (same schema) or CSV
(``category,term``) files. Every malformed entry is a one-line error naming the file, the
entry and the fix.
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from textfair.errors import TextfairError
from textfair.io import read_utf8
from textfair.terms.model import GenderPair, GenderPairs, Term, TermList, normalize_form
from textfair.terms.source import Source as _Source

__all__ = [
    "BUILTIN_TERM_LISTS",
    "builtin_term_lists",
    "load_gender_pairs",
    "load_term_list",
    "read_data_words",
    "shipped_text",
]

#: Built-in lists: name -> kind ("terms" are categories of identity terms, "pairs" gender swaps).
BUILTIN_TERM_LISTS: dict[str, str] = {
    "dixon2018": "terms",
    "holistic": "terms",
    "names": "terms",
    "names_ethnicity": "terms",
    "nationality": "terms",
    "nationality_income": "terms",
    "pronouns": "terms",
    "gender_pairs": "pairs",
}

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
_PAIR_KEYS = ("masculine", "feminine", "when")
PRONOUNS = frozenset("he him his himself she her hers herself".split())
# "a host of problems": pair words that mostly name no person, left out of pronoun audits.
OFTEN_NOT_PEOPLE = frozenset({"host", "hostess"})
# Words of the gender pairs that describe rather than stand for a person.
GENDER_ADJECTIVES = frozenset(
    "male males female females masculine feminine paternal maternal".split()
)


def builtin_term_lists() -> dict[str, str]:
    """Names and kinds of the term lists shipped with textfair.

    Returns
    -------
    dict of str to str
        List name to kind: ``"terms"`` (categories of identity terms, for
        `load_term_list`) or ``"pairs"`` (gender swaps, for `load_gender_pairs`). A copy:
        changing it changes nothing.

    Examples
    --------
    >>> textfair.builtin_term_lists()  # doctest: +NORMALIZE_WHITESPACE
    {'dixon2018': 'terms', 'holistic': 'terms', 'names': 'terms', 'names_ethnicity': 'terms',
     'nationality': 'terms', 'nationality_income': 'terms', 'pronouns': 'terms',
     'gender_pairs': 'pairs'}
    """
    return dict(BUILTIN_TERM_LISTS)


def shipped_text(filename: str) -> str:
    """A file of the shipped term lists (the repository's top-level `term_lists/`, installed
    as the package `textfair.term_lists`).

    A source checkout reads the files of its own `term_lists/`, beside the `textfair/`
    package it imports: a checkout imported without installing it has no
    `textfair.term_lists`, and one imported beside an editable install of another checkout
    (a second git worktree) would read that checkout's lists through it.
    """
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "term_lists" / filename).is_file():
        return (checkout / "term_lists" / filename).read_text("utf-8")
    return resources.files("textfair.term_lists").joinpath(filename).read_text("utf-8")


def read_data_words(filename: str) -> list[str]:
    """Read a shipped one-entry-per-line data file, skipping blanks and '#' comments."""
    text = shipped_text(filename)
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


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
    return _term_list_of(_read_source(spec, kind="terms"))


@functools.cache
def _builtin_term_list(name: str) -> TermList:
    """A shipped list, parsed once per process (its YAML takes a tenth of a second)."""
    return _term_list_of(_read_source(name, kind="terms"))


def _term_list_of(source: _Source) -> TermList:
    if source.label.lower().endswith(".csv"):
        return _parse_csv(source)
    data = _parse_yaml(source)
    return _parse_term_mapping(data, source)


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
    return _validated(
        TermList(
            name="+".join(t.name for t in lists),
            categories=categories,
            description="; ".join(t.description for t in lists if t.description),
            source="; ".join(t.source for t in lists if t.source),
            licence="; ".join(t.licence for t in lists if t.licence),
            path=",".join(t.path or t.name for t in lists),
        )
    )


def load_gender_pairs(spec: str | Path = "gender_pairs") -> GenderPairs:
    """Load the gender-swap pairs: the built-in list by name or a YAML file with `pairs:`.

    Parameters
    ----------
    spec
        ``"gender_pairs"`` (default, the built-in list) or the path of a YAML file whose
        ``pairs:`` list holds ``{masculine: WORD, feminine: WORD}`` entries, each with an
        optional ``when: before_noun`` or ``when: not_before_noun``.

    Returns
    -------
    GenderPairs
        The pairs, with the list's name (by default the file's stem), description, source
        and licence.

    Raises
    ------
    TextfairError
        No such list or file, a built-in list of terms rather than of pairs, an empty or
        missing ``pairs:`` list, or a malformed pair.

    Examples
    --------
    >>> pairs = textfair.load_gender_pairs()
    >>> pairs.name, pairs.pairs[0].masculine, pairs.pairs[0].feminine
    ('gender_pairs', 'he', 'she')
    """
    source = _read_source(spec, kind="pairs")
    data = _parse_yaml(source)
    pairs_raw = data.get("pairs")
    if not isinstance(pairs_raw, list) or not pairs_raw:
        raise TextfairError(
            f"{source.label}: expected a non-empty `pairs:` list of "
            "{masculine: ..., feminine: ...} entries; add one"
        )
    pairs = []
    for index, entry in enumerate(pairs_raw, start=1):
        if not isinstance(entry, dict) or not {"masculine", "feminine"} <= set(entry):
            raise TextfairError(
                f"{source.label}: pair {index} is {entry!r}; expected "
                "{masculine: WORD, feminine: WORD}"
            )
        _reject_unknown_keys(entry, _PAIR_KEYS, source, f"pair {index}", ("pairs", index - 1))
        when = entry.get("when")
        if when not in (None, "before_noun", "not_before_noun"):
            raise TextfairError(
                f"{source.label}: pair {index} has when: {when!r}; "
                "expected before_noun or not_before_noun"
            )
        pairs.append(GenderPair(str(entry["masculine"]), str(entry["feminine"]), when))
    return GenderPairs(
        name=str(data.get("name", Path(source.label).stem)),
        pairs=tuple(pairs),
        description=str(data.get("description", "")),
        source=str(data.get("source", "")),
        licence=str(data.get("licence", "")),
        path=source.label,
    )


def _read_source(spec: str | Path, kind: str) -> _Source:
    name = str(spec)
    if name in BUILTIN_TERM_LISTS:
        if BUILTIN_TERM_LISTS[name] != kind:
            wanted = [n for n, k in BUILTIN_TERM_LISTS.items() if k == kind]
            raise TextfairError(
                f"{name!r} is a list of {BUILTIN_TERM_LISTS[name]}, not of {kind}; "
                f"use one of: {', '.join(wanted)}"
            )
        return _Source(f"{name} (built-in)", shipped_text(f"{name}.yaml"))
    path = Path(spec)
    if not path.exists():
        available = ", ".join(n for n, k in BUILTIN_TERM_LISTS.items() if k == kind)
        raise TextfairError(
            f"unknown term list {name!r}: no built-in list and no file by that name; "
            f"available: {available}, or pass a path to a .yaml or .csv file"
        )
    if path.is_dir():
        raise TextfairError(f"{path}: is a directory; pass a .yaml or .csv term list file")
    text = read_utf8(path)
    return _Source(str(path), text)


def _parse_yaml(source: _Source) -> dict[str, Any]:
    from textfair.io import load_yaml

    data = load_yaml(
        source.text,
        source.label,
        "fix the syntax or validate it with `textfair terms validate FILE`",
    )
    if not isinstance(data, dict):
        raise TextfairError(
            f"{source.label}: expected a YAML mapping with a `categories:` key, "
            f"got {type(data).__name__}; see term_lists/dixon2018.yaml for the format"
        )
    return data


def _parse_term_mapping(data: dict[str, Any], source: _Source) -> TermList:
    _reject_unknown_keys(data, _LIST_KEYS, source, "the top level", ())
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
    return _validated(
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


def _parse_term(entry: Any, category: str, source: _Source, where: tuple) -> Term:
    if isinstance(entry, str):
        entry = {"term": entry}
    if not isinstance(entry, dict) or not isinstance(entry.get("term"), str):
        raise source.error(
            f"entry {entry!r} in category {category!r} has no `term:`; "
            "write a plain string or a mapping with a `term:` key",
            *where,
        )
    label = f"term {entry['term']!r} (category {category!r})"
    _reject_unknown_keys(entry, tuple(_TERM_KEYS), source, label, where)
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
    value: Any, category: str, label: str, source: _Source, where: tuple
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


def _related(value: Any, label: str, source: _Source, where: tuple) -> tuple[tuple[str, str], ...]:
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
    swaps: Any, gender: str | None, label: str, source: _Source, where: tuple
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


def _write_count(value: Any, available: int, label: str, source: _Source, where: tuple) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= available:
        raise source.error(
            f"{label} has write: {value!r}; expected a whole number from 1 to the number of "
            f"`names:` ({available}), or leave it out to write any of them",
            *where,
            "write",
        )
    return value


def _parse_csv(source: _Source) -> TermList:
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
    return _validated(
        TermList(
            name=Path(source.label).stem,
            categories={name: tuple(terms) for name, terms in categories.items()},
            path=source.label,
        )
    )


def _validated(term_list: TermList, source: _Source | None = None) -> TermList:
    """Reject lists that cannot yield counterfactuals or that match ambiguously."""
    source = source or _Source(term_list.path or term_list.name, "")
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


def _reject_unknown_keys(
    entry: Mapping[str, Any], allowed: tuple[str, ...], source: _Source, what: str, path: tuple
) -> None:
    unknown = [key for key in entry if key not in allowed]
    if unknown:
        raise source.error(
            f"unknown key {str(unknown[0])!r} in {what}; expected one of: {', '.join(allowed)}",
            *path,
            unknown[0],
        )


def _optional_str(value: Any, key: str, label: str, source: _Source, where: tuple) -> str | None:
    if value is None or (isinstance(value, str) and value.strip()):
        return value.strip() if isinstance(value, str) else None
    raise source.error(f"{label} has {key}: {value!r}; expected a word", *where, key)


def _str_tuple(value: Any, key: str, label: str, source: _Source, where: tuple) -> tuple[str, ...]:
    if value is None:
        return ()
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
        raise source.error(
            f"{label} has {key}: {value!r}; expected a word or a list of words", *where, key
        )
    return tuple(v.strip() for v in values)
