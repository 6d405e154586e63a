"""Train a logistic regression on UCI Adult and write what `textfair tabular audit` needs.

    python examples/tabular_adult.py [--data ../shared/data/tabular/adult.data] [--out out/]
    textfair tabular audit --model sklearn:out/adult_lr.joblib --data out/adult.csv \\
        --sensitive sex,race,age --label-column income --favorable '>50K'

Adult (Becker and Kohavi 1996, CC BY 4.0) is not copied into the repository (3.8 MB); the
script reads the project's shared copy by default.
"""

import argparse
from pathlib import Path

import joblib
import pandas as pd
from sklearn.model_selection import train_test_split

from textfair.tabular.baselines import logistic_regression

COLUMNS = (
    "age workclass fnlwgt education education_num marital_status occupation relationship "
    "race sex capital_gain capital_loss hours_per_week native_country income"
).split()
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "tabular" / "adult.data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "out")
    args = parser.parse_args()
    frame = pd.read_csv(args.data, header=None, names=COLUMNS, skipinitialspace=True)
    features, labels = frame.drop(columns="income"), frame["income"]
    train_x, test_x, train_y, test_y = train_test_split(
        features, labels, test_size=0.2, random_state=0, stratify=labels
    )
    pipeline = logistic_regression(train_x, train_y)
    print(
        f"test accuracy {pipeline.score(test_x, test_y):.4f} "
        f"(majority class {test_y.value_counts(normalize=True).max():.4f})"
    )
    args.out.mkdir(parents=True, exist_ok=True)
    joblib.dump(pipeline, args.out / "adult_lr.joblib")
    frame.to_csv(args.out / "adult.csv", index=False)
    print(f"wrote {args.out / 'adult_lr.joblib'} and {args.out / 'adult.csv'}")


if __name__ == "__main__":
    main()
