"""Draw template variants at random for a blind reading (issue 55's rubric check).

Every (seed, target term) a built-in suite writes for a term list is a candidate: each
templated seed rewritten to another term of its axis, as the audit writes it. ``--n`` are
drawn with ``--seed`` uniformly over the pooled candidates of the suites and lists given,
at most one per seed. The output is JSON lines: the suite, the list, the seed, the variant
and a ``shown`` text marking each changed span ``[[old -> new]]`` for a reader (the reader
is shown only ``item`` and ``shown``).

Run: ``python -m benchmarks.template_sample --n 60 --seed 55 --out sample.jsonl``.
"""

from __future__ import annotations

import argparse
import difflib
import json
from pathlib import Path

import numpy as np

from textfair.core.rules import Rule
from textfair.terms import load_term_list
from textfair.text.template_domain import TemplateDomain
from textfair.text.template_suites import SUITES, suite, suite_kinds

LISTS = ("dixon2018", "names", "names_ethnicity", "nationality", "pronouns", "holistic")


def marked(seed: str, variant: str) -> str:
    """The variant with every changed run of words shown as [[old -> new]]."""
    old, new = seed.split(" "), variant.split(" ")
    pieces: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.extend(new[j1:j2])
        else:
            pieces.append(f"[[{' '.join(old[i1:i2])} -> {' '.join(new[j1:j2])}]]")
    return " ".join(pieces)


def candidates(task: str, terms: str) -> list[tuple[TemplateDomain, int, str]]:
    """Every (domain, seed, target term) a suite writes for a list."""
    domain = TemplateDomain(suite(task), load_term_list(terms), None, suite_kinds(task))
    return [
        (domain, i, term.id)
        for i, seed in enumerate(domain.seeds)
        for term in seed.terms
        if term.id != seed.own.id
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--lists", default=",".join(LISTS))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    pool = [
        (task, terms, item)
        for task in SUITES
        for terms in args.lists.split(",")
        for item in candidates(task, terms)
    ]
    rng = np.random.default_rng(args.seed)
    rows, seen = [], set()
    for k in rng.permutation(len(pool)):
        task, terms, (domain, index, target) = pool[int(k)]
        if (task, terms, index) in seen:
            continue
        seen.add((task, terms, index))
        seed = domain.seeds[index]
        text = domain.input(index)
        variant = domain.rewrite(index, (Rule(seed.category, target),))
        assert variant is not None
        rows.append(
            {
                "item": f"t{len(rows):03d}",
                "suite": task,
                "terms": terms,
                "category": seed.category,
                "seed": text,
                "variant": variant.text,
                "shown": marked(text, variant.text),
            }
        )
        if len(rows) == args.n:
            break
    with args.out.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(json.dumps({"written": len(rows), "pool": len(pool), "out": str(args.out)}))


if __name__ == "__main__":
    main()
