"""TextDomain: a corpus of seed texts seen through a term list, as the Domain protocol.

Mentions are found once per seed text when the domain is built; rules are identity terms,
and a text supports a rule set when it mentions every category of it (TestSGD's
contains(d, s)). Sampling rewrites seeds with the generators of :mod:`textfair.text.generate`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Unpack

import numpy as np

from textfair.core.rules import Rule
from textfair.core.seeds import seed_rng
from textfair.errors import TextfairError
from textfair.settings import DEFAULT_MIN_ACCEPTABILITY, check_parameter
from textfair.terms import TermList
from textfair.text._acceptability import Scorer
from textfair.text._coherence import LEFT_OUT_REASONS, coherence_of
from textfair.text._placebo_words import PLACEBO_WORDS, with_placebo_words
from textfair.text._seed_reading import SeedReader, corpus_reading
from textfair.text._target_tables import target_tables
from textfair.text._testsgd_sample import testsgd_sample
from textfair.text._world import WorldFlags
from textfair.text.generate import CounterfactualOptions, counterfactuals
from textfair.text.matcher import Matcher
from textfair.text.mentions import Mention
from textfair.text.reading import Reading
from textfair.text.reading_store import ReadingStore
from textfair.text.rewrite import Rewriter
from textfair.text.variants import Swap, Variant, with_acceptability
from textfair.workers import collector_paused

__all__ = ["PLACEBO_WORDS", "TextDomain"]


class TextDomain:
    """Seed texts, their identity mentions, and the rules and samples built from them.

    `workers`: processes that read the seeds when the domain is built (None: the cores this
    process may use; see `textfair.workers`); the domain is the same with any number.
    `on_first_seed` is called, in this process, once a seed that takes part in a category's
    rows has been read, here or by a worker (the audit then knows it has something to
    audit); while it may be, the workers read every seed and this process waits.
    `store`, `reading`: a reading kept or given (`textfair.text._seed_reading.corpus_reading`).
    """

    # The reading makes millions of objects that live on and almost no cycles: the cycle
    # collector, walking them again and again, would take a sixth of its time.
    @collector_paused()
    def __init__(
        self,
        texts: Sequence[str],
        terms: TermList | str = "dixon2018",
        categories: Sequence[str] | None = None,
        min_acceptability: float = DEFAULT_MIN_ACCEPTABILITY,
        workers: int | None = None,
        on_first_seed: Callable[[], object] | None = None,
        private_names: bool = False,
        store: ReadingStore | None = None,
        reading: Reading | None = None,
    ) -> None:
        # Checked first: a threshold outside [0, 1] is a mistake, not "keep none" (one line).
        check_parameter("min_acceptability", min_acceptability)
        self.matcher = Matcher(terms)
        self.term_list = self.matcher.term_list
        self._categories = self.term_list.category_names(list(categories) if categories else None)
        self.texts = list(texts)
        if not self.texts:
            raise TextfairError("the corpus has no texts; pass a file with at least one text")
        self._rewrite_cached = functools.lru_cache(maxsize=1 << 16)(self._rewrite)
        self._rewriter = functools.lru_cache(maxsize=4096)(self._make_rewriter)
        self._term_of = {
            (term.category, term.id): term for term in self.term_list.terms(self._categories)
        }
        self._column_of = {
            c: {t.id: j for j, t in enumerate(self.term_list.categories[c])}
            for c in self._categories
        }
        # Per seed and category, whether its mentions can be rewritten with the whole text
        # still coherent, to which terms, and with which related words (`Coherence`).
        self.coherence = coherence_of(self.matcher)
        # Every text the domain wrote, to its score (a seed as written scores 1): read back
        # for the report's examples and pairs, which hold texts.
        self._scored: dict[str, float] = dict.fromkeys(self.texts, 1.0)
        self.min_acceptability = float(min_acceptability)
        self.private_names = bool(check_parameter("private_names", private_names))
        """Every first name taken for a private person's (`Coherence.plan`)."""
        """Targets scoring below this are neither generated nor audited (0: all kept)."""
        # Scores of every (seed, category), computed when first asked for (every seed that
        # takes part, here, when there is a threshold), then remembered.
        self.scorer = Scorer(self.term_list)
        # Mentions are found once per seed (by worker processes) or taken as an earlier
        # audit read them; every rewrite of the seed reuses them.
        reader = SeedReader(
            self.texts,
            self.matcher,
            self.coherence,
            self.scorer,
            self._categories,
            self._column_of,
            self.min_acceptability,
            self.private_names,
        )
        self.reading, self.reading_source, self.reading_note, self._reading_key = corpus_reading(
            reader, workers, on_first_seed, store, reading
        )
        self._store = store
        # The variants written from this reading, by this domain or an earlier audit's
        # (`keep_written` stores them): `_rewrite` takes one written before as it was.
        self._written = self.reading.written
        self._written_known = len(self._written)
        self.scorer.remember(self.reading.scores)
        self._mentions, plans = self.reading.mentions, self.reading.plans
        self._no_terms = {c: frozenset[str]() for c in self._categories}
        self.worlds = WorldFlags(plans)  # what rewrites rest on, per seed (WORLD, issue 56)
        # Categories whose terms are first names or gendered words: no placebo word goes
        # before them (`placebo`), decided once here rather than per seed.
        self._no_placebo = {
            c
            for c in self._categories
            if any(t.names or t.words for t in self.term_list.categories[c])
        }
        self.left_out = {c: dict.fromkeys(LEFT_OUT_REASONS, 0) for c in self._categories}
        """Per category, the seeds that mention it but take no part in its rows, by reason."""
        self.mentioning = dict.fromkeys(self._categories, 0)
        """Per category, the seeds that mention one of its terms."""
        self.naming_any = 0
        """The seeds that mention a term of any audited category."""
        self._terms: list[Mapping[str, frozenset[str]]] = [self._no_terms] * len(plans)
        self._related: list[list[Mention]] = [[] for _ in plans]
        self._presence = np.zeros((len(self.texts), len(self._categories)), dtype=bool)
        # One pass over the seeds with plans only: most seeds of a corpus name no term.
        for i in (i for i, by_category in enumerate(plans) if by_category):
            by_category = plans[i]
            self._terms[i] = self._terms_by_category(self.reading.named(i))
            self._related[i] = [
                m for plan in by_category.values() if plan.left_out is None for m in plan.related
            ]
            self._presence[i] = [
                c in by_category and by_category[c].left_out is None for c in self._categories
            ]
            self.naming_any += any(c in self.mentioning for c in by_category)
            for c, plan in by_category.items():
                if c in self.mentioning:
                    self.mentioning[c] += 1
                    if plan.left_out is not None:
                        self.left_out[c][plan.left_out] += 1
        self.several_terms = {c: self.left_out[c]["several_terms"] for c in self._categories}
        self.fixed_forms = {c: self.left_out[c]["fixed_form"] for c in self._categories}
        # Which terms each seed may become, per category (`target_tables`).
        self._target_sets, self._target_set_of, self._target_table = target_tables(
            plans, self._terms, self._categories, self.term_list
        )

    def _category_scores(self, index: int, category: str, related: int = 0) -> np.ndarray:
        """Per term of `category`, the score of rewriting seed `index`'s mentions to it."""
        return self.scorer.scores(
            index, self.texts[index], self._mentions[index], category, related
        )

    def acceptability(self, index: int, rule_set: tuple[Rule, ...]) -> float:
        r"""The probability that a strict reader accepts the variant `rewrite(index,
        rule_set)` writes: the product, over the rule set's categories the seed is rewritten
        in, of the score of its rewrite to the rule's term (`textfair.text._acceptability`);
        1 for a category whose term the seed already has.

        Parameters
        ----------
        index
            The seed.
        rule_set
            One term per category.

        Returns
        -------
        float
            $\prod_{c} p(\text{seed}, c, t_c)$ over the categories whose term changes.
        """
        kept = self._written.get((index, rule_set))
        if kept is not None:  # the variant written: its score was computed then
            return kept[1]
        score = 1.0
        for rule in rule_set:
            if rule.value in self._terms[index][rule.category]:
                continue
            scores = self._category_scores(
                index, rule.category, self._related_count(index, rule.category)
            )
            score *= float(scores[self._column_of[rule.category][rule.value]])
        return score

    def _related_count(self, index: int, category: str) -> int:
        related = self._related[index]
        # Most seeds rewrite no related word ("Judaism"): nothing to count.
        return sum(1 for m in related if m.category == category) if related else 0

    def world(self, index: int, rule_set: tuple[Rule, ...]) -> str | None:
        """The WORLD flag of the variant `rewrite(index, rule_set)` (`worlds`), or None."""
        swapped = [r.category for r in rule_set if r.value not in self._terms[index][r.category]]
        return self.worlds.of(index, swapped)

    def recall(self) -> dict[str, float]:
        """Per category, the share of seeds mentioning it that take part in its rows."""
        return {
            c: float(self._presence[:, k].sum() / self.mentioning[c]) if self.mentioning[c] else 1.0
            for k, c in enumerate(self._categories)
        }

    def most_seeds_per_term(self) -> dict[str, int]:
        """Per category, the most seeds one of its terms can be written into: its largest
        single-term support, as a count. A --theta at or below that count over the seeds
        makes the term a rule set; 0 when no seed takes part in the category's rows, where
        no --theta can (`left_out` says why)."""
        most = {}
        for c in self._categories:
            sets = self._target_set_of[c]
            per_set = np.bincount(sets[sets >= 0], minlength=len(self._target_sets[c]))
            most[c] = int((per_set @ self._target_table[c]).max(initial=0))
        return most

    def may_become(self, index: int, category: str, term_id: str) -> bool:
        """Whether seed `index` takes part in the category's rows and may be rewritten to
        `term_id` (its own term, or one its plan allows)."""
        target_set = self._target_set_of[category][index]
        return target_set >= 0 and bool(
            self._target_table[category][target_set, self._column_of[category][term_id]]
        )

    def assignment_columns(self, assignments: Sequence[tuple[Rule, ...]]) -> np.ndarray:
        """Each assignment's term columns (a rule per category, in one order for all)."""
        return np.array(
            [[self._column_of[r.category][r.value] for r in a] for a in assignments], dtype=np.intp
        ).reshape(len(assignments), -1)

    def assignments_taken(
        self, index: int, categories: Sequence[str], columns: np.ndarray
    ) -> np.ndarray:
        """Per assignment over `categories` (`assignment_columns`), whether seed `index` may
        become it: `may_become` in each category, as `rewrite` first checks, all at once."""
        taken = np.ones(len(columns), dtype=bool)
        for j, c in enumerate(categories):
            target_set = self._target_set_of[c][index]
            taken &= target_set >= 0 and self._target_table[c][target_set][columns[:, j]]
        return taken

    def categories(self) -> list[str]:
        """The identity categories of the audit."""
        return list(self._categories)

    def single_rules(self, category: str) -> list[Rule]:
        """One rule per term of the category."""
        return [Rule(category, term.id) for term in self.term_list.categories[category]]

    def support_mask(self, rule_set: tuple[Rule, ...]) -> np.ndarray:
        """Texts naming every category of the rule set with one distinct term, which their
        plan lets become the rule set's term (its axis, no clash: see `Coherence`)."""
        mask = np.ones(len(self.texts), dtype=bool)
        for rule in rule_set:
            sets = self._target_set_of[rule.category]
            table = self._target_table[rule.category]
            column = table[:, self._column_of[rule.category][rule.value]]
            mask &= sets >= 0
            mask[mask] &= column[sets[mask]]
        return mask

    def category_mask(self, category: str) -> np.ndarray:
        """Texts that name one distinct term of the category, so rewriting it merges nothing.
        (`several_terms` counts, per category, the seeds left out for naming more.)"""
        return self._presence[:, self._categories.index(category)].copy()

    def disjoint(self, first: tuple[Rule, ...], second: tuple[Rule, ...]) -> bool:
        """No text satisfies both: for terms, any different term of a shared category."""
        terms = {rule.category: rule.value for rule in first}
        return any(terms.get(rule.category, rule.value) != rule.value for rule in second)

    def mentions(self, index: int) -> list[Mention]:
        """The identity mentions of seed `index`, found once when the domain was built;
        augmentation and mitigation read them here instead of matching the text again."""
        return list(self._mentions[index])

    def values_of(self, index: int, category: str) -> set[str]:
        """The distinct terms of a category that seed `index` mentions."""
        return set(self._terms[index][category])

    def input(self, index: int) -> str:
        """Seed `index` as the model sees it."""
        return self.texts[index]

    def seeds_for(self, rule_set: tuple[Rule, ...]) -> np.ndarray:
        """Indices of the seed texts that can be rewritten to satisfy the rule set."""
        return np.flatnonzero(self.support_mask(rule_set))

    def rewrite(self, index: int, rule_set: tuple[Rule, ...]) -> Variant | None:
        """Seed `index` with every mention of R's categories rewritten to R's terms.

        Remembered (up to 65,536 rewrites): paired scoring asks for the same seed and
        assignment from every rule set over the same categories.
        """
        return self._rewrite_cached(index, rule_set)

    def targets_for(self, index: int, category: str) -> list[str]:
        """The terms seed `index` may be rewritten to in `category` (its own term left out);
        empty when the seed takes no part in the category's rows."""
        own = self._terms[index][category]
        return [
            rule.value
            for rule in self.single_rules(category)
            if rule.value not in own and self.may_become(index, category, rule.value)
        ]

    def rewrite_input(self, index: int, rule_set: tuple[Rule, ...]) -> str | None:
        """`rewrite(index, rule_set).input` (None where `rewrite` gives None), read from the
        variants written before without making a `Variant`: what paired rows ask the model
        (`textfair.discovery.paired_rows`), a re-audit's most frequent call. (A variant is
        kept only once `_rewrite` found the seed may take the rule set.)"""
        kept = self._written.get((index, rule_set))
        if kept is None:
            variant = self._rewrite_cached(index, rule_set)
            return variant.input if variant is not None else None
        self._scored[kept[0]] = kept[1]
        return kept[0]

    def rewrite_with_edits(self, index: int, rule_set: tuple[Rule, ...]) -> Variant | None:
        """`rewrite`, with the span map of every change (for a reader; not remembered)."""
        return self._rewrite(index, rule_set, with_edits=True)

    remembers_rewrites = True  # `rewrite` is memoized: paired scoring may write ahead
    supports_placebo = True
    """`placebo` writes edits (`Domain.supports_placebo`)."""

    def placebo(self, index: int, categories: Sequence[str]) -> Variant | None:
        """Seed `index` with a neutral descriptor (`PLACEBO_WORDS`) written before each of
        its mentions of `categories` (those it takes part in): "a gay man" -> "a tall gay
        man", "Muslims are" -> "Quiet Muslims are". An edit at the place of the identity
        swaps, one word long, that keeps every identity: what a model that reacts to any
        edit (a new token, a longer text) shows here, and one that reads identity does not.

        The words are fixed by the text and the categories (never by a run's seed), so every
        run writes the same placebo text. None when the seed takes part in none of them, or
        the category's terms are first names or gendered words.
        """
        mentioned = tuple(
            c
            for c in categories
            if c not in self._no_placebo and self._target_set_of[c][index] >= 0
        )
        if not mentioned:
            return None
        # One word per category, distinct ones for distinct categories ("a gay Muslim man" ->
        # "a tall gay local Muslim man", not "tall" twice).
        first = int(seed_rng(self, index, "placebo", *mentioned).integers(len(PLACEBO_WORDS)))
        words = {
            c: PLACEBO_WORDS[(first + k) % len(PLACEBO_WORDS)] for k, c in enumerate(mentioned)
        }
        written = with_placebo_words(self.texts[index], self._mentions[index], words)
        return Variant(written, (), swaps=(), seed_id=index) if written is not None else None

    def _terms_by_category(self, named: list[tuple[str, str]]) -> Mapping[str, frozenset[str]]:
        """Per category, the terms a seed names (`named`: its mentions' category and term
        id), an empty set for none. Most seeds name none: they share one frozen mapping."""
        if not named:
            return self._no_terms
        found: dict[str, set[str]] = {c: set() for c in self._categories}
        for category, term_id in named:
            if category in found:
                found[category].add(term_id)
        return {c: frozenset(terms) for c, terms in found.items()}

    def _make_rewriter(self, index: int) -> Rewriter:
        return Rewriter(self.texts[index], [*self._mentions[index], *self._related[index]])

    def _rewrite(
        self, index: int, rule_set: tuple[Rule, ...], with_edits: bool = False
    ) -> Variant | None:
        targets = {rule.category: self._term_of[(rule.category, rule.value)] for rule in rule_set}
        for c, term in targets.items():  # `may_become`, inlined: once per variant written
            target_set = self._target_set_of[c][index]
            if target_set < 0 or not self._target_table[c][target_set, self._column_of[c][term.id]]:
                return None  # left out of a category, or not to be rewritten to that term
        swaps = tuple(
            Swap(category, source, term.id)
            for category, term in targets.items()
            for source in sorted(self._terms[index][category])
            if source != term.id
        )
        if not with_edits and (kept := self._written.get((index, rule_set))) is not None:
            text, score, world = kept
            self._scored[text] = score
            return Variant(text, (), swaps, index, score, world)
        rewriter = self._rewriter(index)
        by_category = rewriter.by_category
        result = rewriter.apply(
            {i: term for c, term in targets.items() for i in by_category.get(c, ())},
            with_edits=with_edits,
        )
        score = self.acceptability(index, rule_set)
        self._scored[result.text] = score
        world = self.world(index, rule_set)
        self._written[(index, tuple(rule_set))] = (result.text, score, world)
        return Variant(result.text, result.edits, swaps, index, score, world)

    def keep_written(self) -> str:
        """Keep the variants this domain wrote beside its reading in the store's cache file
        (`ReadingStore.keep_written`), for the next audit of another model; a line when the
        file could not take them, else ""."""
        if self._store is None or not self._reading_key:
            return ""
        note = self._store.keep_written(
            self._reading_key, self.reading, self.texts, self._written_known
        )
        self._written_known = len(self._written)
        return note

    def acceptability_of(self, text: str) -> float | None:
        """The acceptability of a text this domain wrote (`rewrite`) or holds as a seed (1:
        as written); None for any other text."""
        return self._scored.get(text)

    # --- what an audit records of texts (`textfair.auditing.report.AuditedDomain`) ---------

    kind: Literal["text"] = "text"
    """The report's kind."""
    values_exclusive: bool = True
    """Two terms of one category never hold together (`disjoint`): no pairwise check."""
    settings_not_read: tuple[str, ...] = ()
    """Settings report.json does not record for texts: none."""

    def scored_examples(self, examples: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """A finding's examples with the acceptability of each text (`with_acceptability`)."""
        return with_acceptability(examples, self.acceptability_of)

    def sample(
        self, rule_set: tuple[Rule, ...], n: int, rng: np.random.Generator, negate: bool = False
    ) -> list[Variant]:
        """TestSGD's Sample(D, R), or Sample(D, not R) with `negate` (`testsgd_sample`)."""
        return testsgd_sample(self, rule_set, n, rng, negate)

    def counterfactuals(
        self, index: int, categories: Sequence[str], **options: Unpack[CounterfactualOptions]
    ) -> list[Variant]:
        """The texts that differ from seed `index` only in terms of those categories."""
        options.setdefault("min_acceptability", self.min_acceptability)
        options.setdefault("private_names", self.private_names)
        return counterfactuals(
            self.texts[index], list(categories), matcher=self.matcher, seed_id=index, **options
        )
