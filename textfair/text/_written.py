"""The variants a corpus's audits wrote, kept beside its reading so the next audit of another
model (issue 58) takes them as written instead of writing them again.

A variant is a function of its seed, the rule set it is rewritten to, and what the reading
holds (the key of a reading covers the corpus, the lists, the reading settings and the code
that writes variants, `textfair.text.reading.reading_key`): under one key, the same seed
and rule set always give the same text, acceptability and WORLD flag. Which variants an
audit writes depends on the model (each rule set stops when its interval is narrow enough),
so the store holds the union of every audit's: a re-audit finds most of its variants there
and writes the rest, which are kept for the next.

Stored form: a JSON header (the reading's key, the rule sets ``[[category, term], ...]``
and the WORLD flags, each once, and each variant's text between its changes), then columns
(each variant's acceptability as float64; its seed, rule set's position, characters kept
before and after, and WORLD flag's position as int32), under a magic, zlib-compressed;
never a pickle. A variant is its seed with the words between its first and last change
rewritten, so it is stored as the seed's characters it keeps at either end and the text
between: a few words where the whole text would take hundreds of characters (a re-audit of
a 20k-text corpus read 18.6 MB of JSON, 0.23 s, to take its variants; then a tenth of that
as one JSON list per variant, and now its numbers as columns, checked in array operations).
Anything that does not fit the
reading (another key, a seed outside the corpus, ends longer than the seed, a term the list
lacks, a score outside [0, 1]) is refused whole.

A template suite's written texts are kept the same way, under a key of their own
(`template_key`): they depend on the templates, the lists and the code, not on the corpus.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from textfair._version import __version__
from textfair.core.rules import Rule
from textfair.terms import TermList
from textfair.text.reading import ReadingRefused, _code_digest, _term_list_digest

__all__ = [
    "TemplateKey",
    "Written",
    "WrittenKey",
    "decode_template_texts",
    "decode_written",
    "encode_template_texts",
    "encode_written",
    "template_key",
]

#: A variant's key: its seed and the rule set it was rewritten to.
WrittenKey = tuple[int, tuple[Rule, ...]]
#: What a variant is: its text, its acceptability and its WORLD flag (None for none).
Written = tuple[str, float, str | None]

_MAGIC = b"TFWV3"  # TFWV1 stored each whole text, TFWV2 each variant as JSON: refused


def encode_written(
    key: str, written: Iterable[tuple[WrittenKey, Written]], seeds: Sequence[str]
) -> bytes:
    """The stored form of the variants `written` (of the reading `key` of the corpus
    `seeds`): each rule set and WORLD flag once, each variant naming them by position and
    written as the change from its seed (`_difference`); its numbers as columns (seed, rule
    set, kept before, kept after, WORLD flag as int32; acceptability as float64), the texts
    between in one JSON list."""
    rule_sets: dict[tuple[Rule, ...], int] = {}
    worlds: dict[str, int] = {}
    numbers: list[tuple[int, int, int, int, int]] = []
    scores: list[float] = []
    betweens: list[str] = []
    for (index, rule_set), (text, score, world) in written:
        before, after, between = _difference(seeds[index], text)
        flag = -1 if world is None else worlds.setdefault(world, len(worlds))
        numbers.append((index, rule_sets.setdefault(rule_set, len(rule_sets)), before, after, flag))
        scores.append(score)
        betweens.append(between)
    listed = [[[rule.category, rule.value] for rule in rule_set] for rule_set in rule_sets]
    header = {"key": key, "rule_sets": listed, "worlds": list(worlds), "betweens": betweens}
    columns = np.asarray(numbers, dtype="<i4").reshape(len(numbers), 5).T
    arrays = np.asarray(scores, dtype="<f8").tobytes() + np.ascontiguousarray(columns).tobytes()
    return _packed(_MAGIC, header, arrays)


def decode_written(
    blob: bytes, key: str, seeds: Sequence[str], term_list: TermList
) -> dict[WrittenKey, Written]:
    """The variants `encode_written` stored for the reading `key` of the corpus `seeds`
    read with `term_list`; ReadingRefused (with the reason) for a blob that is damaged, of
    another reading, or that does not fit."""
    stored, arrays = _unpacked_with_arrays(
        blob, _MAGIC, key, "stored variants", "another corpus, term list or settings"
    )
    rules = {(t.category, t.id): Rule(t.category, t.id) for t in term_list.terms()}
    try:
        rule_sets = [tuple(rules[(c, t)] for c, t in listed) for listed in stored["rule_sets"]]
        return _variants(stored, arrays, seeds, rule_sets)
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise ReadingRefused(f"stored variants damaged: {type(err).__name__} {err}") from None


def _variants(
    stored: dict[str, Any],
    arrays: bytes,
    seeds: Sequence[str],
    rule_sets: list[tuple[Rule, ...]],
) -> dict[WrittenKey, Written]:
    """The variants of `stored`'s columns, every one checked in array operations first."""
    betweens, worlds = stored["betweens"], stored["worlds"]
    count = len(betweens)
    if len(arrays) != 8 * count + 4 * 5 * count:
        raise ValueError("columns of the wrong size")
    scores = np.frombuffer(arrays[: 8 * count], dtype="<f8")
    index, rule_set, before, after, world = np.frombuffer(arrays[8 * count :], dtype="<i4").reshape(
        5, count
    )
    if count and (index.min() < 0 or index.max() >= len(seeds)):
        raise ValueError("a variant of a seed outside the corpus")
    if np.any(before < 0) or np.any(after < 0):
        raise ValueError("a variant whose kept ends are not lengths")
    lengths = np.fromiter((len(seeds[i]) for i in index.tolist()), dtype=np.int64, count=count)
    if np.any(before.astype(np.int64) + after > lengths):
        raise ValueError("a variant keeping more of its seed than the seed holds")
    if not all(type(b) is str for b in betweens) or not all(type(w) is str for w in worlds):
        raise ValueError("a variant that is not text")
    if not np.all((scores >= 0) & (scores <= 1)):  # NaN fails too
        raise ValueError("an acceptability outside [0, 1]")
    if count and (rule_set.min() < 0 or rule_set.max() >= len(rule_sets)):
        raise ValueError("a rule set outside the stored ones")
    if count and (world.min() < -1 or world.max() >= len(worlds)):
        raise ValueError("a WORLD flag outside the stored ones")
    flags: list[str | None] = [*worlds, None]  # -1 reads the last: none
    return {
        (i, rule_sets[r]): (seeds[i][:b] + between + seeds[i][len(seeds[i]) - a :], s, flags[w])
        for i, r, b, a, w, s, between in zip(
            index.tolist(),
            rule_set.tolist(),
            before.tolist(),
            after.tolist(),
            world.tolist(),
            scores.tolist(),
            betweens,
            strict=True,
        )
    }


