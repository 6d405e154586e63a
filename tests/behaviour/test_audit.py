"""The text audit: planted bias found and measured honestly, a fair model called fair, the CLI."""

import json
import re
from importlib import resources

import numpy as np
import pytest
from typer.testing import CliRunner

from textfair.auditing.text import audit_text
from textfair.cli import app
from textfair.core.rules import Rule
from textfair.discovery import frequent_rule_sets
from textfair.discovery.groups import group_fairness
from textfair.models import CachedModel, CallableModel
from textfair.models.spec import load_model
from textfair.report.model import AuditReport
from textfair.settings import AuditConfig
from textfair.terms import load_term_list
from textfair.text.domain import TextDomain
from textfair.text.reading_store import forget_readings
from textfair.text.templates import expand_template

from conftest import write_flat_model
from synthetic import FILLER, unit

TERMS = """
categories:
  gender: [{term: gay, pos: adjective}, {term: lesbian, pos: both, plural: [lesbians]},
           {term: straight, pos: adjective}]
  religion: [{term: Taoist, pos: both}, {term: Christian, pos: both}, {term: Muslim, pos: both}]
  race: [{term: Asian, pos: both}, {term: European, pos: both}, {term: Mexican, pos: both}]
"""
PAIRS = {
    ("gender", "religion"): ("gay", "taoist"),
    ("gender", "race"): ("lesbian", "mexican"),
    ("race", "religion"): ("asian", "muslim"),
}


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    path = tmp_path_factory.mktemp("terms") / "small.yaml"
    path.write_text(TERMS)
    terms = load_term_list(path)
    texts = [
        variant.text.replace("XX", filler)
        for template in (
            "A {gender} {religion} {race} editor XX.",
            "The {race} user, {gender} and {religion}, XX.",
            "My {religion} neighbour is {gender} and XX.",
        )
        for variant in expand_template(template, terms=terms)
        for filler in (
            f"{clause} {when}" for clause in FILLER for when in ("today", "yesterday", "again")
        )
    ]
    return terms, texts


def planted_model(pair_terms, salt):
    """Toxic (column 1) with probability 0.1, or 0.3 when a text names both planted terms."""
    first, second = pair_terms

    def predict(texts):
        out = []
        for text in texts:
            lower = text.lower()
            p = 0.3 if first in lower and second in lower else 0.1
            out.append([0.0, 1.0] if unit(f"{salt}:{text}") < p else [1.0, 0.0])
        return np.array(out)

    return CallableModel(predict, labels=["non-toxic", "toxic"])


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_planted_rule_set_is_ranked_first(setup, pair):
    terms, texts = setup
    report = audit_text(
        planted_model(PAIRS[pair], salt=7),
        texts,
        favorable="non-toxic",
        config=AuditConfig(terms=terms, max_order=2, causal=False, seed=3),
    )
    top = report.findings[0]
    assert sorted(r.value for r in top.rule_set) == sorted(PAIRS[pair])
    assert top.significant and top.ci[0] <= -0.2 <= top.ci[1]


@pytest.mark.slow
def test_interval_covers_the_true_score_in_200_seeded_runs(setup):
    terms, texts = setup
    domain = TextDomain(texts, terms)
    planted = (Rule("gender", "gay"), Rule("religion", "taoist"))
    support = float(domain.support_mask(planted).mean())
    covered = []
    for run in range(200):
        model = CachedModel(planted_model(PAIRS[("gender", "religion")], salt=run))
        finding = group_fairness(domain, model, [planted], [support], favorable=0, seed=run)[0]
        covered.append(finding.ci[0] <= -0.2 <= finding.ci[1])
    assert np.mean(covered) >= 0.93


@pytest.mark.slow
def test_a_fair_model_is_called_fair_in_200_seeded_runs(setup):
    terms, texts = setup
    domain = TextDomain(texts, terms)
    frequent = frequent_rule_sets(domain)
    words = re.compile(
        r"\b(gay|lesbian|straight|taoist|christian|muslim|asian|european|"
        r"mexican)\b",
        re.IGNORECASE,
    )
    unfair_runs = 0
    for run in range(200):

        def blind(batch, salt=run):  # ignores identity terms: they are masked before the draw
            return np.array(
                [
                    [0.0, 1.0] if unit(f"{salt}:{words.sub('X', t)}") < 0.1 else [1.0, 0.0]
                    for t in batch
                ]
            )

        model = CachedModel(CallableModel(blind, labels=["non-toxic", "toxic"]))
        findings = group_fairness(
            domain, model, frequent.rule_sets, frequent.supports, favorable=0, seed=run
        )
        unfair_runs += any(f.significant for f in findings)
    assert unfair_runs <= 10  # >= 95% of runs call it fair


runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.mark.slow
def test_default_audit_writes_a_report_that_follows_the_contract(tmp_path):
    result = invoke("audit", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text())
    assert set(report) >= {
        "textfair_version",
        "command",
        "seed",
        "model",
        "data",
        "config",
        "findings",
        "counterfactual",
        "metrics",
        "run",
    }
    finding = report["findings"][0]
    assert set(finding) >= {
        "rule_set",
        "phi_r",
        "phi_not_r",
        "score",
        "margin",
        "ci",
        "p_value",
        "p_adjusted",
        "significant",
        "n_r",
        "n_not_r",
        "support",
        "examples",
    }
    fingerprint = report["model"].pop("fingerprint")  # what `mitigate --report` checks
    assert fingerprint == load_model("toxicity-cnn-lstm").fingerprint
    assert report["model"] == {
        "id": "toxicity-cnn-lstm",
        "labels": ["non-toxic", "toxic"],
        "favorable": "non-toxic",
    }
    assert report["run"]["model_queries"] == report["run"]["unique_inputs"]
    assert report["metrics"]["overall_auc"] > 0.9
    assert (tmp_path / "report.md").read_text().startswith("# textfair audit")
    assert list(tmp_path.glob(".*.tmp")) == []


@pytest.mark.slow
def test_fail_above_sets_the_exit_code(setup, tmp_path, monkeypatch):
    _, texts = setup
    (tmp_path / "planted.py").write_text(
        "import hashlib\nimport numpy as np\n"
        "def predict(texts):\n"
        "    return np.array([[0.0, 1.0] if 'gay' in t and 'Taoist' in t else [1.0, 0.0]\n"
        "                     for t in texts])\n"
        "predict.labels = ['non-toxic', 'toxic']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(texts) + "\n")
    args = ["audit", "--model", "py:planted:predict", "--data", str(corpus), "--max-order", "2"]
    failing = invoke(*args, "--fail-above", "50")
    assert failing.exit_code == 1, failing.output
    assert "larger than --fail-above 50, either way: failing" in failing.output
    assert "FAIL: " in failing.output
    assert invoke(*args, "--fail-above", "100").exit_code == 0  # the planted score: 100 points


@pytest.fixture
def small_corpus(tmp_path, monkeypatch):
    write_flat_model(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "c.csv").write_text("id,comment\n1,I am a gay man.\n2,A Muslim woman spoke.\n")
    return tmp_path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--text-column", "commnt"], "no column 'commnt'; columns are: id, comment"),
        (["--label-column", "lbl"], "no label column 'lbl'; columns are: id, comment"),
        (["--favorable", "good"], "its labels are: non-toxic, toxic"),
        (["--theta", "0"], "--theta is 0.0; expected a number in (0, 1]"),
        (["--theta", "1.5"], "--theta is 1.5"),
        # The CI gate must not pass by asking nothing: each of these ran 0 queries, "fair".
        (["--min-samples", "0", "--max-samples", "0"], "--min-samples is 0; expected a whole"),
        (["--max-samples", "-5"], "--max-samples is -5"),
        (["--error", "nan"], "--error is nan; expected a number in (0, 100) points"),
        (["--fail-above", "nan"], "--fail-above is 'nan': nan is not points in [0, 100]"),
        (["--fail-above", "gender=0.1,sex=0.2"], "--fail-above names sex; expected a category"),
        (["--fail-above", "gender=x"], "--fail-above is 'gender=x': 'x' is not a number"),
        (["--seed", "-1"], "--seed is -1; expected a whole number, 0 or more"),
    ],
)
def test_audit_bad_input_is_one_line_exit_2(small_corpus, args, message):
    result = invoke(
        "audit",
        "--model",
        "py:models:flat",
        "--data",
        str(small_corpus / "c.csv"),
        "--text-column",
        "comment",
        *args,
    )
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_audit_bad_files(small_corpus):
    cases = {
        "empty.csv": ("", "the file is empty"),
        "latin.csv": ("comment\ncaf\xe9\n".encode("latin-1"), "not UTF-8"),
        "none.csv": (
            "comment\nThe weather is nice.\nNothing here.\n",
            "none of the 2 texts read mentions a term",
        ),
    }
    for name, (content, message) in cases.items():
        path = small_corpus / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        # The corpus alone: with templates, a corpus naming nobody is still audited.
        result = invoke(
            "audit",
            "--model",
            "toxicity-cnn-lstm",
            "--data",
            str(path),
            "--text-column",
            "comment",
            "--templates",
            "none",
        )
        assert result.exit_code == 2, (name, result.output)
        assert message in result.output, (name, result.output)


