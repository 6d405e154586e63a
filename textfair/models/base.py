"""The Model contract, output validation, and CachedModel.

A model is anything with ``labels`` and ``predict_proba(inputs) -> (n, k) array`` whose rows
are probabilities. textfair's cost is the model's forward passes, so every model an audit
uses is wrapped in :class:`CachedModel`: it deduplicates inputs inside and across calls,
forwards only inputs it has never seen, counts what it did, and can keep its answers in a
SQLite file so an interrupted run resumes without asking the model again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import sys
import time
import warnings
from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from textfair.errors import ModelError, TextfairError, describe_failure

__all__ = [
    "CacheStats",
    "CachedModel",
    "Model",
    "StageCost",
    "check_probabilities",
    "favorable_index",
    "resolve_device",
]

_TOLERANCE = 1e-4


@runtime_checkable
class Model(Protocol):
    """What textfair needs from a classifier."""

    @property
    def labels(self) -> tuple[str, ...]:
        """The class names, one per column of `predict_proba`."""
        ...

    # Optional: True for a multi-label head (one sigmoid per label, rows need not sum to 1).
    # multi_label: bool

    def predict_proba(self, inputs: Sequence) -> np.ndarray:
        """Class probabilities, shape (len(inputs), len(labels)), rows summing to 1 (or one
        probability per label for a multi-label head)."""
        ...


def check_probabilities(
    output: object, n_inputs: int, n_labels: int, source: str, multi_label: bool = False
) -> np.ndarray:
    """Return `output` as a float64 (n, k) array, or raise a one-line TextfairError.

    Rows of a softmax head sum to 1; a multi-label head's (one sigmoid per label) need not,
    but each value is still a probability in [0, 1]."""
    try:
        array = np.asarray(output, dtype=np.float64)
    except (TypeError, ValueError):
        raise TextfairError(
            f"{source} returned {type(output).__name__} values that are not numbers in rows "
            f"of {n_labels}; expected one row of class probabilities per input"
        ) from None
    if array.shape != (n_inputs, n_labels):
        raise TextfairError(
            f"{source} returned an array of shape {array.shape} for {n_inputs} inputs; "
            f"expected ({n_inputs}, {n_labels}): one row of {n_labels} class probabilities "
            "per input"
        )
    if np.isnan(array).any():
        row = int(np.argwhere(np.isnan(array))[0][0])
        raise TextfairError(f"{source} returned NaN probabilities (row {row}); fix the model")
    if (array < -_TOLERANCE).any():
        row = int(np.argwhere(array < -_TOLERANCE)[0][0])
        raise TextfairError(
            f"{source} returned negative probabilities (row {row}: {array[row].tolist()}); "
            "apply a softmax to its scores"
        )
    if multi_label:
        if (array > 1.0 + _TOLERANCE).any():
            row = int(np.argwhere(array > 1.0 + _TOLERANCE)[0][0])
            raise TextfairError(
                f"{source} returned values above 1 (row {row}); a multi-label head returns "
                "one probability per label: apply a sigmoid to its scores"
            )
        return np.clip(array, 0.0, 1.0)
    sums = array.sum(axis=1)
    bad = np.abs(sums - 1.0) > _TOLERANCE
    if bad.any():
        row = int(np.argmax(bad))
        raise TextfairError(
            f"{source} returned rows that do not sum to 1 (row {row} sums to {sums[row]:.4f}); "
            "return probabilities, e.g. a softmax of its scores"
        )
    return np.clip(array, 0.0, 1.0)


def resolve_device(device: str = "auto") -> str:
    """'auto' picks CUDA when available, else CPU; anything else is checked and returned."""
    import torch  # imported here: loading torch costs a second

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise TextfairError.bad("device", f"{device}: no CUDA device is available; use cpu")
    if device not in ("cpu", "mps") and not device.startswith("cuda"):
        raise TextfairError.bad("device", f"{device!r}: expected auto, cpu, cuda or cuda:N")
    return device


def renamed(new_name: str, new: object, old: object, why: str, old_name: str = "labels"):
    """`new`, or the value given under the keyword's old name `old_name`, with a
    FutureWarning naming the new one and `why`; both at once is a one-line error."""
    if old is None:
        return new
    if new is not None:
        raise TextfairError.bad(old_name, f"is the old name of {new_name}; give {new_name} alone")
    warnings.warn(f"{old_name}= is now {new_name}= ({why})", FutureWarning, stacklevel=3)
    return old


# Class names a model gives when it was not told any: LABEL_0 (transformers), 0 (numbers).
UNNAMED = re.compile(r"LABEL_\d+|\d+")


def naming_hint(names: Sequence[str]) -> str:
    """For a model whose classes are LABEL_0, LABEL_1 (or 0, 1): how to name them; else ""."""
    if names and all(UNNAMED.fullmatch(str(name)) for name in names):
        return (
            "; name its classes in the order of its outputs with --label-names "
            "(label_names= in as_model), e.g. --label-names non-toxic,toxic"
        )
    return ""


def favorable_index(labels: Sequence[str], favorable: str) -> int:
    """The column of the favourable label, or a one-line error listing the model's labels."""
    names = [str(label) for label in labels]
    if str(favorable) in names:
        return names.index(str(favorable))
    raise TextfairError(
        f"favourable label {favorable!r} is not a label of the model; "
        f"its labels are: {', '.join(names)}{naming_hint(names)}"
    )


