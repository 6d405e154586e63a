"""The corpus-wide stages as Ray Data pipelines: predict, augment, counterfactuals and the
scores of the label metrics.

Every pipeline reads the corpus in shards and writes Parquet shards (or, for the label
metrics, returns a few numbers per distinct text), so the driver never holds the corpus.
Scoring deduplicates first (``groupby(text)``, a distributed hash aggregation), so each
distinct text is scored once however often it occurs; the model runs in an actor pool (one
model per actor, a GPU each when the cluster has them). Generation needs no model and runs
as plain tasks, each row seeded by its position in the file, as in the local engine, so the
rows written are the local engine's rows.

Ray retries a task whose worker dies and restarts a dead actor; a retried task rewrites its
own output, so every row is written exactly once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from textfair.distributed.ray_engine import (
    ModelActor,
    ProgressReader,
    read_corpus,
    start,
    workers,
)

__all__ = [
    "LabelScores",
    "augment_corpus",
    "counterfactuals_corpus",
    "describe_model",
    "label_metrics_on_ray",
    "label_scores",
    "predict_corpus",
]

# Distinct texts per actor call: the local engine's chunk (16 batches), so a model sees
# batches of its own batch size, length-sorted within the call as it sorts them locally.
CALL_BATCHES = 16


def describe_model(spec: str, load_options: dict[str, Any], address: str | None = None):
    """The model's labels, multi_label and fingerprint, loaded once on the cluster (the
    driver loads no model), so the favourable outcome can be checked before any scoring."""
    ray = start(address)
    remote = ray.remote(num_cpus=1, max_retries=3)(_describe)
    try:
        return ray.get(remote.remote(spec, load_options))
    except Exception as err:
        from textfair.errors import TextfairError

        cause = getattr(err, "cause", None)
        if isinstance(cause, TextfairError):
            raise cause from None
        first = (str(err).strip().splitlines() or [type(err).__name__])[-1][:300]
        raise TextfairError(f"model {spec!r} could not be loaded on Ray: {first}") from None


def _describe(spec: str, load_options: dict[str, Any]) -> dict[str, Any]:
    return ModelActor(spec, load_options).describe()


def _score(distinct, spec, load_options, batch_size, progress: ProgressReader):
    """`distinct` (a ``text`` column) with ``probabilities``, scored by the actor pool."""
    ray = start()
    count, gpus = workers(ray)
    # Ray Data restarts a dead actor and retries its batches (max_restarts and
    # max_task_retries default to -1 for an actor pool).
    return distinct.map_batches(
        _bound_actor(spec, load_options, progress.counter),
        batch_size=batch_size * CALL_BATCHES,
        concurrency=count,
        num_cpus=0 if gpus else 1,
        num_gpus=gpus,
        batch_format="numpy",
    )


def _bound_actor(spec: str, load_options: dict[str, Any], counter):
    """ModelActor with its (small) arguments bound in the class, so they travel by value
    with it and a restarted actor has them wherever it starts."""

    class BoundModelActor(ModelActor):
        def __init__(self) -> None:
            super().__init__(spec, load_options, counter)

    return BoundModelActor


@dataclass
class Tracker:
    """What a pipeline tells the progress line: the stage, and items done of a total."""

    advance: Callable[[str], None] = lambda message: None
    set_total: Callable[[int], None] = lambda total: None
    reader: ProgressReader | None = None

    def done(self) -> int:
        return self.reader.done if self.reader is not None else 0


def predict_corpus(
    spec: str,
    load_options: dict[str, Any],
    data: Path,
    text_column: str,
    out: Path,
    *,
    labels: Sequence[str],
    multi_label: bool,
    rule=None,
    address: str | None = None,
    tracker: Tracker | None = None,
) -> dict[str, int]:
    """Score every row of `data` and write `predict`'s records to Parquet shards in `out`.
    Returns the rows read and the distinct texts scored."""
    ray = start(address)
    tracker = tracker or Tracker()
    tracker.advance("reading and deduplicating the corpus")
    corpus, _ = read_corpus(data, {text_column: "text"})
    distinct = corpus.groupby("text").count().materialize()
    tracker.set_total(distinct.count())
    tracker.reader = ProgressReader(ray)
    try:
        tracker.advance("scoring")
        scored = _score(
            distinct, spec, load_options, load_options["batch_size"], tracker.reader
        ).materialize()
        tracker.advance("writing shards")
        scored.map_batches(
            _prediction_rows,
            fn_kwargs={"labels": list(labels), "multi_label": multi_label, "rule": rule},
            batch_format="numpy",
        ).write_parquet(str(Path(out).resolve()))
    finally:
        tracker.reader.close()
    return {"rows": int(scored.sum("count()")), "distinct_texts": scored.count()}


def _prediction_rows(batch, labels, multi_label, rule) -> pd.DataFrame:
    """Each distinct text's record, as many times as the corpus holds the text."""
    from textfair.predictions import prediction_records

    counts = batch["count()"].astype(np.int64)
    probabilities = np.stack(batch["probabilities"]) if len(counts) else np.empty((0, 0))
    records = prediction_records(
        [str(text) for text in batch["text"]], probabilities, labels, multi_label, rule
    )
    return pd.DataFrame(
        [record for record, n in zip(records, counts, strict=True) for _ in range(n)]
    )


