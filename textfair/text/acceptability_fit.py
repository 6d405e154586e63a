"""Refit the acceptability model on blind-read variants and write it as JSON.

Run::

    python -m textfair.text.acceptability_fit --gold tests/data/acceptability_gold.jsonl \\
        --out textfair/text/acceptability_model.json

Only the **tune** half of a gold file is read (``split`` other than ``"frozen"``); records of
the frozen half are dropped as each line is parsed, before anything else looks at them, unless
``--evaluate-frozen`` is given: then the model fitted on the tune half is scored once on the
frozen half and the figures printed (nothing is refitted on it).

Units. Only the units the current rules still write word for word are read
(`current_units`): the score models what the rules cannot see.

Labels. A gold record holds ``labels``, one reading per reader (``{"acceptable": bool,
"class": ...}``; a third of the units have two), or, in the older files (``--extra``), one
``acceptable`` boolean. A reading of class ``WORLD`` (coherent, but false about a real, named
person, work or event) counts as acceptable: such a variant is a valid test of the
classifier (issue 56), counted apart, never a reason to lower the score. **Each reading
counts as one sample**: a unit read twice gives two rows, with the same features and each
reader's label, so the model estimates the probability that *a* strict reader accepts the
variant, and a unit the readers disagree on pulls its probability towards one half. Units
without a reading are skipped.

Fitting: scikit-learn's L2 logistic regression on standardised features (the JSON keeps the
means and scales), its strength `C` chosen by grouped cross-validated log loss. Calibration
is checked on held-out folds: the folds are grouped by source document (every unit and
reading of one document in one fold), and the expected calibration error over 10 equal-width
bins,

$$
\\mathrm{ECE} = \\sum_{b=1}^{10} \\frac{n_b}{n} \\,\\big|\\bar y_b - \\bar p_b\\big|,
$$

is printed overall and per kind (review, comment, sentence), with the acceptability (share of
readings accepting) and recall (share of units kept) at candidate thresholds. A calibration map
(none, Platt or isotonic) is chosen by nested grouped cross-validation, its ECE before and
after printed (``calibration.nested_cv_ece``), and stored in the JSON as plain numbers
(:mod:`textfair.text._acceptability_calibration` gives the maths); the figures are then those
of the calibrated, nested cross-validated scores.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from textfair.text._acceptability_calibration import (
    Calibration,
    choose,
    ece_table,
    fit_calibration,
    nested_calibration,
)
from textfair.text._acceptability_features import FEATURES, feature_vector
from textfair.text._acceptability_model import AcceptabilityModel, load_model
from textfair.text._evaluation import rewrite_status
from textfair.text.generate import plan_text
from textfair.text.matcher import Matcher

__all__ = [
    "Sample",
    "current_units",
    "ece",
    "fit",
    "load_samples",
    "main",
    "reliability",
    "threshold_table",
]

THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)
C_GRID = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0)
KINDS = ("review", "comment", "sentence")


@dataclass(frozen=True)
class Sample:
    """One reading of one unit: its features, the reader's label, its kind and group."""

    unit: str
    kind: str
    group: str
    x: np.ndarray
    y: int


def _kind(record: dict, path: Path) -> str:
    if record.get("kind") in KINDS:
        return record["kind"]
    if record.get("unit") or "sentences" in path.name:
        return "sentence"
    return "review" if "imdb" in str(record.get("source", "")) else "comment"


def _readings(record: dict) -> list[bool]:
    """Each reader's verdict, a WORLD reading counted acceptable: a coherent variant made
    false about a real, named person, work or event still tests whether the decision
    depends on the identity term (issue 56), so the score does not learn to avoid it."""
    labels = record.get("labels")
    if labels:
        return [
            bool(r["acceptable"]) or r.get("class") == "WORLD"
            for r in labels
            if r.get("acceptable") is not None
        ]
    if record.get("acceptable") is not None:
        return [bool(record["acceptable"])]
    return []


