"""Outputs published in one step (textfair.io._atomic): a file or a report set takes its
place whole on success, and a failure midway leaves the old one as it was."""

import os
import stat
import subprocess

import pytest

from textfair.errors import TextfairError
from textfair.io._atomic import atomic_directory, atomic_writer, current_umask


def _tree(directory):
    """Every file under `directory`, by relative path, with its text."""
    return {
        str(path.relative_to(directory)): path.read_text()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def _dead_pid():
    """The id of a process that has ended (a child started and waited for)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


@pytest.fixture
def old_set(tmp_path):
    """A report set an earlier run published: two files and a folder."""
    out = tmp_path / "out"
    (out / "figures").mkdir(parents=True)
    (out / "report.json").write_text('{"run": 1}')
    (out / "report.md").write_text("# run 1")
    (out / "figures" / "bars.svg").write_text("<svg/>")
    return out


def test_current_umask_reads_the_umask_and_leaves_it_set():
    before = os.umask(0o027)
    try:
        assert current_umask() == 0o027
        assert current_umask() == 0o027  # reading it did not change it
    finally:
        os.umask(before)


def test_a_new_report_set_replaces_the_old_one_as_a_whole(old_set):
    with atomic_directory(old_set) as staging:
        assert staging.parent == old_set.parent and staging != old_set
        assert _tree(old_set) == {
            "figures/bars.svg": "<svg/>",
            "report.json": '{"run": 1}',
            "report.md": "# run 1",
        }  # the old set is in place while the new one is written
        (staging / "report.json").write_text('{"run": 2}')
    # The new set only: nothing of the old one is mixed in, nothing is left beside it.
    assert _tree(old_set) == {"report.json": '{"run": 2}'}
    assert [path.name for path in old_set.parent.iterdir()] == ["out"]


def test_a_failure_midway_leaves_the_old_set_intact_and_no_staging(old_set):
    before = _tree(old_set)
    with pytest.raises(RuntimeError, match="the model crashed"), atomic_directory(old_set) as s:
        (s / "report.json").write_text('{"run": 2}')
        raise RuntimeError("the model crashed")
    assert _tree(old_set) == before
    assert [path.name for path in old_set.parent.iterdir()] == ["out"]


def test_an_interrupt_midway_leaves_the_old_set_intact(old_set):
    before = _tree(old_set)
    with pytest.raises(KeyboardInterrupt), atomic_directory(old_set) as staging:
        (staging / "report.md").write_text("half")
        raise KeyboardInterrupt
    assert _tree(old_set) == before
    assert [path.name for path in old_set.parent.iterdir()] == ["out"]


def test_a_new_directory_is_made_with_its_missing_parents(tmp_path):
    target = tmp_path / "a" / "b" / "out"
    with atomic_directory(target) as staging:
        (staging / "report.json").write_text("{}")
    assert _tree(target) == {"report.json": "{}"}


def test_published_files_and_directory_get_ordinary_permissions(tmp_path):
    before = os.umask(0o022)
    try:
        with atomic_directory(tmp_path / "out") as staging:
            (staging / "report.json").write_text("{}")
            os.chmod(staging / "report.json", 0o600)
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "out" / "report.json").stat().st_mode) == 0o644


def test_without_replace_an_empty_directory_is_filled(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    with atomic_directory(target, replace=False) as staging:
        (staging / "report.json").write_text("{}")
    assert _tree(target) == {"report.json": "{}"}


def test_without_replace_a_directory_another_run_filled_is_left_alone(old_set):
    before = _tree(old_set)
    with (
        pytest.raises(TextfairError, match="written by another run") as raised,
        atomic_directory(old_set, replace=False) as staging,
    ):
        (staging / "report.json").write_text('{"run": 2}')
    assert "--overwrite" in str(raised.value) and "\n" not in str(raised.value)
    assert _tree(old_set) == before
    assert [path.name for path in old_set.parent.iterdir()] == ["out"]


def test_leftovers_of_a_killed_run_are_removed_and_a_live_runs_kept(tmp_path):
    dead = tmp_path / f".out.tmp-{_dead_pid()}-abc"
    (dead / "figures").mkdir(parents=True)
    (dead / "report.json").write_text("half")
    dead_file = tmp_path / f".out.tmp-{_dead_pid()}-def"
    dead_file.write_text("half")
    live = tmp_path / f".out.tmp-{os.getpid()}-ghi"  # this process: still running
    live.write_text("in progress")
    other = tmp_path / ".other.tmp-1-jkl"  # beside another target: not this one's
    other.write_text("theirs")
    with atomic_directory(tmp_path / "out") as staging:
        (staging / "report.json").write_text("{}")
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        ["out", live.name, other.name]
    )


def test_a_file_is_replaced_whole_on_success(tmp_path):
    target = tmp_path / "rows.jsonl"
    target.write_text("old\n")
    with atomic_writer(target) as handle:
        handle.write("new\n")
        assert target.read_text() == "old\n"  # the old file stays until the end
    assert target.read_text() == "new\n"
    assert [path.name for path in tmp_path.iterdir()] == ["rows.jsonl"]


def test_a_file_keeps_its_old_content_when_writing_fails(tmp_path):
    target = tmp_path / "rows.jsonl"
    target.write_text("old\n")
    with pytest.raises(OSError, match="disk full"), atomic_writer(target) as handle:
        handle.write("half")
        raise OSError("disk full")
    assert target.read_text() == "old\n"
    assert [path.name for path in tmp_path.iterdir()] == ["rows.jsonl"]


def test_a_file_is_written_in_binary_with_ordinary_permissions(tmp_path):
    target = tmp_path / "model.bin"
    before = os.umask(0o022)
    try:
        with atomic_writer(target, binary=True) as handle:
            handle.write(b"\x00\xff")
    finally:
        os.umask(before)
    assert target.read_bytes() == b"\x00\xff"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_text_is_written_as_utf8_with_unix_line_ends(tmp_path):
    target = tmp_path / "report.md"
    with atomic_writer(target) as handle:
        handle.write("café\n")
    assert target.read_bytes() == "café\n".encode()


def test_a_file_path_that_is_a_directory_is_refused(tmp_path):
    refused = pytest.raises(TextfairError, match=r"is a directory; pass a file path")
    with refused, atomic_writer(tmp_path):
        pass


def test_a_file_in_a_missing_directory_is_refused_naming_it(tmp_path):
    target = tmp_path / "missing" / "rows.jsonl"
    refused = pytest.raises(TextfairError, match=r"directory .*missing does not exist; create")
    with refused, atomic_writer(target):
        pass
    assert not (tmp_path / "missing").exists()


def test_without_replace_a_file_another_run_wrote_is_left_alone(tmp_path):
    target = tmp_path / "rows.jsonl"
    refused = pytest.raises(TextfairError, match="written by another run")
    with refused, atomic_writer(target, replace=False) as handle:
        handle.write("mine\n")
        target.write_text("theirs\n")  # another run publishes meanwhile
    assert target.read_text() == "theirs\n"
    assert [path.name for path in tmp_path.iterdir()] == ["rows.jsonl"]


def test_without_replace_a_new_file_is_published(tmp_path):
    target = tmp_path / "rows.jsonl"
    with atomic_writer(target, replace=False) as handle:
        handle.write("mine\n")
    assert target.read_text() == "mine\n"
    assert [path.name for path in tmp_path.iterdir()] == ["rows.jsonl"]
