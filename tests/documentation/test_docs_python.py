"""The documentation's Python examples (README.md and every page of the site) run as
written, and print what the page says they print."""

import contextlib
import io
import re

import pytest

from documents import documents, name, read

# A block preceded by `<!-- slow: why -->` runs in the slow tier (the fast one stays in minutes).
BLOCK = re.compile(r"(<!-- slow[^>]*-->\n)?```python\n(.*?)```", re.DOTALL)
BLOCKS = [
    (path, found[2], bool(found[1])) for path in documents() for found in BLOCK.finditer(read(path))
]


@pytest.mark.parametrize(
    ("path", "block"),
    [
        pytest.param(path, block, marks=[pytest.mark.slow] if slow else [])
        for path, block, slow in BLOCKS
    ],
    ids=[f"{name(p)}:{b.splitlines()[0][:40]}" for p, b, _ in BLOCKS],
)
def test_python_example_runs_as_written(path, block, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # What the example prints is the run of "# " lines that ends it.
    lines = block.splitlines()
    tail = len(lines)
    while tail and lines[tail - 1].startswith("# "):
        tail -= 1
    expected = [line[2:] for line in lines[tail:]]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, name(path), "exec"), {})
    assert printed.getvalue().splitlines() == expected


def test_the_docs_have_python_examples():
    pages = {name(path) for path, _, _ in BLOCKS}
    assert {"docs/pages/notebook.md", "docs/pages/mitigation.md"} <= pages, pages


def test_the_docs_use_only_the_public_api():
    from documents import public_api_violations

    found = {
        f"{name(path)}:{block.splitlines()[0][:40]}": public_api_violations(block)
        for path, block, _ in BLOCKS
    }
    assert {where: bad for where, bad in found.items() if bad} == {}
