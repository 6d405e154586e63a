"""Which file a model's answer cache may open (textfair.io._cache_file): a new one, or a cache
textfair wrote; a user's file is refused and left as it was."""

import os
import sqlite3

import pytest

from textfair.errors import TextfairError
from textfair.io._cache_file import CACHE_APPLICATION_ID, check_cache_file

from conftest import one_line_error


def _database(path, *statements):
    """An SQLite file made by `statements`."""
    db = sqlite3.connect(path)
    try:
        for statement in statements:
            db.execute(statement)
        db.commit()
    finally:
        db.close()
    return path


def _refusal(path, flag="--cache") -> str:
    return str(one_line_error(check_cache_file, path, flag))


def test_the_application_id_spells_tfrc():
    assert CACHE_APPLICATION_ID.to_bytes(4, "big") == b"tfrc"


def test_a_new_file_in_an_existing_directory_is_accepted_and_not_created(tmp_path):
    check_cache_file(tmp_path / "answers.sqlite")
    check_cache_file(str(tmp_path / "answers.sqlite"))
    assert list(tmp_path.iterdir()) == []


def test_a_new_file_in_a_missing_directory_is_refused_naming_the_flag(tmp_path):
    path = tmp_path / "missing" / "answers.sqlite"
    assert _refusal(path, "cache_path") == (
        f"cache_path {path}: directory {path.parent} does not exist; create it or choose "
        "another path"
    )


def test_a_directory_is_refused_as_the_parameter(tmp_path):
    with pytest.raises(TextfairError) as raised:
        check_cache_file(tmp_path)
    assert str(raised.value) == (
        f"cache_path {tmp_path} is a directory; pass a file path for --cache"
    )
    assert raised.value.parameter == "cache_path"


def test_a_cache_textfair_marked_is_accepted(tmp_path):
    path = _database(
        tmp_path / "answers.sqlite",
        f"PRAGMA application_id = {CACHE_APPLICATION_ID}",
        "CREATE TABLE anything (x)",
    )
    check_cache_file(path)


def test_a_cache_written_before_the_marker_is_accepted_by_its_table(tmp_path):
    path = _database(
        tmp_path / "answers.sqlite",
        "CREATE TABLE predictions (model TEXT, input TEXT, probabilities BLOB)",
    )
    check_cache_file(path)


def test_a_cache_as_textfair_wrote_it_before_the_marker_is_accepted(tmp_path):
    # The table exactly as textfair created it before PRAGMA application_id (eb36fca^,
    # textfair/models/base.py), and as models/_answers_file.py still creates it.
    path = _database(
        tmp_path / "answers.sqlite",
        "CREATE TABLE IF NOT EXISTS predictions ("
        "model TEXT NOT NULL, input TEXT NOT NULL, probabilities BLOB NOT NULL, "
        "PRIMARY KEY (model, input))",
    )
    check_cache_file(path)


@pytest.mark.parametrize(
    "content",
    [b"text,label\nhello,0\n", b"", b"SQLite format 2\x00" + bytes(84)],
    ids=["csv", "empty", "other-header"],
)
def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path, content):
    path = tmp_path / "answers.sqlite"
    path.write_bytes(content)
    assert _refusal(path) == (
        f"--cache {path} is not a textfair cache (not an SQLite file); choose a new file name"
    )
    assert path.read_bytes() == content


@pytest.mark.parametrize(
    "statement",
    [
        "CREATE TABLE people (name TEXT, age INTEGER)",
        "CREATE TABLE predictions (model TEXT, input TEXT)",  # textfair's name, not its columns
    ],
)
def test_a_users_sqlite_database_is_refused_and_left_alone(tmp_path, statement):
    path = _database(tmp_path / "mine.db", statement)
    before = path.read_bytes()
    assert _refusal(path, "cache_path") == (
        f"cache_path {path} is not a textfair cache (an SQLite database of other tables); "
        "textfair leaves it alone: choose a new file name"
    )
    assert path.read_bytes() == before


def test_a_fifo_is_refused_without_being_opened(tmp_path):
    path = tmp_path / "answers.sqlite"
    os.mkfifo(path)
    assert _refusal(path) == (
        f"--cache {path} is not a textfair cache (not a regular file); choose a new file name"
    )


def test_a_broken_link_is_refused_not_followed(tmp_path):
    path = tmp_path / "answers.sqlite"
    path.symlink_to(tmp_path / "nowhere")
    assert "(not a regular file)" in _refusal(path)
    assert not (tmp_path / "nowhere").exists()
