"""What every generator returns: a :class:`Variant` (the new text, its span map from the seed,
what was swapped, the seed's id, its acceptability) and the :class:`Swap` s it carries.

Apart from the generators (:mod:`textfair.text.generate`, :mod:`textfair.text.rule_satisfying`,
:mod:`textfair.text.gender`, :mod:`textfair.text.templates`) because each of them, and the text
domain, builds these value objects: the types are shared, the ways to make them are not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from textfair.text.rewrite import Rewrite

__all__ = ["Swap", "Variant", "rounded", "with_acceptability"]


# Slots: an audit makes tens of thousands of these value objects; no per-object dict.
@dataclass(frozen=True, slots=True)
class Swap:
    """One term replaced by another everywhere it is mentioned in a text.

    Attributes
    ----------
    category : str
        The replaced term's category (``"gender_pairs"`` for a gender swap).
    source : str
        The replaced term's id in the term list (the word itself for a gender swap; the
        slot, ``"{identity}"``, for a template's filling).
    target : str
        The id of the term written instead.

    Examples
    --------
    >>> textfair.swap_term("Muslims are my neighbours.", "muslim", "jewish").swaps
    (Swap(category='religion', source='muslim', target='jewish'),)
    """

    category: str
    source: str
    """The replaced term's id in the term list (the word itself for a gender swap)."""
    target: str
    """The id of the term written instead."""


@dataclass(frozen=True, slots=True)
class Variant(Rewrite):
    """A rewrite of a seed text that swapped identity terms: the text, the span map from the
    seed (`edits`), what was swapped, and the seed's id.

    What every generator returns. Variants can be fed to another generator, flattened into
    one batched model call and mapped back by `seed_id` (CheckList's design), or written out
    as augmentation data (`to_record`).

    Attributes
    ----------
    text : str
        The new text.
    edits : tuple of Edit
        Where each change lies in the seed and in `text` (empty when not asked for, and
        for a template's filling).
    swaps : tuple of Swap
        What was swapped, one `Swap` per distinct term changed.
    seed_id : int, str or None
        The seed text's id, carried into the JSON-lines record.
    acceptability : float or None
        The calibrated probability that a strict reader accepts the variant.
    world : str or None
        What the variant rests on where it may be false about a real, named person or work
        ("full name 'Charles Lindbergh'"): coherent, and a valid test of whether the
        decision depends on the identity term, flagged WORLD (issue 56); None for none.

    Examples
    --------
    >>> variant = textfair.swap_term("Muslims are my neighbours.", "muslim", "jewish")
    >>> variant.text
    'Jews are my neighbours.'
    """

    swaps: tuple[Swap, ...] = ()
    seed_id: int | str | None = None
    """The seed text's id, carried into the JSON-lines record."""
    scoring: float | Callable[[], float] | None = field(default=None, compare=False, repr=False)
    """The acceptability, or the function that computes it when first read (a generator
    asked for many variants scores only those whose score is read); see `acceptability`."""
    world: str | None = None
    """What the variant rests on where it may be false about a real, named person or work
    (WORLD, issue 56); None for none."""

    @property
    def acceptability(self) -> float | None:
        """The probability that a strict reader accepts the variant
        (`textfair.text._acceptability`: the product over its swapped categories); None
        where no score applies (a gender swap, a template's filling)."""
        score = self.scoring
        if callable(score):
            score = score()
            object.__setattr__(self, "scoring", score)  # computed once
        return score

    @property
    def input(self) -> str:
        """What the model is given: the text (a tabular domain's variants give a row)."""
        return self.text

    def to_record(self) -> dict[str, object]:
        """The JSON-lines record, as ``textfair counterfactuals`` writes it.

        Returns
        -------
        dict
            ``seed_id``, ``text``, ``category``, ``from`` and ``to`` (``"+"``-joined when
            several terms were swapped), ``acceptability`` (3 decimals, or None),
            ``swaps``: a list of ``{"category", "from", "to"}``, one per swap, and
            ``world``: what the variant rests on where it may be false about a real, named
            person or work (WORLD), or None.

        Examples
        --------
        >>> variant = textfair.swap_term("Muslims are my neighbours.", "muslim", "jewish")
        >>> variant.to_record()["to"]
        'jewish'
        """
        return {
            "seed_id": self.seed_id,
            "text": self.text,
            "category": "+".join(s.category for s in self.swaps),
            "from": "+".join(s.source for s in self.swaps),
            "to": "+".join(s.target for s in self.swaps),
            "acceptability": rounded(self.acceptability),
            "swaps": [
                {"category": s.category, "from": s.source, "to": s.target} for s in self.swaps
            ],
            "world": self.world,
        }


def with_acceptability(
    examples: Sequence[Mapping[str, Any]], score_of: Callable[[str], float | None]
) -> list[dict[str, Any]]:
    """A finding's examples (``text``, ``counterfactual``, ...) with the acceptability of
    each text, 3 decimals (``acceptability``, ``counterfactual_acceptability``)."""
    return [
        {
            **example,
            "acceptability": rounded(score_of(example["text"])),
            "counterfactual_acceptability": rounded(score_of(example["counterfactual"])),
        }
        for example in examples
    ]


def rounded(score: float | None) -> float | None:
    """An acceptability score as every output writes it: 3 decimals (None stays None)."""
    return None if score is None else round(float(score), 3)
