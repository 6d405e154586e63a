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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from textfair.auditing.labels import label_map_hint
from textfair.core.rules import Rule, RuleSet
from textfair.errors import TextfairError
from textfair.mitigate._measure import Measurer
from textfair.mitigate._strategies import TableStrategy, TextStrategy, target_rule_sets
from textfair.mitigate._summary import Outcome, mitigation_report
from textfair.mitigate.retrain import (
    Fit,
    LoopResult,
    Retrainer,
    Retraining,
    aequitas_loop,
    holdout_split,
    retrainer_for,
    testsgd_loop,
)
from textfair.models import CachedModel
from textfair.report.model import AuditReport
from textfair.run import Run
from textfair.settings import AuditConfig

if TYPE_CHECKING:
    import pandas as pd

    from textfair.models.base import Model
    from textfair.models.rows import RowModel
    from textfair.tabular.schema import Schema

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
    # TestSGD's loop goes on past max_fraction, up to this share of the training part,
    # while no version within the accuracy budget has halved the worst target (0: never).
    extend_to: float = 0.5
    max_accuracy_drop: float = 0.01
    max_per_text: int = 8
    per_rule_set: int = 200
    global_budget: int = 1000
    local_budget: int = 2000
    max_rounds: int = 7
    patience: int = 3
    seed: int = 0
    # With no significant finding: stop ("nothing to mitigate"), or aim at the most credible
    # findings (the mitigation comparison, whose methods all act on the same data).
    most_credible: bool = False
    # When no retrained version keeps the accuracy: keep none (False), or the most accurate,
    # marked over budget (the comparison, which shows each method's cost beside its gain).
    keep_over_budget: bool = False


@dataclass
class Mitigation:
    """The mitigation report, the audits before and after, and what was retrained."""

    report: dict
    before: AuditReport
    after: AuditReport | None
    model: Any | None  # what the Retrainer's `fit` returned
    retrainer: Retrainer
    augmentation: list[dict]


def mitigate_text(
    model: Model,
    texts: Sequence[str],
    labels: Sequence[str],
    *,
    favorable: str,
    audit_config: AuditConfig,
    config: MitigationConfig | None = None,
    before: AuditReport | None = None,
    run: Run | None = None,
) -> Mitigation:
    """Mitigate a text classifier's top significant findings; see the module docstring.

    `labels` are the texts' true labels, in the model's label names. `before` reuses an audit
    report of this model (its configuration is then used for every re-audit). `run` names
    the model and the command in the report and carries a progress callback, e.g.
    ``Run("my-model", progress=print)``.
    """
    config = config or MitigationConfig()
    _check(config, ("counterfactual", "rule-sets"))
    labels = [str(y) for y in labels]
    _check_labels(labels, model.labels)
    train, held = holdout_split(len(texts), config.holdout, config.seed)
    strategy = TextStrategy(
        texts,
        labels,
        favorable,
        _config_of(before) if before is not None else audit_config,
        config.method,
        train,
        held,
        retrainer_for(model, seed=config.seed),  # fail before any work if we cannot
        options={
            "max_per_text": config.max_per_text,
            "per_rule_set": config.per_rule_set,
            "top": config.top,
            "seed": config.seed,
        },
    )
    return _mitigate(strategy, model, config, before, run or Run())


def mitigate_table(
    model: RowModel,
    frame: pd.DataFrame,
    schema: Schema,
    *,
    audit_config: AuditConfig,
    config: MitigationConfig | None = None,
    before: AuditReport | None = None,
    run: Run | None = None,
) -> Mitigation:
    """Mitigate a table classifier with Aequitas's discriminatory inputs as augmentation.

    Each discriminatory input found on the training part, and every variant of it that differs
    only in sensitive values, is labelled with the model's label for the input itself, so the
    retrained model learns that the sensitive values do not change the outcome.
    """
    config = config or MitigationConfig(loop="aequitas", method="aequitas")
    _check(config, ("aequitas",))
    _check_labels(frame[schema.label].astype(str).tolist(), model.labels)
    train, held = holdout_split(len(frame), config.holdout, config.seed)
    strategy = TableStrategy(
        frame,
        schema,
        _config_of(before) if before is not None else audit_config,
        train,
        held,
        retrainer_for(model, seed=config.seed),
        options={
            "global_budget": config.global_budget,
            "local_budget": config.local_budget,
            "seed": config.seed,
        },
    )
    return _mitigate(strategy, model, config, before, run or Run())


