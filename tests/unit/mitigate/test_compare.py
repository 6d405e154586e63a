"""Mitigation methods compared on one split: each method acts, and only on what it may see."""

import csv
import io
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from textfair.errors import TextfairError
from textfair.mitigate._table_methods import reweighing_weights
from textfair.mitigate._text_methods import Blinded
from textfair.mitigate.compare import compare_table_mitigations, comparison_split
from textfair.mitigate.methods import METHODS, methods_for, run_method
from textfair.mitigate.retrain import Retraining
from textfair.models.baselines import logistic_regression
from textfair.models.rows import RowModel
from textfair.report.comparison import (
    comparison_verdict,
    render_comparison,
    render_comparison_html,
)
from textfair.tabular.schema import infer_schema

from locations import ROOT

GERMAN = ROOT / "examples" / "data" / "german.csv.gz"


@pytest.fixture(scope="module")
def german():
    """Statlog German credit, a logistic regression fitted on the comparison's training part."""
    frame = pd.read_csv(GERMAN)
    frame["credit"] = frame["credit"].astype(str)
    schema = infer_schema(
        frame, label="credit", sensitive=["personal_status_sex", "age"], favorable="1"
    )
    columns = [f.name for f in schema.features]
    split = comparison_split(len(frame), 0.2, 0.2, 0)
    fitted = logistic_regression(
        frame[columns].iloc[split.train], frame["credit"].iloc[split.train]
    )
    return frame, schema, RowModel(fitted, columns), split


def _setting(german, recorder=None):
    from textfair.mitigate._setting import TableSetting
    from textfair.settings import AuditConfig

    frame, schema, model, split = german
    columns = [f.name for f in schema.features]
    return TableSetting(
        model=recorder or model,
        favorable="1",
        audit_config=AuditConfig(causal=False),
        split=split,
        seed=0,
        frame=frame,
        schema=schema,
        columns=columns,
        features=frame[columns],
        truth=frame["credit"].astype(str).to_numpy(),
    )


def test_reweighing_weights_make_the_label_independent_of_the_group():
    rng = np.random.default_rng(0)
    groups = rng.choice(["a", "b", "c"], 600, p=[0.5, 0.3, 0.2])
    labels = np.where(rng.random(600) < np.where(groups == "a", 0.7, 0.3), "good", "bad")
    weights = reweighing_weights(groups, labels)
    overall = np.mean(labels == "good")
    for g in "abc":
        member = groups == g
        weighted = weights[member & (labels == "good")].sum() / weights[member].sum()
        assert weighted == pytest.approx(overall)  # K&C: P_w(y | g) = P(y)
    assert weights.sum() == pytest.approx(600)
    # Label already independent of the group: every weight is 1.
    even = reweighing_weights(["a", "a", "b", "b"], ["x", "y", "x", "y"])
    assert np.allclose(even, 1.0)


def test_reweighing_refits_with_its_weights_and_that_changes_the_model(german):
    """The reference code refit without the weights (no effect); here the weights reach the
    classifier: unit weights give the original coefficients back, K&C's do not."""
    setting = _setting(german)
    result = run_method(METHODS["reweighing"], setting)
    original = german[2].source.steps[-1][1].coef_
    refit = result.model.source.steps[-1][1].coef_
    assert not np.allclose(original, refit, atol=1e-3)
    from sklearn.base import clone

    again = clone(german[2].source).fit(
        setting.features.iloc[setting.split.train],
        setting.truth[setting.split.train],
        logisticregression__sample_weight=np.ones(len(setting.split.train)),
    )
    assert np.allclose(original, again.steps[-1][1].coef_, atol=1e-4)
    assert result.extra["weights"]["min"] < 1 < result.extra["weights"]["max"]


