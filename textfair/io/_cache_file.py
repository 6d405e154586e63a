"""Which file a model's answer cache may open: a new one, or a cache textfair wrote.

Apart from the cache itself (textfair.models): the check reads only a file's SQLite header
and table names, and runs with the other output checks before any work.
"""

from __future__ import annotations

from pathlib import Path

from textfair.errors import TextfairError
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
