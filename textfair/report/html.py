"""The report as one self-contained HTML page: a verdict, plots and tables to drill into.

Everything is inline (styles, the small sorting and filtering script, the SVG plots), so the
page opens offline and asks the network for nothing. It is built from the report alone, as
report.json holds it, so `textfair report report.json --html page.html` writes the same bytes
the audit wrote.

This module holds the page's sections, in order: the verdict, the change from a baseline
(`textfair.report._baselinepage`, with `--baseline`), the findings' table, the seeds,
the causal tests' table, the examples, the metrics and the run; their figures and captions
are `textfair.report._figures`.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

from textfair.report import _figures as figures
from textfair.report import _labelwords as words
from textfair.report._baselinepage import baseline_section
from textfair.report._coverage import corpus_words
from textfair.report._numbers import acceptability_note, difference
from textfair.report._page import band as _band
from textfair.report._page import escape as _e
from textfair.report._page import number as _num
from textfair.report._page import page as _page
from textfair.report._page import percent as _pct
from textfair.report._page import table as _table
from textfair.report._seedwords import SEEDS_INTRO, seed_rows
from textfair.report._strictcells import scored, strict_cells, strict_columns
from textfair.report.parts import Finding, LabelMetrics, TableMetrics

# Only a type here: AuditReport's notebook methods (save, to_html, the Jupyter views) call
# these renderers, so importing the model at run time would close a cycle.
if TYPE_CHECKING:
    from textfair.discovery.results import Excess
    from textfair.report.model import AuditReport
    from textfair.stats.label_metrics import SubgroupMetrics

__all__ = ["render_html"]


def render_html(report: AuditReport) -> str:
    """The audit as a page: verdict, findings (forest plot and table), per-term rates,
    two-category rule sets, term-pair flips, examples, metrics and the run. The --fail-above
    line is drawn when report.json records one."""
    parts = [_header(report), *baseline_section(report.extra)]
    if report.templates is None:
        parts += _section(report)
    else:
        templates = report.templates
        parts += ['<h2 id="on-your-texts">On your texts</h2>', *_demoted(_section(report))]
        parts += [
            '<h2 id="on-templates">On templates</h2>',
            f'<p class="muted">{_e(templates.data.get("rows", 0))} templated seeds from '
            f"{_e(templates.data.get('template_count', 0))} templates "
            f"(<code>{_e(templates.data.get('templates', ''))}</code>), each written with "
            "every term of its category's axis; never pooled with your texts.</p>",
            *(
                p.replace(' id="', ' id="templates-').replace(
                    'data-table="', 'data-table="templates-'
                )
                for p in _demoted(_section(templates))
            ),
        ]
    return _page("textfair audit", parts)


def _section(report: AuditReport) -> list[str]:
    """One section's findings, causal tests, figures, examples, metrics and run."""
    parts = _findings(report)
    if report.counterfactual is not None:
        parts += _counterfactual(report)
    parts += figures.two_category_figures(report)
    parts += _examples(report)
    if isinstance(report.metrics, LabelMetrics):
        parts += _label_metrics(report.metrics)
    elif isinstance(report.metrics, TableMetrics):
        parts += _table_metrics(report.metrics)
    parts += _run(report)
    return parts


def _demoted(parts: list[str]) -> list[str]:
    """A section's headings one level down, under "On your texts" or "On templates"."""
    return [p.replace("<h2", "<h3").replace("</h2>", "</h3>") for p in parts]


def _header(report: AuditReport) -> str:
    data = report.data
    return (
        f"<h1>textfair audit of {_e(report.model.id or 'a model')}</h1>\n"
        f'<p class="verdict" id="verdict">{_e(report.summary())}</p>\n'
        f'<p class="muted">Favourable label <code>{_e(report.model.favorable)}</code>; '
        f"{_e(corpus_words(report))}, from <code>{_e(data.get('path', ''))}</code>; "
        f"{_e(report.correction_name)}, "
        f"{_e(round(100 * report.settings.confidence))}% intervals.</p>"
    )


def _findings(report: AuditReport) -> list[str]:
    findings = report.findings
    if not findings:
        why = (
            "Not tested in this run (`textfair causal` runs only the causal tests)."
            if not report.settings.group
            else "No rule set was frequent enough to test."
        )
        return ["<h2>Group fairness</h2>", f"<p>{_e(why)}</p>"]
    folded = report.shown_findings()
    outcome = report.outcome
    rows = [
        [
            (_e(report.shown_label(f, n)), None),
            _num(f.phi_r),
            _num(f.phi_not_r),
            (difference(f.difference, f.ci), f"{100 * f.difference:.4f}"),
            (f"{f.p_adjusted:.3g}", f"{f.p_adjusted:.6g}"),
            ("yes" if f.significant else "no", None),
            (f"{f.n_r} !" if report.small(f) else str(f.n_r), str(f.n_r)),
            *(_strict_cells(report, f) if scored(report) else ()),
        ]
        for f, n in folded
    ]
    return [
        "<h2>Group fairness: which groups get different outcomes</h2>",
        figures.findings_figure(report),
        _table(
            "findings",
            "Every rule set tested, most credible first (click a header to sort)",
            [
                "rule set",
                f"{outcome} with %",
                "without %",
                "difference [interval], points",
                "p (adjusted)",
                "significant",
                report.unit,
                *(
                    [
                        *strict_columns(report),
                        f"holds on {report.unit} scoring ≥ {report.strict_level:g}",
                    ]
                    if scored(report)
                    else []
                ),
            ],
            rows,
        ),
        *(f'<p class="muted">{_e(note)}</p>' for note in report.reading_notes()),
        *_seeds(report),
    ]


