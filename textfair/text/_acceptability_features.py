"""The features of one rewrite that the acceptability model reads (:data:`FEATURES`), and
how they are computed from a seed text, its mentions and the target term.

Apart from the score (:mod:`textfair.text._acceptability`) because they are what the model
is fitted on as well as scored with (:mod:`textfair.text.acceptability_fit` computes them for
the blind-read variants): one definition serves both.

The features split in two: those of the seed and category (computed once per seed and
category, :func:`category_features`) and those that depend on the target too (the ``"<term>
person"`` fallback, a gendered or several-word target). As the model is linear in them, the
logit of every target of a category is one matrix product.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from textfair.terms import Term, TermList
from textfair.text import _context as context
from textfair.text.mentions import Mention

__all__ = [
    "CATEGORY_FEATURES",
    "FEATURES",
    "TARGET_FEATURES",
    "SeedTokens",
    "category_features",
    "category_values",
    "fallback_counts",
    "feature_vector",
    "list_words",
    "target_features",
    "target_table",
]


# Words of a text about a film: a proxy for the corpus kind (reviews name real people).
REVIEW_WORDS = frozenset(
    """
    film films movie movies cast plays played playing character characters director directed
    actor actors actress actresses role roles scene scenes starring stars episode episodes
    series sequel screenplay script plot audience performance performances
    """.split()
)
# Titles before a name, and gendered words (a rewrite of one reference leaves the others).
TITLES = frozenset("mr mr. mrs mrs. ms ms. dr dr. miss sir lady lord madam mister".split())
PRONOUNS = frozenset(
    """
    he him his himself she her hers herself they them their theirs themselves
    """.split()
)
GENDERED_WORDS = frozenset(
    """
    man men woman women boy boys girl girls guy guys gal gals lady ladies gentleman gentlemen
    father fathers mother mothers son sons daughter daughters husband husbands wife wives
    brother brothers sister sisters king queen actor actress mr mrs ms sir madam
    """.split()
)
# Capitalised words that are not names: the first person, days and months, interjections.
_NOT_NAMES = frozenset(
    """
    i i'm i've i'll i'd ok okay tv dvd god english january february march april may june
    july august september october november december monday tuesday wednesday thursday friday
    saturday sunday wikipedia
    """.split()
)
# Lists with one-hot features; holistic's axes in two groups (identities of a person, or
# descriptions of a body, trait or situation).
LISTS = ("dixon2018", "holistic", "names", "pronouns")
DIXON_CATEGORIES = ("gender", "race", "religion", "age")
HOLISTIC_DESCRIPTIVE = frozenset(
    "ability body_type characteristics cultural political_ideologies socioeconomic_class".split()
)
_FAR = 200  # words: the distance written for "none in the text"

#: The model's features, in order: the seed and category's, then the target's.
CATEGORY_FEATURES = (
    "log_words",
    "log_mentions",
    "log_related",
    "log_name_distance",
    "name_within_3",
    "log_first_name_distance",
    "first_name_within_10",
    "capitalised_share",
    "log_pronouns",
    "log_gendered_words",
    "log_review_words",
    "form_adjective_person",
    "form_adjective_predicate",
    "form_adjective_bare",
    "form_adjective_thing",
    "form_noun",
    "form_collective",
    "form_name_or_word",
    *(f"list_{name}" for name in LISTS),
    *(f"category_{name}" for name in DIXON_CATEGORIES),
    "holistic_descriptive",
    # Where the lists of names and pronouns fail: a long text, other first names or
    # pronouns (references left), a name right beside the mention (a full name).
    "log_first_names",
    "name_adjacent",
    "names_list_x_log_words",
    "pronouns_list_x_log_words",
    "names_list_x_log_pronouns",
    "pronouns_list_x_log_first_names",
    "names_list_x_log_first_names",
    "log_review_words_x_log_words",
    # The unit's kind, as its length tells it: a sentence, or a long review.
    "unit_up_to_40_words",
    "unit_over_150_words",
    "log_full_names",
    "review_x_log_full_names",
    "mention_capitalised_inside",
)
TARGET_FEATURES = ("person_fallback", "target_gendered", "target_several_words")
FEATURES = CATEGORY_FEATURES + TARGET_FEATURES


@dataclass
class SeedTokens:
    """One seed text, read once: its length in words, the offsets of its name-like words,
    first names and titles, and its counts of pronouns, gendered and film words.

    Read with a few regular expressions over the whole text (no loop over every word): the
    substitution benchmark scores every text it rewrites."""

    text: str
    words: int
    names: list[int]
    first_names: list[int]
    pronouns: int
    gendered: int
    review: int
    full_names: int
    """Name-like words right after another ("John Banner", "Glenda Jackson"): a real
    person's full name, or a title's words."""

    @classmethod
    def of(
        cls, text: str, mentions: Sequence[Mention], own_words: frozenset[str] = frozenset()
    ) -> SeedTokens:
        """The tokens of `text`; a word inside one of `mentions` or among `own_words` (the list's
        words, lowercased) is not a name."""
        spans = sorted((m.start, m.end) for m in mentions)
        known_first_names = context.first_names()
        names, first_names, full_names, previous_end = [], [], 0, -2
        for match in _CAPITALISED.finditer(text):
            start, token = match.start(), match.group()
            if start and (text[start - 1].isalnum() or text[start - 1] in "'’_"):
                continue  # inside a word ("McDonald", "don'T")
            lower = token.lower()
            if lower in TITLES or lower.rstrip(".") in TITLES:
                first_names.append(start)
                continue
            if lower in _NOT_NAMES or lower in own_words or _inside(spans, start):
                continue
            if context.is_sentence_initial(text, start):
                continue
            names.append(start)
            if start - previous_end <= 1:
                full_names += 1
            previous_end = match.end()
            if token in known_first_names:
                first_names.append(start)
        counted = [_COUNTED_KIND[w] for w in _COUNTED.findall(text.lower())]
        return cls(
            text,
            len(text.split()),
            names,
            first_names,
            counted.count("pronoun"),
            counted.count("gendered"),
            counted.count("review"),
            full_names,
        )

    def distance(self, positions: list[int], offset: int) -> int:
        """Words from the word at `offset` to the nearest of the sorted `positions` (the
        nearest before and after it by offset; _FAR for none)."""
        k = bisect_left(positions, offset)
        best = _FAR
        # Words between: the spaces between the two (a word and the next are one apart).
        if k < len(positions):
            best = min(best, 1 + self.text.count(" ", offset, positions[k]))
        if k > 0:
            best = min(best, 1 + self.text.count(" ", positions[k - 1], offset))
        return best


# A word that starts with a capital (`SeedTokens.of` skips one inside a word: "McDonald").
_CAPITALISED = re.compile(r"[A-Z][\w'’\-]*\.?")
_COUNTED_KIND = {
    **dict.fromkeys(REVIEW_WORDS, "review"),
    **dict.fromkeys(GENDERED_WORDS, "gendered"),
    **dict.fromkeys(PRONOUNS, "pronoun"),
}
_COUNTED = re.compile(r"\b" + context.trie_pattern(_COUNTED_KIND) + r"\b")


_LIST_WORDS: dict[int, tuple[TermList, frozenset[str]]] = {}


def list_words(term_list: TermList) -> frozenset[str]:
    """The list's one-word written forms, lowercased (first names and gendered words left
    out: those of a names list are what the name features look for)."""
    found = _LIST_WORDS.get(id(term_list))
    if found is None or found[0] is not term_list:
        words = frozenset(
            form.lower()
            for term in term_list.terms()
            if not (term.names or term.words)
            for form, _ in term.surface_forms()
            if " " not in form
        )
        found = _LIST_WORDS[id(term_list)] = (term_list, words)
    return found[1]


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    """Whether `offset` lies in one of the sorted, disjoint `spans` (start, end)."""
    k = bisect_right(spans, (offset, 1 << 62)) - 1
    return k >= 0 and spans[k][0] <= offset < spans[k][1]


def _form(text: str, mention: Mention) -> str:
    """The mention's form as a feature: an adjective before a person noun, predicated, or
    bare; a noun; a collective; a name or gendered word."""
    if mention.form in ("noun", "plural"):
        return "noun"
    if mention.form == "collective":
        return "collective"
    if mention.form == "adjective":
        after = context.tokens_after(text, mention.end, 2)
        if after and (
            context.is_person_noun(after[0].lower()) or after[0] in context.first_names()
        ):
            return "adjective_person"
        before = context.tokens_before(text, mention.start, 2)
        if before and before[-1].lower() in context.COPULAS:
            return "adjective_predicate"
        if after and context.is_content_word(after[0]):
            return "adjective_thing"  # before a word that is no person noun ("small street")
        return "adjective_bare"
    return "name_or_word"


def category_features(
    text: str,
    mentions: Sequence[Mention],
    category: str,
    term_list: TermList | str,
    *,
    related: int = 0,
    tokens: SeedTokens | None = None,
) -> np.ndarray:
    """The features of rewriting seed `text`'s mentions of `category`, whatever the target
    (:data:`CATEGORY_FEATURES`), as an array.

    Parameters
    ----------
    text
        The seed text.
    mentions
        Every mention found in the text (of every category: none of them is a name).
    category
        The category rewritten.
    term_list
        The list (or its name): its one-hot feature.
    related
        How many related words ("Judaism") are rewritten with the mentions.
    tokens
        The text's tokens when they were read already (one `SeedTokens` per seed).
    """
    return np.array(category_values(text, mentions, category, term_list, related, tokens))


def category_values(
    text: str,
    mentions: Sequence[Mention],
    category: str,
    term_list: TermList | str,
    related: int,
    tokens: SeedTokens | None,
) -> list[float]:
    """`category_features` as a list of floats, in :data:`CATEGORY_FEATURES` order: the
    scorer takes its dot product with the weights in Python, without building an array."""
    list_name = term_list if isinstance(term_list, str) else term_list.name
    if tokens is None:
        words_of_list = frozenset() if isinstance(term_list, str) else list_words(term_list)
        tokens = SeedTokens.of(text, mentions, words_of_list)
    rewritten = [m for m in mentions if m.category == category and m.form != "related"]
    name_distance = min((tokens.distance(tokens.names, m.start) for m in rewritten), default=_FAR)
    first_distance = min(
        (tokens.distance(tokens.first_names, m.start) for m in rewritten), default=_FAR
    )
    forms = [_form(text, m) for m in rewritten]
    share = {f: forms.count(f) / len(forms) if forms else 0.0 for f in set(forms)}
    values = [
        math.log1p(tokens.words),
        math.log1p(len(rewritten)),
        math.log1p(related),
        math.log1p(name_distance),
        float(name_distance <= 3),
        math.log1p(first_distance),
        float(first_distance <= 10),
        len(tokens.names) / max(tokens.words, 1),
        math.log1p(tokens.pronouns),
        math.log1p(tokens.gendered),
        math.log1p(tokens.review),
        share.get("adjective_person", 0.0),
        share.get("adjective_predicate", 0.0),
        share.get("adjective_bare", 0.0),
        share.get("adjective_thing", 0.0),
        share.get("noun", 0.0),
        share.get("collective", 0.0),
        share.get("name_or_word", 0.0),
        *(float(list_name == name) for name in LISTS),
        *(float(list_name == "dixon2018" and category == name) for name in DIXON_CATEGORIES),
        float(list_name == "holistic" and category in HOLISTIC_DESCRIPTIVE),
    ]
    names_list, pronouns_list = float(list_name == "names"), float(list_name == "pronouns")
    log_words, log_first = math.log1p(tokens.words), math.log1p(len(tokens.first_names))
    values += [
        log_first,
        float(name_distance <= 1),
        names_list * log_words,
        pronouns_list * log_words,
        names_list * math.log1p(tokens.pronouns),
        pronouns_list * log_first,
        names_list * log_first,
        math.log1p(tokens.review) * log_words,
        float(tokens.words <= 40),
        float(tokens.words > 150),
        math.log1p(tokens.full_names),
        math.log1p(tokens.review) * math.log1p(tokens.full_names),
        # A mention capitalised inside a sentence ("the Teenage Witch"): a title or name.
        float(
            any(
                text[m.start : m.start + 1].isupper()
                and not m.natural[:1].isupper()
                and not context.is_sentence_initial(text, m.start)
                for m in rewritten
            )
        ),
    ]
    return values


def fallback_counts(mentions: Sequence[Mention], category: str) -> np.ndarray:
    """How many of the category's mentions are singular nouns, plurals, and collectives."""
    counts = np.zeros(3)
    for m in mentions:
        if m.category == category:
            if m.form == "noun":
                counts[0] += 1
            elif m.form == "plural":
                counts[1] += 1
            elif m.form == "collective":
                counts[2] += 1
    return counts


