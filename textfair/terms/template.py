"""A commented term-list template for `textfair terms new`."""

from __future__ import annotations

from textfair.terms._entries import _TERM_KEYS

__all__ = ["term_list_template"]


def term_list_template(name: str = "my_terms") -> str:
    """A commented YAML term list that validates as it is: the schema, documented by the
    same table the parser checks against, and a small example to edit."""
    keys = "\n".join(f"#   {key + ':':<16}{meaning}" for key, meaning in _TERM_KEYS.items())
    return f"""\
# A textfair term list. Check it with: textfair terms validate FILE
# Use it with:                        textfair audit --terms FILE
#
# Each category lists two or more terms; an audit swaps a mention of one term for the others
# of its category. A term is a plain string, or a mapping with these keys:
{keys}
name: {name}
description: What these terms are for, in one line.
source: Where the terms come from (a paper, a dataset).
licence: The licence of the source.
categories:
  religion:
    - Muslim
    - Christian
    - term: Jewish
      noun: Jew
      plural: Jews
  age:
    - term: young
      person_context: true
    - term: old
      person_context: true
"""
