"""The default ``--min-acceptability`` weighed: per threshold, precision on the blind reads
and recall on the bundled comments.

For each threshold 0.40, 0.45, ..., 0.90: on the acceptability gold set's tune half
(`benchmarks.still_written`, issue 56's held-out read not opened), the variants judged wrong
for a reason other than WORLD that are still written word for word, and the seeds judged
fine that still take part; and on the bundled Wikipedia comments, whole documents, the share
of the comments naming religion, race and gender that take part in the category's rows, and
the HolisticBias categories that comments name (at least `HOLISTIC_NAMED` of them) but in
which no seed takes part: a threshold that buys precision by leaving whole groups untested
is no gain by itself.

Issue 56's targets: at most 8% of the wrong still written, at least 65% of the fine seeds
taking part; recall floors religion 0.35, race 0.35, gender 0.70. The tune half is the data
the acceptability score was fitted on, so its precision figures are **in-sample** for the
score (they flatter it); recall on the comments is not.

Run: ``python -m benchmarks.thresholds --json`` (about 10 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor

from benchmarks.still_written import still_written
from benchmarks.substitution import DEFAULT_DATA, load_comments

THRESHOLDS = (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)
HOLISTIC_NAMED = 6
CATEGORIES = ("religion", "race", "gender")
FLOORS = {"religion": 0.35, "race": 0.35, "gender": 0.70}
WRONG_AT_MOST, FINE_AT_LEAST = 0.08, 0.65


def row(threshold: float) -> dict:
    """The figures at one threshold."""
    from textfair.text.domain import TextDomain

    tune = still_written(threshold, heldout=False)["all"]
    domain = TextDomain(load_comments(DEFAULT_DATA), "dixon2018", list(CATEGORIES), threshold)
    recall = domain.recall()
    holistic = TextDomain(load_comments(DEFAULT_DATA), "holistic", None, threshold)
    untested = sorted(
        c
        for c, share in holistic.recall().items()
        if holistic.mentioning[c] >= HOLISTIC_NAMED and share == 0
    )
    figures = {
        "min_acceptability": threshold,
        "wrong": tune["wrong"],
        "wrong_still_written": tune["wrong_still_written"],
        "share_wrong_still_written": tune["share_wrong_still_written"],
        "fine": tune["fine"],
        "fine_seed_takes_part": tune["fine_seed_takes_part"],
        "share_fine_seed_takes_part": tune["share_fine_seed_takes_part"],
        "comments_recall": {c: round(recall[c], 4) for c in CATEGORIES},
        "comments_mentioning": {c: int(domain.mentioning[c]) for c in CATEGORIES},
        "holistic_categories_untested": untested,
    }
    figures["precision_target_met"] = (
        tune["share_wrong_still_written"] <= WRONG_AT_MOST
        and tune["share_fine_seed_takes_part"] >= FINE_AT_LEAST
    )
    figures["recall_floors_hold"] = all(recall[c] >= FLOORS[c] for c in CATEGORIES)
    return figures


def table(workers: int = 2) -> list[dict]:
    """`row` for every threshold of `THRESHOLDS`."""
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(row, THRESHOLDS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rows = table(args.workers)
    if args.json:
        print(json.dumps({"benchmark": "thresholds", "in_sample": True, "rows": rows}))
        return
    print(
        "| threshold | wrong still written | fine seeds taking part | religion | race | gender"
        " | HolisticBias categories untested |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        recall = r["comments_recall"]
        print(
            f"| {r['min_acceptability']:.2f} | {r['wrong_still_written']} of {r['wrong']}"
            f" ({r['share_wrong_still_written']:.1%}) | {r['fine_seed_takes_part']} of"
            f" {r['fine']} ({r['share_fine_seed_takes_part']:.1%}) | {recall['religion']:.3f}"
            f" | {recall['race']:.3f} | {recall['gender']:.3f}"
            f" | {', '.join(r['holistic_categories_untested']) or 'none'} |"
        )


if __name__ == "__main__":
    main()
