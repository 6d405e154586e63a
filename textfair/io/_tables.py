"""Corpora and tables read from a user's CSV, TSV, JSON-lines, Parquet or plain-text file,
with their text column checked. One-line errors.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textfair.errors import TextfairError
from textfair.io._files import input_file, read_utf8

if TYPE_CHECKING:
    import pandas as pd

_READERS = {
    ".csv": ",",
    ".tsv": "\t",
    ".txt": None,
    ".jsonl": "jsonl",
    ".json": "jsonl",
    ".parquet": "parquet",
}


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
    # Missing values are no text (as strings they would be "nan"): only what is written counts.
    if not column.dropna().astype(str).str.strip().astype(bool).any():
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


def names_shown(names: Iterable[object], most: int = 20, width: int = 60) -> str:
    """Column names for a one-line message: at most `most`, each cut to `width` characters
    (a header can be megabytes long)."""
    labels = [str(name) for name in names]
    cut = [name if len(name) <= width else name[: width - 3] + "..." for name in labels[:most]]
    more = f", ... ({len(labels) - most} more)" if len(labels) > most else ""
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
        # The python engine: pandas' C parser, reading from memory, drops the leading
        # whitespace of a row that falls at one of its buffer boundaries (seen on a 100,000-row
        # corpus: " == Heterosexual? ==" read as "== Heterosexual? ==", scored as another
        # text than the user's). About twice its time, 0.9 s for 100,000 comments.
        frame = pd.read_csv(io.StringIO(text), sep=kind, engine="python")
    except TextfairError:
        raise
    except (ValueError, pd.errors.ParserError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise TextfairError(
            f"{source}: could not parse the file ({first}); check its format"
        ) from None
    # Before anything reads it: a first row of data taken for a header loses a text to a
    # column name and renames the columns, and every later message would name them wrong.
    _refuse_headerless(frame, kind, source)
    return frame


# A column name of this many words is a sentence: the first row is a text, not a header.
_HEADER_WORDS = 12
# A cell of this many words beside one that recurs in its column (a label) is a text.
_TEXT_WORDS = 4


def _refuse_headerless(frame: pd.DataFrame, separator: str, source: Path) -> None:
    """A one-line error when the first row of a CSV or TSV reads as data, not as column
    names: a cell that is a number, a cell of a sentence's length, or a text beside a cell
    that is one of its own column's values (a label such as "positive" that recurs below
    it). A label column named after a label ("toxic" over toxic and non-toxic) beside a
    one-word text column's name is a header."""
    cells = [str(name) for name in frame.columns]
    recurring = [
        cell
        for cell, name in zip(cells, frame.columns, strict=True)
        if (frame[name].dropna().astype(str) == cell).any()
    ]
    texts = [cell for cell in cells if len(cell.split()) >= _TEXT_WORDS]
    why = next((f"{cell!r} is a number" for cell in cells if _is_number(cell)), "")
    if not why and any(len(cell.split()) >= _HEADER_WORDS for cell in cells):
        why = f"{names_shown(texts[:1], width=40)!r} reads as a text"
    if not why and recurring and any(cell not in recurring for cell in texts):
        why = (
            f"{recurring[0]!r} is also a value of its column, beside "
            f"{names_shown(texts[:1], width=40)!r}"
        )
    if why:
        example = "text\tlabel" if separator == "\t" else "text,label"
        raise TextfairError(
            f"{source}: the first row looks like data, not a header ({why}); add a first "
            f"line that names the columns (such as {example!r}), or, for one text per "
            "line and no other column, name the file .txt"
        )


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return cell.strip().lower() not in ("nan", "inf", "-inf", "infinity")
