"""A stored reading's columns (issue 58): read back, every mention, member, related word,
plan and score is the fresh reading's; a seed's mentions are built only when it is read;
anything that does not fit the texts or the list refuses the reading whole."""

from __future__ import annotations

import json
import struct
import zlib

import numpy as np
import pytest

from textfair.terms import load_term_list
from textfair.text._reading_columns import StoredMentions
from textfair.text.domain import TextDomain
from textfair.text.reading import ReadingRefused, decode, encode

TEXTS = [
    "Mexicans moved to Mexico last year.",  # a group's member, a related word (the country)
    "Americans and Germans met.",  # two terms: left out
    "The weather is fine today.",  # no mention
    "I love Mexico and Mexicans.",
]
LIST = load_term_list("nationality_income")


def _stored() -> tuple[TextDomain, bytes]:
    domain = TextDomain(TEXTS, LIST, workers=1, min_acceptability=0)
    return domain, encode("key", domain.reading)


def test_a_stored_reading_reads_back_as_the_fresh_one_and_builds_a_seed_when_read():
    domain, blob = _stored()
    fresh = domain.reading
    assert any(m.member for seed in fresh.mentions for m in seed)
    assert any(p.related for plans in fresh.plans for p in plans.values())
    stored = decode(blob, "key", TEXTS, LIST)
    mentions = stored.mentions
    assert isinstance(mentions, StoredMentions)
    # Nothing built yet; what the domain needs of every seed comes without building any.
    assert [stored.named(i) for i in range(len(TEXTS))] == [
        fresh.named(i) for i in range(len(TEXTS))
    ]
    assert mentions._made == [None] * len(TEXTS)
    assert mentions[3] == fresh.mentions[3] and mentions._made[0] is None
    assert mentions[3] is mentions[3]  # built once
    assert mentions == fresh.mentions and list(mentions) == list(fresh.mentions)
    assert stored.plans == fresh.plans
    assert stored.scores.keys() == fresh.scores.keys()
    for key, values in fresh.scores.items():
        np.testing.assert_array_equal(values, stored.scores[key])
    # The same variants, from a domain given the stored reading.
    again = TextDomain(TEXTS, LIST, workers=1, min_acceptability=0, reading=stored)
    for category in domain.categories():
        for rule in domain.single_rules(category):
            for seed in range(len(TEXTS)):
                first, second = domain.rewrite(seed, (rule,)), again.rewrite(seed, (rule,))
                assert (first and first.text) == (second and second.text)


def _edited(blob: bytes, edit) -> bytes:
    """`blob` with its header and int32 columns changed by `edit(header, columns)`."""
    data = zlib.decompress(blob)
    (length,) = struct.unpack("<Q", data[4:12])
    header = json.loads(data[12 : 12 + length])
    rest = data[12 + length :]
    floats = 8 * header["score_values"]
    ints = np.frombuffer(rest[floats:], dtype="<i4")
    columns = {n: ints[at : at + count].copy() for n, (at, count) in header["columns"].items()}
    edit(header, columns)
    body = json.dumps(header).encode()
    packed = b"".join(c.astype("<i4").tobytes() for c in columns.values())
    return zlib.compress(data[:4] + struct.pack("<Q", len(body)) + body + rest[:floats] + packed)


def _set(name: str, row: int, value: int):
    def edit(header, columns):
        columns[name][row] = value

    return edit


def _foreign_term(header, columns):
    header["terms"][0][1] = "martian"


def _cut_column(header, columns):
    header["columns"]["found.end"][1] += 1000


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (_set("found.end", 0, 10_000), "outside its text"),
        (_set("found.start", 0, -1), "outside its text"),
        (_set("found.owner", 0, 3), "out of order"),
        (_set("found.term", 0, 99), "outside its table"),
        (_set("found.surface", 0, -1), "outside its table"),
        (_set("related.start", 0, 10_000), "outside its text"),
        (_set("plans.target_end", 0, 10_000), "targets outside"),
        (_foreign_term, "KeyError"),
        (_cut_column, "outside the reading"),
    ],
)
def test_a_stored_reading_that_does_not_fit_is_refused_whole(edit, said):
    _, blob = _stored()
    decode(_edited(blob, lambda header, columns: None), "key", TEXTS, LIST)  # edits alone
    with pytest.raises(ReadingRefused, match=said):
        decode(_edited(blob, edit), "key", TEXTS, LIST)


def _written_blob(edit) -> bytes:
    """Two stored variants of TEXTS[0], their columns changed by `edit(header, scores,
    columns)` (columns: seed, rule set, kept before, kept after, WORLD flag)."""
    from textfair.core.rules import Rule
    from textfair.text._written import encode_written

    rule_set = (Rule("income_group", "low income nationality"),)
    written = [
        ((0, rule_set), ("Nigerians moved to Nigeria last year.", 0.8, None)),
        ((3, rule_set), ("I love Nigeria and Nigerians.", 0.6, "a flag")),
    ]
    data = zlib.decompress(encode_written("key", written, TEXTS))
    (length,) = struct.unpack("<Q", data[5:13])
    header = json.loads(data[13 : 13 + length])
    rest = data[13 + length :]
    scores = np.frombuffer(rest[:16], dtype="<f8").copy()
    columns = np.frombuffer(rest[16:], dtype="<i4").reshape(5, 2).copy()
    edit(header, scores, columns)
    body = json.dumps(header).encode()
    packed = scores.tobytes() + columns.astype("<i4").tobytes()
    return zlib.compress(data[:5] + struct.pack("<Q", len(body)) + body + packed)


def _column(row: int, value: int):
    def edit(header, scores, columns):
        columns[row, 0] = value

    return edit


def _nan_score(header, scores, columns):
    scores[0] = float("nan")


def _one_text_short(header, scores, columns):
    header["betweens"].pop()


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (_column(0, 4), "seed outside the corpus"),
        (_column(1, 1), "rule set outside"),
        (_column(2, -1), "not lengths"),
        (_column(3, 1000), "keeping more of its seed"),
        (_column(4, 1), "WORLD flag outside"),
        (_nan_score, "acceptability outside"),
        (_one_text_short, "wrong size"),
    ],
)
def test_stored_variants_that_do_not_fit_are_refused_whole(edit, said):
    from textfair.text._written import decode_written

    kept = decode_written(_written_blob(lambda *_: None), "key", TEXTS, LIST)
    assert [v for v, _, _ in kept.values()] == [
        "Nigerians moved to Nigeria last year.",
        "I love Nigeria and Nigerians.",
    ]
    assert [w for _, _, w in kept.values()] == [None, "a flag"]
    with pytest.raises(ReadingRefused, match=said):
        decode_written(_written_blob(edit), "key", TEXTS, LIST)
