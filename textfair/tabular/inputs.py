"""What a table audit needs, read once for the CLI and the library: the rows, their schema
(inferred from the data, with a YAML schema's declared domains on top), and the model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from textfair.corpus import parse_label_map
from textfair.errors import TextfairError
from textfair.io import read_table
from textfair.models.rows import RowModel
from textfair.models.spec import load_row_model
from textfair.tabular.schema import Schema, infer_schema, load_schema

__all__ = ["TableInputs", "load_table_inputs"]


class TableInputs(NamedTuple):
    """The rows, their schema, and the row model."""

    frame: pd.DataFrame
    schema: Schema
    model: RowModel


def load_table_inputs(
    model_spec: str,
    data: str | Path,
    sensitive: list[str] | None,
    label: str,
    *,
    favorable: str | None = None,
    bins: int = 10,
    labels: list[str] | None = None,
    schema_file: str | Path | None = None,
    label_map: Mapping[str, str] | str | None = None,
) -> TableInputs:
    """Read the table, build its schema and load the model a spec names; one-line errors.

    `label_map` renames the label column's values to the model's label names ("1=>50K" or
    {"1": ">50K"}), for a model trained on other names than the data's."""
    frame = read_table(data)
    mapping = parse_label_map(label_map)
    if mapping and label in frame.columns:
        column = frame[label]
        frame = frame.assign(
            **{label: column.map(lambda v: v if pd.isna(v) else mapping.get(str(v), str(v)))}
        )
    if not sensitive:
        raise TextfairError("no sensitive columns named; name them, e.g. sex,race")
    schema = infer_schema(frame, label=label, sensitive=sensitive, favorable=favorable, bins=bins)
    if schema_file is not None:
        declared = load_schema(schema_file)
        declared.validate(frame)  # bounds and values the user declared must hold
        # Declared domains win; sensitivity comes from the names given.
        by_name = {f.name: f for f in declared.features}
        schema = replace(
            schema,
            features=tuple(
                replace(by_name[f.name], sensitive=f.sensitive) if f.name in by_name else f
                for f in schema.features
            ),
        )
    model = load_row_model(model_spec, [f.name for f in schema.features], labels=labels)
    data_labels = {str(v) for v in schema.label_values}
    if not data_labels <= set(model.labels):
        raise TextfairError(
            f"the label column holds {', '.join(sorted(data_labels))} but the model's labels "
            f"are {', '.join(model.labels)}; map one onto the other with a label map, e.g. "
            f"{_example_map(sorted(data_labels), list(model.labels))}",
            parameter="label_map",
        )
    return TableInputs(frame, schema, model)


def _example_map(data_labels: list[str], model_labels: list[str]) -> str:
    return ",".join(f"{d}={m}" for d, m in zip(data_labels, model_labels, strict=False))
