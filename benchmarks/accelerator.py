"""The audit against a model as fast as an accelerator: is the model ever waiting for text?

`python -m benchmarks.accelerator --json [--baseline REV]` audits with a stand-in for a
model on a GPU: a Python function that, for each batch, releases the interpreter lock while
it "computes" (sleeps len(batch) / rate seconds) and uses no CPU. Its answers depend on the
text, as a real model's do (a probability of the unfavourable label spread over [0.05, 0.95]
by a hash of the text): identity swaps change decisions, so sequential stopping reads as
many seeds as on a real model (issue 58; a stand-in that answered the same for every text
let every rule set stop at once). Runs, each warm (the median of `--repeats` calls after a
first one in the same process):

* the default list (dixon2018) and `holistic`, on the bundled comments (1,492 texts) and on
  a 20k-text corpus: the bundled comments in 13 copies, copy k > 0 of a comment followed by
  " [k]" so that every text is distinct and the density of identity mentions is the
  comments' own;
* the stand-in at 2,000 and at 20,000 texts/s;
* with the comments' labels (the audit asks the model about the corpus while it reads it)
  and without (many corpora have none);
* a first audit (the corpus read, by the worker processes) and a re-audit: another model's
  audit of the same corpus, which finds the reading in a cache file (`--cache`) written by
  an earlier audit, in a process that read nothing (issue 58).

Reported per run: the audit's wall ``seconds``; the stand-in's ``model_seconds`` (the
distinct texts it was given at its rate) and ``model_seconds_measured`` (its sleeps, longer
where a call waited for the interpreter lock); ``ratio`` (audit over model); textfair's
own ``cpu_seconds`` (this process and its workers: the stand-in uses none) and
``cpu_us_per_distinct_text`` (over the distinct texts the model was given); ``cores_used``
(CPU seconds over wall seconds); ``textfair_seconds`` (the audit's seconds less the
model's: what the model waited); ``stages``, per stage of the audit its wall seconds and
the model's seconds charged to it. With ``--baseline REV`` the same runs are measured, in
this invocation, on a checkout of REV (a git worktree in a temporary folder, in a
subprocess), and ``cpu_per_text_vs_baseline`` gives each run's CPU per distinct text over
REV's. ``--quick``: the default list on the 20k corpus without labels only.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

from benchmarks.gpu import bundled_comments

COPIES = 13
RATES = (2_000, 20_000)
LISTS = ("dixon2018", "holistic")
ROOT = Path(__file__).resolve().parents[1]
#: Whether the textfair measured keeps readings (a --baseline revision may be older).
STORED = importlib.util.find_spec("textfair.text.reading_store") is not None


class Accelerator:
    """A model that answers `rate` texts a second without using the CPU (it sleeps, with the
    interpreter lock released), each text's answer its own: the unfavourable label's
    probability 0.05 + 0.9 · (CRC-32 of the text and `version` mod 1000) / 1000. Another
    `version` is another model: other answers on the same texts."""

    labels = ("non-toxic", "toxic")

    def __init__(self, rate: float, version: int = 0) -> None:
        self.rate = rate
        self.salt = f"{version}:".encode()
        self.seconds = 0.0

    def predict_proba(self, texts: list[str]) -> np.ndarray:
        started = time.perf_counter()
        time.sleep(len(texts) / self.rate)
        self.seconds += time.perf_counter() - started
        hashed = [zlib.crc32(self.salt + text.encode("utf-8", "surrogatepass")) for text in texts]
        toxic = 0.05 + 0.9 * (np.asarray(hashed, dtype=np.int64) % 1000) / 1000
        return np.stack([1 - toxic, toxic], axis=1)


def copies(texts: list[str], labels: list[str], count: int) -> tuple[list[str], list[str]]:
    """`count` copies of the corpus, each text of copy k > 0 followed by " [k]"."""
    return (
        [text if k == 0 else f"{text} [{k}]" for k in range(count) for text in texts],
        labels * count,
    )


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def one_audit(texts, labels, terms: str, rate: float, cache: Path | None, version: int) -> dict:
    """One warm audit with the stand-in at `rate` (model `version`): its times and costs.
    With `cache`, the corpus's reading is looked for there (a re-audit), in a process that
    has read nothing; without, the corpus is read."""
    from textfair.auditing.text import audit_text
    from textfair.models import CachedModel
    from textfair.settings import AuditConfig

    if STORED:
        from textfair.text.reading_store import forget_readings

        forget_readings()
    model = Accelerator(rate, version)
    cached = CachedModel(model, batch_size=256)
    cpu, started = cpu_seconds(), time.perf_counter()
    report = audit_text(
        cached,
        texts,
        favorable="non-toxic",
        labels=labels,
        config=AuditConfig(terms=terms),
        model_id="accelerator",
        **({"store": _store(cache)} if cache is not None else {}),
    )
    seconds = time.perf_counter() - started
    used = cpu_seconds() - cpu
    distinct = cached.stats.forwarded
    return {
        "seconds": seconds,
        # The stand-in's own time: its texts at its rate. Its sleeps, measured, are longer
        # when a call waits for the interpreter lock after it (textfair's cost, not its).
        "model_seconds": cached.stats.forwarded / rate,
        "model_seconds_measured": model.seconds,
        "cpu_seconds": used,
        "distinct_texts": distinct,
        "reading": getattr(report.run, "reading", ""),
        "stages": stage_seconds(cached.stats.stages),
    }


def _store(cache: Path) -> object:
    from textfair.text.reading_store import ReadingStore

    return ReadingStore(cache)


def stage_seconds(stages: dict) -> dict[str, dict[str, float]]:
    """Per stage, its wall seconds and the model's seconds charged to it. The model's may
    exceed the wall's: the corpus's texts are scored (under "label metrics") while the
    corpus is read (under "matching"), and the placebo edits inside the causal stage."""
    return {
        name: {"seconds": cost.seconds, "model_seconds": cost.model_seconds}
        for name, cost in stages.items()
    }


def measure(
    texts, labels, terms: str, rate: float, repeats: int, cache: Path | None = None
) -> dict:
    """The median of `repeats` warm audits (after one that is not counted, which also
    stores the reading in `cache`): first audits without `cache`, re-audits with it, each
    of another model (its version)."""
    one_audit(texts, labels, terms, rate, cache, 0)
    runs = [one_audit(texts, labels, terms, rate, cache, k) for k in range(1, repeats + 1)]

    def median(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    seconds, model, cpu = median("seconds"), median("model_seconds"), median("cpu_seconds")
    measured = median("model_seconds_measured")
    distinct = runs[0]["distinct_texts"]
    return {
        "rows": len(texts),
        "distinct_texts": distinct,
        "reading": runs[-1]["reading"],
        "seconds": round(seconds, 3),
        "model_seconds": round(model, 3),
        "model_seconds_measured": round(measured, 3),
        "ratio": round(statistics.median(r["seconds"] / r["model_seconds"] for r in runs), 3),
        "cpu_seconds": round(cpu, 3),
        "cpu_us_per_distinct_text": round(1e6 * cpu / distinct, 1),
        "cores_used": round(cpu / seconds, 2),
        # On the clock, outside the model: the audit's seconds less the model's.
        "textfair_seconds": round(
            statistics.median(r["seconds"] - r["model_seconds"] for r in runs), 3
        ),
        "stages": {
            name: {
                key: round(statistics.median(r["stages"][name][key] for r in runs), 3)
                for key in ("seconds", "model_seconds")
            }
            for name in runs[0]["stages"]
        },
    }


def runs(repeats: int, quick: bool) -> dict:
    """Every run: list × corpus × rate × labels or none × first audit or re-audit (`quick`:
    the default list on the 20k corpus without labels)."""
    texts, labels = bundled_comments(None)
    corpora = {"20k": copies(texts, labels, COPIES)}
    if not quick:
        corpora = {"comments": (texts, labels), **corpora}
    measured = {}
    with tempfile.TemporaryDirectory() as folder:
        for terms in LISTS[:1] if quick else LISTS:
            for corpus, (rows, truths) in corpora.items():
                for with_labels in (False,) if quick else (True, False):
                    given = truths if with_labels else None
                    cache = Path(folder) / f"{terms}-{corpus}.sqlite"
                    for rate in RATES:
                        labelled = "labels" if with_labels else "no-labels"
                        name = f"{terms}/{corpus}/{rate}/{labelled}"
                        measured[f"{name}/first"] = measure(rows, given, terms, rate, repeats)
                        if STORED:  # a --baseline revision before issue 58 has none
                            measured[f"{name}/reaudit"] = measure(
                                rows, given, terms, rate, repeats, cache
                            )
    return measured


def baseline(revision: str, repeats: int, quick: bool) -> dict:
    """The same runs on a checkout of `revision`, in a subprocess."""
    with tempfile.TemporaryDirectory() as folder:
        checkout = Path(folder) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(checkout), revision],
            check=True,
            capture_output=True,
        )
        try:
            command = [sys.executable, "-c", _BASELINE, __file__, str(repeats), str(quick)]
            environment = {**os.environ, "PYTHONPATH": str(checkout)}
            done = subprocess.run(
                command, cwd=checkout, env=environment, check=True, capture_output=True, text=True
            )
            return json.loads(done.stdout)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(checkout)],
                check=False,
                capture_output=True,
            )


# This file, run against the baseline's textfair (the checkout is the only path added).
_BASELINE = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("accelerator", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(module.runs(int(sys.argv[2]), sys.argv[3] == "True")))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeats", type=int, default=3, help="medians over warm runs")
    parser.add_argument("--baseline", default=None, help="a git revision to measure beside")
    parser.add_argument("--quick", action="store_true", help="the default list, comments only")
    args = parser.parse_args()
    from textfair.workers import default_workers

    result: dict = {
        "benchmark": "accelerator",
        "cores": os.cpu_count(),
        "workers": default_workers(),
        "runs": runs(args.repeats, args.quick),
    }
    if args.baseline:
        before = baseline(args.baseline, args.repeats, args.quick)
        result["baseline"] = {"revision": args.baseline, "runs": before}
        result["cpu_per_text_vs_baseline"] = {
            name: round(
                run["cpu_us_per_distinct_text"] / before[name]["cpu_us_per_distinct_text"], 3
            )
            for name, run in result["runs"].items()
            if name in before
        }
    result["python"] = platform.python_version()
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
