"""The closed loop, measured: mitigate the bundled toxicity CNN-LSTM and a COMPAS model.

Text: `textfair mitigate`'s defaults on the bundled model and comments (counterfactual data
augmentation, TestSGD's loop up to 10% of the training part). Table: a logistic regression
trained on the seeded 80% of ProPublica COMPAS (shared data), mitigated with Aequitas's
discriminatory inputs and Aequitas's loop. For each: the top significant finding's score and
interval before and after, its reduction, held-out accuracy and ROC AUC before and after, the
held-out terms' scores (text), and the share of the run spent retraining and re-measuring.
Run: ``python -m benchmarks.mitigation --json``.

``--methods all`` (or a comma list) compares mitigation methods instead (issue 26, see
`textfair.mitigate.compare`): the bundled toxicity CNN-LSTM and tiny transformer on the
bundled comments, and a logistic regression on each of COMPAS, Adult and German credit
(examples/data, fitted on the comparison's training part); per method its seconds, worst
target, largest |SPD|, held-out accuracy, macro F1 and ROC AUC with intervals, and the
Pareto front. ``--cases`` picks some of them; ``--twice`` runs each again with the same seed
and says whether every number (seconds aside) came out the same.
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import time
from importlib import resources
from pathlib import Path

COMPAS = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "data"
    / "tabular"
    / "compas-scores-two-years.csv"
)
COMPAS_COLUMNS = [
    "age",
    "sex",
    "race",
    "priors_count",
    "c_charge_degree",
    "juv_fel_count",
    "juv_misd_count",
    "juv_other_count",
    "two_year_recid",
]


def summary(result, seconds: float) -> dict:
    report = result.report
    top = report["comparison"][0]
    held = report["held_out"]
    return {
        "status": report["status"],
        "top_rule_set": top["rule_set"],
        "top_before": _side(top["before"]),
        "top_after": _side(top["after"]),
        "top_reduction": round(top["reduction"], 3),
        "targets": [
            {"rule_set": r["rule_set"], "reduction": round(r["reduction"], 3)}
            for r in report["comparison"]
            if r["role"] == "target"
        ],
        "held_out_terms": [
            {"rule_set": r["rule_set"], "before": _side(r["before"]), "after": _side(r["after"])}
            for r in report["comparison"]
            if r["role"] == "held-out term"
        ],
        "held_out_accuracy": [
            round(held["before"]["accuracy"], 4),
            round(held["after"]["accuracy"], 4),
        ],
        "held_out_roc_auc": [
            round(held["before"]["roc_auc"], 4),
            round(held["after"]["roc_auc"], 4),
        ],
        "augmentation": report["augmentation"],
        "steps": [
            [s["added"], round(s["worst_target_score"], 4), round(s["held_out_accuracy"], 4)]
            for s in report["steps"]
        ],
        "seconds": round(seconds, 1),
    }


def _side(side: dict) -> list[float]:
    return [round(side["score"], 4), *(round(x, 4) for x in side["ci"])]


def text() -> dict:
    from textfair.mitigate.pipeline import MitigationConfig, mitigate_text
    from textfair.models.spec import load_model
    from textfair.run import Run
    from textfair.settings import AuditConfig

    path = Path(str(resources.files("textfair.datasets").joinpath("wiki_toxicity.csv")))
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    texts = [r["comment"] for r in rows]
    labels = ["toxic" if r["toxic"] == "True" else "non-toxic" for r in rows]
    started = time.perf_counter()
    result = mitigate_text(
        load_model("toxicity-cnn-lstm"),
        texts,
        labels,
        favorable="non-toxic",
        audit_config=AuditConfig(error=2, max_samples=3000, causal=False),
        config=MitigationConfig(),
        run=Run("toxicity-cnn-lstm"),
    )
    return {"model": "toxicity-cnn-lstm", **summary(result, time.perf_counter() - started)}


def table(path: Path) -> dict:
    import pandas as pd

    from textfair.mitigate.pipeline import MitigationConfig, mitigate_table
    from textfair.mitigate.retrain import holdout_split
    from textfair.models.baselines import logistic_regression
    from textfair.models.rows import RowModel
    from textfair.run import Run
    from textfair.settings import AuditConfig
    from textfair.tabular.schema import infer_schema

    frame = pd.read_csv(path)[COMPAS_COLUMNS]
    train, _ = holdout_split(len(frame), 0.2, 0)
    features = frame.drop(columns="two_year_recid")
    model = logistic_regression(features.iloc[train], frame["two_year_recid"].iloc[train])
    schema = infer_schema(frame, label="two_year_recid", sensitive=["sex", "race"], favorable=0)
    started = time.perf_counter()
    result = mitigate_table(
        RowModel(model, [f.name for f in schema.features]),
        frame,
        schema,
        audit_config=AuditConfig(seed=0),
        config=MitigationConfig(method="aequitas", loop="aequitas"),
        run=Run("compas/logistic_regression"),
    )
    return {"model": "compas/logistic_regression", **summary(result, time.perf_counter() - started)}


TEXT_CASES = ("toxicity-cnn-lstm", "toxicity-tiny-transformer")
TABLE_CASES = ("compas", "adult", "german")


def compared(case: str, methods: str) -> dict:
    """One comparison of mitigation methods (see the module docstring)."""
    from textfair.mitigate.compare import compare_table_mitigations, compare_text_mitigations

    started = time.perf_counter()
    named = "all" if methods == "all" else methods.split(",")
    if case in TEXT_CASES:
        from textfair.corpus import load_corpus
        from textfair.models.spec import load_model

        corpus = load_corpus()
        comparison = compare_text_mitigations(
            load_model(case),
            corpus.texts,
            corpus.labels,
            favorable="non-toxic",
            methods=named,
            model_id=case,
        )
    else:
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
        from _tabular import DATASETS

        from textfair.mitigate.compare import comparison_split
        from textfair.models.baselines import logistic_regression
        from textfair.models.rows import RowModel
        from textfair.tabular.schema import infer_schema

        frame, label, favorable, sensitive = DATASETS[case]()
        frame[label] = frame[label].astype(str)
        schema = infer_schema(frame, label=label, sensitive=sensitive, favorable=str(favorable))
        columns = [f.name for f in schema.features]
        train = frame.iloc[comparison_split(len(frame), 0.2, 0.2, 0).train]
        model = RowModel(logistic_regression(train[columns], train[label]), columns)
        comparison = compare_table_mitigations(
            model, frame, schema, methods=named, model_id=f"{case} logistic regression"
        )
    report = comparison.to_dict()
    return {"case": case, "seconds": round(time.perf_counter() - started, 1), "report": report}


def _numbers(report: dict) -> dict:
    """The report without the seconds: what must be the same in a second run."""
    copy = json.loads(json.dumps(report, default=str))
    for outcome in [copy["baseline"], *copy["methods"]]:
        outcome.pop("seconds")
    return copy


def _row(outcome: dict) -> dict:
    from textfair.report.comparison import worst_target

    quality = outcome.get("quality") or {}
    worst = worst_target(outcome)
    return {
        "method": outcome["method"],
        "skipped": outcome.get("skipped") or None,
        "seconds": outcome["seconds"],
        "worst_target": outcome.get("worst_target"),
        "worst_target_ci": [round(v, 4) for v in worst[1]] if worst else None,
        "worst_spd": outcome.get("worst_spd"),
        **{name: quality.get(name) for name in ("accuracy", "f1_macro", "roc_auc")},
    }


def comparisons(cases: list[str], methods: str, twice: bool) -> list[dict]:
    results = []
    for case in cases:
        first = compared(case, methods)
        report = first["report"]
        entry = {
            "case": case,
            "seconds": first["seconds"],
            "split": report["split"],
            "targets": report["targets"],
            "methods": [_row(o) for o in [report["baseline"], *report["methods"]]],
            "pareto": report["pareto"],
        }
        if twice:
            second = compared(case, methods)["report"]
            entry["same_numbers_twice"] = _numbers(report) == _numbers(second)
        results.append(entry)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compas", type=Path, default=COMPAS)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", choices=["text", "table"], default=None)
    parser.add_argument("--methods", default=None, help="compare methods: all or a list")
    parser.add_argument(
        "--cases",
        default=",".join(TEXT_CASES + TABLE_CASES),
        help="with --methods: which models and data",
    )
    parser.add_argument("--twice", action="store_true", help="with --methods: run each again")
    args = parser.parse_args()
    if args.methods:
        out = {
            "benchmark": "mitigation_methods",
            "results": comparisons(args.cases.split(","), args.methods, args.twice),
            "python": platform.python_version(),
        }
        print(json.dumps(out) if args.json else json.dumps(out, indent=2))
        return
    results = []
    if args.only in (None, "table"):
        results.append(table(args.compas))
    if args.only in (None, "text"):
        results.append(text())
    out = {"benchmark": "mitigation", "results": results, "python": platform.python_version()}
    print(json.dumps(out) if args.json else json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
