"""Mitigation methods compared on one split (Biswas & Rajan 2020's question: which fix works,
and what does it cost?).

:func:`compare_text_mitigations` and :func:`compare_table_mitigations` split the labelled
data once (seeded): a training part (a seeded share of it is the validation part that
post-processing fits on) and an evaluation part. Every method starts from the same audited
model and sees only the training part; each result is then measured on the evaluation part
alone, the same way for every method:

* the audit (the same configuration and seed, so every method is scored on the same
  generated inputs) of the evaluation part through what the method left (a retrained model,
  a model behind a blinding of its inputs, or the model behind per-group thresholds), with
  the targets, the top significant findings of the audit before, before and after;
* held-out accuracy, macro F1 and ROC AUC with 95% intervals (Wilson for accuracy; a seeded
  bootstrap of the evaluation rows for F1 and AUC);
* B&R's group metrics per sensitive group on the evaluation rows (DI, SPD, EOD, AOD, ERD; for
  tables also CNT and TI), with the largest |SPD|;
* the training seconds, and the Pareto front of worst target against accuracy.

A method whose held-out accuracy falls by more than `max_accuracy_drop` below the audited
model's is kept and marked over budget, with its cost (the accuracy it lost, in points): a
retraining method whose every version lost more keeps its most accurate one. The headline
(`Comparison.headline`) is the method of the Pareto front (held-out accuracy against the
worst target; no dominated method) with the smallest worst target, among those within the
budget when the front has any. Methods that cannot act on the model (logit pairing needs a
torch text model) are listed with the reason, not run.

The change of a target's difference d = phi_r - phi_not_r is reported signed with the
interval d_after - d_before +- sqrt(h_before^2 + h_after^2), h each side's half-width: the
two audits score the same generated inputs, so their errors are positively correlated and
this interval is conservative.

This module runs the comparison and holds its result (`Comparison`); the methods are in
`textfair.mitigate.methods` (their registry), the setting they start from in
`textfair.mitigate._setting`, and how each outcome is measured in
`textfair.mitigate.method_outcome` and `textfair.mitigate._evaluation`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from textfair.auditing.rows import audit_rows
from textfair.auditing.text import audit_text
from textfair.discovery.findings import by_credibility
from textfair.errors import TextfairError
from textfair.mitigate._evaluation import MIN_TEXTS, decisions, group_table
from textfair.mitigate._setting import Mitigated, Split, TableSetting, TextSetting
from textfair.mitigate._table_methods import group_keys
from textfair.mitigate.comparison import Comparison
from textfair.mitigate.method_outcome import (
    Fairness,
    MethodOutcome,
    costed,
    front_point,
    measure_outcome,
)
from textfair.mitigate.methods import Method, applicable, methods_for, run_method
from textfair.mitigate.retrain import Retrainer, holdout_split, retrainer_for
from textfair.models import CachedModel
from textfair.models.base import Model
from textfair.models.baselines import tabular_encoder
from textfair.report.front import headline, pareto_front
from textfair.report.model import AuditReport
from textfair.settings import AuditConfig
from textfair.stats.metrics import consistency, theil_index

if TYPE_CHECKING:
    import pandas as pd

    from textfair.models.rows import RowModel
    from textfair.tabular.schema import Feature, Schema

__all__ = [
    "compare_table_mitigations",
    "compare_text_mitigations",
    "comparison_split",
]

KindSetting = TypeVar("KindSetting", TableSetting, TextSetting)


def comparison_split(n: int, holdout: float, validation: float, seed: int) -> Split:
    """The evaluation part (`holdout_split`, so a bundled model's held-out rows), and a seeded
    `validation` share of the training part."""
    train, evaluation = holdout_split(n, holdout, seed)
    order = np.random.default_rng([seed, 1]).permutation(len(train))
    cut = max(1, round(validation * len(train)))
    return Split(train, np.sort(train[order[:cut]]), evaluation)


def compare_text_mitigations(
    model: Model,
    texts: Sequence[str],
    labels: Sequence[str],
    *,
    favorable: str,
    methods: Sequence[str] | str = "all",
    audit_config: AuditConfig | None = None,
    holdout: float = 0.2,
    validation: float = 0.2,
    top: int = 3,
    seed: int = 0,
    model_id: str = "",
    max_accuracy_drop: float = 0.01,
) -> Comparison:
    """Compare text mitigation methods on one seeded split (see the module docstring)."""
    chosen = methods_for("text", methods)
    labels = [str(y) for y in labels]
    # `textfair mitigate`'s audit defaults: tighter than an audit's, to measure a change.
    config = audit_config or AuditConfig(causal=False, error=2, max_samples=3000, seed=seed)
    split = comparison_split(len(texts), holdout, validation, seed)
    setting = TextSetting(
        model=model,
        favorable=favorable,
        audit_config=config,
        split=split,
        seed=seed,
        retrainer=_retrainer(model, chosen, seed),
        texts=list(texts),
        labels=labels,
        max_accuracy_drop=max_accuracy_drop,
    )
    evaluation = [setting.texts[i] for i in split.evaluation]
    truth = [labels[i] for i in split.evaluation]

    def audit(candidate: Model) -> AuditReport:
        return audit_text(
            candidate,
            evaluation,
            favorable=favorable,
            labels=truth,
            config=config,
            model_id=model_id,
        )

    from textfair.mitigate._text_methods import text_groups
    from textfair.text.matcher import Matcher

    # Every method's groups are the same evaluation texts': matched once, not per method.
    groups = np.asarray(text_groups(Matcher(config.term_list()))(evaluation), dtype=object)
    masks = {g: groups == g for g in sorted(set(groups.tolist()) - {"none", "several"})}

    def fairness(candidate: Model) -> dict[str, Any]:
        decided = decisions(candidate, evaluation)
        return group_table(decided, truth, masks, favorable, MIN_TEXTS)

    return _compare(setting, chosen, audit, fairness, evaluation, truth, top, model_id)


def compare_table_mitigations(
    model: RowModel,
    frame: pd.DataFrame,
    schema: Schema,
    *,
    methods: Sequence[str] | str = "all",
    audit_config: AuditConfig | None = None,
    holdout: float = 0.2,
    validation: float = 0.2,
    top: int = 3,
    seed: int = 0,
    model_id: str = "",
    max_accuracy_drop: float = 0.01,
) -> Comparison:
    """Compare table mitigation methods on one seeded split (see the module docstring).
    `model` is a `RowModel` over the schema's feature columns."""
    chosen = methods_for("rows", methods)
    config = audit_config or AuditConfig(causal=False, seed=seed)
    split = comparison_split(len(frame), holdout, validation, seed)
    columns = [f.name for f in schema.features]
    favorable = str(schema.favorable)
    truth = frame[schema.label].astype(str).to_numpy()
    setting = TableSetting(
        model=model,
        favorable=favorable,
        audit_config=config,
        split=split,
        seed=seed,
        frame=frame,
        schema=schema,
        columns=columns,
        features=frame[columns],
        truth=truth,
        max_accuracy_drop=max_accuracy_drop,
    )
    held = frame.iloc[split.evaluation].reset_index(drop=True)
    evaluation = [tuple(r) for r in held[columns].itertuples(index=False, name=None)]

    def audit(candidate: Model) -> AuditReport:
        return audit_rows(candidate, held, schema, config=config, model_id=model_id)

    # Every method's groups and neighbours are the same evaluation rows': found once.
    masks = {}
    for feature in schema.sensitive:  # B&R's groups: each value of one feature
        keys = np.asarray(group_keys(held[[feature.name]], _only(schema, feature)))
        masks.update({key: keys == key for key in sorted(set(keys.tolist()))})
    encoded = tabular_encoder(held[columns]).fit_transform(held[columns])
    encoded = encoded.toarray() if hasattr(encoded, "toarray") else encoded

    def fairness(candidate: Model) -> dict[str, Any]:
        decided = decisions(candidate, evaluation)
        table = group_table(decided, truth[split.evaluation], masks, favorable)
        table["consistency"] = round(consistency(encoded, decided, favorable=favorable), 4)
        table["theil_index"] = round(
            theil_index(truth[split.evaluation], decided, favorable=favorable), 4
        )
        return table

    return _compare(
        setting, chosen, audit, fairness, evaluation, truth[split.evaluation], top, model_id
    )


RETRAINING = ("counterfactual", "rule-sets", "blindness")  # text methods that refit the model


def _retrainer(model: Model, chosen: Sequence[Method[TextSetting]], seed: int) -> Retrainer | None:
    """The retrainer of the model when a chosen method refits it; None for a model textfair
    cannot retrain (the methods that refit it then say so, and the others run)."""
    if any(m.name in RETRAINING for m in chosen):
        try:
            return retrainer_for(model, seed=seed)
        except TextfairError:
            return None
    return None


def _compare(
    setting: KindSetting,
    chosen: Sequence[Method[KindSetting]],
    audit: Callable[[Model], AuditReport],
    fairness: Fairness,
    evaluation: Sequence[Any],
    truth: Sequence[str] | np.ndarray,
    top: int,
    model_id: str,
) -> Comparison:
    if not 0.0 <= setting.max_accuracy_drop < 1.0:
        raise TextfairError.bad(
            "max_accuracy_drop",
            f"is {100 * setting.max_accuracy_drop:g} points; expected 0 up to (not) 100",
        )
    before = audit(setting.cached)
    significant = bool(before.significant)
    targets = [f.rule_set for f in before.significant[:top]] or [
        f.rule_set for f in sorted(before.findings, key=by_credibility)[:top]
    ]
    common = (before, targets, fairness, evaluation, truth, setting)
    baseline = measure_outcome("none", "", Mitigated(setting.cached, "nothing"), before, *common)
    outcomes: list[MethodOutcome] = []
    # A method that cannot act on this model is listed with the reason, not run.
    _, left_out = applicable(chosen, setting.model, named=False)
    for method in chosen:
        why = left_out.get(method.name, "")
        mitigated = Mitigated(None, "model", skipped=why) if why else run_method(method, setting)
        if mitigated.model is not None:
            # One cache per method: its audit, quality and group metrics ask each input once.
            mitigated.model = CachedModel(mitigated.model)
        after = audit(mitigated.model) if mitigated.model is not None else None
        outcome = measure_outcome(method.name, method.stage, mitigated, after, *common)
        outcomes.append(costed(outcome, baseline, setting.max_accuracy_drop))
    points = [point for o in [baseline, *outcomes] if (point := front_point(o)) is not None]
    front = pareto_front(points)
    return Comparison(
        kind=setting.kind,
        model_id=model_id,
        seed=setting.seed,
        split={
            "train": len(setting.split.train),
            "validation": len(setting.split.validation),
            "evaluation": len(setting.split.evaluation),
        },
        audit_config=before.config,
        targets=[before.label(rs) for rs in targets],
        targets_significant=significant,
        baseline=baseline,
        methods=outcomes,
        pareto=front,
        max_accuracy_drop=setting.max_accuracy_drop,
        headline=headline(points, front),
    )


def _only(schema: Schema, feature: Feature) -> Schema:
    """The schema with one sensitive feature: its groups alone."""
    from dataclasses import replace

    return replace(schema, features=(feature,))