def target_table(term_list: TermList, category: str) -> tuple[np.ndarray, np.ndarray]:
    """Per term of the category: whether it lacks a singular noun, a plural noun, a
    collective use (so ``"<term> person"`` is written), and its own target features."""
    lacks, own = [], []
    for term in term_list.categories[category]:
        lacks.append(_lacks(term))
        own.append(_own(term))
    return np.array(lacks, dtype=float).reshape(-1, 3), np.array(own, dtype=float).reshape(-1, 2)


def _own(term: Term) -> list[float]:
    """Whether the target is gendered and several words; a group of terms: the share of its
    members (which one is written depends on the text)."""
    if term.members:
        return np.mean([_own(member) for member in term.members], axis=0).tolist()
    return [float(term.gender is not None), float(len(term.text.split()) > 1)]


def _lacks(term: Term) -> list[float]:
    """Whether the term lacks a singular noun, a plural noun, and a collective use (so
    ``"<term> person"`` is written for each); a group of terms: the share of its members."""
    if term.names or term.words:
        return [0.0, 0.0, 0.0]
    if term.members:  # the share of the group's members lacking each form
        return np.mean([_lacks(member) for member in term.members], axis=0).tolist()
    no_plural = term.plural_noun is None
    return [
        float(term.singular_noun is None),
        float(no_plural),
        float(no_plural and not term.nominal),
    ]


def target_features(mentions: Sequence[Mention], category: str, target: Term) -> np.ndarray:
    """The target's features (:data:`TARGET_FEATURES`) for rewriting `mentions` of
    `category` to `target`: the share of mentions written ``"<term> person"``, whether the
    target is gendered, whether it is several words."""
    counts = fallback_counts(mentions, category)
    total = counts.sum()
    fallback = float(counts @ np.array(_lacks(target)) / total) if total else 0.0
    return np.array([fallback, *_own(target)])


def feature_vector(
    text: str,
    mentions: Sequence[Mention],
    category: str,
    target: Term,
    term_list: TermList | str,
    related: int = 0,
) -> np.ndarray:
    """Every feature (:data:`FEATURES`) of rewriting `text`'s `category` to `target`."""
    return np.concatenate(
        [
            category_features(text, mentions, category, term_list, related=related),
            target_features(mentions, category, target),
        ]
    )
