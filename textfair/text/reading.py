"""A corpus's reading as data: what `read_seeds` found (each seed's mentions, its plan per
category, the scores computed on the way), the key that says which corpus, lists and
settings it is the reading of, and its stored form.

Apart from the reading itself (`textfair.text._seed_reading`) and from where it is kept
(`textfair.text.reading_store`): this module only names a reading and turns it into bytes
and back. The stored form is a JSON header, the scores as float64 and the mentions and
plans as int32 columns (`textfair.text._reading_columns`), zlib-compressed, never a pickle:
a stored reading is read back only into mentions of the domain's own term list, each term
looked up by its id, and anything that does not fit (another key, a span outside its text,
a term the list lacks) is refused whole.
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

from textfair._version import __version__
from textfair.terms import TermList
from textfair.text import _gates as gates
from textfair.text._coherence import CategoryPlan
from textfair.text._reading_columns import StoredMentions, columns_of, reading_of
from textfair.text.mentions import Mention

__all__ = [
    "FORMAT",
    "Reading",
    "ReadingRefused",
    "decode",
    "encode",
    "reading_key",
    "texts_digest",
]

#: The stored form's version: a change of what is stored is a new number, and a stored
#: reading of another number is read again.
FORMAT = 2
_MAGIC = b"TFRD"


class ReadingRefused(ValueError):
    """A stored reading that is damaged or not the one asked for (its reason)."""


@dataclass(frozen=True)
class Reading:
    """What the reading of a corpus found, seed by seed (in the corpus's order).

    `scores`: the acceptability scores computed while reading, keyed (seed index,
    category) as `Scorer` keeps them. Nothing in a seed's entries depends on another seed,
    so the reading of a subset of the corpus is the subset of its entries (`subset`).
    """

    mentions: Sequence[list[Mention]]
    """Each seed's mentions: lists, or, for a reading taken from the store, a
    `StoredMentions` that builds a seed's when it is first read."""
    plans: list[dict[str, CategoryPlan]]
    scores: dict[tuple[Any, str], np.ndarray]
    written: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """The variants audits wrote from this reading, by (seed, rule set): filled as they
    write (`TextDomain.rewrite`) and kept beside the reading (`textfair.text._written`), so
    the next audit takes them as written. A subset starts with none."""

    def __len__(self) -> int:
        return len(self.mentions)

    def named(self, index: int) -> list[tuple[str, str]]:
        """The (category, term id) of each mention of seed `index`: from a stored reading,
        without building its mentions."""
        if isinstance(self.mentions, StoredMentions):
            return self.mentions.named(index)
        return [(m.category, m.term_id) for m in self.mentions[index]]

    def subset(self, indices: Sequence[int] | np.ndarray) -> Reading:
        """The reading of the seeds `indices`, renumbered from 0 in that order."""
        position = {int(index): k for k, index in enumerate(indices)}
        return Reading(
            [self.mentions[i] for i in indices],
            [self.plans[i] for i in indices],
            {
                (position[index], category): values
                for (index, category), values in self.scores.items()
                if index in position
            },
        )


def reading_key(
    texts: Sequence[str],
    term_list: TermList,
    categories: Sequence[str],
    min_acceptability: float,
    private_names: bool,
) -> str:
    """What a reading is the reading of, as a SHA-256: the corpus's texts (in order), the term
    list's content (every field of every term and member, not its name), the categories
    read, the settings that shape the reading (`min_acceptability`, `private_names`, the
    gates `disabled` in `textfair.text._gates`), the stored form's version and textfair's
    (its version and a digest of the code and data that read: a changed reader never reuses
    an old reading)."""
    digest = hashlib.sha256()
    settings = [FORMAT, __version__, _code_digest(), list(categories), min_acceptability]
    settings += [bool(private_names), list(gates.off())]
    digest.update(json.dumps(settings).encode())
    digest.update(_term_list_digest(term_list).encode())
    digest.update(texts_digest(texts).encode())
    return digest.hexdigest()


#: The last corpus digested: its texts (the very string objects) and their digest.
_LAST_DIGEST: tuple[tuple[str, ...], str] = ((), hashlib.sha256().hexdigest())


def texts_digest(texts: Sequence[str]) -> str:
    """The SHA-256 of a corpus's texts, in order (what report.json records as the data's
    ``texts_sha256``). An audit asks it three times of one corpus (its reading's key, the
    report's digest and key): the texts of the last call, the same string objects in the
    same order (strings do not change), give its digest without hashing them again."""
    global _LAST_DIGEST
    last, known = _LAST_DIGEST
    if len(last) == len(texts) and all(map(operator.is_, last, texts)):
        return known
    digest = hashlib.sha256()
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")
        digest.update(struct.pack("<Q", len(data)))  # no two corpora join into one stream
        digest.update(data)
    _LAST_DIGEST = (tuple(texts), digest.hexdigest())
    return _LAST_DIGEST[1]


def _term_list_digest(term_list: TermList) -> str:
    """Every term's fields (a frozen dataclass's repr: tuples and strings, in order), with
    its members', category by category."""
    digest = hashlib.sha256()
    for category, terms in term_list.categories.items():
        digest.update(repr(category).encode())
        for term in terms:
            digest.update(repr(term).encode())
            digest.update(repr([repr(member) for member in term.members]).encode())
    return digest.hexdigest()


@functools.cache
def _code_digest() -> str:
    """A digest of the reader's code and data (`textfair.text` and `textfair.terms`, their
    files in name order), computed once a process."""
    digest = hashlib.sha256()
    for package in ("textfair.text", "textfair.terms"):
        root = resources.files(package)
        for item in sorted(root.iterdir(), key=lambda entry: entry.name):
            if item.is_file() and item.name.endswith((".py", ".json", ".yaml", ".txt")):
                digest.update(item.name.encode())
                digest.update(item.read_bytes())
    return digest.hexdigest()


def encode(key: str, reading: Reading) -> bytes:
    """The stored form: magic, the JSON header's length, the header (key, format, the
    strings and terms tables, where each column and score array lies), then the scores as
    float64 and the mentions' and plans' columns as int32 (`textfair.text._reading_columns`),
    all zlib-compressed."""
    arrays: list[np.ndarray] = []
    places = []
    offset = 0
    for (index, category), values in reading.scores.items():
        flat = np.ascontiguousarray(values, dtype="<f8").ravel()
        places.append([index, category, offset, len(flat)])
        arrays.append(flat)
        offset += len(flat)
    tables, columns = columns_of(reading.mentions, reading.plans)
    layout, at = {}, 0
    for name, column in columns.items():
        layout[name] = [at, len(column)]
        at += len(column)
    header = {
        "format": FORMAT,
        "key": key,
        "seeds": len(reading),
        **tables,
        "columns": layout,
        "scores": places,
        "score_values": offset,
    }
    body = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    scores = np.concatenate(arrays).tobytes() if arrays else b""
    ints = np.concatenate(list(columns.values())).tobytes() if columns else b""
    return zlib.compress(_MAGIC + struct.pack("<Q", len(body)) + body + scores + ints, 1)


def decode(blob: bytes, key: str, texts: Sequence[str], term_list: TermList) -> Reading:
    """The reading `encode` stored, its mentions naming `term_list`'s terms (each seed's
    built when first asked for); ReadingRefused (with the reason) for one that is damaged,
    of another format, of another key, or that does not fit `texts` and `term_list`."""
    try:
        data = zlib.decompress(blob)
        if data[:4] != _MAGIC:
            raise ReadingRefused("not a textfair reading")
        (length,) = struct.unpack("<Q", data[4:12])
        header = json.loads(data[12 : 12 + length])
        rest = data[12 + length :]
    except (zlib.error, struct.error, ValueError) as err:
        raise ReadingRefused(f"damaged: {type(err).__name__}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ReadingRefused("written in another format")
    if header.get("key") != key:
        raise ReadingRefused("the reading of another corpus, term list or settings")
    try:
        return _reading(header, rest, texts, term_list)
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise ReadingRefused(f"damaged: {type(err).__name__} {err}") from None


def _reading(
    header: dict[str, Any], rest: bytes, texts: Sequence[str], term_list: TermList
) -> Reading:
    if header["seeds"] != len(texts):
        raise ValueError(f"{header['seeds']} seeds for {len(texts)} texts")
    values = int(header["score_values"])
    if not 0 <= 8 * values <= len(rest) or (len(rest) - 8 * values) % 4:
        raise ValueError("a buffer of the wrong size")
    buffer = np.frombuffer(rest[: 8 * values], dtype="<f8")
    ints = np.frombuffer(rest[8 * values :], dtype="<i4")
    columns = {}
    for name, (at, count) in header["columns"].items():
        if not (isinstance(at, int) and isinstance(count, int) and 0 <= at <= at + count):
            raise ValueError("a column outside the reading")
        if at + count > len(ints):
            raise ValueError("a column outside the reading")
        columns[str(name)] = ints[at : at + count]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    mentions, plans = reading_of(header, columns, lengths, term_list)
    scores = {}
    for index, category, offset, count in header["scores"]:
        if not 0 <= index < len(texts) or offset < 0 or offset + count > len(buffer):
            raise ValueError("a score outside the reading")
        scores[(int(index), str(category))] = buffer[offset : offset + count].copy()
    return Reading(mentions, plans, scores)
