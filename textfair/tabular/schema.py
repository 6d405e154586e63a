"""The schema of a table: feature types, domains, the sensitive features, the label.

Inferred from a DataFrame or loaded from YAML (`yaml.safe_load`). Continuous sensitive
features are cut into `bins` equal-width intervals (K = 10, as TestSGD), so a rule over them
is a run of adjacent bins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from textfair.errors import TextfairError
from textfair.io import read_utf8

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Feature", "Schema", "infer_schema", "load_schema"]

Kind = Literal["categorical", "integer", "float"]
MAX_CATEGORIES_AS_NUMBERS = 12  # an integer column with at most this many values is categorical


@dataclass(frozen=True)
class Feature:
    """One column: its kind and domain (values, or numeric bounds), and whether it is sensitive."""

    name: str
    kind: Kind
    values: tuple = ()
    low: float | None = None
    high: float | None = None
    sensitive: bool = False

    @property
    def bounds(self) -> tuple[float, float]:
        """(low, high) of a numeric feature; a one-line error when they were not given."""
        if self.low is None or self.high is None:
            raise TextfairError(
                f"{self.kind} feature {self.name!r} has no bounds; give it `low:` and `high:`"
            )
        return self.low, self.high

    def bin_edges(self, bins: int) -> np.ndarray:
        """Equal-width bin edges over [low, high]."""
        low, high = self.bounds
        return np.linspace(float(low), float(high), bins + 1)


@dataclass(frozen=True)
class Schema:
    r"""Features, label column and favourable label: the schema of a table.

    Inferred from a DataFrame by `infer_schema`, or loaded from YAML. A numeric sensitive
    feature is cut into `bins` equal-width intervals ($K = 10$, as TestSGD), so a rule
    over it is a run of adjacent bins.

    Attributes
    ----------
    features : tuple of Feature
        Every column but the label, in column order: its name, its kind
        (``"categorical"``, ``"integer"`` or ``"float"``), its domain (the values, or the
        numeric bounds ``low`` and ``high``) and whether it is sensitive.
    label : str
        The true-label column.
    favorable : object
        The favourable label, as the data writes it.
    bins : int
        Bins of a numeric sensitive feature.
    label_values : tuple
        The label's values, sorted as strings (empty for a schema read from YAML).

    Notes
    -----
    A numeric feature with bounds $[a, b]$ has the bin edges
    $e_j = a + j (b - a) / K$ for $j = 0, \dots, K$.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"sex": ["Male", "Female"], "age": [30.5, 41.0],
    ...                      "income": [">50K", "<=50K"]})
    >>> schema = textfair.infer_schema(rows, label="income", sensitive=["sex"])
    >>> [feature.name for feature in schema.sensitive], schema.favorable
    (['sex'], '>50K')
    >>> schema.feature("age")
    Feature(name='age', kind='float', values=(), low=30.5, high=41.0, sensitive=False)
    """

    features: tuple[Feature, ...]
    label: str
    favorable: object
    bins: int = 10
    label_values: tuple = field(default=())

    @property
    def sensitive(self) -> list[Feature]:
        """The sensitive features, in column order (a list of `Feature`)."""
        return [f for f in self.features if f.sensitive]

    def feature(self, name: str) -> Feature:
        """A feature by name, or a one-line error listing the columns.

        Parameters
        ----------
        name
            The column.

        Returns
        -------
        Feature
            Its kind, domain and whether it is sensitive.

        Raises
        ------
        TextfairError
            No feature has that name; the message lists the columns.
        """
        for feature in self.features:
            if feature.name == name:
                return feature
        raise TextfairError(
            f"no column {name!r}; columns are: {', '.join(f.name for f in self.features)}"
        )

    def validate(self, frame: pd.DataFrame) -> None:
        """Check the data against the schema's columns, values and bounds.

        Parameters
        ----------
        frame : pandas.DataFrame
            The rows.

        Raises
        ------
        TextfairError
            A column of the schema is missing, a categorical column holds a value not in
            the schema, or a numeric column goes outside the schema's bounds (or the schema
            gives it none).
        """
        for feature in self.features:
            if feature.name not in frame.columns:
                raise TextfairError(
                    f"the data has no column {feature.name!r} that the schema names; columns "
                    f"are: {', '.join(map(str, frame.columns))}"
                )
            column = frame[feature.name]
            if feature.kind == "categorical":
                unknown = sorted(set(column.tolist()) - set(feature.values), key=str)
                if unknown:
                    raise TextfairError(
                        f"column {feature.name!r} holds {unknown[0]!r}, not in the schema's "
                        f"values ({', '.join(map(str, feature.values[:8]))}...); fix the data "
                        "or add the value to the schema"
                    )
            else:
                low, high = float(column.min()), float(column.max())
                bottom, top = feature.bounds
                if low < bottom or high > top:
                    raise TextfairError(
                        f"column {feature.name!r} ranges over [{low:g}, {high:g}], outside the "
                        f"schema's bounds [{feature.low:g}, {feature.high:g}]; fix the data or "
                        "widen the bounds"
                    )


def infer_schema(
    frame: pd.DataFrame,
    *,
    label: str,
    sensitive: Sequence[str],
    favorable: object = None,
    bins: int = 10,
) -> Schema:
    """Infer feature kinds and domains from the data; check the sensitive and label columns.

    Every column but the label is a feature. An integer or boolean column with at most 12
    distinct values is categorical; another integer column is ``"integer"`` and a float
    column ``"float"``, with the smallest and largest values as bounds; any other column is
    categorical. Missing values are left out of the domains.

    Parameters
    ----------
    frame : pandas.DataFrame
        The rows, with the true-label column.
    label
        The true-label column; no value of it may be missing.
    sensitive
        The sensitive features (column names). Each must take two values or more.
    favorable
        The favourable label, compared with the label values as strings and recorded as the
        data writes it. By default, when the label takes exactly two values, the last of
        them sorted as strings (``">50K"`` rather than ``"<=50K"``).
    bins
        Bins of a numeric sensitive feature (equal-width), 2 or more.

    Returns
    -------
    Schema
        The features (sensitive ones marked), the label, the favourable label, `bins` and
        the label's values.

    Raises
    ------
    TextfairError
        A sensitive or label column that is missing; fewer than 2 bins; missing labels; no
        `favorable` for a label that does not take exactly two values, or one that is not
        a label value; a sensitive feature with a single value.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"sex": ["Male", "Female", "Male"], "age": [30, 41, 52],
    ...                      "income": [">50K", "<=50K", "<=50K"]})
    >>> schema = textfair.infer_schema(rows, label="income", sensitive=["sex", "age"])
    >>> schema.favorable, [(f.name, f.kind) for f in schema.features]
    ('>50K', [('sex', 'categorical'), ('age', 'categorical')])
    """
    columns = [str(c) for c in frame.columns]
    for name in [*sensitive, label]:
        if name not in columns:
            raise TextfairError(
                f"no column {name!r}; columns are: {', '.join(columns)}; check the sensitive "
                "and label columns named"
            )
    if bins < 2:
        raise TextfairError.bad("bins", f"is {bins}; expected 2 or more")
    missing = int(frame[label].isna().sum())
    if missing:
        raise TextfairError(
            f"label column {label!r} is empty in {missing} of {len(frame)} rows; drop those rows "
            "or fill in their labels"
        )
    label_values = tuple(sorted(set(frame[label].tolist()), key=str))
    if favorable is None:
        if len(label_values) != 2:
            shown = ", ".join(map(str, label_values[:6])) + ("..." if len(label_values) > 6 else "")
            raise TextfairError(
                f"label {label!r} has {len(label_values)} values ({shown}); name the "
                "favourable one",
                parameter="favorable",
            )
        favorable = label_values[-1]
    elif str(favorable) not in {str(v) for v in label_values}:
        raise TextfairError(
            f"favourable label {favorable!r} is not a value of {label!r}; its values are: "
            f"{', '.join(map(str, label_values))}"
        )
    else:
        favorable = next(v for v in label_values if str(v) == str(favorable))
    features = []
    for name in columns:
        if name == label:
            continue
        features.append(_infer_feature(frame[name], name, name in sensitive))
    for feature in features:
        if feature.sensitive and feature.kind == "categorical" and len(feature.values) < 2:
            raise TextfairError(
                f"sensitive feature {feature.name!r} has a single value "
                f"({feature.values[0]!r}), so no group differs from another; drop it from "
                "the sensitive columns"
            )
        if feature.sensitive and feature.kind != "categorical" and feature.low == feature.high:
            raise TextfairError(
                f"sensitive feature {feature.name!r} has a single value ({feature.low:g}); "
                "drop it from the sensitive columns"
            )
    return Schema(tuple(features), label, favorable, bins, label_values)


def _infer_feature(column: pd.Series, name: str, sensitive: bool) -> Feature:
    values = column.dropna()
    if values.dtype.kind in "iub" and values.nunique() <= MAX_CATEGORIES_AS_NUMBERS:
        return Feature(
            name, "categorical", tuple(sorted(set(values.tolist()))), sensitive=sensitive
        )
    if values.dtype.kind in "iu":
        return Feature(
            name, "integer", low=float(values.min()), high=float(values.max()), sensitive=sensitive
        )
    if values.dtype.kind == "f":
        return Feature(
            name, "float", low=float(values.min()), high=float(values.max()), sensitive=sensitive
        )
    return Feature(
        name, "categorical", tuple(sorted(set(values.tolist()), key=str)), sensitive=sensitive
    )


def load_schema(path: str | Path) -> Schema:
    """A schema from YAML: `label`, `favorable`, `bins`, and `features` with kind and domain."""
    from textfair.io import input_file, load_yaml

    file = input_file(path, "a schema file (YAML)")
    data = load_yaml(read_utf8(file), str(file))
    if not isinstance(data, dict) or "features" not in data or "label" not in data:
        raise TextfairError(f"{file}: expected a mapping with `label:` and `features:`")
    features = []
    for name, spec in data["features"].items():
        kind = spec.get("kind")
        if kind not in ("categorical", "integer", "float"):
            raise TextfairError(
                f"{file}: feature {name!r} has kind {kind!r}; expected categorical, integer "
                "or float"
            )
        features.append(
            Feature(
                str(name),
                kind,
                tuple(spec.get("values", ())),
                spec.get("low"),
                spec.get("high"),
                bool(spec.get("sensitive", False)),
            )
        )
    return Schema(
        tuple(features), str(data["label"]), data.get("favorable"), int(data.get("bins", 10))
    )
