"""The mitigation methods for tables (the model a scikit-learn pipeline whose last step is
the classifier), each run on a `TableSetting` and leaving a `Mitigated`.

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

Also here: each row's joint sensitive group (`group_keys`), which the comparison's group
metrics read too, and what the methods need of a model (`needs_pipeline`, `needs_weights`).
The registry (`textfair.mitigate.methods`) names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from textfair.mitigate._group_thresholds import fit_group_thresholds, two_columns
from textfair.mitigate._setting import Mitigated, TableSetting, loop_note

if TYPE_CHECKING:
    import pandas as pd
    from sklearn.base import BaseEstimator
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import Pipeline

    from textfair.models.base import Model
    from textfair.tabular.schema import Schema

__all__ = [
    "group_keys",
    "needs_pipeline",
    "needs_weights",
    "reweighing_weights",
    "run_aequitas",
    "run_correlation_remover",
    "run_exponentiated_gradient",
    "run_reweighing",
    "run_threshold_optimizer",
]

Row = tuple[object, ...]  # one row's values, in the schema's feature order


def reweighing_weights(
    groups: Sequence[str] | np.ndarray, labels: Sequence[str] | np.ndarray
) -> np.ndarray:
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


def _pipeline_of(model: Model) -> Pipeline | None:
    """The scikit-learn pipeline a model wraps (a `RowModel`'s source), or None."""
    from sklearn.pipeline import Pipeline

    source = getattr(model, "source", None)
    return source if isinstance(source, Pipeline) else None


def _pipeline_parts(setting: TableSetting) -> tuple[BaseEstimator | None, str]:
    """The audited pipeline's classifier step, or a reason the method needs one."""
    source = _pipeline_of(setting.model)
    if source is None:
        return None, "needs a scikit-learn pipeline whose last step is the classifier"
    return source.steps[-1][1], ""


def _weighted_classifier(setting: TableSetting) -> tuple[BaseEstimator | None, str]:
    """The audited pipeline's classifier when its fit takes sample weights (reweighing and
    the reductions need them), or the reason it cannot serve."""
    from sklearn.utils.validation import has_fit_parameter

    final, why = _pipeline_parts(setting)
    if final is not None and not has_fit_parameter(final, "sample_weight"):
        return None, f"{type(final).__name__}.fit takes no weights"
    return final, why


def _encoded(setting: TableSetting) -> ColumnTransformer:
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


def _dense(transformer: ColumnTransformer) -> ColumnTransformer:
    for _, step, _ in transformer.transformers:
        if hasattr(step, "sparse_output"):
            step.set_params(sparse_output=False)
    return transformer.set_output(transform="pandas")


class _Composed:
    """predict_proba over a DataFrame: an encoder, optional steps, a classifier."""

    def __init__(
        self,
        steps: list[BaseEstimator],
        final: BaseEstimator,
        classes: Sequence[str] | np.ndarray,
        favourable_column: int | None = None,
    ) -> None:
        self.steps, self.final, self.classes_ = steps, final, np.asarray(classes)
        self._favourable = favourable_column

    def _transform(self, frame: pd.DataFrame) -> pd.DataFrame:
        for step in self.steps:
            frame = step.transform(frame)
        return frame

    def predict_proba(self, frame: pd.DataFrame) -> np.ndarray:
        x = self._transform(frame)
        if self._favourable is None:
            return np.asarray(self.final.predict_proba(x))
        favourable = np.asarray(self.final._pmf_predict(x))[:, 1]
        return two_columns(favourable, self._favourable)


def group_keys(frame: pd.DataFrame, schema: Schema) -> list[str]:
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


def run_aequitas(setting: TableSetting) -> Mitigated:
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

    return Mitigated(RowModel(result.model, setting.columns), "model", note=loop_note(result))


def run_reweighing(setting: TableSetting) -> Mitigated:
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


def _spread(weights: np.ndarray) -> dict[str, float]:
    return {"min": round(float(weights.min()), 4), "max": round(float(weights.max()), 4)}


def run_correlation_remover(setting: TableSetting) -> Mitigated:
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


def run_exponentiated_gradient(setting: TableSetting) -> Mitigated:
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


def run_threshold_optimizer(setting: TableSetting) -> Mitigated:
    columns, schema = setting.columns, setting.schema

    def groups_of(rows: list[Row]) -> list[str]:
        import pandas as pd

        return group_keys(pd.DataFrame(list(rows), columns=columns), schema)

    validation = setting.split.validation
    rows = [tuple(r) for r in setting.features.iloc[validation].itertuples(index=False)]
    processed = fit_group_thresholds(
        setting.cached, rows, setting.truth[validation], groups_of, setting.favorable
    )
    return Mitigated(
        processed,
        "decisions",
        note=f"thresholds fitted on {len(validation)} validation rows of the training part",
    )


def needs_pipeline(model: Model) -> str:
    if _pipeline_of(model) is not None:
        return ""
    return "needs a scikit-learn pipeline whose last step is the classifier"


def needs_weights(model: Model) -> str:
    from sklearn.utils.validation import has_fit_parameter

    pipeline = _pipeline_of(model)
    if pipeline is None:
        return needs_pipeline(model)
    final = pipeline.steps[-1][1]
    if has_fit_parameter(final, "sample_weight"):
        return ""
    return f"needs a classifier whose fit takes sample weights; {type(final).__name__}'s does not"
