"""Scoring a corpus on Ray Data: one model per actor, each distinct text scored once.

The pipeline (:func:`predict_corpus`):

1. a sharded read of the corpus (CSV, TSV, JSON lines, Parquet; one Ray block per shard);
2. ``groupby(text).count()``: the distinct texts with how often each occurs, by a distributed
   hash aggregation, so no text is scored twice and the driver never holds the corpus;
3. ``map_batches`` over a pool of :class:`ModelActor` (the model loaded once per actor, on a
   GPU when the cluster gives the actor one), each batch scored in one forward pass;
4. each scored text written back as many times as it occurs, to Parquet shards.

Ray retries a task whose worker dies; a retried task rewrites its own shard, so the output
holds every input row exactly once. Rows come out in Ray's order, not the input's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import numpy as np

from textfair.errors import TextfairError

ENGINES = ("local", "ray")
Engine = Literal["local", "ray"]
INSTALL = "pip install 'textfair[ray]'"


def require_ray():
    """The `ray` module, or one line saying how to get it."""
    try:
        import ray
        import ray.data  # the Data library is a separate extra of Ray
    except ImportError:
        raise TextfairError(
            f"--engine ray needs Ray, which is not installed; install it with {INSTALL}, or "
            "leave --engine out (local)",
            parameter="engine",
        ) from None
    return ray


def start(address: str | None):
    """Join the cluster at `address` (ray://host:port or host:port), or start a local one
    sized to this process's cores; Ray's own progress bars and logs stay quiet."""
    ray = require_ray()
    if not ray.is_initialized():
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
            )
        except (ConnectionError, ValueError, RuntimeError) as err:
            where = address or "a local cluster"
            raise TextfairError(
                f"--ray-address {where}: cannot connect ({err}); start the cluster with "
                "`ray start --head` or leave --ray-address out for a local one",
                parameter="ray_address",
            ) from None
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    return ray


def read_corpus(path: Path, text_column: str):
    """A Ray Dataset with one column, "text", read in shards."""
    import ray.data

    suffix = path.suffix.lower()
    if suffix == ".parquet":
        dataset = ray.data.read_parquet(str(path), columns=[text_column])
    elif suffix in (".jsonl", ".json"):
        dataset = ray.data.read_json(str(path), lines=True)
    elif suffix in (".csv", ".tsv"):
        from pyarrow import csv

        parse = csv.ParseOptions(delimiter="\t" if suffix == ".tsv" else ",")
        dataset = ray.data.read_csv(str(path), parse_options=parse)
    else:
        raise TextfairError(
            f"{path}: --engine ray reads .csv, .tsv, .jsonl or .parquet, not {suffix!r}"
        )
    columns = dataset.columns()
    if text_column not in columns:
        raise TextfairError(
            f"{path}: no column {text_column!r}; columns are: {', '.join(columns)}",
            parameter="text_column",
        )
    return dataset.select_columns([text_column]).rename_columns({text_column: "text"})


class ModelActor:
    """Loads the model once (per actor) and scores batches of distinct texts."""

    def __init__(self, spec: str, load_options: dict[str, Any]):
        from textfair.models.spec import load_model

        self.model = load_model(spec, **load_options)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        texts = [str(text) for text in batch["text"]]
        probabilities = np.asarray(self.model.predict_proba(texts), dtype=np.float64)
        return {**batch, "probabilities": probabilities}


def _repeat(batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each distinct text as many times as the corpus holds it."""
    counts = batch["count()"].astype(np.int64)
    return {
        "text": np.repeat(batch["text"], counts),
        "probabilities": np.repeat(batch["probabilities"], counts, axis=0),
    }


def predict_corpus(
    spec: str,
    load_options: dict[str, Any],
    data: Path,
    text_column: str,
    out: Path,
    *,
    address: str | None = None,
    actors: int | None = None,
    batch_size: int = 64,
) -> dict[str, int]:
    """Score every row of `data` with the model `spec` on Ray and write Parquet shards to
    `out` (columns text, probabilities: one list per row in the model's label order).
    Returns the rows read and the distinct texts scored."""
    ray = start(address)
    dataset = read_corpus(Path(data), text_column)
    # Grouped to the end before the actors start: an actor holds its CPU for the whole
    # stage, and a group-by streaming beside a pool as large as the cluster has no CPU left.
    distinct = dataset.groupby("text").count().materialize()
    workers = actors or max(1, int(ray.cluster_resources().get("CPU", 1)))
    gpus = 1 if ray.cluster_resources().get("GPU", 0) >= workers else 0
    # Materialized in the cluster's object store (not the driver): counted without scoring
    # the texts a second time.
    scored = distinct.map_batches(
        ModelActor,
        fn_constructor_args=(spec, load_options),
        batch_size=batch_size,
        concurrency=workers,
        num_gpus=gpus,
        batch_format="numpy",
    ).materialize()
    scored.map_batches(_repeat, batch_format="numpy").write_parquet(str(out))
    return {"rows": int(scored.sum("count()")), "distinct_texts": scored.count()}
