"""Reading user corpora and writing outputs safely.

Outputs are written to a temporary file (or directory) beside the target and put in its place
in one step, so a crash or Ctrl-C never leaves a half-written file, or a mix of an old and a
new report set, where a finished one is expected.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

from textfair.errors import TextfairError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "atomic_directory",
    "atomic_writer",
    "check_output_directory",
    "read_table",
    "read_texts",
    "read_utf8",
]

_READERS = {
    ".csv": ",",
    ".tsv": "\t",
    ".txt": None,
    ".jsonl": "jsonl",
    ".json": "jsonl",
    ".parquet": "parquet",
}


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back: there is no getter)."""
    umask = os.umask(0)
    os.umask(umask)
    return umask


def refuse_overwriting_inputs(
    out: str | Path | None, writes: list[str] | None, inputs: list[str | Path | None]
) -> None:
    """Stop before any work when writing `out` would replace or delete an input of the run.

    `writes` names what an output directory receives (report.json, model, ...); None means
    `out` is itself the file written. An input is a path or a model spec ("sklearn:m.joblib",
    "textfair:dir"); it is endangered when it is one of the written paths or lies inside one
    (a model directory that is replaced as a whole)."""
    if out is None:
        return
    base = Path(out).resolve()
    written = [base] if writes is None else [base / name for name in writes]
    for item in inputs:
        path = _input_path(item)
        if path is None:
            continue
        for target in written:
            if path == target or target in path.parents:
                raise TextfairError(
                    f"--out {out} would overwrite {item}, an input of this run; choose another "
                    "output path"
                )


def _input_path(item: str | Path | None) -> Path | None:
    """The file or directory an input names, resolved; None for bundled names and py: specs."""
    if item is None:
        return None
    text = str(item)
    kind, sep, rest = text.partition(":")
    if sep and kind in ("sklearn", "textfair", "hf"):
        text = rest
    elif sep and kind == "py":
        return None
    path = Path(text)
    return path.resolve() if path.exists() else None


@contextlib.contextmanager
def atomic_writer(path: str | Path, binary: bool = False) -> Iterator[IO]:
    """Open a temporary file beside `path` for writing; rename it to `path` on success."""
    target = Path(path)
    if target.is_dir():
        raise TextfairError(f"{target}: is a directory; pass a file path for the output")
    if not target.parent.exists():
        raise TextfairError(
            f"{target}: directory {target.parent} does not exist; create it or choose another path"
        )
    _remove_leftovers(target)
    fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(target), dir=target.parent)
    try:
        handle = (
            os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        )
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~current_umask())  # mkstemp makes 0600; outputs are ordinary
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_directory(path: str | Path) -> Iterator[Path]:
    """A staging directory beside `path`, with ordinary permissions, to fill; on success it
    takes the place of `path` in one step, on failure (or Ctrl-C) it is removed.

    An existing `path` is swapped with the staging directory by one `renameat2` exchange
    (Linux), so at every instant `path` holds either the complete old directory or the
    complete new one; then the old one is deleted. Where the exchange is not available the
    old directory is first renamed aside (a moment with no `path`, never a mix). What a
    killed process leaves beside `path` is removed by the next write to it.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(target)
    staging = Path(tempfile.mkdtemp(prefix=_temporary_prefix(target), dir=target.parent))
    umask = current_umask()
    staging.chmod(0o777 & ~umask)  # mkdtemp makes 0700; a saved model is an ordinary dir
    try:
        yield staging
        for file in staging.rglob("*"):
            if file.is_file():
                file.chmod(0o666 & ~umask)
        _fsync_tree(staging)
        if not target.exists():
            os.rename(staging, target)
        elif _exchange(staging, target):
            shutil.rmtree(staging)  # now the old directory
        else:
            aside = Path(tempfile.mkdtemp(prefix=_temporary_prefix(target), dir=target.parent))
            os.rename(target, aside / "old")
            os.rename(staging, target)
            shutil.rmtree(aside)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _temporary_prefix(target: Path) -> str:
    """Temporary names beside `target` say whose they are: `.<name>.tmp-<pid>-`."""
    return f".{target.name}.tmp-{os.getpid()}-"


def _remove_leftovers(target: Path) -> None:
    """Remove the temporary files and directories that a killed run left beside `target`
    (their process is gone); those of a live process are left alone."""
    prefix = f".{target.name}.tmp-"
    with contextlib.suppress(OSError):
        for entry in target.parent.iterdir():
            if not entry.name.startswith(prefix):
                continue
            pid = entry.name[len(prefix) :].partition("-")[0]
            if pid.isdigit() and not _alive(int(pid)):
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _fsync_tree(root: Path) -> None:
    """Flush a staged directory's files to disk before it replaces the old one, so the
    exchange never publishes files whose data is still only in memory."""
    for file in root.rglob("*"):
        if file.is_file():
            fd = os.open(file, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically with Linux's renameat2(RENAME_EXCHANGE); False where the
    system or the file system does not offer it."""
    import ctypes
    import errno

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def check_output_directory(out: str | Path | None, owned: list[str], overwrite: bool) -> None:
    """Before any work: `out` must be a directory textfair may fill and replace as a whole.

    A new or empty directory is fine. One that holds an earlier run's files (`owned`, e.g.
    report.json) is replaced only with `overwrite`; one that holds anything else is refused
    even then, because replacing the directory would delete it. Its parent must be
    writable (the new set is staged beside it).
    """
    if out is None:
        return
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise TextfairError.bad(
            "out", f"{out} is a file; expected a directory for the output; choose another path"
        )
    if path.is_dir():
        entries = sorted(e.name for e in path.iterdir())
        foreign = [name for name in entries if name not in owned]
        if foreign:
            shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise TextfairError.bad(
                "out",
                f"{out} holds files textfair did not write ({shown}); the output directory "
                "is replaced as a whole, so give a new or empty directory",
            )
        if entries and not overwrite:
            raise TextfairError.bad(
                "out",
                f"{out} holds the output of an earlier run; replace it with --overwrite "
                "(overwrite=True in Python) or choose another directory",
            )
    parent = path.resolve().parent
    while not parent.exists():
        parent = parent.parent
    if not os.access(parent, os.W_OK | os.X_OK):
        raise TextfairError.bad(
            "out", f"{out}: cannot write in {parent}; choose a directory you may write to"
        )


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

    file = Path(path)
    if not file.is_file():
        raise TextfairError(f"{file}: no such file; pass {expected}")
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


