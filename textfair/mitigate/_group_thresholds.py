"""Per-group thresholds on the audited model's probability (post-processing; Hardt et al.
2016): fairlearn's ThresholdOptimizer fitted on a validation part, and the model behind them.

Both post-processing methods use it, each with its own groups: a table's
``threshold-optimizer`` (each row's joint sensitive group) and a corpus's ``thresholds``
(the identity term a text mentions). It is apart from either kind's methods because it
knows nothing of tables or texts: a group is a string that `groups_of` reads off an input.

A randomized decision is read as its probability of the favourable label: the audit decides
with its most likely outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

import numpy as np

from textfair.errors import TextfairError

if TYPE_CHECKING:
    from fairlearn.postprocessing import ThresholdOptimizer
    from sklearn.base import BaseEstimator

    from textfair.models.base import Model

__all__ = ["MIN_GROUP", "PostProcessed", "fit_group_thresholds", "two_columns"]

Input = TypeVar("Input", bound=Hashable)  # a text, or a row (a tuple of its values)
GroupsOf = Callable[[list[Input]], list[str]]  # each input's group

MIN_GROUP = 20  # validation rows a group needs for a threshold of its own


def two_columns(favourable: np.ndarray, column: int) -> np.ndarray:
    """Probabilities over two labels, `column` the favourable one."""
    out = np.empty((len(favourable), 2))
    out[:, column], out[:, 1 - column] = favourable, 1.0 - favourable
    return out


def _probability_column() -> BaseEstimator:
    """An estimator for fairlearn that reads its input's one column as the probability of
    the favourable label (column 1 of its predict_proba): the audited model's, computed
    beforehand, so ThresholdOptimizer fits thresholds on it."""
    from sklearn.base import BaseEstimator, ClassifierMixin

    class ProbabilityColumn(ClassifierMixin, BaseEstimator):
        def fit(self, x: object, y: object, **_: object) -> ProbabilityColumn:
            self.classes_ = np.array([0, 1])
            return self

        def predict_proba(self, x: np.ndarray) -> np.ndarray:
            favourable = np.asarray(x, dtype=float)[:, 0]
            return np.column_stack([1.0 - favourable, favourable])

    return ProbabilityColumn().fit(None, None)


class PostProcessed(Generic[Input]):
    """The audited model's decisions moved by per-group thresholds (`groups_of` reads each
    input's group); inputs of a group the validation part never had keep the model's own."""

    def __init__(
        self,
        model: Model,
        optimizer: ThresholdOptimizer,
        groups_of: GroupsOf[Input],
        seen: set[str],
        favourable_index: int,
    ) -> None:
        self.model, self.optimizer, self.groups_of = model, optimizer, groups_of
        self.labels, self._seen, self._column = tuple(model.labels), seen, favourable_index

    def predict_proba(self, inputs: Sequence[Input]) -> np.ndarray:
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
        return two_columns(favourable, self._column)


def fit_group_thresholds(
    model: Model,
    inputs: Sequence[Input],
    truth: Sequence[str] | np.ndarray,
    groups_of: GroupsOf[Input],
    favorable: str,
) -> PostProcessed[Input]:
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
    return PostProcessed(model, optimizer, groups_of, kept, column)


def _fittable_groups(groups: list[str], outcome: np.ndarray) -> set[str]:
    """Groups with MIN_GROUP validation rows of both labels; the rest pooled as "other"
    when the pool qualifies (a threshold on too few rows, or one label, is no estimate)."""
    groups_array = np.asarray(groups, dtype=object)

    def fittable(mask: np.ndarray) -> bool:
        return bool(mask.sum() >= MIN_GROUP and 0 < outcome[mask].sum() < mask.sum())

    kept = {g for g in set(groups) if fittable(groups_array == g)}
    if fittable(~np.isin(groups_array, list(kept))):
        kept.add("other")
    return kept


def _merged(groups_of: GroupsOf[Input], kept: set[str]) -> GroupsOf[Input]:
    """`groups_of` with every group not kept read as "other"."""

    def merged(inputs: list[Input]) -> list[str]:
        return [g if g in kept else "other" for g in groups_of(inputs)]

    return merged
