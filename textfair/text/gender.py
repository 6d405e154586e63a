"""Swap gendered words in a text: "He loves her" -> "She loves him" (the counterparts of
each word in its context are `counterparts.GenderCounterparts`'s)."""

from __future__ import annotations

from functools import cache

from textfair.text import context
from textfair.text.counterparts import GenderCounterparts
from textfair.text.generate import Swap, Variant
from textfair.text.rewrite import Edit, apply_case, case_style

__all__ = ["GenderSwapper", "gender_swap"]

CATEGORY = "gender_pairs"


class GenderSwapper(GenderCounterparts):
    """Swaps every gendered word of a pair list in a text; build once, call `swap` often."""

    def swap(self, text: str, seed_id: int | str | None = None) -> Variant | None:
        """The text with every gendered word swapped, or None when it has none."""
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
    """Swap every gendered word of the built-in pair list ("He loves her" -> "She loves him")."""
    return gender_swapper().swap(text, seed_id)
