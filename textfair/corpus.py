"""The texts to audit and their true labels, from whatever the caller holds.

`load_corpus` is the one corpus loader of the CLI and the Python API. `data` is a path (CSV,
TSV, JSON lines, Parquet or one text per line), a pandas DataFrame, or a list of strings; with
no data, the bundled Wikipedia comments and their toxicity labels. `labels` is the name of
a label column, or one label per text. `label_map` renames label values to the model's label
names (`{"1": "toxic"}` or `"1=toxic,0=non-toxic"`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from textfair.errors import TextfairError
from textfair.io import read_texts, with_text_column
from textfair.text.sentences import split_sentences

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BUNDLED_CORPUS", "Corpus", "load_corpus", "parse_label_map"]

BUNDLED_CORPUS = "wiki_toxicity.csv"
_BUNDLED_COLUMNS = ("comment", "toxic", {"True": "toxic", "False": "non-toxic"})
FAVORABLE_GUESSES = ("non-toxic", "not toxic", "positive", "favorable", "favourable")


@dataclass(frozen=True)
class Corpus:
    """Texts, their labels in the model's label names (or None), and where they came from.

    What `load_corpus` returns; `textfair.audit` reads its texts and labels.

    Attributes
    ----------
    texts : list of str
        The texts to audit: one per row, or one per sentence with ``unit="sentence"``.
    labels : list of str or None
        One true label per text, in the model's label names (after `label_map`); None
        without labels.
    source : str
        Where the texts came from: the file path, ``"a DataFrame"`` or ``"a list of texts"``.
    text_column : str or None
        The column the texts were read from, named or inferred; None for a list of texts.
    label_column : str or None
        The label column, when `labels` named one; None otherwise.
    unit : {"document", "sentence"}
        What one text is: a row of the data, or one sentence of a row (``--unit sentence``).
    documents : int or None
        How many rows the sentences came from (sentence units only).

    Examples
    --------
    >>> corpus = textfair.load_corpus(["Hello there. Bye now."], unit="sentence")
    >>> corpus.texts, corpus.documents
    (['Hello there.', 'Bye now.'], 1)
    """

    texts: list[str]
    labels: list[str] | None
    source: str
    text_column: str | None = None
    label_column: str | None = None
    unit: Literal["document", "sentence"] = "document"
    """What one text is: a row of the data, or one sentence of a row (`--unit sentence`)."""
    documents: int | None = None
    """How many rows the sentences came from (sentence units only)."""

    def info(self) -> dict[str, object]:
        """What report.json records under ``"data"``.

        Returns
        -------
        dict
            ``path`` (the `source`), ``text_column``, ``label_column`` and ``unit``, with
            ``documents`` for sentence units.

        Examples
        --------
        >>> textfair.load_corpus(["a text"]).info()
        {'path': 'a list of texts', 'text_column': None, 'label_column': None, 'unit': 'document'}
        """
        info: dict[str, object] = {
            "path": self.source,
            "text_column": self.text_column,
            "label_column": self.label_column,
            "unit": self.unit,
        }
        if self.documents is not None:
            info["documents"] = self.documents
        return info


def load_corpus(
    data: str | Path | pd.DataFrame | Sequence[str] | None = None,
    *,
    text_column: str | None = None,
    labels: str | Sequence[object] | None = None,
    label_map: Mapping[str, str] | str | None = None,
    unit: str = "document",
) -> Corpus:
    """Read the texts to audit, and their true labels, from whatever the caller holds.

    The one corpus loader of the CLI and the Python API. A mistake raises a one-line
    `TextfairError` naming the parameter at fault.

    Parameters
    ----------
    data
        A path (CSV, TSV, JSON lines, Parquet, or a ``.txt`` file with one text per line),
        a pandas DataFrame, or a list of strings. None reads the bundled Wikipedia comments
        (column ``comment``) and, unless `labels` is given, their toxicity labels (column
        ``toxic``, mapped ``{"True": "toxic", "False": "non-toxic"}`` unless `label_map`
        is given).
    text_column
        The column that holds the texts. Left out, a file's column called ``"text"`` (in
        any case) or its only column of strings is taken, with a warning that says so
        (`textfair.errors.InputNote`); a DataFrame with one column is read from that
        column. Must be None when `data` is a list of texts.
    labels
        The name of a label column, or one label per text (a list).
    label_map
        Renames label values to the model's label names: ``{"1": "toxic"}`` or
        ``"1=toxic,0=non-toxic"`` (each entry split at its last ``=``). Each value it names
        must be a label of the data. Values it does not name are kept, as strings.
    unit
        ``"document"`` (default): one text per row. ``"sentence"``: every sentence of every
        text is a text of its own, and keeps its row's label. Long documents are then
        audited sentence by sentence, and a variant carries no context that contradicts it
        (see `textfair.text.sentences`).

    Returns
    -------
    Corpus
        The texts, their labels as strings in the model's names (or None), and where they
        came from.

    Raises
    ------
    TextfairError
        An unknown `unit`; `data` of another type; a missing file, column or label column;
        `text_column` given with a list of texts; no text at all (or no sentence); a number
        of labels that is not one per text; a malformed `label_map`, or one that names a
        value no label has.

    Examples
    --------
    >>> corpus = textfair.load_corpus(
    ...     ["I am a gay man.", "Hello."], labels=["1", "0"], label_map="1=toxic,0=non-toxic"
    ... )
    >>> corpus.labels
    ['toxic', 'non-toxic']
    >>> comments = textfair.load_corpus()  # the bundled comments
    >>> comments.text_column, comments.label_column
    ('comment', 'toxic')
    """
    import pandas as pd  # a third of a second: `import textfair` exports this function

    if unit not in ("document", "sentence"):
        raise TextfairError.bad("unit", f"is {unit!r}; expected 'document' or 'sentence'")
    if data is None:
        path = Path(str(resources.files("textfair.datasets").joinpath(BUNDLED_CORPUS)))
        column, bundled_labels, bundled_map = _BUNDLED_COLUMNS
        if labels is None:
            labels, label_map = bundled_labels, label_map or bundled_map
        data, text_column = path, text_column or column
    if isinstance(data, str | Path):
        frame, source = read_texts(data, text_column), str(data)
        text_column = frame.attrs["text_column"]  # named, inferred, or a .txt file's
    elif isinstance(data, pd.DataFrame):
        source = "a DataFrame"
        if text_column is None and len(data.columns) == 1:
            text_column = str(data.columns[0])
        frame = with_text_column(data, text_column, source)
        text_column = frame.attrs["text_column"]
    elif isinstance(data, Sequence) and all(isinstance(t, str) for t in data):
        if text_column is not None:
            raise TextfairError("text_column names a column, but data is a list of texts")
        frame, source, text_column = pd.DataFrame({"text": list(data)}), "a list of texts", None
    else:
        raise TextfairError(
            f"data is a {type(data).__name__}; expected a file path, a pandas DataFrame or "
            "a list of strings"
        )
    texts = frame[text_column or "text"].tolist()
    if not texts:
        raise TextfairError(f"{source}: no texts; pass a corpus with at least one text")
    label_column, values = _labels(frame, labels, len(texts), source)
    mapping = parse_label_map(label_map)
    if mapping and values is not None:
        present = {str(v) for v in values}
        unused = [key for key in mapping if key not in present]
        if unused:
            raise TextfairError.bad(
                "label_map",
                f"names {', '.join(map(repr, unused))}, which no label has; the labels are: "
                f"{', '.join(sorted(present)[:10])}",
            )
    mapped = None if values is None else [mapping.get(str(v), str(v)) for v in values]
    if unit == "document":
        return Corpus(texts, mapped, source, text_column, label_column)
    split = [split_sentences(text) for text in texts]
    sentences = [sentence for found in split for sentence in found]
    if not sentences:
        raise TextfairError(f"{source}: no sentence in any text; pass a corpus with text")
    repeated = None
    if mapped is not None:
        repeated = [label for label, found in zip(mapped, split, strict=True) for _ in found]
    return Corpus(sentences, repeated, source, text_column, label_column, "sentence", len(texts))


def _labels(
    frame: pd.DataFrame, labels: str | Sequence[object] | None, count: int, source: str
) -> tuple[str | None, list[object] | None]:
    """The label column's name (None for labels given as a list) and one label per text;
    (None, None) without labels."""
    if labels is None:
        return None, None
    if isinstance(labels, str):
        if labels not in frame.columns:
            raise TextfairError(
                f"{source}: no label column {labels!r}; columns are: "
                f"{', '.join(map(str, frame.columns))}"
            )
        return labels, frame[labels].tolist()
    if not isinstance(labels, Iterable) or isinstance(labels, bytes | Mapping):
        raise TextfairError.bad(
            "labels",
            f"is {type(labels).__name__} {labels!r:.60}; expected a column name or one label "
            "per text (a list)",
        )
    values = list(labels)
    if len(values) != count:
        raise TextfairError(f"labels has {len(values)} values for {count} texts; expected one each")
    return None, values


def parse_label_map(label_map: Mapping[str, str] | str | None) -> dict[str, str]:
    """{"1": "toxic"} as it is, or "1=toxic,0=non-toxic" parsed; {} for None."""
    if label_map is None:
        return {}
    if isinstance(label_map, Mapping):
        return {str(k): str(v) for k, v in label_map.items()}
    mapping = {}
    for pair in label_map.split(","):
        # Split at the last "=": a data value may hold one ("<=50K=0"), a model label rarely.
        key, sep, value = pair.rpartition("=")
        if not sep or not key.strip() or not value.strip():
            raise TextfairError(
                f"label map entry {pair!r} is not VALUE=LABEL; write e.g. 1=toxic,0=non-toxic"
            )
        mapping[key.strip()] = value.strip()
    return mapping
