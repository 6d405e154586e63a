"""Draw the acceptability gold set: variants of every built-in list on three kinds of text,
split by document before anyone tunes on them, and cut into batches for blind readers.

Kinds of text (the units an audit is asked to run on):

* ``review`` — whole IMDB movie reviews (``examples/data/imdb_small.tsv``);
* ``comment`` — whole Wikipedia Talk comments of at most 150 words (``wiki_toxicity.csv``),
  the nearest we have to tweets and forum comments;
* ``sentence`` — single sentences of 5 to 40 words cut from both (``split_sentences``),
  each a seed of its own, as ``--unit sentence`` audits them.

For each list and kind, ``COUNTS`` variants are drawn with :func:`benchmarks.variant_sample.draw`
(one per seed text, its target drawn by ``target_for``), written by the code of the day with
no acceptability threshold. Every unit is put in ``tune`` or ``frozen`` by its source
document (a hash with ``SPLIT_SALT``, three in five frozen); documents read for issue 24's
tuning and for ``variant_gold.jsonl`` go to ``tune``, so nothing in ``frozen`` has been
looked at.

Run: ``python -m benchmarks.acceptability_gold --out tests/data/acceptability_gold.jsonl``
(``--batches DIR`` also writes the shuffled reading batches, without list, kind or split).
The readers' answers (``labels_batchNN.jsonl``, one line per item) are added to the file with
``python -m benchmarks.acceptability_gold --merge DIR --out tests/data/acceptability_gold.jsonl``:
each reading becomes one entry of the unit's ``labels``, with the batch as its ``reader``.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

from benchmarks.variant_sample import draw
from textfair.text.sentences import split_sentences

ROOT = Path(__file__).resolve().parents[1]
REVIEWS = ROOT / "examples" / "data" / "imdb_small.tsv"
COMMENTS = ROOT.parent / "shared" / "data" / "text" / "wiki_toxicity.csv"
SPLIT_SALT = "acceptability-2026-11-26"
#: Variants per (list, kind), at most (a kind may have fewer seeds that take part): the
#: default list carries the acceptance targets. Two variants of one whole document may be
#: drawn (of two categories), as issue 24's long-form set did.
COUNTS = {"dixon2018": 400, "holistic": 120, "names": 80, "pronouns": 80}
KINDS = ("review", "comment", "sentence")


def _reviews() -> list[str]:
    with open(REVIEWS, encoding="utf-8", newline="") as handle:
        return [row["review"] for row in csv.DictReader(handle, delimiter="\t")]


def _comments() -> list[str]:
    with open(COMMENTS, encoding="utf-8", newline="") as handle:
        return [row["comment"] for row in csv.DictReader(handle)]


def units() -> dict[str, tuple[list[str], list[tuple[str, int, int | None]]]]:
    """Per kind: the seed texts and, for each, (corpus, document index, sentence index)."""
    reviews, comments = _reviews(), _comments()
    short = [(i, c) for i, c in enumerate(comments) if 3 <= len(c.split()) <= 150]
    sentences: list[str] = []
    origin: list[tuple[str, int, int | None]] = []
    for corpus, docs in (("imdb_reviews", reviews), ("wiki_comments", comments)):
        for doc, text in enumerate(docs):
            for k, sentence in enumerate(split_sentences(text)):
                if 5 <= len(sentence.split()) <= 40:
                    sentences.append(sentence)
                    origin.append((corpus, doc, k))
    return {
        "review": (reviews, [("imdb_reviews", i, None) for i in range(len(reviews))]),
        "comment": ([c for _, c in short], [("wiki_comments", i, None) for i, _ in short]),
        "sentence": (sentences, origin),
    }


def _seen_documents() -> set[tuple[str, int]]:
    """Documents developers have read while tuning (issue 24's tune half, variant_gold)."""
    seen: set[tuple[str, int]] = set()
    data = ROOT / "tests" / "data"
    for line in (data / "variant_gold_longform.jsonl").open(encoding="utf-8"):
        record = json.loads(line)
        if record.get("split") == "tune":
            seen.add((record["source"], record["doc_id"]))
    for line in (data / "variant_gold.jsonl").open(encoding="utf-8"):
        record = json.loads(line)
        corpus = "wiki_comments" if record["source"] == "wiki" else "imdb_reviews"
        seen.add((corpus, record["doc_id"]))
    return seen


def split_of(corpus: str, doc: int, seen: set[tuple[str, int]]) -> str:
    """``tune`` or ``frozen``, by document: every unit of one document in the same half."""
    if (corpus, doc) in seen:
        return "tune"
    # Three in five unread documents are frozen: the read ones already weigh on `tune`.
    hashed = zlib.crc32(f"{SPLIT_SALT}\0{corpus}\0{doc}".encode()) % 5
    return "frozen" if hashed < 3 else "tune"


def build(seed: int = 20261126) -> list[dict]:
    """Every unit of the gold set, unlabelled, with its split."""
    seen = _seen_documents()
    records: list[dict] = []
    for kind, (texts, origin) in units().items():
        for terms, n in COUNTS.items():
            per_seed = 1 if kind == "sentence" else 2
            for record in draw(texts, terms, n, seed, kind, per_seed=per_seed):
                corpus, doc, sentence = origin[record.pop("doc_id")]
                record.update(
                    kind=kind,
                    source=corpus,
                    doc_id=doc,
                    sentence=sentence,
                    split=split_of(corpus, doc, seen),
                )
                records.append(record)
    for number, record in enumerate(records):
        record["id"] = f"a{number:04d}"
        record["labels"] = []
    return records


def batches(records: Sequence[dict], size: int, seed: int) -> list[list[dict]]:
    """The units shuffled across lists, kinds and halves, cut into reading batches; a reader
    sees only an item number, the text with its changes marked, and nothing else."""
    order = list(records)
    random.Random(seed).shuffle(order)
    return [
        [{"item": r["id"], "shown": r["shown"]} for r in order[i : i + size]]
        for i in range(0, len(order), size)
    ]


#: Why a variant is wrong (the issue-42 rubric; the first that applies, in this order).
CLASSES = ("UNGRAMMATICAL", "NOT_IDENTITY", "MERGED", "IN_TEXT", "WORLD")


def merge(records: list[dict], folder: Path) -> int:
    """Add every reading in ``folder/labels_*.jsonl`` to its unit (once per reader); the
    number of readings added."""
    by_id = {record["id"]: record for record in records}
    added = 0
    for path in sorted(folder.glob("labels_*.jsonl")):
        reader = path.stem.removeprefix("labels_")
        batch = json.loads((folder / f"{reader}.json").read_text(encoding="utf-8"))
        shown = {item["item"] for item in batch}
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            reading = json.loads(line)
            if reading["item"] not in shown:  # a reader's answer for an item it was not given
                raise ValueError(f"{path.name}: {reading['item']} is not in {reader}.json")
            record = by_id[reading["item"]]
            if any(label["reader"] == reader for label in record["labels"]):
                continue
            if not isinstance(reading["acceptable"], bool) or (
                reading["acceptable"] is False and reading.get("class") not in CLASSES
            ):
                raise ValueError(f"{path.name}: a reading out of the rubric: {line[:120]}")
            record["labels"].append(
                {
                    "acceptable": reading["acceptable"],
                    "class": None if reading["acceptable"] else reading["class"],
                    "reason": reading.get("reason", ""),
                    "reader": reader,
                }
            )
            added += 1
    return added


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--batches", type=Path, default=None)
    parser.add_argument("--batch-size", type=int, default=170)
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--merge", type=Path, default=None, help="folder of readers' labels")
    args = parser.parse_args(argv)
    if args.merge:
        lines = args.out.read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines]
        added = merge(records, args.merge)
        _write(args.out, records)
        print(f"{added} readings added", file=sys.stderr)
        return
    records = build(args.seed)
    _write(args.out, records)
    if args.batches:
        args.batches.mkdir(parents=True, exist_ok=True)
        for number, batch in enumerate(batches(records, args.batch_size, args.seed)):
            with open(args.batches / f"batch{number:02d}.json", "w", encoding="utf-8") as handle:
                json.dump(batch, handle, ensure_ascii=False, indent=1)


def _write(path: Path, records: Sequence[dict]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