def _strict_cells(report: AuditReport, f: Finding) -> list[tuple[str, str | None]]:
    """A finding's mean acceptability, its difference on its high-scoring seeds, and
    whether it holds there in plain words, flagged (shaded) when it does not."""
    accepted, said = strict_cells(report, f)
    holds = report.holds_words(f)
    flag = f'<span class="out">{_e(holds)}</span>' if holds.startswith("no") else _e(holds)
    strict = f.strict
    return [
        (_e(accepted), "" if f.acceptability is None else f"{f.acceptability:.6f}"),
        (_e(said), "" if strict is None or strict.n == 0 else f"{100 * strict.estimate:.4f}"),
        (flag, None),
    ]


def _seeds(report: AuditReport) -> list[str]:
    """Per category: the seeds naming it, the share taking part (recall), and why the
    others were left out, in plain words."""
    rows = seed_rows(report.data)
    if not rows:
        return []
    cells = [
        [
            (_e(row.category), None),
            (str(row.mentioning), str(row.mentioning)),
            (_e(row.rewritable_words()), str(row.rewritable or 0)),
            (_e(row.reasons()), None),
        ]
        for row in rows
    ]
    return [
        "<h3>Seeds per category</h3>",
        f"<p>{_e(SEEDS_INTRO)}</p>",
        _table(
            "seeds",
            "Seeds per category and why some were left out",
            ["category", "seeds naming it", "can be rewritten (recall)", "left out"],
            cells,
        ),
    ]


def _counterfactual(report: AuditReport) -> list[str]:
    result = report.counterfactual
    assert result is not None  # called only for a report with causal tests
    parts = ["<h2>Swapping only the identity term</h2>"]
    inputs = report.inputs
    causal_rows = [
        [
            (_e(" + ".join(c.categories)), None),
            *_excess_cells(c.excess),
            (str(c.excess.n), str(c.excess.n)) if c.excess else ("–", None),
            *(
                (_num(c.score), (f"[{_pct(c.ci[0])}, {_pct(c.ci[1])}]", f"{c.ci[0]:.6f}"))
                if c.measured
                else ((f"no {inputs.removesuffix('s')} rewritten", None), ("–", None))
            ),
            (str(c.n), str(c.n)),
        ]
        for c in result.causal
    ]
    parts.append(
        _table(
            "causal",
            "Decisions flipped when only identity terms change (the terminal's table, in "
            "full): identity swap, how often one swap flips a decision; placebo edit, how "
            "often a neutral word written before the term does (no identity changed); the "
            f"excess, their paired difference over the {inputs} with both edits, with a "
            f"simultaneous interval; Themis score, the share of the {inputs} sampled with "
            "any flip",
            [
                "categories",
                "identity swap %",
                "placebo edit %",
                "excess [interval], points",
                f"{inputs} with both edits",
                "Themis score %",
                "interval",
                f"{inputs} sampled",
            ],
            causal_rows,
        )
    )
    parts += figures.group_figures(report, result)
    parts += figures.term_pair_figures(report, result)
    return parts


def _excess_cells(excess: Excess | None) -> list[tuple[str, str | None]]:
    """Per-edit and placebo flip rates, the excess with its interval: three table cells."""
    if excess is None:
        return [("–", None)] * 3
    mark = " *" if excess.significant else ""
    return [
        _num(excess.identity_rate),
        _num(excess.placebo_rate),
        (f"{difference(excess.excess, excess.ci)}{mark}", f"{excess.excess:.6f}"),
    ]


def _examples(report: AuditReport) -> list[str]:
    items = []
    for finding in report.significant[:5]:
        for example in finding.examples[:2]:
            seed, other = _marked(str(example["text"]), str(example["counterfactual"]))
            items.append(
                f"<li><b>{_e(report.label(finding.rule_set))}</b><br>{seed} → "
                f"{_outcome(report, example['favorable'])}"
                f"{_e(acceptability_note(example.get('acceptability')))}<br>{other} → "
                f"{_outcome(report, example['counterfactual_favorable'])}"
                f"{_e(acceptability_note(example.get('counterfactual_acceptability')))}</li>"
            )
    if not items:
        return []
    return [
        "<h2>Counterfactual examples</h2>",
        "<p>Pairs that differ only in the highlighted words, with the model's decision "
        "and each text's acceptability score (the calibrated probability that a strict "
        "reader accepts it; 1 for a text as written).</p>",
        "<ul>" + "\n".join(items) + "</ul>",
    ]