def read_records(paths: Iterable[Path], frozen: bool = False) -> list[tuple[Path, dict]]:
    """The records of the tune half (of the frozen half with `frozen`) of each file; a line
    of the other half is dropped as soon as its split is known."""
    wanted = "frozen" if frozen else "tune"
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                record = json.loads(line)
                if record.get("split", "tune") != wanted:
                    continue
                records.append((path, record))
    return records


def current_units(records: Sequence[tuple[Path, dict]]) -> list[tuple[Path, dict]]:
    """The records whose variant the current rules still write, word for word: the score
    learns what the rules cannot see, so a unit the rules now leave out (or write otherwise,
    where its label no longer applies) is no sample of it."""
    return [(path, record) for path, record in records if rewrite_status(record) == "same"]


def load_samples(
    records: Sequence[tuple[Path, dict]],
) -> list[Sample]:
    """One `Sample` per reading."""
    matchers: dict[str, Matcher] = {}
    samples: list[Sample] = []
    for path, record in records:
        readings = _readings(record)
        if not readings:
            continue
        terms = record.get("terms") or "dixon2018"
        matcher = matchers.get(terms) or matchers.setdefault(terms, Matcher(terms))
        text, category = record["text"], record["category"]
        target = matcher.term_list.term(record["target"])
        mentions = matcher.find(text)
        plans = plan_text(text, mentions, matcher, [category], several=True)
        plan = plans.get(category)
        related = len(plan.related) if plan is not None else 0
        x = feature_vector(text, mentions, category, target, matcher.term_list, related)
        unit = f"{path.name}:{record.get('id') or record.get('doc_id')}:{category}:{target.id}"
        group = f"{record.get('source')}:{record.get('doc_id')}"
        kind = _kind(record, path)
        samples.extend(Sample(unit, kind, group, x, int(y)) for y in readings)
    return samples


def reliability(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict]:
    """The reliability diagram as numbers: per equal-width bin of the predicted probability
    with any unit, its readings, mean prediction and share accepted."""
    which = np.minimum((p * bins).astype(int), bins - 1)
    return [
        {
            "bin": f"{b / bins:.1f}-{(b + 1) / bins:.1f}",
            "readings": int((which == b).sum()),
            "predicted": round(float(p[which == b].mean()), 3),
            "accepted": round(float(y[which == b].mean()), 3),
        }
        for b in range(bins)
        if (which == b).any()
    ]


