"""Shared test helpers."""

import math
import os
import sys
from pathlib import Path

# Nothing is downloaded from a hub in tests: set before transformers is imported.
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pytest

# Compiled modules are kept even where PYTHONDONTWRITEBYTECODE is set (as on this project's
# machines): without them each of the two workers compiles textfair and rewrites every test
# module's asserts again, 21 s of collection instead of 14, and each command a test starts
# compiles textfair again. The bytecode goes to __pycache__ folders, which git ignores.
sys.dont_write_bytecode = False

DATA = Path(__file__).parent / "data"
PACKAGE_DATA = Path(__file__).resolve().parents[1] / "textfair" / "datasets"


def bundled_comments() -> tuple[list[str], list[str]]:
    """The bundled Wikipedia comments and their labels ("toxic", "non-toxic")."""
    from benchmarks.gpu import bundled_comments as read

    return read(None)


@pytest.fixture
def write(tmp_path):
    """Write text (or bytes) to a file in a temporary directory and return its path."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write


def one_line_error(call, *args, **kwargs):
    """The TextfairError `call(*args, **kwargs)` raises, checked to be one line (every user
    mistake is said in one line)."""
    from textfair.errors import TextfairError

    with pytest.raises(TextfairError) as raised:
        call(*args, **kwargs)
    assert "\n" not in str(raised.value)
    return raised.value


def runs_in_a_fresh_interpreter(code: str) -> None:
    """`code` runs to its end in a new Python process (what it imports is its own, not this
    test session's); its stderr is the failure's message."""
    import subprocess

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def write_flat_model(directory: Path) -> None:
    """A module `models` with `flat`: every text 80% non-toxic, for `--model py:models:flat`
    (put `directory` on sys.path)."""
    (directory / "models.py").write_text(
        "import numpy as np\n"
        "def flat(texts):\n    return np.tile([0.8, 0.2], (len(texts), 1))\n"
        "flat.labels = ['non-toxic', 'toxic']\n"
    )


def report_differences(expected, found, path: str = "report", tolerance: float = 1e-6) -> list[str]:
    """Where two report records differ: "PATH: EXPECTED != FOUND" lines, numbers equal to
    `tolerance` (a float32 model's answer moves in the 7th digit with what it is batched
    with: the local and Ray engines, or gathered calls, batch differently), lists compared in
    order, everything else exactly."""
    if isinstance(expected, float) or isinstance(found, float):
        both = isinstance(expected, (int, float)) and isinstance(found, (int, float))
        if both and math.isclose(expected, found, rel_tol=0.0, abs_tol=tolerance):
            return []
        return [f"{path}: {expected!r} != {found!r}"]
    if isinstance(expected, dict) and isinstance(found, dict):
        return [
            line
            for key in sorted(expected.keys() | found.keys())
            for line in report_differences(
                expected.get(key), found.get(key), f"{path}.{key}", tolerance
            )
        ]
    if isinstance(expected, list) and isinstance(found, list):
        if len(expected) != len(found):
            return [f"{path}: {len(expected)} items != {len(found)}"]
        return [
            line
            for k, (a, b) in enumerate(zip(expected, found, strict=True))
            for line in report_differences(a, b, f"{path}[{k}]", tolerance)
        ]
    return [] if expected == found else [f"{path}: {expected!r} != {found!r}"]


@pytest.fixture(scope="session")
def bundled_gender_religion_report():
    """The bundled model's audit of the bundled comments on gender and religion, seed 0:
    one audit shared by the tests that read its views (terminal, flipped pairs)."""
    import textfair

    return textfair.audit("toxicity-cnn-lstm", categories=["gender", "religion"], seed=0)
