"""Baseline classifiers for table rows: what the examples, tests and benchmarks audit."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import Pipeline

__all__ = ["logistic_regression", "tabular_encoder"]


def tabular_encoder(features: pd.DataFrame) -> ColumnTransformer:
    r"""One-hot encode the non-numeric columns of a DataFrame and standardise the numeric ones.

    Parameters
    ----------
    features : pandas.DataFrame
        The feature columns; only their dtypes are read (a column of a numeric dtype,
        booleans included, is numeric).

    Returns
    -------
    sklearn.compose.ColumnTransformer
        Not fitted: a ``OneHotEncoder(handle_unknown="ignore")`` over the non-numeric
        columns (a value unseen in fitting encodes as zeros) and a ``StandardScaler`` over
        the numeric ones. Its output has the one-hot columns first.

    Notes
    -----
    A numeric column $x$ becomes $(x - \bar{x}) / s$, with $\bar{x}$ and
    $s$ the mean and the (population) standard deviation seen in fitting.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"sex": ["Male", "Female"], "age": [30, 40]})
    >>> encoder = textfair.tabular_encoder(rows).fit(rows)
    >>> encoder.transform(rows).tolist()
    [[0.0, 1.0, -1.0], [1.0, 0.0, 1.0]]
    """
    import pandas as pd
    from sklearn.compose import make_column_transformer
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    categorical = [c for c in features if not pd.api.types.is_numeric_dtype(features[c])]
    numeric = [c for c in features if c not in categorical]
    return make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), categorical), (StandardScaler(), numeric)
    )


def logistic_regression(
    features: pd.DataFrame, labels: ArrayLike, max_iter: int = 1000
) -> Pipeline:
    r"""A fitted pipeline: the tabular encoder, then a logistic regression.

    A baseline classifier of table rows, of the kind the examples, tests and benchmarks
    audit; `textfair.audit_table` takes it as it is.

    Parameters
    ----------
    features : pandas.DataFrame
        The feature columns (see `tabular_encoder`).
    labels : array-like
        One label per row.
    max_iter : int
        The solver's maximum number of iterations.

    Returns
    -------
    sklearn.pipeline.Pipeline
        `tabular_encoder` of `features`, then scikit-learn's ``LogisticRegression`` (its
        defaults: L2 penalty, ``C=1``), fitted on `features` and `labels`; it has
        ``predict_proba`` and ``classes_``.

    Notes
    -----
    With $\phi(x)$ the encoded row and two classes, the model is
    $P(y = 1 \mid x) = \sigma(w^\top \phi(x) + b)$, with
    $\sigma(t) = 1 / (1 + e^{-t})$; with more classes, a softmax over one such score
    per class.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"sex": ["Male", "Female"] * 10, "age": range(20, 40)})
    >>> income = [">50K", "<=50K", "<=50K", ">50K"] * 5
    >>> model = textfair.logistic_regression(rows, income)
    >>> model.classes_.tolist()
    ['<=50K', '>50K']
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    return make_pipeline(tabular_encoder(features), LogisticRegression(max_iter=max_iter)).fit(
        features, labels
    )
