"""The file a CachedModel keeps its answers in: SQLite, opened only when new or textfair's,
created whole, one row per input under the model's key.

Apart from CachedModel (textfair.models.cached), which decides what to ask the model; this
module only stores and names what it was answered.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Hashable
from pathlib import Path


def open_cache(path: Path) -> sqlite3.Connection:
    """The answers file: SQLite, one transaction per model call, so a process killed at any
    moment leaves every answer it committed whole and none half-written. Only a new file or
    a cache textfair wrote is opened, a new one created whole (`textfair.io.connect_cache`)."""
    from textfair.io import connect_cache

    return connect_cache(path, [_PREDICTIONS])


_PREDICTIONS = (
    "CREATE TABLE IF NOT EXISTS predictions ("
    "model TEXT NOT NULL, input TEXT NOT NULL, probabilities BLOB NOT NULL, "
    "PRIMARY KEY (model, input))"
)


def input_key(item: Hashable) -> str:
    """The on-disk key of an input: the text itself, or a hash of another input's repr."""
    if isinstance(item, str):
        return item
    return "repr:" + hashlib.sha256(repr(item).encode()).hexdigest()
