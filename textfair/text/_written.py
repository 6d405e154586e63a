"""The variants a corpus's audits wrote, kept beside its reading so the next audit of another
model (issue 58) takes them as written instead of writing them again.

A variant is a function of its seed, the rule set it is rewritten to, and what the reading
holds (the key of a reading covers the corpus, the lists, the reading settings and the code
that writes variants, `textfair.text.reading.reading_key`): under one key, the same seed
and rule set always give the same text, acceptability and WORLD flag. Which variants an
audit writes depends on the model (each rule set stops when its interval is narrow enough),
so the store holds the union of every audit's: a re-audit finds most of its variants there
and writes the rest, which are kept for the next.

Stored form: JSON (the rule sets ``[[category, term], ...]``, each once, and a list of
``[seed, rule set's position, kept before, kept after, between, acceptability, world]``)
under a magic and the reading's key, zlib-compressed; never a pickle. A variant is its
seed with the words between its first and last change rewritten, so it is stored as the
seed's characters it keeps at either end and the text between: a few words where the whole
text would take hundreds of characters (a re-audit of a 20k-text corpus read 18.6 MB of
JSON, 0.23 s, to take its variants; now a tenth of that). Anything that does not fit the
reading (another key, a seed outside the corpus, ends longer than the seed, a term the list
lacks, a score outside [0, 1]) is refused whole.

A template suite's written texts are kept the same way, under a key of their own
(`template_key`): they depend on the templates, the lists and the code, not on the corpus.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

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

_MAGIC = b"TFWV2"  # TFWV1 stored each variant's whole text: refused, written again


def encode_written(
    key: str, written: Iterable[tuple[WrittenKey, Written]], seeds: Sequence[str]
) -> bytes:
    """The stored form of the variants `written` (of the reading `key` of the corpus
    `seeds`): each rule set once, each variant naming its rule set by position and written
    as the change from its seed (`_difference`)."""
    rule_sets: dict[tuple[Rule, ...], int] = {}
    entries = [
        [index, rule_sets.setdefault(rule_set, len(rule_sets)), *change, score, world]
        for (index, rule_set), (text, score, world) in written
        for change in [_difference(seeds[index], text)]
    ]
    listed = [[[rule.category, rule.value] for rule in rule_set] for rule_set in rule_sets]
    return _packed(_MAGIC, {"key": key, "rule_sets": listed, "variants": entries})


def decode_written(
    blob: bytes, key: str, seeds: Sequence[str], term_list: TermList
) -> dict[WrittenKey, Written]:
    """The variants `encode_written` stored for the reading `key` of the corpus `seeds`
    read with `term_list`; ReadingRefused (with the reason) for a blob that is damaged, of
    another reading, or that does not fit."""
    stored = _unpacked(
        blob, _MAGIC, key, "stored variants", "another corpus, term list or settings"
    )
    rules = {(t.category, t.id): Rule(t.category, t.id) for t in term_list.terms()}
    try:
        rule_sets = [tuple(rules[(c, t)] for c, t in listed) for listed in stored["rule_sets"]]
        return dict(_entry(entry, seeds, rule_sets) for entry in stored["variants"])
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise ReadingRefused(f"stored variants damaged: {type(err).__name__} {err}") from None


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


def _entry(
    entry: list[Any], seeds: Sequence[str], rule_sets: list[tuple[Rule, ...]]
) -> tuple[WrittenKey, Written]:
    index, rule_set, before, after, between, score, world = entry
    if not (type(index) is int and 0 <= index < len(seeds)):
        raise ValueError("a variant of a seed outside the corpus")
    seed = seeds[index]
    if not (type(before) is int and type(after) is int and 0 <= before <= before + after):
        raise ValueError("a variant whose kept ends are not lengths")
    if before + after > len(seed):
        raise ValueError("a variant keeping more of its seed than the seed holds")
    if type(between) is not str or not (world is None or type(world) is str):
        raise ValueError("a variant that is not text")
    if not (type(score) in (int, float) and 0 <= score <= 1):  # NaN fails too
        raise ValueError("an acceptability outside [0, 1]")
    if type(rule_set) is not int or rule_set < 0:
        raise ValueError("a rule set outside the stored ones")
    text = seed[:before] + between + seed[len(seed) - after :]
    return (index, rule_sets[rule_set]), (text, float(score), world)


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


def _packed(magic: bytes, body: dict[str, Any]) -> bytes:
    """`body` as JSON after `magic`, zlib-compressed (level 1: written at each audit's end)."""
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return zlib.compress(magic + text.encode("utf-8", "surrogatepass"), 1)


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
