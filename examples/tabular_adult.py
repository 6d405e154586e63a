"""Train a logistic regression on UCI Adult and write what `textfair tabular audit` needs.

    python examples/tabular_adult.py [--out examples/out]
    textfair tabular audit --model sklearn:examples/out/adult_lr.joblib \\
        --data examples/out/adult.csv --sensitive sex,race,age --label-column income \\
        --favorable '>50K'

The data (UCI Adult, Becker and Kohavi 1996, CC BY 4.0) ships in examples/data/adult.csv.gz.
"""

import argparse
from pathlib import Path

from _tabular import OUT, write_logistic_regression

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (examples/out)")
    write_logistic_regression("adult", parser.parse_args().out)
