"""The file a CachedModel keeps its answers in: SQLite, opened only when new or textfair's,
created whole, one row per input under the model's key.

Apart from CachedModel (textfair.models.cached), which decides what to ask the model; this
module only stores and names what it was answered.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Hashable
from pathlib import Path

from textfair.errors import TextfairError


def open_cache(path: Path) -> sqlite3.Connection:
    """The answers file: SQLite, one transaction per model call, so a process killed at any
    moment leaves every answer it committed whole and none half-written. Only a new file or
    a cache textfair wrote is opened (:func:`textfair.io.check_cache_file`); the file is
    marked as textfair's in its header."""
    from textfair.io import check_cache_file

    check_cache_file(path)
    try:
        if not path.exists():
            _create_cache(path)
        # Used by one thread at a time, but not always the one that opened it: calls made
        # ahead (`textfair.models.ahead`) run in a thread while the audit's waits.
        db = sqlite3.connect(str(path), check_same_thread=False)
        _create_table(db)  # a cache written before the marker gets it now
    except sqlite3.Error as err:
        raise TextfairError.bad(
            "cache_path", f"{path} cannot be used as a cache ({err}); choose another path"
        ) from None
    return db


def _create_table(db: sqlite3.Connection) -> None:
    from textfair.io import CACHE_APPLICATION_ID

    db.execute(f"PRAGMA application_id = {CACHE_APPLICATION_ID}")
    db.execute(
        "CREATE TABLE IF NOT EXISTS predictions ("
        "model TEXT NOT NULL, input TEXT NOT NULL, probabilities BLOB NOT NULL, "
        "PRIMARY KEY (model, input))"
    )
    db.commit()


def _create_cache(path: Path) -> None:
    """A new, empty cache put in place whole, and only if no other run's cache got there
    first: a run starting beside another never opens a half-made file."""
    from textfair.io import atomic_writer

    empty = sqlite3.connect(":memory:")
    _create_table(empty)
    image = empty.serialize()
    empty.close()
    with contextlib.suppress(TextfairError), atomic_writer(path, True, replace=False) as handle:
        handle.write(image)


def input_key(item: Hashable) -> str:
    """The on-disk key of an input: the text itself, or a hash of another input's repr."""
    if isinstance(item, str):
        return item
    return "repr:" + hashlib.sha256(repr(item).encode()).hexdigest()
