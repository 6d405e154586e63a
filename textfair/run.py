"""Who asked for a run and how to tell them how it goes: recorded in reports, never audited."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Run"]


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
