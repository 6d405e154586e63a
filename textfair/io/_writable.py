"""Whether a new file can be written where it is asked for: its directory exists and may be
written. Apart because both the output checks and the cache's validation ask it.
"""

from __future__ import annotations

import os
from pathlib import Path

from textfair.errors import TextfairError


def check_parent(path: Path, flag: str) -> None:
    """A one-line error naming `flag` unless the directory `path` goes in exists and may be
    written."""
    parent = path.resolve().parent
    if not parent.is_dir():
        raise TextfairError(
            f"{flag} {path}: directory {parent} does not exist; create it or choose another path"
        )
    if not os.access(parent, os.W_OK | os.X_OK):
        raise TextfairError(
            f"{flag} {path}: cannot write in {parent}; choose a directory you may write to"
        )
