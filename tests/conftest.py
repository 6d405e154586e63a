"""Shared test helpers."""

import os
from pathlib import Path

# Nothing is downloaded from a hub in tests: set before transformers is imported.
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pytest

DATA = Path(__file__).parent / "data"
PACKAGE_DATA = Path(__file__).resolve().parents[1] / "textfair" / "datasets"


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


def write_flat_model(directory: Path) -> None:
    """A module `models` with `flat`: every text 80% non-toxic, for `--model py:models:flat`
    (put `directory` on sys.path)."""
    (directory / "models.py").write_text(
        "import numpy as np\n"
        "def flat(texts):\n    return np.tile([0.8, 0.2], (len(texts), 1))\n"
        "flat.labels = ['non-toxic', 'toxic']\n"
    )
