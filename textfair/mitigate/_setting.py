"""What a mitigation method of a comparison starts from, and what it leaves.

* `Split`: the comparison's seeded row indices (training, validation, evaluation).
* `TableSetting` and `TextSetting`: what every method of one comparison starts from, one
  kind per kind of data (a table's frame and schema; a corpus's texts, labels and the
  retrainer of its model), over the fields both share (`Setting`).
* `Mitigated`: the model a method leaves for the comparison to audit again, and what it
  changed.

They are apart from the methods (`table_methods`, `text_methods`), their registry
(`methods`) and the comparison (`compare`) so that each of those reads them without
importing the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from textfair.models import CachedModel

if TYPE_CHECKING:
    import pandas as pd

    from textfair.mitigate.pipeline import Mitigation
    from textfair.mitigate.retrain import Retrainer
    from textfair.models.base import Model
    from textfair.models.rows import RowModel
    from textfair.settings import AuditConfig
    from textfair.tabular.schema import Schema

__all__ = [
    "NOT_RETRAINED",
    "Mitigated",
    "Setting",
    "Split",
    "TableSetting",
    "TextSetting",
    "loop_note",
]

NOT_RETRAINED = (
    "textfair cannot retrain this model (not a textfair, Hugging Face or scikit-learn one)"
)


@dataclass(frozen=True)
class Split:
    """Row indices of one comparison: `train` (fits), `validation` (a seeded part of `train`
    that post-processing fits on) and `evaluation` (audits and held-out quality)."""

    train: np.ndarray
    validation: np.ndarray
    evaluation: np.ndarray


@dataclass(kw_only=True)
class Setting:
    """What every method of one comparison starts from, whatever its kind of data."""

    kind: ClassVar[str]  # "text" or "rows", as `Method.kind` names it
    model: Model
    favorable: str
    audit_config: AuditConfig
    split: Split
    seed: int
    max_accuracy_drop: float = 0.01
    # The audited model behind one cache: the baseline's audit, its quality and the
    # post-processing methods read its answers, each input asked once.
    cached: CachedModel = field(init=False)

    def __post_init__(self) -> None:
        self.cached = CachedModel(self.model)


@dataclass(kw_only=True)
class TextSetting(Setting):
    """A comparison of text methods: the corpus's texts and true labels, and the retrainer
    of the model (None for a model textfair cannot retrain: the methods that refit it then
    say so, and the others run)."""

    kind: ClassVar[str] = "text"
    texts: list[str]
    labels: list[str]
    retrainer: Retrainer | None = None


@dataclass(kw_only=True)
class TableSetting(Setting):
    """A comparison of table methods: the whole `frame` (features and label), its `schema`,
    the feature `columns` (a row model's input order), the `features` alone and the true
    labels as strings (`truth`), both over every row of the frame."""

    kind: ClassVar[str] = "rows"
    model: RowModel  # over the schema's feature columns
    frame: pd.DataFrame
    schema: Schema
    columns: list[str]
    features: pd.DataFrame
    truth: np.ndarray


@dataclass
class Mitigated:
    """What a method leaves: the model the comparison audits again, and what it changed."""

    model: Model | None
    changes: str  # "model", "inputs" or "decisions"
    seconds: float = 0.0
    note: str = ""
    skipped: str = ""  # why the method did not apply (model None)
    extra: dict[str, Any] = field(default_factory=dict)


def loop_note(result: Mitigation) -> str:
    """What a retraining loop kept, said when it is over the accuracy budget."""
    if not result.report.get("over_budget"):
        return ""
    return (
        f"{result.report['status']} (on a held-out part of the training part); its most "
        "accurate version is kept. A model trained on the whole training part, as the bundled "
        "ones were, reads too well on that part, so its budget there is strict: the accuracy "
        "lost on the evaluation rows is the cost this comparison reports"
    )