def test_audit_reads_parquet_and_causal_runs_causal_tests_alone(small_corpus):
    import pandas as pd

    pd.DataFrame(
        {"comment": ["I am a gay man.", "A Muslim woman spoke.", "An old man."]}
    ).to_parquet(small_corpus / "c.parquet")
    result = invoke(
        "causal",
        "--data",
        str(small_corpus / "c.parquet"),
        "--text-column",
        "comment",
        "--out",
        str(small_corpus / "out"),
    )
    assert result.exit_code == 0, result.output
    report = json.loads((small_corpus / "out" / "report.json").read_text())
    assert report["findings"] == [] and report["counterfactual"]["causal"]
    # The verdict counts no rule set it never tested ("0 rule sets, 0 significant").
    verdict = result.output.split("Verdict: ", 1)[1]
    # With templates, each section says so ("On your texts: ... On templates: ...").
    assert "On your texts: toxicity-cnn-lstm: causal tests only." in verdict
    assert "rule set" not in verdict


@pytest.mark.slow
def test_same_seed_same_report(setup):
    terms, texts = setup

    def run(seed):
        forget_readings()  # each run reads the corpus, as a new process would
        report = audit_text(
            planted_model(PAIRS[("gender", "race")], salt=1),
            texts,
            favorable="non-toxic",
            config=AuditConfig(terms=terms, seed=seed),
        )
        record = report.to_dict()
        record["run"].pop("seconds")
        record["templates"]["run"].pop("seconds")  # the templated section's own time
        return record

    assert run(5) == run(5)
    assert run(5)["findings"] != run(6)["findings"]


def test_audit_takes_a_scikit_learn_pipeline_as_it_is():
    """A notebook user passes the fitted Pipeline itself: the audit wraps it, and its report
    equals the one for the explicitly wrapped model (same seed, same queries)."""
    import csv

    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline

    from textfair.models.sklearn import SklearnModel

    path = resources.files("textfair.datasets").joinpath("wiki_toxicity.csv")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    texts = [row["comment"] for row in rows]
    labels = ["toxic" if row["toxic"] == "True" else "non-toxic" for row in rows]
    fitted = Pipeline([("tfidf", TfidfVectorizer()), ("lr", LogisticRegression())])
    fitted.fit(texts, labels)
    config = AuditConfig(categories=["gender"], causal=False, max_samples=100)
    direct = audit_text(fitted, texts, favorable="non-toxic", config=config)
    wrapped = audit_text(SklearnModel(fitted), texts, favorable="non-toxic", config=config)
    assert direct.findings and direct.findings == wrapped.findings
    assert direct.model.labels == ("non-toxic", "toxic")


def test_a_model_that_fails_mid_run_exits_3_never_1(small_corpus):
    """A broken model is never reported as an unfair one: exit 3 with one line, even with
    --fail-above set, and no report is written."""
    (small_corpus / "flaky.py").write_text(
        "import numpy as np\n"
        "def predict(texts):\n"
        "    if len(texts) > 2:  # answers the probes of two texts, then fails\n"
        "        raise ConnectionError('model server went away')\n"
        "    return np.tile([0.8, 0.2], (len(texts), 1))\n"
        "predict.labels = ['non-toxic', 'toxic']\n"
    )
    out = small_corpus / "out"
    result = invoke(
        "audit",
        "--model",
        "py:flaky:predict",
        "--data",
        str(small_corpus / "c.csv"),
        "--text-column",
        "comment",
        "--fail-above",
        "0",
        "--out",
        str(out),
    )
    assert result.exit_code == 3, result.output
    line = result.output.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line
    assert "ConnectionError: model server went away" in line
    assert not out.exists()


