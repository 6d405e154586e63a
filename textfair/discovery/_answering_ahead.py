"""A thread that makes a test's model calls while the test writes its next inputs.

Group fairness (`paired_rows`) and the causal test (`_causal`) each ask the model batch
by batch and read every batch's answers before deciding whether to go on. The next
batch's inputs can be written while the model answers this one: the writing moves, what is
asked does not (a batch written ahead and not needed is dropped unasked).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from textfair.core.domain import Domain
from textfair.models.ahead import computes_on_this_cpu
from textfair.models.base import Model

__all__ = ["AnsweringAhead", "answering_ahead"]

T = TypeVar("T")


class AnsweringAhead:
    """Model calls made in a thread of their own, one at a time."""

    def __init__(self, executor: ThreadPoolExecutor) -> None:
        self._executor = executor

    def submit(self, call: Callable[..., T], *args: object) -> Future[T]:
        """Start `call(*args)` in the model's thread, and return once it runs there.

        Waiting for it to start hands it the interpreter lock: the caller goes on writing
        only when the call has got as far as the model (which waits with the lock
        released), or after the interpreter's switch interval. Without it, the call's own
        Python (the answer cache's lookups) waits that interval (5 ms) behind the writing,
        with the model idle, at every batch."""
        started = threading.Event()

        def run() -> T:
            started.set()
            return call(*args)

        future = self._executor.submit(run)
        started.wait()
        return future


@contextlib.contextmanager
def answering_ahead(model: Model, domain: Domain) -> Iterator[AnsweringAhead | None]:
    """Model calls in a thread of their own, for a model that does not compute on this CPU
    (a GPU's, a server's: it waits, the CPU is free) over a domain that remembers its
    rewrites; None otherwise (a CPU model would share its cores with the writing)."""
    inner = getattr(model, "model", model)  # a CachedModel's own
    if computes_on_this_cpu(inner) or not getattr(domain, "remembers_rewrites", False):
        yield None
        return
    # Named after the section's thread: "textfair-templates-model_0" makes the templates'.
    prefix = f"{threading.current_thread().name}-model"
    series = getattr(model, "series", contextlib.nullcontext)  # a CachedModel's
    with series(), ThreadPoolExecutor(max_workers=1, thread_name_prefix=prefix) as executor:
        yield AnsweringAhead(executor)
