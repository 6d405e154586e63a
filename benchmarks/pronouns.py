"""How well and how fast textfair swaps gendered words (the `pronouns` audit category).

On ``tests/data/pronoun_gold.jsonl`` (140 real sentences from the IMDB and Wikipedia samples
and 12 written for the her -> him/his ambiguity, each with its swap written by hand) it prints
the exact-match accuracy, the sentences missed, and sentences per second of the rewrite.
Run: ``python -m benchmarks.pronouns --json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from textfair.text._evaluation import score_swaps
from textfair.text.matcher import Matcher

GOLD = Path(__file__).resolve().parents[1] / "tests" / "data" / "pronoun_gold.jsonl"


def run(repeats: int = 20) -> dict:
    records = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines()]
    matcher = Matcher("pronouns")
    scores = score_swaps(records, matcher)
    started = time.perf_counter()
    for _ in range(repeats):
        score_swaps(records, matcher)
    seconds = (time.perf_counter() - started) / repeats
    constructed = sum(r["source"].startswith("constructed") for r in records)
    return {
        "benchmark": "pronouns",
        "gold_sentences": scores.sentences,
        "real_sentences": scores.sentences - constructed,
        "constructed_sentences": constructed,
        "correct": scores.correct,
        "accuracy": round(scores.accuracy, 4),
        "misses": [{"text": t, "expected": e, "written": w} for t, e, w in scores.misses],
        "sentences_per_second": round(scores.sentences / seconds),
        "python": platform.python_version(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = run()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    print(
        f"pronoun swaps: {result['correct']}/{result['gold_sentences']} exact "
        f"({result['accuracy']:.1%}), {result['sentences_per_second']} sentences/s"
    )
    for miss in result["misses"]:
        print(f"  {miss['text']}\n    expected {miss['expected']}\n    written  {miss['written']}")


if __name__ == "__main__":
    main()
