"""Whether a new file can be written where it is asked for (textfair.io._writable)."""

import os

import pytest

from textfair.errors import TextfairError
from textfair.io._writable import check_parent


def test_a_file_in_an_existing_directory_passes(tmp_path):
    check_parent(tmp_path / "rows.jsonl", "--rows")
    assert list(tmp_path.iterdir()) == []


def test_a_missing_directory_is_named_with_the_flag(tmp_path):
    path = tmp_path / "missing" / "rows.jsonl"
    with pytest.raises(TextfairError) as raised:
        check_parent(path, "--rows")
    assert str(raised.value) == (
        f"--rows {path}: directory {tmp_path / 'missing'} does not exist; create it or "
        "choose another path"
    )


def test_a_file_where_the_directory_should_be_is_no_directory(tmp_path):
    (tmp_path / "notes").write_text("a file")
    with pytest.raises(TextfairError, match=r"notes does not exist; create it"):
        check_parent(tmp_path / "notes" / "rows.jsonl", "--rows")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_directory_that_cannot_be_written_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(TextfairError, match=rf"cannot write in {locked}; choose a dir"):
            check_parent(locked / "rows.jsonl", "--rows")
    finally:
        locked.chmod(0o755)
