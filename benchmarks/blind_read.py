"""A blind read of swaps on corpora the project has not used (issue 44's name and country
swaps): draw the variants, then count the readers' verdicts.

``draw`` writes, for each list, ``--n`` variants drawn from the corpora given (one per seed
text, no text twice across lists, texts of earlier reads' ``--exclude`` item files left
out), shuffled together and cut into reading batches of 20 (``batchNN.json``: an item
number and the text with its changes marked, nothing else), ``items.json`` (each item's
corpus, list, text and variant, which readers are not shown) and the rubric readers follow
(``RUBRIC.md``, :file:`benchmarks/blind_read_rubric.md`). Each batch goes to two readers
with a fresh context, who write one JSON line per item.

``tally`` counts, per list, the items read, those wrong to both readers and to either, and
the classes given, as one JSON object.

Run: ``python -m benchmarks.blind_read draw --data A.tsv B.tsv --terms names_ethnicity
nationality --n 20 20 --seed 54 --exclude old/items.json --out DIR``, then ``python -m
benchmarks.blind_read tally --items DIR/items.json --labels DIR/labels_*.jsonl``.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import shutil
from collections.abc import Sequence
from pathlib import Path

from benchmarks.acceptability_gold import CLASSES
from benchmarks.variant_sample import draw as draw_variants
from benchmarks.variant_sample import load_texts

RUBRIC = Path(__file__).with_name("blind_read_rubric.md")
BATCH = 20


def draw(
    corpora: Sequence[Path],
    lists: Sequence[str],
    counts: Sequence[int],
    seed: int,
    exclude: Sequence[Path] = (),
) -> list[dict]:
    """The items of one read: per list, `counts` variants of texts not read before, drawn
    with `seed` from every corpus's candidates (each corpus's seed texts that take part)."""
    read = {item["text"] for path in exclude for item in json.loads(path.read_text("utf-8"))}
    texts_of = {path: load_texts(path, "text") for path in corpora}
    rng = random.Random(seed)
    used: set[str] = set()
    chosen = []
    for terms, count in zip(lists, counts, strict=True):
        pool = []
        for path, texts in texts_of.items():
            # Every candidate of the corpus: a count no corpus reaches.
            for record in draw_variants(texts, terms, len(texts), seed, path.stem):
                if record["text"] not in read:
                    pool.append(record)
        rng.shuffle(pool)
        taken = 0
        for record in pool:
            if taken == count:
                break
            if record["text"] in used:
                continue
            used.add(record["text"])
            chosen.append(record)
            taken += 1
    rng.shuffle(chosen)
    return [{"item": f"r{seed}-{k:03d}", **record} for k, record in enumerate(chosen)]


def write(items: Sequence[dict], out: Path) -> None:
    """The items file, the reading batches and the rubric, in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "items.json").write_text(json.dumps(list(items), ensure_ascii=False), "utf-8")
    for number, start in enumerate(range(0, len(items), BATCH)):
        batch = [{"item": i["item"], "shown": i["shown"]} for i in items[start : start + BATCH]]
        path = out / f"batch{number:02d}.json"
        path.write_text(json.dumps(batch, ensure_ascii=False, indent=1), "utf-8")
    shutil.copyfile(RUBRIC, out / "RUBRIC.md")


def tally(items: Sequence[dict], labels: Sequence[Path]) -> dict:
    """Per list (the `terms` of each item): items read, wrong to both readers, wrong to
    either, and the classes given; an item read by fewer than two readers is counted apart."""
    readings: dict[str, list[dict]] = collections.defaultdict(list)
    known = {item["item"] for item in items}
    for path in labels:
        for line in path.read_text("utf-8").splitlines():
            if not line.strip():
                continue
            reading = json.loads(line)
            if reading["item"] not in known:
                raise ValueError(f"{path}: {reading['item']} is not an item of this read")
            if reading["acceptable"] is False and reading.get("class") not in CLASSES:
                raise ValueError(f"{path}: a reading out of the rubric: {line[:120]}")
            readings[reading["item"]].append(reading)
    result: dict[str, dict] = {}
    for item in items:
        counts = result.setdefault(
            item["terms"],
            {
                "items": 0,
                "wrong_to_both": 0,
                "wrong_to_either": 0,
                "read_once": 0,
                "classes": collections.Counter(),
            },
        )
        read = readings.get(item["item"], [])
        if len(read) < 2:
            counts["read_once"] += 1
            continue
        wrong = [r for r in read if not r["acceptable"]]
        counts["items"] += 1
        counts["wrong_to_both"] += len(wrong) == len(read)
        counts["wrong_to_either"] += bool(wrong)
        counts["classes"].update(r["class"] for r in wrong)
    for counts in result.values():
        counts["classes"] = dict(counts["classes"].most_common())
    total = {
        key: sum(c[key] for c in result.values())
        for key in ("items", "wrong_to_both", "wrong_to_either", "read_once")
    }
    return {"benchmark": "blind_read", "lists": result, "all": total}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    drawing = commands.add_parser("draw", help="draw the variants and the reading batches")
    drawing.add_argument("--data", type=Path, nargs="+", required=True, help="TSV, column text")
    drawing.add_argument("--terms", nargs="+", required=True)
    drawing.add_argument("--n", type=int, nargs="+", required=True, help="variants per list")
    drawing.add_argument("--seed", type=int, required=True)
    drawing.add_argument("--exclude", type=Path, nargs="*", default=[], help="items read before")
    drawing.add_argument("--out", type=Path, required=True)
    counting = commands.add_parser("tally", help="count the readers' verdicts")
    counting.add_argument("--items", type=Path, required=True)
    counting.add_argument("--labels", type=Path, nargs="+", required=True)
    args = parser.parse_args(argv)
    if args.command == "draw":
        if len(args.n) != len(args.terms):
            parser.error(f"--n takes one count per list: {len(args.terms)} lists, {len(args.n)}")
        items = draw(args.data, args.terms, args.n, args.seed, args.exclude)
        write(items, args.out)
        print(json.dumps({"items": len(items), "out": str(args.out)}))
        return
    items = json.loads(args.items.read_text("utf-8"))
    print(json.dumps(tally(items, args.labels)))


if __name__ == "__main__":
    main()
