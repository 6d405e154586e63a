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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from textfair._version import __version__
from textfair.auditing.rows import audit_rows
from textfair.auditing.text import audit_text
from textfair.discovery.findings import by_credibility
from textfair.errors import TextfairError
from textfair.mitigate.methods import (
    Method,
    Mitigated,
    Split,
    applicable,
    group_keys,
    methods_for,
    run_method,
)
from textfair.mitigate.retrain import holdout_split, retrainer_for
from textfair.models import CachedModel
from textfair.models.base import Model
from textfair.models.baselines import tabular_encoder
from textfair.report.front import Point, headline, pareto_front
from textfair.report.model import AuditReport
from textfair.settings import AuditConfig
from textfair.stats.estimate import proportion
from textfair.stats.metrics import consistency, group_metrics, theil_index

__all__ = [
    "Comparison",
    "MethodOutcome",
    "compare_table_mitigations",
    "compare_text_mitigations",
]

BOOTSTRAP = 1000  # resamples of the evaluation rows for the F1 and AUC intervals
MIN_ROWS = 30  # evaluation rows a group needs for its group metrics
MIN_TEXTS = 10  # the same for a term's texts: an evaluation part of texts names each rarely


@dataclass(frozen=True)
class MethodOutcome:
    """One method's measurements on the evaluation part (the baseline is method "none")."""

    method: str
    stage: str
    changes: str
    seconds: float
    quality: dict
    targets: list[dict]
    group_metrics: dict
    worst_target: float | None
    worst_spd: float | None
    note: str = ""
    skipped: str = ""
    extra: dict = field(default_factory=dict)
    # Held-out accuracy lost against the audited model (a fraction; negative: gained), and
    # whether that is more than the comparison's budget.
    accuracy_cost: float | None = None
    over_budget: bool = False


@dataclass(frozen=True)
class Comparison:
    """Every method's outcome beside the audited model's, on one split."""

    kind: str
    model_id: str
    seed: int
    split: dict
    audit_config: dict
    targets: list[str]
    targets_significant: bool  # False: no finding was significant; the most credible are used
    baseline: MethodOutcome
    methods: list[MethodOutcome]
    pareto: list[str]
    max_accuracy_drop: float = 0.01
    headline: str | None = None  # the front's method the verdict leads with (`headline`)

    def to_dict(self) -> dict:
        """comparison.json's content."""
        return {"textfair_version": __version__, **asdict(self)}

    def save(self, directory: str | Path, *, overwrite: bool = False) -> Path:
        """Write comparison.json, comparison.md and comparison.html into `directory`, as
        ``textfair mitigate --methods`` does, replaced as one set; returns the JSON's path.
        An earlier comparison there is replaced only with `overwrite`."""
        from textfair.report.comparison import write_comparison

        return write_comparison(self.to_dict(), directory, overwrite=overwrite)

    def outcome(self, method: str) -> MethodOutcome:
        """One method's outcome by name ("none": the audited model)."""
        for outcome in (self.baseline, *self.methods):
            if outcome.method == method:
                return outcome
        raise TextfairError(f"no method {method!r} in this comparison")


@dataclass
class _Setting:
    """What every method of one comparison starts from."""

    kind: str
    model: Model
    favorable: str
    audit_config: AuditConfig
    split: Split
    seed: int
    retrainer: object | None
    texts: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    frame: object = None
    schema: object = None
    columns: list[str] = field(default_factory=list)
    features: object = None
    truth: np.ndarray | None = None
    max_accuracy_drop: float = 0.01
    # The audited model behind one cache: the baseline's audit, its quality and the
    # post-processing methods read its answers, each input asked once.
    cached: CachedModel = field(init=False)

    def __post_init__(self) -> None:
        self.cached = CachedModel(self.model)


def comparison_split(n: int, holdout: float, validation: float, seed: int) -> Split:
    """The evaluation part (`holdout_split`, so a bundled model's held-out rows), and a seeded
    `validation` share of the training part."""
    train, evaluation = holdout_split(n, holdout, seed)
    order = np.random.default_rng([seed, 1]).permutation(len(train))
    cut = max(1, round(validation * len(train)))
    return Split(train, np.sort(train[order[:cut]]), evaluation)


