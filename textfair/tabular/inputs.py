"""What a table audit needs, read once for the CLI and the library: the rows, their schema
(inferred from the data, with a YAML schema's declared domains on top), and the model."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from textfair.errors import TextfairError
from textfair.io import read_table
from textfair.models.spec import load_row_model
from textfair.tabular.models import RowModel
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
) -> TableInputs:
    """Read the table, build its schema and load the model a spec names; one-line errors."""
    frame = read_table(data)
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
    if str(schema.favorable) not in model.labels:
        raise TextfairError(
            f"favourable label {schema.favorable!r} is not a label of the model; its labels "
            f"are: {', '.join(model.labels)}"
        )
    return TableInputs(frame, schema, model)
