"""The CLI: JSON-lines output, term commands, and one-line errors with exit code 2."""

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.errors import TextfairError
from textfair.io import current_umask

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def records(output):
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_terms_list_shows_dixon2018_with_4_categories_and_48_terms():
    result = run("terms", "list")
    assert result.exit_code == 0
    assert "dixon2018 (terms: 4 categories, 48 terms)" in result.output.splitlines()
    assert "gender_pairs (pairs: 74 pairs)" in result.output.splitlines()


def test_terms_list_in_a_pipe_at_80_columns_names_every_list_whole():
    # Issue 57: a table cut the names at 80 columns ("names_ethni…", "nationality…").
    from textfair.terms import builtin_term_lists

    shown = subprocess.run(
        [sys.executable, "-m", "textfair", "terms", "list"],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"}, check=True,
    ).stdout  # fmt: skip
    lines = shown.splitlines()
    assert max(len(line) for line in lines) <= 80
    heads = [line.split(" (")[0] for line in lines if line and not line.startswith(" ")]
    assert heads == list(builtin_term_lists())
    assert "…" not in shown


def test_terms_show_and_validate(write):
    shown = run("terms", "show", "dixon2018")
    assert shown.exit_code == 0 and "Jews" in shown.output and "person_context" in shown.output
    assert run("terms", "show", "gender_pairs").exit_code == 0
    good = write("ok.csv", "category,term\nreligion,muslim\nreligion,jewish\n")
    result = run("terms", "validate", str(good))
    assert result.exit_code == 0 and "1 category, 2 terms" in result.output


def test_counterfactuals_of_one_text():
    result = run(
        "counterfactuals", "--text", "A gay man met an Asian woman.", "--categories", "race"
    )
    assert result.exit_code == 0
    lines = records(result.output)
    # "Asian" names a region of origin: it becomes African, European or Middle Eastern,
    # never a nationality or a race (see the term list's axes).
    assert len(lines) == 3
    assert lines[0].keys() >= {"seed_id", "text", "category", "from", "to"}
    assert {
        "text": "A gay man met a European woman.",
        "from": "asian",
        "to": "european",
    }.items() <= next(r for r in lines if r["to"] == "european").items()


def test_counterfactuals_flag_a_bare_first_name_world_unless_told_names_are_private():
    # Issue 56: a first name the text does not show to be a private person's is swapped,
    # each record flagged `world` (it may rename a real person); --private-names: no flag.
    text = ["--text", "Tyrone said he would fix the article.", "--terms", "names_ethnicity"]
    shown = run("counterfactuals", *text, "--min-acceptability", "0")
    assert shown.exit_code == 0 and len(records(shown.output)) == 3  # the three other groups
    assert all(
        r["world"] == "first name 'Tyrone', not shown to be a private person's"
        for r in records(shown.output)
    )
    told = run("counterfactuals", *text, "--min-acceptability", "0", "--private-names")
    assert told.exit_code == 0 and len(records(told.output)) == 3
    assert all(r["text"].endswith(" said he would fix the article.") for r in records(told.output))
    assert all(r["world"] is None for r in records(told.output))
    assert [r["text"] for r in records(told.output)] == [r["text"] for r in records(shown.output)]


def test_counterfactuals_default_runs_on_the_bundled_examples():
    result = run("counterfactuals")
    assert result.exit_code == 0
    lines = records(result.output)
    # 5 of the 7: "I'm Catholic and Pope John Paul II..." names the Pope, a word of the
    # Catholic identity with no counterpart, so it is left out of the religion rows; "if
    # she was Jewish and she replied ``only ethnic``" speaks of descent, which no faith in
    # the place of "Jewish" keeps (issue 56).
    assert len({r["seed_id"] for r in lines}) == 5
    assert any(r["text"].startswith("(I'm Jewish I don't like") for r in lines)


