"""Models over table rows: a fitted scikit-learn pipeline, or a function of a DataFrame.

Discovery hands rows as tuples in column order (hashable, so CachedModel can remember them);
this adapter turns a batch back into a DataFrame with the right column names and dtypes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from textfair.errors import TextfairError

__all__ = ["RowModel"]


class RowModel:
    """predict_proba over row tuples, for an estimator with predict_proba or a callable."""

    def __init__(self, model, columns: Sequence[str], labels: Sequence[str] | None = None):
        self.columns = list(columns)
        self.source = model  # the estimator or function wrapped, for retraining
        if hasattr(model, "predict_proba"):
            self._predict: Callable = model.predict_proba
            classes = getattr(model, "classes_", None)
            labels = labels if labels is not None else classes
        elif callable(model):
            self._predict = model
        else:
            raise TextfairError(
                f"{type(model).__name__} has no predict_proba and is not callable; pass a "
                "fitted scikit-learn pipeline or a function of a DataFrame"
            )
        if labels is None:
            raise TextfairError.bad(
                "labels", "of the model are unknown; pass them in the order of its output columns"
            )
        self.labels = tuple(str(label) for label in labels)

    def predict_proba(self, rows: Sequence[tuple]) -> np.ndarray:
        """Probabilities for a batch of rows."""
        import pandas as pd

        frame = pd.DataFrame(list(rows), columns=self.columns)
        return np.asarray(self._predict(frame), dtype=np.float64)