class _Recording:
    """The audited model, noting every row it is asked about."""

    def __init__(self, model):
        self.model, self.labels, self.seen = model, model.labels, set()
        self.source = getattr(model, "source", None)

    def predict_proba(self, rows):
        rows = list(rows)
        self.seen.update(rows)
        return self.model.predict_proba(rows)


def test_the_threshold_optimizer_fits_on_validation_rows_only(german):
    frame, _, model, split = german
    recorder = _Recording(model)
    setting = _setting(german, recorder)
    result = run_method(METHODS["threshold-optimizer"], setting)
    columns = setting.columns
    rows = [tuple(r) for r in frame[columns].itertuples(index=False, name=None)]
    evaluation_only = {rows[i] for i in split.evaluation} - {rows[i] for i in split.train}
    assert recorder.seen, "the optimizer read the model's probabilities"
    assert recorder.seen <= {rows[i] for i in split.validation}
    assert not recorder.seen & evaluation_only
    assert set(split.validation) <= set(split.train)
    assert result.changes == "decisions"
    # It moves decisions: some evaluation row's decision differs from the model's.
    inputs = [rows[i] for i in split.evaluation]
    before = model.predict_proba(inputs).argmax(axis=1)
    after = result.model.predict_proba(inputs).argmax(axis=1)
    assert (before != after).any()


@pytest.mark.slow
def test_the_comparison_gives_the_same_numbers_twice_and_marks_the_front(german):
    frame, schema, model, _ = german
    runs = [
        compare_table_mitigations(
            model, frame, schema, methods=["reweighing", "threshold-optimizer"], seed=0
        ).to_dict()
        for _ in range(2)
    ]
    for run in runs:
        for outcome in [run["baseline"], *run["methods"]]:
            outcome.pop("seconds")
    assert runs[0] == runs[1]
    first = runs[0]
    assert [m["method"] for m in first["methods"]] == ["reweighing", "threshold-optimizer"]
    assert first["pareto"] and set(first["pareto"]) <= {"none", "reweighing", "threshold-optimizer"}
    for outcome in first["methods"]:
        assert outcome["quality"]["accuracy"]["ci"][0] <= outcome["quality"]["accuracy"]["value"]
        for target in outcome["targets"]:
            low, high = target["change"]["ci"]
            assert low <= target["change"]["estimate"] <= high
    assert first["split"] == {"train": 800, "validation": 160, "evaluation": 200}


def test_methods_are_named_per_kind_of_data():
    assert [m.name for m in methods_for("text", "all")] == [
        "counterfactual",
        "rule-sets",
        "blindness",
        "thresholds",
        "logit-pairing",
    ]
    with pytest.raises(TextfairError, match=r"reweighing.*for texts expected"):
        methods_for("text", ["reweighing"])


def test_a_blinded_model_cannot_tell_identity_terms_apart():
    from textfair.models.spec import load_model
    from textfair.text.matcher import Matcher

    model = Blinded(load_model("toxicity-cnn-lstm"), Matcher("dixon2018"))
    texts = [
        "My neighbour is a gay man and a Muslim.",
        "My neighbour is a straight man and a Christian.",
        "My neighbour is a lesbian man and a Sikh.",
    ]
    probabilities = model.predict_proba(texts)
    assert np.allclose(probabilities, probabilities[0])
    assert model.blind(texts[0]) == "My neighbour is a identityterm man and a identityterm."
    plain = load_model("toxicity-cnn-lstm").predict_proba(texts)
    assert not np.allclose(plain, plain[0])  # the model itself does tell them apart


def test_the_bootstrap_reads_f1_and_auc_as_scikit_learn_does():
    from sklearn.metrics import f1_score, roc_auc_score

    from textfair.mitigate._evaluation import _resampled_auc, _resampled_macro_f1

    rng = np.random.default_rng(1)
    names = np.array(["bad", "good"], dtype=object)
    truth, predicted = rng.choice(names, 60), rng.choice(names, 60)
    score, picks = rng.random(60), rng.integers(0, 60, (30, 60))
    for guess in (predicted, np.full(60, "good", dtype=object)):  # also one label only
        expected = [f1_score(truth[k], guess[k], average="macro", zero_division=0) for k in picks]
        assert np.allclose(_resampled_macro_f1(truth, guess, picks), expected)
    positive = truth == "bad"
    expected = [roc_auc_score(positive[k], score[k]) for k in picks]
    assert np.allclose(_resampled_auc(positive, score, picks), expected)


