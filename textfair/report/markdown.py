"""report.md: the audit as Markdown, for people and files, and the escaping that keeps a
user's text shown as written inside Markdown (`_markdowncells`, re-exported here).

One of the report's renderers, apart from the terminal's (`textfair.report.terminal`) and
the page's (`textfair.report.html`): each reads an `AuditReport`, which it knows only as a
type, and `textfair.report.files` writes what they return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textfair.core.counts import counted
from textfair.discovery.keptpairs import pair_shift
from textfair.report import _labelwords as words
from textfair.report._coverage import corpus_words
from textfair.report._markdowncells import _section, code_span, markdown_cell, markdown_text
from textfair.report._numbers import acceptability_note, difference, informative, percent, points
from textfair.report._seedwords import SEEDS_INTRO, seed_rows
from textfair.report._strictcells import scored, strict_cells, strict_columns, strict_result
from textfair.report.parts import Finding, LabelMetrics, TableMetrics

# Only a type here: AuditReport's notebook methods (save, to_html, the Jupyter views) call
# these renderers, so importing the model at run time would close a cycle.
if TYPE_CHECKING:
    from textfair.discovery.results import Excess, GroupScore, PairShift
    from textfair.report.model import AuditReport
    from textfair.stats.label_metrics import SubgroupMetrics

__all__ = ["code_span", "markdown_cell", "markdown_text", "rate_extremes", "render_markdown"]


def _finding_cells(report: AuditReport, f: Finding) -> list[str]:
    """One row of the findings table in Markdown: the signed difference with its interval
    (points, as every surface writes it), so a sign is never read off the interval alone;
    with scored variants, their mean acceptability and the strict result (`strict_cells`)."""
    return [
        percent(f.phi_r),
        percent(f.phi_not_r),
        difference(f.difference, f.ci),
        points(f.credible_bound),
        f"{f.p_adjusted:.3g}",
        "yes" if f.significant else "no",
        f"{f.n_r} !" if report.small(f) else str(f.n_r),
        *(strict_cells(report, f) if scored(report) else ()),
    ]


def finding_columns(report: AuditReport) -> list[str]:
    """The findings table's columns after the rule set, in the words of the model's label
    and in `_finding_cells`' order: the seeds (report.unit) before the scored columns."""
    columns = [f"{report.outcome} with", *FINDING_COLUMNS, report.unit]
    return columns + (strict_columns(report) if scored(report) else [])


FINDING_COLUMNS = [
    "without",
    "difference [interval] (points)",
    "credible (points)",
    "p (adjusted)",
    "significant",
]


def _number(value: float | None, digits: int = 3) -> str:
    return "-" if value is None or value != value else f"{value:.{digits}f}"


def render_markdown(report: AuditReport, top: int = 10) -> str:
    """The report as Markdown: the verdict, then findings, causal tests, label metrics and
    run statistics; with templates, those of your texts and those of templates in two
    sections, never pooled."""
    data = report.data
    lines = [
        "# textfair audit",
        "",
        f"Model {code_span(report.model.id)} (favourable label: "
        f"{code_span(report.model.favorable)}) on {code_span(data.get('path', ''))}: "
        f"{corpus_words(report)}. Seed {report.seed}; "
        f"{code_span(report.command)}.",
        "",
        f"**Verdict.** {markdown_text(report.summary())}",
    ]
    if report.templates is None:
        lines += _section_lines(report, top)
    else:
        templates = report.templates
        lines += ["", "## On your texts", *_demoted(_section_lines(report, top))]
        seeds = ", ".join(
            f"{c} {n}" for c, n in (templates.data.get("seeds_per_category") or {}).items()
        )
        lines += [
            "",
            "## On templates",
            "",
            f"{templates.data.get('rows', 0)} templated seeds from "
            f"{templates.data.get('template_count', 0)} templates "
            f"({code_span(templates.data.get('templates', ''))}), each written with every "
            f"term of its category's axis; seeds per category: {seeds}. Never pooled with "
            "your texts.",
            *_demoted(_section_lines(templates, top)),
        ]
    return "\n".join(lines) + "\n"


def _demoted(lines: list[str]) -> list[str]:
    """A section's headings one level down, under "On your texts" or "On templates"."""
    return [f"#{line}" if line.startswith("## ") else line for line in lines]


