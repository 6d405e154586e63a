"""Forward throughput of the bundled models, CachedModel's overhead, and length sorting.

For each bundled model, on the unique Wikipedia comments: texts per second through the raw
adapter, ``cache_overhead`` = time through CachedModel / raw time (target <= 1.05), and for
the transformer the speedup of length-sorted batches over unsorted ones. Raw and cached runs
are interleaved and repeated; each figure is the median of its repeats, so a ratio compares
runs taken at the same moment. Run: ``python -m benchmarks.models --json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import statistics
import time
from pathlib import Path

from textfair.models import CachedModel
from textfair.models.spec import bundled_models, load_model

DEFAULT_DATA = Path(__file__).resolve().parents[1] / "textfair" / "datasets" / "wiki_toxicity.csv"


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(
    name: str, texts: list[str], repeats: int, batch_size: int, device: str = "cpu"
) -> dict:
    model = load_model(name, batch_size=batch_size, device=device)
    model.predict_proba(texts[:batch_size])  # warm-up: lazy imports, allocator
    raw, cached = [], []
    for _ in range(repeats):
        raw.append(_seconds(lambda: model.predict_proba(texts)))
        cached.append(_seconds(lambda: CachedModel(model).predict_proba(texts)))
    result = {
        "model": name,
        "adapter": type(model).__name__,
        "texts": len(texts),
        "texts_per_second": round(len(texts) / statistics.median(raw), 1),
        "cache_overhead": round(statistics.median(cached) / statistics.median(raw), 4),
    }
    if hasattr(model, "sort_by_length"):
        unsorted = []
        for _ in range(repeats):
            model.sort_by_length = False
            unsorted.append(_seconds(lambda: model.predict_proba(texts)))
            model.sort_by_length = True
        result["length_sorting_speedup"] = round(
            statistics.median(unsorted) / statistics.median(raw), 3
        )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument(
        "--device", default="cpu", help="cpu, cuda, cuda:N or mps: a GPU's texts/s per model"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with open(args.data, encoding="utf-8", newline="") as handle:
        texts = list(dict.fromkeys(row["comment"] for row in csv.DictReader(handle)))
    import torch

    result = {
        "benchmark": "models",
        "data": args.data.name,
        "device": args.device,
        "torch_threads": torch.get_num_threads(),
        "batch_size": args.batch_size,
        "models": [
            measure(name, texts, args.repeats, args.batch_size, args.device)
            for name in bundled_models()
        ],
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
