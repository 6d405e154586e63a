"""textfair from a notebook: `textfair.audit(model, data)` and `textfair.audit_table(...)`.

Both take the model as a notebook holds it (see `textfair.models.as_model`) and the data as
it is (a path, a DataFrame, or a list of texts), run the same audit as the CLI, and return the
typed `AuditReport`. The settings are `AuditConfig`'s fields, as keyword arguments:

    report = textfair.audit(classifier, comments, text_column="comment", labels="toxic",
                            label_map={"True": "toxic", "False": "non-toxic"}, seed=0)
    report.findings_frame()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textfair.errors import TextfairError
from textfair.models import as_model
from textfair.report.model import AuditReport

# The audit's machinery pulls in pandas and scipy (about a second): imported inside the
# functions, so that `import textfair` (which exports these names) and `textfair --help`
# stay fast.
if TYPE_CHECKING:
    import pandas as pd

    from textfair.auditing import AuditConfig
    from textfair.mitigate.compare import Comparison

__all__ = ["audit", "audit_table", "compare_mitigations"]


def audit(
    model: object,
    data: str | Path | pd.DataFrame | Sequence[str] | None = None,
    *,
    text_column: str | None = None,
    labels: str | Sequence[object] | None = None,
    label_map: Mapping[str, str] | str | None = None,
    favorable: str | None = None,
    decision: str | None = None,
    model_id: str = "",
    progress=None,
    unit: str = "document",
    **settings: object,
) -> AuditReport:
    """Audit a text classifier; the same report `textfair audit` writes.

    `labels` (a column name, or one label per text) adds the label-based metrics;
    `favorable` defaults to "non-toxic" or "positive" when the model has such a label, and
    may name several ("4,5" stars); `decision` is a threshold rule for a multi-label head
    ("toxic<0.5", "all(toxic,insult)<0.5");
    `unit="sentence"` audits every sentence of a text as a text of its own (long documents);
    `settings` are AuditConfig's fields (theta, max_order, error, seed, categories, ...).
    With no `data`, the bundled Wikipedia comments and their labels are audited.
    """
    from textfair.auditing import audit_text
    from textfair.corpus import load_corpus

    config = _config(settings)
    corpus = load_corpus(
        data, text_column=text_column, labels=labels, label_map=label_map, unit=unit
    )
    wrapped = as_model(model)
    return audit_text(
        wrapped,
        corpus.texts,
        favorable=favorable,
        decision=decision,
        labels=corpus.labels,
        config=config,
        model_id=model_id or _model_id(model),
        data_info=corpus.info(),
        progress=progress,
    )


def audit_table(
    model: object,
    data: str | Path | pd.DataFrame,
    *,
    label: str,
    sensitive: Sequence[str],
    favorable: str | None = None,
    bins: int = 10,
    model_id: str = "",
    progress=None,
    **settings: object,
) -> AuditReport:
    """Audit a classifier of table rows; the same report `textfair tabular audit` writes.

    `model` is a fitted scikit-learn pipeline over a DataFrame of the feature columns, a
    function of such a DataFrame, or a textfair RowModel; `label` is the true-label column
    and `sensitive` the sensitive features.
    """
    import pandas as pd

    from textfair.auditing import audit_rows
    from textfair.io import read_table
    from textfair.tabular.models import RowModel
    from textfair.tabular.schema import infer_schema

    config = _config(settings)
    frame = data if isinstance(data, pd.DataFrame) else read_table(data)
    schema = infer_schema(
        frame, label=label, sensitive=list(sensitive), favorable=favorable, bins=bins
    )
    columns = [f.name for f in schema.features]
    rows = model if isinstance(model, RowModel) else RowModel(model, columns)
    source = "a DataFrame" if isinstance(data, pd.DataFrame) else str(data)
    return audit_rows(
        rows,
        frame,
        schema,
        config=config,
        model_id=model_id or _model_id(model),
        data_info={"path": source},
        progress=progress,
    )


def compare_mitigations(
    model: object,
    data: str | Path | pd.DataFrame | Sequence[str] | None = None,
    *,
    methods: Sequence[str] | str = "all",
    text_column: str | None = None,
    labels: str | Sequence[object] | None = None,
    label_map: Mapping[str, str] | str | None = None,
    label: str | None = None,
    sensitive: Sequence[str] | None = None,
    favorable: str | None = None,
    bins: int = 10,
    holdout: float = 0.2,
    top: int = 3,
    model_id: str = "",
    **settings: object,
) -> Comparison:
    """Compare mitigation methods on one seeded split; the typed `Comparison` that
    `textfair mitigate --methods` writes (see `textfair.mitigate.compare`).

    Texts: as `audit` (no `data`: the bundled comments and their labels). Table rows: pass
    `sensitive` and `label` (the true-label column), as `audit_table`. `settings` are
    AuditConfig's fields; `seed` also seeds the split. Write it with
    `textfair.report.comparison.write_comparison(result.to_dict(), "dir/")`.
    """
    import pandas as pd

    from textfair.corpus import load_corpus
    from textfair.io import read_table
    from textfair.mitigate.compare import compare_table_mitigations, compare_text_mitigations
    from textfair.tabular.models import RowModel
    from textfair.tabular.schema import infer_schema

    settings.setdefault("causal", False)  # the targets are group findings
    config = _config(settings)
    common = {
        "methods": methods,
        "holdout": holdout,
        "top": top,
        "seed": config.seed,
        "model_id": model_id or _model_id(model),
    }
    if sensitive is not None:
        if label is None:
            raise TextfairError.bad("label", "is missing; name the true-label column of the rows")
        frame = data if isinstance(data, pd.DataFrame) else read_table(data)
        schema = infer_schema(
            frame, label=label, sensitive=list(sensitive), favorable=favorable, bins=bins
        )
        frame = frame.assign(**{label: frame[label].astype(str)})
        columns = [f.name for f in schema.features]
        rows = model if isinstance(model, RowModel) else RowModel(model, columns)
        return compare_table_mitigations(rows, frame, schema, audit_config=config, **common)
    from textfair.auditing import model_decision
    from textfair.models.decision import class_labels

    # `textfair mitigate`'s audit defaults, unless set: tighter than an audit's.
    config = _config({"error": 0.02, "max_samples": 3000, **settings})
    corpus = load_corpus(data, text_column=text_column, labels=labels, label_map=label_map)
    if corpus.labels is None:
        raise TextfairError.bad("labels", "are missing; a comparison retrains, so it needs them")
    wrapped = as_model(model)
    chosen = class_labels(model_decision(wrapped, favorable, None), "mitigation")[0]
    return compare_text_mitigations(
        wrapped, corpus.texts, corpus.labels, favorable=chosen, audit_config=config, **common
    )


def _config(settings: Mapping[str, object]) -> AuditConfig:
    from textfair.auditing import AuditConfig

    names = [f.name for f in dataclasses.fields(AuditConfig) if f.name != "extra"]
    unknown = sorted(set(settings) - set(names))
    if unknown:
        raise TextfairError(
            f"unknown setting {', '.join(map(repr, unknown))}; settings are: {', '.join(names)}"
        )
    return AuditConfig(**settings)  # type: ignore[arg-type]


def _model_id(model: object) -> str:
    """What the caller passed, by name: "keywords" for a function, else the class."""
    if isinstance(model, str):
        return model  # a spec: "toxicity-cnn-lstm", "hf:..."
    name = getattr(model, "__name__", None) or getattr(model, "name", None)  # CallableModel
    return str(name) if isinstance(name, str) else type(model).__name__
