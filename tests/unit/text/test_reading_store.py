"""The corpus's reading kept for the next audit (`textfair.text.reading_store`): the same
reading as a fresh one, never shared between corpora, lists or reading settings, a damaged
or foreign one refused in one line and read again, bounded, and safe when a run is killed
or two run at once."""

import dataclasses
import json
import os
import signal
import sqlite3
import struct
import subprocess
import sys
import time
import zlib

import numpy as np
import pytest

from textfair.terms import load_term_list
from textfair.text import _gates as gates
from textfair.text import reading_store
from textfair.text.domain import TextDomain
from textfair.text.reading import Reading, reading_key
from textfair.text.reading_store import ReadingStore, forget_readings

from conftest import bundled_comments
from locations import ROOT

TEXTS = bundled_comments()[0][:400]


@pytest.fixture(autouse=True)
def _fresh_process_memory():
    """Each test starts as a new process would: nothing read in this one."""
    forget_readings()
    yield
    forget_readings()


def _same_reading(first: Reading, second: Reading) -> None:
    assert first.mentions == second.mentions
    assert first.plans == second.plans
    assert first.scores.keys() == second.scores.keys()
    for key, values in first.scores.items():
        np.testing.assert_array_equal(values, second.scores[key])


def _fresh(texts=TEXTS, **settings) -> TextDomain:
    return TextDomain(texts, "dixon2018", workers=1, **settings)


def test_a_stored_reading_is_the_reading_a_fresh_one_is(tmp_path):
    """Read and kept, then found in the file by a process that read nothing (its memory
    cleared), and found in this process's memory after: each time the same reading, the same
    samples."""
    path = tmp_path / "cache.sqlite"
    first = _fresh(store=ReadingStore(path), min_acceptability=0.3)
    assert (first.reading_source, first.reading_note) == ("", "")
    forget_readings()
    second = _fresh(store=ReadingStore(path), min_acceptability=0.3)
    assert second.reading_source == str(path)
    third = _fresh(store=ReadingStore(path), min_acceptability=0.3)
    assert third.reading_source == "this process"
    fresh = _fresh(min_acceptability=0.3)
    for domain in (second, third):
        _same_reading(domain.reading, fresh.reading)
        assert domain.recall() == fresh.recall()
        rule_set = (domain.single_rules("gender")[0],)
        picked = [v.text for v in domain.sample(rule_set, 50, np.random.default_rng(0))]
        assert picked == [v.text for v in fresh.sample(rule_set, 50, np.random.default_rng(0))]


def test_a_stored_reading_keeps_the_world_flags_of_name_swaps(tmp_path):
    """Issue 56 meets issue 58: a name swap of a real, named person is written and flagged
    WORLD; a reading found in the file must flag the same seeds, or a re-audit's findings
    would count no WORLD seeds where the first audit counted them."""
    path = tmp_path / "cache.sqlite"
    texts = bundled_comments()[0]
    first = TextDomain(texts, "names", workers=1, store=ReadingStore(path))
    flagged = [
        i for i, plans in enumerate(first.reading.plans) if any(p.world for p in plans.values())
    ]
    assert flagged, "no seed of the bundled comments is flagged WORLD with the names list"
    forget_readings()
    again = TextDomain(texts, "names", workers=1, store=ReadingStore(path))
    assert again.reading_source == str(path)
    assert again.reading.plans == first.reading.plans
    assert (
        again.worlds.counts(["name_gender"])
        == first.worlds.counts(["name_gender"])
        != {"name_gender": 0}
    )


