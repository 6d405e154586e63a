"""The gender-swap pairs: :func:`load_gender_pairs`, and the word sets that say which of
their words stand for a person (pronouns, adjectives, words that mostly name no one).

Apart from the term lists' parsing (:mod:`textfair.terms._entries`) because a term of a
pronoun category is made of one side of the pairs (``swaps: gender_pairs``): the entries read
the pairs, never the reverse.
"""

from __future__ import annotations

from pathlib import Path

from textfair.errors import TextfairError
from textfair.terms._reading import parse_yaml, read_source
from textfair.terms._validation import reject_unknown_keys
from textfair.terms.lists import GenderPair, GenderPairs

__all__ = ["GENDER_ADJECTIVES", "OFTEN_NOT_PEOPLE", "PRONOUNS", "load_gender_pairs"]

_PAIR_KEYS = ("masculine", "feminine", "when")
# The pairs' pronouns: words for a person even when capitalised ("His message").
PRONOUNS = frozenset("he him his himself she her hers herself".split())
# "a host of problems": pair words that mostly name no person, left out of pronoun audits.
OFTEN_NOT_PEOPLE = frozenset({"host", "hostess"})
# Words of the gender pairs that describe rather than stand for a person.
GENDER_ADJECTIVES = frozenset(
    "male males female females masculine feminine paternal maternal".split()
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
    source = read_source(spec, kind="pairs")
    data = parse_yaml(source)
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
        reject_unknown_keys(entry, _PAIR_KEYS, source, f"pair {index}", ("pairs", index - 1))
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