def _planted_texts():
    """Short texts whose label follows one identity term: "muslim" texts are toxic."""
    rng = np.random.default_rng(0)
    terms = ["muslim", "christian", "jewish", "sikh", "buddhist"]
    fillers = ["we talked about the weather", "the bus was late again", "lunch was good"]
    texts, labels = [], []
    for k in range(400):
        term = terms[k % len(terms)]
        texts.append(f"My {term} neighbour said {fillers[rng.integers(3)]}.")
        labels.append("toxic" if term == "muslim" else "non-toxic")
    return texts, labels


def test_logit_pairing_lowers_the_pair_gap_on_a_planted_model():
    from textfair.mitigate._logit_pairing import counterfactual_pairs, logit_pairing, pair_gap
    from textfair.models.text_training import train_text_classifier
    from textfair.text.matcher import Matcher

    texts, labels = _planted_texts()
    model = train_text_classifier(
        texts, labels, arch="cnn", epochs=3, seed=0, embed_dim=16, filters=16
    )
    pairs = counterfactual_pairs(texts, labels, Matcher("dixon2018"), seed=0)
    assert len(pairs) > 300
    plain = logit_pairing(model, texts, labels, pairs, weight=0.0, seed=0)
    paired = logit_pairing(model, texts, labels, pairs, weight=1.0, seed=0)
    before = pair_gap(model, pairs)
    assert pair_gap(paired, pairs) < 0.75 * min(before, pair_gap(plain, pairs))
    assert pair_gap(model, pairs) == before  # the audited model is left as it was


def test_per_term_thresholds_read_validation_texts_only():
    from textfair.corpus import load_corpus
    from textfair.mitigate._setting import TextSetting
    from textfair.models.spec import load_model
    from textfair.settings import AuditConfig

    corpus = load_corpus()
    split = comparison_split(len(corpus.texts), 0.2, 0.2, 0)
    recorder = _Recording(load_model("toxicity-cnn-lstm"))
    setting = TextSetting(
        model=recorder,
        favorable="non-toxic",
        audit_config=AuditConfig(causal=False),
        split=split,
        seed=0,
        retrainer=None,
        texts=corpus.texts,
        labels=corpus.labels,
    )
    result = run_method(METHODS["thresholds"], setting)
    validation = {corpus.texts[i] for i in split.validation}
    assert recorder.seen == validation
    assert not recorder.seen & ({corpus.texts[i] for i in split.evaluation} - validation)
    assert result.changes == "decisions"
    # Texts of a term the validation part fitted a threshold for may change decision.
    evaluation = [corpus.texts[i] for i in split.evaluation]
    before = recorder.model.predict_proba(evaluation).argmax(axis=1)
    after = result.model.predict_proba(evaluation).argmax(axis=1)
    assert (before != after).any()


@pytest.mark.slow  # about 6 s: a whole comparison of two methods
def test_a_notebook_compares_with_one_call(german):
    import textfair
    from textfair.mitigate.comparison import Comparison

    frame, _, model, _ = german
    result = textfair.compare_mitigations(
        model.source,
        frame,
        sensitive=["personal_status_sex", "age"],
        label="credit",
        favorable="1",
        methods=["reweighing"],
    )
    assert isinstance(result, Comparison)
    assert result.outcome("reweighing").changes == "model"
    assert result.outcome("none").quality["rows"] == 200
    with pytest.raises(TextfairError, match="label"):
        textfair.compare_mitigations(model.source, frame, sensitive=["age"])


