"""The README's Python examples run as written, and print what the README says they print."""

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


@pytest.mark.parametrize("block", _python_blocks(), ids=lambda b: b.splitlines()[0][:40])
def test_readme_python_example_runs_as_written(block, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # What the example prints is the run of "# " lines that ends it.
    lines = block.splitlines()
    tail = len(lines)
    while tail and lines[tail - 1].startswith("# "):
        tail -= 1
    expected = [line[2:] for line in lines[tail:]]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(README), "exec"), {})
    assert printed.getvalue().splitlines() == expected


def test_the_readme_has_python_examples():
    assert _python_blocks(), "the README lost its Python examples"
