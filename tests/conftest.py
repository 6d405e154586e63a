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
