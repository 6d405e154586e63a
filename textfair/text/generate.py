"""Generators of counterfactual texts: pure functions from a seed text to its variants.

Each returns :class:`~textfair.text.variants.Variant` objects that carry the new text and
what was swapped, so variants can be fed to another generator, flattened into one batched
model call and mapped back (CheckList's design), or written out as augmentation data. Every
random choice takes an explicit ``seed``.

- :func:`counterfactuals` — every text that differs from the seed only in the identity terms
  of some categories (enumerated when there are at most ``max_variants``, sampled otherwise);
- :func:`swap_term` — every mention of one term replaced by another;
- :func:`plan_text` — the coherence plan of each category a text names, which the
  generators consult.

The other generators: the rule-satisfying rewrites (:mod:`textfair.text.rule_satisfying`),
the gender swap (:mod:`textfair.text.gender`), the templates (:mod:`textfair.text.templates`).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from typing import TypedDict

from textfair.errors import TextfairError
from textfair.terms import Term
from textfair.text._acceptability import keep_acceptable, scorer_of
from textfair.text._assignments import slots_of, target_assignments
from textfair.text._coherence import CategoryPlan, coherence_of, world_of
from textfair.text._minors import names_a_minor, sexual_content
from textfair.text.matcher import Matcher, default_matcher
from textfair.text.mentions import Mention
from textfair.text.rewrite import Rewriter
from textfair.text.variants import Swap, Variant

__all__ = [
    "DEFAULT_MAX_VARIANTS",
    "CounterfactualOptions",
    "counterfactuals",
    "plan_text",
    "swap_term",
]

DEFAULT_MAX_VARIANTS = 256


class CounterfactualOptions(TypedDict, total=False):
    """The options of `counterfactuals` a caller passes on by keyword (a domain's
    `counterfactuals` gives the text, its categories, the matcher and the seed's id)."""

    max_variants: int
    seed: int
    with_edits: bool
    mentions: Sequence[Mention] | None
    exclude: Collection[str]
    min_acceptability: float
    private_names: bool


def counterfactuals(
    text: str,
    categories: Sequence[str] | None = None,
    *,
    matcher: Matcher | None = None,
    max_variants: int = DEFAULT_MAX_VARIANTS,
    seed: int = 0,
    seed_id: int | str | None = None,
    with_edits: bool = True,
    mentions: Sequence[Mention] | None = None,
    exclude: Collection[str] = (),
    min_acceptability: float = 0.0,
    private_names: bool = False,
) -> list[Variant]:
    r"""All texts that differ from `text` only in the identity terms of `categories`.

    Every mention of one term changes together; distinct terms of a category stay distinct
    ("Christians and Muslims" never becomes "Taoists and Taoists"), so each variant still
    names distinct groups. A category's terms become only the terms its coherence plan
    allows (those of the mention's axis, less those the text contradicts), and words related
    to the term ("synagogue" for "Jewish") are rewritten with it. When more than
    `max_variants` variants exist, `max_variants` of them are drawn uniformly without
    replacement with `seed`; otherwise all are returned in a fixed order.

    Parameters
    ----------
    text
        The seed text.
    categories
        The categories whose terms change, jointly; None (default): all of them.
    matcher
        The `Matcher` of the term list; by default the built-in dixon2018 list's.
    max_variants
        The most variants returned (256 by default), a positive integer.
    seed
        Seeds the draw when there are more than `max_variants` variants.
    seed_id
        The seed text's id, carried by every variant.
    with_edits
        Record each variant's span map (`Variant.edits`); off is faster.
    mentions
        The text's mentions, when they were found already (an annotated corpus).
    exclude
        Term ids that are neither rewritten nor written, as if not in the list.
    min_acceptability
        Targets whose acceptability score (`textfair.text._acceptability`) is below this
        are not written; a category left with none is not rewritten. 0 (default): all.
    private_names
        Take every first name (a names list's) for a private person's: a corpus of
        applicants, customers or template slots. False (default): only a name the text
        shows to be one ("my friend Tyrone", "a guy named Tyrone", "I'm Emily", "Hi
        Peter,"); a text naming anyone else by first name is not rewritten.

    Returns
    -------
    list of Variant
        The variants, each with its `acceptability`: the product of its swaps' scores.
        An empty list when the text mentions no term of those categories, or when the rest
        of the text keeps each category it mentions from being rewritten (a fixed mention
        such as "Roman Catholics", an identity also named in a title or an institution
        such as "Catholic Church", a cue of the identity, no other term that fits, or none
        scoring at `min_acceptability`).

    Raises
    ------
    TextfairError
        `max_variants` below 1, or a category the term list does not have.

    Notes
    -----
    Let the text name $m_c$ distinct terms of category $c$, each of which may
    become one of $k_c$ terms (the allowed targets and the text's own terms). The
    distinct terms of a category map injectively to those, so there are

    $$
    N = \prod_c \frac{k_c!}{(k_c - m_c)!} - 1
    $$

    variants (the identity assignment left out). With $N \le$ `max_variants` all are
    enumerated; otherwise assignments are drawn uniformly at random and repeats dropped
    until `max_variants` distinct ones are found.

    Examples
    --------
    >>> variants = textfair.counterfactuals("A gay man met an Asian woman.", ["race"])
    >>> [v.text for v in variants]  # doctest: +NORMALIZE_WHITESPACE
    ['A gay man met an African woman.', 'A gay man met a European woman.',
     'A gay man met a Middle Eastern woman.']
    >>> len(textfair.counterfactuals("Christians and Muslims met.", ["religion"]))
    71
    """
    if max_variants < 1:
        raise TextfairError(f"max_variants is {max_variants}; expected a positive integer")
    matcher = matcher or default_matcher()
    names = matcher.term_list.category_names(list(categories) if categories else None)
    if mentions is None:
        mentions = matcher.find(text, names)
    mentions = [m for m in mentions if m.category in names and m.term_id not in exclude]
    if not mentions:
        return []  # most texts, for most categories
    plans = plan_text(text, mentions, matcher, names, several=True, private_names=private_names)
    if not plans:
        return []
    scorer = scorer_of(matcher)
    related = {c: len(plan.related) for c, plan in plans.items()}
    if min_acceptability > 0.0:
        plans = {
            c: keep_acceptable(
                plan,
                scorer.scores(text, text, mentions, c, related[c]),
                scorer.columns(c),
                min_acceptability,
            )
            for c, plan in plans.items()
        }
    seed_mentions = mentions
    mentions = [
        *(m for m in mentions if plans[m.category].left_out is None),
        *(m for plan in plans.values() if plan.left_out is None for m in plan.related),
    ]
    if not mentions:
        return []
    rewriter = Rewriter(text, mentions)
    slots = slots_of(rewriter.mentions)
    sources = {(slot.category, slot.source.id) for slot in slots}
    options = {
        name: [
            t
            for t in matcher.term_list.categories[name]
            if t.id not in exclude and (t.id in plans[name].targets or (name, t.id) in sources)
        ]
        for name in {slot.category for slot in slots}
    }
    variants = []
    product = functools.partial(scorer.product, text, text, seed_mentions)
    choices = [(slot, options[slot.category]) for slot in slots]  # read once per variant
    for assignment in target_assignments(slots, options, max_variants, seed):
        targets: dict[int, Term] = {}
        swaps = []
        for (slot, terms), pick in zip(choices, assignment, strict=True):
            target = terms[pick]
            if target.id != slot.source.id:
                swaps.append(Swap(slot.category, slot.source.id, target.id))
                for index in slot.mention_indices:
                    targets[index] = target
        result = rewriter.apply(targets, with_edits=with_edits)
        swapped = tuple(swaps)
        # Scored when read: scoring every variant would cost a fifth of the generation rate.
        score = functools.partial(product, swapped, related)
        world = world_of(plans, {s.category for s in swapped})
        variants.append(Variant(result.text, result.edits, swapped, seed_id, score, world))
    return variants


def plan_text(
    text: str,
    mentions: Sequence[Mention],
    matcher: Matcher,
    categories: Sequence[str],
    several: bool = False,
    private_names: bool = False,
) -> dict[str, CategoryPlan]:
    """The coherence plan of each category `mentions` name (see `textfair.text._coherence`):
    whether the text takes part in its rows, to which terms, with which related words
    (`private_names`: every first name is a private person's, `Coherence.plan`)."""
    if not mentions:
        return {}
    # Other uses matter only for the categories the text mentions.
    named = list(dict.fromkeys(m.category for m in mentions if m.category in categories))
    return coherence_of(matcher).plan(
        text, mentions, matcher.other_uses(text, named), several, private_names
    )


def swap_term(
    text: str,
    source: str,
    target: str,
    *,
    matcher: Matcher | None = None,
    seed_id: int | str | None = None,
) -> Variant | None:
    """Replace every mention of term `source` with term `target` ("gay" -> "Muslim").

    The two terms may be of different categories; the text's other mentions stay as they
    are. Unlike `counterfactuals`, no coherence plan is consulted: every mention of
    `source` is rewritten, fixed ones included.

    Parameters
    ----------
    text
        The seed text.
    source, target
        Terms, by id or any written form (see `TermList.term`).
    matcher
        The `Matcher` of the term list; by default the built-in dixon2018 list's.
    seed_id
        The seed text's id, carried by the variant.

    Returns
    -------
    Variant or None
        The text with every mention of `source` rewritten, and one `Swap` (in `source`'s
        category); None when the text does not mention `source`, or when `target` can name a
        minor ("teenage") and the text has sexual content: no minor is written into sexual
        text.

    Raises
    ------
    TextfairError
        A term the list does not have.

    Examples
    --------
    >>> textfair.swap_term("Muslims are my neighbours.", "muslim", "gay").text
    'Gay people are my neighbours.'
    >>> textfair.swap_term("The sky is blue.", "muslim", "gay") is None
    True
    """
    matcher = matcher or default_matcher()
    old, new = matcher.term_list.term(source), matcher.term_list.term(target)
    mentions = [m for m in matcher.find(text) if m.term == old]
    if not mentions:
        return None
    if names_a_minor(new) and sexual_content(text):
        return None  # no minor is written into sexual text (`textfair.text._minors`)
    rewriter = Rewriter(text, mentions)
    result = rewriter.apply(dict.fromkeys(range(len(mentions)), new))
    swap = Swap(old.category, old.id, new.id)
    return Variant(result.text, result.edits, (swap,), seed_id)