AUGMENT_COLUMNS = ["seed_id", "text", "label", "source", "transformation", "label_source"]


def augment_corpus(
    data: Path,
    text_column: str,
    label_column: str,
    out: Path,
    *,
    categories: Sequence[str] | None,
    max_per_text: int,
    seed: int,
    min_acceptability: float = 0.0,
    address: str | None = None,
    tracker: Tracker | None = None,
) -> int:
    """Counterfactual augmentation of every row of `data`, as Parquet shards in `out`;
    returns the rows written."""
    start(address)
    corpus, rows = read_corpus(data, {text_column: "text", label_column: "label"})
    settings = {
        "categories": list(categories) if categories else None,
        "max_per_text": max_per_text,
        "seed": seed,
        "min_acceptability": min_acceptability,
    }
    return _generate(corpus, rows, _augmentation_rows, settings, out, address, tracker)


def _generate(corpus, rows, function, settings, out, address, tracker) -> int:
    """Rows written by `function` (plain tasks) for every row of `corpus`, as Parquet shards
    in `out`; progress counts the corpus rows done."""
    ray = start(address)
    tracker = tracker or Tracker()
    tracker.set_total(rows)
    tracker.reader = ProgressReader(ray)
    try:
        written = corpus.map_batches(
            function,
            fn_kwargs={**settings, "counter": tracker.reader.counter},
            batch_format="pandas",
        ).materialize()
        written.write_parquet(str(Path(out).resolve()))
    finally:
        tracker.reader.close()
    return written.count()


@functools.lru_cache(maxsize=4)
def _matcher(terms: str):
    from textfair.text.matcher import Matcher

    return Matcher(terms)


def _augmentation_rows(
    batch: pd.DataFrame, categories, max_per_text, seed, min_acceptability=0.0, counter=None
) -> pd.DataFrame:
    from textfair.mitigate.augment import counterfactual_augmentation

    rows = counterfactual_augmentation(
        list(batch["text"]),
        list(batch["label"]),
        categories=categories,
        max_per_text=max_per_text,
        seed=seed,
        matcher=_matcher("dixon2018"),
        indices=batch["row"],
        min_acceptability=min_acceptability,
    )
    if counter is not None:
        counter.add.remote(len(batch))
    return pd.DataFrame(rows, columns=AUGMENT_COLUMNS)


def counterfactuals_corpus(
    data: Path,
    text_column: str,
    id_column: str | None,
    out: Path,
    *,
    terms: str,
    categories: Sequence[str] | None,
    gender_swap: bool,
    max_variants: int,
    seed: int,
    min_acceptability: float = 0.0,
    private_names: bool = False,
    address: str | None = None,
    tracker: Tracker | None = None,
) -> int:
    """`textfair counterfactuals` over every row of `data`, as Parquet shards in `out`;
    returns the variants written."""
    start(address)
    columns = {text_column: "text"}
    if id_column:
        columns[id_column] = "seed_id"
    corpus, rows = read_corpus(data, columns)
    settings = {
        "terms": terms,
        "categories": list(categories) if categories else None,
        "gender_swap": gender_swap,
        "max_variants": max_variants,
        "seed": seed,
        "min_acceptability": min_acceptability,
        "private_names": private_names,
    }
    return _generate(corpus, rows, _counterfactual_records, settings, out, address, tracker)


