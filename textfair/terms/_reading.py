"""Where a term list's text comes from: the lists shipped with textfair (their names and
kinds, their files), a user's file by path, and its YAML read as a mapping.

The shipped lists live in the repository's top-level ``term_lists/`` (installed as the
package ``textfair.term_lists``); users pass their own YAML (same schema) or CSV
(``category,term``) files. Apart from the parsing of what a list holds
(:mod:`textfair.terms._entries`): this is all that touches files and resources.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from textfair.errors import TextfairError
from textfair.io import read_utf8
from textfair.terms._source import Source

__all__ = [
    "BUILTIN_TERM_LISTS",
    "builtin_term_lists",
    "parse_yaml",
    "read_data_words",
    "read_source",
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


def read_source(spec: str | Path, kind: str) -> Source:
    """The text of a built-in list of `kind` (``"terms"`` or ``"pairs"``) by name, or of a
    file by path; a one-line error for a list of the other kind, a missing file or a folder."""
    name = str(spec)
    if name in BUILTIN_TERM_LISTS:
        if BUILTIN_TERM_LISTS[name] != kind:
            wanted = [n for n, k in BUILTIN_TERM_LISTS.items() if k == kind]
            raise TextfairError(
                f"{name!r} is a list of {BUILTIN_TERM_LISTS[name]}, not of {kind}; "
                f"use one of: {', '.join(wanted)}"
            )
        return Source(f"{name} (built-in)", shipped_text(f"{name}.yaml"))
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
    return Source(str(path), text)


def parse_yaml(source: Source) -> dict[str, Any]:
    """The YAML mapping `source` holds; a one-line error for bad YAML or another value."""
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
