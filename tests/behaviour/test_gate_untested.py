"""The gate never passes on nothing: `--fail-above` over an audit that tested no rule set, or
a `--require` category left untested, exits 5 with one line (the report still written);
`--templates` is read before any work; the gate reads the templates' findings too."""

import json

import pytest
from typer.testing import CliRunner

from textfair.cli import app

from conftest import write_flat_model

runner = CliRunner()

# Four texts name a religion, one a gender, fifteen none: a religion rule set's support is
# at most 0.2 (--theta 0.9 makes none frequent), a gender one's 0.05 (--theta 0.15: none).
CORPUS = [
    "comment",
    "I am a gay man.",
    "A Muslim spoke.",
    "My Christian friend came.",
    "The Jewish family moved.",
    "A Buddhist monk prayed.",
    *(f"The weather was nice on day {i}." for i in range(15)),
]


def invoke(*args):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.fixture
def small_corpus(tmp_path, monkeypatch):
    write_flat_model(tmp_path)
    (tmp_path / "planted.py").write_text(
        "import numpy as np\n"
        "def predict(texts):\n"
        "    return np.array([[0.0, 1.0] if 'muslim' in t.lower() and 'person' in t.lower()\n"
        "                     else [1.0, 0.0] for t in texts])\n"
        "predict.labels = ['non-toxic', 'toxic']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "c.csv").write_text("\n".join(CORPUS) + "\n")
    return tmp_path


def audit(corpus, *args, model="py:models:flat"):
    return invoke(
        "audit",
        "--model",
        model,
        "--data",
        str(corpus / "c.csv"),
        "--text-column",
        "comment",
        *args,
    )


def last_line(result) -> str:
    return result.output.strip().splitlines()[-1]


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def test_a_gate_over_nothing_tested_exits_5_and_still_writes_the_report(small_corpus):
    out = small_corpus / "out"
    args = ("--categories", "religion", "--templates", "none", "--theta", "0.9")
    result = audit(small_corpus, *args, "--fail-above", "5", "--out", str(out))
    assert result.exit_code == 5, result.output
    line = last_line(result)
    assert line.startswith("untested: no rule set of any category was scored on the 20 texts")
    assert "--fail-above cannot pass on nothing" in line
    assert "--theta" in line and "--unit sentence" in line and "--templates auto" in line
    assert "Traceback" not in result.output
    assert json.loads((out / "report.json").read_text())["rule_sets_tested"] == 0
    # Without a gate nothing is judged: the same audit is done.
    assert audit(small_corpus, *args).exit_code == 0


def test_require_a_category_not_audited_exits_5(small_corpus):
    result = audit(
        small_corpus, "--categories", "religion", "--templates", "none", "--require", "gender"
    )
    assert result.exit_code == 5, result.output
    assert last_line(result) == (
        "untested: --require gender is not met: gender not audited (add to --categories)"
    )


def test_require_a_category_with_no_rule_set_exits_5_naming_it(small_corpus):
    args = ("--categories", "gender,religion", "--templates", "none", "--theta", "0.15")
    result = audit(small_corpus, *args, "--require", "religion,gender")
    assert result.exit_code == 5, result.output
    assert last_line(result) == (
        "untested: --require religion,gender is not met: gender had no rule set on the texts "
        "(give more texts that name them, a lower --theta, --unit sentence for long documents "
        "or --templates auto)"
    )
    # Religion alone is tested: the requirement is met.
    assert audit(small_corpus, *args, "--require", "religion").exit_code == 0


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("nosuchfile.txt", None, "is neither a built-in suite (auto, toxicity, sentiment, none)"),
        ("empty.txt", "# only a comment\n\n", "holds no template"),
        ("latin.txt", "caf\xe9 {identity}\n".encode("latin-1"), "could not be read as UTF-8"),
    ],
)
def test_a_wrong_templates_file_is_one_line_exit_2(small_corpus, name, content, message):
    path = small_corpus / name
    if content is not None:
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    line = one_line_error(audit(small_corpus, "--templates", str(path)))
    assert f"--templates {str(path)!r}" in line and message in line


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "religon",
            "--require names 'religon'; expected categories of the term list 'dixon2018': "
            "gender, race, religion, age",
        ),
        (" , ", "--require ' , ' names no category"),
    ],
)
def test_an_unknown_required_category_is_one_line_exit_2(small_corpus, value, message):
    line = one_line_error(audit(small_corpus, "--require", value))
    assert message in line


def test_a_templates_file_runs_beside_the_corpus(small_corpus):
    templates = small_corpus / "mine.txt"
    templates.write_text(
        "I am a {identity} person.\n# skipped\nMy neighbour is {identity}.\n"
        "We met a {identity} friend.\n"
    )
    out = small_corpus / "out"
    result = audit(
        small_corpus,
        "--categories",
        "religion",
        "--templates",
        str(templates),
        "--require",
        "religion",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    section = json.loads((out / "report.json").read_text())["templates"]
    assert section["data"]["templates"] == str(templates)
    assert section["data"]["template_count"] == 3


def test_the_gate_reads_the_templates_findings(small_corpus):
    """A model unfair only on the templates' sentences (Muslim ... person): exit 1, as the
    corpus alone passes; a --require category left out is said too, but exit 1 wins."""
    templates = small_corpus / "towns.txt"
    templates.write_text(
        "".join(f"I am a {{identity}} person from town number {i}.\n" for i in range(40))
    )
    args = ("--categories", "religion", "--fail-above", "10")
    result = audit(
        small_corpus,
        *args,
        "--templates",
        str(templates),
        "--require",
        "religion,gender",
        model="py:planted:predict",
    )
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert "1 significant difference larger than --fail-above 10" in lines[-2]
    assert lines[-1].startswith("untested: --require religion,gender is not met: gender")
    corpus_only = audit(small_corpus, *args, "--templates", "none", model="py:planted:predict")
    assert corpus_only.exit_code == 0, corpus_only.output


def test_help_lists_exit_code_5():
    result = invoke("--help")
    assert result.exit_code == 0
    assert "5 the gate cannot be judged" in " ".join(result.output.split())


@pytest.mark.slow
def test_require_a_category_the_bundled_audit_tests_passes():
    result = invoke("audit", "--require", "religion")
    assert result.exit_code == 0, result.output
