"""Mitigation: the split, the retrainers, the two loops, the pipeline and `textfair mitigate`."""

import csv
import json

import joblib
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.errors import TextfairError
from textfair.mitigate import retrain
from textfair.mitigate.pipeline import MitigationConfig, mitigate_table, mitigate_text
from textfair.mitigate.retrain import (
    Retraining,
    aequitas_loop,
    fine_tune_hf,
    holdout_split,
    retrainer_for,
)
from textfair.models.baselines import logistic_regression
from textfair.models.callable import CallableModel
from textfair.models.rows import RowModel
from textfair.models.tabular_mlp import TabularMLP
from textfair.models.text_training import train_text_classifier
from textfair.models.torch_text import TorchTextModel
from textfair.report.model import AuditReport, ModelInfo, RunStats
from textfair.settings import AuditConfig
from textfair.tabular.schema import infer_schema
from textfair.text.matcher import Matcher

from conftest import DATA, PACKAGE_DATA

runner = CliRunner()


def wiki():
    with open(PACKAGE_DATA / "wiki_toxicity.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    labels = ["toxic" if r["toxic"] == "True" else "non-toxic" for r in rows]
    return [r["comment"] for r in rows], labels


def sentences(texts, labels):
    """Every sentence of every text, each with its text's label."""
    from textfair.text.sentences import split_sentences

    pairs = [
        (s, label) for text, label in zip(texts, labels, strict=True) for s in split_sentences(text)
    ]
    return [s for s, _ in pairs], [label for _, label in pairs]


@pytest.fixture(scope="module")
def small_model():
    """A small, quickly trained CNN on the training part of the bundled comments."""
    texts, labels = wiki()
    train, _ = holdout_split(len(texts), 0.2, 0)
    return train_text_classifier(
        [texts[i] for i in train],
        [labels[i] for i in train],
        arch="cnn",
        epochs=2,
        seed=0,
        label_order=["non-toxic", "toxic"],
        embed_dim=32,
        filters=32,
    )


def test_holdout_split_is_seeded_disjoint_and_complete():
    train, held = holdout_split(1492, 0.2, 0)
    assert len(held) == 298 and len(train) == 1194
    assert not set(train) & set(held) and set(train) | set(held) == set(range(1492))
    again, _ = holdout_split(1492, 0.2, 0)
    assert np.array_equal(train, again)
    assert not np.array_equal(train, holdout_split(1492, 0.2, 1)[0])
    with pytest.raises(TextfairError, match="expected a fraction"):
        holdout_split(10, 1.5, 0)


def test_the_bundled_model_card_split_is_the_holdout_split():
    """The bundled models were trained on holdout_split(n, 0.2, 0): their card says so."""
    card = (PACKAGE_DATA.parent / "bundled_models" / "toxicity-cnn-lstm" / "README.md").read_text()
    train, held = holdout_split(1492, 0.2, 0)
    assert f"{len(train)} train, {len(held)} test" in card


def loop_parts(curve, accuracy):
    """fit/measure for the loops: a 'model' is the number of rows it was given."""

    def fit(rows):
        return len(rows)

    def measure(size):
        return curve(size), accuracy(size), {}

    return fit, measure


def test_testsgd_loop_doubles_from_50_to_the_cap_and_keeps_the_best_accurate_version():
    fit, measure = loop_parts(lambda n: 1 / n, lambda n: 0.9 if n < 200 else 0.5)
    result = retrain.testsgd_loop(Retraining(10_000, 3000, fit, measure, baseline_accuracy=0.9))
    assert [s.added for s in result.steps] == [50, 100, 200, 300]
    # 200 and 300 rows score lower but lose 40 points of accuracy: 100 is kept.
    assert result.chosen == 1 and result.model == 100
    first, last = result.steps[0].extra["rows"], result.steps[-1].extra["rows"]
    assert list(first) == list(last[:50])  # nested portions


def test_testsgd_loop_with_no_accurate_version_keeps_nothing():
    fit, measure = loop_parts(lambda n: 0.0, lambda n: 0.5)
    result = retrain.testsgd_loop(Retraining(80, 3000, fit, measure, baseline_accuracy=0.9))
    assert [s.added for s in result.steps] == [50, 80]  # capped by the pool
    assert result.chosen is None and result.model is None


def test_aequitas_loop_grows_exponentially_and_stops_when_the_score_stops_falling():
    scores = iter([0.5, 0.4, 0.45, 0.46, 0.47, 0.1])
    fit, measure = loop_parts(lambda n: next(scores), lambda n: 0.9)
    job = Retraining(100_000, 10_000, fit, measure, baseline_accuracy=0.9)
    result = aequitas_loop(job, baseline_score=0.6, patience=3)
    sizes = [s.added for s in result.steps]
    assert len(sizes) == 5  # rounds 3, 4 and 5 did not beat 0.4
    percents = [s.extra["percent"] for s in result.steps]
    assert all(2**i <= p < 2 ** (i + 1) for i, p in enumerate(percents))
    added = np.diff([0, *sizes])
    assert np.allclose(added, np.array(percents) / 100 * 10_000, atol=1)
    assert result.steps[result.chosen].score == 0.4
    fit, measure = loop_parts(lambda n: 0.7, lambda n: 0.9)
    paper = aequitas_loop(
        Retraining(100_000, 10_000, fit, measure, baseline_accuracy=0.9), baseline_score=0.6
    )
    assert len(paper.steps) == 3  # patience 3: three rounds without a new lowest score
    with pytest.raises(TextfairError, match="patience"):
        aequitas_loop(Retraining(10, 10, fit, measure, 0), baseline_score=0, patience=0)


def test_text_model_retrains_with_its_own_recipe(tmp_path):
    texts, labels = wiki()
    texts, labels, sample = texts[:300], labels[:300], texts[300:350]
    model = train_text_classifier(texts, labels, arch="cnn", epochs=1, seed=3, embed_dim=16)
    saved = TorchTextModel.load(model.save(tmp_path / "m"))
    assert saved.config.training["epochs"] == 1 and saved.config.training["seed"] == 3
    again = retrainer_for(saved).fit(texts, labels)
    # The same recipe, seed and data reproduce the weights: augmentation is the only change.
    assert np.array_equal(again.predict_proba(sample), saved.predict_proba(sample))


def test_a_plain_callable_cannot_be_retrained():
    model = CallableModel(lambda xs: np.full((len(xs), 2), 0.5), labels=["a", "b"])
    with pytest.raises(TextfairError, match="export the augmentation data instead"):
        retrainer_for(model)
    with pytest.raises(TextfairError, match="export the augmentation data instead"):
        retrainer_for(RowModel(lambda frame: np.full((len(frame), 2), 0.5), ["x"], ["a", "b"]))


def test_sklearn_text_pipeline_is_refitted_and_saved(tmp_path):
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    from textfair.models.sklearn import SklearnModel

    texts, labels = wiki()
    pipeline = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(texts[:300], labels[:300])
    retrainer = retrainer_for(SklearnModel(pipeline))
    refitted = retrainer.fit(texts[:600], labels[:600])
    assert refitted.predict_proba(texts[:3]).shape == (3, 2)
    assert refitted.estimator is not pipeline
    path = retrainer.save(refitted, tmp_path / "model")
    assert path.name == "model.joblib" and joblib.load(path).classes_.tolist() == [
        "non-toxic",
        "toxic",
    ]


def test_hugging_face_model_is_fine_tuned_on_a_copy(tmp_path):
    from textfair.models.hf import HFModel

    model = HFModel(PACKAGE_DATA.parent / "bundled_models" / "toxicity-tiny-transformer")
    texts, labels = wiki()
    before = model.predict_proba(texts[:8])
    tuned = fine_tune_hf(model, texts[:32], labels[:32], epochs=1, seed=0)
    assert np.array_equal(model.predict_proba(texts[:8]), before)  # the original is untouched
    assert not np.allclose(tuned.predict_proba(texts[:8]), before)
    saved = retrainer_for(model).save(tuned, tmp_path / "tuned")
    assert (saved / "model.safetensors").is_file()
    assert np.allclose(HFModel(saved).predict_proba(texts[:8]), tuned.predict_proba(texts[:8]))


def test_tabular_mlp_records_its_recipe(tmp_path):
    frame = pd.read_csv(DATA / "adult_sample.csv").head(400)
    model = TabularMLP.train(frame.drop(columns="income"), frame["income"], epochs=3, seed=1)
    loaded = TabularMLP.load(model.save(tmp_path / "mlp"))
    assert loaded.training == {"epochs": 3, "learning_rate": 1e-3, "batch_size": 128, "seed": 1}
    columns = list(frame.drop(columns="income").columns)
    again = retrainer_for(RowModel(loaded, columns)).fit(
        frame.drop(columns="income"), frame["income"]
    )
    assert np.array_equal(again.predict_proba(frame.head(20)), loaded.predict_proba(frame.head(20)))


@pytest.mark.slow  # 40 s: a whole text mitigation, retrainings included
def test_text_mitigation_holds_out_terms_and_keeps_accuracy(small_model, monkeypatch):
    # Sentence by sentence (as `--unit sentence` audits long comments): whole comments
    # whose context names the old identity too are left out of the rows, and too few
    # remain for the small model's gender bias to be significant.
    texts, labels = sentences(*wiki())
    calls = []
    find = Matcher.find
    monkeypatch.setattr(
        Matcher,
        "find",
        lambda self, text, *a: calls.append((self.term_list.name, text)) or find(self, text, *a),
    )
    # One process reads the corpus, so every call is counted here (a worker's are its own).
    monkeypatch.setattr("textfair.workers.can_fork", lambda: False)
    result = mitigate_text(
        small_model,
        texts,
        labels,
        favorable="non-toxic",
        audit_config=AuditConfig(error=0.02, max_samples=3000, categories=["gender"], causal=False),
        config=MitigationConfig(top=2),
    )
    report = result.report
    targets = [r for r in report["comparison"] if r["role"] == "target"]
    held_out = [r for r in report["comparison"] if r["role"] == "held-out term"]
    assert 1 <= len(targets) <= 2 and held_out  # at most --top, each significant
    # Significant in the audit of every text, which chose them ("before" is measured on the
    # half the step choice never saw, with less power).
    assert all(r["audit"]["significant"] for r in targets)
    # The augmentation never writes a held-out term.
    names = {rule["term"] for r in held_out for rule in r["rules"]}
    written = {
        swap.split("->")[1] for row in result.augmentation for swap in row["source"].split("+")
    }
    assert not names & written and written
    assert all(row["label_source"] == "the original text's label" for row in result.augmentation)
    chosen = [s for s in report["steps"] if s["kept"]]
    assert report["status"] == "mitigated" and len(chosen) == 1
    assert chosen[0]["held_out_accuracy"] >= report["held_out"]["before"]["accuracy"] - 0.01
    assert len(result.augmentation) == chosen[0]["added"]
    assert result.after is not None and result.after.seed == result.before.seed
    # One annotated corpus: two audits, the augmentation and every measurement of the loop
    # matched each text once, the halves included (issue 58: a half's reading is the whole
    # corpus's in part, not read again). Counted for the corpus's list: the reading's gates
    # also look a text up in another list (a first name beside a gender term, issue 56).
    assert len([text for name, text in calls if name == "dixon2018"]) == len(texts)


@pytest.mark.slow  # a tabular mitigation, 8 s
def test_tabular_mitigation_uses_aequitas_inputs_labelled_by_the_model():
    frame = pd.read_csv(DATA / "adult_sample.csv")
    train, _ = holdout_split(len(frame), 0.2, 0)
    features = frame.drop(columns="income")
    pipeline = logistic_regression(features.iloc[train], frame["income"].iloc[train], max_iter=500)
    schema = infer_schema(frame, label="income", sensitive=["sex", "race"], favorable=">50K")
    columns = [f.name for f in schema.features]
    model = RowModel(pipeline, columns)
    result = mitigate_table(
        model,
        frame,
        schema,
        audit_config=AuditConfig(seed=0),
        config=MitigationConfig(method="aequitas", loop="aequitas", max_rounds=3),
    )
    report = result.report
    assert report["augmentation"]["discriminatory_inputs"] > 0
    assert 1 <= len(report["steps"]) <= 3
    if result.augmentation:
        row = result.augmentation[0]
        original = tuple(row[c] for c in columns)
        assert row["income"] in (">50K", "<=50K")
        assert row["transformation"] == "aequitas_sensitive_variant"
        assert len(original) == len(columns)


def invoke(*args):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def test_mitigate_a_callable_says_export_the_augmentation_data(tmp_path, monkeypatch):
    (tmp_path / "keyword_rule.py").write_text(
        "import numpy as np\n"
        "def predict(texts):\n"
        "    return np.array([[0.0, 1.0] if 'gay' in t else [1.0, 0.0] for t in texts])\n"
        "predict.labels = ['non-toxic', 'toxic']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    result = invoke("mitigate", "--model", "py:keyword_rule:predict", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2, result.output
    assert "export the augmentation data instead" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_mitigate_rejects_a_report_of_another_model(tmp_path):
    report = tmp_path / "report.json"
    other = AuditReport(
        kind="text",
        model=ModelInfo("sentiment-lstm", "textfair-text:0", ("negative", "positive"), "positive"),
        data={},
        config={},
        findings=(),
        counterfactual=None,
        metrics=None,
        run=RunStats(0, 0, 0, 0, 0, 0.0),
    )
    report.write_text(json.dumps(other.to_dict()))
    result = invoke("mitigate", "--report", str(report), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2, result.output
    assert "not of this model" in result.output and "sentiment-lstm" in result.output
    assert len(result.output.strip().splitlines()) == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = invoke("mitigate", "--report", str(bad), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2 and "not an audit report" in result.output


def test_mitigate_needs_labels(tmp_path):
    data = tmp_path / "texts.csv"
    data.write_text("text\nA gay man.\n")
    result = invoke(
        "mitigate", "--data", str(data), "--text-column", "text", "--out", str(tmp_path / "o")
    )
    assert result.exit_code == 2 and "needs true labels" in result.output


@pytest.mark.slow  # a whole table mitigation: 5 s
def test_tabular_mitigate_writes_reports_model_and_augmentation(tmp_path):
    frame = pd.read_csv(DATA / "adult_sample.csv")
    train, _ = holdout_split(len(frame), 0.2, 0)
    pipeline = logistic_regression(
        frame.drop(columns="income").iloc[train], frame["income"].iloc[train], max_iter=500
    )
    joblib.dump(pipeline, tmp_path / "lr.joblib")
    frame.to_csv(tmp_path / "adult.csv", index=False)
    args = ["--model", f"sklearn:{tmp_path / 'lr.joblib'}", "--data", str(tmp_path / "adult.csv")]
    args += ["--sensitive", "sex,race", "--label-column", "income", "--out", str(tmp_path / "out")]
    result = invoke("tabular", "mitigate", *args, "--max-rounds", "2")
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "mitigation.json").read_text())
    assert (tmp_path / "out" / "before" / "report.json").is_file()
    assert "## Before and after" in (tmp_path / "out" / "mitigation.md").read_text()
    if report["status"] == "mitigated":
        assert joblib.load(tmp_path / "out" / "model" / "model.joblib").predict(frame.head(2)).shape
        assert (
            len(pd.read_csv(tmp_path / "out" / "augmentation.csv"))
            == report["augmentation"]["added"]
        )


def test_tabular_augment_exports_labelled_sensitive_variants(tmp_path):
    frame = pd.read_csv(DATA / "adult_sample.csv")
    pipeline = logistic_regression(frame.drop(columns="income"), frame["income"], max_iter=500)
    joblib.dump(pipeline, tmp_path / "lr.joblib")
    frame.to_csv(tmp_path / "adult.csv", index=False)
    args = ["--model", f"sklearn:{tmp_path / 'lr.joblib'}", "--data", str(tmp_path / "adult.csv")]
    args += [
        "--sensitive",
        "sex,race",
        "--label-column",
        "income",
        "--out",
        str(tmp_path / "aug.csv"),
    ]
    result = invoke("tabular", "augment", *args)
    assert result.exit_code == 0, result.output
    rows = pd.read_csv(tmp_path / "aug.csv")
    assert len(rows) > 0 and set(rows["income"]) <= {">50K", "<=50K"}
    # Each input comes with all 2 x 5 sex/race variants, under one label.
    groups = rows.groupby("seed_row")
    assert (groups.size() == 10).all()
    assert (groups["income"].nunique() == 1).all()
    assert (groups["age"].nunique() == 1).all()


# Issue 6's bar on the bundled CNN-LSTM (the top finding halved by `textfair mitigate`'s
# defaults) is checked on the README's own command, in tests/test_readme_commands.py.


def test_testsgd_loop_goes_on_past_its_cap_until_the_goal_is_reached_within_budget():
    """Steps of 50, 100 and the 10% cap (119 of 1,194); the cap's step is over the accuracy
    budget, so the loop doubles on and stops at the first version that reaches the goal."""
    scores = {50: 0.12, 100: 0.06, 119: 0.04, 238: 0.03, 476: 0.02}
    accuracy = {50: 0.89, 100: 0.89, 119: 0.85, 238: 0.88, 476: 0.9}
    job = Retraining(
        1248, 1194, len, lambda n: (scores.get(n, 0.01), accuracy.get(n, 0.9), {}), 0.872
    )
    reached = retrain.testsgd_loop(job, goal=0.052, extend_to=0.5)
    assert [s.added for s in reached.steps] == [50, 100, 119, 238] and reached.chosen == 3
    assert [s.extra["extended"] for s in reached.steps] == [False, False, False, True]
    paper = retrain.testsgd_loop(job, goal=0.052, extend_to=0)
    assert [s.added for s in paper.steps] == [50, 100, 119] and paper.chosen == 1
    never = retrain.testsgd_loop(job, goal=0.001, extend_to=0.5)  # up to half the training part
    assert [s.added for s in never.steps] == [50, 100, 119, 238, 476, 597]


@pytest.mark.slow  # a mitigation of the bundled model, 7 s
def test_the_after_audit_reports_on_seed_texts_the_step_choice_never_saw(monkeypatch):
    """The loop keeps the step with the lowest score of several; scored again on the texts
    it was chosen on, that minimum is biased low. Every measurement of the loop reads one
    half of the seed texts, the reported audits before and after the other half only."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    from textfair.mitigate import _measure as measure
    from textfair.mitigate import _strategies as strategies
    from textfair.models.sklearn import SklearnModel

    texts, labels = wiki()
    train, _ = holdout_split(len(texts), 0.2, 0)
    pipeline = make_pipeline(TfidfVectorizer(), LogisticRegression(max_iter=200))
    model = SklearnModel(pipeline.fit([texts[i] for i in train], [labels[i] for i in train]))
    chosen_on, reported_on = [], []
    fairness, audit = measure.group_fairness, strategies.audit_text
    monkeypatch.setattr(
        measure,
        "group_fairness",
        lambda domain, *a, **k: chosen_on.append(set(domain.texts)) or fairness(domain, *a, **k),
    )
    monkeypatch.setattr(
        strategies,
        "audit_text",
        lambda m, seeds, **k: reported_on.append((m, set(seeds))) or audit(m, seeds, **k),
    )
    result = mitigate_text(
        model,
        texts,
        labels,
        favorable="non-toxic",
        audit_config=AuditConfig(categories=["gender"], causal=False),
        config=MitigationConfig(top=1, extend_to=0.0, most_credible=True, keep_over_budget=True),
    )
    assert result.after is not None and len(chosen_on) >= 2  # the baseline and each step
    selection = set.union(*chosen_on)
    first, *reported = reported_on  # the whole corpus (targets), then before and after
    assert first[1] == set(texts)
    assert len(reported) == 2 and reported[0][1] == reported[1][1]
    assert selection and not selection & reported[0][1]
    assert selection | reported[0][1] == set(texts)
    data = result.report["data"]
    assert data["selection_seeds"] + data["reported_seeds"] == len(texts)
    # Before and after score the same generated texts of the reported half: the same n.
    target = result.report["comparison"][0]
    assert target["rule_set"].startswith('{"') and target["after"] is not None
    # and as the audit of every text, which chose it, scored it
    assert target["audit"] is not None and set(target["audit"]) == set(target["before"])
