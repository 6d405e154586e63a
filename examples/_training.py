"""Shared by the example training scripts: data, a seeded split, evaluation, model cards."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

DATA = Path(__file__).parent / "data"
PACKAGE_DATA = Path(__file__).resolve().parents[1] / "textfair" / "datasets"
BUNDLED = Path(__file__).resolve().parents[1] / "textfair" / "bundled_models"
OUT = Path(__file__).parent / "out"


def destination(name: str, description: str) -> Path:
    """Where a training script writes its model: examples/out/<name> by default (never the
    package's copy), --out DIR, or with --bundled the bundled model itself (for maintainers
    who mean to replace it)."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=OUT / name, help="directory to write")
    parser.add_argument(
        "--bundled",
        action="store_true",
        help=f"replace the bundled model textfair/bundled_models/{name}",
    )
    args = parser.parse_args()
    return BUNDLED / name if args.bundled else args.out


def wiki_toxicity() -> tuple[list[str], list[str]]:
    """Wikipedia comments and their labels ("toxic" / "non-toxic")."""
    with open(PACKAGE_DATA / "wiki_toxicity.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [r["comment"] for r in rows], [
        "toxic" if r["toxic"] == "True" else "non-toxic" for r in rows
    ]


def imdb() -> tuple[list[str], list[str]]:
    """IMDB reviews and their labels ("positive" / "negative")."""
    with open(DATA / "imdb_small.tsv", encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))[1:]
    return [r[1] for r in rows], ["positive" if r[0] == "1" else "negative" for r in rows]


def split(n: int, seed: int, test_fraction: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    """A seeded random train/test split of n rows (indices): the one `textfair mitigate`
    uses by default, so its held-out rows are the bundled models' test rows."""
    from textfair import holdout_split

    return holdout_split(n, test_fraction, seed)


def evaluate(model, texts: list[str], labels: list[str], positive: str) -> dict[str, float]:
    """Accuracy and ROC AUC of the model, and of always predicting the majority class."""
    probabilities = model.predict_proba(texts)[:, list(model.labels).index(positive)]
    truth = np.array([label == positive for label in labels])
    majority = max(truth.mean(), 1 - truth.mean())
    return {
        "test_rows": len(texts),
        "accuracy": round(float(((probabilities > 0.5) == truth).mean()), 4),
        "roc_auc": round(float(roc_auc_score(truth, probabilities)), 4),
        "majority_accuracy": round(float(majority), 4),
        "majority_roc_auc": 0.5,
    }


def write_card(directory: Path, title: str, facts: dict, metrics: dict) -> None:
    """A model card (README.md) and metrics.json from what the script measured."""
    lines = [f"# {title}", ""]
    lines += [f"- **{key}:** {value}" for key, value in facts.items()]
    lines += [
        "",
        "## Test-set results (held-out split)",
        "",
        "| | accuracy | ROC AUC |",
        "|---|---|---|",
        f"| this model | {metrics['accuracy']} | {metrics['roc_auc']} |",
        f"| majority class | {metrics['majority_accuracy']} | {metrics['majority_roc_auc']} |",
        "",
        f"{metrics['test_rows']} test rows. The training recipe is recorded in config.json "
        "(`training`), and `textfair mitigate` retrains with it; the script named above "
        "gives the same weights for the same seed on the same torch and textfair versions.",
        "",
        "Intended use: a small real model for textfair's tests, examples and default audit. "
        "It is trained on little data and will have biases; finding them is the point.",
    ]
    (directory / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (directory / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")


def train_bundled(
    name: str, out: Path, texts, labels, *, positive: str, label_order, facts: dict, **train
):
    """Train a textfair text model on a seeded split and save it in `out` with its card."""
    from textfair import train_text_classifier

    seed = train.setdefault("seed", 0)
    train_rows, test_rows = split(len(texts), seed)
    model = train_text_classifier(
        [texts[i] for i in train_rows],
        [labels[i] for i in train_rows],
        label_order=label_order,
        **train,
    )
    metrics = evaluate(
        model, [texts[i] for i in test_rows], [labels[i] for i in test_rows], positive
    )
    out = model.save(out)
    facts = {
        **facts,
        "split": f"seeded random 80/20 (seed {seed}); {len(train_rows)} train, "
        f"{len(test_rows)} test",
    }
    write_card(out, name, facts, metrics)
    print(metrics)
    print(f"wrote {out}")
