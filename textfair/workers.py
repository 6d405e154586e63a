"""Corpus-wide work spread over the machine's cores, in forked worker processes.

An audit's own work before its first model query (finding every seed's mentions, planning
and scoring their rewrites: `textfair.text.domain`) is the same function applied to each
text, independently. While it runs the model is idle, so other cores are idle too: here the
texts are split into one chunk per worker, each chunk worked on by a forked copy of this
process (it inherits the term list, the matcher and every table already built, so nothing
is loaded or pickled on the way in), and the results come back through a pipe, in order.

What comes back is exactly what one process computes (the same function on the same texts;
nothing in it depends on another text), so a report is identical to the bit with 1 and with
N workers. Objects the results merely refer to (a term list's terms) are sent by reference,
not copied: a mention that comes back points at the very term this process holds.

A worker that fails or is killed costs only time: its chunk is done again here, where an
error is raised as it would be with one worker. Forking is used only where the platform
forks safely (Linux); elsewhere, and for small inputs, the work runs in this process.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import pickle
import select
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from textfair.errors import TextfairError

__all__ = [
    "MIN_ITEMS_PER_WORKER",
    "can_fork",
    "check_workers",
    "collector_paused",
    "default_workers",
    "fork_map",
    "notify",
]

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")

#: Fewer items than this per worker are done in this process: a fork of a process that has
#: a model loaded costs a few milliseconds, the work of a hundred short texts about as much.
MIN_ITEMS_PER_WORKER = 200


def can_fork() -> bool:
    """Whether worker processes are forked here: Linux only (macOS's system libraries are
    not safe to use in a forked child; Windows does not fork)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def default_workers() -> int:
    """The cores this process may use (its affinity, capped by a cgroup CPU quota)."""
    from textfair.core.machine import usable_cores

    return usable_cores()


def check_workers(workers: int | None) -> int:
    """`workers` as a count (None: `default_workers`); below 1 is a mistake, in one line."""
    if workers is None:
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise TextfairError.bad(
            "workers", f"is {workers!r}; pass a whole number of processes, at least 1"
        )
    return workers