def _section_lines(report: AuditReport, top: int) -> list[str]:
    """One section: findings, seeds, causal tests, label metrics and the run."""
    lines = _header_lines(report) + _findings_lines(report, top) + _seed_lines(report)
    baseline = report.extra.get("baseline")
    if isinstance(baseline, dict) and isinstance(baseline.get("lines"), list):
        # `textfair audit --baseline`: the comparison as the terminal said it.
        said = [str(line) for line in baseline["lines"]]
        lines += ["", "## Against the baseline", "", *said[:1]]
        # Each change its own list item (plain lines would join into one paragraph).
        lines += ["", *(f"- {line.strip()}" for line in said[1:])] if said[1:] else []
    if report.counterfactual is not None:
        lines += _counterfactual_lines(report)
    if isinstance(report.metrics, TableMetrics):
        lines += _group_metrics_lines(report.metrics)
    elif isinstance(report.metrics, LabelMetrics):
        lines += _label_metrics_lines(report.metrics)
    run = report.run
    lines += [
        "",
        "## Run",
        "",
        f"{report.run_words}; {run.model_calls} model calls, {run.seconds} s.{run.reading_said()}",
    ]
    return lines


def _header_lines(report: AuditReport) -> list[str]:
    return [
        "",
        f"## Group fairness ({counted(len(report.findings), 'rule set')}, "
        f"mode {report.settings.mode}, "
        f"{report.correction_name}, "
        f"{int(100 * report.settings.confidence)}% intervals)",
        "",
        f"Difference: the {report.outcome} rate with the rule set minus without it, in "
        "percentage "
        "points (negative: its texts fare worse). Ranked by the credible difference: the end "
        "of the interval nearest zero (0 when the interval contains 0), then by size."
        + (f" {report.intervals_statement}" if report.findings else ""),
        "",
    ]


def _seed_lines(report: AuditReport) -> list[str]:
    """Per category: the seeds naming it, the share that takes part in its rows (recall),
    and why the others were left out, in plain words (`seedwords`)."""
    rows = seed_rows(report.data)
    if not rows:
        return []
    lines = [
        "",
        "## Seeds per category",
        "",
        SEEDS_INTRO,
        "",
        "| category | seeds naming it | can be rewritten (recall) | left out |",
        "|---|---|---|---|",
    ]
    for row in rows:
        cells = [row.category, str(row.mentioning), row.rewritable_words(), row.reasons()]
        lines.append("| " + " | ".join(map(markdown_cell, cells)) + " |")
    return lines


def _findings_lines(report: AuditReport, top: int) -> list[str]:
    columns = ["rule set", *finding_columns(report)]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for f, folded in report.listed_findings(top):
        cells = [report.shown_label(f, folded), *_finding_cells(report, f)]
        lines.append("| " + " | ".join(map(markdown_cell, cells)) + " |")
    left_out = report.left_out_words(top)
    lines += [
        "",
        f"{len(report.significant)} of {counted(len(report.findings), 'rule set')} "
        f"{'differs' if len(report.significant) == 1 else 'differ'} significantly after "
        f"correction.{f' {left_out}' if left_out else ''}",
    ]
    for note in report.reading_notes(top):
        lines += ["", note]
    for f in report.significant[:3]:
        for example in f.examples[:1]:
            lines += [
                "",
                f"Example for {markdown_text(report.label(f.rule_set))}:",
                "",
                f"- {markdown_text(repr(example['text'][:200]))} → "
                f"{report.decision_name(example['favorable'])}"
                f"{acceptability_note(example.get('acceptability'))}",
                f"- {markdown_text(repr(example['counterfactual'][:200]))} → "
                f"{report.decision_name(example['counterfactual_favorable'])}"
                f"{acceptability_note(example.get('counterfactual_acceptability'))}",
            ]
    return lines


