"""The parts of an audit report: model, run statistics, counterfactual results, metrics.

`AuditReport` (report/model.py) is made of these; `Finding` is discovery's GroupFinding and
`LabelMetrics` is stats.label_metrics's BiasMetrics, under the names the report uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from textfair.discovery.findings import GroupFinding
from textfair.discovery.keptpairs import PairsLeftOut, pair_order
from textfair.discovery.results import (
    CausalScore,
    FlippedPair,
    GroupScore,
    PairShift,
    ThemisResult,
)
from textfair.stats.label_metrics import BiasMetrics
from textfair.stats.metrics import GroupMetrics

__all__ = [
    "Counterfactual",
    "Finding",
    "Kind",
    "LabelMetrics",
    "ModelInfo",
    "RunStats",
    "TableMetrics",
]

Kind = Literal["text", "rows"]
Finding = GroupFinding  # one rule set's group fairness result (see discovery.groups)


@dataclass(frozen=True)
class ModelInfo:
    """Which model was audited and which of its labels is the favourable outcome."""

    id: str
    fingerprint: str | None
    labels: tuple[str, ...]
    favorable: str


@dataclass(frozen=True)
class RunStats:
    """What the run cost: texts asked for, model queries and calls, cache hits, seconds, and
    the model queries that were placebo edits (part of `model_queries`; 0 in reports
    written before version 3)."""

    model_queries: int
    model_calls: int
    unique_inputs: int
    cache_hits: int
    requested: int
    seconds: float
    placebo_queries: int = 0
    reading: str = ""
    """Where the corpus's reading came from: "read" (in this run), "reused from this
    process" or "reused from PATH" (a cache file), with a note on a stored reading
    refused; "" for templates, table rows and reports written before it was recorded."""

    def queries(self) -> str:
        """The model queries in words, with the placebo edits' share when there were any."""
        said = f"{self.model_queries:,} model queries"
        if self.placebo_queries:
            said += f" ({self.placebo_queries:,} of them placebo edits)"
        return said

    def reading_said(self) -> str:
        """The corpus's reading as the run line says it: " The corpus's reading was reused
        from ...", or a note on a stored reading refused; "" for a corpus read as usual."""
        if self.reading.startswith("reused") or "(" in self.reading:
            return f" The corpus's reading was {self.reading}."
        return ""


@dataclass(frozen=True)
class Counterfactual:
    """Themis's results: causal scores of category sets, group scores, term-pair shifts."""

    causal: tuple[CausalScore, ...]
    group: tuple[GroupScore, ...]
    term_pairs: tuple[PairShift, ...]  # most negative shift against the placebo first
    tests_run: int
    tests_without_pruning: int
    pruned: tuple[tuple[str, ...], ...] = ()  # supersets of a set wholly above the threshold
    # Every term-pair swap that flipped the decision (`--pairs` writes them). Kept in
    # memory, not in report.json: a large list for a holistic term list.
    flipped: tuple[FlippedPair, ...] = field(default=(), compare=False, repr=False)
    # Categories with more term pairs than are kept in full: every pair was tested and
    # corrected for, `term_pairs` holds the significant ones and the most harmful.
    term_pairs_left_out: tuple[PairsLeftOut, ...] = ()

    @classmethod
    def from_themis(cls, result: ThemisResult) -> Counterfactual:
        return cls(
            causal=tuple(result.causal),
            group=tuple(result.group),
            term_pairs=tuple(sorted(result.pairs, key=pair_order)),
            tests_run=result.tests_run,
            tests_without_pruning=result.tests_without_pruning,
            pruned=tuple(tuple(c) for c in result.pruned),
            flipped=tuple(result.flipped),
            term_pairs_left_out=tuple(result.pairs_left_out),
        )


# Label-based metrics of a text classifier (Borkan et al. 2019): per-subgroup AUCs and
# error-rate gaps, their generalized means, and the overall AUC (see stats.label_metrics).
LabelMetrics = BiasMetrics


@dataclass(frozen=True)
class TableMetrics:
    """AIF360's group metrics per sensitive value against the rest, consistency, Theil."""

    groups: dict[str, GroupMetrics]
    consistency: float
    consistency_rows: int
    theil_index: float
