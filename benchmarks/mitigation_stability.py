"""Does the README's mitigation claim hold on another CPU? The README's `textfair mitigate`
run once per instruction-set level, each in its own process: this CPU's own, and the
kernels an AVX2 or an SSE4.2 processor would run.

Retraining a network from scratch is chaotic: kernels of another vector width add floats in
another order, the last bits differ, and after a few epochs the model does too (a mitigation
that halved its top finding on one machine of the same kind did not on another). Capping
the level of each library torch computes with is the nearest this machine comes to another
CPU: MKL (`MKL_ENABLE_INSTRUCTIONS`, its matrix products), oneDNN (`ONEDNN_MAX_CPU_ISA`, its
convolutions and LSTMs) and ATen (`ATEN_CPU_CAPABILITY`, the rest); ATen's alone changes no
bit of the CNN-LSTM's training, MKL's and oneDNN's do (checked: another weight hash after two
epochs). For each level: the top finding before and after, its reduction, whether it halved
within the accuracy budget, the steps run and the kept one, held-out accuracy, seconds.
Run: ``python -m benchmarks.mitigation_stability --json`` (about 8 minutes a level on 2
cores).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LEVELS = {
    "native": {},
    "avx2": {
        "MKL_ENABLE_INSTRUCTIONS": "AVX2",
        "ONEDNN_MAX_CPU_ISA": "AVX2",
        "ATEN_CPU_CAPABILITY": "avx2",
    },
    "sse4.2": {
        "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
        "ONEDNN_MAX_CPU_ISA": "SSE41",
        "ATEN_CPU_CAPABILITY": "default",
    },
}


def run(level: str, work: Path) -> dict:
    out = work / f"mitigated-{level}"
    env = {**os.environ, **LEVELS[level], "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-m", "textfair", "mitigate", "--out", str(out)]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        return {"level": level, "exit": done.returncode, "error": done.stderr[-500:]}
    report = json.loads((out / "mitigation.json").read_text(encoding="utf-8"))
    top = report["comparison"][0]
    held = report["held_out"]
    return {
        "level": level,
        "top_rule_set": top["rule_set"],
        "top_before_points": round(100 * top["before"]["score"], 1),
        "top_after_points": round(100 * top["after"]["score"], 1),
        "top_reduction": round(top["reduction"], 3),
        "top_target_halved": report["top_target_halved"],
        "steps": [
            {
                "added": s["added"],
                "worst_target_points": round(100 * s["worst_target_score"], 1),
                "held_out_accuracy": round(s["held_out_accuracy"], 4),
                "kept": s["kept"],
            }
            for s in report["steps"]
        ],
        "held_out_accuracy": [held["before"]["accuracy"], held["after"]["accuracy"]],
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    parser.add_argument(
        "--levels", default=",".join(LEVELS), help=f"Comma-separated, of: {', '.join(LEVELS)}."
    )
    args = parser.parse_args()
    import torch

    with tempfile.TemporaryDirectory() as scratch:
        runs = [run(level, Path(scratch)) for level in args.levels.split(",")]
    result = {
        "benchmark": "mitigation_stability",
        "command": "textfair mitigate --out DIR (the README's)",
        "native_aten_capability": torch.backends.cpu.get_cpu_capability(),
        "runs": runs,
        "halved_everywhere": all(r.get("top_target_halved") for r in runs),
        "machine": {"cpu": platform.processor() or platform.machine(), "python": sys.version},
    }
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
