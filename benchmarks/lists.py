"""Large term lists: time and peak memory of `textfair audit` against terms per category.

`python -m benchmarks.lists --json` builds, for each size, a term list of one made-up
category of adjectives ("bakoish", "rimuish", ...: words no model has seen, so no real
group is named) and a corpus of distinct texts, each naming one term ("a rimuish person
wrote this on page 17."), and audits it with `textfair audit` and a `py:` model (a fixed
function of the text's characters, as fast as a model can be: what is timed is textfair's
own work). This is the probe of the issue that asked for bounded memory, made repeatable.

Each audit runs in a fresh process, so its peak resident memory (VmHWM) is its own; the
report set is written (the page and its figures were where memory grew with the square of
the category's size). Reported per run: terms, texts, the model's queries, the texts
requested, seconds, peak MB, the memory model's estimate of the growth over what is loaded
before the audit (`textfair.memory`: the guard refuses a run whose estimate is more than
the memory available) and the report's size. The summary is of the runs of this one
invocation: the peak's growth per 1,000 more terms between consecutive sizes, and the
seconds per text the audit requested.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.scale import peak_rss_mb

SIZES = ((100, 400), (300, 400), (1000, 400), (3000, 400), (1000, 100), (1000, 1600))
QUICK = ((100, 100), (300, 100))
_SYLLABLES = "ba ko ri mu te la zo pi ne du ga vo".split()

MODEL_SOURCE = '''
import numpy as np


def predict(texts):
    """The toxic probability: a fixed function of the text's characters (no model)."""
    toxic = np.array([0.3 + 0.4 * ((sum(map(ord, t)) % 97) / 97.0) for t in texts])
    return np.column_stack([1.0 - toxic, toxic])