def split(sizes: Sequence[int], workers: int) -> list[list[int]]:
    """Indices of `sizes` (each item's expected cost, e.g. a text's length) in at most
    `workers` chunks of near-equal total cost, none of fewer than MIN_ITEMS_PER_WORKER items
    unless there is one chunk; each chunk in increasing order. The largest items are placed
    first, each in the chunk with least so far (a long spam text in each chunk, not all in
    one)."""
    count = max(1, min(workers, len(sizes) // MIN_ITEMS_PER_WORKER))
    if count == 1:
        return [list(range(len(sizes)))]
    chunks: list[list[int]] = [[] for _ in range(count)]
    totals = [0] * count
    for index in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
        least = min(range(count), key=totals.__getitem__)
        chunks[least].append(index)
        totals[least] += sizes[index] + 1
    return [sorted(chunk) for chunk in chunks]


def fork_map(
    function: Callable[[Chunk], Result],
    chunks: Sequence[Chunk],
    shared: Iterable[object] = (),
    on_notify: Callable[[], object] | None = None,
) -> list[Result]:
    """`[function(chunk) for chunk in chunks]`, the chunks worked on at the same time, each
    in a forked child but the first, which this process works on itself.

    `shared`: objects that results refer to and this process already holds; they are sent
    back by reference (their `id`, the same in a forked child) rather than copied. A child
    that fails, or whose result cannot be sent, leaves its chunk to this process.

    `on_notify` is called in this process, once, as soon as the work calls `notify()`,
    wherever it runs. With it, every chunk goes to a child and this process only waits,
    leaving its interpreter lock to its other threads (the model calls made ahead,
    `textfair.models.ahead`, which `on_notify` starts).
    """
    with collector_paused():
        return _map(function, chunks, shared, on_notify)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while the block runs, as it was after.

    Reading a corpus allocates millions of small objects that live on (mentions, plans) and
    almost none that form cycles: each allocation burst triggers a collection that walks
    every object still young, and the older generations' collections walk everything read
    so far, a sixth of the reading's time. Off, a forked child also never collects, so it
    writes to none of the parent's objects' headers (pages it would otherwise copy). The
    little cyclic garbage made meanwhile is collected as usual afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _map(
    function: Callable[[Chunk], Result],
    chunks: Sequence[Chunk],
    shared: Iterable[object],
    on_notify: Callable[[], object] | None,
) -> list[Result]:
    """`fork_map`'s work (the collector paused)."""
    once = _Once(on_notify)
    if not can_fork() or (len(chunks) <= 1 and on_notify is None):
        return _here(function, chunks, once)
    by_id = {id(item): item for item in shared}
    signal_reader, signal_writer = os.pipe()
    first = 1 if on_notify is None else 0
    children = [_fork(function, chunks[k], by_id, signal_writer) for k in range(first, len(chunks))]
    os.close(signal_writer)
    results: list = [None] * len(chunks)
    if first:
        results[0] = _here(function, chunks[:1], once)[0]
    received = {reader: bytearray() for _, reader in children}
    pids = {reader: pid for pid, reader in children}
    index = {reader: k for k, (_, reader) in enumerate(children, start=first)}
    listening = [signal_reader, *received]
    while any(reader != signal_reader for reader in listening):
        for reader in select.select(listening, [], [])[0]:
            data = os.read(reader, 1 << 16)
            if reader == signal_reader:
                if data:
                    once()
                else:
                    listening.remove(reader)  # every child has left
                continue
            if data:
                received[reader] += data
                continue
            listening.remove(reader)
            os.close(reader)
            _, status = os.waitpid(pids[reader], 0)
            k = index[reader]
            if received[reader] and os.waitstatus_to_exitcode(status) == 0:
                results[k] = _Loader(io.BytesIO(received[reader]), by_id).load()
            else:
                results[k] = _here(function, chunks[k : k + 1], once)[0]  # raises it here
    os.close(signal_reader)
    return results


def notify() -> None:
    """Called by work that `fork_map` runs: tells the process that started it (see there)."""
    if _notifier is not None:
        _notifier()


#: What `notify` does in this process: call `fork_map`'s `on_notify` (here), or write a byte
#: to the pipe its parent listens to (in a child).
_notifier: Callable[[], object] | None = None


class _Once:
    """A callback called at most once."""

    def __init__(self, callback: Callable[[], object] | None) -> None:
        self._callback = callback

    def __call__(self) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            callback()


def _here(function: Callable, chunks: Sequence, once: _Once) -> list:
    """The chunks worked on in this process, `notify` calling `once`."""
    global _notifier
    outer, _notifier = _notifier, once
    try:
        return [function(chunk) for chunk in chunks]
    finally:
        _notifier = outer


def _fork(
    function: Callable, chunk: object, by_id: dict[int, object], signal: int
) -> tuple[int, int]:
    """Start a child that writes `function(chunk)`, pickled, to a pipe, and a byte to
    `signal` when the work calls `notify`; (its pid, the pipe's reading end)."""
    reader, writer = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12+ warns that forking a process with threads (torch's) may deadlock the
        # child; the child runs only this module's pure-Python work and touches no lock of
        # those threads, then leaves with os._exit.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid:
        os.close(writer)
        return pid, reader
    code = 1
    try:  # the child
        global _notifier
        os.close(reader)
        _notifier = _Once(lambda: os.write(signal, b"!"))
        buffer = io.BytesIO()
        _Dumper(buffer, by_id).dump(function(chunk))
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(buffer.getbuffer())
        code = 0
    except BaseException:  # the parent does this chunk again, and raises what it meets
        pass
    finally:
        os._exit(code)  # no atexit handler, no buffered output of the parent flushed twice


def _shared(key: int) -> object:
    """Stands, in a pickle, for the shared object `key`; `_Loader` resolves it."""
    raise AssertionError("resolved by _Loader")  # pragma: no cover - never called


class _Dumper(pickle.Pickler):
    """Pickles objects of `by_id` as references to them."""

    def __init__(self, file: io.BytesIO, by_id: dict[int, object]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._by_id = by_id

    # `reducer_override`, not `persistent_id`: it is not asked about str, int, tuple, list
    # or dict, which are most of what is sent, so pickling stays at C speed.
    def reducer_override(self, obj: object) -> Any:
        return (_shared, (id(obj),)) if id(obj) in self._by_id else NotImplemented


class _Loader(pickle.Unpickler):
    """Reads what `_Dumper` wrote (from our own child: the bytes never come from a file or
    another user), references resolved to this process's objects."""

    def __init__(self, file: io.BytesIO, by_id: dict[int, object]) -> None:
        super().__init__(file)
        self._by_id = by_id

    def find_class(self, module: str, name: str) -> object:
        if (module, name) == (__name__, "_shared"):
            return self._by_id.__getitem__
        return super().find_class(module, name)
