"""Generators of test texts: pure functions from a seed text to its variants.

Each returns :class:`Variant` objects that carry the new text and what was swapped, so
variants can be fed to another generator, flattened into one batched model call and mapped
back (CheckList's design), or written out as augmentation data. Every random choice takes
an explicit ``seed``.

- :func:`counterfactuals` — every text that differs from the seed only in the identity terms
  of some categories (enumerated when there are at most ``max_variants``, sampled otherwise);
- :func:`rule_satisfying` — TestSGD's Sample(D, R) rewrite: every mention of a category of
  the rule set becomes the rule set's term ("I am a lesbian" -> "I am a gay person");
- :func:`sample_rule_satisfying` — Sample(D, R) over a corpus: n random seeds, rewritten;
- :func:`gender_swap` — the text with every gendered word swapped (he <-> she, ...).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.random  # numpy loads it on first use: the first text sampled (12 ms)

from textfair.errors import TextfairError
from textfair.terms import Term
from textfair.text.acceptability import keep_acceptable, scorer_of
from textfair.text.coherence import CategoryPlan, coherence_of
from textfair.text.matcher import Matcher, default_matcher
from textfair.text.mentions import Mention
from textfair.text.rewrite import Rewrite, Rewriter

__all__ = [
    "Swap",
    "Variant",
    "counterfactuals",
    "rule_satisfying",
    "sample_rule_satisfying",
    "swap_term",
]

DEFAULT_MAX_VARIANTS = 256


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

    @property
    def acceptability(self) -> float | None:
        """The probability that a strict reader accepts the variant
        (`textfair.text.acceptability`: the product over its swapped categories); None
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
            several terms were swapped), ``acceptability`` (3 decimals, or None), and
            ``swaps``: a list of ``{"category", "from", "to"}``, one per swap.

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
        }


def rounded(score: float | None) -> float | None:
    """An acceptability score as every output writes it: 3 decimals (None stays None)."""
    return None if score is None else round(float(score), 3)


@dataclass(frozen=True)
class _Slot:
    """A distinct term of the seed text: all its mentions change together."""

    category: str
    source: Term
    mention_indices: tuple[int, ...]


def _slots(mentions: Sequence[Mention]) -> list[_Slot]:
    by_term: dict[tuple[str, str], list[int]] = {}
    terms: dict[tuple[str, str], Term] = {}
    for index, mention in enumerate(mentions):
        key = (mention.category, mention.term_id)
        by_term.setdefault(key, []).append(index)
        terms[key] = mention.term
    return [_Slot(key[0], terms[key], tuple(ix)) for key, ix in by_term.items()]


def _assignments(
    slots: list[_Slot], options: Mapping[str, list[Term]], max_variants: int, seed: int
) -> list[tuple[int, ...]]:
    """Target assignments for the slots, as indices into their category's options.

    Injective within a category, identity excluded: two distinct terms of one category never
    become the same term ("Christians and Muslims" never becomes "Taoists and Taoists"), so
    each variant still names distinct groups.
    """
    per_category: dict[str, list[int]] = {}
    for index, slot in enumerate(slots):
        per_category.setdefault(slot.category, []).append(index)
    sizes = {category: len(options[category]) for category in per_category}
    total = math.prod(math.perm(sizes[c], len(ix)) for c, ix in per_category.items()) - 1
    identity = tuple(
        next(i for i, term in enumerate(options[slot.category]) if term.id == slot.source.id)
        for slot in slots
    )
    if total <= max_variants:
        if len(slots) == 1:  # one term (most texts): every other option, in order
            return [(pick,) for pick in range(sizes[slots[0].category]) if pick != identity[0]]
        return [a for a in _enumerate(len(slots), sizes, per_category) if a != identity]
    rng = np.random.default_rng(seed)
    chosen: dict[tuple[int, ...], None] = {}
    while len(chosen) < max_variants:
        # A batch of uniform injective picks per category: the first k columns of a random
        # permutation of the category's terms, drawn for the whole batch at once.
        batch = 2 * max_variants
        columns = np.empty((batch, len(slots)), dtype=np.int64)
        for category, indices in per_category.items():
            permutations = rng.random((batch, sizes[category])).argsort(axis=1)
            columns[:, indices] = permutations[:, : len(indices)]
        for row in map(tuple, columns.tolist()):
            if row != identity:
                chosen.setdefault(row, None)
                if len(chosen) == max_variants:
                    break
    return list(chosen)


