"""Train a logistic regression on ProPublica's COMPAS data and write what
`textfair tabular mitigate` needs.

    python examples/tabular_compas.py [--out examples/out]
    textfair tabular mitigate --model sklearn:examples/out/compas_lr.joblib \\
        --data examples/out/compas.csv --sensitive sex,race --label-column two_year_recid \\
        --favorable 0 --out mitigated-compas/

The data (nine columns of ProPublica's compas-scores-two-years.csv, Angwin et al. 2016) ships
in examples/data/compas.csv.gz.
"""

import argparse
from pathlib import Path

from _tabular import OUT, write_logistic_regression

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (examples/out)")
    write_logistic_regression("compas", parser.parse_args().out)
