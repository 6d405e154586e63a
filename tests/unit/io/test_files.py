"""One user file read (textfair.io._files): a regular file, its text as UTF-8, a JSON file;
one-line errors that say what the file is instead."""

import os

import pytest

from textfair.io._files import input_file, read_json, read_utf8

from conftest import one_line_error

EXPECTED = "the path of a term list"


def _refusal(call, *args) -> str:
    return str(one_line_error(call, *args))


def test_a_regular_file_is_returned_as_a_path(write):
    path = write("terms.yaml", "name: mine\n")
    assert input_file(str(path), EXPECTED) == path


def test_a_missing_file_a_directory_and_a_fifo_are_refused(tmp_path):
    missing = tmp_path / "terms.yaml"
    assert _refusal(input_file, missing, EXPECTED) == (
        f"{missing}: no such file; pass the path of a term list"
    )
    assert _refusal(input_file, tmp_path, EXPECTED) == (
        f"{tmp_path} is a directory; pass the path of a term list"
    )
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    assert _refusal(input_file, fifo, EXPECTED) == (
        f"{fifo} is not a regular file (a FIFO, socket or device); pass the path of a term list"
    )


def test_utf8_text_is_read_and_a_byte_order_mark_dropped(write):
    assert read_utf8(write("a.txt", "café\n".encode())) == "café\n"
    assert read_utf8(write("b.txt", "\ufeffcafé".encode())) == "café"


def test_a_byte_that_is_not_utf8_is_named_with_its_offset(write):
    path = write("latin1.txt", "naïve".encode("latin-1"))
    assert _refusal(read_utf8, path) == (
        f"{path}: not UTF-8 text (byte 0xef at offset 2); save the file as UTF-8"
    )


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_text_is_refused_with_or_without_a_byte_order_mark(write, encoding):
    path = write("wide.csv", "text,label\nhello,0\n".encode(encoding))
    assert _refusal(read_utf8, path) == (
        f"{path}: UTF-16 text (every other byte is zero); save the file as UTF-8"
    )


def test_a_short_file_is_not_taken_for_utf16(write):
    assert read_utf8(write("short.txt", b"a\x00")) == "a\x00"


def test_a_json_file_is_read(write):
    assert read_json(write("report.json", '{"verdict": "pass", "n": [1, 2]}'), EXPECTED) == {
        "verdict": "pass",
        "n": [1, 2],
    }


def test_a_file_that_is_not_json_names_what_was_expected(write, tmp_path):
    path = write("report.json", "{not json")
    message = _refusal(read_json, path, "the report.json of an audit")
    assert message.startswith(f"{path}: not JSON (")
    assert message.endswith("); pass the report.json of an audit")
    missing = tmp_path / "none.json"
    assert _refusal(read_json, missing, "the report.json of an audit") == (
        f"{missing}: no such file; pass the report.json of an audit"
    )
