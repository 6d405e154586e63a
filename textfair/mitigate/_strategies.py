"""What differs between mitigating a text classifier and a table classifier.

The loop (`pipeline._mitigate`) is one; a strategy supplies its domain-specific steps: how to
audit, which augmentation data to build from the training part, how to fit a new model on the
training part plus chosen augmentation rows, and how to describe the rows it used.

* `TextStrategy`: counterfactual data augmentation (or TestSGD's rule-set rewrites) from the
  one annotated corpus, with some identity terms held out of the augmentation so that their
  before/after scores show whether the fix generalises.
* `TableStrategy`: Aequitas's discriminatory inputs and their sensitive variants, labelled
  with the model's label for the input found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd

from textfair.auditing.rows import audit_rows
from textfair.auditing.text import audit_text
from textfair.core.rules import RuleSet
from textfair.mitigate.augment import (
    aequitas_augmentation,
    counterfactual_augmentation,
    rule_set_augmentation,
)
from textfair.mitigate.retrain import Retrainer
from textfair.models import CachedModel
from textfair.models.base import Model, favorable_index
from textfair.models.rows import RowModel
from textfair.report.model import AuditReport
from textfair.settings import AuditConfig
from textfair.tabular.domain import TabularDomain
from textfair.tabular.schema import Schema
from textfair.text.domain import TextDomain
from textfair.text.reading_store import ReadingStore

__all__ = ["TableStrategy", "TextStrategy", "selection_split"]


def selection_split(inputs: Sequence, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Seed inputs (texts, rows) for choosing the loop's kept step, and the others, on which
    the audits before and after are reported: two seeded halves of the distinct inputs, so
    no seed (and no text generated from one) is in both.

    The loop keeps the step with the lowest worst-target score among several; scored on the
    inputs it was chosen on, that score is the minimum of several noisy estimates, biased
    low (the winner's curse). Scored on inputs the choice never saw, the kept model's score
    is an unbiased estimate again: the choice depends on the selection half alone."""
    distinct = list(dict.fromkeys(inputs))
    order = np.random.default_rng([seed, 3]).permutation(len(distinct))
    chosen = {distinct[i] for i in order[: len(distinct) // 2]}
    mask = np.fromiter((x in chosen for x in inputs), dtype=bool, count=len(inputs))
    return np.flatnonzero(mask), np.flatnonzero(~mask)


@dataclass
class TextStrategy:
    """Texts and their true labels (in the model's label names)."""

    texts: Sequence[str]
    labels: Sequence[str]
    favorable: str
    audit_config: AuditConfig
    method: str
    train: np.ndarray
    held: np.ndarray
    retrainer: Retrainer
    options: dict = field(default_factory=dict)  # max_per_text, per_rule_set, top, seed
    kind: ClassVar[Literal["text"]] = "text"
    no_augmentation = (
        "the training part mentions no identity term of the findings' categories, so there is "
        "no augmentation data; pass a training corpus that mentions them"
    )

    def __post_init__(self) -> None:
        # One annotated corpus: each text's mentions are found here, once, and every stage
        # (both audits, the augmentation, the measurements of the loop) reads them.
        terms, categories = self.audit_config.term_list(), self.audit_config.categories
        threshold = self.audit_config.min_acceptability
        # The next method of `--methods all` finds it read (`ReadingStore`, this process).
        self.domain = TextDomain(self.texts, terms, categories, threshold, store=ReadingStore())
        # The loop chooses its step on one half of the texts and the after-audit reports on
        # the other (`selection_split`); each half's reading is the whole corpus's, in part.
        selection, self.reported = selection_split(self.texts, self.options.get("seed", 0))
        self.selection_domain, self.report_domain = (
            TextDomain(
                [self.texts[i] for i in half],
                terms,
                categories,
                threshold,
                reading=self.domain.reading.subset(half),
            )
            for half in (selection, self.reported)
        )
        self.selection = selection
        self.train_texts = [self.texts[i] for i in self.train]
        self.train_labels = [self.labels[i] for i in self.train]
        self.held_inputs = [self.texts[i] for i in self.held]
        self.held_truth = [self.labels[i] for i in self.held]

    def audit(
        self, model: Model, model_id: str, command: str, reported: bool = False
    ) -> AuditReport:
        """An audit of the whole corpus, or (`reported`) of the texts the loop's choice
        never saw, on which before and after are reported."""
        texts, labels, domain = self.texts, self.labels, self.domain
        if reported:
            domain = self.report_domain
            texts, labels = domain.texts, [self.labels[i] for i in self.reported]
        return audit_text(
            model,
            texts,
            favorable=self.favorable,
            labels=labels,
            config=self.audit_config,
            model_id=model_id,
            command=command,
            domain=domain,
        )

    def augmentation(
        self,
        before: AuditReport,
        targets: Sequence[RuleSet],
        held_out: set[str],
        model: CachedModel,
    ) -> list[dict]:
        mentions = [self.domain.mentions(int(i)) for i in self.train]
        if self.method == "counterfactual":
            pool = counterfactual_augmentation(
                self.train_texts,
                self.train_labels,
                categories=sorted({r.category for rs in targets for r in rs}),
                max_per_text=self.options["max_per_text"],
                seed=self.options["seed"],
                matcher=self.domain.matcher,
                mentions=mentions,
                exclude=held_out,
                min_acceptability=self.audit_config.min_acceptability,
            )
        else:
            pool = rule_set_augmentation(
                before,
                self.train_texts,
                top=self.options["top"],
                per_rule_set=self.options["per_rule_set"],
                seed=self.options["seed"],
                matcher=self.domain.matcher,
                mentions=mentions,
                targets=targets,
                min_acceptability=self.audit_config.min_acceptability,
            )
        return pool

    def fit(self, pool: list[dict], rows: np.ndarray) -> Any:  # what the Retrainer's fit returns
        return self.retrainer.fit(
            self.train_texts + [pool[i]["text"] for i in rows],
            self.train_labels + [pool[i]["label"] for i in rows],
        )

    def wrap(self, fitted: Any) -> Model:
        return fitted

    def used(self, pool: list[dict], indices: list[int]) -> list[dict]:
        return [pool[i] for i in indices]


@dataclass
class TableStrategy:
    """Rows with their true labels in `schema.label`."""

    frame: pd.DataFrame
    schema: Schema
    audit_config: AuditConfig
    train: np.ndarray
    held: np.ndarray
    retrainer: Retrainer
    options: dict = field(default_factory=dict)  # global_budget, local_budget, seed
    kind: ClassVar[Literal["rows"]] = "rows"
    no_augmentation = (
        "Aequitas found no discriminatory input to learn from; raise the global and local budgets"
    )

    def __post_init__(self) -> None:
        self.columns = [f.name for f in self.schema.features]
        self.favorable = str(self.schema.favorable)
        truth = self.frame[self.schema.label].astype(str).tolist()
        self.domain = TabularDomain(self.frame[self.columns], self.schema)
        every = list(self.frame[self.columns].itertuples(index=False, name=None))
        selection, self.reported = selection_split(every, self.options.get("seed", 0))
        self.selection = selection
        self.selection_domain = TabularDomain(
            self.frame[self.columns].iloc[selection].reset_index(drop=True), self.schema
        )
        self.features = self.frame[self.columns].iloc[self.train].reset_index(drop=True)
        self.train_truth = [truth[i] for i in self.train]
        rows = self.frame[self.columns].iloc[self.held]
        self.held_inputs = list(rows.itertuples(index=False, name=None))
        self.held_truth = [truth[i] for i in self.held]
        self.found = 0

    def audit(
        self, model: Model, model_id: str, command: str, reported: bool = False
    ) -> AuditReport:
        """An audit of every row, or (`reported`) of the rows the loop's choice never saw."""
        frame = self.frame.iloc[self.reported].reset_index(drop=True) if reported else self.frame
        return audit_rows(
            model,
            frame,
            self.schema,
            config=self.audit_config,
            model_id=model_id,
            command=command,
        )

    def augmentation(
        self,
        before: AuditReport,
        targets: Sequence[RuleSet],
        held_out: set[str],
        model: CachedModel,
    ) -> list[dict]:
        pool, self.found = aequitas_augmentation(
            TabularDomain(self.frame.iloc[self.train][self.columns], self.schema),
            model,
            favorable=favorable_index(model.labels, self.favorable),
            global_budget=self.options["global_budget"],
            local_budget=self.options["local_budget"],
            seed=self.options["seed"],
        )
        return pool

    def fit(self, pool: list[dict], rows: np.ndarray) -> Any:  # what the Retrainer's fit returns
        extra = pd.DataFrame([pool[i]["row"] for i in rows], columns=self.columns)
        extra = extra.astype(self.features.dtypes.to_dict())
        return self.retrainer.fit(
            pd.concat([self.features, extra], ignore_index=True),
            self.train_truth + [pool[i]["label"] for i in rows],
        )

    def wrap(self, fitted: Any) -> RowModel:
        return RowModel(fitted, self.columns)

    def used(self, pool: list[dict], indices: list[int]) -> list[dict]:
        return [
            {
                **dict(zip(self.columns, pool[i]["row"], strict=True)),
                self.schema.label: pool[i]["label"],
                "seed_row": pool[i]["seed_row"],
                "transformation": "aequitas_sensitive_variant",
                "label_source": "the model's label for the discriminatory input found",
            }
            for i in indices
        ]


def target_rule_sets(report: AuditReport, top: int, credible: bool = False) -> list[RuleSet]:
    """The top significant findings' rule sets: what the mitigation aims at. With
    `credible`, when none is significant, the `top` most credible findings instead (a
    comparison of methods measures each against the same targets either way)."""
    from textfair.discovery.findings import by_credibility

    targets = [f.rule_set for f in report.significant[:top]]
    if not targets and credible:
        targets = [f.rule_set for f in sorted(report.findings, key=by_credibility)[:top]]
    return targets
