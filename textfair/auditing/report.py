"""The audit of any domain: rule sets, group fairness, causal tests and label metrics into
one `AuditReport`, the only place one is built.

`audit_domain` is what the text audit (`text`) and the rows audit (`rows`) both run once
their data is read. What differs between texts and rows is asked of the domain
(`AuditedDomain`), never by testing which domain it is. Every model query goes through one
CachedModel, so an input generated for a rule set and again for a causal test is scored
once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Literal, Protocol, TypedDict

import numpy as np

from textfair._version import __version__
from textfair.core.domain import Domain
from textfair.core.rules import RuleSet
from textfair.discovery import MIN_SEEDS, FrequentRuleSets, frequent_rule_sets
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY, scorer
from textfair.discovery.findings import GroupFinding
from textfair.discovery.groups import group_fairness
from textfair.discovery.paired_rows import assignments_per_seed
from textfair.discovery.themis import themis
from textfair.errors import ModelError, TextfairError
from textfair.memory import check_memory, estimate_memory, memory_limit
from textfair.models import CachedModel
from textfair.models.ahead import Ahead
from textfair.models.decision import Decision
from textfair.report import records
from textfair.report.model import (
    AuditReport,
    Counterfactual,
    LabelMetrics,
    ModelInfo,
    RunStats,
    TableMetrics,
)
from textfair.run import Run
from textfair.settings import AuditConfig

__all__ = [
    "ALL_CAUSAL_SETS_UP_TO",
    "AuditedDomain",
    "audit_domain",
    "audit_stages",
    "check_max_order",
    "empty_section",
    "probe",
]


# Themis tests every set of categories of a list this short (dixon2018 has 4: 15 sets).
ALL_CAUSAL_SETS_UP_TO = 5


class AuditedDomain(Domain, Protocol):
    """What the audit reads of a domain beyond what discovery reads (`Domain`): what a text
    audit and a rows audit record differently, so that the audit never asks which domain
    it has."""

    @property
    def kind(self) -> Literal["text", "rows"]:
        """The report's kind."""
        ...

    @property
    def settings_not_read(self) -> tuple[str, ...]:
        """The settings (`AuditConfig` fields) this kind of data has no use for, left out
        of the settings report.json records (rows have features, not terms)."""
        ...

    def scored_examples(self, examples: Sequence[dict]) -> list[dict]:
        """A finding's examples as the report holds them (a domain that scores its inputs
        adds each one's acceptability)."""
        ...


class _Sampling(TypedDict):
    """How much both discovery stages sample, and with which seed (`_sampling`)."""

    confidence: float
    error: float
    min_samples: int
    max_samples: int
    seed: int


def audit_domain(
    domain: AuditedDomain,
    cached: CachedModel,
    decision: Decision,
    config: AuditConfig,
    metrics: Callable[[], LabelMetrics | TableMetrics | None],
    run: Run,
    data_info: dict[str, object],
    recorded: dict[str, object],
    ahead: Ahead | None = None,
) -> AuditReport:
    """Rule sets, group fairness, causal tests and `metrics()` over any domain: the report.

    `recorded` is what the data adds to the recorded settings: the term list of a text
    audit, the number of bins of a table audit. `ahead`: model calls started while the
    corpus was read, finished here before any other query (so every run asks the model
    the same batches in the same order)."""
    extra_config = dict(recorded)
    progress = run.progress
    categories = domain.categories()
    check_max_order(config, categories)
    seeds = len(domain.category_mask(categories[0]))
    frequent = None
    if config.group:
        _step(progress, "finding frequent rule sets")
        # TestSGD's θ alone in paper mode and for table rows (a table's θ of its rows is
        # thousands of them); a text corpus's rule set is also tested when it has enough
        # seeds for an informative interval, whatever share of the corpus they are.
        min_seeds = None if config.mode == "paper" or domain.kind != "text" else MIN_SEEDS
        frequent = frequent_rule_sets(
            domain, theta=config.theta, max_order=config.max_order, min_seeds=min_seeds
        )
        if min_seeds is not None:
            extra_config["min_seeds"] = min_seeds
    # The last check before the first model query: a run that would not fit is refused now
    # (calls made ahead meanwhile are cancelled by the caller).
    _check_memory(domain, config, len(frequent.rule_sets) if frequent is not None else 0)
    if ahead is not None:
        with cached.stage("label metrics"):
            ahead.finish()
    with cached.stage("probe"):
        probe(cached, [domain.input(index) for index in range(min(2, seeds))])
    with cached.stage("group fairness"):
        findings, sampled = _group_findings(domain, cached, config, decision, progress, frequent)
    if sampled:
        extra_config["sampled_assignments"] = sampled
    counterfactual = None
    if config.causal:
        _step(progress, "causal tests")
        with cached.stage("causal"):
            result = themis(
                domain,
                cached,
                favorable=decision,
                threshold=config.causal_threshold,
                max_order=_causal_max_order(config, categories),
                correction=config.correction,
                **_sampling(config),
            )
        counterfactual = Counterfactual.from_themis(result)
    _step(progress, "metrics")
    with cached.stage("label metrics"):
        measured = metrics()
    return _assembled(
        domain,
        cached,
        decision,
        config,
        run,
        data_info,
        extra_config,
        findings,
        counterfactual,
        measured,
    )