@pytest.mark.slow  # two audits through the CLI: 6 s of the fast tier's 3 minutes
def test_the_audit_says_what_it_wrote_and_where_the_answers_are_kept(tmp_path):
    """Without --out nothing is written, and the audit says so and how to write a report;
    with --out the 'wrote' lines name the reports and the answers file with its size."""
    quick = ("--categories", "gender")
    result = invoke("audit", *quick)
    assert result.exit_code == 0, result.output
    assert "wrote nothing: pass --out DIR" in result.output
    result = invoke("audit", *quick, "--out", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    cache = tmp_path / "report.cache.sqlite"
    assert cache.is_file()
    said = " ".join(result.output.split())
    assert (
        f"kept the model's answers and the corpus's reading in {cache} (" in said and " MB)" in said
    )
    # The terminal ends with the verdict in words, then what was written; report.md says it.
    report = AuditReport.read(tmp_path / "report" / "report.json")
    assert f"Verdict: {report.summary()}" in said
    assert said.index("Verdict: ") < said.index("wrote ")
    assert report.summary() in (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    # With a gate, the verdict starts with its pass or fail.
    result = invoke("audit", *quick, "--fail-above", "50", "--cache", str(tmp_path / "c.db"))
    said = " ".join(result.output.split())
    assert "Verdict: PASS: no significant difference larger than the gate of 50.0 points" in said


@pytest.mark.slow  # five audits from the command line, 9 s
def test_the_gate_takes_a_threshold_per_category_or_term(tmp_path):
    """--fail-above gender=5 fails on the bundled model's {"lgbt"} (+11.1 points, the one
    significant gender finding); a gate on religion alone passes it; a term's own threshold
    (lgbt=20) is used before its category's. The verdict names what failed."""
    # Every variant, as before the acceptability threshold: the numbers pinned are the gate's.
    quick = (
        "--categories",
        "gender,religion",
        "--min-acceptability",
        "0",
        "--cache",
        str(tmp_path / "answers.db"),
        # The corpus's findings: the gate reads the templates' too (test_gate_untested).
        "--templates",
        "none",
    )
    failing = invoke("audit", *quick, "--fail-above", "gender=5,religion=5")
    assert failing.exit_code == 1, failing.output
    said = " ".join(failing.output.split())
    assert (
        "Verdict: FAIL: 1 significant difference larger than the gate of gender 5.0, "
        "religion 5.0 points, either way (--fail-above gender=5,religion=5): "
        '{"lgbt"} +11.1 [+4.4, +17.0] (favoured).'
    ) in said
    assert "larger than --fail-above gender=5,religion=5, either way: failing" in said
    assert invoke("audit", *quick, "--fail-above", "religion=5").exit_code == 0
    assert invoke("audit", *quick, "--fail-above", "lgbt=20,gender=5").exit_code == 0
    assert invoke("audit", *quick, "--fail-above", "religion=5,5").exit_code == 1
    # The old form, a fraction, is still read, with a note saying how to write it.
    from textfair.settings import PointsNote

    with pytest.warns(PointsNote, match="read as a fraction: 5 points"):
        assert invoke("audit", *quick, "--fail-above", "religion=0.05,0.05").exit_code == 1


def test_a_category_that_gets_no_rule_set_is_named_with_the_reason():
    """Age is mentioned by 13 of the 1,492 bundled comments, below the support --theta 0.05:
    the report says so rather than leaving it out in silence (issue 29, friction 7)."""
    import textfair

    from conftest import bundled_comments

    def insults(texts):  # the note is the reading's: a model of words answers as well
        toxic = np.array([float("stupid" in t.lower()) for t in texts])
        return np.column_stack([1 - toxic, toxic])

    insults.labels = ["non-toxic", "toxic"]
    report = textfair.audit(
        insults, bundled_comments()[0], categories=["gender", "age"], causal=False
    )
    assert not any(r.category == "age" for f in report.findings for r in f.rule_set)
    note = next(n for n in report.reading_notes() if n.startswith("No rule set for"))
    assert note.startswith("No rule set for age (13 of 1,492 texts mention it)")
    assert "--theta 0.05 (theta= in Python)" in note
