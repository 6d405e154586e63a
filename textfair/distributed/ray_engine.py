"""The Ray side of `--engine ray`: the cluster, sharded reads, and models on actors.

* :func:`start` joins a cluster (``--ray-address``) or starts a local one, quietly.
* :func:`read_corpus` reads CSV, TSV, JSON lines or Parquet in shards, in file order, with
  each row's position in the file (``row``): what seeds a row's random choices locally.
* :class:`ModelActor` holds one model per actor (on a GPU when the cluster gives the actor
  one) and answers batches, for Ray Data pipelines and for :class:`ActorPoolModel`.
* :class:`ActorPoolModel` is a textfair model whose batches are answered by a pool of
  those actors at once: the sampled audit keeps its algorithms and its cache, and only the
  forward passes move. Each batch is the batch the local engine would have sent to its one
  model, so every answer is the same number (same padding, same arithmetic).
* :class:`Progress` counts on the cluster what the actors and tasks did; a
  :class:`ProgressReader` reads it on the driver, and a :class:`Tracker` is what a pipeline
  tells the progress line through.
* :func:`term_matcher` is a term list's matcher, built once per worker process, for the
  pipelines that find identity mentions on the cluster.

Actors are restarted when their worker dies and their unfinished calls are retried, so a
lost worker costs time, never an answer.
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from textfair.errors import TextfairError

if TYPE_CHECKING:
    import pyarrow as pa
    from ray.actor import ActorHandle
    from ray.data import Dataset

    from textfair.text.matcher import Matcher

__all__ = [
    "INSTALL",
    "ActorPoolModel",
    "ModelActor",
    "Progress",
    "ProgressReader",
    "Tracker",
    "read_corpus",
    "require_ray",
    "start",
    "term_matcher",
    "workers",
]

INSTALL = "pip install 'textfair[ray]'"
SUFFIXES = (".csv", ".tsv", ".jsonl", ".json", ".parquet")


def require_ray() -> ModuleType:
    """The `ray` module with its Data library, or one line saying how to get them."""
    try:
        import ray
        import ray.data  # Ray Data is an extra of Ray: ray[data]
    except ImportError:
        raise TextfairError(
            f"--engine ray needs Ray, which is not installed; install it with {INSTALL}, "
            "or leave --engine out (local)",
            parameter="engine",
        ) from None
    return ray


def start(address: str | None = None) -> ModuleType:
    """Join the cluster at `address` (host:port, ray://host:port or "auto"), or start a local
    one sized to this machine; Ray's own logs and progress bars stay quiet (textfair reports
    progress itself). A process already connected keeps its cluster."""
    ray = require_ray()
    if not ray.is_initialized():
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
                configure_logging=True,
            )
        except (ConnectionError, ValueError, RuntimeError) as err:
            first = (str(err).strip().splitlines() or [type(err).__name__])[0][:200]
            raise TextfairError(
                f"--ray-address {address}: cannot join the cluster ({first}); start one with "
                "`ray start --head` and pass its address, or leave --ray-address out for a "
                "local cluster",
                parameter="ray_address",
            ) from None
    import logging
    import warnings

    for name in ("ray", "ray.data"):  # one line per executed dataset otherwise
        logging.getLogger(name).setLevel(logging.ERROR)
    # Dataset.zip (the row numbers) is deprecated from Ray 2.60 and kept until 2.64, the
    # extra's upper bound; the warning is for us, not for a user.
    warnings.filterwarnings("ignore", message=r"(?s).*`Dataset\.zip` is deprecated")
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    # Rows keep the file's order through every map: a row's position seeds its random
    # choices, as in the local engine.
    context.execution_options.preserve_order = True
    return ray


def workers(ray: ModuleType, requested: int | None = None) -> tuple[int, float]:
    """How many model actors, and the GPUs each gets: one actor per GPU when the cluster has
    GPUs, else one per CPU (or `requested`)."""
    resources = ray.cluster_resources()
    gpus = int(resources.get("GPU", 0))
    if gpus:
        return (requested or gpus), 1.0
    return (requested or max(1, int(resources.get("CPU", 1)))), 0.0


def read_corpus(path: Path, columns: dict[str, str]) -> tuple[Dataset, int]:
    """A Ray Dataset of the file's `columns` (file name -> name in the pipeline) and ``row``,
    each row's 0-based position in the file, and the number of rows. The text columns are
    strings, a missing value an empty string, as the local reader makes them."""
    import pyarrow as pa
    import ray.data

    # Absolute: the workers of a cluster joined with --ray-address run in other directories
    # (on other machines, the file must be on storage they share).
    path = Path(path).resolve()
    if not path.is_file():
        raise TextfairError(f"{path}: no such file; pass the path of a corpus")
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise TextfairError(
            f"{path}: --engine ray reads .csv, .tsv, .jsonl or .parquet, not "
            f"{suffix or '(no extension)'!r}; convert the file or use --engine local"
        )
    wanted = list(columns)
    if suffix == ".parquet":
        dataset = ray.data.read_parquet(str(path))
    elif suffix in (".jsonl", ".json"):
        dataset = ray.data.read_json(str(path), lines=True)
    else:
        from pyarrow import csv

        dataset = ray.data.read_csv(
            str(path),
            parse_options=csv.ParseOptions(
                delimiter="\t" if suffix == ".tsv" else ",", newlines_in_values=True
            ),
            convert_options=csv.ConvertOptions(
                column_types={name: pa.string() for name in wanted}, strings_can_be_null=True
            ),
        )
    found = dataset.columns()
    missing = [name for name in wanted if name not in found]
    if missing:
        raise TextfairError(
            f"{path}: no column {missing[0]!r}; columns are: {', '.join(found)}",
            parameter="text_column",
        )
    dataset = dataset.select_columns(wanted).rename_columns(columns)
    # The row count reads the file once more (zip needs it); the price of numbering rows
    # without the driver reading the file. A join on a row key (Ray >= 2.64) would not.
    rows = dataset.count()
    numbered = ray.data.range(rows).rename_columns({"id": "row"})
    return dataset.zip(numbered).map_batches(_as_strings, batch_format="pyarrow"), rows


def _as_strings(table: pa.Table) -> pa.Table:
    """Every column but ``row`` as strings, a null as "" (the local reader's fillna)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for index, name in enumerate(table.column_names):
        if name != "row":
            column = pc.fill_null(pc.cast(table.column(name), pa.string()), "")
            table = table.set_column(index, name, column)
    return table


class ModelActor:
    """One model, loaded once per actor; answers batches of distinct texts."""

    def __init__(
        self, spec: str, load_options: dict[str, Any], progress: ActorHandle | None = None
    ) -> None:
        from textfair.models.spec import load_model

        self.model = load_model(spec, **load_options)
        self.progress = progress

    def describe(self) -> dict[str, Any]:
        """What the driver needs to know of the model without loading it."""
        return {
            "labels": tuple(str(label) for label in self.model.labels),
            "multi_label": bool(getattr(self.model, "multi_label", False)),
            "fingerprint": getattr(self.model, "fingerprint", None),
            # Where a torch model runs ("cpu", "cuda:0"): the audit asks a pool on CPUs
            # nothing ahead, as it asks the same model loaded locally (textfair.models.ahead).
            "device": str(device) if (device := getattr(self.model, "device", None)) else None,
        }

    def predict_proba(self, inputs: Sequence[str]) -> np.ndarray:
        answer = np.asarray(self.model.predict_proba(list(inputs)), dtype=np.float64)
        if self.progress is not None:
            self.progress.add.remote(len(inputs))
        return answer

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Ray Data: the batch with a ``probabilities`` column (one row per text)."""
        return {**batch, "probabilities": self.predict_proba([str(t) for t in batch["text"]])}


class Progress:
    """A counter the actors add to and the driver reads (a Ray actor): how progress on the
    cluster reaches textfair's own progress line. A retried call counts twice; readers cap
    it at the total."""

    def __init__(self) -> None:
        self.done = 0

    def add(self, count: int) -> None:
        self.done += count

    def value(self) -> int:
        return self.done


class ProgressReader:
    """The cluster's counter as a local number, read in the background every half second,
    so that a progress line never waits on the cluster."""

    def __init__(self, ray: ModuleType) -> None:
        self._ray = ray
        self.counter = ray.remote(num_cpus=0)(Progress).remote()
        self.done = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True, name="textfair-ray")
        self._thread.start()

    def _poll(self) -> None:
        from ray.exceptions import GetTimeoutError

        while not self._stop.wait(0.5):
            try:
                self.done = self._ray.get(self.counter.value.remote(), timeout=30)
            except GetTimeoutError:  # a busy cluster answers late; ask again
                continue
            except Exception:  # the cluster is going away; the last value stands
                return

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


@dataclass
class Tracker:
    """What a pipeline tells the progress line: the stage, and items done of a total."""

    advance: Callable[[str], None] = lambda message: None
    set_total: Callable[[int], None] = lambda total: None
    reader: ProgressReader | None = None

    def done(self) -> int:
        return self.reader.done if self.reader is not None else 0


@functools.lru_cache(maxsize=4)
def term_matcher(terms: str) -> Matcher:
    """The matcher of a term list (a name or a path), built once per worker process: the
    pipelines that find identity mentions on the cluster call it for every batch."""
    from textfair.text.matcher import Matcher

    return Matcher(terms)


class ActorPoolModel:
    """A textfair model answered by `size` actors, each holding the model `spec`.

    :meth:`predict_proba_batches` hands batches to free actors and yields the answers in
    order; CachedModel uses it, so an audit's batches are scored in parallel and are the
    same batches, with the same answers, as with one local model."""

    def __init__(
        self,
        spec: str,
        load_options: dict[str, Any],
        *,
        address: str | None = None,
        size: int | None = None,
        progress: ProgressReader | None = None,
    ) -> None:
        from ray.util import ActorPool

        ray = start(address)
        self._ray = ray
        count, gpus = workers(ray, size)
        remote = ray.remote(ModelActor).options(
            num_cpus=0 if gpus else 1, num_gpus=gpus, max_restarts=-1, max_task_retries=-1
        )
        counter = progress.counter if progress is not None else None
        self.actors = [remote.remote(spec, load_options, counter) for _ in range(count)]
        try:
            described = ray.get(self.actors[0].describe.remote())
        except Exception as err:
            first = (str(err).strip().splitlines() or [type(err).__name__])[-1][:300]
            raise TextfairError(f"model {spec!r} could not be loaded on Ray: {first}") from None
        self.labels = described["labels"]
        self.multi_label = described["multi_label"]
        self.fingerprint = described["fingerprint"]
        if described["device"] is not None:
            self.device = described["device"]
        self._pool = ActorPool(self.actors)

    def predict_proba(self, inputs: Sequence[str]) -> np.ndarray:
        return next(iter(self.predict_proba_batches([list(inputs)])))

    def predict_proba_batches(self, batches: list[list[str]]) -> Iterator[np.ndarray]:
        """Each batch's probabilities, in order, the batches spread over the actors (a list,
        as ActorPool.map takes)."""
        return self._pool.map(lambda actor, batch: actor.predict_proba.remote(batch), batches)

    def close(self) -> None:
        for actor in self.actors:
            self._ray.kill(actor)


MARKER = "_textfair.json"


def check_shard_directory(out: Path | None, command: str) -> Path:
    """--out of a Ray pipeline: a directory that does not exist yet, is empty, or holds the
    shards of an earlier run (its marker file); anything else is a user's directory, which
    a run must never replace. Checked before any work."""
    if out is None:
        raise TextfairError(
            f"{command} --engine ray writes Parquet shards; pass --out DIR (a new directory)"
        )
    out = Path(out)
    if out.suffix.lower() in (".csv", ".jsonl", ".json", ".txt", ".tsv"):
        raise TextfairError(
            f"--out {out}: --engine ray writes a directory of Parquet shards, not a "
            f"{out.suffix} file; pass a directory name (e.g. {out.with_suffix('')})"
        )
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise TextfairError(
            f"--out {out}: exists and is not a shard directory textfair wrote; it is left "
            "alone: pass a new directory name"
        )
    return out


@contextlib.contextmanager
def shard_directory(out: Path, record: dict[str, Any]) -> Iterator[Path]:
    """A staging directory for the shards; on success it replaces `out` in one step, with
    `record` (what wrote it and how many rows) in its marker file."""
    from textfair.io import atomic_directory

    with atomic_directory(out) as staging:
        yield staging
        (staging / MARKER).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class ModelLabels:
    """What the driver knows of a model loaded on the cluster (ModelActor.describe): enough
    to check a favourable outcome against its labels before any scoring."""

    labels: tuple[str, ...]
    multi_label: bool
    fingerprint: str | None = None
    device: str | None = None
    """Where a torch model runs on the cluster ("cpu", "cuda:0"); None for another model."""