def check_max_order(config: AuditConfig, categories: Sequence[str]) -> None:
    """Refuse, in one line, a `max_order` above the number of `categories`: a rule set
    takes one rule per category, so a larger bound is a mistake (the default, 2, stands for
    "up to pairs" even when one category is audited)."""
    if config.max_order > max(len(categories), AuditConfig.max_order):
        raise TextfairError.bad(
            "max_order",
            f"is {config.max_order}, but the data has {len(categories)} categories "
            f"({', '.join(categories)}); a rule set has at most one rule of each",
        )


def empty_section(
    domain: AuditedDomain,
    cached: CachedModel,
    decision: Decision,
    config: AuditConfig,
    run: Run,
    data_info: dict[str, object],
    recorded: dict[str, object],
) -> AuditReport:
    """The report of a section in which nothing could be tested (a corpus that names no
    term that can be rewritten, audited with templates beside it): no finding, no causal
    test, no metric; `data_info` says why."""
    return _assembled(domain, cached, decision, config, run, data_info, dict(recorded), [], None)


def _assembled(
    domain: AuditedDomain,
    cached: CachedModel,
    decision: Decision,
    config: AuditConfig,
    run: Run,
    data_info: dict[str, object],
    extra_config: dict[str, object],
    findings: Sequence[GroupFinding],
    counterfactual: Counterfactual | None,
    metrics: LabelMetrics | TableMetrics | None = None,
) -> AuditReport:
    """The report of a section from what its stages found, with the run's cost so far."""
    return AuditReport(
        kind=domain.kind,
        textfair_version=__version__,
        command=run.command,
        seed=config.seed,
        model=ModelInfo(
            run.model_id, cached.fingerprint, tuple(cached.labels), decision.describe()
        ),
        data=data_info,
        config=_config_record(config, domain, extra_config),
        findings=tuple(
            # Rows in examples are tuples: keep them as report.json writes and reads them.
            replace(
                f,
                rule_set=RuleSet(f.rule_set),
                examples=records.finite(domain.scored_examples(f.examples)),
                # Seed rows are kept for comparing versions of a text model only.
                seeds=f.seeds if domain.kind == "text" else (),
                differences=f.differences if domain.kind == "text" else (),
            )
            for f in findings
        ),
        counterfactual=(
            counterfactual if domain.kind == "text" else _without_seed_rows(counterfactual)
        ),
        metrics=metrics,
        run=RunStats(
            model_queries=cached.stats.forwarded,
            model_calls=cached.stats.model_calls,
            unique_inputs=cached.stats.unique_inputs,
            cache_hits=cached.stats.cache_hits,
            requested=cached.stats.requested,
            seconds=round(run.seconds(), 3),
            placebo_queries=_stage_queries(cached, "placebo"),
        ),
    )


def _without_seed_rows(counterfactual: Counterfactual | None) -> Counterfactual | None:
    """The causal scores without their seed rows (`CausalScore.seeds`, `seed_flips`): kept
    for comparing versions of a text model only, as the findings' are."""
    if counterfactual is None:
        return None
    causal = tuple(replace(c, seeds=None, seed_flips=None) for c in counterfactual.causal)
    return replace(counterfactual, causal=causal)


def _stage_queries(cached: CachedModel, stage: str) -> int:
    """Inputs the model was given during `stage` (0 when it asked nothing)."""
    cost = cached.stats.stages.get(stage)
    return cost.forwarded if cost is not None else 0