def test_a_reading_is_never_shared_between_corpora_lists_or_reading_settings(tmp_path):
    """Every change to what shapes the reading reads the corpus again: one text changed, the
    texts in another order, a term list of the same name whose content differs, other
    categories, another acceptability threshold, private names."""
    path = tmp_path / "cache.sqlite"
    _fresh(store=ReadingStore(path))
    dixon = load_term_list("dixon2018")
    gender = dixon.categories["gender"]
    changed = dataclasses.replace(
        dixon,
        categories={
            **dixon.categories,
            "gender": (
                dataclasses.replace(gender[0], aliases=(*gender[0].aliases, "x")),
                *gender[1:],
            ),
        },
    )
    assert changed.name == dixon.name
    variations = {
        "one text": dict(texts=[*TEXTS[:-1], TEXTS[-1] + "!"]),
        "order": dict(texts=TEXTS[::-1]),
        "list content": dict(terms=changed),
        "categories": dict(categories=["gender"]),
        "threshold": dict(min_acceptability=0.7),
        "private names": dict(private_names=True),
    }
    for name, change in variations.items():
        forget_readings()  # found in the file or not at all
        texts = change.pop("texts", TEXTS)
        terms = change.pop("terms", "dixon2018")
        domain = TextDomain(texts, terms, workers=1, store=ReadingStore(path), **change)
        assert domain.reading_source == "", name
    # ... and the corpus as first read is still found.
    forget_readings()
    assert _fresh(store=ReadingStore(path)).reading_source == str(path)
    keys = {
        reading_key(TEXTS, dixon, ["gender"], 0.2, False),
        reading_key(TEXTS, changed, ["gender"], 0.2, False),
        reading_key(TEXTS, dixon, ["gender"], 0.2, True),
        reading_key(TEXTS[:-1], dixon, ["gender"], 0.2, False),
        # No two corpora give one stream of bytes: texts are length-prefixed.
        reading_key(["ab", "c"], dixon, ["gender"], 0.2, False),
        reading_key(["a", "bc"], dixon, ["gender"], 0.2, False),
    }
    assert len(keys) == 6


def test_a_reading_with_a_gate_disabled_is_another_reading(tmp_path):
    """The substitution benchmark reads the corpus without a gate (`_gates.disabled`): that
    reading is never found by an audit with every gate, nor the other way round."""
    path = tmp_path / "cache.sqlite"
    dixon = load_term_list("dixon2018")
    full = reading_key(TEXTS, dixon, ["gender"], 0.2, False)
    with gates.disabled("cue"):
        assert reading_key(TEXTS, dixon, ["gender"], 0.2, False) != full
    _fresh(store=ReadingStore(path))
    forget_readings()
    with gates.disabled("cue"):
        assert _fresh(store=ReadingStore(path)).reading_source == ""
    forget_readings()
    assert _fresh(store=ReadingStore(path)).reading_source == str(path)


def _body(path, key=None):
    db = sqlite3.connect(path)
    query = "SELECT key, body FROM readings" + (" WHERE key = ?" if key else "")
    rows = db.execute(query, (key,) if key else ()).fetchall()
    db.close()
    return rows


