"""One user file read: a regular file (not a directory, FIFO or device), its text as UTF-8,
or a JSON file textfair wrote. One-line errors that say what the file is instead.

Apart from the corpus readers (textfair.io._tables) because term lists, schemas and saved
reports are read the same way.
"""

from __future__ import annotations

from pathlib import Path

from textfair.errors import TextfairError


def input_file(path: str | Path, expected: str) -> Path:
    """`path` as a file to read, or a one-line error saying what it is instead: missing, a
    directory, or not a regular file (a FIFO would block the run, a device reads forever or
    nothing)."""
    file = Path(path)
    if file.is_dir():
        raise TextfairError(f"{file} is a directory; pass {expected}")
    if not file.exists():
        raise TextfairError(f"{file}: no such file; pass {expected}")
    if not file.is_file():
        raise TextfairError(
            f"{file} is not a regular file (a FIFO, socket or device); pass {expected}"
        )
    return file


def read_utf8(path: Path) -> str:
    """A user's file as text; one-line error naming the first byte that is not UTF-8."""
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or _looks_like_utf16(raw):
        raise TextfairError(
            f"{path}: UTF-16 text (every other byte is zero); save the file as UTF-8"
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise TextfairError(
            f"{path}: not UTF-8 text (byte 0x{raw[err.start]:02x} at offset {err.start}); "
            "save the file as UTF-8"
        ) from None


def read_json(path: str | Path, expected: str) -> object:
    """A JSON file textfair wrote; one-line errors naming `expected` ("the report.json of an
    audit") when it is missing or not JSON."""
    import json

    file = input_file(path, expected)
    try:
        return json.loads(read_utf8(file))
    except ValueError as err:
        raise TextfairError(f"{file}: not JSON ({err}); pass {expected}") from None


def _looks_like_utf16(raw: bytes) -> bool:
    """UTF-16 without a byte-order mark: ASCII-range text leaves a zero in every other byte."""
    head = raw[:4096]
    if len(head) < 4:
        return False
    zeros = max(head[0::2].count(0), head[1::2].count(0))
    return zeros >= 0.4 * (len(head) // 2)