def _counterfactual_lines(report: AuditReport) -> list[str]:
    result = report.counterfactual
    assert result is not None
    strict = any(g.strict is not None for g in result.group)
    lines = _section(
        "Causal tests (share of texts whose label flips when only identity terms change)",
        "Beside each, a placebo: the same texts with a neutral word (tall, local, ...) written "
        "before the identity term, which changes no identity. *Identity swap* is how often one "
        "identity swap flips the decision, *placebo edit* how often the placebo edit does; the "
        "*excess* is their paired difference, what identity adds to the model's reaction to "
        "any edit (interval simultaneous over the tests; significance "
        f"{markdown_cell(report.settings.correction)}-adjusted); *Themis score*, the share of "
        f"the {report.inputs} sampled with any flip (the terminal's and the page's words).",
        [
            "categories",
            "Themis score",
            "interval",
            *EXCESS_COLUMNS,
            f"{report.inputs} sampled",
            f"{report.inputs} with both edits",
        ],
    )
    for c in result.causal:
        rate, interval = (
            (percent(c.score), f"[{percent(c.ci[0])}, {percent(c.ci[1])}]")
            if c.measured
            else (f"no {report.inputs.removesuffix('s')} rewritten", "–")
        )
        lines.append(
            f"| {markdown_cell(' + '.join(c.categories))} | {rate} | "
            f"{interval} | {_excess_cells(c.excess)} | {c.n} | "
            f"{c.excess.n if c.excess else '–'} |"
        )
    lines += [
        "",
        f"{result.tests_run} category sets tested of {result.tests_without_pruning}; sound "
        f"pruning saved {result.tests_without_pruning - result.tests_run} (a superset is "
        "pruned only when a subset's whole excess interval lies above the threshold; it is "
        "covered by that subset's finding).",
        "",
        "Per category, every seed written with each of its terms: the group score (the "
        f"largest difference of the {report.outcome} rate between two terms, each pair "
        "compared on the seeds that may take both; 0 where no two terms share seeds), each "
        "term's rate on the seeds that may take it, and how often a seed's rewrites to the "
        "other terms flip its decision against its placebo edit (excess interval "
        "simultaneous over the categories).",
        "",
        f"| category | group score (largest paired difference, points) | lowest "
        f"{report.outcome} rate | highest | "
        + " | ".join(EXCESS_COLUMNS)
        + f" | {report.inputs} with both edits |"
        + (" " + " | ".join(strict_columns(report)) + " |" if strict else ""),
        "|---|---|---|---|" + "---|" * (len(EXCESS_COLUMNS) + 1 + 2 * strict),
    ]
    for g in result.group:
        if g.rates:
            one = report.inputs.removesuffix("s")
            low, high = rate_extremes(g.rates, g.seeds_per_term, one)
            score = (
                f"none: no two terms share a {one}"
                if g.pairs_compared == 0
                else f"{100 * g.score:.1f}"
            )
            lines.append(
                f"| {markdown_cell(g.category)} | {score} | {low} | {high} | "
                f"{_excess_cells(g.excess)} | {g.excess.n if g.excess else '–'} |"
                + (" {} | {} |".format(*_excess_strict(report, g)) if strict else "")
            )
    return lines + _pair_lines(report)


def rate_extremes(
    rates: dict[str, float], seeds: dict[str, int] | None = None, noun: str = "text"
) -> tuple[str, str]:
    """The lowest and highest rated terms as Markdown cells, each with the texts its rate
    rests on when `seeds` holds them (a rate on one text is 0% or 100% whatever the model
    does); one term, or terms all at one rate, is said once ("african (79.1%), the only
    term rated"), never as both ends."""
    low, high = min(rates, key=rates.__getitem__), max(rates, key=rates.__getitem__)

    def cell(term: str) -> str:
        on = "" if seeds is None else f", {counted(seeds[term], noun)}"
        return f"{markdown_cell(term)} ({percent(rates[term])}{on})"

    if len(rates) == 1:
        return f"{cell(low)}, the only term rated", "–"
    if rates[low] == rates[high]:
        return f"all {len(rates)} terms ({percent(rates[low])})", "–"
    return cell(low), cell(high)


def _pair_lines(report: AuditReport, top: int = 10) -> list[str]:
    """The term pairs whose swap lowers the favourable probability most beyond the placebo
    edit's shift (the report's order), with their flip rates against the placebo's."""
    counterfactual = report.counterfactual
    if counterfactual is None or not counterfactual.term_pairs:
        return []
    every = counterfactual.term_pairs
    # A pair seen on a text or two has an interval that spans most of the range: ranking it
    # by its estimate would headline the table with noise, so it is counted, not listed.
    pairs = [pair for pair in every if informative(pair_shift(pair)[1])]
    # A large category's pairs are not all kept (`keptpairs`): its counts are of every pair
    # that was tested.
    left_out = {c.category: c for c in counterfactual.term_pairs_left_out}
    tested = len(every) + sum(c.tested - c.kept for c in left_out.values())
    few = sum(c.uninformative for c in left_out.values()) + sum(
        1
        for pair in every
        if pair.category not in left_out and not informative(pair_shift(pair)[1])
    )
    strict = any(pair.strict is not None for pair in every)
    lines = _section(
        f"Term pairs: the {min(top, len(pairs))} of {tested:,} swaps that lower the "
        f"{report.outcome} probability most"
        + (f" ({few:,} seen on too few texts for an informative interval left out)" if few else ""),
        "Texts naming one term, rewritten to another. *Shift vs placebo*: the mean of "
        f"P({report.outcome} | swapped) − P({report.outcome} | placebo edit), in points, with its "
        "interval; flip rates of the identity swap and of the placebo edit, and their excess "
        "(intervals at "
        f"{100 * report.settings.confidence:g}% for each pair on its own, "
        "not simultaneous over the pairs).",
        [
            "axis",
            "from → to",
            "shift vs placebo [interval] (points)",
            *EXCESS_COLUMNS,
            report.inputs,
            *(strict_columns(report) if strict else ()),
        ],
    )
    for pair in pairs[:top]:
        shift, ci = pair_shift(pair)
        lines.append(
            f"| {markdown_cell(report.term_axis(pair.category, pair.source))} | "
            f"{markdown_cell(pair.source)} → "
            f"{markdown_cell(pair.target)} | {difference(shift, ci)} | "
            f"{_excess_cells(pair.excess)} | "
            f"{pair.n} |" + (" {} | {} |".format(*_pair_strict(report, pair)) if strict else "")
        )
    return lines


