"""Turns at one model shared by two sections of an audit that run at once.

A text audit with templates audits its two sections (the corpus, the templates) on one
model. Where the model waits rather than computes on this machine (a GPU, a server), the
templates are audited in a thread of their own while the corpus is read and audited
(`textfair.auditing.templates.TemplateSection`), so that the model answers one section
while textfair works on the other. `ModelTurns` gives the model to one call at a time
(a model is not assumed to be safe to call from two threads), the corpus's calls first:
the templates' calls fill the time the model would otherwise wait for the corpus, and the
templates, which are known whole before the corpus is read, are what is left at the end.

It also carries a failure across: a section that fails (the model raised) or is abandoned
(the audit stops) stops the other at its next call (`Stopped`), so a run never goes on
asking a model whose answers nobody will read.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Iterator

__all__ = ["PATIENCE", "ModelTurns", "Stopped"]

#: Seconds the corpus's calls must have paused, inside a series of calls (`series`), before
#: a templates' call takes the model.
PATIENCE = 0.005


class Stopped(Exception):
    """Raised in a section whose audit stopped (`ModelTurns.stop`), or whose other section
    failed (`ModelTurns.fail`): nobody reads its answers. It is no model failure of its
    own, so nothing on the way catches it as one; the failure itself is raised once, by
    the section that met it (`TemplateSection`)."""


class ModelTurns:
    """One model call at a time among the sections sharing a model; a first-priority call
    (the corpus's) is never kept waiting by a second-priority one that has not begun."""

    def __init__(self, patience: float = PATIENCE) -> None:
        self._free = threading.Condition()
        self._busy = False
        self._first_waiting = 0
        self._first_ended = -math.inf  # when the last first-priority call ended
        self._first_series = 0  # first-priority series of calls open now (`series`)
        self._patience = patience
        self._failure: BaseException | None = None
        self._stopped = False

    @contextlib.contextmanager
    def turn(self, first: bool) -> Iterator[None]:
        """Hold the model for one call (`first`: the corpus's, served before the others)."""
        with self._free:
            self._first_waiting += first
            try:
                while (wait := self._wait(first)) > 0:
                    self._free.wait(None if wait == math.inf else wait)
                    self._check()
                self._check()
                self._busy = True
            finally:
                self._first_waiting -= first
        try:
            yield
        finally:
            with self._free:
                self._busy = False
                if first:
                    self._first_ended = time.monotonic()
                self._free.notify_all()

    @contextlib.contextmanager
    def series(self, first: bool) -> Iterator[None]:
        """A series of calls (`first`: the corpus's), each made as soon as the last one's
        answers are read: a test asking batch after batch until its stopping rule is met."""
        if not first:  # only the corpus's series keep the others waiting
            yield
            return
        with self._free:
            self._first_series += 1
        try:
            yield
        finally:
            with self._free:
                self._first_series -= 1
                self._free.notify_all()

    def _wait(self, first: bool) -> float:
        """How long a call must wait before it may take the model (0: it may now; inf:
        until a call ends). Inside a series of first-priority calls, a second-priority call
        also waits until they have paused for `patience` seconds: a pause that short is the
        corpus's own bookkeeping between two batches, and the templates are kept for the
        longer ones. Outside a series the corpus is working on what it has read, and the
        model is free at once."""
        if self._busy or (not first and self._first_waiting):
            return math.inf
        if first or not self._first_series:
            return 0.0
        return max(0.0, self._first_ended + self._patience - time.monotonic())

    def fail(self, error: BaseException) -> None:
        """A section failed with `error`: every other section's next call raises `Stopped`."""
        with self._free:
            if self._failure is None:
                self._failure = error
            self._free.notify_all()

    def stop(self) -> None:
        """The audit stops: every section's next call raises `Stopped`."""
        with self._free:
            self._stopped = True
            self._free.notify_all()

    def _check(self) -> None:
        if self._stopped:
            raise Stopped("the audit stopped")
        if self._failure is not None:
            raise Stopped(f"another section failed: {self._failure}")
