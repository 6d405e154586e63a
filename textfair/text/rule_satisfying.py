"""TestSGD's Sample(D, R): seed texts rewritten so that they satisfy a rule set $R$ (every
mention of a category of $R$ becomes $R$'s term, "I am a lesbian" -> "I am a gay person"),
one seed (:func:`rule_satisfying`) or `n` drawn from a corpus (:func:`sample_rule_satisfying`),
and which categories of a text can be so rewritten (:func:`rewritable_categories`).

Apart from the counterfactuals (:mod:`textfair.text.generate`), which give every other
assignment of a seed's terms: here each category gets the one term the rule set names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.random  # numpy loads it on first use: the first text sampled (12 ms)

from textfair.errors import TextfairError
from textfair.terms import Term
from textfair.text._acceptability import scorer_of
from textfair.text._assignments import slots_of
from textfair.text.generate import plan_text
from textfair.text.matcher import Matcher, default_matcher
from textfair.text.mentions import Mention
from textfair.text.rewrite import Rewriter
from textfair.text.variants import Swap, Variant

__all__ = ["rewritable_categories", "rule_satisfying", "sample_rule_satisfying"]


def rewritable_categories(
    text: str, mentions: Sequence[Mention], matcher: Matcher | None = None
) -> set[str]:
    """The categories whose mentions in `text` can be rewritten to one term each with the
    text still coherent (`textfair.text._coherence`): one distinct term and no fixed
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
        for slot in slots_of(rewriter.mentions)
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