def test_a_wrong_method_is_one_line_and_exit_2_before_any_work(tmp_path, capsys):
    from textfair.cli import main

    for argv in (
        ["mitigate", "--out", str(tmp_path / "a"), "--methods", "reweighing"],
        ["mitigate", "--out", str(tmp_path / "b"), "--methods", ","],
    ):
        with pytest.raises(SystemExit) as ended:
            main(argv)
        assert ended.value.code == 2
        error = capsys.readouterr().err.strip()
        assert error.startswith("error: --methods") and "\n" not in error
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.slow  # fine-tunes a transformer, 4 s: the fast tier keeps to 3 minutes
def test_logit_pairing_fine_tunes_a_hugging_face_model_too():
    """The bundled tiny transformer, fine-tuned on the planted texts first (so its logits
    follow "muslim"), then paired: the gap falls below 0.75 of plain fine-tuning's."""
    from textfair.mitigate._logit_pairing import counterfactual_pairs, logit_pairing, pair_gap
    from textfair.mitigate.retrain import fine_tune_hf
    from textfair.models.spec import load_model
    from textfair.text.matcher import Matcher

    texts, labels = _planted_texts()
    texts, labels = texts[:160], labels[:160]
    planted = fine_tune_hf(
        load_model("toxicity-tiny-transformer"), texts, labels, epochs=3, learning_rate=1e-3
    )
    pairs = counterfactual_pairs(texts, labels, Matcher("dixon2018"), seed=0, per_text=2)
    before = pair_gap(planted, pairs)
    kwargs = {"epochs": 1, "seed": 0, "learning_rate": 1e-3}
    plain = logit_pairing(planted, texts, labels, pairs, weight=0.0, **kwargs)
    paired = logit_pairing(planted, texts, labels, pairs, weight=1.0, **kwargs)
    assert pair_gap(paired, pairs) < 0.75 * min(before, pair_gap(plain, pairs))
    assert pair_gap(planted, pairs) == pytest.approx(before)  # the given model is unchanged


@pytest.mark.slow  # an audit and three mitigation methods, 4 s: the fast tier keeps to 3 minutes
def test_a_model_textfair_cannot_retrain_gets_the_methods_that_need_no_retraining():
    """A plain function of texts: the retraining methods say why they did not run, and the
    per-term thresholds, which only read its probabilities, still do."""
    from textfair.corpus import load_corpus
    from textfair.mitigate.compare import compare_text_mitigations
    from textfair.models import CallableModel
    from textfair.models.spec import load_model
    from textfair.settings import AuditConfig

    bundled = load_model("toxicity-cnn-lstm")
    model = CallableModel(bundled.predict_proba, labels=bundled.labels)
    corpus = load_corpus()
    result = compare_text_mitigations(
        model,
        corpus.texts,
        corpus.labels,
        favorable="non-toxic",
        methods=["blindness", "counterfactual", "logit-pairing", "thresholds"],
        audit_config=AuditConfig(causal=False),
    )
    skipped = {o.method: o.skipped for o in result.methods}
    assert "cannot retrain" in skipped["blindness"]
    assert "cannot retrain" in skipped["counterfactual"]
    assert "needs a torch text model" in skipped["logit-pairing"]
    assert "Python function" in skipped["logit-pairing"]
    assert skipped["thresholds"] == "" and result.outcome("thresholds").quality


class _Counting(_Recording):
    """The audited model, counting how often each row is asked about."""

    def __init__(self, model):
        super().__init__(model)
        from collections import Counter

        self.asked = Counter()

    def predict_proba(self, rows):
        rows = list(rows)
        self.asked.update(rows)
        return super().predict_proba(rows)


