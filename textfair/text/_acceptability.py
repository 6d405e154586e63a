"""A calibrated acceptability score for each rewrite: the probability that a strict reader
accepts the variant a seed's mentions of one category give when rewritten to one term.

Rules (:mod:`textfair.text._coherence`, the matcher's gates) leave out what they can see; what
they cannot (a real, named person made false, an identity word that describes no one, a
pronoun far from its name) leaves traces the generator already has: names and titles near a
mention, the mention's form, the words around it, the kind of text. A small logistic model,
fitted on blind-read variants (``tests/data/acceptability_gold.jsonl``, its tune half, by
:mod:`textfair.text.acceptability_fit`), turns those traces into a probability:

$$
p(\\text{acceptable} \\mid x) = \\sigma\\Big(b + \\sum_j w_j \\frac{x_j - \\mu_j}{s_j}\\Big),
\\qquad \\sigma(z) = \\frac{1}{1 + e^{-z}},
$$

with $\\mu_j, s_j$ the training features' means and standard deviations, then mapped by the
calibration $g$ the refit chose by grouped cross-validation (identity, Platt or isotonic:
:mod:`textfair.text._acceptability_calibration`). The model is shipped as JSON
(``acceptability_model.json``: feature names, means, scales, coefficients, intercept, the
calibration's numbers, what it was fitted on; read by
:mod:`textfair.text._acceptability_model`) and scored here with NumPy; scikit-learn is needed
only to refit.

This module scores rewrites: per seed and category, one row of features, and the logit of
every target of the category as one matrix product (the features, and why the model is
linear in them: :mod:`textfair.text._acceptability_features`).
"""

from __future__ import annotations

import dataclasses
import math
import operator
import weakref
from collections.abc import Collection, Mapping, Sequence

import numpy as np

from textfair.terms import TermList
from textfair.text._acceptability_features import (
    CATEGORY_FEATURES,
    SeedTokens,
    category_values,
    fallback_counts,
    feature_vector,
    list_words,
    target_table,
)
from textfair.text._acceptability_model import AcceptabilityModel, load_model
from textfair.text._coherence import CategoryPlan
from textfair.text.matcher import Matcher
from textfair.text.mentions import Mention
from textfair.text.variants import Swap

__all__ = [
    "Scorer",
    "keep_acceptable",
    "score_variant",
    "scorer_of",
]


class Scorer:
    """Scores of one term list's rewrites, remembered per seed and category.

    `scores` gives, for one seed and category, the probability of every term of the category
    as the target, from one row of seed features and one matrix product.
    """

    def __init__(
        self,
        term_list: TermList,
        model: AcceptabilityModel | None = None,
        limit: int | None = None,
    ) -> None:
        self.term_list = term_list
        self.limit = limit
        """How many (seed, category) scores to remember (None: all; the cache is emptied
        when full, as generators asked text by text seldom come back to a text)."""
        self.model = model or load_model()
        k = len(CATEGORY_FEATURES)
        self._w_category = self.model.weights[:k].tolist()
        w_target = self.model.weights[k:]
        self._last: tuple[object, SeedTokens | None] = (None, None)  # one seed read at a time
        self._cache: dict[tuple[object, str], np.ndarray] = {}
        # Per category: each target's part of the logit (its own features and the offset),
        # and the weight of each of its "<term> person" fallbacks (singular, plural,
        # collective) on the mentions' share of that form.
        self._constant: dict[str, np.ndarray] = {}
        self._fallback: dict[str, np.ndarray] = {}
        for c in term_list.categories:
            lacks, own = target_table(term_list, c)
            self._constant[c] = own @ w_target[1:] + self.model.offset
            self._fallback[c] = lacks * w_target[0]
        self._list_words = list_words(term_list)
        self._column = {
            c: {t.id: j for j, t in enumerate(terms)} for c, terms in term_list.categories.items()
        }

    def scores(
        self,
        key: object,
        text: str,
        mentions: Sequence[Mention],
        category: str,
        related: int = 0,
    ) -> np.ndarray:
        """Per term of `category` (in the list's order), the probability that rewriting
        `text`'s mentions of it to that term is accepted; remembered under (`key`,
        `category`)."""
        found = self._cache.get((key, category))
        if found is not None:
            return found
        last, tokens = self._last
        if tokens is None or last != key:
            tokens = SeedTokens.of(text, mentions, self._list_words)
            self._last = (key, tokens)
        if self.limit is not None and len(self._cache) >= self.limit:
            self._cache.clear()
        values = category_values(text, mentions, category, self.term_list, related, tokens)
        # The logit splits in the seed's part (one dot product, in Python: 30 numbers) and
        # each target's (its own features, and the "<term> person" share of the mentions).
        logits = math.fsum(map(operator.mul, values, self._w_category)) + self._constant[category]
        counts = fallback_counts(mentions, category)
        total = counts.sum()
        if total:
            logits = logits + self._fallback[category] @ (counts / total)
        found = self._cache[(key, category)] = self.model.of_logit(logits)
        return found

    def remembered(self, keys: Collection[object]) -> dict[tuple[object, str], np.ndarray]:
        """The scores remembered for the keys in `keys` (every category of each)."""
        wanted = set(keys)
        return {key: found for key, found in self._cache.items() if key[0] in wanted}

    def remember(self, scores: Mapping[tuple[object, str], np.ndarray]) -> None:
        """Take `scores`, as `remembered` gives them (from a worker process that scored
        some seeds), as if they had been computed here."""
        self._cache.update(scores)

    def product(
        self,
        key: object,
        text: str,
        mentions: Sequence[Mention],
        swaps: Sequence[Swap],
        related: Mapping[str, int],
    ) -> float:
        """The acceptability of a variant: the product of its swaps' scores (a swap of
        one term of a category to another), each a `scores` entry; 1 with no swap."""
        score = 1.0
        for swap in swaps:
            values = self.scores(key, text, mentions, swap.category, related.get(swap.category, 0))
            score *= float(values[self._column[swap.category][swap.target]])
        return score

    def column(self, category: str, term_id: str) -> int:
        """The place of `term_id` in `scores`' array for `category`."""
        return self._column[category][term_id]

    def columns(self, category: str) -> dict[str, int]:
        """Every term id of `category` to its place in `scores`' array."""
        return self._column[category]

    def score(
        self,
        key: object,
        text: str,
        mentions: Sequence[Mention],
        category: str,
        target: str,
        related: int = 0,
    ) -> float:
        """The probability for one target term id (see `scores`)."""
        values = self.scores(key, text, mentions, category, related)
        return float(values[self._column[category][target]])


