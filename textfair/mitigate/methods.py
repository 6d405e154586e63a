"""Mitigation methods for one comparison (Biswas & Rajan 2020): pre-, in- and post-processing.

Each method starts from the audited model and the same seeded split (`Split`) and returns a
`Mitigated`: a model over the same inputs that the comparison audits again, what the method
changed (the model, its inputs or its decisions), and the seconds it took. A method that
cannot act on a model (reweighing a model whose fit takes no weights) says why instead.

Tables (the model a scikit-learn pipeline whose last step is the classifier):

* ``aequitas``: retraining with Aequitas's discriminatory inputs (`textfair.mitigate`).
* ``reweighing`` (Kamiran & Calders 2012): each training row weighted
  w(g, y) = P(g) P(y) / P(g, y) over the joint sensitive group g and the label y, and the
  classifier refit WITH the weights (the reference code refit without them: no effect).
* ``correlation-remover`` (fairlearn, pre): the encoded features decorrelated from the
  sensitive ones, which are dropped; the classifier refit on what remains.
* ``exponentiated-gradient`` (fairlearn, in; Agarwal et al. 2018): a randomized mixture of
  the classifier refit under a demographic parity constraint.
* ``threshold-optimizer`` (fairlearn, post; Hardt et al. 2016): per-group thresholds on the
  audited model's probability, fitted on a validation part carved from the training part,
  never on the evaluation rows (the reference code fitted and evaluated on one test set).

Texts:

* ``counterfactual`` and ``rule-sets``: retraining with augmentation (`textfair.mitigate`).
* ``blindness`` (Garg et al. 2019's baseline): every identity mention replaced by one
  placeholder token, in training and at prediction: the audit's rewrites reach the model
  blinded, so it cannot tell them apart.
* ``thresholds``: per-group thresholds (the group: the identity term a text mentions) on the
  audited model's probability, fitted with fairlearn's ThresholdOptimizer on the validation
  part.
* ``logit-pairing`` (Garg et al. 2019): the model fine-tuned with its loss plus
  lambda * |logit(x) - logit(x')| over counterfactual pairs (x, x') of the training texts.

A randomized decision (exponentiated gradient, threshold optimizer) is read as its
probability of the favourable label: the audit decides with its most likely outcome.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from textfair.errors import TextfairError

if TYPE_CHECKING:
    from textfair.models.base import Model

__all__ = [
    "LOOP_METHODS",
    "METHODS",
    "Method",
    "Mitigated",
    "Split",
    "applicable",
    "group_keys",
    "methods_for",
    "reweighing_weights",
]

PLACEHOLDER = "identityterm"  # one token for every identity mention (`blindness`)
NOT_RETRAINED = (
    "textfair cannot retrain this model (not a textfair, Hugging Face or scikit-learn one)"
)


@dataclass(frozen=True)
class Split:
    """Row indices of one comparison: `train` (fits), `validation` (a seeded part of `train`
    that post-processing fits on) and `evaluation` (audits and held-out quality)."""

    train: np.ndarray
    validation: np.ndarray
    evaluation: np.ndarray


@dataclass
class Mitigated:
    """What a method leaves: the model the comparison audits again, and what it changed."""

    model: Model | None
    changes: str  # "model", "inputs" or "decisions"
    seconds: float = 0.0
    note: str = ""
    skipped: str = ""  # why the method did not apply (model None)
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Method:
    """One mitigation method: its name, stage and kind of data, and how to run it."""

    name: str
    stage: str  # "pre", "in" or "post"
    kind: str  # "text" or "rows"
    run: Callable[[object], Mitigated]
    summary: str
    # Why the method cannot act on a model ("" when it can): `--methods all` runs only the
    # methods that apply and lists the others with this reason.
    needs: Callable[[object], str] = lambda model: ""


def reweighing_weights(groups: Sequence | np.ndarray, labels: Sequence | np.ndarray) -> np.ndarray:
    """Kamiran & Calders' weights w(g, y) = P(g) P(y) / P(g, y) for each row.

    Under these weights the label is independent of the group: sum_i w_i [g_i = g, y_i = y]
    = n P(g) P(y) for every g and y, so every group has the same weighted favourable rate.
    """
    groups, labels = np.asarray(groups, dtype=object), np.asarray(labels, dtype=object)
    n = len(labels)
    weights = np.empty(n)
    for g in dict.fromkeys(groups.tolist()):
        in_group = groups == g
        for y in dict.fromkeys(labels.tolist()):
            cell = in_group & (labels == y)
            if cell.any():
                weights[cell] = in_group.sum() * (labels == y).sum() / (n * cell.sum())
    return weights


def _timed(function: Callable[[], Mitigated]) -> Mitigated:
    started = time.perf_counter()
    result = function()
    result.seconds = round(time.perf_counter() - started, 3)
    return result


# --- tables -------------------------------------------------------------------------------


def _pipeline_parts(setting):
    """The audited pipeline's classifier step, or a reason the method needs one."""
    from sklearn.pipeline import Pipeline

    source = getattr(setting.model, "source", None)
    if not isinstance(source, Pipeline):
        return None, "needs a scikit-learn pipeline whose last step is the classifier"
    return source.steps[-1][1], ""


