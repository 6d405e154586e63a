"""The text audit: rule sets, group fairness, causal scores and label metrics in one report.

:func:`audit_text` is what `textfair audit` runs. Every model query goes through one
CachedModel, so a text generated for a rule set and again for a causal test is scored once.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal

import numpy as np
import pandas as pd

from textfair._version import __version__
from textfair.core.domain import Domain
from textfair.core.rules import RuleSet
from textfair.corpus import FAVORABLE_GUESSES
from textfair.discovery import frequent_rule_sets
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY, scorer
from textfair.discovery.groups import group_fairness
from textfair.discovery.paired_rows import assignments_per_seed
from textfair.discovery.themis import themis
from textfair.errors import ModelError, TextfairError
from textfair.memory import check_memory, estimate_memory, memory_limit
from textfair.models import CachedModel, as_model
from textfair.models.ahead import Ahead, computes_on_this_cpu
from textfair.models.decision import Decision, parse_decision
from textfair.report import records
from textfair.report.model import (
    AuditReport,
    Counterfactual,
    LabelMetrics,
    ModelInfo,
    RunStats,
    TableMetrics,
)
from textfair.run import Run, collecting_new_objects_only
from textfair.settings import AuditConfig
from textfair.stats.auc import bias_metrics
from textfair.stats.metrics import consistency, group_metrics, theil_index
from textfair.tabular.domain import TabularDomain
from textfair.terms import TermList
from textfair.text.domain import TextDomain

__all__ = ["AuditConfig", "audit_text"]  # AuditConfig: from textfair.settings


# Themis tests every set of categories of a list this short (dixon2018 has 4: 15 sets).
ALL_CAUSAL_SETS_UP_TO = 5


def _prepare(
    model, config: AuditConfig | None, favorable, decision: str | None = None
) -> tuple[AuditConfig, CachedModel, Decision]:
    """Checked settings, the model behind one cache and its favourable outcome, before any
    query."""
    config = (config or AuditConfig()).checked()
    cached = model if isinstance(model, CachedModel) else CachedModel(as_model(model))
    return config, cached, model_decision(cached, favorable, decision)


def model_decision(model, favorable=None, decision: str | None = None) -> Decision:
    """The favourable outcome of `model`: a Decision as given, else one parsed from a label
    or label set (`favorable`) or a threshold rule (`decision`); with neither, the label a
    toxicity or sentiment model usually calls favourable (non-toxic, positive, ...)."""
    if isinstance(favorable, Decision):
        return favorable
    multi_label = bool(getattr(model, "multi_label", False))
    if favorable is None and decision is None and not multi_label:
        favorable = next((g for g in FAVORABLE_GUESSES if g in model.labels), None)
    return parse_decision(model.labels, favorable, decision, multi_label)


@collecting_new_objects_only()
def audit_text(
    model,
    texts: Sequence[str],
    *,
    favorable: str | Decision | None = None,
    decision: str | None = None,
    labels: Sequence[object] | None = None,
    positive_label: str | None = None,
    config: AuditConfig | None = None,
    model_id: str = "",
    data_info: dict | None = None,
    command: str = "",
    progress=None,
    domain: TextDomain | None = None,
    workers: int | None = None,
) -> AuditReport:
    """Audit a text classifier on a corpus; return the typed report.

    `model` is anything `textfair.models.as_model` takes: a Hugging Face pipeline, a
    (model, tokenizer) pair, a fitted scikit-learn classifier, a textfair model, a model
    spec, or a function of a list of texts.

    `favorable` is the label counted as the favourable outcome (e.g. "non-toxic"), or several
    joined by commas ("4,5" for star ratings); `decision` is a threshold rule instead, for
    multi-label heads ("toxic<0.5"; see `textfair.models.decision`). With neither, a usual
    favourable label (non-toxic, positive, ...) is looked for among the model's labels.
    With `labels` (the true labels of the texts), label-based metrics are added, for the
    class `positive_label` (default: the first label that is not favourable).
    `domain` is the corpus already annotated (its mentions found) for these texts, so that
    a second audit of the same texts, as mitigation runs, does not match them again.
    `workers`: processes that read the corpus while the model is idle (None: the cores
    this process may use; `textfair.workers`); the report is the same with any number.
    """
    run = Run(model_id, command, progress)
    config, cached, favorable = _prepare(model, config, favorable, decision)
    if labels is not None:
        _check_labels(cached, labels, favorable, positive_label)  # before any model query
    if domain is not None and domain.texts != list(texts):
        raise TextfairError("domain annotates other texts than the texts given; build it from them")
    # The corpus's texts, which the label metrics score, asked ahead while the corpus is
    # read when the model waits rather than computes here (`textfair.models.ahead`).
    ahead = _ahead(cached, texts, config) if labels is not None and domain is None else None
    # A run that stops, for any reason, asks nothing more ahead (`Ahead.__exit__`).
    with ahead if ahead is not None else contextlib.nullcontext():
        if domain is None:
            with cached.stage("matching"):
                domain = TextDomain(
                    texts,
                    config.term_list(),
                    config.categories,
                    config.min_acceptability,
                    workers,
                    ahead.start if ahead is not None else None,
                    private_names=config.private_names,
                )
        mentioning = int(
            np.any([domain.category_mask(c) for c in domain.categories()], axis=0).sum()
        )
        if mentioning == 0:
            raise TextfairError(_nothing_to_audit(domain, len(texts), config.min_acceptability))

        def metrics() -> LabelMetrics | None:
            if labels is None:
                return None
            return _label_metrics(domain, cached, texts, labels, favorable, positive_label, config)

        data_info = {
            **(data_info or {}),
            "rows": len(texts),
            "mentioning_rows": mentioning,
            # Left out of a category's rows: rewriting them to one term would merge groups.
            "seeds_naming_several_terms": domain.several_terms,
            "seeds_with_fixed_forms": domain.fixed_forms,
            # Per category: the seeds naming it, those left out of its rows by reason
            # (textfair.text.coherence), and the share that takes part (recall).
            "seeds_mentioning": domain.mentioning,
            "seeds_left_out": domain.left_out,
            "seeds_taking_part": {c: round(r, 4) for c, r in domain.recall().items()},
            # Per category, the most seeds one term can be written into (its largest support):
            # the --theta that would make it a rule set, or 0 where none can.
            "most_seeds_per_term": domain.most_seeds_per_term(),
            # The axis of each term whose category has several ("gay": sexual orientation), so
            # the verdict compares it with "another sexual orientation term".
            "term_axes": {
                category: axes
                for category, terms in domain.term_list.categories.items()
                if (axes := {term.id: term.axis for term in terms if term.axis})
            },
        }
        return audit_domain(
            domain, cached, favorable, config, metrics, run, data_info, config.terms, ahead
        )


@collecting_new_objects_only()
def audit_rows(
    model,
    frame,
    schema,
    *,
    config: AuditConfig | None = None,
    model_id: str = "",
    data_info: dict | None = None,
    command: str = "",
    progress=None,
) -> AuditReport:
    """Audit a classifier of table rows: the same discovery, plus the group-metric set.

    `schema` names the sensitive features, the label column and the favourable label.
    """
    run = Run(model_id, command, progress)
    config, cached, decision = _prepare(model, config, str(schema.favorable))
    favorable = str(schema.favorable)
    domain = TabularDomain(frame[[f.name for f in schema.features]], schema)

    def metrics() -> TableMetrics:
        return _table_metrics(domain, cached, frame[schema.label].tolist(), favorable, config.seed)

    data_info = {**(data_info or {}), "rows": len(frame), "label_column": schema.label}
    return audit_domain(domain, cached, decision, config, metrics, run, data_info, schema.bins)


def _scored(domain: Domain, examples: list[dict]) -> list[dict]:
    """A finding's examples with each text's acceptability score (text domains only)."""
    return domain.scored_examples(examples) if isinstance(domain, TextDomain) else examples


def _nothing_to_audit(domain: TextDomain, texts: int, min_acceptability: float) -> str:
    """Why no text takes part in any category's rows, and what to change, in one line: no
    mention at all, or mentions every one of which was left out (by reason)."""
    categories = ", ".join(domain.categories())
    named = sum(domain.mentioning.values())
    if named == 0:
        return (
            f"none of the {texts} texts read mentions a term of {categories}; audit a "
            "corpus that mentions identity terms or use your own term list (terms)"
        )
    reasons: dict[str, int] = {}
    for category in domain.categories():
        for reason, count in domain.left_out[category].items():
            reasons[reason] = reasons.get(reason, 0) + count
    why = ", ".join(f"{reason} {count}" for reason, count in reasons.items() if count)
    fix = (
        f"lower --min-acceptability (now {min_acceptability:g}; 0 keeps every variant the "
        "rules allow) or audit sentence by sentence (--unit sentence)"
        if reasons.get("low_acceptability")
        else "audit sentence by sentence (--unit sentence) or a corpus of shorter texts"
    )
    if reasons.get("unknown_person") and not domain.private_names:
        fix += (
            "; where every first name in the corpus is a private person's (applicants, "
            "customers), say so with --private-names"
        )
    return (
        f"of the {texts} texts read, {named} mention a term of {categories} (counted per "
        f"category), but none can be rewritten into a coherent variant (left out: {why}); {fix}"
    )


def audit_domain(
    domain: Domain,
    cached: CachedModel,
    decision: Decision,
    config: AuditConfig,
    metrics: Callable[[], LabelMetrics | TableMetrics | None],
    run: Run,
    data_info: dict,
    setting: str | TermList | int,
    ahead: Ahead | None = None,
) -> AuditReport:
    """Rule sets, group fairness, causal tests and `metrics()` over any Domain: the report.

    `setting` is what the domain adds to the recorded settings: the term list of a text
    audit, the number of bins of a table audit. `ahead`: model calls started while the
    corpus was read, finished here before any other query (so every run asks the model
    the same batches in the same order)."""
    kind: Literal["text", "rows"] = "rows" if isinstance(domain, TabularDomain) else "text"
    # A TermList given in Python is recorded by its name: report.json holds plain values.
    recorded = setting.name if isinstance(setting, TermList) else setting
    # "term_list" as report.json always named it (mitigation's augmentation reads it).
    extra_config = {"bins": recorded} if kind == "rows" else {"term_list": recorded}
    progress = run.progress
    categories = domain.categories()
    if config.max_order > max(len(categories), AuditConfig.max_order):
        # A rule set takes one rule per category, so a larger bound is a mistake (the
        # default, 2, stands for "up to pairs" even when one category is audited).
        raise TextfairError.bad(
            "max_order",
            f"is {config.max_order}, but the data has {len(categories)} categories "
            f"({', '.join(categories)}); a rule set has at most one rule of each",
        )
    seeds = len(domain.category_mask(categories[0]))
    frequent = None
    if config.group:
        _step(progress, "finding frequent rule sets")
        frequent = frequent_rule_sets(domain, theta=config.theta, max_order=config.max_order)
    # The last check before the first model query: a run that would not fit is refused now
    # (calls made ahead meanwhile are cancelled by the caller).
    _check_memory(domain, config, len(frequent.rule_sets) if frequent is not None else 0)
    if ahead is not None:
        with cached.stage("label metrics"):
            ahead.finish()
    with cached.stage("probe"):
        _probe(cached, [domain.input(index) for index in range(min(2, seeds))])
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
    return AuditReport(
        kind=kind,
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
                examples=records.finite(_scored(domain, f.examples)),
            )
            for f in findings
        ),
        counterfactual=counterfactual,
        metrics=measured,
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


def _stage_queries(cached: CachedModel, stage: str) -> int:
    """Inputs the model was given during `stage` (0 when it asked nothing)."""
    cost = cached.stats.stages.get(stage)
    return cost.forwarded if cost is not None else 0


def _probe(cached: CachedModel, inputs: list, ahead: bool = False) -> None:
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


#: Texts per model call made ahead: small enough that a run refused while the corpus is
#: read waits for little, large enough that the model's batches stay full.
AHEAD_BATCH = 512


def _ahead(cached: CachedModel, texts: Sequence[str], config: AuditConfig) -> Ahead | None:
    """The corpus's texts as model calls to make while it is read: the probe's two inputs,
    then the other distinct texts in calls of AHEAD_BATCH, in corpus order (the same calls
    whether they are made ahead or not). None for a model that says it computes on this
    CPU, which the reading would slow, and where the largest audit this corpus could make
    would not pass the memory guard (nothing is asked of a run that may be refused)."""
    if computes_on_this_cpu(cached.model) or not _fits_at_worst(len(texts), config):
        return None
    probe = list(texts[:2])
    asked = set(probe)
    rest = [text for text in dict.fromkeys(texts) if text not in asked]
    calls: list[Callable[[], object]] = [functools.partial(_probe, cached, probe, True)]
    for begin in range(0, len(rest), AHEAD_BATCH):
        batch = rest[begin : begin + AHEAD_BATCH]
        calls.append(functools.partial(cached.prefetch, [], {"label metrics": batch}))
    return Ahead(calls)


def _fits_at_worst(texts: int, config: AuditConfig) -> bool:
    """Whether the memory guard would pass this audit whatever the corpus turns out to
    hold: every seed naming every category, every rule set frequent."""
    terms = config.term_list()
    sizes = {c: len(terms.categories[c]) for c in terms.category_names(config.categories)}
    rule_sets = sum(
        math.prod(sizes[c] for c in combination)
        for order in range(1, config.max_order + 1)
        for combination in itertools.combinations(sizes, order)
    )
    estimate = estimate_memory(
        sizes,
        dict.fromkeys(sizes, texts),
        rule_sets,
        max_samples=config.max_samples,
        term_samples=config.min_samples,
        max_assignments=config.max_assignments,
    )
    limit = memory_limit()
    return limit is None or estimate.bytes <= limit


def _check_memory(domain, config: AuditConfig, rule_sets: int) -> None:
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


def _group_findings(domain, cached, config: AuditConfig, decision: Decision, progress, frequent):
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


def _sampling(config: AuditConfig) -> dict:
    """How much both discovery stages sample, and with which seed."""
    return {
        "confidence": config.confidence,
        "error": config.error_fraction,
        "min_samples": config.min_samples,
        "max_samples": config.max_samples,
        "seed": config.seed,
    }


def _config_record(config: AuditConfig, domain, extra: dict) -> dict:
    """The settings report.json records, so that the run can be repeated: the settings
    object as it serialises (:meth:`AuditConfig.to_dict`, so no default is written twice),
    the categories audited, what the domain adds, and the interval's method."""
    record = config.to_dict()
    if isinstance(domain, TabularDomain):  # rows have features, not terms
        del record["terms"], record["exclude_flags"]
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


