"""Tabular discovery on Adult with a logistic regression: Themis pruning and Aequitas speed.

Prints ``themis_tests_pruned`` and ``themis_tests_unpruned`` (causal tests over sex, race and
age run with Alg. 3's pruning, and the count without), and Aequitas's discriminatory inputs
per second over sex and race: fully
directed vs random, batched, and the batched implementation vs the same algorithm calling
the model one input at a time (target >= 10x), all measured in this run.
Run: ``python -m benchmarks.tabular --json``.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path

import pandas as pd

from textfair.discovery.themis import themis
from textfair.models import CachedModel
from textfair.models.baselines import logistic_regression
from textfair.models.rows import RowModel
from textfair.tabular.domain import TabularDomain
from textfair.tabular.schema import infer_schema
from textfair.tabular.search import aequitas_search

ADULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "tabular" / "adult.data"
COLUMNS = (
    "age workclass fnlwgt education education_num marital_status occupation relationship "
    "race sex capital_gain capital_loss hours_per_week native_country income"
).split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ADULT)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    frame = pd.read_csv(args.data, header=None, names=COLUMNS, skipinitialspace=True)
    features = frame.drop(columns="income")
    pipeline = logistic_regression(features, frame["income"])
    schema = infer_schema(frame, label="income", sensitive=["sex", "race", "age"])
    domain = TabularDomain(frame[[f.name for f in schema.features]], schema)
    model = RowModel(pipeline, domain.columns)
    favorable = model.labels.index(">50K")
    causal = themis(domain, CachedModel(model), favorable=favorable, threshold=0.05, seed=0)
    # Aequitas over sex and race (10 variants per input; with age's 10 bins it would be 100,
    # and the one-at-a-time baseline would take many minutes).
    schema = infer_schema(frame, label="income", sensitive=["sex", "race"])
    domain = TabularDomain(frame[[f.name for f in schema.features]], schema)
    searches = {}
    for name, strategy, batch, budgets in (
        ("fully_batched", "fully", 256, (1000, 4000)),
        ("random_batched", "random", 256, (1000, 4000)),
        ("fully_one_at_a_time", "fully", 1, (200, 300)),
    ):
        wrapped = CachedModel(model) if batch > 1 else model
        result = aequitas_search(
            domain,
            wrapped,
            favorable=favorable,
            strategy=strategy,
            global_budget=budgets[0],
            local_budget=budgets[1],
            batch_size=batch,
            seed=0,
        )
        searches[name] = {
            "found": result.found,
            "seconds": round(result.seconds, 3),
            "per_second": round(result.per_second, 1),
            "global_estimate": round(result.estimate.estimate, 4),
        }
    one = searches["fully_one_at_a_time"]["per_second"]
    result = {
        "benchmark": "tabular",
        "data": args.data.name,
        "rows": len(frame),
        "model": "logistic regression (one-hot + scaled)",
        "training_accuracy": round(float(pipeline.score(features, frame["income"])), 4),
        "themis_tests_pruned": causal.tests_run,
        "themis_tests_unpruned": causal.tests_without_pruning,
        "aequitas": searches,
        "fully_vs_random": round(
            searches["fully_batched"]["per_second"] / searches["random_batched"]["per_second"], 2
        ),
        "batched_vs_one_at_a_time": round(searches["fully_batched"]["per_second"] / one, 1)
        if one
        else None,
        "python": platform.python_version(),
    }
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