def _outcome(report: AuditReport, favorable: bool) -> str:
    """The decision in the model's words; the unfavourable one in bold."""
    return _e(report.outcome) if favorable else f"<b>{_e(report.decision_name(False))}</b>"


def _marked(first: str, second: str, limit: int = 400) -> tuple[str, str]:
    """Both texts escaped, with the words that differ between them in <mark>."""
    a, b = re.findall(r"\S+|\s+", first[:limit]), re.findall(r"\S+|\s+", second[:limit])
    left, right = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        chunk_a, chunk_b = _e("".join(a[i1:i2])), _e("".join(b[j1:j2]))
        if tag == "equal":
            left.append(chunk_a)
            right.append(chunk_b)
        else:
            left.append(f"<mark>{chunk_a}</mark>" if chunk_a else "")
            right.append(f"<mark>{chunk_b}</mark>" if chunk_b else "")
    return "".join(left), "".join(right)


def _label_metrics(metrics: LabelMetrics) -> list[str]:
    """The label metrics' table (terms with at least one metric), each value with its
    interval, and the notes: starred gaps, what "too few texts" means, the terms with none."""

    def cell(s: SubgroupMetrics, kind: str) -> tuple[str, str]:
        value = getattr(s, kind)
        if kind in words.AUC_NAMES:
            gap = s.gaps.get(kind)
            text = words.auc_cell(s, kind, metrics) + (" *" if gap and gap.significant else "")
        else:
            text = words.points_cell(s, kind, metrics)
        return _e(text), "" if value != value else f"{value:.6f}"

    some, _ = words.split(metrics)
    rows = [
        [
            (_e(s.subgroup), None),
            (
                _e(f"{s.positives} / {s.negatives}" if s.positives is not None else s.size),
                str(s.size),
            ),
            *(cell(s, kind) for kind in (*words.AUC_NAMES, "fpr_gap", "fnr_gap")),
        ]
        for s in (some if metrics.min_per_class else metrics.subgroups)
    ]
    notes = [words.gaps_note(metrics), words.too_few_note(metrics), words.none_note(metrics)]
    confidence = round(100 * (metrics.confidence or 0.95))
    return [
        "<h2>Label-based metrics</h2>",
        f"<p>Overall AUC {_e(words.auc_cell(None, '', metrics))}. Low BPSN: harmless "
        "mentions over-flagged; low BNSP: harmful ones missed. Rate gaps: the term's rate "
        f"minus the overall rate, in points. Intervals at {confidence}%, each on its own.</p>",
        _table(
            "labels",
            f"Per identity term; the AUCs rank texts labelled {metrics.positive_label} first",
            [
                "term",
                f"texts ({words.classes(metrics)})",
                *words.AUC_NAMES.values(),
                "FPR gap (points)",
                "FNR gap (points)",
            ],
            rows,
        ),
        *(f"<p>{_e(note)}</p>" for note in notes if note),
    ]


def _table_metrics(metrics: TableMetrics) -> list[str]:
    rows = []
    for name, g in metrics.groups.items():
        di = g.disparate_impact
        cells = [(_e(name), None), _band(di, di != di or 0.8 <= di <= 1.25, digits=3)]
        for value in (
            g.statistical_parity_difference,
            g.equal_opportunity_difference,
            g.average_odds_difference,
            g.error_rate_difference,
        ):
            cells.append(_band(value, value != value or abs(value) <= 0.1, digits=3))
        cells.append((str(g.n_unprivileged), str(g.n_unprivileged)))
        rows.append(cells)
    return [
        "<h2>Group metrics</h2>",
        "<p>Shaded cells lie outside the reference bands: DI outside [0.8, 1.25], the "
        f"differences outside ±0.1. Consistency {metrics.consistency:.3f} (over "
        f"{metrics.consistency_rows} rows), Theil index {metrics.theil_index:.4f}.</p>",
        _table(
            "groups",
            "Each value against the rest",
            ["group", "DI", "SPD", "EOD", "AOD", "ERD", "rows"],
            rows,
        ),
    ]


def _run(report: AuditReport) -> list[str]:
    run = report.run
    return [
        "<h2>The run</h2>",
        f"<p>{run.requested:,} inputs requested, {run.unique_inputs:,} unique, "
        f"{_e(run.queries())} in {run.model_calls:,} calls, "
        f"{run.cache_hits:,} cache hits, {run.seconds} s; seed {report.seed}; textfair "
        f"{_e(report.textfair_version)}.{_e(run.reading_said())}</p>",
        f"<p>To reproduce: <code>{_e(report.command)}</code></p>",
    ]
