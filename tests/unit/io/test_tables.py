"""Corpora and tables read from a user's file (textfair.io._tables): CSV, TSV, JSON lines,
Parquet and plain text, the text column named or inferred and checked; one-line errors that
name what is missing."""

import warnings

import pandas as pd
import pytest

from textfair.errors import InputNote, TextfairError
from textfair.io._tables import names_shown, read_table, read_texts, with_text_column

from conftest import one_line_error


def _refusal(call, *args) -> str:
    return str(one_line_error(call, *args))


def _read_quietly(path, column):
    """`read_texts` with no note expected: a note would fail the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputNote)
        return read_texts(path, column)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("corpus.csv", 'id,comment\n1,"hello, world"\n2,bye\n'),
        ("corpus.tsv", "id\tcomment\n1\thello, world\n2\tbye\n"),
        ("corpus.jsonl", '{"id": 1, "comment": "hello, world"}\n{"id": 2, "comment": "bye"}\n'),
        ("corpus.json", '{"id": 1, "comment": "hello, world"}\n{"id": 2, "comment": "bye"}\n'),
        ("CORPUS.CSV", 'id,comment\n1,"hello, world"\n2,bye\n'),
    ],
)
def test_each_format_reads_its_rows_and_the_named_column(write, name, content):
    frame = _read_quietly(write(name, content), "comment")
    assert list(frame.columns) == ["id", "comment"]
    assert frame["comment"].tolist() == ["hello, world", "bye"]
    assert frame["id"].tolist() == [1, 2]
    assert frame.attrs["text_column"] == "comment"


def test_a_parquet_table_is_read(tmp_path):
    path = tmp_path / "corpus.parquet"
    pd.DataFrame({"id": [1, 2], "comment": ["hello", "bye"]}).to_parquet(path)
    frame = _read_quietly(path, "comment")
    assert frame["comment"].tolist() == ["hello", "bye"]


def test_a_text_file_is_one_text_per_line_in_a_column_called_text(write):
    frame = _read_quietly(write("corpus.txt", "first text\n\n  \nsecond, text\n"), None)
    assert frame.to_dict("list") == {"text": ["first text", "second, text"]}
    assert frame.attrs["text_column"] == "text"


def test_a_utf8_byte_order_mark_is_not_part_of_the_first_column(write):
    frame = _read_quietly(write("corpus.csv", "\ufefftext,label\nhello,0\n".encode()), "text")
    assert frame["text"].tolist() == ["hello"]


def test_missing_values_become_empty_texts_and_other_values_strings(write):
    frame = _read_quietly(write("corpus.csv", "id,comment\n1,hello\n2,\n3,42\n"), "comment")
    assert frame["comment"].tolist() == ["hello", "", "42"]


def test_a_missing_column_is_named_with_the_columns_there_are(write):
    path = write("corpus.csv", "id,comment\n1,hello\n")
    assert _refusal(read_texts, path, "body") == (
        f"{path}: no column 'body'; columns are: id, comment; name the text column"
    )


@pytest.mark.parametrize(
    "content", ["id,comment\n1,\n2,\n", 'id,comment\n1,"  "\n2," "\n'], ids=["missing", "blank"]
)
def test_a_column_with_no_text_is_refused(write, content):
    path = write("corpus.csv", content)
    assert _refusal(read_texts, path, "comment") == (
        f"{path}: column 'comment' has no text in any of its 2 rows; pick the column that "
        "holds the texts"
    )


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("corpus.csv", 'id,comment\n1,\n2,"  "\n'),
        ("corpus.jsonl", '{"id": 1, "comment": null}\n{"id": 2, "comment": ""}\n'),
    ],
)
def test_a_column_of_missing_and_blank_values_is_refused(write, name, content):
    path = write(name, content)
    assert _refusal(read_texts, path, "comment") == (
        f"{path}: column 'comment' has no text in any of its 2 rows; pick the column that "
        "holds the texts"
    )


def test_a_column_called_text_is_inferred_with_a_note(write):
    path = write("corpus.jsonl", '{"id": "a", "Text": "hello"}\n{"id": "b", "Text": "bye"}\n')
    with pytest.warns(InputNote) as notes:
        frame = read_texts(path, None)
    assert frame.attrs["text_column"] == "Text"
    assert [str(note.message) for note in notes] == [
        f"{path}: read column 'Text' as the texts (it is called \"text\"); name another with "
        "--text-column (text_column= in Python)"
    ]


def test_the_only_column_of_strings_is_inferred_with_a_note(write):
    path = write("corpus.tsv", "id\tcomment\tscore\n1\thello\t0.5\n")
    with pytest.warns(InputNote, match=r"'comment' as the texts \(the only column of strings\)"):
        frame = read_texts(path, None)
    assert frame.attrs["text_column"] == "comment"


def test_no_column_to_infer_names_the_flag_and_the_parameter(write):
    for content in ("id,score\n1,0.5\n", "title,body\na,b\n"):  # none, or two, of strings
        path = write("corpus.csv", content)
        columns = content.split("\n")[0].replace(",", ", ")
        assert _refusal(read_texts, path, None) == (
            f"{path}: no text column given; columns are: {columns}; name it with "
            "--text-column (text_column= in Python)"
        )


def test_duplicate_column_names_are_refused_by_name(write):
    path = write("corpus.csv", "comment,id,comment,id,x\nhi,1,ho,2,3\n")
    assert _refusal(read_texts, path, "comment") == (
        f"{path}: duplicate column name(s) 'comment', 'id' in the header; give each column "
        "its own name"
    )


def test_an_empty_file_is_refused(write):
    path = write("corpus.csv", "\n  \n")
    assert _refusal(read_texts, path, "text") == (
        f"{path}: the file is empty; pass a corpus with at least one text"
    )


def test_an_unknown_format_is_refused_naming_the_known_ones(write):
    path = write("corpus.xlsx", "not a table")
    assert _refusal(read_texts, path, "text") == (
        f"{path}: unknown format '.xlsx'; expected .csv, .tsv, .jsonl, .parquet or .txt"
    )
    bare = write("corpus", "text\nhi\n")
    assert "unknown format '(no extension)'" in _refusal(read_texts, bare, "text")


def test_a_file_that_does_not_parse_is_refused(write):
    path = write("corpus.jsonl", '{"text": "hello"}\n{"text": \n')
    message = _refusal(read_texts, path, "text")
    assert message.startswith(f"{path}: could not parse the file (")
    assert message.endswith("); check its format")


def test_a_missing_file_is_refused(tmp_path):
    path = tmp_path / "corpus.csv"
    assert _refusal(read_texts, path, "text") == (
        f"{path}: no such file; pass the path of a CSV, TSV or JSONL file"
    )


def test_read_table_reads_a_table_as_it_is(write):
    frame = read_table(write("rows.csv", "age,sex\n30,F\n41,M\n"))
    assert frame.to_dict("list") == {"age": [30, 41], "sex": ["F", "M"]}
    assert "text_column" not in frame.attrs


def test_read_table_refuses_a_text_file(write):
    path = write("rows.txt", "age,sex\n30,F\n")
    assert _refusal(read_table, path) == (
        f"{path}: unknown format '.txt'; expected .csv, .tsv, .jsonl or .parquet"
    )


def test_with_text_column_checks_a_frame_from_memory_and_leaves_it_unchanged():
    frame = pd.DataFrame({"text": ["hello", None], "label": [1, 0]})
    checked = with_text_column(frame, "text", "the corpus")
    assert checked["text"].tolist() == ["hello", ""]
    assert checked.attrs["text_column"] == "text"
    assert frame["text"][0] == "hello" and pd.isna(frame["text"][1])
    with pytest.raises(TextfairError, match=r"^the corpus: no column 'body'; columns are"):
        with_text_column(frame, "body", "the corpus")


def test_names_shown_cuts_long_names_and_long_lists():
    assert names_shown(["id", "comment"]) == "id, comment"
    assert names_shown(["x" * 70]) == "x" * 57 + "..."
    many = names_shown([f"c{i}" for i in range(25)])
    assert many == ", ".join(f"c{i}" for i in range(20)) + ", ... (5 more)"


# --- a first row of data taken for a header (issue 57) -------------------------------


@pytest.mark.parametrize(
    ("name", "content", "why"),
    [
        # The shape of examples/data/imdb_small.tsv without its header line: the first
        # review became a column name, silently, and the audit reported 999 rows.
        (
            "reviews.tsv",
            "1\tWell, if you are looking for a great mind control movie, this is it.\n0\tDull.\n",
            "'1' is a number",
        ),
        (
            "reviews.tsv",
            "I loved this film, the acting was superb\tpositive\nBad\tnegative\nFine\tpositive\n",
            "'positive' is also a value of its column, beside 'I loved this film",
        ),
        (
            "comments.csv",
            "I wrote this comment before anyone told me that the file needed a header row\n"
            "Another comment\n",
            "reads as a text",
        ),
    ],
)
def test_a_file_without_a_header_is_refused_before_it_is_read(write, name, content, why):
    message = _refusal(read_texts, write(name, content), None)
    assert "the first row looks like data, not a header" in message and why in message
    assert "add a first line that names the columns" in message


@pytest.mark.parametrize(
    "content",
    [
        # A label column named after one of its labels, beside a one-word text column.
        "comment,toxic\nI am a gay man,toxic\nhello,non-toxic\n",
        "text,label\nI loved this film and I would see it again,positive\nbad,negative\n",
        "label\ttext\n1\tGood.\n0\tBad.\n",
    ],
)
def test_a_header_that_names_the_columns_is_read(write, content):
    name = "corpus.tsv" if "\t" in content else "corpus.csv"
    frame = read_table(write(name, content))
    assert len(frame) == 2
