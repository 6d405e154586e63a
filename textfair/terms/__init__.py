"""Identity term lists: load, validate and describe them (a term in `term`, the lists in
`lists`; loading them in `files`, over `reading`, `entries`, `validation` and `pairs`)."""

from textfair.terms._files import load_term_list
from textfair.terms._reading import (
    BUILTIN_TERM_LISTS,
    builtin_term_lists,
    read_data_words,
    shipped_text,
)
from textfair.terms._term import Term, normalize_form
from textfair.terms.lists import GenderPair, GenderPairs, TermList
from textfair.terms.pairs import load_gender_pairs

__all__ = [
    "BUILTIN_TERM_LISTS",
    "GenderPair",
    "GenderPairs",
    "Term",
    "TermList",
    "builtin_term_lists",
    "load_gender_pairs",
    "load_term_list",
    "normalize_form",
    "read_data_words",
    "shipped_text",
]
