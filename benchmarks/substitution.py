"""How fast textfair generates counterfactual texts, how well they read, and how many
seeds take part.

Generates every counterfactual of every comment of the Wikipedia toxicity sample with the
dixon2018 list, one category at a time (what a causal audit asks for), on one core, and
prints texts and mentions per second. On the hand-labelled gold sets in ``tests/data``
(419 real sentences, 200 audit variants) it prints mention precision and recall and the
share of labelled variants, still written word for word, that read well. On the long-form
gold set (variants of whole movie reviews and Wikipedia comments, split into a tuning half
and a frozen half before any rule was tuned) it prints, per half, the share of units still
taking part, the acceptability of their variants and the wrong ones by class of the rubric.
Recall: per corpus and category, the share of the seeds naming the category that take part
in its rows, with the seeds left out by reason, for whole documents and for sentences
(``--unit sentence``).
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

from textfair.text._evaluation import (
    score_longform,
    score_longform_sentences,
    score_mentions,
    score_variants,
)
from textfair.text.domain import TextDomain
from textfair.text.generate import DEFAULT_MAX_VARIANTS, counterfactuals
from textfair.text.matcher import Matcher
from textfair.text.sentences import split_sentences

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "text" / "wiki_toxicity.csv"
)


GOLD = Path(__file__).resolve().parents[1] / "tests" / "data"
REVIEWS = Path(__file__).resolve().parents[1] / "examples" / "data" / "imdb_small.tsv"
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


def longform_scores() -> dict[str, dict]:
    """The long-form gold set, per half: recall of its units, acceptability, wrong by class;
    audited by document, and (``sentence``) sentence by sentence."""
    records = _records("variant_gold_longform.jsonl")
    readings = _records("variant_gold_longform_sentences.jsonl")
    result = {}
    for split, unit in (
        ("tune", "document"),
        ("frozen", "document"),
        ("tune", "sentence"),
        ("frozen", "sentence"),
    ):
        if unit == "document":
            scores = score_longform(records, split)
        else:
            scores = score_longform_sentences(records, readings, split)
        result[split if unit == "document" else f"{split}/sentence"] = {
            "units": scores.units,
            "taking_part": scores.taking_part,
            "recall": round(scores.recall, 4),
            "labelled": scores.labelled,
            "unlabelled": len(scores.unlabelled),
            "acceptable": scores.acceptable,
            "acceptability": round(scores.acceptability, 4),
            "wrong_by_class": scores.wrong,
        }
    return result


def recall(corpora: dict[str, list[str]]) -> dict[str, dict]:
    """Per corpus, unit (document, sentence) and category: seeds naming the category, the
    share taking part in its rows, and those left out by reason."""
    result: dict[str, dict] = {}
    for name, texts in corpora.items():
        for unit, seeds in (
            ("document", texts),
            ("sentence", [s for text in texts for s in split_sentences(text)]),
        ):
            domain = TextDomain(seeds, "dixon2018")
            result[f"{name}/{unit}"] = {
                category: {
                    "mentioning": domain.mentioning[category],
                    "taking_part": round(share, 4),
                    "left_out": {k: v for k, v in domain.left_out[category].items() if v},
                }
                for category, share in domain.recall().items()
            }
    return result


def acceptability_figures() -> dict:
    """The shipped acceptability model's calibration, as its refit measured it on the gold
    set's tune half (cross-validated by document: ECE, the reliability diagram's bins, and
    acceptability and recall per kind at each threshold), with the default threshold."""
    from textfair.settings import DEFAULT_MIN_ACCEPTABILITY
    from textfair.text._acceptability_model import load_model

    model = load_model()
    return {
        "default_min_acceptability": DEFAULT_MIN_ACCEPTABILITY,
        "trained_on": model.meta.get("trained_on"),
        "fitted": model.meta.get("fitted"),
        **model.meta.get("cross_validation", {}),
    }


def load_reviews(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        return [row["review"] for row in csv.DictReader(handle, delimiter="\t")]


def _verdict(record: dict) -> str | None:
    """A gold unit's verdict under the strict rubric with WORLD counted valid (issue 56):
    ``"wrong"`` when a reader judged it wrong for another class, ``"fine"`` when every
    reader accepted it or called it WORLD; None when nobody read it."""
    labels = [r for r in record.get("labels") or () if r.get("acceptable") is not None]
    if not labels:
        return None
    wrong = any(not r["acceptable"] and r.get("class") != "WORLD" for r in labels)
    return "wrong" if wrong else "fine"


def _left_out_reason(record: dict) -> str:
    """The reason the reading leaves a gold unit's seed out of its category's rows (or
    ``"target"``: it takes part, but may no longer become the unit's target)."""
    from textfair.text.domain import TextDomain

    category = record["category"]
    domain = TextDomain(
        [record["text"]], record.get("terms") or "dixon2018", [category], 0.0, workers=1
    )
    return next((k for k, n in domain.left_out[category].items() if n), "target")


def gate_table(split: str = "tune") -> dict:
    """Per gate of the reading (`textfair.text._gates.PIPELINE`), on the acceptability gold
    set's `split` half: the labelled variants the gate alone stops (written when it alone is
    disabled), wrong and fine (WORLD counted fine), per term list (``by_list``) and per
    left-out reason (``by_reason``), and what the whole pipeline still writes at the default
    threshold. A gate that stops more fine variants than wrong ones costs more than it buys.
    The variants written flagged WORLD (`Variant.world`) are counted apart
    (``written_at_default.world``)."""
    from textfair.settings import DEFAULT_MIN_ACCEPTABILITY
    from textfair.text._evaluation import rewrite_status
    from textfair.text._gates import GATE_NAMES, disabled

    records = [
        (r, v)
        for r in _records("acceptability_gold.jsonl")
        if r.get("split") == split and (v := _verdict(r)) is not None
    ]

    def written(min_acceptability: float = 0.0) -> list[bool]:
        return [rewrite_status(r, None, min_acceptability) == "same" for r, _ in records]

    rules = written()
    by_gate = {}
    for name in GATE_NAMES:
        if name == "low_acceptability":
            # The score's gate: what the default threshold stops of what the rules write.
            without, with_ = rules, written(DEFAULT_MIN_ACCEPTABILITY)
        else:
            with disabled(name):
                without = written()
            with_ = rules
        stopped = [
            (r, v) for (r, v), a, b in zip(records, without, with_, strict=True) if a and not b
        ]
        by_list: dict[str, dict[str, int]] = {}
        by_reason: dict[str, dict[str, int]] = {}
        for record, verdict in stopped:
            reason = (
                "low_acceptability" if name == "low_acceptability" else _left_out_reason(record)
            )
            for table, key in ((by_list, record.get("terms") or "dixon2018"), (by_reason, reason)):
                cell = table.setdefault(key, {"stops_wrong": 0, "stops_fine": 0})
                cell["stops_wrong" if verdict == "wrong" else "stops_fine"] += 1
        by_gate[name] = {
            "stops_wrong": sum(v == "wrong" for _, v in stopped),
            "stops_fine": sum(v == "fine" for _, v in stopped),
            "by_list": dict(sorted(by_list.items())),
            "by_reason": dict(sorted(by_reason.items())),
        }
    final = written(DEFAULT_MIN_ACCEPTABILITY)
    kept = [(r, v) for (r, v), w in zip(records, final, strict=True) if w]
    flagged = [v for r, v in kept if _world_flag(r, DEFAULT_MIN_ACCEPTABILITY)]
    return {
        "split": split,
        "units_read": len(records),
        "wrong": sum(v == "wrong" for _, v in records),
        "gates": by_gate,
        "written_at_default": {
            "wrong": sum(v == "wrong" for _, v in kept),
            "fine": sum(v == "fine" for _, v in kept),
            "world": {"wrong": flagged.count("wrong"), "fine": flagged.count("fine")},
        },
    }


def _world_flag(record: dict, min_acceptability: float) -> str | None:
    """The WORLD flag of the variant the reading writes for a gold unit (None: none)."""
    from textfair.core.rules import Rule
    from textfair.text.domain import TextDomain

    category = record["category"]
    domain = TextDomain(
        [record["text"]],
        record.get("terms") or "dixon2018",
        [category],
        min_acceptability,
        workers=1,
    )
    return domain.world(0, (Rule(category, record["target"]),))


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
        "longform_gold": longform_scores(),
        "gates": gate_table(),
        "recall": recall({"wiki_comments": comments, "movie_reviews": load_reviews(REVIEWS)}),
        "acceptability": acceptability_figures(),
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
