"""Augmentation data from what an audit found, with provenance on every row.

* **TestSGD** (``rule_sets``): texts satisfying the top-k significant rule sets, rewritten from
  seed texts, labelled with the *opposite* of the disadvantaged outcome, as the paper's
  mitigation does (a group the model treats unfavourably gets favourable examples).
* **Aequitas** (``aequitas``, tables): discriminatory inputs found by Aequitas's search, each
  with every variant that differs only in sensitive values, all labelled with the model's
  label for the input found (the original input), so the outcome cannot follow the
  sensitive values.
* **Counterfactual data augmentation** (``counterfactual``): every training text that mentions
  identity terms, with each of its counterfactuals under the original text's label, so the
  label cannot depend on which identity is named.

Each row carries ``seed_id``, ``source`` (rule set or term swap), ``transformation`` and
``label_source``, so the data can be traced back and filtered.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from textfair.core.rules import RuleSet
from textfair.errors import TextfairError
from textfair.models.decision import class_labels, recorded_decision
from textfair.report.model import AuditReport
from textfair.report.parts import Finding
from textfair.tabular.search import aequitas_search
from textfair.text.generate import counterfactuals
from textfair.text.matcher import Matcher
from textfair.text.mentions import Mention
from textfair.text.rule_satisfying import rewritable_categories, rule_satisfying

if TYPE_CHECKING:
    from textfair.models.base import Model
    from textfair.tabular.domain import TabularDomain

__all__ = [
    "aequitas_augmentation",
    "counterfactual_augmentation",
    "counterfactual_rows",
    "rule_set_augmentation",
]


def rule_set_augmentation(
    report: AuditReport,
    texts: Sequence[str],
    *,
    top: int = 3,
    per_rule_set: int = 200,
    seed: int = 0,
    matcher: Matcher | None = None,
    mentions: Sequence[Sequence[Mention]] | None = None,
    targets: Sequence[RuleSet] | None = None,
    min_acceptability: float = 0.0,
) -> list[dict]:
    """TestSGD's mitigation data: for each of the `top` significant findings, `per_rule_set`
    seed texts rewritten to satisfy the rule set, labelled with the outcome it was denied.
    `mentions` (one list per text) reuses mentions already found; `targets` names the
    findings instead (a mitigation that aims at the most credible ones); a rewrite scoring
    below `min_acceptability` is not written."""
    if report.kind != "text":
        raise TextfairError("the report is an audit of table rows; rule-set rewrites need text")
    matcher = matcher or Matcher(report.config.get("term_list", "dixon2018"))
    decision = recorded_decision(report.model.labels, report.model.favorable)
    favorable, others = class_labels(decision, "rule-set augmentation")
    if not others:
        raise TextfairError("the report's model has a single label; nothing to augment")
    findings: Sequence[Finding]
    if targets is None:
        findings = report.significant[:top]
    else:
        findings = [f for rs in targets if (f := report.finding(RuleSet(rs))) is not None]
    if not findings:
        raise TextfairError(
            "the report has no significant finding; there is nothing to mitigate (export "
            "counterfactual augmentation data instead: method counterfactual)"
        )
    rng = np.random.default_rng(seed)
    rows = []
    for finding in findings:
        rule_set = {rule.category: rule.value for rule in finding.rule_set}
        # The side with the lower favourable rate is disadvantaged; it gets the other label
        # (with several favourable labels, "4,5" stars, the first of them).
        label = favorable if finding.phi_r < finding.phi_not_r else others[0]
        found = mentions or [matcher.find(text, list(rule_set)) for text in texts]
        eligible = [
            i
            for i, seed_mentions in enumerate(found)
            if set(rule_set) <= rewritable_categories(texts[i], seed_mentions, matcher)
        ]
        if not eligible:
            continue
        for index in rng.choice(eligible, size=min(per_rule_set, len(eligible)), replace=False):
            variant = rule_satisfying(
                texts[int(index)], rule_set, matcher=matcher, mentions=found[int(index)]
            )
            if variant is None or (variant.acceptability or 0.0) < min_acceptability:
                continue
            rows.append(
                {
                    "seed_id": int(index),
                    "text": variant.text,
                    "label": label,
                    "source": RuleSet(finding.rule_set).label(),  # {"lgbt"}, as the audit
                    "transformation": "rule_set_rewrite",
                    "label_source": "opposite of the disadvantaged outcome (TestSGD)",
                }
            )
    return rows


def counterfactual_augmentation(
    texts: Sequence[str],
    labels: Sequence[object],
    *,
    categories: Sequence[str] | None = None,
    max_per_text: int = 8,
    seed: int = 0,
    matcher: Matcher | None = None,
    mentions: Sequence[Sequence[Mention]] | None = None,
    exclude: Collection[str] = (),
    indices: Iterable[int] | None = None,
    min_acceptability: float = 0.0,
) -> list[dict]:
    """Counterfactual data augmentation: each training text's counterfactuals (at most
    `max_per_text`, sampled with ``seed + index``) under the text's own label.

    `mentions` (one list per text) reuses mentions already found; terms in `exclude` are
    never written (held-out terms). `indices` are the texts' positions in the whole
    training set (default 0, 1, ...), for a part of it processed alone (a Ray batch).
    Targets scoring below `min_acceptability` are not written (`counterfactuals`)."""
    if len(texts) != len(labels):
        raise TextfairError(
            f"got {len(texts)} texts and {len(labels)} labels; expected one label per text"
        )
    matcher = matcher or Matcher("dixon2018")
    positions = range(len(texts)) if indices is None else [int(i) for i in indices]
    return [
        row
        for offset, (index, text, label) in enumerate(zip(positions, texts, labels, strict=True))
        for row in counterfactual_rows(
            index,
            text,
            label,
            categories=categories,
            max_per_text=max_per_text,
            seed=seed,
            matcher=matcher,
            mentions=None if mentions is None else mentions[offset],
            exclude=exclude,
            min_acceptability=min_acceptability,
        )
    ]


def counterfactual_rows(
    index: int,
    text: str,
    label: object,
    *,
    categories: Sequence[str] | None,
    max_per_text: int,
    seed: int,
    matcher: Matcher,
    mentions: Sequence[Mention] | None = None,
    exclude: Collection[str] = (),
    min_acceptability: float = 0.0,
) -> list[dict]:
    """The augmentation rows of the training text at position `index` (its variants are
    sampled with ``seed + index``, so a row's rows do not depend on which rows are read
    with it: the Ray engine writes the same rows shard by shard)."""
    return [
        {
            "seed_id": index,
            "text": variant.text,
            "label": str(label),
            "source": "+".join(f"{s.source}->{s.target}" for s in variant.swaps),
            "transformation": "counterfactual",
            "label_source": "the original text's label",
        }
        for variant in counterfactuals(
            text,
            categories,
            matcher=matcher,
            max_variants=max_per_text,
            seed=seed + index,
            with_edits=False,
            mentions=mentions,
            exclude=exclude,
            min_acceptability=min_acceptability,
        )
    ]


def aequitas_augmentation(
    domain: TabularDomain,
    model: Model,
    *,
    favorable: int,
    global_budget: int = 1000,
    local_budget: int = 2000,
    seed: int = 0,
) -> tuple[list[dict], int]:
    """Rows from Aequitas's discriminatory inputs over a TabularDomain, and how many inputs
    were found. Each row: ``row`` (a tuple in the domain's column order), ``label``,
    ``seed_row`` (which discriminatory input it comes from)."""
    found = aequitas_search(
        domain,
        model,
        favorable=favorable,
        global_budget=global_budget,
        local_budget=local_budget,
        seed=seed,
    ).discriminatory
    if not found:
        return [], 0
    names = list(model.labels)
    own = [names[i] for i in np.asarray(model.predict_proba(found)).argmax(axis=1)]
    rows = [
        {"row": variant, "label": label, "seed_row": index}
        for index, (row, label) in enumerate(zip(found, own, strict=True))
        for variant in domain.sensitive_variants(row)
    ]
    return rows, len(found)