def test_a_damaged_or_foreign_reading_is_refused_in_one_line_and_read_again(tmp_path):
    """A stored row cut short, or another corpus's reading filed under this corpus's key: the
    audit says so in one line, reads the corpus (the same reading as a fresh one) and stores
    it anew, so the next run finds it."""
    path = tmp_path / "cache.sqlite"
    _fresh(store=ReadingStore(path))
    ((key, body),) = _body(path)
    other = tmp_path / "other.sqlite"
    _fresh(texts=TEXTS[:300], store=ReadingStore(other))
    ((_, foreign),) = _body(other)
    for damage, said in ((body[: len(body) // 2], "damaged"), (foreign, "another corpus")):
        db = sqlite3.connect(path)
        with db:
            db.execute("UPDATE readings SET body = ? WHERE key = ?", (damage, key))
        db.close()
        forget_readings()
        domain = _fresh(store=ReadingStore(path))
        assert domain.reading_source == ""
        assert said in domain.reading_note and "read again and stored anew" in domain.reading_note
        assert "\n" not in domain.reading_note
        _same_reading(domain.reading, _fresh().reading)
        forget_readings()
        assert _fresh(store=ReadingStore(path)).reading_source == str(path)


def _written_by_sampling(domain: TextDomain) -> list[tuple[int, tuple]]:
    """Some variants of every category written by `domain` (as an audit's rows write them);
    their keys."""
    rng = np.random.default_rng(0)
    for category in domain.categories():
        for rule in domain.single_rules(category)[:3]:
            if len(domain.seeds_for((rule,))):
                domain.sample((rule,), 40, rng)
    return list(domain.reading.written)


def test_the_variants_written_are_kept_beside_the_reading_and_taken_as_written(tmp_path):
    """Issue 58: a re-audit of another model takes the variants an earlier audit wrote from
    the file (no rewriter made for them), each the variant a fresh domain writes: the same
    text, acceptability and WORLD flag."""
    path = tmp_path / "cache.sqlite"
    first = _fresh(store=ReadingStore(path))
    keys = _written_by_sampling(first)
    assert len(keys) > 100
    assert first.keep_written() == ""
    assert first.keep_written() == ""  # nothing new: nothing written again
    forget_readings()
    second = _fresh(store=ReadingStore(path))
    assert second.reading_source == str(path) and second.reading_note == ""
    assert set(second.reading.written) == set(keys)
    fresh = _fresh()
    for index, rule_set in keys:
        kept, written = second.rewrite(index, rule_set), fresh.rewrite(index, rule_set)
        assert kept is not None and written is not None
        assert (kept.text, kept.acceptability, kept.world, kept.swaps) == (
            written.text,
            written.acceptability,
            written.world,
            written.swaps,
        )
        assert second.acceptability_of(kept.text) == written.acceptability
    assert second._rewriter.cache_info().misses == 0


def test_each_audit_adds_the_variants_it_wrote_as_a_part_joined_at_max_parts(tmp_path, monkeypatch):
    """A re-audit stores only the variants that were not there (one part each), and at
    MAX_PARTS the parts are joined into one; every later audit finds them all."""
    monkeypatch.setattr(reading_store, "MAX_PARTS", 3)
    path = tmp_path / "cache.sqlite"
    rng = np.random.default_rng(0)
    every: set = set()
    for round_ in range(4):
        forget_readings()
        domain = _fresh(store=ReadingStore(path))
        assert set(domain.reading.written) == every
        rule = domain.single_rules("gender")[round_]
        domain.sample((rule,), 30, rng)
        every |= set(domain.reading.written)
        assert domain.keep_written() == ""
        db = sqlite3.connect(path)
        parts = db.execute("SELECT part, variants FROM written ORDER BY part").fetchall()
        db.close()
        assert sum(count for _, count in parts) == len(every)
        assert len(parts) == (round_ + 1 if round_ < 3 else 1)


def test_damaged_stored_variants_are_refused_in_one_line_and_written_again(tmp_path):
    """A damaged row of variants is deleted with one line; the reading beside it is still
    taken, and the variants are written again (the same ones) and stored anew."""
    path = tmp_path / "cache.sqlite"
    first = _fresh(store=ReadingStore(path))
    keys = _written_by_sampling(first)
    first.keep_written()
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE written SET body = substr(body, 1, 40)")
    db.close()
    forget_readings()
    second = _fresh(store=ReadingStore(path))
    assert second.reading_source == str(path)
    assert "stored variants" in second.reading_note and "written again" in second.reading_note
    assert "\n" not in second.reading_note and not second.reading.written
    fresh = _fresh()
    for index, rule_set in keys[:50]:
        assert second.rewrite(index, rule_set).text == fresh.rewrite(index, rule_set).text
    assert second.keep_written() == ""
    forget_readings()
    assert len(_fresh(store=ReadingStore(path)).reading.written) == 50


def _templates(terms="dixon2018"):
    from textfair.text.template_domain import TemplateDomain
    from textfair.text.template_suites import suite, suite_kinds

    return TemplateDomain(suite("toxicity"), load_term_list(terms), None, suite_kinds("toxicity"))


def _every_template_text(domain) -> list[str]:
    return [
        variant.text
        for index in range(len(domain.seeds))
        for rule_set in ((rule,) for c in domain.categories() for rule in domain.single_rules(c))
        if (variant := domain.rewrite(index, rule_set)) is not None
    ]


def test_the_templates_texts_are_kept_and_taken_as_written(tmp_path, monkeypatch):
    """Issue 58: a template suite's texts written by one audit are taken by the next, in this
    process or from the cache file (nothing written again), each the text a fresh domain
    writes; another term list is another key; a damaged row is refused in one line and
    written again."""
    from textfair.text.template_domain import TemplateDomain

    path = tmp_path / "cache.sqlite"
    first = _templates()
    assert first.take_stored(ReadingStore(path)) == ""
    texts = _every_template_text(first)
    assert first.keep_stored(ReadingStore(path)) == ""
    in_process = _templates()  # a notebook's second audit: no file needed
    assert in_process.take_stored(ReadingStore()) == "" and len(in_process._written) == len(texts)
    forget_readings()  # as a new process
    second = _templates()
    assert second.take_stored(ReadingStore(path)) == ""

    def never(*args):
        raise AssertionError("written again")

    with monkeypatch.context() as patched:
        patched.setattr(TemplateDomain, "_write", never)
        assert _every_template_text(second) == texts
    other = _templates("holistic")
    assert other.take_stored(ReadingStore(path)) == "" and not other._written
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE template_texts SET body = substr(body, 1, 30)")
    db.close()
    forget_readings()
    third = _templates()
    note = third.take_stored(ReadingStore(path))
    assert "templates' stored texts" in note and "written again" in note and "\n" not in note
    assert _every_template_text(third) == texts


def test_a_users_file_is_never_taken_for_the_store(write):
    """A path holding a user's file is refused before any work, in one line, and left as it
    was."""
    from conftest import one_line_error

    users = write("notes.sqlite", "my notes\n")
    error = one_line_error(ReadingStore, users)
    assert "not a textfair cache" in str(error)
    assert users.read_text() == "my notes\n"


def test_the_store_is_bounded(tmp_path, monkeypatch):
    """At most MAX_READINGS rows (the least recently used go first), and in this process at
    most MEMORY_SEEDS seeds."""
    monkeypatch.setattr(reading_store, "MAX_READINGS", 2)
    path = tmp_path / "cache.sqlite"
    corpora = [TEXTS[:250], TEXTS[:260], TEXTS[:270]]
    _fresh(texts=corpora[0], store=ReadingStore(path))
    _fresh(texts=corpora[1], store=ReadingStore(path))
    forget_readings()
    time.sleep(0.01)
    assert _fresh(texts=corpora[0], store=ReadingStore(path)).reading_source == str(path)
    _fresh(texts=corpora[2], store=ReadingStore(path))  # the second, least used, goes
    db = sqlite3.connect(path)
    assert sorted(db.execute("SELECT seeds FROM readings").fetchall()) == [(250,), (270,)]
    db.close()
    # Variants are kept beside a reading the file holds, and go with it.
    for corpus in (corpora[2], corpora[0]):
        forget_readings()
        time.sleep(0.01)
        domain = _fresh(texts=corpus, store=ReadingStore(path))
        _written_by_sampling(domain)
        domain.keep_written()
    forget_readings()
    _fresh(texts=corpora[1], store=ReadingStore(path))  # 270's reading, least used, goes
    db = sqlite3.connect(path)
    assert db.execute("SELECT seeds FROM readings JOIN written USING (key)").fetchall() == [(250,)]
    assert db.execute("SELECT count(*) FROM written JOIN readings USING (key)").fetchone() == (1,)
    db.close()
    monkeypatch.setattr(reading_store, "MEMORY_SEEDS", 500)
    forget_readings()
    for corpus in corpora:
        _fresh(texts=corpus, store=ReadingStore())
    # Only the last fits in 500 seeds.
    assert _fresh(texts=corpora[2], store=ReadingStore()).reading_source == "this process"
    assert _fresh(texts=corpora[1], store=ReadingStore()).reading_source == ""


# A run that reads TEXTS[:N] into the store at sys.argv[1] (a fresh process: nothing read in
# it), writes some variants and keeps them beside it, again and again with N growing, so
# that a kill lands anywhere in a write; prints the source of each reading and the notes.
_WRITER = """
import sys
import numpy as np
from conftest import bundled_comments
from textfair.text.domain import TextDomain
from textfair.text.reading_store import ReadingStore, forget_readings
texts = bundled_comments()[0]
for n in range(int(sys.argv[2]), int(sys.argv[3])):
    forget_readings()
    domain = TextDomain(texts[:n], "dixon2018", workers=1, store=ReadingStore(sys.argv[1]))
    gender = (domain.single_rules("gender")[0],)
    domain.sample(gender, 30, np.random.default_rng(0))  # variants, kept beside it
    note = domain.keep_written()
    print(repr(domain.reading_source), domain.reading_note, note, flush=True)
"""


def _writer(path, first, last):
    environment = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}"}
    return subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path), str(first), str(last)],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow  # six runs started and killed: about 15 s
