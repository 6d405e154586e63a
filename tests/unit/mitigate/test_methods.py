"""The registry of mitigation methods (textfair.mitigate.methods): the methods of each kind
of data by name, which of them apply to a model and why the others do not, and a method run
timed. Unknown or inapplicable methods are refused in one line before any work."""

import time

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import make_column_transformer
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from textfair.errors import TextfairError
from textfair.mitigate._setting import NOT_RETRAINED, Mitigated
from textfair.mitigate.methods import (
    LOOP_METHODS,
    METHODS,
    TABLE_METHODS,
    TEXT_METHODS,
    Method,
    applicable,
    methods_for,
    run_method,
)
from textfair.models.callable import CallableModel
from textfair.models.rows import RowModel
from textfair.models.sklearn import SklearnModel

from conftest import one_line_error

TEXT = ["counterfactual", "rule-sets", "blindness", "thresholds", "logit-pairing"]
ROWS = [
    "aequitas",
    "reweighing",
    "correlation-remover",
    "exponentiated-gradient",
    "threshold-optimizer",
]
TORCH_ONLY = "needs a torch text model (textfair's or a Hugging Face one) to fine-tune through"


def _constant(*probabilities):
    """A function of texts that gives every text `probabilities`."""
    return lambda texts: np.tile(probabilities, (len(texts), 1))


def _row_pipeline(classifier):
    """A scikit-learn pipeline over (sex, age) rows ending in `classifier`, fitted."""
    rows = pd.DataFrame({"sex": ["F", "M"] * 4, "age": range(20, 28)})
    encode = make_column_transformer((OneHotEncoder(), ["sex"]), remainder="passthrough")
    return make_pipeline(encode, classifier).fit(rows, ["no", "yes", "yes", "no"] * 2)


def _names(methods):
    return [method.name for method in methods]


def _refusal(call, *args, **kwargs) -> TextfairError:
    error = one_line_error(call, *args, **kwargs)
    assert error.parameter == "methods"
    return error


# The registry


def test_each_kind_of_data_has_its_five_methods_in_order():
    assert list(TEXT_METHODS) == TEXT
    assert list(TABLE_METHODS) == ROWS
    assert list(METHODS) == ROWS + TEXT
    assert {method.kind for method in TEXT_METHODS.values()} == {"text"}
    assert {method.kind for method in TABLE_METHODS.values()} == {"rows"}
    assert all(METHODS[name].name == name for name in METHODS)


def test_the_stage_of_each_method():
    stages = {name: method.stage for name, method in METHODS.items()}
    assert stages == {
        "aequitas": "pre",
        "reweighing": "pre",
        "correlation-remover": "pre",
        "exponentiated-gradient": "in",
        "threshold-optimizer": "post",
        "counterfactual": "pre",
        "rule-sets": "pre",
        "blindness": "pre",
        "thresholds": "post",
        "logit-pairing": "in",
    }
    assert all(method.summary for method in METHODS.values())


def test_the_loop_methods_are_methods_of_their_kind():
    assert LOOP_METHODS == {"text": ("counterfactual", "rule-sets"), "rows": ("aequitas",)}
    for kind, names in LOOP_METHODS.items():
        assert {METHODS[name].kind for name in names} == {kind}


# methods_for


@pytest.mark.parametrize("all_", ["all", ["all"], ("all",)])
def test_all_is_every_method_of_the_kind(all_):
    assert _names(methods_for("text", all_)) == TEXT
    assert _names(methods_for("rows", all_)) == ROWS


def test_named_methods_come_in_the_order_given():
    assert _names(methods_for("text", ["thresholds", "blindness"])) == ["thresholds", "blindness"]
    chosen = methods_for("rows", ("threshold-optimizer", "aequitas"))
    assert chosen == [TABLE_METHODS["threshold-optimizer"], TABLE_METHODS["aequitas"]]


def test_an_unknown_method_is_refused_in_one_line_listing_the_kinds_methods():
    err = _refusal(methods_for, "rows", ["aequitas", "nope"])
    assert str(err) == (
        "methods has 'nope'; for tables expected all or some of: aequitas, reweighing, "
        "correlation-remover, exponentiated-gradient, threshold-optimizer"
    )


def test_a_method_of_the_other_kind_is_no_method_of_this_one():
    err = _refusal(methods_for, "text", ["reweighing"])
    assert str(err) == (
        "methods has 'reweighing'; for texts expected all or some of: counterfactual, "
        "rule-sets, blindness, thresholds, logit-pairing"
    )
    assert "for tables expected" in str(_refusal(methods_for, "rows", ["thresholds"]))