def test_counterfactuals_of_a_file_written_atomically(write, tmp_path):
    data = write(
        "corpus.tsv", "id\tcomment\n1\tI am a Muslim.\n2\tNo identity here.\n3\tHe is old.\n"
    )
    out = tmp_path / "out.jsonl"
    result = run(
        "counterfactuals",
        "--data",
        str(data),
        "--text-column",
        "comment",
        "--id-column",
        "id",
        "--out",
        str(out),
        "--gender-swap",
    )
    assert result.exit_code == 0, result.output
    lines = records(out.read_text())
    assert {r["seed_id"] for r in lines} == {1, 3}
    assert sum(r["category"] == "religion" for r in lines) == 8
    assert any(r["text"] == "She is old." for r in lines)
    assert list(tmp_path.glob(".out.jsonl.*")) == []  # no temp file left behind
    # An ordinary file, as the umask says (a temporary file is created 0600).
    assert out.stat().st_mode & 0o777 == 0o666 & ~current_umask()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["counterfactuals", "--text", "a", "--data", "x.csv"], "both --text and --data"),
        (
            ["counterfactuals", "--text", "a gay man", "--categories", "colour"],
            "unknown category 'colour'",
        ),
        (["counterfactuals", "--text", "a gay man", "--terms", "nope"], "unknown term list 'nope'"),
        (["counterfactuals", "--data", "missing.csv", "--text-column", "t"], "no such file"),
        (["counterfactuals", "--text", "  "], "--text is empty"),
        (["terms", "show", "nope"], "unknown term list 'nope'"),
        (["terms", "validate", "missing.yaml"], "unknown term list 'missing.yaml'"),
    ],
)
def test_user_mistakes_get_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_bad_files_get_one_line_and_exit_2(write):
    cases = [
        (write("latin.csv", "text\ncaf\xe9\n".encode("latin-1")), "text", "not UTF-8"),
        (write("empty_col.csv", "text,other\n,1\n,2\n"), "text", "has no text in any"),
        (write("cols.csv", "a,b\n1,2\n"), "comment", "no column 'comment'; columns are: a, b"),
        (write("data.xlsx", "x"), "text", "unknown format '.xlsx'"),
        (write("empty.csv", ""), "text", "the file is empty"),
    ]
    for path, column, message in cases:
        result = run("counterfactuals", "--data", str(path), "--text-column", column)
        assert result.exit_code == 2, (path, result.output)
        assert message in result.output and len(result.output.strip().splitlines()) == 1
    bad_yaml = write("bad.yaml", "categories: [\n")
    result = run("terms", "validate", str(bad_yaml))
    assert result.exit_code == 2 and "malformed YAML" in result.output


