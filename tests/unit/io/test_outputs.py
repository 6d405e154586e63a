"""The check of what a run writes, before any work (textfair.io._outputs): an output directory
textfair may replace, files it may overwrite, and outputs that would destroy an input or
each other. Every refusal is one TextfairError line that says what to do."""

import os
import sqlite3

import pytest

from textfair.errors import TextfairError
from textfair.io._outputs import Output, check_output_directory, check_outputs

from conftest import one_line_error

OWNED = ["report.json", "report.md", "figures"]


def _refusal(call, *args, **kwargs) -> TextfairError:
    """The one-line error `call` raises."""
    return one_line_error(call, *args, **kwargs)


# check_output_directory


def test_no_directory_a_new_one_and_an_empty_one_are_accepted(tmp_path):
    check_output_directory(None, OWNED, overwrite=False)
    check_output_directory(tmp_path / "new" / "out", OWNED, overwrite=False)
    (tmp_path / "empty").mkdir()
    check_output_directory(tmp_path / "empty", OWNED, overwrite=False)
    assert not (tmp_path / "new").exists()  # a check creates nothing


def test_an_earlier_runs_output_is_replaced_only_with_overwrite(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text("{}")
    err = _refusal(check_output_directory, out, OWNED, overwrite=False)
    assert str(err) == (
        f"out {out} holds the output of an earlier run; replace it with --overwrite "
        "(overwrite=True in Python) or choose another directory"
    )
    assert err.parameter == "out"
    check_output_directory(out, OWNED, overwrite=True)
    assert (out / "report.json").read_text() == "{}"  # checked, not touched


def test_a_directory_with_files_textfair_did_not_write_is_refused_even_with_overwrite(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text("{}")
    (out / "thesis.docx").write_text("years of work")
    for overwrite in (False, True):
        err = _refusal(check_output_directory, out, OWNED, overwrite=overwrite)
        assert str(err) == (
            f"out {out} holds files textfair did not write (thesis.docx); the output "
            "directory is replaced as a whole, so give a new or empty directory"
        )
    assert (out / "thesis.docx").read_text() == "years of work"


def test_the_foreign_files_named_are_at_most_three(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for name in ("d.txt", "a.txt", "c.txt", "b.txt"):
        (out / name).write_text("mine")
    err = _refusal(check_output_directory, out, OWNED, overwrite=True)
    assert "(a.txt, b.txt, c.txt, ...)" in str(err)


def test_a_file_where_the_directory_should_be_is_refused(tmp_path):
    out = tmp_path / "out"
    out.write_text("a file")
    err = _refusal(check_output_directory, out, OWNED, overwrite=True)
    assert str(err) == (
        f"out {out} is a file; expected a directory for the output; choose another path"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_directory_in_a_parent_that_cannot_be_written_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        err = _refusal(check_output_directory, locked / "out", OWNED, overwrite=False)
    finally:
        locked.chmod(0o755)
    assert f"cannot write in {locked}" in str(err)


# check_outputs


def test_outputs_that_name_no_path_are_skipped(tmp_path):
    data = tmp_path / "corpus.csv"
    data.write_text("text\nhello\n")
    check_outputs([Output("--counterfactuals", None)], {"--data": data})


def test_new_outputs_of_every_kind_are_accepted(tmp_path):
    data = tmp_path / "corpus.csv"
    data.write_text("text\nhello\n")
    outputs = [
        Output("--out", tmp_path / "report", "directory", ("report.json",)),
        Output("--rows", tmp_path / "rows.jsonl"),
        Output("--cache", tmp_path / "answers.sqlite", "cache"),
    ]
    check_outputs(outputs, {"--data": data, "--model": "toxicity-cnn-lstm"})
    assert sorted(path.name for path in tmp_path.iterdir()) == ["corpus.csv"]


def test_an_output_that_is_an_input_is_refused(tmp_path):
    data = tmp_path / "corpus.csv"
    data.write_text("text\nhello\n")
    err = _refusal(check_outputs, [Output("--rows", data)], {"--data": str(data)}, overwrite=True)
    assert str(err) == (
        f"--rows {data} would overwrite --data {data}, an input of this run; "
        "choose another output path"
    )
    assert data.read_text() == "text\nhello\n"


def test_a_link_to_an_input_is_the_input(tmp_path):
    data = tmp_path / "corpus.csv"
    data.write_text("text\nhello\n")
    (tmp_path / "soft.csv").symlink_to(data)
    os.link(data, tmp_path / "hard.csv")
    for name in ("soft.csv", "hard.csv"):
        err = _refusal(
            check_outputs, [Output("--rows", tmp_path / name)], {"--data": data}, overwrite=True
        )
        assert "would overwrite --data" in str(err)


def test_a_model_spec_names_its_file_and_a_py_spec_names_none(tmp_path):
    model = tmp_path / "model.joblib"
    model.write_bytes(b"fitted")
    err = _refusal(
        check_outputs,
        [Output("--rows", model)],
        {"--model": f"sklearn:{model}"},
        overwrite=True,
    )
    assert f"would overwrite --model sklearn:{model}" in str(err)
    module = tmp_path / "models.py"
    module.write_text("def flat(texts): ...\n")
    check_outputs([Output("--rows", module)], {"--model": "py:models:flat"}, overwrite=True)


def test_a_report_directory_holding_an_input_among_its_files_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text("{}")
    report = Output("--out", out, "directory", ("report.json", "figures"))
    err = _refusal(check_outputs, [report], {"--baseline": out / "report.json"}, overwrite=True)
    assert "would overwrite --baseline" in str(err)
    # A file of its own that the report set does not hold is safe from the replacement.
    beside = tmp_path / "terms.yaml"
    beside.write_text("name: mine\n")
    check_outputs([report], {"--terms": beside}, overwrite=True)


def test_an_input_inside_a_shard_directory_is_refused(tmp_path):
    shards = tmp_path / "shards"
    shards.mkdir()
    data = shards / "corpus.csv"
    data.write_text("text\nhello\n")
    err = _refusal(check_outputs, [Output("--shards", shards, "shards")], {"--data": data})
    assert "would overwrite --data" in str(err)


def test_two_outputs_naming_one_path_are_refused(tmp_path):
    path = tmp_path / "rows.jsonl"
    outputs = [Output("--rows", path), Output("--swaps", path)]
    err = _refusal(check_outputs, outputs, {})
    assert str(err) == f"--rows and --swaps both name {path}; give each its own path"


def test_an_output_inside_a_directory_replaced_whole_is_refused(tmp_path):
    out = tmp_path / "out"
    outputs = [
        Output("--out", out, "directory", ("report.json",)),
        Output("--rows", out / "rows.jsonl"),
    ]
    err = _refusal(check_outputs, outputs, {})
    assert str(err) == (
        f"--rows {out / 'rows.jsonl'} lies inside --out {out}, which is replaced as a "
        "whole; put it beside it"
    )


def test_an_existing_file_is_replaced_only_with_overwrite(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text("old\n")
    err = _refusal(check_outputs, [Output("--rows", rows)], {})
    assert str(err) == (
        f"--rows {rows} exists; replace it with --overwrite (overwrite=True in Python) or "
        "choose a new file name"
    )
    check_outputs([Output("--rows", rows)], {}, overwrite=True)
    assert rows.read_text() == "old\n"


def test_a_file_output_that_is_a_directory_or_a_broken_link_is_refused(tmp_path):
    err = _refusal(check_outputs, [Output("--rows", tmp_path)], {}, overwrite=True)
    assert str(err) == f"--rows {tmp_path} is a directory; pass a file path for the output"
    broken = tmp_path / "broken.jsonl"
    broken.symlink_to(tmp_path / "nowhere")
    err = _refusal(check_outputs, [Output("--rows", broken)], {}, overwrite=True)
    assert "is not a regular file (a device, FIFO or broken link)" in str(err)


def test_a_file_output_in_a_missing_directory_is_refused_naming_its_flag(tmp_path):
    rows = tmp_path / "missing" / "rows.jsonl"
    err = _refusal(check_outputs, [Output("--rows", rows)], {})
    assert str(err) == (
        f"--rows {rows}: directory {rows.parent} does not exist; create it or choose another path"
    )


def test_the_directory_kind_is_checked_as_a_report_set(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    err = _refusal(
        check_outputs, [Output("--out", out, "directory", ("report.json",))], {}, overwrite=True
    )
    assert "holds files textfair did not write (notes.txt)" in str(err)


def test_the_cache_kind_refuses_a_users_database(tmp_path):
    db = tmp_path / "mine.sqlite"
    sqlite3.connect(db).execute("CREATE TABLE people (name TEXT)").connection.close()
    err = _refusal(check_outputs, [Output("--cache", db, "cache")], {}, overwrite=True)
    assert str(err).startswith(f"--cache {db} is not a textfair cache (an SQLite database")
