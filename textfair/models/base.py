"""The Model contract: what textfair needs from a classifier, the check of what it returns,
and the naming of its classes (which column is the favourable label).

A model is anything with ``labels`` and ``predict_proba(inputs) -> (n, k) array`` whose rows
are probabilities. What wraps every model an audit uses (its answers remembered, counted
and kept on disk) is :class:`textfair.models.cached.CachedModel`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from textfair.errors import TextfairError

__all__ = [
    "Model",
    "check_probabilities",
    "favorable_index",
]

_TOLERANCE = 1e-4


@runtime_checkable
class Model(Protocol):
    """What textfair needs from a classifier."""

    @property
    def labels(self) -> tuple[str, ...]:
        """The class names, one per column of `predict_proba`."""
        ...

    # Optional: True for a multi-label head (one sigmoid per label, rows need not sum to 1).
    # multi_label: bool

    def predict_proba(self, inputs: Sequence) -> np.ndarray:
        """Class probabilities, shape (len(inputs), len(labels)), rows summing to 1 (or one
        probability per label for a multi-label head)."""
        ...


def check_probabilities(
    output: object, n_inputs: int, n_labels: int, source: str, multi_label: bool = False
) -> np.ndarray:
    """Return `output` as a float64 (n, k) array, or raise a one-line TextfairError.

    Rows of a softmax head sum to 1; a multi-label head's (one sigmoid per label) need not,
    but each value is still a probability in [0, 1]."""
    try:
        array = np.asarray(output, dtype=np.float64)
    except (TypeError, ValueError):
        raise TextfairError(
            f"{source} returned {type(output).__name__} values that are not numbers in rows "
            f"of {n_labels}; expected one row of class probabilities per input"
        ) from None
    if array.shape != (n_inputs, n_labels):
        raise TextfairError(
            f"{source} returned an array of shape {array.shape} for {n_inputs} inputs; "
            f"expected ({n_inputs}, {n_labels}): one row of {n_labels} class probabilities "
            "per input"
        )
    if np.isnan(array).any():
        row = int(np.argwhere(np.isnan(array))[0][0])
        raise TextfairError(f"{source} returned NaN probabilities (row {row}); fix the model")
    if (array < -_TOLERANCE).any():
        row = int(np.argwhere(array < -_TOLERANCE)[0][0])
        raise TextfairError(
            f"{source} returned negative probabilities (row {row}: {array[row].tolist()}); "
            "apply a softmax to its scores"
        )
    if multi_label:
        if (array > 1.0 + _TOLERANCE).any():
            row = int(np.argwhere(array > 1.0 + _TOLERANCE)[0][0])
            raise TextfairError(
                f"{source} returned values above 1 (row {row}); a multi-label head returns "
                "one probability per label: apply a sigmoid to its scores"
            )
        return np.clip(array, 0.0, 1.0)
    sums = array.sum(axis=1)
    bad = np.abs(sums - 1.0) > _TOLERANCE
    if bad.any():
        row = int(np.argmax(bad))
        raise TextfairError(
            f"{source} returned rows that do not sum to 1 (row {row} sums to {sums[row]:.4f}); "
            "return probabilities, e.g. a softmax of its scores"
        )
    return np.clip(array, 0.0, 1.0)


# Class names a model gives when it was not told any: LABEL_0 (transformers), 0 (numbers).
UNNAMED = re.compile(r"LABEL_\d+|\d+")


def naming_hint(names: Sequence[str]) -> str:
    """For a model whose classes are LABEL_0, LABEL_1 (or 0, 1): how to name them; else ""."""
    if names and all(UNNAMED.fullmatch(str(name)) for name in names):
        return (
            "; name its classes in the order of its outputs with --label-names "
            "(label_names= in as_model), e.g. --label-names non-toxic,toxic"
        )
    return ""


def favorable_index(labels: Sequence[str], favorable: str) -> int:
    """The column of the favourable label, or a one-line error listing the model's labels."""
    names = [str(label) for label in labels]
    if str(favorable) in names:
        return names.index(str(favorable))
    raise TextfairError(
        f"favourable label {favorable!r} is not a label of the model; "
        f"its labels are: {', '.join(names)}{naming_hint(names)}"
    )
