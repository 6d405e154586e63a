"""Where a swap would make an idiom: "a young friend" is a mention of "young", but its swap to
"old" writes "an old friend", which says something else. Read from the listed
collocations (the same file the matcher's collocation gate reads) and the list's forms:
per category, the words around a term's form in each collocation. Apart from the matcher
because it is its own question, asked of a mention once the gates have kept it.
"""

from __future__ import annotations

import functools

from textfair.terms import Term, normalize_form
from textfair.text import _context as context
from textfair.text._phrase_gates import WORDS

__all__ = ["IdiomSwaps"]

# A collocation around a term's form: the term's id, the words before it, the words after.
_Idiom = tuple[str, tuple[str, ...], tuple[str, ...]]


class IdiomSwaps:
    """The collocations another term of a mention's category would form in its place;
    build once per term list's forms (a matcher's), ask `swap_makes_collocation` per
    mention."""

    def __init__(self, forms: dict[str, tuple[Term, str, str]]) -> None:
        self._forms = forms

    def swap_makes_collocation(self, text: str, start: int, end: int, term: Term) -> bool:
        """Some other term of the category would form a collocation here ("a young friend"
        -> "an old friend", "good young fun" -> "good old fun"): the mention has no
        rewrite that every term can take, so it is never rewritten."""
        by_neighbour = self._idiom_contexts().get(term.category)
        if not by_neighbour:
            return False  # no listed collocation has a term of this category
        # Plain words on each side: cheaper than tokenizing, and enough for a comparison.
        # The next word and the previous one index the collocations: the words after the
        # candidate are read only when one of them is listed (rarely). The words before
        # cost more to read (all of a window's): they are read for the key only where the
        # category has a collocation keyed by its word before (religion has none).
        following = WORDS.search(text, end, end + 40)
        candidates = by_neighbour.get(("after", following.group().lower()), ()) if following else ()
        preceding: list[str] | None = None
        if term.category in self._idioms_keyed_before():
            preceding = _words_before(text, start)
            if preceding:
                candidates += by_neighbour.get(("before", preceding[-1].lower()), ())
        if not candidates:
            return False
        if preceding is None:
            preceding = _words_before(text, start)
        before = [w.lower() for w in preceding]
        after = [w.lower() for w in WORDS.findall(text, end, end + 40)[:3]]
        return any(
            other != term.id
            and tuple(before[len(before) - len(left) :]) == left
            and tuple(after[: len(right)]) == right
            for other, left, right in candidates
        )

    @functools.cache  # noqa: B019 - one per matcher, kept for the process
    def _idiom_contexts(self) -> dict[str, dict[tuple[str, str], tuple[_Idiom, ...]]]:
        """Per category, the words around a term's form in each collocation, indexed by the
        word next to it: "old friend" gives (old, (), (friend,)) under ("after", "friend")
        for age, so "a young friend" is an idiom away."""
        found: dict[str, dict[tuple[str, str], list[_Idiom]]] = {}
        for phrase in context.read_data_words("collocations.txt"):
            words = normalize_form(phrase).split()
            for size in (1, 2, 3):
                for k in range(len(words) - size + 1):
                    form = self._forms.get(" ".join(words[k : k + size]))
                    left, right = tuple(words[:k]), tuple(words[k + size :])
                    if form and (left or right):
                        key = ("after", right[0]) if right else ("before", left[-1])
                        entry = (form[0].id, left, right)
                        found.setdefault(form[0].category, {}).setdefault(key, []).append(entry)
        return {
            c: {key: tuple(dict.fromkeys(v)) for key, v in by_key.items()}
            for c, by_key in found.items()
        }

    @functools.cache  # noqa: B019 - one per matcher, kept for the process
    def _idioms_keyed_before(self) -> frozenset[str]:
        """The categories with a collocation indexed by the word before the term's form."""
        return frozenset(
            category
            for category, by_neighbour in self._idiom_contexts().items()
            if any(side == "before" for side, _ in by_neighbour)
        )


def _words_before(text: str, start: int) -> list[str]:
    """The last three words (letters only) in the 40 characters before `start`."""
    return WORDS.findall(text, max(0, start - 40), start)[-3:]
