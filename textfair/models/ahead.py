"""Model calls made ahead, in a background thread, while the audit reads its corpus.

A model on an accelerator (a GPU, a server, anything that waits rather than computes on
this machine's CPU) sits idle while textfair reads the corpus before its first question.
Some of what it will be asked is known before that reading ends: the corpus's own texts,
which the label metrics score. `Ahead` makes those calls in a thread while the corpus is
read (by this thread and the worker processes of `textfair.workers`), and `finish` makes
whatever is left in the calling thread.

The calls are fixed before anything runs, and each is the same call whichever thread makes
it, so the model is asked the same batches and the report is the same to the bit, ahead or
not. Only the timing differs, and only where it helps: a model that computes on this
machine's cores (a torch model on the CPU, or any model measured to use more than half a
core while it answers) would compete with the reading for them, so its calls wait for
`finish`, as before.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

__all__ = ["BUSY_SHARE", "MEASURED_SECONDS", "Ahead", "computes_on_this_cpu"]

#: A model that used more than this share of one core while answering computes here.
BUSY_SHARE = 0.5
#: How long the calls made ahead are measured before that is decided.
MEASURED_SECONDS = 0.05


def computes_on_this_cpu(model: object) -> bool:
    """Whether `model` says it runs on this machine's CPU (a torch model's `device`)."""
    device = getattr(model, "device", None)
    return device is not None and str(getattr(device, "type", device)).split(":")[0] == "cpu"


class Ahead:
    """`calls` (each a model call), started in a background thread by `start` and finished,
    in order, by `finish`."""

    def __init__(self, calls: Sequence[Callable[[], object]]) -> None:
        self._calls = list(calls)
        self._next = 0  # the first call not yet taken
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._reader = threading.get_ident()  # the thread that reads the corpus meanwhile
        self.made_ahead = 0
        """Calls made in the background thread."""

    def start(self) -> None:
        """Make the calls in a background thread (once; a no-op where a thread's CPU time
        cannot be read, as the decision above needs it)."""
        measurable = hasattr(time, "pthread_getcpuclockid")
        if self._thread is not None or not self._calls or not measurable:
            return
        self._thread = threading.Thread(target=self._run, name="textfair-ahead", daemon=True)
        self._thread.start()

    def finish(self) -> None:
        """Wait for the call under way, then make the rest here; a failure of a call made
        ahead is raised here, as it would have been raised making it here."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        while (call := self._take()) is not None:
            call()

    def cancel(self) -> None:
        """Wait for the call under way and make no other (the audit stops; what failed
        ahead is not raised, the audit's own error is)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._next = len(self._calls)

    def __enter__(self) -> Ahead:
        return self

    def __exit__(self, kind: object, error: BaseException | None, traceback: object) -> None:
        """A block that raises cancels what is left (`cancel`); the block's error stands."""
        if error is not None:
            self.cancel()

    def _take(self) -> Callable[[], object] | None:
        with self._lock:
            if self._next >= len(self._calls):
                return None
            self._next += 1
            return self._calls[self._next - 1]

    def _run(self) -> None:
        reader = time.pthread_getcpuclockid(self._reader)
        wall = cpu = 0.0
        while not self._stop.is_set() and (call := self._take()) is not None:
            began, process = time.perf_counter(), time.process_time()
            read = time.clock_gettime(reader)
            try:
                call()
            except BaseException as err:  # raised by `finish`, in the reading thread
                self._error = err
                return
            self.made_ahead += 1
            wall += time.perf_counter() - began
            # This process's CPU time less the reading thread's: the model's (its thread
            # and its own threads, such as torch's); worker processes are not counted.
            cpu += time.process_time() - process - (time.clock_gettime(reader) - read)
            if wall >= MEASURED_SECONDS and cpu > BUSY_SHARE * wall:
                return  # it computes here: the rest waits for `finish`