def compare_text_mitigations(
    model,
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
    setting = _Setting(
        "text",
        model,
        favorable,
        config,
        split,
        seed,
        _retrainer(model, chosen, seed),
        texts=list(texts),
        labels=labels,
        max_accuracy_drop=max_accuracy_drop,
    )
    evaluation = [setting.texts[i] for i in split.evaluation]
    truth = [labels[i] for i in split.evaluation]

    def audit(candidate) -> AuditReport:
        return audit_text(
            candidate,
            evaluation,
            favorable=favorable,
            labels=truth,
            config=config,
            model_id=model_id,
        )

    from textfair.mitigate.methods import text_groups
    from textfair.text.matcher import Matcher

    # Every method's groups are the same evaluation texts': matched once, not per method.
    groups = np.asarray(text_groups(Matcher(config.term_list()))(evaluation), dtype=object)
    masks = {g: groups == g for g in sorted(set(groups.tolist()) - {"none", "several"})}

    def fairness(candidate) -> dict:
        decided = _decisions(candidate, evaluation)
        return _group_table(decided, truth, masks, favorable, MIN_TEXTS)

    return _compare(setting, chosen, audit, fairness, evaluation, truth, top, model_id)


def compare_table_mitigations(
    model,
    frame,
    schema,
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
    setting = _Setting(
        "rows",
        model,
        favorable,
        config,
        split,
        seed,
        None,
        frame=frame,
        schema=schema,
        columns=columns,
        features=frame[columns],
        truth=truth,
        max_accuracy_drop=max_accuracy_drop,
    )
    held = frame.iloc[split.evaluation].reset_index(drop=True)
    evaluation = [tuple(r) for r in held[columns].itertuples(index=False, name=None)]

    def audit(candidate) -> AuditReport:
        return audit_rows(candidate, held, schema, config=config, model_id=model_id)

    # Every method's groups and neighbours are the same evaluation rows': found once.
    masks = {}
    for feature in schema.sensitive:  # B&R's groups: each value of one feature
        keys = np.asarray(group_keys(held[[feature.name]], _only(schema, feature)))
        masks.update({key: keys == key for key in sorted(set(keys.tolist()))})
    encoded = tabular_encoder(held[columns]).fit_transform(held[columns])
    encoded = encoded.toarray() if hasattr(encoded, "toarray") else encoded

    def fairness(candidate) -> dict:
        decided = _decisions(candidate, evaluation)
        table = _group_table(decided, truth[split.evaluation], masks, favorable)
        table["consistency"] = round(consistency(encoded, decided, favorable=favorable), 4)
        table["theil_index"] = round(
            theil_index(truth[split.evaluation], decided, favorable=favorable), 4
        )
        return table

    return _compare(
        setting, chosen, audit, fairness, evaluation, truth[split.evaluation], top, model_id
    )


RETRAINING = ("counterfactual", "rule-sets", "blindness")  # text methods that refit the model


def _retrainer(model, chosen: list[Method], seed: int):
    """The retrainer of the model when a chosen method refits it; None for a model textfair
    cannot retrain (the methods that refit it then say so, and the others run)."""
    if any(m.name in RETRAINING for m in chosen):
        try:
            return retrainer_for(model, seed=seed)
        except TextfairError:
            return None
    return None


def _compare(setting, chosen, audit, fairness, evaluation, truth, top, model_id) -> Comparison:
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
    baseline = _outcome("none", "", Mitigated(setting.cached, "nothing"), before, *common)
    outcomes = []
    # A method that cannot act on this model is listed with the reason, not run.
    _, left_out = applicable(chosen, setting.model, named=False)
    for method in chosen:
        why = left_out.get(method.name, "")
        mitigated = Mitigated(None, "model", skipped=why) if why else run_method(method, setting)
        if mitigated.model is not None:
            # One cache per method: its audit, quality and group metrics ask each input once.
            mitigated.model = CachedModel(mitigated.model)
        after = audit(mitigated.model) if mitigated.model is not None else None
        outcome = _outcome(method.name, method.stage, mitigated, after, *common)
        outcomes.append(_costed(outcome, baseline, setting.max_accuracy_drop))
    points = [point for o in [baseline, *outcomes] if (point := _point(o)) is not None]
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


def _costed(outcome: MethodOutcome, baseline: MethodOutcome, budget: float) -> MethodOutcome:
    """The outcome with the held-out accuracy it cost against the audited model's, and
    whether that is over the budget."""
    if not outcome.quality or not baseline.quality:
        return outcome
    from dataclasses import replace

    cost = baseline.quality["accuracy"]["value"] - outcome.quality["accuracy"]["value"]
    return replace(
        outcome, accuracy_cost=round(cost, 4), over_budget=cost > budget + 1e-9
    )  # 1e-9: the accuracies are rounded to 4 places


def _point(outcome: MethodOutcome) -> Point | None:
    if outcome.worst_target is None or not outcome.quality:
        return None
    accuracy = outcome.quality["accuracy"]["value"]
    return Point(outcome.method, outcome.worst_target, accuracy, outcome.over_budget)


def _outcome(
    name, stage, mitigated, after, before, targets, fairness, evaluation, truth, setting
) -> MethodOutcome:
    if mitigated.model is None:
        return MethodOutcome(
            name,
            stage,
            mitigated.changes,
            mitigated.seconds,
            {},
            [],
            {},
            None,
            None,
            note=mitigated.note,
            skipped=mitigated.skipped,
        )
    rows = [_target_change(before, after, rs) for rs in targets]
    worst = max((abs(r["after"]["difference"]) for r in rows if r["after"]), default=None)
    table = fairness(mitigated.model)
    spds = [abs(g["spd"]) for g in table["groups"].values() if g["spd"] is not None]
    return MethodOutcome(
        name,
        stage,
        mitigated.changes,
        mitigated.seconds,
        quality(mitigated.model, evaluation, truth, setting.favorable, setting.seed),
        rows,
        table,
        worst,
        round(max(spds), 4) if spds else None,
        note=mitigated.note,
        extra=mitigated.extra,
    )


def _side(report: AuditReport | None, rule_set) -> dict | None:
    finding = report.finding(rule_set) if report is not None else None
    if finding is None:
        return None
    return {
        "difference": round(finding.difference, 6),
        "ci": [round(v, 6) for v in finding.ci],
        "significant": bool(finding.significant),
    }


def _target_change(before: AuditReport, after: AuditReport | None, rule_set) -> dict:
    first, second = _side(before, rule_set), _side(after, rule_set)
    change = None
    if first and second:
        half = [(s["ci"][1] - s["ci"][0]) / 2 for s in (first, second)]
        width = math.hypot(*half)
        estimate = second["difference"] - first["difference"]
        change = {
            "estimate": round(estimate, 6),
            "ci": [round(estimate - width, 6), round(estimate + width, 6)],
        }
    return {"rule_set": before.label(rule_set), "before": first, "after": second, "change": change}


def _decisions(model, inputs) -> np.ndarray:
    names = np.asarray([str(n) for n in model.labels], dtype=object)
    return names[np.asarray(model.predict_proba(list(inputs))).argmax(axis=1)]


def quality(model, inputs, truth, favorable: str, seed: int, confidence: float = 0.95) -> dict:
    """Accuracy (Wilson interval), macro F1 and ROC AUC of the unfavourable class (seeded
    bootstrap intervals) on the evaluation rows."""
    from sklearn.metrics import f1_score, roc_auc_score

    truth = np.asarray([str(t) for t in truth], dtype=object)
    probabilities = np.asarray(model.predict_proba(list(inputs)), dtype=float)
    names = [str(n) for n in model.labels]
    predicted = np.asarray(names, dtype=object)[probabilities.argmax(axis=1)]
    unfavourable = truth != favorable
    score = 1.0 - probabilities[:, names.index(favorable)]
    correct = int((predicted == truth).sum())
    accuracy = proportion(correct, len(truth), confidence)
    picks = np.random.default_rng([seed, 2]).integers(0, len(truth), (BOOTSTRAP, len(truth)))
    tail = 100 * (1 - confidence) / 2
    f1 = f1_score(truth, predicted, average="macro", zero_division=0)
    auc = roc_auc_score(unfavourable, score) if 0 < unfavourable.sum() < len(truth) else None
    aucs: np.ndarray | list[float] = (
        _resampled_auc(unfavourable, score, picks) if auc is not None else []
    )
    return {
        "rows": len(truth),
        "accuracy": {"value": round(accuracy.estimate, 4), "ci": _rounded(accuracy)},
        "f1_macro": {
            "value": round(float(f1), 4),
            "ci": _percentiles(_resampled_macro_f1(truth, predicted, picks), tail),
        },
        "roc_auc": {
            "value": None if auc is None else round(float(auc), 4),
            "ci": _percentiles(aucs, tail) if len(aucs) else None,
        },
    }


def _resampled_macro_f1(truth, predicted, picks) -> np.ndarray:
    """Macro F1 (sklearn's: over the labels either side has) of each resample (rows of
    `picks`): per label 2 TP / (2 TP + FP + FN), averaged."""
    names = sorted(set(truth.tolist()) | set(predicted.tolist()))
    t = np.searchsorted(names, truth)[picks]
    p = np.searchsorted(names, predicted)[picks]
    scores, present = [], []
    for label in range(len(names)):
        tp = ((t == label) & (p == label)).sum(axis=1)
        wrong = ((t == label) != (p == label)).sum(axis=1)  # FP + FN
        present.append(((t == label) | (p == label)).any(axis=1))
        with np.errstate(invalid="ignore", divide="ignore"):
            scores.append(np.where(2 * tp + wrong > 0, 2 * tp / (2 * tp + wrong), 0.0))
    present_counts = np.sum(present, axis=0)
    return np.sum(np.where(present, scores, 0.0), axis=0) / np.maximum(present_counts, 1)


def _resampled_auc(positive, score, picks) -> np.ndarray:
    """ROC AUC of each resample with both classes (Mann-Whitney on midranks)."""
    from scipy.stats import rankdata

    y = positive[picks]
    both = (y.sum(axis=1) > 0) & (y.sum(axis=1) < picks.shape[1])
    y, ranks = y[both], rankdata(score[picks[both]], axis=1)
    n_pos = y.sum(axis=1)
    n_neg = y.shape[1] - n_pos
    return ((ranks * y).sum(axis=1) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def _rounded(interval) -> list[float]:
    return [round(interval.low, 4), round(interval.high, 4)]


def _percentiles(values, tail: float) -> list[float]:
    return [round(float(v), 4) for v in np.percentile(values, [tail, 100 - tail])]


def _group_table(
    decided, truth, masks: dict[str, np.ndarray], favorable: str, least: int = MIN_ROWS
) -> dict:
    """B&R's group metrics per group of the decisions (each group against the rest of the
    evaluation rows); a group of fewer than `least` rows is left out (no rate to speak of)."""
    truth = np.asarray([str(t) for t in truth], dtype=object)
    table = {}
    for group, mask in masks.items():
        if mask.all() or mask.sum() < least:
            continue
        metrics = group_metrics(truth, decided, mask, favorable=favorable)
        table[group] = {
            "rows": int(mask.sum()),
            "di": _finite(metrics.disparate_impact),
            "spd": _finite(metrics.statistical_parity_difference),
            "eod": _finite(metrics.equal_opportunity_difference),
            "aod": _finite(metrics.average_odds_difference),
            "erd": _finite(metrics.error_rate_difference),
        }
    return {"groups": table}


def _only(schema, feature):
    """The schema with one sensitive feature: its groups alone."""
    from dataclasses import replace

    return replace(schema, features=(feature,))


def _finite(value: float) -> float | None:
    return round(float(value), 4) if math.isfinite(value) else None
