"""Train logistic regression, random forest and the six-layer MLP on four tabular data sets,
and audit each with textfair's tabular audit.

    python examples/tabular_models.py [--out examples/out]

Data (shipped in examples/data/, see its README): UCI Adult (sex, race), ProPublica COMPAS
(sex, race; favourable: no recidivism within two years), Statlog German Credit (personal
status and sex, age; favourable: good credit), UCI Bank Marketing (age, marital).
Each model is trained on a seeded 80% and audited on the held-out 20%.
"""

import argparse
import json
import time
from pathlib import Path

from _tabular import DATASETS, OUT
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline

import textfair


def models(features, labels):
    yield "logistic_regression", textfair.logistic_regression(features, labels)
    forest = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1)
    forest = make_pipeline(textfair.tabular_encoder(features), forest)
    yield "random_forest", forest.fit(features, labels)
    yield "mlp", textfair.TabularMLP.train(features, labels, epochs=20, seed=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (examples/out)")
    args = parser.parse_args()
    summary = []
    for name, load in DATASETS.items():
        frame, label, favorable, sensitive = load()
        train, test = train_test_split(frame, test_size=0.2, random_state=0, stratify=frame[label])
        features = train.drop(columns=label)
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
            report = textfair.audit_table(
                model,
                test,
                label=label,
                sensitive=sensitive,
                favorable=favorable,
                model_id=f"{name}/{model_name}",
                max_order=2,
                seed=0,
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
