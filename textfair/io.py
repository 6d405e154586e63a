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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from textfair.errors import TextfairError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Output",
    "atomic_directory",
    "atomic_writer",
    "check_cache_file",
    "check_output_directory",
    "check_outputs",
    "load_yaml",
    "printable",
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


@dataclass(frozen=True)
class Output:
    """A path a command writes: what it is and which flag named it.

    `kind` is "file" (replaced as a whole), "directory" (a report set replaced as a whole;
    `owned` names the files textfair puts in it), "cache" (an SQLite file of a model's
    answers, reused and added to) or "shards" (a Ray pipeline's directory, checked by its
    own rules)."""

    flag: str
    path: Path | None
    kind: str = "file"
    owned: tuple[str, ...] = ()


def check_outputs(
    outputs: Sequence[Output], inputs: Mapping[str, object], *, overwrite: bool = False
) -> None:
    """The one check of what a run writes, before any work (and before the first query).

    Every output is checked against every input the command reads (`inputs` maps a flag to
    a path or a model spec: ``{"--data": ..., "--terms": ..., "--model": ...}``), against
    the other outputs, and against files textfair did not create: an existing file is
    replaced only with `overwrite`; a directory is replaced only when it holds nothing but
    textfair's own files (:func:`check_output_directory`); a cache must be a cache textfair
    wrote (:func:`check_cache_file`). One-line errors."""
    named = [out for out in outputs if out.path is not None]
    for index, out in enumerate(named):
        for flag, item in inputs.items():
            path = _input_path(item)
            if path is not None and _endangers(out, path):
                raise TextfairError(
                    f"{out.flag} {out.path} would overwrite {flag} {item}, an "
                    "input of this run; choose another output path"
                )
        for other in named[index + 1 :]:
            if _same(_path(out), _path(other)):
                raise TextfairError(
                    f"{out.flag} and {other.flag} both name {out.path}; give each its own path"
                )
        for other in named:
            inside = _path(out).resolve() in _path(other).resolve().parents
            if out.kind in ("directory", "shards") and inside:
                raise TextfairError(
                    f"{other.flag} {other.path} lies inside {out.flag} "
                    f"{out.path}, which is replaced as a whole; put it beside it"
                )
        if out.kind == "file":
            _check_output_file(out, overwrite)
        elif out.kind == "directory":
            check_output_directory(out.path, list(out.owned), overwrite)
        elif out.kind == "cache":
            check_cache_file(_path(out), out.flag)


def _path(out: Output) -> Path:
    """The path of an output that names one (the checks skip those that name none)."""
    assert out.path is not None
    return Path(out.path)


def _endangers(out: Output, path: Path) -> bool:
    """Whether writing `out` replaces or deletes the input at `path`: it is the file written,
    one of a report directory's files (what else such a directory holds is refused by
    :func:`check_output_directory`), or lies inside a shard directory replaced whole."""
    base = _path(out)
    if _same(base, path):
        return True
    if out.kind == "directory":
        return any(
            _same(base / name, path) or (base / name).resolve() in path.parents
            for name in out.owned
        )
    return out.kind == "shards" and base.resolve() in path.parents


def _input_path(item: object) -> Path | None:
    """The file or directory an input names, resolved; None for bundled names, hub ids and
    py: specs (nothing on disk that a write could replace)."""
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


def _same(first: Path, second: Path) -> bool:
    """The same file or directory: one path, a symlink to it, or a hard link."""
    if first.resolve() == second.resolve():
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def _check_output_file(out: Output, overwrite: bool) -> None:
    path = _path(out)
    if path.is_dir():
        raise TextfairError(f"{out.flag} {path} is a directory; pass a file path for the output")
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise TextfairError(
                f"{out.flag} {path} is not a regular file (a device, FIFO or broken "
                "link); pass the path of a new file"
            )
        if not overwrite:
            raise TextfairError(
                f"{out.flag} {path} exists; replace it with --overwrite "
                "(overwrite=True in Python) or choose a new file name"
            )
    _check_parent(path, out.flag)


def _check_parent(path: Path, flag: str) -> None:
    parent = path.resolve().parent
    if not parent.is_dir():
        raise TextfairError(
            f"{flag} {path}: directory {parent} does not exist; create it or choose another path"
        )
    if not os.access(parent, os.W_OK | os.X_OK):
        raise TextfairError(
            f"{flag} {path}: cannot write in {parent}; choose a directory you may write to"
        )