@dataclass
class StageCost:
    """What one stage of a run cost: inputs forwarded to the model, the model's seconds on
    them, and the stage's own wall-clock seconds (model included; 0 for a stage that only
    names inputs, as placebo edits scored with another stage's)."""

    forwarded: int = 0
    model_seconds: float = 0.0
    seconds: float = 0.0


@dataclass
class CacheStats:
    """What a CachedModel did.

    Attributes:
        requested: inputs asked for, repeats included.
        unique_inputs: distinct inputs among them.
        forwarded: inputs the wrapped model was given (each distinct one once, none that
            were answered from disk).
        model_calls: calls to the wrapped model, each a batch of forwarded inputs.
        cache_hits: inputs answered from memory, without a forward pass.
        disk_hits: inputs answered from the cache file of an earlier run.
        model_seconds: seconds spent inside the wrapped model.
        stages: per stage named with `CachedModel.stage`, the inputs forwarded and the
            model's seconds while it was the innermost stage (`StageCost`).
    """

    requested: int = 0
    unique_inputs: int = 0
    forwarded: int = 0
    model_calls: int = 0
    cache_hits: int = 0
    disk_hits: int = 0
    model_seconds: float = 0.0
    stages: dict[str, StageCost] = field(default_factory=dict)


class CachedModel:
    """Wraps a model so each distinct input is forwarded at most once.

    Inputs are deduplicated within a call and remembered across calls (keyed by the exact
    input). With `cache_path`, answers are also stored in SQLite under the model's
    `fingerprint`, so a second run with the same file asks the model nothing it already
    answered.
    """

    def __init__(
        self,
        model: Model,
        *,
        cache_path: str | Path | None = None,
        fingerprint: str | None = None,
        cache_key: str | None = None,
        batch_size: int | None = None,
    ) -> None:
        self.model = model
        self.labels = tuple(str(label) for label in model.labels)
        # A multi-label head: one sigmoid per label, rows need not sum to 1.
        self.multi_label = bool(getattr(model, "multi_label", False))
        self.batch_size = batch_size
        self.stats = CacheStats()
        # Every answer is a row of one matrix; `_memory` maps each input answered to its row,
        # so a request is answered with one fancy index (stacking its thousands of small rows
        # cost more than the rest of the cache's bookkeeping). Rows answered since the matrix
        # was last built wait in `_new_rows`, in the order `_memory` numbers them.
        self._memory: dict[Hashable, int] = {}
        self._matrix = np.empty((0, len(self.labels)))
        self._new_rows: list[np.ndarray] = []
        self._source = f"model {type(model).__name__}"
        self._fingerprint = fingerprint or getattr(model, "fingerprint", None)
        # What the on-disk answers are filed under: the fingerprint, unless the caller keys
        # them more precisely (a hash of the model's files and the input layout).
        self._cache_key = cache_key or self._fingerprint
        self._db: sqlite3.Connection | None = None
        self._stage, self._depth, self._clock = "other", 0, 0.0  # see `stage`
        self._prefetched: set[Hashable] = set()  # answered by `prefetch`, not yet asked for
        if cache_path is not None:
            if not self._cache_key:
                raise TextfairError(
                    "an on-disk cache needs a model fingerprint; pass fingerprint=... "
                    "(e.g. a hash of the weights) so answers of another model are never reused"
                )
            self._db = _open_cache(Path(cache_path))

    @property
    def fingerprint(self) -> str | None:
        """The wrapped model's fingerprint (None when it has none)."""
        return self._fingerprint or None

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Count what the model is asked inside this block, and the block's seconds, under
        `name` (in `stats.stages`); stages nest, and the innermost one counts."""
        outer = self._stage
        self._charge()  # the outer stage's time so far
        self._stage, self._depth = name, self._depth + 1
        try:
            yield
        finally:
            self._charge()
            self._stage, self._depth = outer, self._depth - 1

    def _charge(self) -> None:
        """Add the time since the last charge to the stage running now, if one is."""
        now = time.perf_counter()
        if self._depth:
            cost = self.stats.stages.setdefault(self._stage, StageCost())
            cost.seconds += now - self._clock
        self._clock = now

    def predict_proba(self, inputs: Sequence[Hashable]) -> np.ndarray:
        """Probabilities for `inputs`, forwarding only inputs never seen before."""
        inputs = list(inputs)
        self.stats.requested += len(inputs)
        memory = self._memory
        missing = [x for x in dict.fromkeys(inputs) if x not in memory]
        # Prefetched inputs asked for the first time are not hits: they were answered for
        # this request, only earlier.
        first = {x for x in inputs if x in self._prefetched} if self._prefetched else ()
        self._prefetched.difference_update(first)
        self.stats.cache_hits += len(inputs) - len(missing) - len(first)
        self._answer(missing)
        if self._new_rows:
            self._matrix = np.concatenate([self._matrix, *self._new_rows])
            self._new_rows = []
        return self._matrix[[memory[x] for x in inputs]]

    def prefetch(
        self, inputs: Sequence[Hashable], staged: Mapping[str, Sequence[Hashable]] | None = None
    ) -> None:
        """Answer `inputs` now, in one call, so that the later `predict_proba` calls that
        ask for them (several short ones, each of a test of its own) find them remembered.
        A model scores a long list faster than many short ones (it sorts by length and fills
        its batches). `staged`: more inputs for the same call, counted under the stage
        named (`stage`) rather than the current one. Nothing here counts as requested: the
        later calls do."""
        stage_of = {x: name for name, items in (staged or {}).items() for x in items}
        every = [*inputs, *stage_of]
        missing = list(dict.fromkeys(x for x in every if x not in self._memory))
        self._answer(missing, stage_of)
        self._prefetched.update(missing)

    def _answer(self, missing: list[Hashable], stage_of: Mapping | None = None) -> None:
        """Remember answers for `missing` (distinct, unseen): from disk, else the model."""
        if missing and self._db is not None:
            missing = self._load_from_disk(missing)
        if missing:
            self._forward(missing, stage_of or {})

    def _forward(self, missing: list[Hashable], stage_of: Mapping) -> None:
        size = self.batch_size or len(missing)
        batches = [missing[begin : begin + size] for begin in range(0, len(missing), size)]
        answers = self._answers(batches)
        for batch in batches:
            started = time.perf_counter()
            answer = next(answers)
            seconds = time.perf_counter() - started
            self.stats.model_seconds += seconds
            output = check_probabilities(
                answer, len(batch), len(self.labels), self._source, self.multi_label
            )
            self.stats.model_calls += 1
            self.stats.forwarded += len(batch)
            # Each stage is charged its inputs, and the batch's seconds in proportion.
            for name, count in Counter(stage_of.get(x, self._stage) for x in batch).items():
                cost = self.stats.stages.setdefault(name, StageCost())
                cost.forwarded += count
                cost.model_seconds += seconds * count / len(batch)
            self.stats.unique_inputs += len(batch)
            self._remember(batch, output)
            if self._db is not None:
                with self._db:
                    self._db.executemany(
                        "INSERT OR REPLACE INTO predictions VALUES (?, ?, ?)",
                        [
                            (self._cache_key, _key(x), row.tobytes())
                            for x, row in zip(batch, output, strict=True)
                        ],
                    )

    def _answers(self, batches: list[list[Hashable]]):
        """The wrapped model's answers, batch by batch in order. A model that can work on
        several batches at once (a pool of workers: `predict_proba_batches`) gets them all,
        so they are answered concurrently and each is still the batch a single model would
        have been given (same padding, same numbers); a failure becomes a ModelError."""
        several = getattr(self.model, "predict_proba_batches", None)
        answers = (
            several(batches) if several is not None else map(self.model.predict_proba, batches)
        )
        iterator = iter(answers)
        for batch in batches:
            try:
                with prints_to_stderr():
                    answer = next(iterator)
            except TextfairError:
                raise
            # A model may raise anything, or call sys.exit(); none of it is a finding, and
            # none of it may end the run as if it had finished.
            except (Exception, SystemExit) as err:
                raise self._failure(len(batch), err) from err
            yield answer

    def _failure(self, size: int, err: BaseException) -> ModelError:
        return ModelError(
            f"{self._source} failed on a batch of {size} inputs ({describe_failure(err)}); "
            "nothing was "
            "reported; fix the model (or its server) and run again"
        )

    def _load_from_disk(self, missing: list[Hashable]) -> list[Hashable]:
        assert self._db is not None
        still_missing, found, rows = [], [], []
        for item in missing:
            row = self._db.execute(
                "SELECT probabilities FROM predictions WHERE model = ? AND input = ?",
                (self._cache_key, _key(item)),
            ).fetchone()
            if row is None:
                still_missing.append(item)
                continue
            found.append(item)
            rows.append(np.frombuffer(row[0], dtype=np.float64))
        if found:
            self._remember(found, np.stack(rows))
            self.stats.disk_hits += len(found)
            self.stats.unique_inputs += len(found)
        return still_missing

    def _remember(self, items: list[Hashable], rows: np.ndarray) -> None:
        """Keep the answers `rows` (one per item, in order) for later requests."""
        first = len(self._memory)
        self._memory.update(zip(items, range(first, first + len(rows)), strict=True))
        self._new_rows.append(rows)

    def close(self) -> None:
        """Close the on-disk cache, if any."""
        if self._db is not None:
            self._db.close()
            self._db = None


@contextlib.contextmanager
def prints_to_stderr() -> Iterator[None]:
    """While a model runs, what it prints goes to stderr: stdout may carry the command's own
    output (predict's JSON lines). Python's prints and, where stdout is a file descriptor,
    what C code or a subprocess writes to it."""
    sys.stdout.flush()
    with contextlib.redirect_stdout(sys.stderr):
        try:
            saved = os.dup(1)
        except OSError:  # no file descriptor 1 (an embedding host)
            yield
            return
        try:
            sys.stderr.flush()
            os.dup2(2, 1)
            yield
        finally:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.flush()
            os.dup2(saved, 1)
            os.close(saved)


def _open_cache(path: Path) -> sqlite3.Connection:
    """The answers file: SQLite, one transaction per model call, so a process killed at any
    moment leaves every answer it committed whole and none half-written. Only a new file or
    a cache textfair wrote is opened (:func:`textfair.io.check_cache_file`); the file is
    marked as textfair's in its header."""
    from textfair.io import check_cache_file

    check_cache_file(path)
    try:
        if not path.exists():
            _create_cache(path)
        # Used by one thread at a time, but not always the one that opened it: calls made
        # ahead (`textfair.models.ahead`) run in a thread while the audit's waits.
        db = sqlite3.connect(str(path), check_same_thread=False)
        _create_table(db)  # a cache written before the marker gets it now
    except sqlite3.Error as err:
        raise TextfairError.bad(
            "cache_path", f"{path} cannot be used as a cache ({err}); choose another path"
        ) from None
    return db


def _create_table(db: sqlite3.Connection) -> None:
    from textfair.io import CACHE_APPLICATION_ID

    db.execute(f"PRAGMA application_id = {CACHE_APPLICATION_ID}")
    db.execute(
        "CREATE TABLE IF NOT EXISTS predictions ("
        "model TEXT NOT NULL, input TEXT NOT NULL, probabilities BLOB NOT NULL, "
        "PRIMARY KEY (model, input))"
    )
    db.commit()


def _create_cache(path: Path) -> None:
    """A new, empty cache put in place whole, and only if no other run's cache got there
    first: a run starting beside another never opens a half-made file."""
    from textfair.io import atomic_writer

    empty = sqlite3.connect(":memory:")
    _create_table(empty)
    image = empty.serialize()
    empty.close()
    with contextlib.suppress(TextfairError), atomic_writer(path, True, replace=False) as handle:
        handle.write(image)


def _key(item: Hashable) -> str:
    """The on-disk key of an input: the text itself, or a hash of another input's repr."""
    if isinstance(item, str):
        return item
    return "repr:" + hashlib.sha256(repr(item).encode()).hexdigest()
