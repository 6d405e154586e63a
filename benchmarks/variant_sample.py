"""Draw variants at random for a reader: one per seed, written as the audit writes them.

For a blind reading (and for the long-form gold set in ``tests/data``): every (seed,
category) a corpus lets take part in that category's rows is a candidate; ``--n`` of them
are drawn with ``--seed``, at most one per seed text, and each is rewritten to a target
term drawn among the category's terms the seed may become (its axis). The output is JSON
lines: the seed, the variant, what was swapped, and a ``shown`` text that marks each
change as ``[[old -> new]]`` for a reader. Which corpus a variant came from is a field the
reader is not shown.

Run: ``python -m benchmarks.variant_sample --data reviews.tsv --terms dixon2018 --n 100``.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from textfair.core.rules import Rule
from textfair.io import read_texts
from textfair.text._evaluation import target_for
from textfair.text.domain import TextDomain
from textfair.text.variants import Variant


def marked(seed: str, variant: Variant) -> str:
    """The variant with every changed span shown as [[old -> new]]."""
    pieces, cursor = [], 0
    for edit in variant.edits:
        pieces.append(variant.text[cursor : edit.new_start])
        pieces.append(f"[[{edit.old} -> {edit.new}]]")
        cursor = edit.new_end
    pieces.append(variant.text[cursor:])
    return "".join(pieces)


def draw(
    texts: Sequence[str],
    terms: str,
    n: int,
    seed: int,
    corpus: str,
    categories: Sequence[str] | None = None,
    per_seed: int = 1,
) -> list[dict]:
    """`n` variants of `texts`, drawn with `seed`: at most `per_seed` of one seed text, each
    of another category."""
    domain = TextDomain(texts, terms, categories)
    pairs = [
        (int(index), category)
        for category in domain.categories()
        for index in np.flatnonzero(domain.category_mask(category))
    ]
    rng = np.random.default_rng(seed)
    records, used = [], collections.Counter()
    for pick in rng.permutation(len(pairs)):
        index, category = pairs[pick]
        if used[index] >= per_seed:
            continue
        target = target_for(domain, index, category, f"{seed}")
        if target is None:
            continue
        rewrite = domain.rewrite_with_edits(index, (Rule(category, target),))
        if rewrite is None or rewrite.text == texts[index]:
            continue
        used[index] += 1
        records.append(
            {
                "source": corpus,
                "doc_id": index,
                "terms": terms,
                "category": category,
                "from": "+".join(s.source for s in rewrite.swaps),
                "target": target,
                "text": texts[index],
                "variant": rewrite.text,
                "shown": marked(texts[index], rewrite),
            }
        )
        if len(records) == n:
            break
    return records


def load_texts(path: Path, column: str | None) -> list[str]:
    """The texts of a corpus file; a headerless two-column TSV (label, text) is read too."""
    if column is None and path.suffix == ".tsv":
        with open(path, encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
        if rows and rows[0][-1] in ("review", "text"):
            rows = rows[1:]
        return [row[-1] for row in rows if row]
    column = column or ("text" if path.suffix == ".txt" else "comment")
    return list(read_texts(path, column)[column])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--text-column", default=None)
    parser.add_argument("--terms", default="dixon2018")
    parser.add_argument("--categories", default=None, help="comma-separated; default all")
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-seed", type=int, default=1, help="variants of one text at most")
    args = parser.parse_args(argv)
    categories = args.categories.split(",") if args.categories else None
    texts = load_texts(args.data, args.text_column)
    for record in draw(
        texts, args.terms, args.n, args.seed, args.data.name, categories, args.per_seed
    ):
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
