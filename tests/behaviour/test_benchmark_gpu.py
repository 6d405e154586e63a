"""`benchmarks.gpu` runs where there is no GPU: a smoke test on the CPU, small (slow tier).

Small is `--tiny` (the same DistilBERT architecture at 1 layer, 64 hidden, 2 heads) as well
as 40 rows: the default audit's templated section does not shrink with the rows, and at
distilbert-base's shapes its model queries, scored twice (in the audit and alone), took 421 s
of the slow tier on a CPU. Every code path of the benchmark and every figure it prints are
the same at either size; what a DistilBERT costs is the device run's to measure.

Its figures on a GPU are recorded in docs/pages/benchmarks.md when a device was lent.
"""

import json
import subprocess
import sys

import pytest

from locations import ROOT


@pytest.mark.slow
def test_the_gpu_benchmark_runs_on_a_cpu_and_prints_its_figures():
    options = "--json --device cpu --rows 40 --max-length 32 --batch-size 32 --repeats 1 --tiny"
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.gpu", *options.split()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["device"] == "cpu" and result["rows"] == 40
    assert result["model"].startswith("tiny shapes")
    # The model alone scored exactly the distinct texts the audit asked about.
    assert result["model_queries"] == sum(s["model_queries"] for s in result["stages"].values())
    assert 0 < result["model_seconds_in_audit"] < result["seconds"]
    assert result["texts_per_second"] > 0 and result["overhead_ratio"] > 0
