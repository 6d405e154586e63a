"""Identity term lists: load, validate and describe them (types in `model`, files in
`files`)."""

from textfair.terms.files import (
    BUILTIN_TERM_LISTS,
    builtin_term_lists,
    load_gender_pairs,
    load_term_list,
    read_data_words,
    shipped_text,
)
from textfair.terms.model import GenderPair, GenderPairs, Term, TermList, normalize_form

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
