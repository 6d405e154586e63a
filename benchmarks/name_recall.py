"""Recall of first-name swaps: of the seeds that name a private person by a listed first
name, how many take part in the `names_ethnicity` rows, and why the others are left out.

The gold set (``tests/data/name_referent_gold.jsonl``) marks every capitalised listed first
name in the bundled comments that hold one (169) and in 120 bundled reviews drawn with seed
44, each mark labelled by two readers with a fresh context (private, public, fictional,
not_a_person, unsure: who the name refers to, not whether a swap reads well); the seeds were
split into a tune and a frozen half by a hash of their id before any rule was written. A
seed names a private person where both readers labelled one of its marks ``private``.

By default the tune half is measured; ``--frozen`` measures the frozen half, which is to be
read once, after the rules are settled.
Run: ``python -m benchmarks.name_recall --json [--frozen]``.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
from pathlib import Path

from benchmarks.gpu import bundled_comments
from textfair.text.domain import TextDomain

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "data" / "name_referent_gold.jsonl"
REVIEWS = ROOT / "examples" / "data" / "imdb_small.tsv"
TERMS = "names_ethnicity"


def corpora() -> dict[str, list[str]]:
    """The bundled comments and reviews, as the gold set's indices read them."""
    with open(REVIEWS, encoding="utf-8", newline="") as handle:
        reviews = [row["review"] for row in csv.DictReader(handle, delimiter="\t")]
    return {"comments": bundled_comments(None)[0], "reviews": reviews}


def gold(half: str) -> list[dict]:
    """The gold set's seeds of `half`."""
    with open(GOLD, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    return [r for r in records if r["half"] == half]


def private(record: dict) -> bool:
    """Both readers say one of the seed's marks is a private person's first name."""
    return any(mark["labels"] == ["private", "private"] for mark in record["marks"])


def recall(half: str, private_names: bool = False) -> dict:
    """Per corpus: the seeds labelled, those naming a private person, how many of these take
    part, and the reasons the others are left out (per category: a seed naming a man and a
    woman counts in both)."""
    texts = corpora()
    measured = {}
    for corpus, rows in texts.items():
        records = [r for r in gold(half) if r["corpus"] == corpus]
        chosen = [r["index"] for r in records if private(r)]
        domain = TextDomain(rows, TERMS, private_names=private_names)
        reasons: collections.Counter[str] = collections.Counter()
        taking_part = 0
        for index in chosen:
            masks = [domain.category_mask(c)[index] for c in domain.categories()]
            if any(masks):
                taking_part += 1
                continue
            mentions = domain.mentions(index)
            if not any(m.term.names for m in mentions):
                reasons["no mention"] += 1
                continue
            others = domain.matcher.other_uses(rows[index], domain.categories())
            plans = domain.coherence.plan(
                rows[index], mentions, others, private_names=private_names
            )
            for plan in plans.values():
                reasons[plan.left_out or "low_acceptability"] += 1
        measured[corpus] = {
            "seeds_labelled": len(records),
            "seeds_naming_a_private_person": len(chosen),
            "taking_part": taking_part,
            "recall": round(taking_part / len(chosen), 3) if chosen else None,
            "left_out": dict(sorted(reasons.items())),
        }
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--frozen", action="store_true", help="the frozen half (read once)")
    args = parser.parse_args()
    half = "frozen" if args.frozen else "tune"
    result = {
        "benchmark": "name_recall",
        "half": half,
        "terms": TERMS,
        "default": recall(half),
        "private_names": recall(half, private_names=True),
    }
    print(json.dumps(result, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
