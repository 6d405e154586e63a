"""textfair from a notebook: `textfair.audit(model, data)` and `textfair.audit_table(...)`.

Both take the model as a notebook holds it (see `textfair.models.as_model`) and the data as
it is (a path, a DataFrame, or a list of texts), run the same audit as the CLI, and return the
typed `AuditReport`. The settings are `AuditConfig`'s fields, as keyword arguments:

    report = textfair.audit(classifier, comments, text_column="comment", true_labels="toxic",
                            label_map={"True": "toxic", "False": "non-toxic"}, seed=0)

`true_labels=` names the texts' true labels; the model's class names, for a model that
does not carry them, are `as_model(f, label_names=[...])`'s.
    report.findings_frame()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textfair.errors import TextfairError
from textfair.models import as_model
from textfair.models.keywords import renamed
from textfair.report.model import AuditReport
from textfair.settings import check_parameter, points
from textfair.workers import check_workers

# The audit's machinery pulls in pandas and scipy (about a second): imported inside the
# functions, so that `import textfair` (which exports these names) and `textfair --help`
# stay fast.
if TYPE_CHECKING:
    import pandas as pd

    from textfair.corpus import Corpus
    from textfair.mitigate.comparison import Comparison
    from textfair.settings import AuditConfig

__all__ = ["audit", "audit_table", "compare_mitigations"]

# Why true_labels= is not labels=.
TRUE_LABELS = "the texts' true labels; a model's class names are as_model(f, label_names=[...])'s"


def audit(
    model: object,
    data: str | Path | pd.DataFrame | Sequence[str] | None = None,
    *,
    text_column: str | None = None,
    true_labels: str | Sequence[object] | None = None,
    label_map: Mapping[str, str] | str | None = None,
    favorable: str | None = None,
    decision: str | None = None,
    model_id: str = "",
    progress: Callable[[str], None] | None = None,
    unit: str = "document",
    labels: str | Sequence[object] | None = None,
    workers: int | None = None,
    cache: str | Path | None = None,
    **settings: object,
) -> AuditReport:
    r"""Audit a text classifier for different outcomes across identity groups.

    The same audit, and the same report, as ``textfair audit``: rule sets of identity
    terms and their group fairness score (TestSGD), causal tests against a placebo edit
    (Themis), and label-based metrics when labels are given.

    Parameters
    ----------
    model
        What a notebook holds: a Hugging Face pipeline or model, a fitted scikit-learn
        classifier or pipeline, a textfair model, a function of a list of texts that returns
        labels or probabilities, or a spec string (``"toxicity-cnn-lstm"``,
        ``"hf:<hub id or directory>"``); see `as_model`.
    data
        A file (CSV, TSV, JSON lines, Parquet, text), a DataFrame or a list of texts. None
        audits the bundled Wikipedia comments and their labels.
    text_column
        The column that holds the texts; inferred when there is one text-like column.
    true_labels
        The texts' true labels, as a column name or one label per text: adds subgroup,
        BPSN and BNSP AUC and the error-rate gaps. (The model's class names are another
        thing: give them with ``as_model(f, label_names=[...])``.)
    label_map
        Label values as the model names them: ``{"True": "toxic", "False": "non-toxic"}``
        or ``"True=toxic,False=non-toxic"``.
    favorable
        The favourable label; by default ``"non-toxic"`` or ``"positive"`` when the model
        has such a label. Several, joined by commas, for star ratings (``"4,5"``).
    decision
        A threshold rule for a multi-label head instead of `favorable`:
        ``"toxic<0.5"``, ``"all(toxic,insult)<0.5"``.
    model_id
        The model's name in the report (default: what was passed, by name).
    progress
        A callable given one line per stage (``print`` shows them).
    unit
        ``"sentence"`` audits every sentence of a text as a text of its own (long
        documents); ``"document"`` (default) audits whole texts.
    labels
        The old name of `true_labels`, kept for one release with a ``FutureWarning``.
    workers
        Processes that read the corpus (its mentions, plans and scores) before the model is
        asked: by default the cores this process may use. The report is the same with any
        number; on platforms other than Linux the corpus is read in this process.
    cache
        An SQLite file (new, or one textfair wrote: ``textfair audit --cache``'s) that keeps
        the model's answers, so a rerun asks the model only what it had not answered (for a
        model textfair can identify: a spec string, or one with a ``fingerprint``), and the
        corpus's reading, so an audit of any model on the same texts, term list and reading
        settings reads nothing again. Without it the reading is still kept in this process
        for the next audit; ``report.run.reading`` says where each audit's came from.
    **settings
        The audit's settings, as `textfair audit`'s options name them: ``terms``
        (``"dixon2018"``, ``"holistic"``, a file or a `TermList`), ``categories``,
        ``theta`` (minimum support of a rule set, 0.05), ``max_order`` (rules per rule set,
        2), ``confidence`` (0.95), ``error`` (target half-width of each interval, in
        points: 5; a number below 1 is read as a fraction, 0.05, with a ``PointsNote``),
        ``min_samples`` / ``max_samples`` (seeds per rule set, 100 / 1000), ``mode``
        (``"paired"`` or ``"paper"``), ``correction`` (``"holm"``, ``"bh"`` or ``"none"``),
        ``group`` / ``causal`` (which analyses run), ``causal_threshold`` (0.1),
        ``min_acceptability`` (variants whose acceptability score is below it are neither
        generated nor audited: `textfair.text._acceptability.DEFAULT_MIN_ACCEPTABILITY`;
        0 keeps every variant), ``private_names`` (every first name of the corpus is a
        private person's, so every one is swapped: False, where only those the text shows to
        be are) and ``seed`` (0). An unknown name raises `TextfairError`
        listing the valid ones; every value is checked against one table of constraints
        (`textfair.settings.CONSTRAINTS`) before the model is loaded or asked anything.

    Returns
    -------
    AuditReport
        Findings worst first, causal scores, label metrics and the run's settings;
        ``summary()`` is the verdict in words, ``save(directory)`` writes the report set.

    Raises
    ------
    TextfairError
        A mistake in the arguments or the data (one line naming the parameter), or a model
        that cannot be used; raised before the model is asked anything.

    Notes
    -----
    For a rule set $R$, each seed text $i$ is rewritten to $R$'s terms and
    to the other assignments $A_i$ of its categories; with $y$ the favourable
    decision, the difference is the mean over seeds of

    $$
    d_i = y_i(R) - \frac{1}{|A_i|} \sum_{a \in A_i} y_i(a),
    $$

    with an interval that holds when few seeds vary, and p-values corrected over every rule
    set tested. See the methods page of the documentation for every formula.

    Examples
    --------
    >>> import textfair
    >>> report = textfair.audit("toxicity-cnn-lstm", categories=["gender"], seed=0)
    >>> print(report.summary())  # doctest: +SKIP
    toxicity-cnn-lstm: 8 rule sets, 1 significant after correction. ...
    """
    from textfair.auditing.text import audit_text
    from textfair.models.spec import answers_kept
    from textfair.text.reading_store import ReadingStore

    config = _config(settings)
    check_parameter("unit", unit)
    check_workers(workers)
    truths = renamed("true_labels", true_labels, labels, TRUE_LABELS)
    corpus = _corpus(data, text_column=text_column, labels=truths, label_map=label_map, unit=unit)
    store = ReadingStore(cache)  # the path checked before the corpus is read
    wrapped = answers_kept(as_model(model), model, cache)
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
        workers=workers,
        store=store,
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
    progress: Callable[[str], None] | None = None,
    **settings: object,
) -> AuditReport:
    """Audit a classifier of table rows for different outcomes across groups.

    The same audit, and the same report, as ``textfair tabular audit``: rule sets over the
    sensitive features (binned when numeric) and their group fairness score, causal tests
    that change only the sensitive features, and AIF360's group metrics.

    Parameters
    ----------
    model
        A fitted scikit-learn classifier or pipeline over a DataFrame of the feature
        columns, or a `RowModel` (which also wraps a function of such a DataFrame that
        returns probabilities, with its labels: ``RowModel(function, columns, labels)``).
    data
        The rows, with the true-label column: a file (CSV, TSV, JSON lines, Parquet) or a
        DataFrame.
    label
        The true-label column.
    sensitive
        The sensitive features (column names).
    favorable
        The favourable label; required unless the label column has exactly two values,
        when it defaults to the last of them in string order (see `infer_schema`).
    bins
        Equal-width bins of a numeric sensitive feature, 10 by default (as TestSGD).
    model_id
        The model's name in the report.
    progress
        A callable given one line per stage.
    **settings
        The audit's settings, as `audit` takes them (``terms`` is not used for rows).

    Returns
    -------
    AuditReport
        As `audit`'s, with ``kind="rows"`` and `TableMetrics` as its label metrics.

    Raises
    ------
    TextfairError
        A missing column, an unusable model or an unknown setting, before any query.

    Examples
    --------
    >>> report = textfair.audit_table(pipeline, "adult.csv", label="income",
    ...                               sensitive=["sex", "race"], seed=0)  # doctest: +SKIP
    """
    import pandas as pd

    from textfair.auditing.rows import audit_rows
    from textfair.io import read_table
    from textfair.models.rows import RowModel
    from textfair.tabular.schema import infer_schema

    config = _config(settings)
    check_parameter("bins", bins)
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
    true_labels: str | Sequence[object] | None = None,
    label_map: Mapping[str, str] | str | None = None,
    label: str | None = None,
    sensitive: Sequence[str] | None = None,
    favorable: str | None = None,
    bins: int = 10,
    holdout: float = 0.2,
    top: int = 3,
    model_id: str = "",
    labels: str | Sequence[object] | None = None,
    max_accuracy_drop: float = 1.0,
    **settings: object,
) -> Comparison:
    """Compare mitigation methods on one seeded split, as Biswas and Rajan compare them.

    The typed `Comparison` that ``textfair mitigate --methods`` writes: each method is
    applied to the training part of one seeded split and measured on the held-out part
    (accuracy and the audit's top findings), so the methods are compared like for like.

    Parameters
    ----------
    model
        The model to mitigate, as `audit` (texts) or `audit_table` (rows) takes it.
    data
        Labelled texts as `audit` takes them (None: the bundled comments and their
        labels), or table rows as `audit_table` takes them.
    methods
        ``"all"`` or the methods' names (see ``textfair mitigate --help``).
    text_column, true_labels, label_map
        Texts: as `audit`; true labels are required (a comparison retrains).
    label, sensitive, bins
        Rows: as `audit_table`; passing `sensitive` makes it a table comparison.
    favorable
        The favourable label.
    holdout
        The held-out share of `data` (0.2).
    top
        How many significant findings of the audit are the targets (3).
    model_id
        The model's name in the report.
    labels
        The old name of `true_labels`, kept for one release with a ``FutureWarning``.
    max_accuracy_drop
        The held-out accuracy a method may lose against the audited model, in points (1);
        one that loses more is kept and marked over budget, with what it lost. A number
        below 1 is read as a fraction (0.01 is 1 point), with a note.
    **settings
        The audit's settings, as `audit` takes them; ``seed`` also seeds the split. Every
        one, `holdout`, `top` and `bins` are checked before the model is asked anything.

    Returns
    -------
    Comparison
        One row per method: held-out accuracy, each target's difference before and after,
        and which methods are on the Pareto front. ``result.save("dir/")`` writes
        comparison.json, .md and .html.

    Raises
    ------
    TextfairError
        Missing labels, a missing `label` for rows, or an unknown method or setting.
    """
    import pandas as pd

    from textfair.io import read_table
    from textfair.mitigate.compare import compare_table_mitigations, compare_text_mitigations
    from textfair.models.rows import RowModel
    from textfair.tabular.schema import infer_schema

    settings.setdefault("causal", False)  # the targets are group findings
    config = _config(settings)
    for name, value in (("holdout", holdout), ("top", top), ("bins", bins)):
        check_parameter(name, value)
    truths = renamed("true_labels", true_labels, labels, TRUE_LABELS)
    # What both comparisons take alike (Any: each keyword has its own type).
    common: dict[str, Any] = {
        "methods": methods,
        "holdout": holdout,
        "top": top,
        "seed": config.seed,
        "model_id": model_id or _model_id(model),
        "audit_config": config,
        # Points here, as every difference is given; mitigation compares fractions.
        "max_accuracy_drop": points("max_accuracy_drop", max_accuracy_drop) / 100.0,
    }
    if sensitive is not None:
        if label is None:
            raise TextfairError.bad("label", "is missing; name the true-label column of the rows")
        if not isinstance(data, pd.DataFrame | str | Path):
            raise TextfairError.bad("data", "must be a file path or a DataFrame for table rows")
        frame = data if isinstance(data, pd.DataFrame) else read_table(data)
        schema = infer_schema(
            frame, label=label, sensitive=list(sensitive), favorable=favorable, bins=bins
        )
        frame = frame.assign(**{label: frame[label].astype(str)})
        columns = [f.name for f in schema.features]
        rows = model if isinstance(model, RowModel) else RowModel(model, columns)
        return compare_table_mitigations(rows, frame, schema, **common)
    from textfair.auditing.decision import model_decision
    from textfair.models.decision import class_labels

    # `textfair mitigate`'s audit defaults, unless set: tighter than an audit's.
    config = _config({"error": 2.0, "max_samples": 3000, **settings})
    corpus = _corpus(data, text_column=text_column, labels=truths, label_map=label_map)
    if corpus.labels is None:
        raise TextfairError.bad(
            "true_labels", "are missing; a comparison retrains, so it needs them"
        )
    wrapped = as_model(model)
    chosen = class_labels(model_decision(wrapped, favorable, None), "mitigation")[0]
    common["audit_config"] = config
    return compare_text_mitigations(
        wrapped, corpus.texts, corpus.labels, favorable=chosen, **common
    )


def _config(settings: Mapping[str, object]) -> AuditConfig:
    """The settings object of `settings`, every value checked (before any query)."""
    from textfair.settings import AuditConfig

    names = [f.name for f in dataclasses.fields(AuditConfig) if f.name != "extra"]
    unknown = sorted(set(settings) - set(names))
    if unknown:
        raise TextfairError(
            f"unknown setting {', '.join(map(repr, unknown))}; settings are: {', '.join(names)}"
        )
    return AuditConfig(**settings).checked()  # type: ignore[arg-type]


def _corpus(
    data: str | Path | pd.DataFrame | Sequence[str] | None,
    *,
    text_column: str | None,
    labels: str | Sequence[object] | None,
    label_map: Mapping[str, str] | str | None,
    unit: str = "document",
) -> Corpus:
    """`load_corpus`'s corpus; a mistake in the true labels names `true_labels`, as the
    API calls them."""
    from textfair.corpus import load_corpus

    try:
        return load_corpus(
            data, text_column=text_column, labels=labels, label_map=label_map, unit=unit
        )
    except TextfairError as err:
        if err.parameter != "labels" or not str(err).startswith("labels "):
            raise
        raise TextfairError.bad("true_labels", str(err)[len("labels ") :]) from None


def _model_id(model: object) -> str:
    """What the caller passed, by name: "keywords" for a function, else the class."""
    if isinstance(model, str):
        return model  # a spec: "toxicity-cnn-lstm", "hf:..."
    name = getattr(model, "__name__", None) or getattr(model, "name", None)  # CallableModel
    return str(name) if isinstance(name, str) else type(model).__name__
