"""CachedModel: the wrapper every model an audit uses goes through, and what it counts.

textfair's cost is the model's forward passes, so every model an audit uses is wrapped in
:class:`CachedModel`: it deduplicates inputs inside and across calls, forwards only inputs
it has never seen, counts what it did, and can keep its answers in a SQLite file
(:mod:`textfair.models._answers_file`) so an interrupted run resumes without asking the
model again.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from textfair.errors import ModelError, TextfairError, describe_failure
from textfair.models._answers_file import input_key, open_cache
from textfair.models.base import Model, check_probabilities
from textfair.models.turns import ModelTurns

__all__ = ["CacheStats", "CachedModel", "StageCost"]


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
        # Shared with `sibling`s, which call the same model from another thread: one call
        # at a time, this model's first (None until a sibling is made).
        self._turns: ModelTurns | None = None
        self._first = True
        self._siblings: list[CachedModel] = []  # made by `sibling`, not yet adopted
        self._cache_path = cache_path
        if cache_path is not None:
            if not self._cache_key:
                raise TextfairError(
                    "an on-disk cache needs a model fingerprint; pass fingerprint=... "
                    "(e.g. a hash of the weights) so answers of another model are never reused"
                )
            self._db = open_cache(Path(cache_path))

    @property
    def fingerprint(self) -> str | None:
        """The wrapped model's fingerprint (None when it has none)."""
        return self._fingerprint or None

    def sibling(self) -> CachedModel:
        """A CachedModel on the same model for another section of the audit, which may run
        in another thread: it knows every answer this one knows now, counts only its own
        work (`stats`), keeps its answers in the same cache file, and calls the model in
        turn with this one (`ModelTurns`: this one's calls first). `adopt` gives its new
        answers back. A text both sections ask for after this point is asked once by each."""
        twin = CachedModel(
            self.model,
            cache_path=self._cache_path,
            fingerprint=self._fingerprint,
            cache_key=self._cache_key,
            batch_size=self.batch_size,
        )
        self._flush_rows()
        twin._memory, twin._matrix = dict(self._memory), self._matrix
        if self._turns is None:
            self._turns = ModelTurns()
        twin._turns, twin._first = self._turns, False
        self._siblings.append(twin)
        return twin

    def adopt(self, sibling: CachedModel) -> None:
        """Take back what `sibling` did: the answers it got that this model lacks (a later
        audit through this model asks none of them again) and its counts, added to
        `stats` (which then count both sections' work, as they did before siblings); and
        close the sibling's cache file."""
        sibling._flush_rows()
        new = [x for x in sibling._memory if x not in self._memory]
        if new:
            self._remember(new, sibling._matrix[[sibling._memory[x] for x in new]])
        sibling.close()
        self._siblings.remove(sibling)
        mine, theirs = self.stats, sibling.stats
        for name in ("requested", "unique_inputs", "forwarded", "model_calls", "cache_hits"):
            setattr(mine, name, getattr(mine, name) + getattr(theirs, name))
        mine.disk_hits += theirs.disk_hits
        mine.model_seconds += theirs.model_seconds
        for stage, cost in theirs.stages.items():
            own = mine.stages.setdefault(stage, StageCost())
            own.forwarded += cost.forwarded
            own.model_seconds += cost.model_seconds
            own.seconds += cost.seconds

    def forwarded_so_far(self) -> int:
        """Inputs forwarded to the model by this CachedModel and the siblings it has not
        adopted yet, for a progress line."""
        return self.stats.forwarded + sum(s.stats.forwarded for s in self._siblings)

    @property
    def turns(self) -> ModelTurns | None:
        """The turns this model shares with its siblings (None: it has none)."""
        return self._turns

    def series(self) -> contextlib.AbstractContextManager:
        """Mark a series of calls, each made as soon as the last one's answers are read
        (`ModelTurns.series`): a sibling's calls keep out of its short pauses."""
        if self._turns is None:
            return contextlib.nullcontext()
        return self._turns.series(self._first)

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
        self._flush_rows()
        return self._matrix[[memory[x] for x in inputs]]

    def _flush_rows(self) -> None:
        """Join the rows answered since the matrix was last built into it."""
        if self._new_rows:
            self._matrix = np.concatenate([self._matrix, *self._new_rows])
            self._new_rows = []

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

    def _answer(
        self, missing: list[Hashable], stage_of: Mapping[Hashable, str] | None = None
    ) -> None:
        """Remember answers for `missing` (distinct, unseen): from disk, else the model."""
        if missing and self._db is not None:
            missing = self._load_from_disk(missing)
        if missing:
            self._forward(missing, stage_of or {})

    def _forward(self, missing: list[Hashable], stage_of: Mapping[Hashable, str]) -> None:
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
                            (self._cache_key, input_key(x), row.tobytes())
                            for x, row in zip(batch, output, strict=True)
                        ],
                    )

    def _answers(self, batches: list[list[Hashable]]) -> Iterator[object]:
        """The wrapped model's answers, batch by batch in order. A model that can work on
        several batches at once (a pool of workers: `predict_proba_batches`) gets them all,
        so they are answered concurrently and each is still the batch a single model would
        have been given (same padding, same numbers); a failure becomes a ModelError."""
        several = getattr(self.model, "predict_proba_batches", None)
        turns = self._turns
        # A pool's batches are one call that spans them all (its own queue, which may be
        # filled when the call is made and is not safe to share with another section's
        # call): it holds the model from the call to its last answer. Another model is held
        # batch by batch, so the other section's calls fit between.
        whole = turns.turn(self._first) if turns is not None and several is not None else None
        with whole if whole is not None else contextlib.nullcontext():
            answers = (
                several(batches) if several is not None else map(self.model.predict_proba, batches)
            )
            iterator = iter(answers)
            for batch in batches:
                # The turn is taken outside the `try`: another section's failure, or
                # `Stopped`, is raised here as it is, never as this model's failure.
                each = turns if whole is None else None
                with each.turn(self._first) if each is not None else contextlib.nullcontext():
                    try:
                        with prints_to_stderr():
                            answer = next(iterator)
                    except TextfairError:
                        raise
                    # A model may raise anything, or call sys.exit(); none of it is a
                    # finding, and none of it may end the run as if it had finished.
                    except (Exception, SystemExit) as err:
                        failure = self._failure(len(batch), err)
                        if turns is not None:  # the other section stops at its next call,
                            turns.fail(failure)  # not when this error reaches the audit
                        raise failure from err
                    # Held while the answer is checked, counted and committed to the cache
                    # file: a run killed at any moment leaves at most the call in flight
                    # unanswered on disk, never another section's answered one.
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
                (self._cache_key, input_key(item)),
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