# A textfair cache says so in its SQLite header (PRAGMA application_id, bytes 68-71).
CACHE_APPLICATION_ID = 0x74667263  # "tfrc"
_SQLITE_HEADER = b"SQLite format 3\x00"
_CACHE_TABLE = ("model", "input", "probabilities")


def check_cache_file(path: str | Path, flag: str = "--cache") -> None:
    """A cache path textfair may open: new, or a cache textfair wrote. A user's file (a CSV,
    an empty file, their own SQLite database) is refused, never turned into a cache."""
    file = Path(path)
    if file.is_dir():
        raise TextfairError.bad("cache_path", f"{file} is a directory; pass a file path for {flag}")
    if not file.exists() and not file.is_symlink():
        _check_parent(file, flag)
        return
    foreign = f"{flag} {file} is not a textfair cache"
    if not file.is_file():
        raise TextfairError(f"{foreign} (not a regular file); choose a new file name")
    with open(file, "rb") as handle:
        header = handle.read(100)
    if not header.startswith(_SQLITE_HEADER):
        raise TextfairError(f"{foreign} (not an SQLite file); choose a new file name")
    if int.from_bytes(header[68:72], "big") == CACHE_APPLICATION_ID:
        return
    if _cache_tables(file) != {"predictions": _CACHE_TABLE}:  # one written before the marker
        raise TextfairError(
            f"{foreign} (an SQLite database of other tables); textfair leaves it alone: "
            "choose a new file name"
        )


def _cache_tables(file: Path) -> dict[str, tuple[str, ...]]:
    import sqlite3

    try:
        db = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
        try:
            names = [row[0] for row in db.execute("SELECT name FROM sqlite_master")]
            return {
                name: tuple(row[1] for row in db.execute(f"PRAGMA table_info({name!r})"))
                for name in names
            }
        finally:
            db.close()
    except sqlite3.Error:
        return {}


def printable(text: str) -> str:
    """`text` safe to print on a terminal: control characters (escape sequences, bells,
    carriage returns, line breaks) and bidirectional overrides become visible escapes
    (``\\x1b``, ``\\u202e``), so a name from a user's file cannot retitle the window, move
    the cursor, hide text or break a one-line message."""
    import unicodedata

    if text.isprintable():
        return text
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if char in _BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp")
        else char
        for char in text
    )


_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


@contextlib.contextmanager
def atomic_writer(path: str | Path, binary: bool = False, *, replace: bool = True) -> Iterator[IO]:
    """Open a temporary file beside `path` for writing; rename it to `path` on success.

    With `replace` False the file is published only where nothing is at `path` at that
    moment: a run that finds the path taken (another run wrote it meanwhile) stops with an
    error instead of replacing that run's output."""
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
        if replace:
            os.replace(tmp, target)
        else:
            _publish_new(Path(tmp), target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_directory(path: str | Path, *, replace: bool = True) -> Iterator[Path]:
    """A staging directory beside `path`, with ordinary permissions, to fill; on success it
    takes the place of `path` in one step, on failure (or Ctrl-C) it is removed.

    An existing `path` is swapped with the staging directory by one `renameat2` exchange
    (Linux), so at every instant `path` holds either the complete old directory or the
    complete new one; then the old one is deleted. Where the exchange is not available the
    old directory is first renamed aside (a moment with no `path`, never a mix). What a
    killed process leaves beside `path` is removed by the next write to it. With `replace`
    False only a missing or empty `path` is filled: one another run filled meanwhile stops
    this run with an error.
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
        if not replace:
            with contextlib.suppress(OSError):
                target.rmdir()  # empty (checked before the run); a filled one stays, and fails
            _publish_new(staging, target)
        elif not target.exists():
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


def _publish_new(staged: Path, target: Path) -> None:
    """Rename `staged` to `target` only if nothing is there (renameat2 RENAME_NOREPLACE; a
    hard link for a file where that is missing); a TextfairError if something is."""
    import errno

    try:
        if not _rename(staged, target, _RENAME_NOREPLACE):
            if staged.is_dir():  # rename fails onto a filled directory; checked for the rest
                if target.exists():
                    raise FileExistsError(errno.EEXIST, "exists", str(target))
                os.rename(staged, target)
            else:
                os.link(staged, target)  # fails if taken
                os.unlink(staged)
    except OSError as err:
        if err.errno not in (errno.EEXIST, errno.ENOTEMPTY):
            raise
        raise TextfairError(
            f"{target} was written by another run while this one worked; it is left "
            "as that run wrote it; run again with --overwrite (overwrite=True in Python) to "
            "replace it, or choose another path"
        ) from None


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


_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically with Linux's renameat2(RENAME_EXCHANGE); False where the
    system or the file system does not offer it."""
    return _rename(first, second, _RENAME_EXCHANGE)


def _rename(first: Path, second: Path, flags: int) -> bool:
    """Linux's renameat2 with `flags`; False where the system or the file system does not
    offer it, an OSError where it refused."""
    import ctypes
    import errno

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd = -100
    if renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), flags) == 0:
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
            "out",
            f"{out} is a file; expected a directory for the output; choose another path",
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
            "out",
            f"{out}: cannot write in {parent}; choose a directory you may write to",
        )


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