def test_one_method_named_as_a_string_is_that_method():
    assert _names(methods_for("text", "thresholds")) == ["thresholds"]


# applicable


def test_every_text_method_applies_to_a_scikit_learn_text_model_but_logit_pairing():
    texts = ["good day", "bad day", "nice", "awful"]
    fitted = make_pipeline(TfidfVectorizer(), LogisticRegression()).fit(
        texts, ["non-toxic", "toxic", "non-toxic", "toxic"]
    )
    kept, left_out = applicable(methods_for("text", "all"), SklearnModel(fitted), named=False)
    assert _names(kept) == ["counterfactual", "rule-sets", "blindness", "thresholds"]
    assert list(left_out) == ["logit-pairing"]
    assert left_out["logit-pairing"] == f"{TORCH_ONLY} its logits; this is a scikit-learn model"


def test_a_function_of_texts_of_two_labels_keeps_only_the_thresholds():
    model = CallableModel(_constant(0.5, 0.5), labels=["non-toxic", "toxic"])
    kept, left_out = applicable(methods_for("text", "all"), model, named=False)
    assert _names(kept) == ["thresholds"]
    assert left_out == {
        "counterfactual": NOT_RETRAINED,
        "rule-sets": NOT_RETRAINED,
        "blindness": NOT_RETRAINED,
        "logit-pairing": f"{TORCH_ONLY} its logits; this is a Python function of texts",
    }


def test_thresholds_need_a_model_of_two_labels():
    model = CallableModel(_constant(0.2, 0.3, 0.5), labels=["a", "b", "c"])
    kept, left_out = applicable(methods_for("text", ["thresholds"]), model, named=False)
    assert kept == []
    assert left_out == {"thresholds": "needs a model of two labels; this one has 3"}


def test_a_method_named_that_does_not_apply_is_refused_before_any_work():
    model = CallableModel(_constant(0.2, 0.3, 0.5), labels=["a", "b", "c"])
    err = _refusal(applicable, methods_for("text", ["thresholds"]), model, named=True)
    assert str(err) == (
        "methods has 'thresholds', which needs a model of two labels; this one has 3"
    )


def test_methods_named_that_all_apply_are_kept_in_order():
    model = CallableModel(_constant(0.5, 0.5), labels=["non-toxic", "toxic"])
    kept, left_out = applicable(methods_for("text", ["thresholds"]), model, named=True)
    assert _names(kept) == ["thresholds"] and left_out == {}


def test_every_table_method_applies_to_a_weighted_pipeline():
    model = RowModel(_row_pipeline(LogisticRegression()), ["sex", "age"])
    kept, left_out = applicable(methods_for("rows", "all"), model, named=False)
    assert _names(kept) == ROWS and left_out == {}


def test_the_refits_with_weights_need_a_classifier_that_takes_them():
    model = RowModel(_row_pipeline(KNeighborsClassifier(n_neighbors=1)), ["sex", "age"])
    kept, left_out = applicable(methods_for("rows", "all"), model, named=False)
    assert _names(kept) == ["aequitas", "correlation-remover", "threshold-optimizer"]
    why = "needs a classifier whose fit takes sample weights; KNeighborsClassifier's does not"
    assert left_out == {"reweighing": why, "exponentiated-gradient": why}


def test_a_function_of_rows_keeps_only_the_threshold_optimizer():
    model = RowModel(lambda rows: np.tile([0.5, 0.5], (len(rows), 1)), ["sex"], ["no", "yes"])
    kept, left_out = applicable(methods_for("rows", "all"), model, named=False)
    assert _names(kept) == ["threshold-optimizer"]
    pipeline = "needs a scikit-learn pipeline whose last step is the classifier"
    assert left_out == {
        "aequitas": NOT_RETRAINED,
        "reweighing": pipeline,
        "correlation-remover": pipeline,
        "exponentiated-gradient": pipeline,
    }


# run_method


def test_a_method_is_run_on_the_setting_and_timed():
    given = []

    def run(setting):
        given.append(setting)
        time.sleep(0.05)
        return Mitigated(None, "decisions", note="ran")

    method = Method("pause", "post", "text", run, "waits a moment")
    setting = object()
    result = run_method(method, setting)
    assert given == [setting]
    assert result.note == "ran" and result.changes == "decisions"
    assert 0.05 <= result.seconds < 1.0
    assert result.seconds == round(result.seconds, 3)
