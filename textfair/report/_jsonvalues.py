"""JSON's values as report.json writes and reads them: NaN as null, pairs as lists.

Apart from `textfair.report.records` so that the records of each part (`_metricsrecords`
for the label and table metrics) share them without importing each other.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["_number", "_pair_or_none", "finite"]


def _number(value: Any) -> Any:
    """report.json writes NaN as null; read it back as NaN. Other values are returned as
    the JSON holds them (an int stays an int), unchecked."""
    return math.nan if value is None else value


def finite(value: Any) -> Any:
    """JSON has no NaN: write null instead."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def _pair_or_none(values: list | None) -> tuple[float, float] | None:
    return None if values is None else (_number(values[0]), _number(values[1]))
