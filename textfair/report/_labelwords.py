"""Label metrics in words and table cells, the same on every surface (terminal, report.md,
the page and the verdict): an AUC with its interval, a rate gap in points with its
interval, "too few texts" where a metric has no value, and the sentence naming the AUCs
significantly below the overall AUC."""

from __future__ import annotations

import math

from textfair.core.counts import counted
from textfair.report._numbers import interval, signed
from textfair.report.parts import LabelMetrics
from textfair.stats.label_metrics import AUC_KINDS, RATE_GAPS, AucGap, SubgroupMetrics
from textfair.stats.testing import CORRECTION_NAMES

__all__ = [
    "AUC_NAMES",
    "TOO_FEW",
    "auc_cell",
    "classes",
    "gap_sentence",
    "gaps_note",
    "none_note",
    "points_cell",
    "shortfalls",
    "split",
    "too_few_note",
]

TOO_FEW = "too few texts"
AUC_NAMES = {"subgroup_auc": "subgroup AUC", "bpsn_auc": "BPSN AUC", "bnsp_auc": "BNSP AUC"}


def _has(value: float) -> bool:
    return not math.isnan(value)


def auc_cell(s: SubgroupMetrics | None, kind: str, metrics: LabelMetrics) -> str:
    """ "0.968 [0.943, 0.982]"; "too few texts" without a value; the value alone in a
    record written before intervals. `s` None: the overall AUC."""
    value = metrics.overall_auc if s is None else getattr(s, kind)
    ci = metrics.overall_auc_ci if s is None else s.intervals.get(kind)
    if not _has(value):
        return TOO_FEW if metrics.min_per_class else "-"
    return f"{value:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")


def points_cell(s: SubgroupMetrics, kind: str, metrics: LabelMetrics) -> str:
    """A rate gap in points, signed, with its interval: "+2.4 [+0.3, +5.1]"."""
    value, ci = getattr(s, kind), s.intervals.get(kind)
    if not _has(value):
        return TOO_FEW if metrics.min_per_class else "-"
    return signed(value) + (f" {interval(ci)}" if ci else "")


def classes(metrics: LabelMetrics) -> str:
    """What the two classes are called: "toxic" and "not toxic"."""
    positive = metrics.positive_label or "positive"
    return f"{positive} / not {positive}"


def too_few_note(metrics: LabelMetrics) -> str:
    """What "too few texts" means (empty for a record written before the minimum)."""
    if not metrics.min_per_class:
        return ""
    positive = metrics.positive_label or "positive"
    return (
        f'"{TOO_FEW}": fewer than {metrics.min_per_class} texts labelled {positive}, or '
        f"{metrics.min_per_class} not, where the metric takes them (its term's texts, or "
        "the others), so no number is given."
    )


def split(metrics: LabelMetrics) -> tuple[list[SubgroupMetrics], list[SubgroupMetrics]]:
    """The subgroups with at least one metric, largest first, and those with none (too few
    texts of either class), whom a table need not give a row of "too few texts"."""
    ordered = sorted(metrics.subgroups, key=lambda s: -s.size)
    some: list[SubgroupMetrics] = []
    none: list[SubgroupMetrics] = []
    for s in ordered:
        has_one = any(_has(getattr(s, k)) for k in (*AUC_KINDS, *RATE_GAPS))
        (some if has_one else none).append(s)
    return some, none


def none_note(metrics: LabelMetrics) -> str:
    """The terms with too few texts for any metric, with their counts of each class."""
    _, none = split(metrics)
    if not none or not metrics.min_per_class:
        return ""
    listed = ", ".join(f"{s.subgroup} ({s.positives} / {s.negatives})" for s in none)
    return f"{TOO_FEW.capitalize()} for any metric ({classes(metrics)}): {listed}."


def shortfalls(metrics: LabelMetrics) -> list[tuple[SubgroupMetrics, str, AucGap]]:
    """The AUCs significantly below the overall AUC, the largest shortfall first."""
    return [found for found in metrics.significant_gaps() if found[2].difference < 0]


def _tests(metrics: LabelMetrics) -> int:
    return sum(len(s.gaps) for s in metrics.subgroups)


def _correction(metrics: LabelMetrics) -> str:
    return CORRECTION_NAMES.get(metrics.correction, "no correction")


def gaps_note(metrics: LabelMetrics) -> str:
    """Under a table: what a star means and which AUCs differ from the overall one."""
    tests = _tests(metrics)
    if not tests:
        return ""
    confidence = round(100 * (metrics.confidence or 0.95))
    found = metrics.significant_gaps()
    said = "; ".join(f"{s.subgroup} {AUC_NAMES[kind]} {_signed(gap)}" for s, kind, gap in found)
    return (
        f"Starred AUCs differ from the overall AUC ({auc_cell(None, '', metrics)}) after "
        f"{_correction(metrics)} over {counted(tests, 'test')} (each AUC against it; the "
        f"difference and its {confidence}% interval): " + (said if found else "none") + "."
    )


def _signed(gap: AucGap) -> str:
    return f"{gap.difference:+.3f} [{gap.ci[0]:+.3f}, {gap.ci[1]:+.3f}]"


_MEANING = {
    "subgroup_auc": "the model tells its texts labelled {p} from its others less well",
    "bpsn_auc": "its texts not labelled {p} are scored more like other texts labelled {p}: "
    "harmless mentions over-flagged",
    "bnsp_auc": "its texts labelled {p} are scored more like other texts not labelled {p}: "
    "harmful ones missed",
}


def gap_sentence(metrics: LabelMetrics) -> str:
    """The verdict's sentence on label metrics: every AUC significantly below the overall
    AUC (up to three named), signed with its interval and what it means; empty when none
    is (an AUC above it is no harm to the group, and is in the tables)."""
    found = shortfalls(metrics)
    if not found:
        return ""
    positive = metrics.positive_label or "positive"
    named = "; ".join(
        f"texts that mention {s.subgroup}, {AUC_NAMES[kind]} {getattr(s, kind):.3f} "
        f"({-gap.difference:.3f} below it: {_signed(gap)}; {_MEANING[kind].format(p=positive)})"
        for s, kind, gap in found[:3]
    )
    more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
    return (
        f"Label metrics: AUCs significantly below the overall AUC "
        f"{auc_cell(None, '', metrics)} after {_correction(metrics)} over "
        f"{counted(_tests(metrics), 'test')}: {named}{more}."
    )
