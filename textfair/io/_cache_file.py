"""Which file a model's answer cache may open: a new one, or a cache textfair wrote.

Apart from the cache itself (textfair.models): the check reads only a file's SQLite header
and table names, and runs with the other output checks before any work.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from textfair.errors import TextfairError
from textfair.io._atomic import atomic_writer
from textfair.io._writable import check_parent

# A textfair cache says so in its SQLite header (PRAGMA application_id, bytes 68-71).
CACHE_APPLICATION_ID = 0x74667263  # "tfrc"
_SQLITE_HEADER = b"SQLite format 3\x00"
_CACHE_TABLE = ("model", "input", "probabilities")


def check_cache_file(path: str | Path, flag: str = "--cache") -> None:
    """A cache path textfair may open: new, or a cache textfair wrote. A user's file (a CSV,
    an empty file, their own SQLite database) is refused, never turned into a cache."""
    file = Path(path)
    if file.is_dir():
        raise TextfairError.bad("cache_path", f"{file} is a directory; pass a file path for {flag}")
    if not file.exists() and not file.is_symlink():
        check_parent(file, flag)
        return
    foreign = f"{flag} {file} is not a textfair cache"
    if not file.is_file():
        raise TextfairError(f"{foreign} (not a regular file); choose a new file name")
    with open(file, "rb") as handle:
        header = handle.read(100)
    if not header.startswith(_SQLITE_HEADER):
        raise TextfairError(f"{foreign} (not an SQLite file); choose a new file name")
    if int.from_bytes(header[68:72], "big") == CACHE_APPLICATION_ID:
        return
    if _cache_tables(file) != {"predictions": _CACHE_TABLE}:  # one written before the marker
        raise TextfairError(
            f"{foreign} (an SQLite database of other tables); textfair leaves it alone: "
            "choose a new file name"
        )


def connect_cache(
    path: str | Path, tables: Sequence[str], timeout: float = 60.0
) -> sqlite3.Connection:
    """A connection to the cache file at `path` (the model's answers and the corpus's
    readings live in it, each in its own table), with `tables` (CREATE TABLE IF NOT EXISTS
    statements) made. Only a new file or a cache textfair wrote is opened
    (`check_cache_file`); a new one is put in place whole, marked as textfair's in its
    header, and only if no other run's got there first, so a run starting beside another
    never opens a half-made file. `timeout`: how long a write waits for another run's
    transaction on the same file (SQLite's lock), rather than failing at once."""
    file = Path(path)
    check_cache_file(file)
    try:
        if not file.exists():
            empty = sqlite3.connect(":memory:")
            _create_tables(empty, tables)
            image = empty.serialize()
            empty.close()
            with (
                contextlib.suppress(TextfairError),
                atomic_writer(file, True, replace=False) as out,
            ):
                out.write(image)
        # Used by one thread at a time, but not always the one that opened it: the model's
        # calls made ahead (`textfair.models.ahead`) run in a thread while the audit's wait.
        db = sqlite3.connect(str(file), timeout=timeout, check_same_thread=False)
        _create_tables(db, tables)  # a cache written before the marker gets it now
    except sqlite3.Error as err:
        raise TextfairError.bad(
            "cache_path", f"{file} cannot be used as a cache ({err}); choose another path"
        ) from None
    return db


def _create_tables(db: sqlite3.Connection, tables: Sequence[str]) -> None:
    db.execute(f"PRAGMA application_id = {CACHE_APPLICATION_ID}")
    for statement in tables:
        db.execute(statement)
    db.commit()


def _cache_tables(file: Path) -> dict[str, tuple[str, ...]]:
    import sqlite3

    try:
        db = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
        try:
            # Tables only: a PRIMARY KEY's automatic index (textfair's own table had one
            # before the marker) is an entry of sqlite_master too, but no table of the file.
            names = [
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            ]
            return {
                name: tuple(row[1] for row in db.execute(f"PRAGMA table_info({name!r})"))
                for name in names
            }
        finally:
            db.close()
    except sqlite3.Error:
        return {}