def _check_labels(cached, labels, decision: Decision, positive_label) -> str:
    """The positive class of the label metrics, once the true labels are known to be the
    model's (checked before the first query)."""
    names = [str(label) for label in cached.labels]
    if decision.by_threshold:
        # A multi-label head: the true labels say whether the rule's first label applies.
        positive = positive_label or decision.labels[decision.column]
    else:
        positive = positive_label or next(
            n for i, n in enumerate(names) if i not in decision.columns
        )
    if positive not in names:
        raise TextfairError(
            f"positive label {positive!r} is not one of the model's classes: "
            f"{', '.join(names)} (a model that calls them LABEL_0, LABEL_1 is given names "
            "with --label-names, label_names= in as_model)"
        )
    values = [str(label) for label in labels]
    unknown = sorted(set(values) - set(names))
    if unknown and not decision.by_threshold:
        raise TextfairError(
            f"the true labels hold {', '.join(map(repr, unknown[:5]))}, which the model does not "
            f"predict; its classes are: {', '.join(names)}{label_map_hint(values, names)}"
        )
    return positive


def label_map_hint(values, names) -> str:
    """How to map true labels to the model's names, when there are as many of each: the
    values in sorted order against the model's labels in its order ("0=negative,
    1=positive"; "False=non-toxic,True=toxic"), for the user to check."""
    present = sorted({str(v) for v in values})
    if len(present) != len(names) or set(present) & set(names):
        return "; map them with --label-map (label_map= in Python)"
    pairs = ",".join(f"{v}={n}" for v, n in zip(present, names, strict=True))
    return f"; if {present[0]} means {names[0]}, pass --label-map {pairs!r} (label_map= in Python)"