def _weighted_classifier(setting):
    """The audited pipeline's classifier when its fit takes sample weights (reweighing and
    the reductions need them), or the reason it cannot serve."""
    from sklearn.utils.validation import has_fit_parameter

    final, why = _pipeline_parts(setting)
    if final is not None and not has_fit_parameter(final, "sample_weight"):
        return None, f"{type(final).__name__}.fit takes no weights"
    return final, why


def _encoded(setting):
    """A fitted encoder of the features that keeps the sensitive columns apart (their
    encoded names start with "sensitive__"), as a DataFrame of floats."""
    from sklearn.compose import ColumnTransformer

    from textfair.models.baselines import tabular_encoder

    frame = setting.features.iloc[setting.split.train]
    sensitive = [f.name for f in setting.schema.sensitive]
    rest = [c for c in frame.columns if c not in sensitive]
    parts = [("sensitive", _dense(tabular_encoder(frame[sensitive])), sensitive)]
    if rest:
        parts.append(("rest", _dense(tabular_encoder(frame[rest])), rest))
    transformer = ColumnTransformer(parts).set_output(transform="pandas")
    transformer.fit(frame)
    return transformer


def _dense(transformer):
    for _, step, _ in transformer.transformers:
        if hasattr(step, "sparse_output"):
            step.set_params(sparse_output=False)
    return transformer.set_output(transform="pandas")


class _Composed:
    """predict_proba over a DataFrame: an encoder, optional steps, a classifier."""

    def __init__(self, steps: list, final, classes, favourable_column: int | None = None):
        self.steps, self.final, self.classes_ = steps, final, np.asarray(classes)
        self._favourable = favourable_column

    def _transform(self, frame):
        for step in self.steps:
            frame = step.transform(frame)
        return frame

    def predict_proba(self, frame) -> np.ndarray:
        x = self._transform(frame)
        if self._favourable is None:
            return self.final.predict_proba(x)
        favourable = np.asarray(self.final._pmf_predict(x))[:, 1]
        return _two_columns(favourable, self._favourable)


def _two_columns(favourable: np.ndarray, column: int) -> np.ndarray:
    """Probabilities over two labels, `column` the favourable one."""
    out = np.empty((len(favourable), 2))
    out[:, column], out[:, 1 - column] = favourable, 1.0 - favourable
    return out


def group_keys(frame, schema) -> list[str]:
    """Each row's joint sensitive group: its values, numeric ones as their bin."""
    keys = []
    columns = []
    for feature in schema.sensitive:
        values = frame[feature.name].to_numpy()
        if feature.kind == "categorical":
            columns.append([f"{feature.name}={v}" for v in values])
        else:
            edges = feature.bin_edges(schema.bins)
            bins = np.clip(np.digitize(values.astype(float), edges[1:-1]), 0, schema.bins - 1)
            columns.append([f"{feature.name}#{b}" for b in bins])
    for parts in zip(*columns, strict=True):
        keys.append(",".join(parts))
    return keys


def _table_aequitas(setting) -> Mitigated:
    from textfair.mitigate.pipeline import MitigationConfig, mitigate_table

    config = MitigationConfig(
        loop="aequitas",
        method="aequitas",
        seed=setting.seed,
        most_credible=True,
        keep_over_budget=True,
        max_accuracy_drop=setting.max_accuracy_drop,
    )
    result = mitigate_table(
        setting.model,
        setting.frame.iloc[setting.split.train].reset_index(drop=True),
        setting.schema,
        audit_config=setting.audit_config,
        config=config,
    )
    if result.model is None:
        return Mitigated(None, "model", skipped=result.report["status"])
    from textfair.models.rows import RowModel

    return Mitigated(RowModel(result.model, setting.columns), "model", note=_loop_note(result))


