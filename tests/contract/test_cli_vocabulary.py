"""One vocabulary across commands: every option of every command has help, one concept has
one flag everywhere, a choice refuses an unknown value in one line, and the old names still
work for one release with a note."""

from __future__ import annotations

import typing
from collections import defaultdict

import pytest
import typer

from textfair.cli import app, main
from textfair.cli._options import ALIASES

COMMAND = typer.main.get_command(app)


def _commands(group=COMMAND, path=()):
    for name, sub in group.commands.items():
        if hasattr(sub, "commands"):
            yield from _commands(sub, (*path, name))
        else:
            yield (*path, name), sub


def _options():
    for path, sub in _commands():
        for param in sub.params:
            if param.param_type_name == "option":
                yield path, param


def _choices(param) -> tuple[str, ...]:
    """The values a choice option accepts (a Literal annotation, or a click Choice)."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and typing.get_origin(descriptor.annotation) is typing.Literal:
        return typing.get_args(descriptor.annotation)
    return tuple(getattr(getattr(param, "type", None), "choices", ()) or ())


def test_every_option_of_every_command_has_help():
    missing = [f"{' '.join(path)} {max(p.opts, key=len)}" for path, p in _options() if not p.help]
    assert not missing, missing


def test_one_concept_one_flag_across_commands():
    flags_of, names_of = defaultdict(set), defaultdict(set)
    for _path, param in _options():
        flag = max(param.opts, key=len)
        flags_of[param.name].add(flag)
        names_of[flag].add(param.name)
    assert {name: flags for name, flags in flags_of.items() if len(flags) > 1} == {}
    assert {flag: names for flag, names in names_of.items() if len(names) > 1} == {}
    # The label column is --label-column in text and table commands alike; --label is the
    # old table name, hidden.
    visible = {max(p.opts, key=len) for _, p in _options() if not p.hidden}
    assert "--label" not in visible and "--label-column" in visible


def test_choice_options_are_listed_and_checked():
    choices = {max(p.opts, key=len): _choices(p) for _, p in _options() if _choices(p)}
    assert set(choices) >= {"--mode", "--correction", "--method", "--loop", "--strategy", "--on"}


def _one_line_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    captured = capsys.readouterr()
    assert stop.value.code == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.mark.parametrize(
    "argv",
    [
        (path, max(param.opts, key=len))
        for path, param in _options()
        if _choices(param) or param.name == "device"
    ],
    ids=lambda case: " ".join(case[0]) + " " + case[1],
)
def test_a_choice_refuses_an_unknown_value_in_one_line(capsys, argv):
    path, flag = argv
    line = _one_line_error(capsys, *path, flag, "bogus")
    assert "bogus" in line and flag in line


def test_short_help_and_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["audit", "-h"])
    assert stop.value.code == 0 and "--label-column" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    from textfair import __version__

    assert stop.value.code == 0 and capsys.readouterr().out.strip() == f"textfair {__version__}"


def test_old_names_still_work_with_a_note(capsys):
    assert ALIASES == {"label_column": "--label", "label_names": "--labels"}
    table = ["tabular", "audit", "--model", "sklearn:m.joblib", "--data", "d.csv"]
    # `--label` arrives as --label-column: past the label check, the missing data file fails.
    with pytest.raises(SystemExit) as stop:
        main([*table, "--sensitive", "sex", "--label", "y"])
    note, error = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 2 and note.startswith("note: --label is now --label-column")
    assert "d.csv" in error and "label" not in error
    # Neither name: one line naming the new flag.
    assert "--label-column" in _one_line_error(capsys, *table, "--sensitive", "sex")


def test_the_causal_command_has_a_name_of_its_own():
    names = {path[-1] for path, _ in _commands()}
    assert {"causal", "counterfactuals"} <= names
    assert COMMAND.commands["counterfactual"].hidden


def test_every_command_that_loads_a_model_takes_its_labels():
    """A py: model that returns labels needs --label-names; the error that says so must name
    a flag the command has."""
    commands = {path: {max(p.opts, key=len) for p in sub.params} for path, sub in _commands()}
    loading = [path for path, flags in commands.items() if "--model" in flags]
    assert len(loading) >= 8
    assert [path for path in loading if "--label-names" not in commands[path]] == []


def test_a_py_model_returning_labels_is_told_to_pass_labels(tmp_path, monkeypatch, capsys):
    (tmp_path / "labelled.py").write_text(
        "def f(texts):\n    return ['toxic' if 'gay' in t else 'non-toxic' for t in texts]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    line = _one_line_error(capsys, "audit", "--model", "py:labelled:f")
    assert "--label-names" in line
    for flag in ("--label-names", "--labels"):  # the old name, for one release
        with pytest.raises(SystemExit) as stop:
            main(["predict", "--model", "py:labelled:f", flag, "non-toxic,toxic", "--text", "hi"])
        assert stop.value.code == 0, capsys.readouterr().err
