"""The reading of a corpus's seed texts: each seed's mentions, its coherence plan per
category (targets that score below the threshold left out), and the scores computed on the
way, the seeds read in chunks by worker processes.

Apart from the domain (:mod:`textfair.text.domain`), which holds what the reading found and
answers the audit's questions from it: this is the work done once per seed, each seed on its
own, in a forked worker (see `textfair.workers`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from textfair.errors import TextfairError
from textfair.text import _gates as gates
from textfair.text._acceptability import Scorer, keep_acceptable
from textfair.text._coherence import CategoryPlan, Coherence
from textfair.text.matcher import Matcher
from textfair.text.mentions import Mention
from textfair.text.reading import Reading, reading_key
from textfair.text.reading_store import ReadingStore
from textfair.workers import check_workers, fork_map, notify
from textfair.workers import split as workers_split

__all__ = ["SeedReader", "corpus_reading", "read_seeds"]

#: What a chunk of seeds read gives back: each seed's mentions, its plan per category, and
#: the scores computed on the way (`Scorer.remembered`).
ChunkReading = tuple[
    list[list[Mention]], list[dict[str, CategoryPlan]], dict[tuple[object, str], np.ndarray]
]


class SeedReader:
    """Reads seeds by index: what a forked worker runs on its chunk of the corpus (it
    inherits the matcher, the coherence rules and the scorer of the domain being built).

    `categories` are the domain's; `columns` gives, per category, each term id's place in
    the scorer's arrays; `min_acceptability` and `private_names` are the domain's settings.
    """

    def __init__(
        self,
        texts: Sequence[str],
        matcher: Matcher,
        coherence: Coherence,
        scorer: Scorer,
        categories: list[str],
        columns: Mapping[str, Mapping[str, int]],
        min_acceptability: float,
        private_names: bool,
    ) -> None:
        self.texts = texts
        self.matcher = matcher
        self.coherence = coherence
        self.scorer = scorer
        self.categories = categories
        self._term_of_category = set(categories)
        self._column_of = columns
        self.min_acceptability = min_acceptability
        self.private_names = private_names

    def read(self, indices: list[int]) -> ChunkReading:
        """Seeds `indices` read: each one's mentions, its plan per category (targets that
        score below `min_acceptability` left out), and the scores computed on the way."""
        mentions, plans = [], []
        noticed = False  # notify() once a chunk: the notice is given once whoever calls it
        for i in indices:
            text = self.texts[i]
            # Mentions and the identity's other uses come from one scan of each text.
            found = self.matcher.find(text, self.categories)
            others = self.matcher.other_uses(text, self.categories)
            mentions.append(found)
            plan = self.coherence.plan(text, found, others, private_names=self.private_names)
            plans.append(self._keep_acceptable(i, found, plan))
            if not noticed and self.takes_part(plans[-1]):
                noticed = True
                notify()  # on_first_seed, in this process, wherever the seed was read
        return mentions, plans, self.scorer.remembered(indices)

    def takes_part(self, plans: dict[str, CategoryPlan]) -> bool:
        """Whether a seed with these plans takes part in one category's rows at least."""
        return any(
            c in self._term_of_category and plan.left_out is None for c, plan in plans.items()
        )

    def _keep_acceptable(
        self, index: int, mentions: list[Mention], plans: dict[str, CategoryPlan]
    ) -> dict[str, CategoryPlan]:
        """The seed's plans less the targets scoring below `min_acceptability` (`mentions`:
        the seed's, read before the domain holds them)."""
        if self.min_acceptability <= 0.0 or not gates.runs("low_acceptability"):
            return plans
        kept = {}
        for c, plan in plans.items():
            if c in self._term_of_category and plan.left_out is None:
                scores = self.scorer.scores(
                    index, self.texts[index], mentions, c, len(plan.related)
                )
                plan = keep_acceptable(plan, scores, self._column_of[c], self.min_acceptability)
            kept[c] = plan
        return kept


def read_seeds(
    reader: SeedReader,
    workers: int | None,
    shared: Iterable[object],
    on_first_seed: Callable[[], object] | None,
) -> tuple[list[list[Mention]], list[dict[str, CategoryPlan]]]:
    """Every seed of `reader` read, by `workers` processes (None: the cores this process may
    use): its mentions and its plans, in the seeds' order; the scores computed are remembered
    by the reader's scorer. `shared`: objects the results refer to, sent back by reference
    (the term list's terms); `on_first_seed`: see `TextDomain`."""
    # Mentions are found once per seed; every rewrite of the seed reuses them. Each
    # seed is read on its own, so the seeds are read in chunks by worker processes.
    mentions: list[list[Mention]] = [[] for _ in reader.texts]
    plans: list[dict[str, CategoryPlan]] = [{} for _ in reader.texts]
    chunks = workers_split([len(text) for text in reader.texts], check_workers(workers))
    for chunk, (found_mentions, planned, scores) in zip(
        chunks, fork_map(reader.read, chunks, shared, on_first_seed), strict=True
    ):
        for index, found, by_category in zip(chunk, found_mentions, planned, strict=True):
            mentions[index], plans[index] = found, by_category
        reader.scorer.remember(scores)
    return mentions, plans


def corpus_reading(
    reader: SeedReader,
    workers: int | None,
    on_first_seed: Callable[[], object] | None,
    store: ReadingStore | None,
    given: Reading | None,
) -> tuple[Reading, str, str, str]:
    """The corpus's reading, where it came from ("" when read here, "this process" or a
    cache file's path), a line on what the store refused or could not keep, and the key
    the store keeps it under ("" without a store): `given`, or the one `store` keeps for
    the reader's corpus, lists and settings, or read now by `workers` (and kept by
    `store`). `given`: a reading another domain holds, in part (`Reading.subset`)."""
    if given is not None:
        if len(given) != len(reader.texts):
            raise TextfairError("reading is of another corpus than the texts given")
        return _reused(reader, given, on_first_seed), "this process", "", ""
    terms = reader.matcher.term_list
    key, note = "", ""
    if store is not None:
        settings = (reader.min_acceptability, reader.private_names)
        key = reading_key(reader.texts, terms, reader.categories, *settings)
        found = store.find(key, reader.texts, terms)
        if found.reading is not None:
            return _reused(reader, found.reading, on_first_seed), found.source, found.note, key
        note = found.note
    mentions, plans = read_seeds(reader, workers, terms.terms(), on_first_seed)
    read = Reading(mentions, plans, reader.scorer.remembered(range(len(reader.texts))))
    if store is not None:
        note = "; ".join(said for said in (note, store.keep(key, read)) if said)
    return read, "", note, key


def _reused(
    reader: SeedReader, reading: Reading, on_first_seed: Callable[[], object] | None
) -> Reading:
    """`reading`, after telling `on_first_seed` (as a reading would have) when one of its
    seeds takes part in a category's rows."""
    if on_first_seed is not None and any(map(reader.takes_part, reading.plans)):
        on_first_seed()
    return reading