def _counterfactual_records(
    batch: pd.DataFrame,
    terms,
    categories,
    gender_swap,
    max_variants,
    seed,
    min_acceptability=0.0,
    private_names=False,
    counter=None,
) -> pd.DataFrame:
    from textfair.text.records import seed_records

    matcher = _matcher(terms)
    names = matcher.term_list.category_names(categories)
    ids = batch["seed_id"] if "seed_id" in batch.columns else batch["row"]
    # The options in `seed_records`' order, as the local engine passes them.
    options = (gender_swap, max_variants, seed, min_acceptability, private_names)
    records = [
        record
        for seed_id, text in zip(ids, batch["text"], strict=True)
        for record in seed_records(seed_id, text, matcher, names, *options)
    ]
    if counter is not None:
        counter.add.remote(len(batch))
    columns = ["seed_id", "text", "category", "from", "to", "acceptability", "swaps"]
    return pd.DataFrame(records, columns=columns)


@dataclass
class LabelScores:
    """What the label metrics need of a labelled corpus, one entry per distinct text:
    its score for the positive class, how often it occurs and how often labelled positive,
    and the subgroups (identity terms) it mentions, as row indices per term."""

    scores: np.ndarray
    counts: np.ndarray
    positives: np.ndarray
    subgroups: dict[str, np.ndarray]

    def per_row(self, order: Sequence[str]) -> tuple[np.ndarray, np.ndarray, Mapping]:
        """Truth and scores expanded to one entry per corpus row (positives first within a
        text: the metrics are rank statistics, blind to row order), and the masks of the
        subgroups `order` names over those rows, each made when the metrics ask for it."""
        scores = np.repeat(self.scores, self.counts)
        starts = np.concatenate([[0], np.cumsum(self.counts)[:-1]])
        truth = np.zeros(len(scores), dtype=bool)
        within = np.arange(len(scores)) - np.repeat(starts, self.counts)
        truth[within < np.repeat(self.positives, self.counts)] = True
        empty = np.empty(0, dtype=np.int64)
        indices = {name: self.subgroups.get(name, empty) for name in order}
        return truth, scores, _SubgroupMasks(indices, self.counts, starts)


class _SubgroupMasks(Mapping):
    """subgroup -> boolean mask over the expanded rows, made when asked for (one at a time,
    so the driver never holds a mask per subgroup)."""

    def __init__(self, indices: dict[str, np.ndarray], counts, starts) -> None:
        self._indices, self._counts, self._starts = indices, counts, starts

    def __getitem__(self, name: str) -> np.ndarray:
        distinct = self._indices[name]
        mask = np.zeros(int(self._counts.sum()), dtype=bool)
        for first, count in zip(self._starts[distinct], self._counts[distinct], strict=True):
            mask[first : first + count] = True
        return mask

    def __iter__(self):
        return iter(self._indices)

    def __len__(self) -> int:
        return len(self._indices)


