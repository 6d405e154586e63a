"""Identity and placebo flip rates of the bundled models, per category, on bundled text.

For each bundled model, the default causal tests on the text it was made for (the toxicity
models on the bundled Wikipedia comments, `sentiment-lstm` on the bundled IMDB reviews) and,
per category: ``identity_rate`` (the mean share of a seed's identity swaps that flip its
decision), ``placebo_rate`` (how often a neutral word written before the term flips it),
``excess`` (their paired difference over seeds) with its simultaneous interval ``ci``, the
adjusted p-value, ``significant``, and ``n`` (seeds with both edits); and the raw causal
score (``flip_rate``: any of a seed's swaps flips it, over ``seeds``), the figure the
excess replaces. A category none of whose seeds has a real edit has no excess.
Run: ``python -m benchmarks.placebo --json``; ``--markdown`` prints the auditing page's
placebo table, which `tests/documentation` holds to this output.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path

from textfair.auditing.text import audit_text
from textfair.corpus import load_corpus
from textfair.models.spec import load_model
from textfair.report._numbers import difference
from textfair.settings import AuditConfig

IMDB = Path(__file__).resolve().parents[1] / "examples" / "data" / "imdb_small.tsv"
MODELS = (
    ("toxicity-cnn-lstm", "wikipedia comments", "non-toxic"),
    ("toxicity-tiny-transformer", "wikipedia comments", "non-toxic"),
    ("sentiment-lstm", "imdb reviews", "positive"),
)


def corpus(name: str) -> list[str]:
    """The bundled texts a model was made for."""
    if name == "imdb reviews":
        return load_corpus(IMDB, text_column="review").texts
    return load_corpus().texts


def categories(model_name: str, data: str, favorable: str) -> dict:
    """Per category, the single-category causal test's raw score and its excess."""
    model = load_model(model_name, batch_size=64, device="cpu")
    report = audit_text(model, corpus(data), favorable=favorable, config=AuditConfig())
    rows = {}
    for test in report.counterfactual.causal:
        if len(test.categories) != 1:
            continue
        excess = test.excess
        rows[test.categories[0]] = {"flip_rate": round(test.score, 4), "seeds": test.n}
        if excess is None or excess.n == 0:  # no seed of the category had a real edit
            continue
        rows[test.categories[0]] |= {
            "identity_rate": round(excess.identity_rate, 6),
            "placebo_rate": round(excess.placebo_rate, 6),
            # Six decimals: the page's table is printed from these, and a value rounded to
            # four and then to a tenth of a point can differ from the report's (21.2 vs 21.3).
            "excess": round(excess.excess, 6),
            "ci": [round(x, 6) for x in excess.ci],
            "p_adjusted": round(excess.p_adjusted, 4),
            "significant": excess.significant,
            "n": excess.n,
        }
    return {
        "model": model_name,
        "data": data,
        "rows": report.data["rows"],
        "placebo_queries": report.run.placebo_queries,
        "model_queries": report.run.model_queries,
        "categories": rows,
    }


def markdown_rows(result: dict) -> list[str]:
    """One model's rows of the auditing page's placebo table (the model named on its
    first row), in the page's format."""
    rows = []
    for k, (category, row) in enumerate(result["categories"].items()):
        first = f" `{result['model']}` ({_title(result['data'])}) " if k == 0 else " "
        if "excess" not in row:
            rows.append(f"|{first}| {category} | 0 | – | – | – |")
            continue
        rows.append(
            f"|{first}| {category} | {row['n']} | {100 * row['identity_rate']:.1f}% | "
            f"{100 * row['placebo_rate']:.1f}% | {difference(row['excess'], row['ci'])} |"
        )
    return rows


def _title(data: str) -> str:
    return {"wikipedia comments": "Wikipedia comments", "imdb reviews": "IMDB reviews"}[data]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--markdown", action="store_true", help="print the page's table rows")
    args = parser.parse_args()
    result = {
        "benchmark": "placebo",
        "models": [categories(*spec) for spec in MODELS],
        "python": platform.python_version(),
    }
    if args.markdown:
        print("\n".join(row for model in result["models"] for row in markdown_rows(model)))
        return
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
