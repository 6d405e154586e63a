"""Shared by the tabular examples: the four data sets shipped in examples/data/, and where the
examples write (examples/out/, never the package)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

DATA = Path(__file__).parent / "data"
OUT = Path(__file__).parent / "out"


def adult() -> tuple[pd.DataFrame, str, str, list[str]]:
    """UCI Adult (Becker and Kohavi 1996, CC BY 4.0): 32,561 rows; favourable: >50K."""
    return pd.read_csv(DATA / "adult.csv.gz"), "income", ">50K", ["sex", "race"]


def compas() -> tuple[pd.DataFrame, str, int, list[str]]:
    """ProPublica's COMPAS two-year recidivism data (Angwin et al. 2016), nine columns of
    7,214 rows; favourable: no recidivism within two years (0)."""
    return pd.read_csv(DATA / "compas.csv.gz"), "two_year_recid", 0, ["sex", "race"]


def german() -> tuple[pd.DataFrame, str, int, list[str]]:
    """Statlog German Credit (Hofmann 1994, CC BY 4.0): 1,000 rows; favourable: good (1)."""
    frame = pd.read_csv(DATA / "german.csv.gz")
    return frame, "credit", 1, ["personal_status_sex", "age"]


def bank() -> tuple[pd.DataFrame, str, str, list[str]]:
    """UCI Bank Marketing, 10% sample (Moro et al. 2014, CC BY 4.0): 4,521 rows; favourable:
    subscribed (yes)."""
    return pd.read_csv(DATA / "bank.csv.gz"), "y", "yes", ["age", "marital"]


DATASETS = {"adult": adult, "compas": compas, "german": german, "bank": bank}


def write_logistic_regression(name: str, out: Path = OUT) -> tuple[Path, Path]:
    """Train a logistic regression on a seeded 80% of a data set, print its test accuracy, and
    write the model (joblib) and the whole table (CSV) that `textfair tabular` commands read.

    The split is `textfair mitigate`'s default (--holdout 0.2 --seed 0), so a mitigation of
    this model measures held-out accuracy on rows it never trained on."""
    import joblib

    from textfair import holdout_split, logistic_regression

    frame, label, _, _ = DATASETS[name]()
    features, labels = frame.drop(columns=label), frame[label]
    train, test = holdout_split(len(frame), 0.2, 0)
    train_x, test_x = features.iloc[train], features.iloc[test]
    train_y, test_y = labels.iloc[train], labels.iloc[test]
    pipeline = logistic_regression(train_x, train_y)
    print(
        f"{name}: test accuracy {pipeline.score(test_x, test_y):.4f} "
        f"(majority class {test_y.value_counts(normalize=True).max():.4f})"
    )
    out.mkdir(parents=True, exist_ok=True)
    model, table = out / f"{name}_lr.joblib", out / f"{name}.csv"
    joblib.dump(pipeline, model)
    frame.to_csv(table, index=False)
    print(f"wrote {model} and {table}")
    return model, table