def _label_metrics(
    domain, cached, texts, labels, decision, positive_label, config: AuditConfig
) -> LabelMetrics:
    names = [str(label) for label in cached.labels]
    positive = _check_labels(cached, labels, decision, positive_label)
    values = [str(label) for label in labels]
    scores = cached.predict_proba(list(texts))[:, names.index(positive)]
    truth = np.array([v == positive for v in values])
    subgroups = {
        rule.value: np.zeros(len(texts), dtype=bool)
        for c in domain.categories()
        for rule in domain.single_rules(c)
    }
    for i in range(len(texts)):
        for c in domain.categories():
            for term in domain.values_of(i, c):  # every mention, rewritable or not
                if term in subgroups:
                    subgroups[term][i] = True
    # Intervals at the audit's confidence; the gaps' tests corrected as the rule sets' are.
    found = bias_metrics(
        truth, scores, subgroups, confidence=config.confidence, correction=config.correction
    )
    return replace(found, positive_label=positive)


CONSISTENCY_ROWS = 5000  # exact 5-NN is quadratic: measured on a seeded sample of this size


def _table_metrics(domain, cached, truth: list, favorable: str, seed: int) -> TableMetrics:
    """DI, SPD, EOD, AOD, ERD for each value of each categorical sensitive feature against
    the rest, with consistency (on a seeded sample) and the Theil index."""
    names = list(cached.labels)
    predicted = [names[i] for i in cached.predict_proba(domain.rows).argmax(axis=1)]
    truth = [str(v) for v in truth]
    groups = {}
    for feature in domain.schema.sensitive:
        if feature.kind != "categorical":
            continue
        column = domain.frame[feature.name].to_numpy()
        for value in feature.values:
            mask = column == value
            if mask.all() or not mask.any():
                continue
            groups[f"{feature.name}={value}"] = group_metrics(
                truth, predicted, mask, favorable=favorable
            )
    encoded = pd.get_dummies(domain.frame, dtype=float)
    encoded = (encoded - encoded.mean()) / encoded.std(ddof=0).replace(0, 1)
    rows = np.random.default_rng(seed).permutation(len(encoded))[:CONSISTENCY_ROWS]
    return TableMetrics(
        groups=groups,
        consistency=consistency(
            encoded.to_numpy()[rows], np.array(predicted)[rows], favorable=favorable
        ),
        consistency_rows=len(rows),
        theil_index=theil_index(truth, predicted, favorable=favorable),
    )


def audit_stages(config: AuditConfig) -> int:
    """How many stages an audit with `config` announces to its `progress` callback: finding
    and scoring rule sets, the causal tests, the metrics."""
    return 2 * int(config.group) + int(config.causal) + 1


def _step(progress, message: str) -> None:
    if progress is not None:
        progress(message)
