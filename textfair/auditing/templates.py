"""The templated section of a text audit: every category tested on templates, beside the
corpus and never pooled with it.

`audit_templates` audits the same model, through a sibling of the corpus's cache of its
answers (`CachedModel.sibling`, `textfair.auditing._template_section`), on the seeds of a
`TemplateDomain` with the same statistics as the corpus (rule sets, paired differences with
their intervals and correction, causal tests over a placebo edit), and returns its own
`AuditReport`, which the corpus's report holds as ``templates``. `template_texts` settles,
before any model query, which templates run: a built-in suite (``toxicity`` or
``sentiment``; ``auto`` picks by the model's labels), a user's file, a list given in
Python, or none.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Sequence
from pathlib import Path

from textfair.auditing.report import audit_domain
from textfair.errors import TextfairError
from textfair.models import CachedModel
from textfair.models.decision import Decision
from textfair.report.model import AuditReport, RunStats
from textfair.run import Run
from textfair.settings import AuditConfig
from textfair.terms import TermList
from textfair.text.template_domain import TemplateDomain
from textfair.text.template_suites import SUITES, suite, suite_kinds

__all__ = ["SENTIMENT_LABELS", "TemplateChoice", "audit_templates", "template_texts"]

#: Labels that make ``auto`` pick the sentiment suite (anything else: toxicity).
SENTIMENT_LABELS = frozenset(
    "positive negative pos neg neutral 1 2 3 4 5 label_0 label_1 good bad".split()
)


@dataclasses.dataclass(frozen=True)
class TemplateChoice:
    """The templates an audit runs: their name as report.json records it (``toxicity``,
    ``sentiment``, a file's path, ``custom``) and the slot templates themselves."""

    name: str
    texts: tuple[str, ...]
    kinds: tuple[str | None, ...] | None = None


def template_texts(
    templates: str | Sequence[str] | None, labels: Sequence[str]
) -> TemplateChoice | None:
    """The templates to audit, read and checked before any model query; None for
    ``"none"`` (or None).

    `templates` is ``"auto"`` (the sentiment suite for a model whose labels are a
    sentiment's, else the toxicity suite), ``"toxicity"``, ``"sentiment"``, ``"none"``,
    a text file with one template per line (blank lines and lines starting with # are
    skipped), or a list of templates. A wrong one is a one-line TextfairError."""
    if templates is None or templates == "none":
        return None
    if isinstance(templates, str):
        if templates == "auto":
            lowered = {str(label).lower() for label in labels}
            task = "sentiment" if lowered & SENTIMENT_LABELS else "toxicity"
            return TemplateChoice(task, tuple(suite(task)), tuple(suite_kinds(task)))
        if templates in SUITES:
            return TemplateChoice(templates, tuple(suite(templates)), tuple(suite_kinds(templates)))
        return TemplateChoice(templates, _read_file(Path(templates)))
    texts = tuple(templates)
    if not texts or not all(isinstance(t, str) and t.strip() for t in texts):
        raise TextfairError(
            "templates is a list with an empty or non-text entry; expected template "
            "sentences such as 'I am a {identity} person.'"
        )
    return TemplateChoice("custom", texts)


def _read_file(path: Path) -> tuple[str, ...]:
    choices = ", ".join(["auto", *SUITES, "none"])
    if not path.is_file():
        raise TextfairError(
            f"--templates {str(path)!r} is neither a built-in suite ({choices}) nor a "
            "file; give one of those or a text file with one template per line"
        )
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise TextfairError(
            f"--templates {str(path)!r} could not be read as UTF-8 text ({err}); give a "
            "text file with one template per line"
        ) from None
    texts = tuple(
        line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")
    )
    if not texts:
        raise TextfairError(
            f"--templates {str(path)!r} holds no template; write one per line, such as "
            "'I am a {identity} person.'"
        )
    return texts


def template_domain(choice: TemplateChoice, config: AuditConfig) -> TemplateDomain:
    """The templated seeds of `choice` for the audit's term list and categories (every
    template checked: a wrong one is a one-line TextfairError before any query)."""
    return TemplateDomain(choice.texts, config.term_list(), config.categories, choice.kinds)


def audit_templates(
    domain: TemplateDomain,
    choice: TemplateChoice,
    cached: CachedModel,
    run: Run,
    *,
    decision: Decision,
    config: AuditConfig,
) -> AuditReport:
    """The templated section's report: `audit_domain` on the templated seeds, with the
    model queries and seconds of this section alone (`cached` is the section's own sibling
    of the audit's model: every count on it is the section's)."""
    start = time.perf_counter()
    data_info: dict[str, object] = {
        "templates": choice.name,
        "template_count": len(choice.texts),
        "rows": len(domain.seeds),
        "seeds_per_category": domain.seeds_per_category(),
        "templates_per_category": domain.templates_per_category(),
        "seeds_left_out": {
            c: {"minor_in_sexual_or_violent_text": n} for c, n in domain.minors_left_out.items()
        },
        "term_axes": {
            category: axes
            for category, terms in domain.term_list.categories.items()
            if (axes := {term.id: term.axis for term in terms if term.axis})
        },
    }
    terms = config.terms.name if isinstance(config.terms, TermList) else config.terms
    # A template has one identity slot: no rule set or causal test spans two categories.
    # (A copy, set field by field: a replace() would read every setting, and a causal-only
    # run reads no group setting.)
    config = copy.copy(config)
    config.max_order, config.causal_max_order = 1, 1
    report = audit_domain(
        domain,
        cached,
        decision,
        config,
        lambda: None,
        run,
        data_info,
        {"term_list": terms, "templates": choice.name},
    )
    stats = cached.stats
    return dataclasses.replace(
        report,
        run=RunStats(
            model_queries=stats.forwarded,
            model_calls=stats.model_calls,
            unique_inputs=stats.unique_inputs,
            cache_hits=stats.cache_hits,
            requested=stats.requested,
            seconds=round(time.perf_counter() - start, 3),
            placebo_queries=_forwarded(cached, "placebo"),
        ),
    )


def _forwarded(cached: CachedModel, stage: str) -> int:
    cost = cached.stats.stages.get(stage)
    return cost.forwarded if cost is not None else 0
