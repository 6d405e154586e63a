"""The closed loop: audit, augment, retrain, re-audit, and a before/after report.

:func:`mitigate_text` and :func:`mitigate_table` take a model, labelled data and an audit
configuration. They split the data (seeded) into a training part and a held-out part, take the
top significant findings of the audit as targets, build augmentation data from the training part
only, run a retraining loop that keeps the version with the lowest target score whose held-out
accuracy stays within budget, and audit that version again with the same configuration and seed,
so every rule set is scored on the same generated inputs before and after.

Text mitigation also holds out some identity terms of the targets' categories: the augmentation
never writes them, so their before/after scores show whether the fix generalises beyond the
terms it was trained on.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from textfair._version import __version__
from textfair.discovery.groups import group_fairness
from textfair.discovery.rulesets import Rule, RuleSet
from textfair.errors import TextfairError
from textfair.mitigate.retrain import (
    LoopResult,
    Retrainer,
    aequitas_loop,
    holdout_split,
    retrainer_for,
    testsgd_loop,
)
from textfair.models import CachedModel
from textfair.models.base import favorable_index
from textfair.report.model import AuditReport

__all__ = ["Mitigation", "MitigationConfig", "mitigate_table", "mitigate_text"]

LOOPS = ("testsgd", "aequitas")


@dataclass
class MitigationConfig:
    """How to mitigate; recorded in the report."""

    method: str = "counterfactual"
    loop: str = "testsgd"
    top: int = 3
    holdout: float = 0.2
    holdout_terms: float = 0.25
    max_fraction: float = 0.1
    max_accuracy_drop: float = 0.01
    max_per_text: int = 8
    per_rule_set: int = 200
    global_budget: int = 1000
    local_budget: int = 2000
    max_rounds: int = 7
    patience: int = 3
    seed: int = 0


@dataclass
class Mitigation:
    """The mitigation report, the audits before and after, and what was retrained."""

    report: dict
    before: AuditReport
    after: AuditReport | None
    model: object | None
    retrainer: Retrainer
    augmentation: list[dict]


def mitigate_text(
    model,
    texts: Sequence[str],
    labels: Sequence[str],
    *,
    favorable: str,
    audit_config,
    config: MitigationConfig | None = None,
    before: AuditReport | None = None,
    model_id: str = "",
    command: str = "",
    progress: Callable[[str], None] | None = None,
) -> Mitigation:
    """Mitigate a text classifier's top significant findings; see the module docstring.

    `labels` are the texts' true labels, in the model's label names. `before` reuses an audit
    report of this model (its configuration is then used for every re-audit).
    """
    from textfair.auditing import AuditConfig, audit_text
    from textfair.mitigate.augment import counterfactual_augmentation, rule_set_augmentation
    from textfair.text.domain import TextDomain

    config = config or MitigationConfig()
    _check(config, ("counterfactual", "rule-sets"))
    started = time.perf_counter()
    retrainer = retrainer_for(model, seed=config.seed)  # fail before any work if we cannot
    labels = [str(y) for y in labels]
    _check_labels(labels, model.labels)
    if before is not None:
        audit_config = _config_of(before, AuditConfig)
    train, held = holdout_split(len(texts), config.holdout, config.seed)
    cached = CachedModel(model)
    # One annotated corpus: each text's mentions are found here, once, and every stage
    # (both audits, the augmentation, the measurements of the loop) reads them.
    domain = TextDomain(texts, audit_config.terms, audit_config.categories)
    _say(progress, "auditing the model")
    before = before or audit_text(
        cached,
        texts,
        favorable=favorable,
        labels=labels,
        config=audit_config,
        model_id=model_id,
        command=command,
        domain=domain,
    )
    targets = _targets(before, config.top)
    info = {"model_id": model_id, "command": command, "config": config, "started": started}
    if not targets:
        return _nothing_to_mitigate(before, retrainer, info)
    held_out_terms = _held_out_terms(before, targets, config)
    train_texts = [texts[i] for i in train]
    train_labels = [labels[i] for i in train]
    _say(progress, "generating augmentation data")
    train_mentions = [domain.mentions(i) for i in train]
    if config.method == "counterfactual":
        pool = counterfactual_augmentation(
            train_texts,
            train_labels,
            categories=sorted({r.category for rs in targets for r in rs}),
            max_per_text=config.max_per_text,
            seed=config.seed,
            matcher=domain.matcher,
            mentions=train_mentions,
            exclude={term for _, term in held_out_terms},
        )
    else:
        pool = rule_set_augmentation(
            before,
            train_texts,
            top=config.top,
            per_rule_set=config.per_rule_set,
            seed=config.seed,
            matcher=domain.matcher,
            mentions=train_mentions,
        )
    if not pool:
        raise TextfairError(
            "the training part mentions no identity term of the findings' categories, so there "
            "is no augmentation data; pass a training corpus that mentions them"
        )
    held_texts, held_labels = [texts[i] for i in held], [labels[i] for i in held]

    def fit(rows: np.ndarray):
        return retrainer.fit(
            train_texts + [pool[i]["text"] for i in rows],
            train_labels + [pool[i]["label"] for i in rows],
        )

    measure = _measurer(domain, targets, before, favorable, audit_config, held_texts, held_labels)
    result = _run_loop(config, len(pool), len(train), fit, measure, cached, progress)
    after = None
    if result.model is not None:
        _say(progress, "auditing the retrained model")
        after = audit_text(
            result.model,
            texts,
            favorable=favorable,
            labels=labels,
            config=audit_config,
            model_id=f"{model_id} (mitigated)",
            command=command,
            domain=domain,
        )
    used = [pool[i] for i in _used_indices(result)]
    report = _report(
        before,
        after,
        targets,
        [RuleSet((Rule(c, t),)) for c, t in held_out_terms],
        result,
        measure.baseline,
        retrainer,
        info,
        data={"rows": len(texts), "train_rows": len(train), "held_out_rows": len(held)},
        augmentation={"pool": len(pool), "added": len(used)},
    )
    return Mitigation(report, before, after, result.model, retrainer, used)


def mitigate_table(
    model,
    frame,
    schema,
    *,
    audit_config,
    config: MitigationConfig | None = None,
    before: AuditReport | None = None,
    model_id: str = "",
    command: str = "",
    progress: Callable[[str], None] | None = None,
) -> Mitigation:
    """Mitigate a table classifier with Aequitas's discriminatory inputs as augmentation.

    Each discriminatory input found on the training part, and every variant of it that differs
    only in sensitive values, is labelled with the model's label for the input itself, so the
    retrained model learns that the sensitive values do not change the outcome.
    """
    import pandas as pd

    from textfair.auditing import AuditConfig, audit_table
    from textfair.mitigate.augment import aequitas_augmentation
    from textfair.tabular.domain import TabularDomain

    config = config or MitigationConfig(loop="aequitas", method="aequitas")
    _check(config, ("aequitas",))
    started = time.perf_counter()
    retrainer = retrainer_for(model, seed=config.seed)
    if before is not None:
        audit_config = _config_of(before, AuditConfig)
    columns = [f.name for f in schema.features]
    truth = frame[schema.label].astype(str).tolist()
    _check_labels(truth, model.labels)
    train, held = holdout_split(len(frame), config.holdout, config.seed)
    cached = CachedModel(model)
    favorable = str(schema.favorable)
    column = favorable_index(cached.labels, favorable)
    _say(progress, "auditing the model")
    before = before or audit_table(
        cached, frame, schema, config=audit_config, model_id=model_id, command=command
    )
    targets = _targets(before, config.top)
    info = {"model_id": model_id, "command": command, "config": config, "started": started}
    if not targets:
        return _nothing_to_mitigate(before, retrainer, info)
    _say(progress, "searching for discriminatory inputs (Aequitas)")
    pool, found = aequitas_augmentation(
        TabularDomain(frame.iloc[train][columns], schema),
        cached,
        favorable=column,
        global_budget=config.global_budget,
        local_budget=config.local_budget,
        seed=config.seed,
    )
    if not pool:
        raise TextfairError(
            "Aequitas found no discriminatory input to learn from; raise --global-budget "
            "and --local-budget"
        )
    features = frame[columns].iloc[train].reset_index(drop=True)
    train_truth = [truth[i] for i in train]
    domain = TabularDomain(frame[columns], schema)
    held_rows = list(frame[columns].iloc[held].itertuples(index=False, name=None))

    def fit(rows: np.ndarray):
        extra = pd.DataFrame([pool[i]["row"] for i in rows], columns=columns)
        extra = extra.astype(features.dtypes.to_dict())
        return retrainer.fit(
            pd.concat([features, extra], ignore_index=True),
            train_truth + [pool[i]["label"] for i in rows],
        )

    def wrap(fitted):
        from textfair.tabular.models import RowModel

        return RowModel(fitted, columns)

    measure = _measurer(
        domain, targets, before, favorable, audit_config, held_rows, [truth[i] for i in held], wrap
    )
    result = _run_loop(config, len(pool), len(train), fit, measure, cached, progress)
    after = None
    if result.model is not None:
        _say(progress, "auditing the retrained model")
        after = audit_table(
            wrap(result.model),
            frame,
            schema,
            config=audit_config,
            model_id=f"{model_id} (mitigated)",
            command=command,
        )
    used = [
        {**dict(zip(columns, pool[i]["row"], strict=True)), schema.label: pool[i]["label"]}
        | {
            "seed_row": pool[i]["seed_row"],
            "transformation": "aequitas_sensitive_variant",
            "label_source": "the model's label for the discriminatory input found",
        }
        for i in _used_indices(result)
    ]
    report = _report(
        before,
        after,
        targets,
        [],
        result,
        measure.baseline,
        retrainer,
        info,
        data={"rows": len(frame), "train_rows": len(train), "held_out_rows": len(held)},
        augmentation={"pool": len(pool), "discriminatory_inputs": found, "added": len(used)},
    )
    return Mitigation(report, before, after, result.model, retrainer, used)


def _check(config: MitigationConfig, methods: tuple[str, ...]) -> None:
    if config.method not in methods:
        raise TextfairError(f"--method {config.method!r}: expected {' or '.join(methods)}")
    if config.loop not in LOOPS:
        raise TextfairError(f"--loop {config.loop!r}: expected testsgd or aequitas")
    if config.top < 1:
        raise TextfairError(f"--top is {config.top}; expected 1 or more findings to mitigate")
    if not 0.0 <= config.holdout_terms < 1.0:
        raise TextfairError(
            f"--holdout-terms is {config.holdout_terms}; expected a fraction in [0, 1)"
        )
    if config.max_fraction <= 0.0:
        raise TextfairError(f"--max-fraction is {config.max_fraction}; expected above 0")


def _check_labels(labels: list[str], names) -> None:
    unknown = sorted(set(labels) - {str(n) for n in names})
    if unknown:
        raise TextfairError(
            f"the labels hold {', '.join(map(repr, unknown[:5]))}, which the model does not "
            f"predict; its labels are: {', '.join(map(str, names))} (map them with --label-map)"
        )


def _config_of(report: AuditReport, config_type):
    """The audit configuration a report was made with, so re-audits match it."""
    recorded = report.config
    fields = {f.name for f in dataclasses.fields(config_type)}
    values = {k: v for k, v in recorded.items() if k in fields}
    if "term_list" in recorded:
        values["terms"] = recorded["term_list"]
    values["seed"] = report.seed
    return config_type(**values)


def _targets(report: AuditReport, top: int) -> list[RuleSet]:
    return [f.rule_set for f in report.significant[:top]]


def _held_out_terms(
    report: AuditReport, targets, config: MitigationConfig
) -> list[tuple[str, str]]:
    """Per category of the targets, a seeded `holdout_terms` share of its audited single terms
    that no target uses; the augmentation never writes them."""
    used = {(r.category, r.value) for rs in targets for r in rs}
    singles = [
        (f.rule_set[0].category, f.rule_set[0].value)
        for f in report.findings
        if len(f.rule_set) == 1
    ]
    rng = np.random.default_rng(config.seed)
    chosen = []
    for category in sorted({r.category for rs in targets for r in rs}):
        eligible = sorted(t for t in singles if t[0] == category and t not in used)
        count = round(config.holdout_terms * len(eligible))
        if config.holdout_terms > 0 and eligible:
            count = max(1, count)
        chosen += [eligible[i] for i in sorted(rng.choice(len(eligible), count, replace=False))]
    return chosen


class _measurer:
    """measure(model) -> (worst target score, held-out accuracy, extras) for the loops."""

    def __init__(self, domain, targets, before, favorable, audit, inputs, truth, wrap=None):
        self.domain, self.targets, self.audit = domain, targets, audit
        self.favorable, self.inputs, self.truth = favorable, inputs, truth
        self.wrap = wrap or (lambda model: model)
        self.supports = [
            finding.support if (finding := before.finding(rs)) else 0.0 for rs in targets
        ]
        self.baseline: dict = {}

    def __call__(self, model, ready: bool = False):
        # The loops hand a freshly fitted model (wrapped for rows); the baseline comes ready.
        cached = model if ready else CachedModel(self.wrap(model))
        column = favorable_index(cached.labels, self.favorable)
        findings = group_fairness(
            self.domain,
            cached,
            self.targets,
            self.supports,
            favorable=column,
            mode=self.audit.mode,
            confidence=self.audit.confidence,
            error=self.audit.error,
            min_samples=self.audit.min_samples,
            max_samples=self.audit.max_samples,
            correction="none",
            seed=self.audit.seed,
            n_examples=0,
        )
        held = _held_out_quality(cached, self.inputs, self.truth, self.favorable)
        scores = {RuleSet(f.rule_set).key: round(f.score, 6) for f in findings}
        extra = {"scores": scores, "roc_auc": held["roc_auc"]}
        return max(scores.values()), held["accuracy"], extra


def _held_out_quality(model, inputs, truth, favorable) -> dict:
    from sklearn.metrics import roc_auc_score

    names = list(model.labels)
    probabilities = model.predict_proba(list(inputs))
    predicted = [names[i] for i in probabilities.argmax(axis=1)]
    accuracy = float(np.mean([p == t for p, t in zip(predicted, truth, strict=True)]))
    unfavourable = np.array([t != favorable for t in truth])
    auc = None
    if 0 < unfavourable.sum() < len(truth):  # AUC of the unfavourable class (e.g. toxic)
        auc = float(roc_auc_score(unfavourable, 1 - probabilities[:, names.index(favorable)]))
    return {"accuracy": accuracy, "roc_auc": auc, "rows": len(truth)}


def _run_loop(config, pool_size, train_size, fit, measure, cached, progress) -> LoopResult:
    baseline_score, baseline_accuracy, extra = measure(cached, ready=True)
    measure.baseline = {"score": baseline_score, "accuracy": baseline_accuracy, **extra}
    common = {
        "max_accuracy_drop": config.max_accuracy_drop,
        "seed": config.seed,
        "progress": progress,
        "baseline_accuracy": baseline_accuracy,
    }
    if config.loop == "testsgd":
        return testsgd_loop(
            pool_size, train_size, fit, measure, max_fraction=config.max_fraction, **common
        )
    return aequitas_loop(
        pool_size,
        train_size,
        fit,
        measure,
        baseline_score=baseline_score,
        max_rounds=config.max_rounds,
        patience=config.patience,
        **common,
    )


def _used_indices(result: LoopResult) -> list[int]:
    """The pool rows the kept model was trained on."""
    if result.chosen is None:
        return []
    return [int(i) for i in result.steps[result.chosen].extra["rows"]]


def _nothing_to_mitigate(before: dict, retrainer: Retrainer, info: dict) -> Mitigation:
    report = _report(before, None, [], [], LoopResult([], None, None), {}, retrainer, info, {}, {})
    report["status"] = "nothing to mitigate: the audit has no significant finding"
    return Mitigation(report, before, None, None, retrainer, [])


def _report(
    before, after, targets, held_out, result, baseline, retrainer, info, data, augmentation
) -> dict:
    def side(report: AuditReport | None, rule_set) -> dict | None:
        finding = report.finding(rule_set) if report is not None else None
        if finding is None:
            return None
        return {
            "score": finding.score,
            "ci": list(finding.ci),
            "phi_r": finding.phi_r,
            "phi_not_r": finding.phi_not_r,
            "p_adjusted": finding.p_adjusted,
            "significant": finding.significant,
        }

    def row(rule_set, role: str) -> dict:
        first, second = side(before, rule_set), side(after, rule_set)
        reduction = None
        if first and second and first["score"] > 0:
            reduction = 1 - second["score"] / first["score"]
        return {
            "rule_set": RuleSet(rule_set).key,
            "rules": RuleSet(rule_set).to_records(before.kind),
            "role": role,
            "before": first,
            "after": second,
            "reduction": reduction,
        }

    chosen = None if result.chosen is None else result.steps[result.chosen]
    status = "mitigated" if chosen is not None else "no retrained version kept the accuracy"
    comparison = [row(rs, "target") for rs in targets] + [
        row(rs, "held-out term") for rs in held_out
    ]
    top = comparison[0] if comparison else None
    return {
        "textfair_version": __version__,
        "command": info["command"],
        "status": status,
        "model": {"id": info["model_id"], "retrainer": retrainer.kind},
        "data": data,
        "config": dataclasses.asdict(info["config"]),
        "audit_config": before.config,
        "comparison": comparison,
        "top_target_halved": bool(top and top["reduction"] is not None and top["reduction"] >= 0.5),
        "held_out": {
            "rows": data.get("held_out_rows"),
            "before": {k: baseline.get(k) for k in ("accuracy", "roc_auc")},
            "after": None
            if chosen is None
            else {"accuracy": chosen.accuracy, "roc_auc": chosen.extra.get("roc_auc")},
        },
        "augmentation": augmentation,
        "steps": [
            {
                "added": s.added,
                "worst_target_score": s.score,
                "held_out_accuracy": s.accuracy,
                "kept": i == result.chosen,
                **{k: v for k, v in s.extra.items() if k != "rows"},
            }
            for i, s in enumerate(result.steps)
        ],
        "run": {"seconds": round(time.perf_counter() - info["started"], 1)},
    }


def _say(progress, message: str) -> None:
    if progress is not None:
        progress(message)