def read_table(path: str | Path) -> pd.DataFrame:
    """A CSV, TSV, JSON-lines or Parquet table with a header row; one-line errors."""
    source = Path(path)
    if not source.is_file():
        raise TextfairError(f"{source}: no such file; pass the path of a CSV, TSV or JSONL file")
    suffix = source.suffix.lower()
    if suffix not in _READERS or suffix == ".txt":
        raise TextfairError(
            f"{source}: unknown format {suffix or '(no extension)'!r}; "
            "expected .csv, .tsv, .jsonl or .parquet"
        )
    if suffix == ".parquet":
        return _read_parquet(source)
    return _parse(read_utf8(source), _READERS[suffix], source)


def read_texts(path: str | Path, text_column: str | None) -> pd.DataFrame:
    """Read a CSV, TSV, JSON-lines or plain-text corpus and check its text column.

    A .txt file has one text per line and its column is called "text". Raises
    :class:`TextfairError` for a missing file, an unknown format, non-UTF-8 bytes, a missing
    column or a column with no text.
    """

    source = Path(path)
    if not source.is_file():
        raise TextfairError(f"{source}: no such file; pass the path of a CSV, TSV or JSONL file")
    suffix = source.suffix.lower()
    if suffix not in _READERS:
        raise TextfairError(
            f"{source}: unknown format {suffix or '(no extension)'!r}; "
            "expected .csv, .tsv, .jsonl, .parquet or .txt"
        )
    if suffix == ".parquet":
        frame = _read_parquet(source)
    else:
        frame = _parse(read_utf8(source), _READERS[suffix], source)
    if suffix == ".txt":
        text_column = text_column or "text"
    return with_text_column(frame, text_column, str(source))


def with_text_column(frame: pd.DataFrame, text_column: str | None, source: str) -> pd.DataFrame:
    """`frame` with its text column checked and made strings (missing values become "").

    One-line errors for no column named, a missing column, or a column with no text."""
    columns = ", ".join(map(str, frame.columns))
    if not text_column:
        raise TextfairError(f"{source}: no text column given; choose one of: {columns}")
    if text_column not in frame.columns:
        raise TextfairError(
            f"{source}: no column {text_column!r}; columns are: {columns}; name the text column"
        )
    column = frame[text_column]
    if column.isna().all() or not column.astype(str).str.strip().astype(bool).any():
        raise TextfairError(
            f"{source}: column {text_column!r} has no text in any of its {len(frame)} rows; "
            "pick the column that holds the texts"
        )
    frame = frame.copy()
    frame[text_column] = column.fillna("").astype(str)
    return frame


def _read_parquet(source: Path) -> pd.DataFrame:
    import pandas as pd

    try:
        return pd.read_parquet(source)
    except ImportError:
        raise TextfairError(
            f"{source}: reading Parquet needs pyarrow; pip install 'textfair[parquet]'"
        ) from None
    except (OSError, ValueError) as err:
        raise TextfairError(f"{source}: not a readable Parquet file ({err})") from None


def _refuse_duplicate_columns(text: str, separator: str, source: Path) -> None:
    """pandas renames a repeated column ("comment", "comment.1"): the user would then be
    told their column does not exist. Say what is wrong instead."""
    import csv

    header = next(csv.reader(text.splitlines()[:1], delimiter=separator), [])
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise TextfairError(
            f"{source}: duplicate column name(s) {', '.join(map(repr, repeated))} in the header; "
            "give each column its own name"
        )


def _parse(text: str, kind: str | None, source: Path) -> pd.DataFrame:
    import io

    import pandas as pd

    if not text.strip():
        raise TextfairError(f"{source}: the file is empty; pass a corpus with at least one text")
    try:
        if kind is None:
            return pd.DataFrame({"text": [line for line in text.splitlines() if line.strip()]})
        if kind == "jsonl":
            return pd.read_json(io.StringIO(text), lines=True)
        _refuse_duplicate_columns(text, kind, source)
        return pd.read_csv(io.StringIO(text), sep=kind)
    except (ValueError, pd.errors.ParserError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise TextfairError(
            f"{source}: could not parse the file ({first}); check its format"
        ) from None