def _mitigate(
    strategy: TextStrategy | TableStrategy,
    model: Model,
    config: MitigationConfig,
    before: AuditReport | None,
    run: Run,
) -> Mitigation:
    """The one loop: audit, take targets, augment, retrain until the targets shrink within
    the accuracy budget, re-audit the kept model."""
    cached = CachedModel(model)
    run.say("auditing the model")
    before = before or strategy.audit(cached, run.model_id, run.command)
    targets = target_rule_sets(before, config.top, config.most_credible)
    if not targets:
        return _nothing_to_mitigate(before, strategy, config, run)
    held_out = _held_out_terms(before, targets, config) if strategy.kind == "text" else []
    run.say("building augmentation data")
    pool = strategy.augmentation(before, targets, {t for _, t in held_out}, cached)
    if not pool:
        raise TextfairError(strategy.no_augmentation)
    # The step is chosen on one half of the seed inputs; before and after are reported on
    # the other (`selection_split`), so the kept step's score is not the winner of its tries.
    measure = Measurer(
        strategy.selection_domain,
        targets,
        before,
        strategy.audit_config,
        strategy.held_inputs,
        strategy.held_truth,
        cached,
        strategy.wrap,
    )
    result = _run_loop(
        config, len(pool), len(strategy.train), lambda rows: strategy.fit(pool, rows), measure, run
    )
    after = None
    reported = before
    if result.model is not None:
        run.say("auditing the model and the retrained one on the texts the choice never saw")
        reported = strategy.audit(cached, run.model_id, run.command, reported=True)
        after = strategy.audit(
            strategy.wrap(result.model), f"{run.model_id} (mitigated)", run.command, reported=True
        )
    used = strategy.used(pool, _used_indices(result))
    augmentation = {"pool": len(pool), "added": len(used)}
    if strategy.kind == "rows":
        augmentation["discriminatory_inputs"] = strategy.found
    outcome = Outcome(
        reported,
        strategy.retrainer,
        audit=before,
        after=after,
        targets=targets,
        held_out=[RuleSet((Rule(c, t),)) for c, t in held_out],
        result=result,
        baseline=measure.baseline,
        data={
            "rows": len(strategy.train) + len(strategy.held),
            "train_rows": len(strategy.train),
            "held_out_rows": len(strategy.held),
            # Seed inputs the kept step was chosen on, and those before/after are reported on.
            "selection_seeds": len(strategy.selection),
            "reported_seeds": len(strategy.reported),
        },
        augmentation=augmentation,
    )
    return Mitigation(
        mitigation_report(outcome, config, run),
        reported,
        after,
        result.model,
        strategy.retrainer,
        used,
    )


def _check(config: MitigationConfig, methods: tuple[str, ...]) -> None:
    if config.method not in methods:
        raise TextfairError.bad("method", f"{config.method!r}: expected {' or '.join(methods)}")
    if config.loop not in LOOPS:
        raise TextfairError.bad("loop", f"{config.loop!r}: expected testsgd or aequitas")
    if config.top < 1:
        raise TextfairError.bad("top", f"is {config.top}; expected 1 or more findings to mitigate")
    if not 0.0 <= config.holdout_terms < 1.0:
        raise TextfairError.bad(
            "holdout_terms", f"is {config.holdout_terms}; expected a fraction in [0, 1)"
        )
    if config.max_fraction <= 0.0:
        raise TextfairError.bad("max_fraction", f"is {config.max_fraction}; expected above 0")
    if not 0.0 <= config.extend_to <= 1.0:
        raise TextfairError.bad("extend_to", f"is {config.extend_to}; expected a share in [0, 1]")


def _check_labels(labels: list[str], names: Sequence[str]) -> None:
    unknown = sorted(set(labels) - {str(n) for n in names})
    if unknown:
        raise TextfairError(
            f"the labels hold {', '.join(map(repr, unknown[:5]))}, which the model does not "
            f"predict; its labels are: {', '.join(map(str, names))}"
            + label_map_hint(labels, [str(n) for n in names])
        )


def _config_of(report: AuditReport) -> AuditConfig:
    """The audit configuration a report was made with, so re-audits match it."""
    recorded = report.config
    fields = {f.name for f in dataclasses.fields(AuditConfig)}
    values = {k: v for k, v in recorded.items() if k in fields}
    if "term_list" in recorded:
        values["terms"] = recorded["term_list"]
    values["seed"] = report.seed
    return AuditConfig(**values)


def _held_out_terms(
    report: AuditReport, targets: Sequence[RuleSet], config: MitigationConfig
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


def _run_loop(
    config: MitigationConfig,
    pool_size: int,
    train_size: int,
    fit: Fit,
    measure: Measurer,
    run: Run,
) -> LoopResult:
    job = Retraining(
        pool_size,
        train_size,
        fit,
        measure,
        baseline_accuracy=measure.baseline.accuracy,
        max_accuracy_drop=config.max_accuracy_drop,
        seed=config.seed,
        progress=run.progress,
        keep_over_budget=config.keep_over_budget,
    )
    if config.loop == "testsgd":
        return testsgd_loop(
            job,
            max_fraction=config.max_fraction,
            goal=measure.baseline.score / 2,
            extend_to=config.extend_to,
        )
    return aequitas_loop(
        job,
        baseline_score=measure.baseline.score,
        max_rounds=config.max_rounds,
        patience=config.patience,
    )


def _used_indices(result: LoopResult) -> list[int]:
    """The pool rows the kept model was trained on."""
    if result.chosen is None:
        return []
    return [int(i) for i in result.steps[result.chosen].extra["rows"]]


def _nothing_to_mitigate(
    before: AuditReport,
    strategy: TextStrategy | TableStrategy,
    config: MitigationConfig,
    run: Run,
) -> Mitigation:
    report = mitigation_report(Outcome(before, strategy.retrainer), config, run)
    report["status"] = "nothing to mitigate: the audit has no significant finding"
    return Mitigation(report, before, None, None, strategy.retrainer, [])
