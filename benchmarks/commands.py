"""Wall-clock time of the README's headline commands, as a user runs them: the `textfair`
console script in a fresh process (start-up, imports, loading the model and data included).

Each command runs `--repeats` times, one after another; the median is the figure the README
states, with the machine it was measured on (CPU model, usable cores, Python). The tabular
audit reads the Adult table that `examples/tabular_adult.py` writes (made here in a temporary
directory first). Run: ``python -m benchmarks.commands --json [--only audit,tabular-audit]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS = {
    "audit": ["textfair", "audit"],
    "audit-holistic": ["textfair", "audit", "--terms", "holistic"],
    "tabular-audit": [
        "textfair",
        "tabular",
        "audit",
        "--model",
        "sklearn:{work}/adult_lr.joblib",
        "--data",
        "{work}/adult.csv",
        "--sensitive",
        "sex,race,age",
        "--label-column",
        "income",
        "--favorable",
        ">50K",
    ],
    "mitigate": ["textfair", "mitigate", "--out", "{work}/mitigated-{repeat}"],
}


def machine() -> dict:
    """What the figures were measured on."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "python": platform.python_version(),
        "system": platform.system(),
    }


def timed(command: list[str], env: dict) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: a finding above --fail-above, still a full run
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-500:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each command")
    parser.add_argument(
        "--only", default=",".join(COMMANDS), help=f"comma-separated of: {', '.join(COMMANDS)}"
    )
    args = parser.parse_args()
    names = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(names) - set(COMMANDS))
    if unknown:
        parser.error(f"unknown command {unknown}; choose from {', '.join(COMMANDS)}")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    results: dict = {}
    with tempfile.TemporaryDirectory() as work:
        if "tabular-audit" in names:
            subprocess.run(
                [sys.executable, str(ROOT / "examples" / "tabular_adult.py"), "--out", work],
                check=True,
                capture_output=True,
            )
        for name in names:
            runs = [
                timed([part.format(work=work, repeat=i) for part in COMMANDS[name]], env)
                for i in range(args.repeats)
            ]
            results[name] = {
                "command": " ".join(COMMANDS[name]).replace("{work}/", "").replace("-{repeat}", ""),
                "median_seconds": round(statistics.median(runs), 1),
                "runs_seconds": [round(s, 1) for s in runs],
            }
    output = {"benchmark": "commands", "repeats": args.repeats, **results, "machine": machine()}
    if args.json:
        print(json.dumps(output))
    else:
        for name, result in results.items():
            print(f"{name}: median {result['median_seconds']} s of {result['runs_seconds']}")


if __name__ == "__main__":
    main()