def _difference(seed: str, text: str) -> tuple[int, int, str]:
    """`text` as `seed`'s first `before` and last `after` characters kept, `between`
    written between them: the longest such ends that do not overlap. Each end is found by
    halving, with C-speed comparisons of slices (a few dozen per variant, where a loop over
    characters would take hundreds)."""
    shortest = min(len(seed), len(text))
    before = _longest(lambda n: seed[:n] == text[:n], shortest)
    after = _longest(lambda n: seed[len(seed) - n :] == text[len(text) - n :], shortest - before)
    return before, after, text[before : len(text) - after]


def _longest(holds: Callable[[int], bool], most: int) -> int:
    """The largest n in [0, most] for which `holds(n)`, `holds` being true up to some n
    and false after it (a common prefix's length)."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


#: A templated seed's text: its seed, the term written and whether with the placebo edit.
TemplateKey = tuple[int, str, bool]
_TEMPLATE_MAGIC = b"TFTT1"


def template_key(
    templates: Sequence[str],
    kinds: Sequence[str | None],
    term_list: TermList,
    categories: Sequence[str],
) -> str:
    """What a template suite's written texts are the texts of, as a SHA-256: the templates
    and their kinds, the term list's content, the categories, and textfair's writer (its
    version and code digest, as a reading's key has them)."""
    digest = hashlib.sha256()
    written = ["templates", __version__, _code_digest(), list(categories), list(kinds)]
    digest.update(json.dumps([*written, list(templates)]).encode("utf-8", "surrogatepass"))
    digest.update(_term_list_digest(term_list).encode())
    return digest.hexdigest()


def encode_template_texts(key: str, written: Mapping[TemplateKey, str]) -> bytes:
    """The stored form of a template domain's written texts (`TemplateDomain.write`)."""
    entries = [[index, term, placebo, text] for (index, term, placebo), text in written.items()]
    return _packed(_TEMPLATE_MAGIC, {"key": key, "texts": entries})


def decode_template_texts(blob: bytes, key: str, seeds: int) -> dict[TemplateKey, str]:
    """The texts `encode_template_texts` stored under `key` for a domain of `seeds` seeds;
    ReadingRefused for a blob damaged, of another key, or that does not fit."""
    stored = _unpacked(
        blob, _TEMPLATE_MAGIC, key, "stored template texts", "other templates, lists or settings"
    )
    texts: dict[TemplateKey, str] = {}
    try:
        for index, term, placebo, text in stored["texts"]:
            if not (type(index) is int and 0 <= index < seeds):
                raise ValueError("a text of a seed outside the templates")
            if type(term) is not str or type(placebo) is not bool or type(text) is not str:
                raise ValueError("a text that is not one")
            texts[(index, term, placebo)] = text
    except (KeyError, TypeError, ValueError) as err:
        raise ReadingRefused(f"stored template texts damaged: {err}") from None
    return texts


def _packed(magic: bytes, body: dict[str, Any], arrays: bytes | None = None) -> bytes:
    """`body` as JSON after `magic`, zlib-compressed (level 1: written at each audit's end);
    with `arrays`, the JSON's length first and the arrays' bytes after it."""
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    encoded = text.encode("utf-8", "surrogatepass")
    if arrays is None:
        return zlib.compress(magic + encoded, 1)
    return zlib.compress(magic + struct.pack("<Q", len(encoded)) + encoded + arrays, 1)


def _unpacked(blob: bytes, magic: bytes, key: str, what: str, other: str) -> dict[str, Any]:
    """The JSON object `_packed` stored after `magic` under `key`; ReadingRefused naming
    `what` for a blob that is damaged, not textfair's, or stored under another key (`other`
    says what that means)."""
    try:
        data = zlib.decompress(blob)
        if data[: len(magic)] != magic:
            raise ReadingRefused(f"not textfair's {what}")
        stored = json.loads(data[len(magic) :].decode("utf-8", "surrogatepass"))
    except (zlib.error, ValueError) as err:
        raise ReadingRefused(f"{what} damaged: {type(err).__name__}") from None
    if not isinstance(stored, dict) or stored.get("key") != key:
        raise ReadingRefused(f"{what} of {other}")
    return stored


def _unpacked_with_arrays(
    blob: bytes, magic: bytes, key: str, what: str, other: str
) -> tuple[dict[str, Any], bytes]:
    """As `_unpacked`, for a blob `_packed` wrote with arrays: the JSON object and the
    arrays' bytes."""
    try:
        data = zlib.decompress(blob)
        if data[: len(magic)] != magic:
            raise ReadingRefused(f"not textfair's {what}")
        start = len(magic) + 8
        (length,) = struct.unpack("<Q", data[len(magic) : start])
        stored = json.loads(data[start : start + length].decode("utf-8", "surrogatepass"))
    except (zlib.error, struct.error, ValueError) as err:
        raise ReadingRefused(f"{what} damaged: {type(err).__name__}") from None
    if not isinstance(stored, dict) or stored.get("key") != key:
        raise ReadingRefused(f"{what} of {other}")
    return stored, data[start + length :]