@pytest.mark.slow  # about 6 s: a whole comparison, counting every query
def test_the_audited_model_is_asked_about_each_input_once(german):
    """The baseline's audit, its quality and group metrics, and the threshold optimizer (fit
    and the audit through its decisions) share one cache of the audited model's answers."""
    frame, schema, model, _ = german
    counting = _Counting(model)
    compare_table_mitigations(counting, frame, schema, methods=["threshold-optimizer"])
    assert counting.asked and max(counting.asked.values()) == 1


# --- the headline, the Pareto front and the accuracy budget, on constructed results ----------


def _outcome_dict(method, worst, accuracy, over_budget=False, cost=None, skipped=""):
    """One method's outcome as comparison.json writes it, with one target."""
    interval = {"value": accuracy, "ci": [accuracy - 0.02, accuracy + 0.02]}
    quality = {} if skipped else {"accuracy": interval, "f1_macro": interval, "roc_auc": interval}
    targets = (
        []
        if skipped
        else [
            {
                "rule_set": '{"lgbt"}',
                "before": {"difference": -0.1, "ci": [-0.15, -0.05], "significant": True},
                "after": {
                    "difference": -worst,
                    "ci": [-worst - 0.04, -worst + 0.04],
                    "significant": False,
                },
                "change": {"estimate": 0.1 - worst, "ci": [0.0, 0.2]},
            }
        ]
    )
    return {
        "method": method,
        "stage": "" if method == "none" else "post",
        "changes": "nothing" if method == "none" else "decisions",
        "seconds": 1.0,
        "quality": quality,
        "targets": targets,
        "group_metrics": {},
        "worst_target": None if skipped else worst,
        "worst_spd": 0.05,
        "note": "",
        "skipped": skipped,
        "extra": {},
        "accuracy_cost": cost,
        "over_budget": over_budget,
    }


def _report(baseline, methods, budget=0.01):
    from textfair.report.front import Point, headline, pareto_front

    points = [
        Point(o["method"], o["worst_target"], o["quality"]["accuracy"]["value"], o["over_budget"])
        for o in [baseline, *methods]
        if not o["skipped"]
    ]
    front = pareto_front(points)
    return {
        "model_id": "m",
        "seed": 0,
        "split": {"train": 80, "validation": 16, "evaluation": 20},
        "targets": ['{"lgbt"}'],
        "targets_significant": True,
        "baseline": baseline,
        "methods": methods,
        "pareto": front,
        "max_accuracy_drop": budget,
        "headline": headline(points, front),
    }


def test_a_dominated_method_is_never_the_headline():
    """The issue's case: blindness and thresholds both reach a worst target of 0.0, the
    thresholds with the higher accuracy: blindness is dominated, thresholds is headlined."""
    report = _report(
        _outcome_dict("none", 0.12, 0.90),
        [
            _outcome_dict("blindness", 0.0, 0.86, cost=0.04),
            _outcome_dict("thresholds", 0.0, 0.895, cost=0.005),
        ],
    )
    assert report["pareto"] == ["none", "thresholds"]
    assert report["headline"] == "thresholds"
    verdict = comparison_verdict(report)
    assert verdict.startswith("Of the Pareto front, thresholds left the smallest worst target")
    assert "blindness left" not in verdict


def test_the_headline_prefers_the_budget_and_says_when_it_cannot():
    from textfair.report.front import Point, headline, pareto_front

    points = [
        Point("none", 0.10, 0.90),
        Point("counterfactual", 0.02, 0.85, over_budget=True),  # fairest, over budget
        Point("thresholds", 0.05, 0.895),
    ]
    front = pareto_front(points)
    assert front == ["none", "counterfactual", "thresholds"]
    assert headline(points, front) == "thresholds"  # within the budget, on the front
    # Only over-budget methods on the front: the fairest of them, said to be over budget.
    over = [Point("none", 0.10, 0.90), Point("rule-sets", 0.03, 0.80, over_budget=True)]
    assert headline(over, pareto_front(over)) == "rule-sets"
    report = _report(
        _outcome_dict("none", 0.10, 0.90),
        [_outcome_dict("rule-sets", 0.03, 0.80, over_budget=True, cost=0.10)],
    )
    verdict = comparison_verdict(report)
    assert "rule-sets (over budget: -10.0 points of accuracy) left the smallest" in verdict
    assert "over the accuracy budget (1.0 points): rule-sets" in verdict
    # The audited model better on both than every method: no method is the headline.
    worse = [Point("none", 0.05, 0.90), Point("blindness", 0.08, 0.85)]
    assert pareto_front(worse) == ["none"] and headline(worse, ["none"]) is None


