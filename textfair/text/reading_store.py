"""Where a corpus's reading is kept for the next audit: in this process, and in the cache
file beside the model's answers.

What textfair reads of a corpus (`textfair.text.reading.Reading`) does not depend on the
model, so an audit of another model (a new version, a mitigated one, the next method of
`mitigate --methods all`) on the same corpus, lists and reading settings reuses it:

* in this process, the last readings made (at most `MEMORY_SEEDS` seeds in all), so the
  audits of mitigation and a notebook's second audit read nothing;
* with a cache file (`--cache`, `cache=`), in its table ``readings``: one row per key
  (`reading_key`), written in one SQLite transaction, so a run killed at any moment leaves
  the row whole or absent, and two runs at once each write a whole row (the same one, for
  the same key) while the other waits on SQLite's lock. The table is bounded: at most
  `MAX_READINGS` rows and `MAX_BYTES` of stored readings; the least recently used go first.

The variants audits wrote from a reading (`textfair.text._written`) are kept beside it, in
the table ``written``, and go with it when it is evicted: a re-audit of another model takes
them as written.

A stored row that is damaged or not the reading asked for (another key, format or corpus)
is refused with one line (`Found.note`), deleted, and the corpus is read again and stored
anew. A cache file that cannot be read is left as it is (it holds the model's answers too):
the corpus is read and nothing is stored.
"""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from textfair.errors import TextfairError
from textfair.terms import TermList
from textfair.text._written import (
    TemplateKey,
    decode_template_texts,
    decode_written,
    encode_template_texts,
    encode_written,
)
from textfair.text.reading import Reading, ReadingRefused, decode, encode

__all__ = ["MAX_BYTES", "MAX_READINGS", "MEMORY_SEEDS", "Found", "ReadingStore"]

#: Rows the cache file's table keeps: a CI job's corpora and their halves, with room.
MAX_READINGS = 16
#: Bytes of stored readings the table keeps (a 20k-text corpus's is about 1 MB compressed).
MAX_BYTES = 256 * 1024 * 1024
#: Seeds of the readings kept in this process, in all (a reading holds a few kB a seed).
MEMORY_SEEDS = 250_000

_READINGS = (
    "CREATE TABLE IF NOT EXISTS readings ("
    "key TEXT PRIMARY KEY, seeds INTEGER NOT NULL, bytes INTEGER NOT NULL, "
    "used REAL NOT NULL, body BLOB NOT NULL)"
)
# The variants written from a reading (`textfair.text._written`), one row per reading key:
# kept and evicted with its reading.
#: What `_Memory` keeps: anything with a length (a reading's seeds, a suite's texts).
Kept = TypeVar("Kept", bound=Sized)

# Each audit adds a part with the variants it wrote that were not there; at MAX_PARTS, the
# next joins them all into one.
_WRITTEN = (
    "CREATE TABLE IF NOT EXISTS written ("
    "key TEXT NOT NULL, part INTEGER NOT NULL, variants INTEGER NOT NULL, "
    "bytes INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (key, part))"
)
#: Parts of a reading's stored variants before they are joined into one.
MAX_PARTS = 8
# A template suite's written texts (`textfair.text._written.template_key`), one row each,
# at most MAX_READINGS rows (the least recently used go first).
_TEMPLATE_TEXTS = (
    "CREATE TABLE IF NOT EXISTS template_texts ("
    "key TEXT PRIMARY KEY, used REAL NOT NULL, bytes INTEGER NOT NULL, body BLOB NOT NULL)"
)


@dataclass(frozen=True)
class Found:
    """What a store gave for a key: the reading (None: read the corpus), where it came from
    ("this process" or the cache file's path), and a line on a stored reading refused."""

    reading: Reading | None
    source: str = ""
    note: str = ""