def _table_reweighing(setting) -> Mitigated:
    from sklearn.base import clone

    from textfair.models.rows import RowModel

    final, why = _weighted_classifier(setting)
    if final is None:
        return Mitigated(None, "model", skipped=why)
    train = setting.features.iloc[setting.split.train]
    labels = setting.truth[setting.split.train]
    weights = reweighing_weights(group_keys(train, setting.schema), labels)
    pipeline = clone(setting.model.source)
    pipeline.fit(train, labels, **{f"{pipeline.steps[-1][0]}__sample_weight": weights})
    return Mitigated(
        RowModel(pipeline, setting.columns), "model", extra={"weights": _spread(weights)}
    )


def _spread(weights: np.ndarray) -> dict:
    return {"min": round(float(weights.min()), 4), "max": round(float(weights.max()), 4)}


def _table_correlation_remover(setting) -> Mitigated:
    from fairlearn.preprocessing import CorrelationRemover
    from sklearn.base import clone

    from textfair.models.rows import RowModel

    final, why = _pipeline_parts(setting)
    if final is None:
        return Mitigated(None, "model", skipped=why)
    transformer = _encoded(setting)
    train = transformer.transform(setting.features.iloc[setting.split.train])
    sensitive = [c for c in train.columns if c.startswith("sensitive__")]
    remover = CorrelationRemover(sensitive_feature_ids=sensitive).set_output(transform="default")
    decorrelated = remover.fit_transform(train)
    classifier = clone(final).fit(decorrelated, setting.truth[setting.split.train])
    composed = _Composed([transformer, remover], classifier, classifier.classes_)
    return Mitigated(
        RowModel(composed, setting.columns),
        "model",
        note=f"{len(sensitive)} encoded sensitive columns removed, the rest decorrelated",
    )


def _table_exponentiated_gradient(setting) -> Mitigated:
    from fairlearn.reductions import DemographicParity, ExponentiatedGradient
    from sklearn.base import clone

    from textfair.models.rows import RowModel

    final, why = _weighted_classifier(setting)
    if final is None:
        return Mitigated(None, "model", skipped=why)
    transformer = _encoded(setting)
    rows = setting.features.iloc[setting.split.train]
    favourable = setting.truth[setting.split.train] == setting.favorable
    reduction = ExponentiatedGradient(clone(final), DemographicParity())
    reduction.fit(
        transformer.transform(rows),
        favourable.astype(int),
        sensitive_features=group_keys(rows, setting.schema),
    )
    column = list(setting.model.labels).index(setting.favorable)
    composed = _Composed([transformer], reduction, setting.model.labels, column)
    return Mitigated(
        RowModel(composed, setting.columns),
        "model",
        note="a randomized mixture, read at its most likely decision",
        extra={"predictors": len(reduction.predictors_)},
    )


def _probability_column():
    """An estimator for fairlearn that reads its input's one column as the probability of
    the favourable label (column 1 of its predict_proba): the audited model's, computed
    beforehand, so ThresholdOptimizer fits thresholds on it."""
    from sklearn.base import BaseEstimator, ClassifierMixin

    class ProbabilityColumn(ClassifierMixin, BaseEstimator):
        def fit(self, x, y, **_):
            self.classes_ = np.array([0, 1])
            return self

        def predict_proba(self, x) -> np.ndarray:
            favourable = np.asarray(x, dtype=float)[:, 0]
            return np.column_stack([1.0 - favourable, favourable])

    return ProbabilityColumn().fit(None, None)


class _PostProcessed:
    """The audited model's decisions moved by per-group thresholds (`groups_of` reads each
    input's group); inputs of a group the validation part never had keep the model's own."""

    def __init__(self, model, optimizer, groups_of, seen, favourable_index: int):
        self.model, self.optimizer, self.groups_of = model, optimizer, groups_of
        self.labels, self._seen, self._column = tuple(model.labels), seen, favourable_index

    def predict_proba(self, inputs: Sequence) -> np.ndarray:
        inputs = list(inputs)
        probabilities = np.asarray(self.model.predict_proba(inputs), dtype=float)
        favourable = probabilities[:, self._column].copy()
        groups = np.asarray(self.groups_of(inputs), dtype=object)
        known = np.isin(groups, list(self._seen))
        if known.any():
            scores = favourable[known].reshape(-1, 1)
            favourable[known] = self.optimizer._pmf_predict(
                scores, sensitive_features=groups[known].tolist()
            )[:, 1]
        if len(self.labels) != 2:
            raise TextfairError("per-group thresholds need a model of two labels")
        return _two_columns(favourable, self._column)


