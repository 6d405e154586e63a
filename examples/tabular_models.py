"""Train logistic regression, random forest and the six-layer MLP on four tabular data sets,
and audit each with textfair's tabular audit.

    python examples/tabular_models.py [--shared ../shared/data/tabular] [--out out/]

Data (the project's shared copies, not in the repository): UCI Adult (sex, race), ProPublica
COMPAS (sex, race; favourable: no recidivism within two years), Statlog German Credit
(personal status and sex, age; favourable: good credit), UCI Bank Marketing (age, marital).
Each model is trained on a seeded 80% and audited on the held-out 20%.
"""

import argparse
import json
import time
from pathlib import Path

import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline

from textfair.auditing import AuditConfig, audit_table
from textfair.tabular.baselines import encoder, logistic_regression
from textfair.tabular.mlp import TabularMLP
from textfair.tabular.models import RowModel
from textfair.tabular.schema import infer_schema

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "tabular"
ADULT_COLUMNS = (
    "age workclass fnlwgt education education_num marital_status occupation relationship "
    "race sex capital_gain capital_loss hours_per_week native_country income"
).split()


def adult(root: Path):
    frame = pd.read_csv(
        root / "adult.data", header=None, names=ADULT_COLUMNS, skipinitialspace=True
    )
    return frame, "income", ">50K", ["sex", "race"]


def compas(root: Path):
    frame = pd.read_csv(root / "compas-scores-two-years.csv")
    columns = [
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
    return frame[columns], "two_year_recid", 0, ["sex", "race"]


def german(root: Path):
    columns = [f"a{i}" for i in range(1, 21)] + ["credit"]
    frame = pd.read_csv(root / "german.data", sep=" ", header=None, names=columns)
    frame = frame.rename(columns={"a9": "personal_status_sex", "a13": "age"})
    return frame, "credit", 1, ["personal_status_sex", "age"]


def bank(root: Path):
    frame = pd.read_csv(root / "bank.csv", sep=";")
    return frame, "y", "yes", ["age", "marital"]


def models(features, labels):
    yield "logistic_regression", logistic_regression(features, labels)
    forest = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1)
    yield "random_forest", make_pipeline(encoder(features), forest).fit(features, labels)
    yield "mlp", TabularMLP.train(features, labels, epochs=20, seed=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "out")
    args = parser.parse_args()
    summary = []
    for name, load in (("adult", adult), ("compas", compas), ("german", german), ("bank", bank)):
        frame, label, favorable, sensitive = load(args.shared)
        train, test = train_test_split(frame, test_size=0.2, random_state=0, stratify=frame[label])
        features = train.drop(columns=label)
        schema = infer_schema(test, label=label, sensitive=sensitive, favorable=favorable)
        columns = [f.name for f in schema.features]
        for model_name, model in models(features, train[label]):
            accuracy = float(
                (
                    model.predict_proba(test.drop(columns=label)).argmax(axis=1)
                    == (
                        test[label].astype(str).to_numpy()[:, None] == model.classes_.astype(str)
                    ).argmax(axis=1)
                ).mean()
            )
            started = time.perf_counter()
            report = audit_table(
                RowModel(model, columns),
                test,
                schema,
                config=AuditConfig(max_order=2, seed=0),
                model_id=f"{name}/{model_name}",
            )
            out = args.out / f"{name}-{model_name}"
            out.mkdir(parents=True, exist_ok=True)
            (out / "report.json").write_text(json.dumps(report.to_dict(), indent=1))
            top = report.findings[0]
            summary.append(
                {
                    "data": name,
                    "model": model_name,
                    "test_accuracy": round(accuracy, 4),
                    "majority": round(float(test[label].value_counts(normalize=True).max()), 4),
                    "top_rule_set": report.label(top.rule_set),
                    "top_score": round(top.score, 3),
                    "significant_findings": len(report.significant),
                    "rule_sets": len(report.findings),
                    "audit_seconds": round(time.perf_counter() - started, 1),
                }
            )
            print(json.dumps(summary[-1]), flush=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1, default=str))


if __name__ == "__main__":
    main()
