"""Swap gendered words in a text: "He loves her" -> "She loves him" (the counterparts of
each word in its context are `counterparts.GenderCounterparts`'s)."""

from __future__ import annotations

from functools import cache

from textfair.text import _context as context
from textfair.text._counterparts import GenderCounterparts
from textfair.text.rewrite import Edit, apply_case, case_style
from textfair.text.variants import Swap, Variant

__all__ = ["GenderSwapper", "gender_swap"]

CATEGORY = "gender_pairs"


class GenderSwapper(GenderCounterparts):
    """Swaps every gendered word of a pair list in a text; build once, call `swap` often.

    English has one feminine word for two masculine ones (``"her"`` is both ``"his"`` and
    ``"him"``) and the reverse (``"his"`` is both ``"her"`` and ``"hers"``); the pair list
    says which counterpart applies before a noun (``"her car"`` -> ``"his car"``) and which
    otherwise (``"saw her."`` -> ``"saw him."``), and the swapper reads the context to pick.

    Parameters
    ----------
    pairs
        A `GenderPairs`, or what `load_gender_pairs` reads (a built-in list's name or a YAML
        file); ``"gender_pairs"`` by default.

    Attributes
    ----------
    pairs : GenderPairs
        The pairs it swaps.

    Examples
    --------
    >>> swapper = textfair.GenderSwapper()
    >>> swapper.swap("His car is hers. The waiter thanked her.").text
    'Her car is his. The waitress thanked him.'
    """

    def swap(self, text: str, seed_id: int | str | None = None) -> Variant | None:
        """The text with every gendered word swapped, or None when it has none.

        Words are matched case-insensitively on word boundaries; each is written in the
        case of the word it replaces (``"HIS"`` -> ``"HER"``, ``"His"`` -> ``"Her"``), and
        a possessive ``'s`` is kept.

        Parameters
        ----------
        text
            The text.
        seed_id
            The text's id, carried by the variant.

        Returns
        -------
        Variant or None
            The swapped text, its span map, and one `Swap` per distinct (word, counterpart)
            pair, in category ``"gender_pairs"``, with the lowercased word as ``source``;
            None when the text holds no gendered word of the list.
        """
        pieces: list[str] = []
        edits: list[Edit] = []
        swaps: dict[tuple[str, str], None] = {}  # an ordered set of (source, target) pairs
        cursor = length = 0
        for match in self._pattern.finditer(text):
            word = match.group("m")
            other = self.counterpart(word, text, match.end("m"))
            initial = word[0].isupper() and context.is_sentence_initial(text, match.start())
            new = apply_case(other, case_style(word, word.lower()), initial)
            new += match.group("poss") or ""
            start, end = match.span()
            pieces.append(text[cursor:start])
            length += start - cursor
            edits.append(Edit("term", start, end, length, length + len(new), text[start:end], new))
            pieces.append(new)
            length += len(new)
            cursor = end
            swaps.setdefault((word.lower(), other), None)
        if not edits:
            return None
        pieces.append(text[cursor:])
        return Variant(
            "".join(pieces),
            edits=tuple(edits),
            swaps=tuple(Swap(CATEGORY, source, target) for source, target in swaps),
            seed_id=seed_id,
        )


@cache
def gender_swapper(pairs: str = "gender_pairs") -> GenderSwapper:
    """The swapper of a gender-pair list, built once."""
    return GenderSwapper(pairs)


def gender_swap(text: str, seed_id: int | str | None = None) -> Variant | None:
    """Swap every gendered word of the built-in pair list ("He loves her" -> "She loves him").

    `GenderSwapper.swap` of one swapper of the built-in ``gender_pairs`` list, built once
    per process.

    Parameters
    ----------
    text
        The text.
    seed_id
        The text's id, carried by the variant.

    Returns
    -------
    Variant or None
        The swapped text; None when it holds no gendered word.

    Examples
    --------
    >>> textfair.gender_swap("He loves her.").text
    'She loves him.'
    >>> textfair.gender_swap("The sky is blue.") is None
    True
    """
    return gender_swapper().swap(text, seed_id)