def test_random_fronts_hold_no_dominated_method_and_the_headline_is_on_them():
    from textfair.report.front import Point, headline, pareto_front

    rng = np.random.default_rng(0)
    for _ in range(500):
        n = int(rng.integers(1, 7))
        points = [
            Point(
                "none" if i == 0 else f"m{i}",
                float(rng.choice([0.0, 0.05, 0.1, rng.uniform(0, 0.2)])),
                float(rng.choice([0.85, 0.9, rng.uniform(0.8, 0.95)])),
                bool(rng.random() < 0.3) and i > 0,
            )
            for i in range(n)
        ]
        front = pareto_front(points)
        for p in points:
            dominated = any(
                q.worst <= p.worst
                and q.accuracy >= p.accuracy
                and (q.worst, q.accuracy) != (p.worst, p.accuracy)
                for q in points
            )
            assert (p.method in front) == (not dominated)
        lead = headline(points, front)
        assert lead is None or (lead in front and lead != "none")


def test_an_over_budget_method_shows_its_cost_in_points_everywhere():
    report = _report(
        _outcome_dict("none", 0.10, 0.90),
        [
            _outcome_dict("counterfactual", 0.04, 0.87, over_budget=True, cost=0.03),
            _outcome_dict("logit-pairing", 0.0, 0.0, skipped="needs a torch text model"),
        ],
    )
    markdown = render_comparison(report)
    assert "| 3.0, over budget |" in markdown
    assert "not run: needs a torch text model" in markdown
    page = render_comparison_html(report)
    assert "3.0, over budget" in page
    # Differences are in points, never "%": the worst target, |SPD| and the targets' d.
    for text in (markdown, page):
        for header in ("worst target", "largest abs. SPD", "largest |SPD|", "before", "after"):
            assert f"{header} %" not in text


def test_the_loop_keeps_its_most_accurate_version_over_budget_only_when_asked():
    from textfair.mitigate.retrain import Step

    steps = [Step(50, 0.05, 0.85), Step(100, 0.02, 0.86), Step(200, 0.01, 0.84)]
    job = Retraining(300, 1000, None, None, baseline_accuracy=0.90, max_accuracy_drop=0.01)
    assert job.choose(steps, ["a", "b", "c"]).chosen is None
    kept = replace(job, keep_over_budget=True).choose(steps, ["a", "b", "c"])
    assert (kept.chosen, kept.model, kept.over_budget) == (1, "b", True)
    within = replace(job, keep_over_budget=True, baseline_accuracy=0.86).choose(steps, list("abc"))
    assert (within.chosen, within.over_budget) == (1, False)


