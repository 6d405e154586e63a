"""The corpus-wide stages that write Parquet shards, as Ray Data pipelines: predict, augment
and counterfactuals. (The label metrics, which bring back a few numbers per distinct text
instead, are `textfair.distributed.label_metrics`.)

Every pipeline reads the corpus in shards and writes Parquet shards, so the driver never
holds the corpus. Scoring deduplicates first (``groupby(text)``, a distributed hash
aggregation), so each distinct text is scored once however often it occurs; the model runs
in an actor pool (`textfair.distributed.scoring`: one model per actor, a GPU each when the
cluster has them). Generation needs no model and runs as plain tasks, each row seeded by its
position in the file, as in the local engine, so the rows written are the local engine's
rows.

Ray retries a task whose worker dies and restarts a dead actor; a retried task rewrites its
own output, so every row is written exactly once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from textfair.distributed.ray_engine import (
    ProgressReader,
    Tracker,
    read_corpus,
    start,
    term_matcher,
)
from textfair.distributed.scoring import score_distinct

if TYPE_CHECKING:
    from ray.actor import ActorHandle
    from ray.data import Dataset

    from textfair.models.decision import Decision

__all__ = ["augment_corpus", "counterfactuals_corpus", "predict_corpus"]


def predict_corpus(
    spec: str,
    load_options: dict[str, Any],
    data: Path,
    text_column: str,
    out: Path,
    *,
    labels: Sequence[str],
    multi_label: bool,
    rule: Decision | None = None,
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
        scored = score_distinct(
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


def _prediction_rows(
    batch: dict[str, np.ndarray], labels: list[str], multi_label: bool, rule: Decision | None
) -> pd.DataFrame:
    """Each distinct text's record, as many times as the corpus holds the text."""
    from textfair.predictions import prediction_records

    counts = batch["count()"].astype(np.int64)
    # One probability row per text (a list: NumPy's stack takes a sequence of rows).
    rows = list(batch["probabilities"])
    probabilities = np.stack(rows) if len(counts) else np.empty((0, 0))
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
    settings: dict[str, Any] = {
        "categories": list(categories) if categories else None,
        "max_per_text": max_per_text,
        "seed": seed,
        "min_acceptability": min_acceptability,
    }
    return _generate(corpus, rows, _augmentation_rows, settings, out, address, tracker)


def _generate(
    corpus: Dataset,
    rows: int,
    function: Callable[..., pd.DataFrame],
    settings: dict[str, Any],
    out: Path,
    address: str | None,
    tracker: Tracker | None,
) -> int:
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


def _augmentation_rows(
    batch: pd.DataFrame,
    categories: list[str] | None,
    max_per_text: int,
    seed: int,
    min_acceptability: float = 0.0,
    counter: ActorHandle | None = None,
) -> pd.DataFrame:
    from textfair.mitigate.augment import counterfactual_augmentation

    rows = counterfactual_augmentation(
        list(batch["text"]),
        list(batch["label"]),
        categories=categories,
        max_per_text=max_per_text,
        seed=seed,
        matcher=term_matcher("dixon2018"),
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
    settings: dict[str, Any] = {
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
    terms: str,
    categories: list[str] | None,
    gender_swap: bool,
    max_variants: int,
    seed: int,
    min_acceptability: float = 0.0,
    private_names: bool = False,
    counter: ActorHandle | None = None,
) -> pd.DataFrame:
    from textfair.text.records import seed_records

    matcher = term_matcher(terms)
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