def read_table(path: str | Path) -> pd.DataFrame:
    """A CSV, TSV, JSON-lines or Parquet table with a header row; one-line errors."""
    source = input_file(path, "the path of a CSV, TSV or JSONL file")
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

    source = input_file(path, "the path of a CSV, TSV or JSONL file")
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
    """`frame` with its text column checked and made strings (missing values become ""); the
    column, named or inferred (`_inferred_text_column`), is in `frame.attrs["text_column"]`.

    One-line errors for no column named, a missing column, or a column with no text."""
    columns = names_shown(frame.columns)
    if not text_column:
        text_column = _inferred_text_column(frame, source, columns)
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
    frame.attrs["text_column"] = text_column  # the one read, named or inferred
    return frame


def _inferred_text_column(frame: pd.DataFrame, source: str, columns: str) -> str:
    """The column to read as the text when none was named: one called "text" (any case),
    else the only column of strings; said in a note. None fits: a one-line error naming the
    flag and the parameter."""
    import warnings

    import pandas as pd

    from textfair.errors import InputNote

    named = [c for c in frame.columns if str(c).strip().lower() == "text"]
    strings = [c for c in frame.columns if pd.api.types.is_string_dtype(frame[c])]
    found, why = (named[0], 'it is called "text"') if len(named) == 1 else (None, "")
    if found is None and len(strings) == 1:
        found, why = strings[0], "the only column of strings"
    if found is None:
        raise TextfairError(
            f"{source}: no text column given; columns are: {columns}; name it with "
            "--text-column (text_column= in Python)"
        )
    warnings.warn(
        f"{source}: read column {str(found)!r} as the texts ({why}); name another with "
        "--text-column (text_column= in Python)",
        InputNote,
        stacklevel=3,
    )
    return str(found)


def load_yaml(text: str, label: str, hint: str = "fix the syntax") -> object:
    """A user's YAML (a term list, a schema), parsed safely and in bounded time: the safe
    loader (no tags that build objects), and no anchors or aliases. Aliases are what makes
    a "billion laughs" document: nine levels of `&a [*a, *a, ...]` are a few hundred bytes
    that expand to billions of items for whatever walks them; textfair's files never need
    them. One-line errors with the line and column."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed: faster
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                mark = event.start_mark
                assert mark is not None  # the parser's events carry their marks
                raise TextfairError(
                    f"{label}: YAML anchors and aliases (&name, *name) are not accepted (line "
                    f"{mark.line + 1}); write the values out"
                )
        return yaml.load(text, Loader=loader)  # a safe loader, never yaml.Loader
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(err, "problem", None) or "syntax error"
        raise TextfairError(f"{label}: malformed YAML ({problem}{where}); {hint}") from None


def names_shown(names, most: int = 20, width: int = 60) -> str:
    """Column names for a one-line message: at most `most`, each cut to `width` characters
    (a header can be megabytes long)."""
    names = [str(name) for name in names]
    cut = [name if len(name) <= width else name[: width - 3] + "..." for name in names[:most]]
    more = f", ... ({len(names) - most} more)" if len(names) > most else ""
    return ", ".join(cut) + more


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

    first = text.split("\n", 1)[0]
    # The csv module refuses fields over 128 KiB; a header is read whatever its length.
    csv.field_size_limit(max(csv.field_size_limit(), len(first) + 1))
    header = next(csv.reader([first], delimiter=separator), [])
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
    except TextfairError:
        raise
    except (ValueError, pd.errors.ParserError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise TextfairError(
            f"{source}: could not parse the file ({first}); check its format"
        ) from None