def test_cli_import_loads_no_heavy_library():
    """What keeps `textfair --help` fast: torch, transformers, pandas and nltk load lazily."""
    code = (
        "import sys; import textfair.cli; print(sorted(m for m in ('torch', 'transformers', "
        "'pandas', 'nltk') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_column_called_text_is_read_with_a_note_and_labels_get_a_label_map_hint(tmp_path, capsys):
    """`--data posts.csv` with a column named "text" (or one column of strings) is read
    without --text-column, and says so; 0/1 labels against negative/positive name the
    --label-map that would pair them (issue 29, friction 4)."""
    from textfair.cli import main

    posts = tmp_path / "posts.csv"
    posts.write_text("text,is_toxic\nI am a gay man.,0\nHello there.,1\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "textfair", "counterfactuals", "--data", str(posts)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "note: " in done.stderr and "read column 'text' as the texts" in done.stderr
    assert "I am a straight man." in done.stdout
    words = tmp_path / "words.csv"
    words.write_text("id,body\n1,I am a gay man.\n2,Hi.\n", encoding="utf-8")
    from textfair.corpus import load_corpus

    with pytest.warns(UserWarning, match="'body'.*only column of strings"):
        assert load_corpus(words).texts == ["I am a gay man.", "Hi."]
    two = tmp_path / "two.csv"
    two.write_text("a,b\nx,y\n", encoding="utf-8")
    with pytest.raises(TextfairError, match=r"name it with --text-column \(text_column="):
        load_corpus(two)
    labelled = tmp_path / "labelled.csv"
    labelled.write_text("text,label\nI am a gay man.,0\nHello.,1\n", encoding="utf-8")
    with pytest.raises(SystemExit) as ended:
        main(["audit", "--model", "sentiment-lstm", "--data", str(labelled), "--label-column",
              "label"])  # fmt: skip
    assert ended.value.code == 2
    assert "pass --label-map '0=negative,1=positive'" in capsys.readouterr().err


def test_a_tsv_without_a_header_is_one_line_and_exit_2_before_any_query(write, tmp_path):
    # Issue 57: the first review became the column name, and the only notice came after
    # the verdict without saying "no header".
    reviews = write("reviews.tsv", "1\tA gay man wrote this review.\n0\tA dull film.\n")
    result = run("audit", "--data", str(reviews), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert "the first row looks like data, not a header ('1' is a number)" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.slow  # an audit in a subprocess: 5 s of the fast tier's 3 minutes
def test_how_the_input_was_read_is_said_before_the_report_and_its_verdict(tmp_path):
    """Issue 57: the only notice of how a file was read came last, after the verdict it
    qualifies. The note is said once the input is validated, before the first query."""
    posts = tmp_path / "posts.csv"
    posts.write_text(
        "id,body\n1,I am a gay man.\n2,She is a lesbian.\n3,Hello there.\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "textfair", "audit", "--model", "sentiment-lstm", "--data",
         str(posts), "--categories", "gender", "--templates", "none", "--cache",
         str(tmp_path / "answers.db")],
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # one stream, in the order written
    )  # fmt: skip
    assert done.returncode in (0, 5), done.stdout
    said = done.stdout
    note = said.index("note: ")
    assert "read column 'body' as the texts" in said[note : note + 200]
    assert note < said.index("Verdict")
    assert said.count("read column 'body'") == 1


@pytest.mark.slow  # two audits in subprocesses: 8 s of the fast tier's 3 minutes
def test_a_rerun_over_the_cache_says_counts_that_add_up(tmp_path):
    """Issue 57: after --overwrite the run line read "0 model queries for 19,136 texts
    requested (16,089 ... answered from the cache)": 3,047 texts went unaccounted for. Every
    text requested is distinct or a repeat, and a rerun says where the distinct ones came
    from."""
    import re

    posts = tmp_path / "posts.csv"
    posts.write_text(
        "text\nI am a gay man.\nShe is a lesbian.\nHe is a straight man.\nHello there.\n",
        encoding="utf-8",
    )
    line = re.compile(
        r"([\d,]+) model quer(?:y|ies)(?: \([^)]*\))? for ([\d,]+) texts requested: ([\d,]+) "
        r"distinct(?: \((all|[\d,]+ of them) answered from an earlier run's cache\))?, "
        r"([\d,]+) repeats answered from memory"
    )

    def run() -> tuple[int, int, int, str | None, int]:
        done = subprocess.run(
            [sys.executable, "-m", "textfair", "audit", "--model", "sentiment-lstm", "--data",
             str(posts), "--categories", "gender", "--templates", "none", "--cache",
             str(tmp_path / "answers.db")],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "200"},
        )  # fmt: skip
        found = line.search(" ".join(done.stdout.split()))
        assert found, done.stdout + done.stderr
        queries, requested, distinct, earlier, repeats = found.groups()
        number = lambda text: int(text.replace(",", ""))  # noqa: E731
        return number(queries), number(requested), number(distinct), earlier, number(repeats)

    queries, requested, distinct, earlier, repeats = run()
    assert queries == distinct > 0 and earlier is None and requested == distinct + repeats
    queries, requested, again, earlier, repeats = run()
    assert queries == 0 and earlier == "all" and again == distinct
    assert requested == distinct + repeats