def _pair_strict(report: AuditReport, pair: PairShift) -> tuple[str, str]:
    """A term pair's mean acceptability and its shift on the seeds whose swapped text
    scores at least the strict level, marked "?" where it does not hold there."""
    return strict_result(report, pair.acceptability, pair.strict, pair_shift(pair)[1])


def _excess_strict(report: AuditReport, group: GroupScore) -> tuple[str, str]:
    """A group score's mean acceptability and its excess on the seeds whose rewrites all
    score at least the strict level, marked "?" where it does not hold there."""
    ci = group.excess.ci if group.excess is not None else (-1.0, 1.0)
    return strict_result(report, group.acceptability, group.strict, ci)


# The five cells `_excess_cells` writes, as every table with an excess names them.
# The terminal's and the page's words for the same columns (issue 57: one name each).
EXCESS_COLUMNS = ("identity swap", "placebo edit", "excess [interval] (points)", "significant")


def _excess_cells(excess: Excess | None) -> str:
    """Per-edit and placebo flip rates, the excess with its interval, significance: four
    Markdown cells (dashes where the domain has no placebo edit)."""
    if excess is None:
        return " | ".join("–" * len(EXCESS_COLUMNS))
    return (
        f"{percent(excess.identity_rate)} | {percent(excess.placebo_rate)} | "
        f"{difference(excess.excess, excess.ci)} | {'yes' if excess.significant else 'no'}"
    )


def _label_metrics_lines(metrics: LabelMetrics) -> list[str]:
    positive = metrics.positive_label
    confidence = round(100 * (metrics.confidence or 0.95))
    lines = _section(
        "Label-based metrics",
        f"AUCs score how well the model ranks texts labelled `{positive}` above the others "
        f"(overall {words.auc_cell(None, '', metrics)}); the FPR and FNR gaps, the "
        "subgroup's rate minus the overall rate in points (positive: its texts not labelled "
        f"`{positive}` are flagged, or those labelled so missed, more often), count that "
        f"label as the positive class; background = all other texts. Intervals at "
        f"{confidence}%, each on its own.",
        [
            "subgroup",
            f"texts ({markdown_cell(words.classes(metrics))})",
            *words.AUC_NAMES.values(),
            "FPR gap (points)",
            "FNR gap (points)",
        ],
    )
    some, _ = words.split(metrics)
    for s in some if metrics.min_per_class else metrics.subgroups:
        counts = f"{s.size}" if s.positives is None else f"{s.positives} / {s.negatives}"
        cells = [_starred(s, kind, metrics) for kind in words.AUC_NAMES]
        cells += [words.points_cell(s, kind, metrics) for kind in ("fpr_gap", "fnr_gap")]
        lines.append(f"| {markdown_cell(s.subgroup)} | {counts} | " + " | ".join(cells) + " |")
    notes = [words.gaps_note(metrics), words.too_few_note(metrics), words.none_note(metrics)]
    lines += [line for note in notes if note for line in ("", markdown_text(note))]
    return lines


def _starred(s: SubgroupMetrics, kind: str, metrics: LabelMetrics) -> str:
    """An AUC cell, starred when it differs significantly from the overall AUC."""
    gap = s.gaps.get(kind)
    return words.auc_cell(s, kind, metrics) + (" *" if gap and gap.significant else "")


def _group_metrics_lines(metrics: TableMetrics) -> list[str]:
    lines = _section(
        "Group metrics (each group against the rest)",
        None,
        ["group", "DI", "SPD", "EOD", "AOD", "ERD"],
    )
    for name, g in metrics.groups.items():
        cells = (
            g.disparate_impact,
            g.statistical_parity_difference,
            g.equal_opportunity_difference,
            g.average_odds_difference,
            g.error_rate_difference,
        )
        lines.append(f"| {markdown_cell(name)} | " + " | ".join(_number(c) for c in cells) + " |")
    lines += [
        "",
        f"Consistency {_number(metrics.consistency)} (on {metrics.consistency_rows} "
        f"rows), Theil index {_number(metrics.theil_index, 4)}.",
    ]
    return lines