def _threshold_optimizer(model, inputs, truth, groups_of, favorable: str) -> _PostProcessed:
    """fairlearn's ThresholdOptimizer (demographic parity) on the model's probability of the
    favourable label, fitted on `inputs` (the validation part) and their true labels."""
    from fairlearn.postprocessing import ThresholdOptimizer

    column = list(model.labels).index(favorable)
    favourable = np.asarray(model.predict_proba(list(inputs)), dtype=float)[:, column]
    outcome = np.asarray(truth) == favorable
    kept = _fittable_groups(groups_of(list(inputs)), outcome)
    groups_of = _merged(groups_of, kept)
    groups = groups_of(list(inputs))
    fitted = np.isin(np.asarray(groups, dtype=object), list(kept))
    if not fitted.any():
        raise TextfairError(
            f"no group of the {len(groups)} validation inputs has {MIN_GROUP} rows with both "
            "labels, so no threshold can be fitted; use more data or a larger --validation"
        )
    optimizer = ThresholdOptimizer(
        estimator=_probability_column(),
        constraints="demographic_parity",
        prefit=True,
        predict_method="predict_proba",
    )
    optimizer.fit(
        favourable[fitted].reshape(-1, 1),
        outcome[fitted].astype(int),
        sensitive_features=[g for g, f in zip(groups, fitted, strict=True) if f],
    )
    return _PostProcessed(model, optimizer, groups_of, kept, column)


MIN_GROUP = 20  # validation rows a group needs for a threshold of its own


def _fittable_groups(groups: list[str], outcome: np.ndarray) -> set[str]:
    """Groups with MIN_GROUP validation rows of both labels; the rest pooled as "other"
    when the pool qualifies (a threshold on too few rows, or one label, is no estimate)."""
    groups_array = np.asarray(groups, dtype=object)

    def fittable(mask) -> bool:
        return mask.sum() >= MIN_GROUP and 0 < outcome[mask].sum() < mask.sum()

    kept = {g for g in set(groups) if fittable(groups_array == g)}
    if fittable(~np.isin(groups_array, list(kept))):
        kept.add("other")
    return kept


def _merged(groups_of, kept: set[str]):
    """`groups_of` with every group not kept read as "other"."""

    def merged(inputs):
        return [g if g in kept else "other" for g in groups_of(inputs)]

    return merged


def _table_threshold_optimizer(setting) -> Mitigated:
    columns, schema = setting.columns, setting.schema

    def groups_of(rows):
        import pandas as pd

        return group_keys(pd.DataFrame(list(rows), columns=columns), schema)

    validation = setting.split.validation
    rows = [tuple(r) for r in setting.features.iloc[validation].itertuples(index=False)]
    processed = _threshold_optimizer(
        setting.cached, rows, setting.truth[validation], groups_of, setting.favorable
    )
    return Mitigated(
        processed,
        "decisions",
        note=f"thresholds fitted on {len(validation)} validation rows of the training part",
    )


# --- texts --------------------------------------------------------------------------------


def _text_augmentation(method: str):
    def run(setting) -> Mitigated:
        from textfair.mitigate.pipeline import MitigationConfig, mitigate_text

        if setting.retrainer is None:
            return Mitigated(None, "model", skipped=NOT_RETRAINED)
        train = setting.split.train
        result = mitigate_text(
            setting.model,
            [setting.texts[i] for i in train],
            [setting.labels[i] for i in train],
            favorable=setting.favorable,
            audit_config=setting.audit_config,
            config=MitigationConfig(
                method=method,
                seed=setting.seed,
                most_credible=True,
                keep_over_budget=True,
                max_accuracy_drop=setting.max_accuracy_drop,
            ),
        )
        if result.model is None:
            return Mitigated(None, "model", skipped=result.report["status"])
        return Mitigated(
            result.model,
            "model",
            note=_loop_note(result),
            extra={"augmentation": len(result.augmentation)},
        )

    return run