class ReadingStore:
    """Readings kept in this process and, with `path`, in that cache file.

    `path` is checked as every cache path is (`textfair.io.check_cache_file`: a new file or a
    textfair cache, never a user's file) when the store is made, before any work.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        if self.path is not None:
            from textfair.io import check_cache_file

            check_cache_file(self.path)

    def find(self, key: str, texts: Sequence[str], term_list: TermList) -> Found:
        """The reading stored under `key` (its mentions naming `term_list`'s terms), from
        this process first, then from the cache file; `Found(None)` when there is none."""
        kept = _memory.get(key)
        if kept is not None:
            return Found(kept, "this process")
        if self.path is None or not self.path.exists():
            return Found(None)
        try:
            with self._connection() as db:
                row = db.execute("SELECT body FROM readings WHERE key = ?", (key,)).fetchone()
                if row is None:
                    return Found(None)
                try:
                    reading = decode(row[0], key, texts, term_list)
                except ReadingRefused as refused:
                    with db:
                        db.execute("DELETE FROM readings WHERE key = ?", (key,))
                    return Found(None, note=self._refused(str(refused)))
                note = self._written(db, key, reading, texts, term_list)
                with db:  # a reading used stays longest (least recently used go first)
                    db.execute("UPDATE readings SET used = ? WHERE key = ?", (time.time(), key))
        except (sqlite3.Error, TextfairError) as err:
            return Found(None, note=self._unreadable(err))
        _memory.put(key, reading)
        return Found(reading, str(self.path), note)

    def _written(
        self,
        db: sqlite3.Connection,
        key: str,
        reading: Reading,
        texts: Sequence[str],
        term_list: TermList,
    ) -> str:
        """Put the variants stored for `key` into `reading.written`; a damaged row is
        deleted (the audit writes them again) with a line saying so, else ""."""
        rows = db.execute("SELECT body FROM written WHERE key = ? ORDER BY part", (key,))
        try:
            for (body,) in rows.fetchall():
                reading.written.update(decode_written(body, key, texts, term_list))
        except ReadingRefused as refused:
            reading.written.clear()
            with db:
                db.execute("DELETE FROM written WHERE key = ?", (key,))
            return (
                f"the corpus's stored variants in {self.path} were refused ({refused}); "
                "written again"
            )
        return ""

    def keep(self, key: str, reading: Reading) -> str:
        """Keep `reading` under `key`: in this process, and in the cache file when there is
        one (one transaction; the least recently used rows beyond the bounds deleted in the
        same one). A line when the file could not take it, else ""."""
        _memory.put(key, reading)
        if self.path is None:
            return ""
        body = encode(key, reading)
        if len(body) > MAX_BYTES:
            return f"the corpus's reading ({len(body) / 1e6:.0f} MB) is too large to store"
        try:
            with self._connection() as db, db:
                db.execute(
                    "INSERT OR REPLACE INTO readings VALUES (?, ?, ?, ?, ?)",
                    (key, len(reading), len(body), time.time(), body),
                )
                _evict(db)
        except (sqlite3.Error, TextfairError) as err:
            return self._unreadable(err)
        return ""

    def keep_written(self, key: str, reading: Reading, texts: Sequence[str], known: int) -> str:
        """Keep the variants written from `reading` (`Reading.written`, of the corpus
        `texts`) in the cache file, when audits wrote more than the `known` first ones
        (those it held when found or read; a dict keeps its order): the new ones as one more
        part, or, at MAX_PARTS, all of them as one. One transaction, so a run killed at any
        moment leaves the part whole or absent; only beside a reading the file still holds
        (an evicted one takes its variants with it). A line when the file could not take
        them, else ""."""
        if self.path is None or len(reading.written) <= known:
            return ""
        try:
            with self._connection() as db, db:
                parts = db.execute("SELECT count(*) FROM written WHERE key = ?", (key,))
                joined = parts.fetchone()[0] >= MAX_PARTS
                new = itertools.islice(reading.written.items(), 0 if joined else known, None)
                body = encode_written(key, new, texts)
                if len(body) > MAX_BYTES:
                    return f"the corpus's variants ({len(body) / 1e6:.0f} MB) are too large to keep"
                if joined:
                    db.execute("DELETE FROM written WHERE key = ?", (key,))
                count = len(reading.written) - (0 if joined else known)
                db.execute(
                    "INSERT INTO written SELECT ?1, (SELECT coalesce(max(part), 0) + 1 FROM "
                    "written WHERE key = ?1), ?2, ?3, ?4 "
                    "WHERE EXISTS (SELECT 1 FROM readings WHERE key = ?1)",
                    (key, count, len(body), body),
                )
                _evict(db)
        except (sqlite3.Error, TextfairError) as err:
            return self._unreadable(err, "the corpus's variants", "written here")
        return ""

    def find_template_texts(self, key: str, seeds: int) -> tuple[dict[TemplateKey, str], str]:
        """The template texts kept under `key` (for a template domain of `seeds` seeds): in
        this process (the very dict an earlier domain filled), else from the cache file;
        empty when there are none; and a line on a damaged row (deleted), else ""."""
        kept = _template_memory.get(key)
        if kept is not None:
            return kept, ""
        if self.path is None or not self.path.exists():
            return {}, ""
        try:
            with self._connection() as db:
                row = db.execute("SELECT body FROM template_texts WHERE key = ?", (key,))
                found = row.fetchone()
                if found is None:
                    return {}, ""
                try:
                    texts = decode_template_texts(found[0], key, seeds)
                except ReadingRefused as refused:
                    with db:
                        db.execute("DELETE FROM template_texts WHERE key = ?", (key,))
                    return {}, (
                        f"the templates' stored texts in {self.path} were refused ({refused}); "
                        "written again"
                    )
                with db:
                    db.execute(
                        "UPDATE template_texts SET used = ? WHERE key = ?", (time.time(), key)
                    )
        except (sqlite3.Error, TextfairError) as err:
            return {}, self._unreadable(err, "the templates' texts", "written here")
        return texts, ""

    def keep_template_texts(self, key: str, texts: dict[TemplateKey, str], known: int) -> str:
        """Keep a template domain's written `texts` under `key` when there are more than the
        `known` it found (one transaction, the row replaced whole); a line when the file
        could not take them, else "". Kept in this process too."""
        _template_memory.put(key, texts)
        if self.path is None or len(texts) <= known:
            return ""
        body = encode_template_texts(key, texts)
        try:
            with self._connection() as db, db:
                db.execute(
                    "INSERT OR REPLACE INTO template_texts VALUES (?, ?, ?, ?)",
                    (key, time.time(), len(body), body),
                )
                rows = db.execute("SELECT key FROM template_texts ORDER BY used DESC")
                for old in [k for (k,) in rows.fetchall()][MAX_READINGS:]:
                    db.execute("DELETE FROM template_texts WHERE key = ?", (old,))
        except (sqlite3.Error, TextfairError) as err:
            return self._unreadable(err, "the templates' texts", "written here")
        return ""

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        from textfair.io import connect_cache

        assert self.path is not None
        db = connect_cache(self.path, [_READINGS, _WRITTEN, _TEMPLATE_TEXTS])
        try:
            yield db
        finally:
            db.close()

    def _refused(self, reason: str) -> str:
        return (
            f"the corpus's stored reading in {self.path} was refused ({reason}); "
            "read again and stored anew"
        )

    def _unreadable(
        self, err: Exception, what: str = "the corpus's reading", done: str = "read here"
    ) -> str:
        return (
            f"the cache file {self.path} could not keep {what} ({err}); {done}, the file "
            "left as it was"
        )


def _evict(db: sqlite3.Connection) -> None:
    """Delete the least recently used readings beyond MAX_READINGS rows or MAX_BYTES in all
    (a reading's stored variants counted with it), and the variants of a reading gone."""
    total = 0
    rows = db.execute(
        "SELECT key, bytes + coalesce((SELECT sum(bytes) FROM written WHERE written.key = "
        "readings.key), 0) FROM readings ORDER BY used DESC"
    ).fetchall()
    for count, (key, size) in enumerate(rows, start=1):
        total += size
        if count > MAX_READINGS or total > MAX_BYTES:
            db.execute("DELETE FROM readings WHERE key = ?", (key,))
    db.execute("DELETE FROM written WHERE key NOT IN (SELECT key FROM readings)")


class _Memory(Generic[Kept]):
    """What this process made, by key, most recently used last, at most `size()` entries'
    lengths in all (a reading's seeds, a template suite's texts; a thread-safe LRU: a
    notebook may audit from several threads)."""

    def __init__(self, size: Callable[[], int]) -> None:
        self._kept: OrderedDict[str, Kept] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: str) -> Kept | None:
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
            return kept

    def put(self, key: str, kept: Kept) -> None:
        with self._lock:
            self._kept[key] = kept
            self._kept.move_to_end(key)
            total = sum(len(entry) for entry in self._kept.values())
            while total > self._size() and len(self._kept) > 1:
                _, dropped = self._kept.popitem(last=False)
                total -= len(dropped)

    def clear(self) -> None:
        """Forget everything kept (tests; a caller that wants the next audit to read)."""
        with self._lock:
            self._kept.clear()


# Read at each put, so a test may lower it.
_memory: _Memory[Reading] = _Memory(lambda: MEMORY_SEEDS)
# The template texts written in this process (a suite writes a few thousand).
_template_memory: _Memory[dict[TemplateKey, str]] = _Memory(lambda: MEMORY_SEEDS)


def forget_readings() -> None:
    """Forget the readings (and template texts) kept in this process: the next audit of any
    corpus reads it (a stored reading in a cache file is still found)."""
    _memory.clear()
    _template_memory.clear()