def _enumerate(
    n_slots: int, sizes: Mapping[str, int], per_category: Mapping[str, list[int]]
) -> Iterator[tuple[int, ...]]:
    order = [index for indices in per_category.values() for index in indices]
    choices = [itertools.permutations(range(sizes[c]), len(ix)) for c, ix in per_category.items()]
    for combination in itertools.product(*choices):
        assignment = [0] * n_slots
        flat = (pick for group in combination for pick in group)
        for slot_index, pick in zip(order, flat, strict=False):
            assignment[slot_index] = pick
        yield tuple(assignment)


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
        Targets whose acceptability score (`textfair.text.acceptability`) is below this
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
    slots = _slots(rewriter.mentions)
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
    for assignment in _assignments(slots, options, max_variants, seed):
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
        variants.append(Variant(result.text, result.edits, swapped, seed_id, score))
    return variants


def plan_text(
    text: str,
    mentions: Sequence[Mention],
    matcher: Matcher,
    categories: Sequence[str],
    several: bool = False,
    private_names: bool = False,
) -> dict[str, CategoryPlan]:
    """The coherence plan of each category `mentions` name (see `textfair.text.coherence`):
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
        category); None when the text does not mention `source`.

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
    rewriter = Rewriter(text, mentions)
    result = rewriter.apply(dict.fromkeys(range(len(mentions)), new))
    swap = Swap(old.category, old.id, new.id)
    return Variant(result.text, result.edits, (swap,), seed_id)


def rewritable_categories(
    text: str, mentions: Sequence[Mention], matcher: Matcher | None = None
) -> set[str]:
    """The categories whose mentions in `text` can be rewritten to one term each with the
    text still coherent (`textfair.text.coherence`): one distinct term and no fixed
    mention, no other use of it, no cue of its axis, some term to become.

    "split among Muslims, Christians" rewritten to satisfy religion=Sikh would read "among
    Sikhs, Sikhs", which says something the seed did not: a text naming two or more
    distinct terms of a category has no rule-set rewrite over it; its counterfactuals map
    its distinct terms injectively instead (`counterfactuals`).
    """
    matcher = matcher or default_matcher()
    categories = sorted({m.category for m in mentions})
    plans = plan_text(text, mentions, matcher, categories)
    return {c for c, plan in plans.items() if plan.left_out is None}


def rule_satisfying(
    text: str,
    rule_set: Mapping[str, str],
    *,
    matcher: Matcher | None = None,
    seed_id: int | str | None = None,
    mentions: Sequence[Mention] | None = None,
) -> Variant | None:
    """TestSGD's Sample(D, R) rewrite of one seed text.

    Every mention of a category of the rule set $R$ becomes the rule set's term ("I
    am a lesbian" -> "I am a gay person"), with the words related to it.

    Parameters
    ----------
    text
        The seed text.
    rule_set
        Categories to one term each (``{"gender": "gay", "religion": "taoist"}``); a term
        by id or any written form.
    matcher
        The `Matcher` of the term list; by default the built-in dixon2018 list's.
    seed_id
        The seed text's id, carried by the variant.
    mentions
        The text's mentions, when they were found already.

    Returns
    -------
    Variant or None
        The rewritten text, with a `Swap` for each term that changed (none when the text
        satisfies $R$ already). None when the text cannot be made to satisfy
        $R$ coherently: it does not name every category of the rule set with one
        distinct term, or its plan does not allow $R$'s term there (another axis, a
        clash: see `rewritable_categories`).

    Raises
    ------
    TextfairError
        An empty rule set, an unknown category or term, or a term that is not of the
        category it is given for.

    Examples
    --------
    >>> textfair.rule_satisfying("I am a lesbian.", {"gender": "gay"}).text
    'I am a gay person.'
    >>> textfair.rule_satisfying("Christians and Muslims met.", {"religion": "jewish"}) is None
    True
    """
    matcher = matcher or default_matcher()
    targets = _rule_targets(rule_set, matcher)
    if mentions is None:
        mentions = matcher.find(text, list(targets))
    mentions = [m for m in mentions if m.category in targets]
    plans = plan_text(text, mentions, matcher, list(targets))
    for category, target in targets.items():
        plan = plans.get(category)
        if plan is None or plan.left_out is not None:
            return None
        own = {m.term_id for m in mentions if m.category == category}
        if target.id not in plan.targets | own:
            return None
    related = [m for c in targets for m in plans[c].related]
    rewriter = Rewriter(text, [*mentions, *related])
    result = rewriter.apply({i: targets[m.category] for i, m in enumerate(rewriter.mentions)})
    swaps = tuple(
        Swap(slot.category, slot.source.id, targets[slot.category].id)
        for slot in _slots(rewriter.mentions)
        if slot.source != targets[slot.category]
    )
    related_counts = {c: len(plan.related) for c, plan in plans.items()}
    score = scorer_of(matcher).product(text, text, mentions, swaps, related_counts)
    return Variant(result.text, result.edits, swaps, seed_id, score)


def sample_rule_satisfying(
    texts: Sequence[str],
    rule_set: Mapping[str, str],
    n: int,
    *,
    seed: int,
    matcher: Matcher | None = None,
) -> list[Variant]:
    r"""Sample(D, R): `n` seeds drawn with replacement among the texts that name every
    category of `rule_set` with one distinct term, each rewritten to satisfy it.

    Parameters
    ----------
    texts
        The corpus $D$.
    rule_set
        Categories to one term each, as `rule_satisfying` takes it.
    n
        How many seeds to draw.
    seed
        Seeds the draw (NumPy's ``default_rng``); the same seed gives the same sample.
    matcher
        The `Matcher` of the term list; by default the built-in dixon2018 list's.

    Returns
    -------
    list of Variant
        One variant per seed drawn, in the order drawn; `seed_id` is the text's index. A
        seed whose rewrite is not possible (`rule_satisfying` returns None) is dropped, so
        the list may hold fewer than `n`.

    Raises
    ------
    TextfairError
        No text names every category of the rule set with one distinct term, or the rule
        set is not valid (see `rule_satisfying`).

    Notes
    -----
    With $E \subseteq D$ the eligible texts (each category of the rule set named
    with one distinct term, and its mentions rewritable), each of the `n` seeds is drawn
    independently and uniformly from $E$.

    Examples
    --------
    >>> texts = ["I am a lesbian.", "The sky is blue."]
    >>> variants = textfair.sample_rule_satisfying(texts, {"gender": "gay"}, 2, seed=0)
    >>> [(v.text, v.seed_id) for v in variants]
    [('I am a gay person.', 0), ('I am a gay person.', 0)]
    """
    matcher = matcher or default_matcher()
    targets = _rule_targets(rule_set, matcher)
    eligible = [
        i
        for i, text in enumerate(texts)
        if set(targets) <= rewritable_categories(text, matcher.find(text, list(targets)), matcher)
    ]
    if not eligible:
        raise TextfairError(
            f"no text mentions every category of the rule set {dict(rule_set)}; "
            "use a corpus with such texts or a rule set over fewer categories"
        )
    picks = np.random.default_rng(seed).choice(eligible, size=n, replace=True)
    variants = [rule_satisfying(texts[i], rule_set, matcher=matcher, seed_id=int(i)) for i in picks]
    return [v for v in variants if v is not None]


def _rule_targets(rule_set: Mapping[str, str], matcher: Matcher) -> dict[str, Term]:
    if not rule_set:
        raise TextfairError("empty rule set; give at least one category: term pair")
    names = matcher.term_list.category_names(list(rule_set))
    targets = {}
    for category in names:
        term = matcher.term_list.term(rule_set[category])
        if term.category != category:
            raise TextfairError(
                f"term {term.id!r} is in category {term.category!r}, not {category!r}; "
                "a rule set picks one term of each of its categories"
            )
        targets[category] = term
    return targets