def test_a_killed_run_leaves_a_usable_reading_or_none(tmp_path):
    """Runs killed (SIGKILL) at spread moments while they read and store: the file stays a
    sound SQLite database, and each corpus's stored reading, where there is one, is the
    reading a fresh one is."""
    path = tmp_path / "cache.sqlite"
    for delay in (0.0, 0.07, 0.15, 0.22, 0.3, 0.45):
        run = _writer(path, 250, 400)
        assert run.stdout is not None
        run.stdout.readline()  # a first reading stored: the run is at its work
        time.sleep(delay)
        run.send_signal(signal.SIGKILL)
        run.wait()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    stored = db.execute("SELECT seeds FROM readings").fetchall()
    db.close()
    assert stored
    for (seeds,) in stored:
        forget_readings()
        domain = _fresh(texts=TEXTS[:seeds], store=ReadingStore(path))
        assert domain.reading_source == str(path), domain.reading_note
        fresh = _fresh(texts=TEXTS[:seeds])
        _same_reading(domain.reading, fresh.reading)
        for (index, rule_set), (text, _, _) in domain.reading.written.items():
            assert fresh.rewrite(index, rule_set).text == text


@pytest.mark.slow  # two processes reading 900 texts each, 8 s
def test_two_runs_at_once_are_safe(tmp_path):
    """Two runs reading and storing the same corpora into one new file at the same time both
    finish without a note, and what they left is found and is the fresh reading."""
    path = tmp_path / "cache.sqlite"
    runs = [_writer(path, 300, 303), _writer(path, 300, 303)]
    outputs = [run.communicate(timeout=300) for run in runs]
    for run, (out, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err
        lines = out.splitlines()
        assert len(lines) == 3 and all(line.rstrip() in ("''", repr(str(path))) for line in lines)
    for seeds in range(300, 303):
        forget_readings()
        domain = _fresh(texts=TEXTS[:seeds], store=ReadingStore(path))
        assert domain.reading_source == str(path)
        _same_reading(domain.reading, _fresh(texts=TEXTS[:seeds]).reading)


def test_the_audit_says_where_its_reading_came_from(tmp_path):
    """`textfair.audit(cache=...)`: the first audit reads the corpus, an audit of another
    model on it finds the reading in the file (in a process that read nothing) or in this
    process; the report says which, and its findings are those of a fresh reading."""
    import textfair

    path = tmp_path / "cache.sqlite"
    settings = dict(categories=["gender"], templates="none", causal=False, seed=0)
    first = textfair.audit("toxicity-cnn-lstm", TEXTS, cache=path, **settings)
    assert first.run.reading == "read" and first.run.model_queries > 0
    # The same model again: every answer from the file (a spec string identifies it).
    rerun = textfair.audit("toxicity-cnn-lstm", TEXTS, cache=path, **settings)
    assert rerun.run.model_queries == 0 and rerun.findings == first.findings
    forget_readings()
    other = textfair.audit("toxicity-tiny-transformer", TEXTS, cache=path, **settings)
    assert other.run.reading == f"reused from {path}"
    assert f"The corpus's reading was reused from {path}." in other._repr_markdown_()
    again = textfair.audit("toxicity-tiny-transformer", TEXTS, **settings)
    assert again.run.reading == "reused from this process"
    forget_readings()
    fresh = textfair.audit("toxicity-tiny-transformer", TEXTS, **settings)
    assert fresh.run.reading == "read"
    record = json.loads(json.dumps(fresh.to_dict()["findings"]))
    assert json.loads(json.dumps(other.to_dict()["findings"])) == record


@pytest.mark.parametrize(
    ("seed", "text"),
    [
        ("a gay man", "a straight man"),  # the change in the middle
        ("gay people", "straight people"),  # at the start
        ("I am gay", "I am straight"),  # at the end
        ("a gay man and a gay woman", "a straight man and a straight woman"),  # two apart
        ("aa", "aaa"),  # ends that could overlap: kept apart
        ("aaa", "aa"),
        ("gay", "gay"),  # unchanged
        ("", "x"),
        ("Muslims' 🙂 rights", "Jews' 🙂 rights"),
    ],
)
def test_a_stored_variant_is_its_seed_with_the_text_between_its_changes(seed, text):
    """Issue 58: a variant is stored as the seed's ends it keeps and the text between
    them (not its whole text), and read back as the very text written."""
    from textfair.core.rules import Rule
    from textfair.text._written import decode_written, encode_written

    terms = load_term_list("dixon2018")
    rule_set = (Rule("gender", "straight"),)
    blob = encode_written("k", [((1, rule_set), (text, 0.75, None))], ["other", seed])
    assert decode_written(blob, "k", ["other", seed], terms) == {(1, rule_set): (text, 0.75, None)}
    data = zlib.decompress(blob)
    (length,) = struct.unpack("<Q", data[5:13])
    (between,) = json.loads(data[13 : 13 + length])["betweens"]
    before, after = np.frombuffer(data[13 + length + 8 :], dtype="<i4")[2:4]
    assert before + after <= len(seed) and len(between) <= len(text)
    if seed != text and seed and text:
        assert between != text  # never the whole text when the seed keeps some of it


def test_stored_variants_whose_ends_do_not_fit_their_seed_are_refused():
    """Ends longer than the seed (a corpus changed under the same key, a damaged row) are
    refused, never read as another text."""
    from textfair.core.rules import Rule
    from textfair.text._written import decode_written, encode_written
    from textfair.text.reading import ReadingRefused

    terms = load_term_list("dixon2018")
    written = [((0, (Rule("gender", "straight"),)), ("a straight man", 0.7, None))]
    blob = encode_written("k", written, ["a gay man"])
    with pytest.raises(ReadingRefused, match="keeping more of its seed"):
        decode_written(blob, "k", ["a man"], terms)
