"""Of the variants readers judged in the blind reads kept in this repository, how many the
current rules still write at the default ``--min-acceptability``.

Issue 56 asks that of the variants judged wrong in the last blind reads at most 8% are still
written, and that of the seeds judged fine at least 65% still get variants. This counts both,
read by read, for the reads whose items and verdicts are in the repository:

* ``acceptability_gold_tune``: the acceptability gold set's tune half
  (``tests/data/acceptability_gold.jsonl``, ``split == "tune"``; one or two readers per
  unit). Its frozen half is never read here: it is read once, at the end of a piece of
  work, by its own benchmark.
* ``issue56_heldout``: issue 56's fresh held-out read (``benchmarks/reads/issue56_heldout``,
  two readers).

Issue 55's reads of template sentences (``benchmarks/reads/issue55_templates*``: 120 items,
none judged wrong) are not counted: their variants come from the template suites
(`textfair.text.template_domain`), not from the reading of real texts that these rules
decide.

A unit is *wrong* when a reader found it wrong for a reason other than WORLD (issue 56:
WORLD is counted valid), *fine* otherwise. Per read: ``wrong_still_written`` (the same
variant, word for word), ``fine_still_written``, and ``fine_seed_takes_part`` (the seed still
gets a variant of the category, to any target). The issue's "164 wrong, 423 fine" were
counted over reads not all kept here; what is here is what is counted.

Run: ``python -m benchmarks.still_written --json``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READS = ROOT / "benchmarks" / "reads"
GOLD = ROOT / "tests" / "data" / "acceptability_gold.jsonl"


def _jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _verdict(labels: list[dict]) -> str | None:
    """``"wrong"`` when a reader judged the unit wrong for a reason other than WORLD,
    ``"fine"`` when every reader accepted it or called it WORLD; None when none read it."""
    labels = [r for r in labels if r.get("acceptable") is not None]
    if not labels:
        return None
    wrong = any(not r["acceptable"] and r.get("class") != "WORLD" for r in labels)
    return "wrong" if wrong else "fine"


def _read_with_readers(folder: Path, items: list[dict]) -> list[tuple[dict, str]]:
    readers = [_jsonl(path) for path in sorted(folder.glob("reader_*.jsonl"))]
    labels: dict[str, list[dict]] = {}
    for reader in readers:
        for row in reader:
            labels.setdefault(row["item"], []).append(row)
    return [(item, v) for item in items if (v := _verdict(labels.get(item["item"], [])))]


def units(heldout: bool = True) -> Iterator[tuple[str, dict, str]]:
    """(read, unit, verdict) for every judged unit of the reads counted here (the gold set's
    tune half alone without `heldout`: issue 56's held-out read is not opened)."""
    for record in _jsonl(GOLD):
        if record.get("split") != "tune":
            continue  # the frozen half is not read here
        verdict = _verdict(record.get("labels") or [])
        if verdict:
            yield "acceptability_gold_tune", record, verdict
    if not heldout:
        return
    folder = READS / "issue56_heldout"
    with open(folder / "items.json", encoding="utf-8") as handle:
        items = json.load(handle)
    for item, verdict in _read_with_readers(folder, items):
        yield "issue56_heldout", item, verdict


def _status(unit: dict, min_acceptability: float) -> tuple[bool, bool]:
    """(the unit's variant is still written word for word, its seed still takes part)."""
    from textfair.core.rules import Rule
    from textfair.text.domain import TextDomain

    category, terms = unit["category"], unit.get("terms") or "dixon2018"
    domain = TextDomain([unit["text"]], terms, [category], min_acceptability, workers=1)
    targets = domain.targets_for(0, category)
    written = False
    if unit["target"] in targets:
        variant = domain.rewrite(0, (Rule(category, unit["target"]),))
        written = variant is not None and variant.text == unit["variant"]
    return written, bool(targets)


def still_written(min_acceptability: float | None = None, heldout: bool = True) -> dict:
    """Per read and in all: judged wrong and fine, and of them still written at
    `min_acceptability` (default: the shipped default); the tune half alone without
    `heldout`."""
    from textfair.settings import DEFAULT_MIN_ACCEPTABILITY

    threshold = DEFAULT_MIN_ACCEPTABILITY if min_acceptability is None else min_acceptability
    table: dict[str, dict[str, int]] = {}
    for read, unit, verdict in units(heldout):
        written, takes_part = _status(unit, threshold)
        row = table.setdefault(
            read,
            {
                "wrong": 0,
                "wrong_still_written": 0,
                "fine": 0,
                "fine_still_written": 0,
                "fine_seed_takes_part": 0,
            },
        )
        row[verdict] += 1
        row[f"{verdict}_still_written"] += written
        if verdict == "fine":
            row["fine_seed_takes_part"] += takes_part
    total = {key: sum(row[key] for row in table.values()) for key in next(iter(table.values()))}
    for row in (*table.values(), total):
        row["share_wrong_still_written"] = round(
            row["wrong_still_written"] / max(row["wrong"], 1), 4
        )
        row["share_fine_seed_takes_part"] = round(
            row["fine_seed_takes_part"] / max(row["fine"], 1), 4
        )
    return {
        "min_acceptability": threshold,
        "reads": table,
        "all": total,
        "not_here": (
            "issue 56's first blind read (175 items, two readers) is not kept in the"
            " repository, nor its 20 items of an earlier read: not counted; issue 55's"
            " template reads are of template variants: not counted"
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-acceptability", type=float, default=None)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--tune-only",
        action="store_true",
        help="the gold set's tune half alone (issue 56's held-out read not opened)",
    )
    args = parser.parse_args()
    result = {
        "benchmark": "still_written",
        **still_written(args.min_acceptability, heldout=not args.tune_only),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>20}: {value}")


if __name__ == "__main__":
    main()