def label_scores(
    dataset,
    spec: str,
    load_options: dict[str, Any],
    *,
    positive_column: int,
    terms,
    categories: Sequence[str],
    batch_size: int,
    address: str | None = None,
    tracker: Tracker | None = None,
) -> LabelScores:
    """Score every distinct text of `dataset` (columns ``text`` and ``positive``, a bool) on
    the cluster, find its identity mentions there, and bring back only `LabelScores`."""
    from ray.data.aggregate import Count, Sum

    ray = start(address)
    tracker = tracker or Tracker()
    distinct = (
        dataset.groupby("text").aggregate(
            Count(alias_name="count"), Sum("positive", alias_name="positives")
        )
    ).materialize()
    tracker.set_total(distinct.count())
    tracker.reader = ProgressReader(ray)
    try:
        matched = distinct.map_batches(
            _mentioned_terms,
            fn_kwargs={"terms": terms, "categories": list(categories)},
            batch_format="numpy",
        ).materialize()
        scored = _score(matched, spec, load_options, batch_size, tracker.reader)
        parts: dict[str, list] = {"scores": [], "counts": [], "positives": [], "terms": []}
        for batch in scored.iter_batches(batch_format="numpy", batch_size=65536):
            parts["scores"].append(np.stack(batch["probabilities"])[:, positive_column])
            parts["counts"].append(batch["count"].astype(np.int64))
            parts["positives"].append(batch["positives"].astype(np.int64))
            parts["terms"].extend(batch["terms"])
    finally:
        tracker.reader.close()
    subgroups: dict[str, list[int]] = {}
    for index, mentioned in enumerate(parts["terms"]):
        for term in str(mentioned).split("\n") if mentioned else ():
            subgroups.setdefault(term, []).append(index)
    return LabelScores(
        scores=np.concatenate(parts["scores"]) if parts["scores"] else np.empty(0),
        counts=np.concatenate(parts["counts"]) if parts["counts"] else np.empty(0, np.int64),
        positives=np.concatenate(parts["positives"])
        if parts["positives"]
        else np.empty(0, np.int64),
        subgroups={term: np.asarray(rows, dtype=np.int64) for term, rows in subgroups.items()},
    )


def _mentioned_terms(batch, terms, categories) -> dict:
    """Each text's mentioned terms (every mention, rewritable or not, as the local label
    metrics count them), joined by newlines."""
    matcher = _matcher(terms)
    found = [
        "\n".join(sorted({m.term_id for m in matcher.find(str(text), categories)}))
        for text in batch["text"]
    ]
    return {**batch, "terms": np.asarray(found, dtype=object)}


def label_metrics_on_ray(
    spec: str,
    load_options: dict[str, Any],
    data: Path,
    *,
    text_column: str,
    label_column: str,
    positive_label: str,
    terms: str = "dixon2018",
    categories: Sequence[str] | None = None,
    label_map: dict[str, str] | None = None,
    address: str | None = None,
    tracker: Tracker | None = None,
    confidence: float = 0.95,
    correction: str = "holm",
):
    """The label metrics of a labelled corpus (subgroup, BPSN and BNSP AUC per identity
    term; FPR/FNR gaps), the corpus read, matched and scored on the cluster: the audit's
    label-metric stage for a corpus the driver need not hold. Equal to the local engine's
    metrics for the same corpus, model, `confidence` (of every interval) and `correction`
    (of the AUCs' tests against the overall AUC)."""
    from textfair.stats.label_metrics import bias_metrics
    from textfair.terms import load_term_list

    start(address)
    model = describe_model(spec, load_options, address)
    names = list(model["labels"])
    if positive_label not in names:
        from textfair.errors import TextfairError

        raise TextfairError(
            f"positive label {positive_label!r} is not a label of the model; its labels are: "
            f"{', '.join(names)}"
        )
    term_list = load_term_list(terms)
    chosen = term_list.category_names(list(categories) if categories else None)
    corpus, _ = read_corpus(data, {text_column: "text", label_column: "label"})
    labelled = corpus.map_batches(
        _positive,
        fn_kwargs={"positive": positive_label, "label_map": label_map or {}},
        batch_format="pandas",
    )
    found = label_scores(
        labelled,
        spec,
        load_options,
        positive_column=names.index(positive_label),
        terms=terms,
        categories=chosen,
        batch_size=load_options["batch_size"],
        tracker=tracker,
    )
    # The local engine's subgroups, in its order: every term of every category.
    order = dict.fromkeys(term.id for c in chosen for term in term_list.categories[c])
    truth, scores, masks = found.per_row(list(order))
    found_metrics = bias_metrics(truth, scores, masks, confidence=confidence, correction=correction)
    return replace(found_metrics, positive_label=positive_label)


def _positive(batch: pd.DataFrame, positive: str, label_map: dict[str, str]) -> pd.DataFrame:
    labels = batch["label"].map(lambda value: label_map.get(value, value))
    return pd.DataFrame({"text": batch["text"], "positive": labels == positive})
