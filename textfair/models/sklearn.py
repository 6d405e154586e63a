"""Fitted scikit-learn pipelines with predict_proba, loaded from a file the user names.

A joblib/pickle file runs code when it is loaded, so textfair loads one only from a path
given explicitly, and warns first. Trust the file as you would a script.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from textfair.errors import TextfairError

__all__ = ["FittedClassifier", "PickleWarning", "SklearnModel"]


class FittedClassifier(Protocol):
    """A fitted scikit-learn estimator or pipeline: its classes, and their probabilities for
    a batch of inputs (a list of texts, or a DataFrame of rows)."""

    @property
    def classes_(self) -> Sequence[object] | np.ndarray:
        """The class labels, in the order of the probability columns."""
        ...

    # Any: whatever the estimator was fitted on (a list of texts, a DataFrame, an array).
    def predict_proba(self, inputs: Any) -> object:
        """One row of class probabilities per input, a column per class of `classes_`."""
        ...


class PickleWarning(UserWarning):
    """Loading a pickle runs the code inside it."""


class SklearnModel:
    """A fitted estimator or pipeline with `predict_proba` and `classes_`."""

    def __init__(self, estimator: FittedClassifier, fingerprint: str = "") -> None:
        for attribute in ("predict_proba", "classes_"):
            if not hasattr(estimator, attribute):
                raise TextfairError(
                    f"{type(estimator).__name__} has no {attribute}; pass a fitted classifier "
                    "(or pipeline) that supports predict_proba"
                )
        self.estimator = estimator
        self.labels = tuple(str(c) for c in estimator.classes_)
        self.fingerprint = fingerprint

    def predict_proba(self, inputs: Sequence) -> np.ndarray:
        """The estimator's probabilities for a batch of inputs."""
        return np.asarray(self.estimator.predict_proba(list(inputs)), dtype=np.float64)

    @classmethod
    def load(cls, path: str | Path) -> SklearnModel:
        """Load a joblib file, after warning that it can run arbitrary code."""
        import joblib

        file = Path(path)
        if not file.is_file():
            raise TextfairError(f"{file}: no such file; pass the path of a joblib/pickle file")
        warnings.warn(
            f"loading {file} with joblib runs any code stored in it; load only files you trust",
            PickleWarning,
            stacklevel=2,
        )
        try:
            estimator = joblib.load(file)
        except Exception as err:  # a corrupt or foreign file can raise almost anything
            raise TextfairError(
                f"{file}: could not be loaded with joblib ({type(err).__name__}: {err}); "
                "pass a file written by joblib.dump(fitted_pipeline, path)"
            ) from None
        digest = hashlib.sha256(file.read_bytes()).hexdigest()[:16]
        return cls(estimator, fingerprint=f"sklearn:{digest}")
