"""A complete run exits 0, every time. The progress thread of a run whose stderr is a log
was a daemon left to die with the interpreter; with torch loaded, Python's shutdown killing
it mid-wake aborted the process (exit 134, "terminate called without an active exception")
after the output was written, in about 4 of 10 runs of `textfair predict`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TEXTFAIR = Path(sys.executable).parent / "textfair"


@pytest.mark.slow
def test_predict_exits_0_in_each_of_ten_runs():
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    codes = [
        subprocess.run(
            [str(TEXTFAIR), "predict", "--text", "a gay man"],
            env=env,
            capture_output=True,
            timeout=120,
        ).returncode
        for _ in range(10)
    ]
    assert codes == [0] * 10