def _loop_note(result) -> str:
    """What a retraining loop kept, said when it is over the accuracy budget."""
    if not result.report.get("over_budget"):
        return ""
    return (
        f"{result.report['status']} (on a held-out part of the training part); its most "
        "accurate version is kept. A model trained on the whole training part, as the bundled "
        "ones were, reads too well on that part, so its budget there is strict: the accuracy "
        "lost on the evaluation rows is the cost this comparison reports"
    )


class Blinded:
    """A model that sees every identity mention as one placeholder token (`PLACEHOLDER`)."""

    def __init__(self, model, matcher):
        self.model, self.matcher, self.labels = model, matcher, tuple(model.labels)

    def blind(self, text: str) -> str:
        """`text` with each identity mention (of the matcher's list) made the placeholder."""
        pieces, cursor = [], 0
        for mention in self.matcher.find(text):
            pieces += [text[cursor : mention.start], PLACEHOLDER]
            cursor = mention.end
        return "".join(pieces) + text[cursor:]

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        return self.model.predict_proba([self.blind(t) for t in texts])


def _text_blindness(setting) -> Mitigated:
    from textfair.text.matcher import Matcher

    if setting.retrainer is None:
        return Mitigated(None, "inputs", skipped=NOT_RETRAINED)
    matcher = Matcher(setting.audit_config.term_list())
    blind = Blinded(setting.model, matcher)
    train = setting.split.train
    fitted = setting.retrainer.fit(
        [blind.blind(setting.texts[i]) for i in train], [setting.labels[i] for i in train]
    )
    return Mitigated(
        Blinded(fitted, matcher),
        "inputs",
        note="retrained and queried with every identity mention as one placeholder token",
    )


def text_groups(matcher) -> Callable[[Sequence[str]], list[str]]:
    """Each text's group: the one identity term it mentions ("religion=muslim"), "several"
    for more than one, "none" for none."""

    def groups_of(texts: Sequence[str]) -> list[str]:
        keys = []
        for text in texts:
            terms = {f"{m.category}={m.term_id}" for m in matcher.find(text)}
            keys.append(terms.pop() if len(terms) == 1 else ("several" if terms else "none"))
        return keys

    return groups_of


def _text_thresholds(setting) -> Mitigated:
    from textfair.text.matcher import Matcher

    groups_of = text_groups(Matcher(setting.audit_config.term_list()))
    validation = setting.split.validation
    processed = _threshold_optimizer(
        setting.cached,
        [setting.texts[i] for i in validation],
        [setting.labels[i] for i in validation],
        groups_of,
        setting.favorable,
    )
    return Mitigated(
        processed,
        "decisions",
        note=(
            f"thresholds per identity term fitted on {len(validation)} validation texts of "
            "the training part; a term they never mention keeps the model's decision"
        ),
    )


def _needs_torch_text(model) -> str:
    """Logit pairing fine-tunes a torch network through its logits: a textfair torch text
    model or a Hugging Face one."""
    from textfair.models.hf import HFModel
    from textfair.models.torch_text import TorchTextModel

    if isinstance(model, TorchTextModel | HFModel):
        return ""
    return (
        "needs a torch text model (textfair's or a Hugging Face one) to fine-tune through its "
        f"logits; this is a {_kind_of(model)}"
    )


def _kind_of(model) -> str:
    """A model's kind in words, for a reason a method does not apply."""
    from textfair.models.callable import CallableModel
    from textfair.models.sklearn import SklearnModel

    if isinstance(model, SklearnModel):
        return "scikit-learn model"
    if isinstance(model, CallableModel):
        return "Python function of texts"
    return f"{type(model).__name__} model"


def _needs_retrainer(model) -> str:
    """The methods that refit the model need textfair to know how to retrain it."""
    from textfair.mitigate.retrain import retrainer_for

    try:
        retrainer_for(model)
    except TextfairError:
        return NOT_RETRAINED
    return ""


def _needs_two_labels(model) -> str:
    """Per-group thresholds move one probability: a model of two labels."""
    if len(tuple(model.labels)) == 2:
        return ""
    return f"needs a model of two labels; this one has {len(tuple(model.labels))}"


def _needs_pipeline(model) -> str:
    from sklearn.pipeline import Pipeline

    if isinstance(getattr(model, "source", None), Pipeline):
        return ""
    return "needs a scikit-learn pipeline whose last step is the classifier"


def _needs_weights(model) -> str:
    from sklearn.utils.validation import has_fit_parameter

    if why := _needs_pipeline(model):
        return why
    final = model.source.steps[-1][1]
    if has_fit_parameter(final, "sample_weight"):
        return ""
    return f"needs a classifier whose fit takes sample weights; {type(final).__name__}'s does not"