def ece(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error over `bins` equal-width bins of the predicted probability."""
    if len(p) == 0:
        return float("nan")
    which = np.minimum((p * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        inside = which == b
        if inside.any():
            total += inside.sum() * abs(y[inside].mean() - p[inside].mean())
    return float(total / len(p))


def _fit(x: np.ndarray, y: np.ndarray, c: float) -> AcceptabilityModel:
    from sklearn.linear_model import LogisticRegression

    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0  # a constant feature: its coefficient is 0 anyway
    regression = LogisticRegression(C=c, max_iter=5000)
    regression.fit((x - means) / scales, y)
    return AcceptabilityModel(
        FEATURES, means, scales, regression.coef_[0].copy(), float(regression.intercept_[0])
    )


def _folds(groups: Sequence[str], k: int = 5) -> list[np.ndarray]:
    from sklearn.model_selection import GroupKFold

    index = np.arange(len(groups))
    return [test for _, test in GroupKFold(n_splits=k).split(index, groups=groups)]


def cross_validated(samples: Sequence[Sample], c: float, k: int = 5) -> np.ndarray:
    """Out-of-fold probabilities, folds grouped by source document."""
    x = np.stack([s.x for s in samples])
    y = np.array([s.y for s in samples])
    out = np.zeros(len(samples))
    for test in _folds([s.group for s in samples], k):
        train = np.setdiff1d(np.arange(len(samples)), test)
        out[test] = _fit(x[train], y[train], c).probability(x[test])
    return out


def threshold_table(samples: Sequence[Sample], p: np.ndarray) -> dict[str, dict]:
    """Per kind and threshold: acceptability (share of readings accepting, among units at or
    above it) and recall (share of units kept); and the ECE per kind."""
    table: dict[str, dict] = {}
    kinds = np.array([s.kind for s in samples])
    y = np.array([s.y for s in samples])
    for kind in (*KINDS, "all"):
        inside = np.ones(len(samples), bool) if kind == "all" else kinds == kind
        if not inside.any():
            continue
        rows = {}
        for t in THRESHOLDS:
            kept = inside & (p >= t)
            rows[f"{t:g}"] = {
                "acceptability": round(float(y[kept].mean()), 3) if kept.any() else None,
                "recall": round(float(kept.sum() / inside.sum()), 3),
            }
        table[kind] = {
            "readings": int(inside.sum()),
            "accepted": round(float(y[inside].mean()), 3),
            "ece": round(ece(p[inside], y[inside]), 3),
            "thresholds": rows,
        }
    return table


def suggest_threshold(table: dict[str, dict], target: float = 0.95, recall: float = 0.5) -> float:
    """The lowest threshold giving `target` acceptability on sentences and comments, each with
    at least `recall` of its units kept; where none does, the highest that keeps `recall`
    of both (the most acceptable variants that still keep half the seeds)."""
    kinds = [k for k in ("sentence", "comment") if k in table]

    def rows(t: float) -> list[dict]:
        return [table[k]["thresholds"][f"{t:g}"] for k in kinds]

    for t in THRESHOLDS:
        accepted = all(
            r["acceptability"] is not None and r["acceptability"] >= target for r in rows(t)
        )
        if accepted and all(r["recall"] >= recall for r in rows(t)):
            return t
    keeping = [t for t in THRESHOLDS if all(r["recall"] >= recall for r in rows(t))]
    return max(keeping, default=THRESHOLDS[0])


def fit(samples: Sequence[Sample], description: str) -> tuple[AcceptabilityModel, dict]:
    """The model on every sample, `C` chosen by cross-validated log loss, and its
    cross-validated figures."""
    y = np.array([s.y for s in samples])
    best = None
    for c in C_GRID:
        p = np.clip(cross_validated(samples, c), 1e-6, 1 - 1e-6)
        loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
        if best is None or loss < best[0]:
            best = (loss, c, p)
    assert best is not None
    loss, c, p = best
    x = np.stack([s.x for s in samples])
    model = _fit(x, y, c)
    calibration, p_calibrated, eces = _calibrate(samples, x, y, c, p)
    table = threshold_table(samples, p_calibrated)
    figures = {
        "C": c,
        "cv_log_loss": round(loss, 4),
        "cv_ece": round(ece(p_calibrated, y), 4),
        "calibration": {**calibration.to_dict(), "nested_cv_ece": eces},
        "reliability_before_calibration": reliability(p, y),
        "reliability": reliability(p_calibrated, y),
        "readings": len(samples),
        "units": len({s.unit for s in samples}),
        "per_kind": table,
        "suggested_min_acceptability": suggest_threshold(table),
    }
    meta = {
        "trained_on": description,
        "fitted": datetime.date.today().isoformat(),
        "labels": "each reader's reading is one sample (a unit read twice: two rows)",
        "cross_validation": {
            **{k: v for k, v in figures.items() if k != "per_kind"},
            "ece_per_kind": {k: v["ece"] for k, v in table.items()},
            "per_kind": table,
        },
    }
    return dataclasses.replace(model, meta=meta, calibration=calibration), figures


def _calibrate(
    samples: Sequence[Sample], x: np.ndarray, y: np.ndarray, c: float, p: np.ndarray
) -> tuple[Calibration, np.ndarray, dict[str, dict[str, float]]]:
    """The calibration map with the lowest nested grouped cross-validated ECE (see
    :mod:`textfair.text._acceptability_calibration`), fitted on the out-of-fold scores `p`;
    the nested cross-validated scores it gave; and every map's ECE, overall and per kind."""
    groups = np.array([s.group for s in samples])

    def folds(index: np.ndarray) -> list[np.ndarray]:
        return [index[test] for test in _folds(list(groups[index]))]

    def fit_score(train: np.ndarray, test: np.ndarray) -> np.ndarray:
        return _fit(x[train], y[train], c).probability(x[test])

    def out_of_fold(index: np.ndarray) -> np.ndarray:
        return cross_validated([samples[i] for i in index], c)

    nested = nested_calibration(y, folds, out_of_fold, fit_score)
    eces = ece_table(y, [s.kind for s in samples], nested, ece)
    method = choose({m: row["all"] for m, row in eces.items()})
    return fit_calibration(method, p, y), nested[method], eces


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gold", type=Path, required=True, help="the gold set (JSON lines)")
    parser.add_argument(
        "--extra", type=Path, nargs="*", default=[], help="older gold files (tune half)"
    )
    parser.add_argument("--out", type=Path, default=None, help="where to write the model JSON")
    parser.add_argument(
        "--plot",
        type=Path,
        default=None,
        help="write the cross-validated reliability diagram (SVG)",
    )
    parser.add_argument(
        "--evaluate-frozen",
        action="store_true",
        help="score the frozen half once with the model fitted on the tune half",
    )
    parser.add_argument(
        "--model",
        type=Path,
        default=None,
        help="with --evaluate-frozen: score this model (the shipped one) instead of refitting",
    )
    args = parser.parse_args(argv)
    if args.model is not None:
        if not args.evaluate_frozen:
            print("error: --model is for --evaluate-frozen", file=sys.stderr)
            return 2
        print(json.dumps(_frozen_figures(args.gold, load_model(args.model)), indent=1))
        return 0
    records = current_units(read_records([args.gold, *args.extra]))
    samples = load_samples(records)
    if len(samples) < 20 or len({s.y for s in samples}) < 2:
        print(f"error: {len(samples)} labelled readings; need 20 with both labels", file=sys.stderr)
        return 2
    names = ", ".join(p.name for p in [args.gold, *args.extra])
    description = f"tune half of {names}, units the rules still write: {len(samples)} readings"
    model, figures = fit(samples, description)
    print(json.dumps(figures, indent=1))
    if args.plot:
        plot_reliability(figures["reliability"], args.plot, "tune half, cross-validated")
    if args.out:
        args.out.write_text(json.dumps(model.to_dict(), indent=1) + "\n", encoding="utf-8")
    if args.evaluate_frozen:
        print(json.dumps(_frozen_figures(args.gold, model), indent=1))
    return 0


def plot_reliability(bins: Sequence[dict], path: Path, title: str) -> None:
    """The reliability diagram (`reliability`'s bins) as an SVG: the share of readings
    accepting against the mean predicted probability per bin, each point sized by its
    readings, with the diagonal a calibrated score follows."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [b for b in bins if b["readings"]]
    figure, axes = plt.subplots(figsize=(4.8, 4.2))
    axes.plot([0, 1], [0, 1], color="0.6", linewidth=1, label="calibrated")
    axes.scatter(
        [b["predicted"] for b in shown],
        [b["accepted"] for b in shown],
        s=[8 + 0.6 * b["readings"] for b in shown],
        color="#1f5fa8",
        label="readings per bin",
    )
    for b in shown:
        axes.annotate(
            str(b["readings"]),
            (b["predicted"], b["accepted"]),
            fontsize=7,
            xytext=(4, -9),
            textcoords="offset points",
        )
    axes.set(
        xlim=(0, 1),
        ylim=(0, 1),
        xlabel="predicted acceptability",
        ylabel="share of readings accepting",
        title=title,
    )
    axes.legend(loc="upper left", fontsize=8, frameon=False)
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata={"Date": None})
    plt.close(figure)


def _frozen_figures(gold: Path, model: AcceptabilityModel) -> dict:
    """The frozen half scored once: per kind, ECE and acceptability and recall at each
    threshold, and the reliability diagram."""
    frozen = load_samples(current_units(read_records([gold], frozen=True)))
    if not frozen:
        return {"frozen": "no labelled reading in the frozen half"}
    p = model.probability(np.stack([s.x for s in frozen]))
    y = np.array([s.y for s in frozen])
    return {
        "frozen": threshold_table(frozen, p),
        "ece": round(ece(p, y), 4),
        "reliability": reliability(p, y),
    }


if __name__ == "__main__":
    sys.exit(main())
