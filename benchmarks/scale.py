"""The label-metric stage at scale: the local engine against Ray Data on 1 and 2 workers.

`python -m benchmarks.scale --json` builds labelled corpora of 100,000 and 1,000,000
comments from the bundled Wikipedia comments and their seeded identity-term counterfactuals
(benchmarks/corpus.py: a pool of distinct texts drawn with repeats), and runs, each in a
fresh process so that its peak memory is its own:

* ``local``: the audit's label-metric stage as `textfair audit` runs it: the corpus read
  into memory, every text matched (TextDomain), every distinct text scored once by the
  bundled CNN-LSTM through the cache, the subgroup/BPSN/BNSP AUCs;
* ``ray-1`` and ``ray-2``: the same metrics on a local Ray cluster with 1 and 2 CPUs
  (`label_metrics_on_ray`: sharded read, distributed dedup, matching and scoring on the
  workers, numbers per distinct text back to the driver).

Reported per run: seconds, rows/s, distinct texts/s, the driver's peak RSS and, for Ray, the
peak RSS of each model actor's worker. Ratios (Ray's driver at 1M over 100k; each engine's
time over the local one's) are of runs in this one invocation. The metrics of every run are
checked equal to the local engine's.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

OPTIONS = {
    "labels": None,
    "trust_remote_code": False,
    "batch_size": 64,
    "device": "cpu",
    "threads": None,
    "revision": None,
    "max_length": None,
}
LABEL_MAP = {"True": "toxic", "False": "non-toxic"}
MODEL = "toxicity-cnn-lstm"


def peak_rss_mb(pid: int | str = "self") -> float | None:
    """A process's peak resident memory (VmHWM), in MB. Not getrusage's ru_maxrss: Linux
    carries that across exec from the forked copy of the parent, so a child started by a
    parent holding a large corpus would report the parent's memory."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


class WorkerPeaks:
    """The peak memory of each model actor's worker, sampled while the pipeline runs (the
    actors are gone when it returns)."""

    def __init__(self) -> None:
        self.peaks: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            found = subprocess.run(
                ["pgrep", "-f", "ray::MapWorker"], capture_output=True, text=True
            ).stdout.split()
            for pid in found:
                peak = peak_rss_mb(pid)
                if peak is not None:
                    self.peaks[pid] = max(peak, self.peaks.get(pid, 0.0))

    def stop(self) -> list[float]:
        self._stop.set()
        self._thread.join()
        return sorted(self.peaks.values())


def run_one(engine: str, path: Path, workers: int) -> dict:
    """One configuration, in this process: its timing, memory and metrics."""
    from dataclasses import asdict

    started = time.perf_counter()
    if engine == "local":
        import pandas as pd

        from textfair.auditing.decision import model_decision
        from textfair.auditing.labels import label_metrics
        from textfair.models import CachedModel
        from textfair.models.spec import load_model
        from textfair.settings import AuditConfig
        from textfair.text.domain import TextDomain

        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        texts = frame["comment"].tolist()
        labels = [LABEL_MAP[value] for value in frame["toxic"]]
        model = CachedModel(load_model(MODEL), batch_size=16 * OPTIONS["batch_size"])
        domain = TextDomain(texts)
        metrics = label_metrics(
            domain, model, texts, labels, model_decision(model), "toxic", AuditConfig()
        )
        peaks = []
    else:
        import ray

        from textfair.distributed.label_metrics import label_metrics_on_ray

        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        sampler = WorkerPeaks()
        metrics = label_metrics_on_ray(
            MODEL,
            OPTIONS,
            path,
            text_column="comment",
            label_column="toxic",
            positive_label="toxic",
            label_map=LABEL_MAP,
        )
        peaks = sampler.stop()
        ray.shutdown()
    seconds = time.perf_counter() - started
    return {
        "engine": engine,
        "workers": workers,
        "seconds": round(seconds, 1),
        "driver_peak_rss_mb": peak_rss_mb(),
        "worker_peak_rss_mb": peaks,
        "metrics": json.loads(json.dumps(asdict(metrics), default=str)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--rows", default="100000,1000000", help="corpus sizes, comma-separated")
    parser.add_argument("--one", nargs=3, metavar=("ENGINE", "PATH", "WORKERS"), help="internal")
    args = parser.parse_args()
    if args.one:
        engine, path, workers = args.one
        print(json.dumps(run_one(engine, Path(path), int(workers))))
        return

    from benchmarks.corpus import build_corpus, text_pool

    pool = text_pool()
    results = []
    with tempfile.TemporaryDirectory() as directory:
        for rows in [int(n) for n in args.rows.split(",")]:
            path = Path(directory) / f"comments-{rows}.csv"
            corpus = build_corpus(rows, pool, seed=0)
            corpus.to_csv(path, index=False)
            distinct = corpus["comment"].nunique()
            del corpus
            for engine, workers in (("local", 1), ("ray", 1), ("ray", 2)):
                done = subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "benchmarks.scale",
                        "--one",
                        engine,
                        str(path),
                        str(workers),
                    ],
                    capture_output=True,
                    text=True,
                    check=False,
                )
                if done.returncode != 0:
                    raise SystemExit(done.stderr[-3000:])
                result = json.loads(done.stdout.strip().splitlines()[-1])
                result["rows"] = rows
                result["rows_per_second"] = round(rows / result["seconds"])
                result["distinct_texts"] = int(distinct)
                result["distinct_per_second"] = round(distinct / result["seconds"])
                results.append(result)
                if not args.json:
                    print(
                        f"{rows:>9,} rows  {engine}-{workers}: {result['seconds']} s, "
                        f"driver {result['driver_peak_rss_mb']} MB",
                        file=sys.stderr,
                    )
    report = summarise(results)
    print(json.dumps(report, indent=None if args.json else 2))


def summarise(results: list[dict]) -> dict:
    """Each run without its metrics (checked equal to the local run's), and the ratios."""
    by = {(r["engine"], r["workers"], r["rows"]): r for r in results}
    sizes = sorted({r["rows"] for r in results})
    for r in results:
        local = by[("local", 1, r["rows"])]
        r["metrics_equal_local"] = r["metrics"] == local["metrics"]
        r["seconds_over_local"] = round(r["seconds"] / local["seconds"], 2)
    runs = [{k: v for k, v in r.items() if k != "metrics"} for r in results]
    summary = {
        "benchmark": "scale",
        "model": MODEL,
        "stage": "label metrics: read, match, score each distinct text once, AUCs",
        "runs": runs,
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "python": platform.python_version(),
            "system": platform.system(),
        },
    }
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        for engine, workers in (("local", 1), ("ray", 2)):
            ratio = (
                by[(engine, workers, large)]["driver_peak_rss_mb"]
                / by[(engine, workers, small)]["driver_peak_rss_mb"]
            )
            summary[f"driver_peak_rss_ratio_{engine}_{workers}_{large}_over_{small}"] = round(
                ratio, 2
            )
    return summary


if __name__ == "__main__":
    main()
