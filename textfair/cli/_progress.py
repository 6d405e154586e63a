"""Progress of a long command on stderr, in a terminal and in a CI log alike.

In a terminal a live line shows the stage (with a bar when the number of stages is known) and
the time taken; it disappears when the command ends. Where stderr is not a terminal (a CI
job, a redirect to a file) a live display would print nothing, so a plain line is written
when a stage begins and then every `every` seconds: the stage, how many of how many, the
model queries so far and their rate, the time taken. Nothing is written in the first second,
so a quick command (or a mistake found at once) prints only its result.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

__all__ = ["Stages"]

QUIET_START = 1.0  # seconds without plain progress lines


class Stages:
    """A context manager that yields `advance(message)`: call it as each stage begins.

    `stages` is how many stages there are (None: not known in advance); `queries` returns the
    model queries so far (e.g. a CachedModel's ``stats.forwarded``). For work counted in
    items rather than stages, `items` returns how many are done and `total` how many there
    are: the bar and the lines follow it. `done_lines` also prints a line in the terminal as
    each stage ends, for commands whose stages take minutes.
    """

    def __init__(
        self,
        stages: int | None = None,
        *,
        queries: Callable[[], int] | None = None,
        every: float = 10.0,
        done_lines: bool = False,
        console: Console | None = None,
        items: Callable[[], int] | None = None,
        total: int | None = None,
        unit: str = "texts",
    ) -> None:
        self.console = console or Console(stderr=True)
        self.items, self.total, self.unit = items, total, unit
        self.stages, self.queries, self.every, self.done_lines = stages, queries, every, done_lines
        self.number, self.stage, self.started = 0, "starting", time.monotonic()
        self._bar: Progress | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._ticker: threading.Thread | None = None

    def __enter__(self) -> Callable[[str], None]:
        # One background thread: in a terminal it moves the bar with the items done (work
        # counted in items, read every 0.2 s); in a log it writes a line every `every` s.
        follow: Callable[[], None] | None = self._tick
        if self.console.is_terminal:
            columns = [SpinnerColumn(), TextColumn("{task.description}")]
            total = self.total if self.items is not None else self.stages
            if self.stages or total:
                columns.append(BarColumn())
            self._bar = Progress(
                *columns, TimeElapsedColumn(), console=self.console, transient=True
            )
            self._bar.__enter__()
            self._task = self._bar.add_task(self.stage, total=total)
            follow = self._follow if self.items is not None else None
        if follow is not None:
            self._ticker = threading.Thread(target=follow, daemon=True, name="textfair-progress")
            self._ticker.start()
        return self.advance

    def advance(self, message: str) -> None:
        """A new stage begins."""
        with self._lock:
            self._finish_stage()
            self.number += 1
            if self.stages and self.number > self.stages:  # never "[5/4]"
                self.stages = self.number
            self.stage = message
            if self._bar is not None and self.items is None:
                self._bar.update(self._task, completed=self.number - 1, description=message)
            elif self._bar is not None:
                self._bar.update(self._task, description=message)
            elif time.monotonic() - self.started >= QUIET_START:
                self._line()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._ticker is not None:
            # Joined, not left to die with the interpreter: a daemon thread still waking
            # up while Python shuts down is killed mid-call, which with torch loaded aborted
            # the process (exit 134 after a complete run) about one run in three.
            self._ticker.join()
        with self._lock:
            if exc_type is None:
                self._finish_stage()
            if self._bar is not None:
                self._bar.__exit__(exc_type, exc, traceback)

    def _finish_stage(self) -> None:
        if self.done_lines and self._bar is not None and self.number:
            self.console.print(f"[green]done[/green] {self.stage}")

    def _follow(self) -> None:
        while not self._stop.wait(0.2):
            with self._lock:
                if self._bar is not None and self.items is not None:
                    self._bar.update(self._task, completed=self.items())

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            with self._lock:
                self._line()

    def _line(self) -> None:
        elapsed = time.monotonic() - self.started
        of = f"/{self.stages}" if self.stages else ""
        parts = [f"textfair: [{self.number}{of}] {self.stage}"]
        if self.items is not None:
            done, out_of = self.items(), f"/{self.total:,}" if self.total else ""
            rate = done / max(elapsed, 1e-9)
            parts.append(f"{done:,}{out_of} {self.unit} ({rate:,.0f}/s)")
        if self.queries is not None:
            done = self.queries()
            parts.append(f"{done:,} model queries ({done / max(elapsed, 1e-9):,.0f}/s)")
        parts.append(f"{elapsed:.0f} s")
        self.console.print(", ".join(parts), highlight=False, soft_wrap=True)
