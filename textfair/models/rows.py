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
    """predict_proba over row tuples, for an estimator with predict_proba or a callable.

    The audit hands rows as tuples in column order (hashable, so a cached model can remember
    them); a `RowModel` turns a batch back into a DataFrame with the column names and gives
    it to the model.

    Parameters
    ----------
    model
        A fitted scikit-learn estimator or pipeline with ``predict_proba`` (over a
        DataFrame of `columns`), or a function of such a DataFrame that returns one row of
        probabilities per input row.
    columns
        The feature columns, in the order of the row tuples.
    labels
        The labels, in the order of the model's output columns. By default an estimator's
        ``classes_``; a function needs them.

    Attributes
    ----------
    labels : tuple of str
        The labels, as strings.
    columns : list of str
        As given.
    source
        The estimator or function wrapped, for retraining.

    Raises
    ------
    TextfairError
        A `model` with no ``predict_proba`` that is not callable, or labels that are
        unknown (a function without `labels`, an estimator without ``classes_``).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"sex": ["Male", "Female"] * 10, "age": range(20, 40)})
    >>> income = [">50K", "<=50K", "<=50K", ">50K"] * 5
    >>> model = textfair.RowModel(textfair.logistic_regression(rows, income), ["sex", "age"])
    >>> model.labels
    ('<=50K', '>50K')
    >>> model.predict_proba([("Male", 30)]).shape
    (1, 2)
    """

    def __init__(
        self,
        model: object,
        columns: Sequence[str],
        labels: Sequence[str] | None = None,
    ) -> None:
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
        """Probabilities for a batch of rows.

        Parameters
        ----------
        rows
            Row tuples, their values in the order of `columns`.

        Returns
        -------
        numpy.ndarray
            What the model returns for the DataFrame of those rows, as float64: one row per
            input row, a column per label.
        """
        import pandas as pd

        frame = pd.DataFrame(list(rows), columns=self.columns)
        return np.asarray(self._predict(frame), dtype=np.float64)
