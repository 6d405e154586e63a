"""Baseline classifiers for table rows: what the examples, tests and benchmarks audit."""

from __future__ import annotations

__all__ = ["logistic_regression", "tabular_encoder"]


def tabular_encoder(features):
    """One-hot encode the non-numeric columns of a DataFrame and standardise the numeric ones."""
    import pandas as pd
    from sklearn.compose import make_column_transformer
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    categorical = [c for c in features if not pd.api.types.is_numeric_dtype(features[c])]
    numeric = [c for c in features if c not in categorical]
    return make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), categorical), (StandardScaler(), numeric)
    )


def logistic_regression(features, labels, max_iter: int = 1000):
    """A fitted pipeline: the tabular encoder, then a logistic regression."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    return make_pipeline(tabular_encoder(features), LogisticRegression(max_iter=max_iter)).fit(
        features, labels
    )