def test_the_comparison_keeps_every_column_in_a_pipe_and_cuts_instead_of_wrapping():
    """`mitigate --methods all | cat`: rich's 80 columns; a long skip reason, a long rule
    set: every column stays, each method one line, a cut cell ends in "…"."""
    import io

    from rich.console import Console

    from textfair.report.comparison import print_comparison

    long_reason = "no retrained version kept the accuracy on the held-out part of the training part"
    baseline = _outcome_dict("none", 0.123, 0.872)
    methods = [
        _outcome_dict("counterfactual", 0.041, 0.851, over_budget=True, cost=0.021),
        _outcome_dict("blindness", 0.0, 0.86, cost=0.012, over_budget=True),
        _outcome_dict("thresholds", 0.0, 0.871, cost=0.001),
        _outcome_dict("logit-pairing", 0.0, 0.0, skipped=long_reason),
    ]
    methods[0]["targets"][0]["rule_set"] = '{"homosexual", "transgender", "nonbinary"}'
    methods[1]["seconds"] = 1156.3  # a slow machine's retrainings: whole seconds, not cut
    report = _report(baseline, methods)
    out = io.StringIO()
    print_comparison(report, Console(file=out, width=80, force_terminal=False))
    lines = out.getvalue().splitlines()
    table = [
        line
        for line in lines
        if line.startswith(("none", "counterfactual", "blindness", "thresholds"))
    ]
    headers = ("method", "stage", "worst target", "accuracy %", "lost", "front", "s")
    assert all(any(h in line for line in lines) for h in headers)
    assert len(table) >= 4 and all(len(line) <= 80 for line in table)
    for line in table[:4]:  # every column has its cell on the row's one line
        cells = line.split()
        assert cells[-1].replace(".", "").isdigit(), line  # seconds, the last column
    assert next(line for line in table if line.startswith("blindness")).split()[-1] == "1156"
    thresholds = next(line for line in table if line.startswith("thresholds"))
    assert " lead " in thresholds and "0.1" in thresholds
    assert any("2.1 !" in line for line in table if line.startswith("counterfactual"))
    assert f"not run: logit-pairing: {long_reason}" in lines  # one line of prose, whole
    target = next(line for line in lines if line.startswith("counterfactual ") and "{" in line)
    assert "…" in target and len(target) <= 80  # cut, not wrapped


def test_mitigate_has_one_methods_option_and_reads_the_old_one_with_a_note(tmp_path, capsys):
    from textfair.cli import main
    from textfair.cli._mitigate import _methods

    with pytest.raises(SystemExit):
        main(["mitigate", "-h"])
    shown = capsys.readouterr().out
    assert "--methods" in shown and "--method " not in shown and "--method\n" not in shown
    # One retraining method alone runs its loop; anything else is a comparison.
    assert _methods("text", None, None) == (None, "counterfactual")
    assert _methods("text", "rule-sets", None) == (None, "rule-sets")
    assert _methods("text", "thresholds", None) == (["thresholds"], "")
    assert _methods("text", "all", None) == (["all"], "")
    assert _methods("rows", "aequitas", None) == (None, "aequitas")
    capsys.readouterr()
    assert _methods("text", None, "rule-sets") == (None, "rule-sets")  # the old --method
    assert capsys.readouterr().err.strip() == (
        "note: --method is now --methods; --method goes in a later release"
    )
    with pytest.raises(SystemExit) as ended:
        main(
            ["mitigate", "--out", str(tmp_path / "a"), "--method", "rule-sets", "--methods", "all"]
        )
    assert ended.value.code == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("error: --methods is given with --method") and "\n" not in error


def test_a_named_method_that_cannot_act_on_the_model_is_one_line_before_any_query(tmp_path, capsys):
    """--methods logit-pairing on a scikit-learn model: refused in one line, exit 2, nothing
    written; `all` runs the others and lists logit pairing with why (below, in the library)."""
    import joblib
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    from textfair.cli import main
    from textfair.corpus import load_corpus
    from textfair.mitigate.methods import applicable
    from textfair.models.sklearn import SklearnModel

    corpus = load_corpus()
    fitted = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(
        corpus.texts[:400], corpus.labels[:400]
    )
    joblib.dump(fitted, tmp_path / "lr.joblib")
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as ended:
        main(
            [
                "mitigate",
                "--model",
                f"sklearn:{tmp_path / 'lr.joblib'}",
                "--out",
                str(out),
                "--methods",
                "blindness,logit-pairing",
            ]
        )
    assert ended.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("error: --methods has 'logit-pairing', which needs a torch text model")
    assert "scikit-learn model" in error and not out.exists()
    kept, left_out = applicable(methods_for("text", "all"), SklearnModel(fitted), named=False)
    assert [m.name for m in kept] == ["counterfactual", "rule-sets", "blindness", "thresholds"]
    assert list(left_out) == ["logit-pairing"]


