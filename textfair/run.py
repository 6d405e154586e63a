"""Who asked for a run and how to tell them how it goes: recorded in reports, never audited."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["Run", "collecting_new_objects_only", "long_lived_objects", "one_at_a_time"]

#: Whether a run froze the collector's objects (`collecting_new_objects_only`), and so may
#: freeze more until it ends (`long_lived_objects`).
_run_froze = False


@dataclass(frozen=True)
class Run:
    """The model's name as the user gave it, the command line, a progress callback (called
    with one message per stage, e.g. ``print``) and when the run started."""

    model_id: str = ""
    command: str = ""
    progress: Callable[[str], None] | None = None
    started: float = field(default_factory=time.perf_counter)

    def say(self, message: str) -> None:
        """Tell the progress callback, if there is one, that a stage begins."""
        if self.progress is not None:
            self.progress(message)

    def seconds(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.started


def one_at_a_time(
    progress: Callable[[str], None] | None,
) -> Callable[[str], None] | None:
    """`progress` called by one thread at a time (two sections of an audit may announce
    their stages at once: `textfair.auditing._template_section`)."""
    if progress is None:
        return None
    lock = threading.Lock()

    def say(message: str) -> None:
        with lock:
            progress(message)

    return say


@contextmanager
def collecting_new_objects_only() -> Iterator[None]:
    """During a run, Python's cycle collector walks only the objects the run creates.

    An audit makes about a million small objects (mentions, variants, tuples). Each full
    collection would also walk every object alive before the run (torch's and transformers'
    modules, a notebook's data: 330,000 objects once the bundled model is loaded), which
    cost up to 0.25 s of a 1.5 s audit, at random points. `gc.freeze` moves those objects to
    a generation the collector skips; `gc.unfreeze` gives them back when the run ends, so
    nothing that would have been collected is kept (it is collected later). Where something
    is already frozen (the caller's own `gc.freeze`, or an enclosing run), it is left as it
    is. Usable as a decorator."""
    global _run_froze
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    _run_froze = True
    try:
        yield
    finally:
        _run_froze = False
        gc.unfreeze()


@contextmanager
def long_lived_objects() -> Iterator[None]:
    """The objects made in this block live until the run ends (a corpus's reading: some
    300,000 mentions, plans and variants for 20,000 texts): they are made with the cycle
    collector paused, then frozen with those made before the run.

    Paused only (`collector_paused`, as `TextDomain` reads), the first collection after
    the block walks every one of them, and a collection of the older generations walks
    them all again: 0.14-0.19 s of a 2.4 s re-audit of 20,000 texts, in pauses of 50-100
    ms that hold the interpreter lock while a model as fast as an accelerator waits for it
    (issue 58). The run's `gc.unfreeze` gives them back. Only inside a run that froze
    (`collecting_new_objects_only`): objects frozen here must be given back when that run
    ends."""
    if not _run_froze:
        yield
        return
    # As `textfair.workers.collector_paused` pauses it (this layer cannot import that one).
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()  # before the collector runs again
        if enabled:
            gc.enable()
