"""The text audit: a text classifier on a corpus, `textfair audit`'s audit.

`audit_text` reads the corpus (its identity mentions: `TextDomain`), asks the model about
the corpus's texts while it is read where that costs nothing (`textfair.models.ahead`),
refuses a corpus with nothing to audit in one line, and runs the audit (`report`) with the
label metrics (`labels`) where the true labels are given.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np

from textfair.auditing._template_section import TemplateSection
from textfair.auditing.decision import prepare
from textfair.auditing.labels import check_labels, label_metrics
from textfair.auditing.report import audit_domain, check_max_order, empty_section, probe
from textfair.auditing.templates import audit_templates, template_domain, template_texts
from textfair.errors import TextfairError
from textfair.memory import estimate_memory, memory_limit
from textfair.models import CachedModel
from textfair.models.ahead import Ahead, computes_on_this_cpu
from textfair.models.decision import Decision
from textfair.report.model import AuditReport, LabelMetrics
from textfair.run import Run, collecting_new_objects_only, long_lived_objects, one_at_a_time
from textfair.settings import AuditConfig
from textfair.terms import TermList
from textfair.text.domain import TextDomain
from textfair.text.reading import reading_key, texts_digest
from textfair.text.reading_store import ReadingStore
from textfair.text.template_domain import TemplateDomain

__all__ = ["AHEAD_BATCH", "audit_text", "corpus_keys"]


@collecting_new_objects_only()
def audit_text(
    model: object,
    texts: Sequence[str],
    *,
    favorable: str | Decision | None = None,
    decision: str | None = None,
    labels: Sequence[object] | None = None,
    positive_label: str | None = None,
    config: AuditConfig | None = None,
    model_id: str = "",
    data_info: dict[str, object] | None = None,
    command: str = "",
    progress: Callable[[str], None] | None = None,
    domain: TextDomain | None = None,
    workers: int | None = None,
    store: ReadingStore | None = None,
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
    `store`: where the corpus's reading is looked for and kept (None: in this process only,
    `textfair.text.reading_store`): an audit of any model on the same texts, lists and
    reading settings reads nothing again; the report's `run.reading` says where it came from.
    """
    run = Run(model_id, command, one_at_a_time(progress))  # two sections may say at once
    config, cached, favourable = prepare(model, config, favorable, decision)
    if labels is not None:
        check_labels(cached, labels, favourable, positive_label)  # before any model query
    if domain is not None and domain.texts != list(texts):
        raise TextfairError("domain annotates other texts than the texts given; build it from them")
    # The templates are read and checked before any query, like every other input.
    choice = template_texts(config.templates, cached.labels)
    templated = template_domain(choice, config) if choice is not None else None
    store = store if store is not None else ReadingStore()
    # The templates' texts an earlier audit wrote (issue 58): taken, not written again.
    template_note = templated.take_stored(store) if templated is not None else ""
    # The templates, audited on a sibling of the model made before its first query: in a
    # thread of their own from now where the model waits rather than computes here.
    section = None
    if templated is not None and choice is not None:
        # The corpus's settings are checked before the templates' first query.
        check_max_order(config, config.term_list().category_names(config.categories))
        audit = functools.partial(
            audit_templates, templated, choice, decision=favourable, config=config
        )
        section = TemplateSection(templated, cached, audit, run)
        if _at_once(cached, len(texts), config, templated):
            # Both sections' probes first, here: a model that cannot answer is found as
            # such (exit 2) whichever section would have asked it first. Asked ahead, they
            # are counted where each section asks them, as they always were.
            probe(cached, list(texts[:2]), ahead=True)
            section.probe()
            section.start()
    # The corpus's texts, which the label metrics score, asked ahead while the corpus is
    # read when the model waits rather than computes here (`textfair.models.ahead`).
    ahead = _ahead(cached, texts, config) if labels is not None and domain is None else None
    # A run that stops, for any reason, asks nothing more ahead (`Ahead.__exit__`) and
    # stops its templates (`TemplateSection.__exit__`).
    with (
        section if section is not None else contextlib.nullcontext(),
        ahead if ahead is not None else contextlib.nullcontext(),
    ):
        if domain is None:
            with cached.stage("matching"), long_lived_objects():
                domain = TextDomain(
                    texts,
                    config.term_list(),
                    config.categories,
                    config.min_acceptability,
                    workers,
                    ahead.start if ahead is not None else None,
                    private_names=config.private_names,
                    store=store,
                )
        mentioning = int(
            np.any([domain.category_mask(c) for c in domain.categories()], axis=0).sum()
        )
        if mentioning == 0 and section is None:
            raise TextfairError(_nothing_to_audit(domain, len(texts), config.min_acceptability))

        def metrics() -> LabelMetrics | None:
            if labels is None:
                return None
            return label_metrics(domain, cached, texts, labels, favourable, positive_label, config)

        data_info = {
            **(data_info or {}),
            # What a later audit compared with this one must share (`textfair.compare`).
            **corpus_keys(texts, config),
            "rows": len(texts),
            # The texts that name a term of an audited category, and those of them that take
            # part in some category's rows (can be rewritten): the two counts every
            # surface's first line gives (report._coverage.corpus_words).
            "naming_rows": domain.naming_any,
            "mentioning_rows": mentioning,
            # Left out of a category's rows: rewriting them to one term would merge groups.
            "seeds_naming_several_terms": domain.several_terms,
            "seeds_with_fixed_forms": domain.fixed_forms,
            # Per category: the seeds naming it, those left out of its rows by reason
            # (textfair.text._coherence), and the share that takes part (recall).
            "seeds_mentioning": domain.mentioning,
            "seeds_left_out": domain.left_out,
            # Per category, the seeds that take part in its rows (can be rewritten).
            "seeds_rewritable": {
                c: int(domain.category_mask(c).sum()) for c in domain.categories()
            },
            "seeds_taking_part": {c: round(r, 4) for c, r in domain.recall().items()},
            # Per category, the seeds taking part whose rewrites rest on a real, named person
            # or work (WORLD, issue 56): written, flagged, and counted apart.
            "seeds_world": domain.worlds.counts(domain.categories()),
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
        # A TermList given in Python is recorded by its name: report.json holds plain values;
        # "term_list" as report.json always named it (mitigation's augmentation reads it).
        terms = config.terms.name if isinstance(config.terms, TermList) else config.terms
        recorded: dict[str, object] = {"term_list": terms}
        if mentioning == 0:
            # Nothing on the texts to test: the section says why, the templates still run.
            data_info["nothing_tested"] = _nothing_to_audit(
                domain, len(texts), config.min_acceptability
            )
            report = empty_section(domain, cached, favourable, config, run, data_info, recorded)
        else:
            report = audit_domain(
                domain, cached, favourable, config, metrics, run, data_info, recorded, ahead
            )
    if section is not None and templated is not None:
        report = dataclasses.replace(report, templates=section.report())
        template_note = "; ".join(n for n in (template_note, templated.keep_stored(store)) if n)
    # The variants written, beside the reading, for the next audit of another model.
    said = [reading_line(domain), domain.keep_written(), template_note]
    line = "; ".join(note for note in said if note)
    return dataclasses.replace(report, run=dataclasses.replace(report.run, reading=line))


def corpus_keys(texts: Sequence[str], config: AuditConfig) -> dict[str, str]:
    """The corpus's digest (``texts_sha256``) and its reading's key (``reading_key``: the
    texts, the term list's content, the categories, the reading settings and textfair's
    reader), as report.json records them: two audits compared seed by seed share both."""
    terms = config.term_list()
    categories = terms.category_names(list(config.categories) if config.categories else None)
    settings = (config.min_acceptability, config.private_names)
    return {
        "texts_sha256": texts_digest(texts),
        "reading_key": reading_key(texts, terms, categories, *settings),
    }


def reading_line(domain: TextDomain) -> str:
    """Where the corpus's reading came from, for the report (`RunStats.reading`): "read",
    "reused from this process" or "reused from PATH", and what a store refused."""
    said = f"reused from {domain.reading_source}" if domain.reading_source else "read"
    return f"{said} ({domain.reading_note})" if domain.reading_note else said


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
    return (
        f"of the {texts} texts read, {named} mention a term of {categories} (counted per "
        f"category), but none can be rewritten into a coherent variant (left out: {why}); {fix}"
    )


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
    first_two = list(texts[:2])
    asked = set(first_two)
    rest = [text for text in dict.fromkeys(texts) if text not in asked]
    calls: list[Callable[[], object]] = [functools.partial(probe, cached, first_two, True)]
    for begin in range(0, len(rest), AHEAD_BATCH):
        batch = rest[begin : begin + AHEAD_BATCH]
        calls.append(functools.partial(cached.prefetch, [], {"label metrics": batch}))
    return Ahead(calls)


def _at_once(
    cached: CachedModel, texts: int, config: AuditConfig, templated: TemplateDomain
) -> bool:
    """Whether the templates are audited in a thread beside the corpus: where the model
    waits rather than computes on this CPU (which the corpus's work would slow), and where
    both sections at their largest would pass the memory guard together (nothing may be
    asked of a run that may be refused)."""
    if computes_on_this_cpu(cached.model):
        return False
    terms = config.term_list()
    sizes = {c: len(terms.categories[c]) for c in templated.categories()}
    templates = estimate_memory(
        sizes,
        {c: int(templated.category_mask(c).sum()) for c in sizes},
        sum(sizes.values()),  # a template has one slot: rule sets of one term each
        max_samples=config.max_samples,
        term_samples=config.min_samples,
        max_assignments=config.max_assignments,
    )
    return _fits_at_worst(texts, config, templates.bytes)


def _fits_at_worst(texts: int, config: AuditConfig, beside: int = 0) -> bool:
    """Whether the memory guard would pass this audit whatever the corpus turns out to
    hold: every seed naming every category, every rule set frequent (with `beside` bytes
    taken by what runs at the same time)."""
    terms = config.term_list()
    sizes = {c: len(terms.categories[c]) for c in terms.category_names(config.categories)}
    rule_sets = sum(
        math.prod(sizes[c] for c in combination)
        # A rule set takes one term of each of its categories: no order above their number
        # (`combinations` would build each impossible one's indices first).
        for order in range(1, min(config.max_order, len(sizes)) + 1)
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
    return limit is None or estimate.bytes + beside <= limit