def probe(cached: CachedModel, inputs: Sequence[Hashable], ahead: bool = False) -> None:
    """Ask the model about two inputs before the audit starts: a model that fails or answers
    in the wrong shape is a model that cannot be used (exit 2), found before any work rather
    than as a failure during the run (exit 3). The answers are kept, so nothing is asked
    twice. `ahead`: asked before the audit asks for them (counted when it does)."""
    try:
        if ahead:
            cached.prefetch([], {"probe": inputs})
        else:
            cached.predict_proba(inputs)
    except ModelError as err:
        raise TextfairError(f"the model failed on a probe of {len(inputs)} inputs: {err}") from None


def _check_memory(domain: Domain, config: AuditConfig, rule_sets: int) -> None:
    """Refuse, in one line, an audit whose memory model's estimate (`textfair.memory`) is
    more than the memory available, or than TEXTFAIR_MAX_MEMORY where it is set."""
    categories = domain.categories()
    estimate = estimate_memory(
        {c: len(domain.single_rules(c)) for c in categories},
        {c: int(np.count_nonzero(domain.category_mask(c))) for c in categories},
        rule_sets,
        max_samples=config.max_samples,
        term_samples=config.min_samples,
        max_assignments=config.max_assignments,
    )
    check_memory(estimate, memory_limit())


def _group_findings(
    domain: Domain,
    cached: CachedModel,
    config: AuditConfig,
    decision: Decision,
    progress: Callable[[str], None] | None,
    frequent: FrequentRuleSets | None,
) -> tuple[list[GroupFinding], list[dict[str, object]]]:
    """TestSGD: the `frequent` rule sets, each scored with its interval, corrected; and the
    category combinations whose assignments were sampled per seed (for the report)."""
    if frequent is None:
        return [], []
    _step(progress, f"scoring {len(frequent.rule_sets)} rule sets")
    findings = group_fairness(
        domain,
        cached,
        frequent.rule_sets,
        frequent.supports,
        favorable=decision,
        mode=config.mode,
        correction=config.correction,
        n_examples=config.examples,
        max_assignments=config.max_assignments,
        **_sampling(config),
    )
    sampled = []
    if config.mode == "paired":
        for categories in dict.fromkeys(tuple(r.category for r in rs) for rs in frequent.rule_sets):
            total = math.prod(len(domain.single_rules(c)) for c in categories)
            if total > config.max_assignments:
                sampled.append(
                    {
                        "categories": list(categories),
                        "assignments": total,
                        "per_seed": assignments_per_seed(total, config.max_assignments),
                    }
                )
    return findings, sampled


def _causal_max_order(config: AuditConfig, categories: list[str]) -> int:
    """Themis tests every category set of a short list (4 for dixon2018: 15 sets); a long
    one (12 HolisticBias axes: 4,095 sets) is tested up to `max_order` categories."""
    if config.causal_max_order is not None:
        return min(config.causal_max_order, len(categories))
    if len(categories) <= ALL_CAUSAL_SETS_UP_TO:
        return len(categories)
    return min(config.max_order, len(categories))


def _sampling(config: AuditConfig) -> _Sampling:
    """How much both discovery stages sample, and with which seed."""
    return {
        "confidence": config.confidence,
        "error": config.error_fraction,
        "min_samples": config.min_samples,
        "max_samples": config.max_samples,
        "seed": config.seed,
    }


def _config_record(
    config: AuditConfig, domain: AuditedDomain, extra: dict[str, object]
) -> dict[str, object]:
    """The settings report.json records, so that the run can be repeated: the settings
    object as it serialises (:meth:`AuditConfig.to_dict`, so no default is written twice),
    the categories audited, what the domain adds, and the interval's method."""
    record = config.to_dict()
    for name in domain.settings_not_read:  # rows have features, not terms
        del record[name]
    record = {**record, "categories": domain.categories(), **extra}
    if scorer(domain) is not None:
        # The level a variant must score for its seed to count in a finding's `strict`.
        record["strict_acceptability"] = STRICT_ACCEPTABILITY
    if config.group:  # only group findings have an interval of theirs to name
        record["interval"] = (
            "seed-level paired differences (bounded_mean: Student t with z²/2 pseudo-seeds at "
            "each end of [-1, 1])"
            if config.mode == "paired"
            else "Newcombe hybrid score (two Wilson intervals)"
        )
    return record


def audit_stages(config: AuditConfig) -> int:
    """How many stages an audit with `config` announces to its `progress` callback: finding
    and scoring rule sets, the causal tests, the metrics."""
    stages = 2 * int(config.group) + int(config.causal) + 1
    # A text audit with templates runs them all again on the templated seeds.
    return stages * (1 if config.templates in (None, "none") else 2)


def _step(progress: Callable[[str], None] | None, message: str) -> None:
    if progress is not None:
        progress(message)