def score_variant(
    text: str,
    category: str,
    target: str,
    *,
    terms: TermList | str | Matcher = "dixon2018",
    mentions: Sequence[Mention] | None = None,
    model: AcceptabilityModel | None = None,
) -> float:
    """The probability that a strict reader accepts `text` with its mentions of `category`
    rewritten to term `target`.

    Parameters
    ----------
    text
        The seed text.
    category
        The category rewritten.
    target
        The target term, by id or any written form.
    terms
        The term list (a name, a `TermList` or its `Matcher`).
    mentions
        The text's mentions, when found already (every category's).
    model
        A model other than the shipped one.

    Examples
    --------
    >>> from textfair.text._acceptability import score_variant
    >>> p = score_variant("Muslims are my neighbours.", "religion", "jewish")
    >>> 0.0 <= p <= 1.0
    True
    """
    matcher = terms if isinstance(terms, Matcher) else Matcher(terms)
    term = matcher.term_list.term(target)
    if mentions is None:
        mentions = matcher.find(text)
    x = feature_vector(text, mentions, category, term, matcher.term_list)
    return float((model or load_model()).probability(x[None, :])[0])


_OF_MATCHER: weakref.WeakKeyDictionary[Matcher, Scorer] = weakref.WeakKeyDictionary()


def scorer_of(matcher: Matcher) -> Scorer:
    """The `Scorer` of `matcher`'s term list with the shipped model, made once per matcher."""
    found = _OF_MATCHER.get(matcher)
    if found is None:
        found = _OF_MATCHER[matcher] = Scorer(matcher.term_list, limit=4096)
    return found


def keep_acceptable(
    plan: CategoryPlan, scores: np.ndarray, column: Mapping[str, int], minimum: float
) -> CategoryPlan:
    """`plan` with the targets scoring below `minimum` taken out (`scores` per term of the
    category, at `column[term id]`); left out (``low_acceptability``) when none is left. A
    `minimum` of 0 returns `plan` itself."""
    if minimum <= 0.0 or plan.left_out is not None or not plan.targets:
        return plan
    kept = frozenset(t for t in plan.targets if scores[column[t]] >= minimum)
    if kept == plan.targets:
        return plan
    if not kept:
        return dataclasses.replace(
            plan, left_out="low_acceptability", targets=frozenset(), related=()
        )
    return dataclasses.replace(plan, targets=kept)