predict.labels = ["non-toxic", "toxic"]
'''


def made_up_terms(count: int) -> list[str]:
    """`count` distinct made-up adjectives, shortest first."""
    words = (
        "".join(syllables) + "ish"
        for length in itertools.count(2)
        for syllables in itertools.product(_SYLLABLES, repeat=length)
    )
    return list(itertools.islice(words, count))


def write_inputs(directory: Path, terms: int, texts: int) -> tuple[Path, Path]:
    """The term list (one category, `terms` adjectives) and the corpus (`texts` distinct
    texts, the terms taken in turn)."""
    words = made_up_terms(terms)
    term_list = directory / f"made_up_{terms}.yaml"
    lines = [
        f"name: made_up_{terms}",
        "description: made-up adjectives of people (a benchmark of large categories)",
        "source: benchmarks/lists.py",
        "licence: MIT (textfair)",
        "categories:",
        "  made_up:",
        *(f"    - {{term: {word}, pos: adjective}}" for word in words),
    ]
    term_list.write_text("\n".join(lines) + "\n", encoding="utf-8")
    corpus = directory / f"texts_{terms}_{texts}.txt"
    corpus.write_text(
        "".join(f"a {words[k % terms]} person wrote this on page {k}.\n" for k in range(texts)),
        encoding="utf-8",
    )
    return term_list, corpus


def _sections(report: dict, texts: int) -> list[tuple[int, int]]:
    """Per section of the audit (the corpus, the templates), its seeds and rule sets tested."""
    sections = [(texts, report["rule_sets_tested"])]
    templates = report.get("templates")
    if templates:
        seeds = sum(templates["data"]["seeds_per_category"].values())
        sections.append((seeds, templates["rule_sets_tested"]))
    return sections


def _one(terms: int, texts: int) -> dict:
    """One audit in this process (run by `main` in a fresh one): its figures as a dict."""
    from textfair.cli import app
    from textfair.memory import estimate_memory
    from textfair.settings import AuditConfig

    config = AuditConfig()  # the defaults the audit runs with

    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        (directory / "lists_model.py").write_text(MODEL_SOURCE, encoding="utf-8")
        sys.path.insert(0, scratch)
        term_list, corpus = write_inputs(directory, terms, texts)
        out = directory / "report"
        started = time.perf_counter()
        try:
            app(
                [
                    "audit",
                    "--model",
                    "py:lists_model:predict",
                    "--data",
                    str(corpus),
                    "--terms",
                    str(term_list),
                    "--out",
                    str(out),
                    "--cache",
                    str(directory / "cache.sqlite"),
                ],
                standalone_mode=False,
            )
        except SystemExit as exit_:
            if exit_.code not in (0, None):
                raise
        seconds = time.perf_counter() - started
        report = json.loads((out / "report.json").read_text(encoding="utf-8"))
        run = report["run"]
        sizes = {p.name: p.stat().st_size for p in out.iterdir()}
        return {
            "terms": terms,
            "texts": texts,
            "model_queries": run["model_queries"],
            "requested_texts": run["requested"],
            "seconds": round(seconds, 2),
            "peak_mb": peak_rss_mb(),
            # Both sections' estimates: a model that waits (a py: function) has its templates
            # audited beside the corpus, at once (issue 58).
            "estimated_growth_mb": round(
                sum(
                    estimate_memory(
                        {"made_up": terms},
                        {"made_up": seeds},
                        rule_sets,
                        max_samples=config.max_samples,
                        term_samples=config.min_samples,
                        max_assignments=config.max_assignments,
                    ).bytes
                    for seeds, rule_sets in _sections(report, texts)
                )
                / 1e6,
                1,
            ),
            "report_json_mb": round(sizes["report.json"] / 1e6, 2),
            "report_html_mb": round(sizes["report.html"] / 1e6, 2),
            "term_pairs_kept": len(report["counterfactual"]["term_pairs"]),
            "term_pairs_tested": len(report["counterfactual"]["term_pairs"])
            + sum(
                c["tested"] - c["kept"]
                for c in report["counterfactual"].get("term_pairs_left_out", [])
            ),
        }


def summary(runs: list[dict]) -> dict:
    """What the runs say about growth, from the runs of one invocation: the peak's growth
    per 1,000 more terms between consecutive sizes at a fixed number of texts (at most
    linear: each step's growth no larger than the one before), and the seconds per text
    requested by the audit, every run (at most linear in the texts: about constant)."""
    steps = {}
    for texts, group in itertools.groupby(
        sorted(runs, key=lambda r: (r["texts"], r["terms"])), key=lambda r: r["texts"]
    ):
        rows = list(group)
        for first, last in itertools.pairwise(rows):
            growth = (last["peak_mb"] - first["peak_mb"]) / (last["terms"] - first["terms"])
            steps[f"{texts} texts: {first['terms']}->{last['terms']} terms"] = round(
                1000 * growth, 1
            )
    return {
        "peak_mb_per_1000_more_terms": steps,
        "microseconds_per_requested_text": {
            f"{r['terms']} terms, {r['texts']} texts": round(
                1e6 * r["seconds"] / r["requested_texts"], 1
            )
            for r in runs
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="two small sizes (a smoke test)")
    parser.add_argument(
        "--one", nargs=2, type=int, metavar=("TERMS", "TEXTS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(_one(*args.one)))
        return 0
    runs = []
    for terms, texts in QUICK if args.quick else SIZES:
        child = subprocess.run(
            [sys.executable, "-m", "benchmarks.lists", "--one", str(terms), str(texts)],
            capture_output=True,
            text=True,
            check=False,
        )
        if child.returncode != 0:
            raise SystemExit(f"the audit of {terms} terms, {texts} texts failed:\n{child.stderr}")
        runs.append(json.loads(child.stdout.strip().splitlines()[-1]))
        if not args.json:
            print(json.dumps(runs[-1]), file=sys.stderr)
    result = {"benchmark": "lists", "python": platform.python_version(), "runs": runs}
    result |= summary(runs)
    print(json.dumps(result, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