# The first rows of the bundled comments: every method retrains the CNN-LSTM (8 epochs), and
# on all 1,492 comments `--methods all` took 14 minutes of one core, half the slow tier's
# wall; what is checked holds for any corpus (the bundled one's figures are the docs'). 500
# rows took 408 s of the slow tier (2026-11-29); on 250 the same five methods run, the four
# that retrain retrain, and the report has what is checked: both kinds of method (over the
# budget, marked "!", and within it), every one's accuracy and worst target, a front and a
# headline on it that lowered the worst target (logit-pairing, 0.34 -> 0.21, 2026-11-30).
SUBSET_ROWS = 250
# TestSGD's loop as published (`--extend-to 0`): one retraining per loop method (its cap is
# --max-fraction of the comments), not more while none halves its target within the budget
# (2026-11-29, the rule-sets loop went on past its first retraining). What is checked, every
# method reported with its accuracy and worst target and a headline on the front, does not
# depend on how far a loop goes on; the report's methods, worst targets, front and headline
# were the same.
LOOP = ["--extend-to", "0"]


@pytest.mark.slow  # four methods' retrainings on 250 comments
def test_methods_all_on_the_bundled_model_reports_every_method_and_a_front_headline(tmp_path):
    """Issue 41's bar: `textfair mitigate --methods all | cat` with the bundled CNN-LSTM
    reports at least 5 methods with held-out accuracy and worst target (over-budget ones
    marked with their cost), its headline is on the Pareto front, and its tables keep every
    column in a pipe at rich's default 80 columns."""
    import json
    import os
    import subprocess
    import sys

    from textfair.report.front import Point, pareto_front

    bundled = (ROOT / "textfair" / "datasets" / "wiki_toxicity.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(bundled)))
    data = tmp_path / "comments.csv"
    with data.open("w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(rows[: SUBSET_ROWS + 1])
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "textfair",
            "mitigate",
            "--methods",
            "all",
            "--data",
            str(data),
            "--text-column",
            "comment",
            "--label-column",
            "toxic",
            "--label-map",
            "True=toxic,False=non-toxic",
            "--out",
            str(tmp_path / "c"),
            *LOOP,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    report = json.loads((tmp_path / "c" / "comparison.json").read_text(encoding="utf-8"))
    ran = [o for o in report["methods"] if not o["skipped"]]
    assert len(ran) >= 5, [(o["method"], o["skipped"]) for o in report["methods"]]
    budget = report["max_accuracy_drop"]
    for outcome in ran:
        assert outcome["quality"]["accuracy"]["value"] is not None
        assert outcome["worst_target"] is not None
        assert outcome["over_budget"] == (outcome["accuracy_cost"] > budget + 1e-9)
    points = [
        Point(o["method"], o["worst_target"], o["quality"]["accuracy"]["value"], o["over_budget"])
        for o in [report["baseline"], *ran]
    ]
    assert report["pareto"] == pareto_front(points)
    lead = report["headline"]
    assert lead in report["pareto"] and lead != "none"
    # The verdict names the lead, or says (its first words) that no method within the budget
    # lowered the worst target, naming the closest.
    said = done.stdout.lower()
    assert f"of the pareto front, {lead}" in said or "no method lowered" in said
    lines = done.stdout.splitlines()
    for outcome in ran:  # each method one line of the table, every column in it, at 80
        row = next(line for line in lines if line.startswith(outcome["method"] + " "))
        assert len(row) <= 80 and row.split()[-1].replace(".", "").isdigit(), row
        assert ("!" in row) == outcome["over_budget"], row
