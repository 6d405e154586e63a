"""How fast textfair generates counterfactual texts, and how well they read.

Generates every counterfactual of every comment of the Wikipedia toxicity sample with the
dixon2018 list, one category at a time (what a causal audit asks for), on one core, and
prints texts and mentions per second. On the hand-labelled gold sets in ``tests/data``
(419 real sentences, 200 audit variants) it prints mention precision and recall and the
share of labelled variants, still written word for word, that read well.
Run: ``python -m benchmarks.substitution --json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import time
from pathlib import Path

from textfair.text.evaluation import score_mentions, score_variants
from textfair.text.generate import DEFAULT_MAX_VARIANTS, counterfactuals
from textfair.text.matcher import Matcher

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "text" / "wiki_toxicity.csv"
)


GOLD = Path(__file__).resolve().parents[1] / "tests" / "data"
GOLD_MENTIONS = ("mention_gold.jsonl", "mention_gold_heldout.jsonl", "mention_gold_2026.jsonl")


def _records(name: str) -> list[dict]:
    with open(GOLD / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def gold_scores(matcher: Matcher) -> dict[str, float | int]:
    """Mention precision/recall and variant acceptability on the labelled gold sets."""
    mentions = score_mentions([r for n in GOLD_MENTIONS for r in _records(n)], matcher)
    variants = score_variants(_records("variant_gold.jsonl"))
    return {
        "gold_sentences": mentions.sentences,
        "gold_candidates": mentions.candidates,
        "mention_precision": round(mentions.precision, 4),
        "mention_recall": round(mentions.recall, 4),
        "gold_variants": variants.labelled,
        "variants_still_generated": variants.still_generated,
        "variants_no_longer_generated": variants.no_longer_generated,
        "variants_generated_differently": variants.generated_differently,
        "variant_acceptability": round(variants.acceptability, 4),
    }


def load_comments(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        return [row["comment"] for row in csv.DictReader(handle)]


def measure(comments: list[str], matcher: Matcher, max_variants: int) -> dict[str, float]:
    categories = list(matcher.term_list.categories)
    generated = 0
    scan_start = time.perf_counter()
    for text in comments:
        matcher.find(text)
    scan_seconds = time.perf_counter() - scan_start
    mentions = sum(len(matcher.find(text)) for text in comments)
    start = time.perf_counter()
    for text in comments:
        for category in categories:
            generated += len(
                counterfactuals(
                    text, [category], matcher=matcher, max_variants=max_variants, with_edits=False
                )
            )
    seconds = time.perf_counter() - start
    return {
        "comments": len(comments),
        "generated_texts": generated,
        "mentions": mentions,
        "seconds": round(seconds, 3),
        "texts_per_second": round(generated / seconds),
        "mentions_per_second": round(mentions / seconds),
        "comments_scanned_per_second": round(len(comments) / scan_seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--max-variants", type=int, default=DEFAULT_MAX_VARIANTS)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    comments = load_comments(args.data)
    matcher = Matcher("dixon2018")
    counterfactuals("A warm-up: a gay man and an old woman.", matcher=matcher)
    result = {
        "benchmark": "substitution",
        "term_list": "dixon2018",
        "data": args.data.name,
        "max_variants_per_text": args.max_variants,
        **measure(comments, matcher, args.max_variants),
        **gold_scores(matcher),
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