def _text_logit_pairing(setting) -> Mitigated:
    from textfair.mitigate.logit_pairing import counterfactual_pairs, logit_pairing, pair_gap
    from textfair.text.matcher import Matcher

    if why := _needs_torch_text(setting.model):
        return Mitigated(None, "model", skipped=why)
    train = setting.split.train
    texts = [setting.texts[i] for i in train]
    labels = [setting.labels[i] for i in train]
    pairs = counterfactual_pairs(
        texts, labels, Matcher(setting.audit_config.term_list()), setting.seed
    )
    tuned = logit_pairing(setting.model, texts, labels, pairs, seed=setting.seed)
    return Mitigated(
        tuned,
        "model",
        note=f"fine-tuned 2 epochs with lambda 1 over {len(pairs)} counterfactual pairs",
        extra={
            "pairs": len(pairs),
            "pair_gap_before": round(pair_gap(setting.model, pairs), 4),
            "pair_gap_after": round(pair_gap(tuned, pairs), 4),
        },
    )


METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method(
            "aequitas",
            "pre",
            "rows",
            _table_aequitas,
            "retrain on Aequitas's inputs",
            _needs_retrainer,
        ),
        Method(
            "reweighing", "pre", "rows", _table_reweighing, "refit with K&C weights", _needs_weights
        ),
        Method(
            "correlation-remover",
            "pre",
            "rows",
            _table_correlation_remover,
            "decorrelate features from the sensitive ones",
            _needs_pipeline,
        ),
        Method(
            "exponentiated-gradient",
            "in",
            "rows",
            _table_exponentiated_gradient,
            "refit under demographic parity",
            _needs_weights,
        ),
        Method(
            "threshold-optimizer",
            "post",
            "rows",
            _table_threshold_optimizer,
            "per-group thresholds",
            _needs_two_labels,
        ),
        Method(
            "counterfactual",
            "pre",
            "text",
            _text_augmentation("counterfactual"),
            "retrain with counterfactual texts",
            _needs_retrainer,
        ),
        Method(
            "rule-sets",
            "pre",
            "text",
            _text_augmentation("rule-sets"),
            "retrain with TestSGD rule-set texts",
            _needs_retrainer,
        ),
        Method(
            "blindness",
            "pre",
            "text",
            _text_blindness,
            "identity terms masked",
            _needs_retrainer,
        ),
        Method(
            "thresholds",
            "post",
            "text",
            _text_thresholds,
            "per-term thresholds",
            _needs_two_labels,
        ),
        Method(
            "logit-pairing",
            "in",
            "text",
            _text_logit_pairing,
            "fine-tune with counterfactual logit pairing",
            _needs_torch_text,
        ),
    )
}

# Methods with a closed retraining loop of their own (`textfair.mitigate.pipeline`): named
# alone, `mitigate --methods` runs that loop and writes its before/after report.
LOOP_METHODS = {"text": ("counterfactual", "rule-sets"), "rows": ("aequitas",)}


def methods_for(kind: str, names: Sequence[str] | str) -> list[Method]:
    """The methods named (or "all" of this kind), in the order given; a one-line error for
    a name that is not a method of this kind of data."""
    available = [m for m in METHODS.values() if m.kind == kind]
    if names == "all" or list(names) == ["all"]:
        return available
    chosen = []
    for name in names:
        method = METHODS.get(name)
        if method is None or method.kind != kind:
            raise TextfairError.bad(
                "methods",
                f"has {name!r}; for {'texts' if kind == 'text' else 'tables'} expected "
                f"all or some of: {', '.join(m.name for m in available)}",
            )
        chosen.append(method)
    return chosen


def applicable(methods: list[Method], model, *, named: bool) -> tuple[list[Method], dict]:
    """The methods that apply to `model`, and why each other does not. Methods named one by
    one (`named`) must all apply: a one-line error before any work; of "all", the others are
    left out with their reason."""
    kept, left_out = [], {}
    for method in methods:
        why = method.needs(model)
        if not why:
            kept.append(method)
        elif named:
            raise TextfairError.bad("methods", f"has {method.name!r}, which {why}")
        else:
            left_out[method.name] = why
    return kept, left_out


def run_method(method: Method, setting) -> Mitigated:
    """Run one method on the comparison's setting, timed."""
    return _timed(lambda: method.run(setting))
