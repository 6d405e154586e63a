"""Hashes of everything the reading of a corpus decides, to show that a change made for speed
changes none of it.

For each built-in list (or those named), the bundled comments, the bundled reviews and the
shared Wikipedia comments are read by one process, and one hash is printed per list of:
every mention (span, term, surface, natural form, form, possessive, fixed), which seeds take
part in which category and why the others are left out, the target sets, the related words,
the acceptability scores computed, and the rewrite of every taking-part seed to every term
of its category. Run before and after a change; equal hashes mean an equal reading. The
reading's seconds are printed beside each hash (one process; not a benchmark).
Run: ``python -m benchmarks.reading_hashes [LIST ...]``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import time
from pathlib import Path

from benchmarks.name_recall import corpora
from textfair.core.rules import Rule
from textfair.text.domain import TextDomain

ROOT = Path(__file__).resolve().parents[1]
WIKI = ROOT.parent / "shared" / "data" / "text" / "wiki_toxicity.csv"
LISTS = ("dixon2018", "holistic", "names", "names_ethnicity", "pronouns", "nationality")


def corpus() -> list[str]:
    """The bundled comments and reviews, and the shared comments where they are beside."""
    bundled = corpora()
    texts = bundled["comments"] + bundled["reviews"]
    if WIKI.exists():
        with open(WIKI, encoding="utf-8", newline="") as handle:
            texts += [row["comment"] for row in csv.DictReader(handle)]
    return texts


def reading_hash(texts: list[str], terms: str) -> tuple[str, float, int]:
    """The hash of `texts` read with `terms`, the reading's seconds, and the rewrites hashed."""
    started = time.perf_counter()
    domain = TextDomain(texts, terms=terms, workers=1)
    seconds = time.perf_counter() - started
    digest = hashlib.sha256()

    def add(value: object) -> None:
        digest.update(repr(value).encode())

    for mentions in domain._mentions:
        add(
            [
                (m.start, m.end, m.term.id, m.surface, m.natural, m.form, m.possessive, m.fixed)
                for m in mentions
            ]
        )
    digest.update(domain._presence.tobytes())
    add({c: {k: v for k, v in r.items() if v} for c, r in domain.left_out.items()})
    add([[sorted(s) for s in domain._target_sets[c]] for c in domain.categories()])
    for category in domain.categories():
        digest.update(domain._target_set_of[category].tobytes())
    add([[(m.start, m.end, m.surface) for m in related] for related in domain._related])
    scores = domain.scorer.remembered(list(range(len(texts))))
    add(sorted((key, value.tobytes()) for key, value in scores.items()))
    rewrites = 0
    for index in range(len(texts)):
        for k, category in enumerate(domain.categories()):
            if not domain._presence[index, k]:
                continue
            for term in domain.term_list.categories[category]:
                variant = domain.rewrite(index, (Rule(category, term.id),))
                add(None if variant is None else variant.input)
                rewrites += 1
    return digest.hexdigest()[:16], seconds, rewrites


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lists", nargs="*", default=list(LISTS))
    args = parser.parse_args()
    texts = corpus()
    for terms in args.lists:
        digest, seconds, rewrites = reading_hash(texts, terms)
        record = {"terms": terms, "texts": len(texts), "hash": digest, "rewrites": rewrites}
        print(json.dumps({**record, "seconds": round(seconds, 2)}))


if __name__ == "__main__":
    main()
