"""The report page's figures, each with its caption: the forest plot of the findings, each
category's rates per term, its term pairs' flips, and the two-category rule sets.

The page (`textfair.report.html`) places them among its sections and tables; `plots` draws
them (matplotlib, inline SVG). Apart from the page because they are its one heavy part:
which terms a large category's figure can show (SHOWN_TERMS), and the sentences under
each figure that say what it leaves out.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np

from textfair.discovery.keptpairs import pair_order
from textfair.report import _plots as plots
from textfair.report._numbers import difference
from textfair.report._page import escape as _e
from textfair.report._page import percent as _pct
from textfair.stats import proportion

# Only a type here: AuditReport's notebook methods (save, to_html, the Jupyter views) call
# the renderers, so importing the model at run time would close a cycle.
if TYPE_CHECKING:
    from textfair.discovery.results import Excess, GroupScore, PairShift
    from textfair.report.model import AuditReport
    from textfair.report.parts import Counterfactual

__all__ = ["findings_figure", "group_figures", "term_pair_figures", "two_category_figures"]

FOREST_ROWS = 30  # the forest plot shows the most credible findings; the table has them all


def findings_figure(report: AuditReport) -> str:
    """The forest plot of the FOREST_ROWS most credible findings (folded as the views fold
    them), each difference with its interval, the gate's marks when the audit had one."""
    folded = report.shown_findings()
    shown = [f for f, _ in folded[:FOREST_ROWS]]
    gate, outcome = report.gate, report.outcome
    plot = plots.forest(
        [report.shown_label(f, n) for f, n in folded[:FOREST_ROWS]],
        [f.phi_r - f.phi_not_r for f in shown],
        [f.ci for f in shown],
        [f.significant for f in shown],
        thresholds=None if gate is None else [gate.threshold(f.rule_set) for f in shown],
        description=f"Forest plot of the {len(shown)} most credible rule sets: difference of "
        f"the {outcome} rate with its interval; filled points are significant.",
        outcome=outcome,
    )
    line = (
        ""
        if gate is None
        else f"; orange marks at ± the gate, {gate.describe()} (--fail-above {gate})"
    )
    return (
        f"<figure>{plot}<figcaption>Most credible first: the {_e(outcome)} rate with the rule "
        "set minus without it, percentage points, with its interval; filled points are "
        f"significant after correction{_e(line)}. {_e(report.intervals_statement)}"
        "</figcaption></figure>"
    )


def group_figures(report: AuditReport, result: Counterfactual) -> list[str]:
    """Per category of the causal tests and per axis of it, its terms' rates of the
    favourable label with Wilson intervals, each on the texts that may take the term (drawn
    beside its name), captioned with the group score and its excess over the placebo edit.
    A category of several axes (gender: gender identity, sexual orientation) gets a
    figure per axis: a swap stays on its axis, so rates of different axes rest on
    different texts and are not drawn side by side."""
    parts: list[str] = []
    confidence = report.settings.confidence
    for group in result.group:
        axes: dict[str, dict[str, float]] = {}
        for term, rate in group.rates.items():
            axes.setdefault(report.term_axis(group.category, term), {})[term] = rate
        for axis, rates in sorted(axes.items()):
            terms = _shown_rates(rates)
            values = [rates[t] for t in terms]
            counts = [term_seeds(group, t) for t in terms]
            intervals = []
            for value, n in zip(values, counts, strict=True):
                share = proportion(round(value * n), n, confidence)
                intervals.append((share.low, share.high))
            name = group.category if axis == group.category else f"{group.category}, {axis}"
            plot = plots.rates(
                [f"{term} ({n:,})" for term, n in zip(terms, counts, strict=True)],
                values,
                intervals,
                description=f"{report.outcome} rate per {name} term, with Wilson intervals.",
            )
            whole = (
                ""
                if len(axes) == 1
                else f" (the terms of its {axis} axis; the category's other axes are drawn "
                "apart, and the group score and excess below are the category's)"
            )
            parts.append(
                f"<figure>{plot}<figcaption>{_e(name)}: the {_e(report.outcome)} rate of the "
                f"{group.n} {_e(report.inputs)} sampled from those that name {_e(group.category)} "
                "and can be rewritten"
                f"{_e(whole)}, "
                "each written with each term it may take (a term of another axis or one "
                "that clashes is not written, so two terms' rates may rest on different "
                f"{_e(report.inputs)}; beside each term, the {_e(report.inputs)} its rate "
                f"and interval rest on){_rates_caption(terms, rates)}. "
                f"{_e(_group_score_sentence(group, report.inputs))}"
                f"{_group_excess(group.category, group.excess)}{_group_strict(report, group)}"
                "</figcaption></figure>"
            )
    return parts


def term_seeds(group: GroupScore, term: str) -> int:
    """The seeds a term's rate rests on; in a report written before they were kept, the
    category's seeds (the old figure's count, an upper bound)."""
    if group.seeds_per_term is None:
        return group.n
    return group.seeds_per_term[term]


def _group_score_sentence(group: GroupScore, inputs: str) -> str:
    """The group score in words, or why there is none: when no two terms were written into
    one text, the rates above are of different texts and compare nothing."""
    if group.pairs_compared == 0:
        one = inputs.removesuffix("s")
        return (
            f"No group score: no two terms were written into the same {one}, so "
            f"the rates above rest on different {inputs} and no difference between them is "
            "measured."
        )
    return (
        f"Group score {_pct(group.score)} points: the largest difference between two terms "
        "on the texts written with both."
    )


def term_pair_figures(report: AuditReport, result: Counterfactual) -> list[str]:
    """Per category of the causal tests and per axis of it, a heatmap of its term pairs:
    how often replacing the row's term by the column's flips the decision, beyond the
    placebo edit's where there is one. A swap stays on its axis, so each axis is a
    matrix of its own."""
    parts: list[str] = []

    def axis_of(pair: PairShift) -> str:
        axis = report.term_axis(pair.category, pair.source)
        return pair.category if axis == pair.category else f"{pair.category}, {axis}"

    for category, grouped in itertools.groupby(
        sorted(result.term_pairs, key=lambda p: (p.category, axis_of(p))), key=axis_of
    ):
        pairs = list(grouped)
        every = {p.source for p in pairs} | {p.target for p in pairs}
        shown = _shown_pair_terms(pairs)
        pairs = [p for p in pairs if p.source in shown and p.target in shown]
        terms = sorted(shown)
        index = {t: i for i, t in enumerate(terms)}
        matrix = np.full((len(terms), len(terms)), np.nan)
        # With placebo edits, a cell is what identity adds: the pair's flip rate minus the
        # placebo's on the same texts; without (table rows), the flip rate itself.
        beyond = all(pair.excess is not None for pair in pairs)
        for pair in pairs:
            value = pair.excess.excess if beyond and pair.excess is not None else pair.flip_rate
            matrix[index[pair.source], index[pair.target]] = value
        what = "flips beyond the placebo edit's" if beyond else "decisions flipped"
        plot = plots.heatmap(
            terms,
            terms,
            matrix,
            unit=f"{what}, points" if beyond else f"{what}, %",
            diverging=beyond,
            description=f"{category}: {what} when the row term is replaced by the column term.",
        )
        said = (
            "how much more often the decision flips when the row's term is replaced by the "
            "column's than when a neutral word is written before it (percentage points; "
            "report.md's term-pair table and report.json's term_pairs hold their intervals)"
            if beyond
            else "share of texts whose decision flips when the row's term is replaced by the "
            "column's (percent)"
        )
        parts.append(
            f"<figure>{plot}<figcaption>{_e(category)}: {said}; blank: no text names the row's "
            f"term alone{_pair_terms_caption(terms, every)}.</figcaption></figure>"
        )
    return parts


# A figure shows at most this many terms of a category: a matrix of 3,000 terms would be 9
# million cells (gigabytes to draw, nothing to read); report.json keeps the numbers.
SHOWN_TERMS = 40


def _shown_rates(rates: dict[str, float]) -> list[str]:
    """The terms whose rate the figure draws, by name: all of them, or of a large
    category the SHOWN_TERMS / 2 lowest rates and as many highest."""
    if len(rates) <= SHOWN_TERMS:
        return sorted(rates)
    by_rate = sorted(rates, key=lambda term: (rates[term], term))
    half = SHOWN_TERMS // 2
    return sorted(by_rate[:half] + by_rate[-half:])


def _rates_caption(terms: list[str], rates: dict[str, float]) -> str:
    """What the rates figure leaves out, in words (nothing when it shows every term)."""
    if len(terms) == len(rates):
        return ""
    return (
        f"; of its {len(rates):,} terms, the {len(terms) // 2} with the lowest rate and the "
        f"{len(terms) - len(terms) // 2} with the highest are drawn (report.json holds every rate)"
    )


def _shown_pair_terms(pairs: list[PairShift]) -> set[str]:
    """The terms of the term-pair matrix: all of them, or of a large category those of
    its most harmful pairs (the report's order), until SHOWN_TERMS are taken."""
    shown: set[str] = set()
    for pair in sorted(pairs, key=pair_order):
        for term in (pair.source, pair.target):
            if len(shown) < SHOWN_TERMS:
                shown.add(term)
        if len(shown) == SHOWN_TERMS:
            break
    return shown


def _pair_terms_caption(terms: list[str], every: set[str]) -> str:
    """What the term-pair matrix leaves out, in words (nothing when it shows every term)."""
    if len(terms) == len(every):
        return ""
    return (
        f"; of the {len(every):,} terms in its kept pairs, the {len(terms)} of the most "
        "harmful pairs are drawn (report.json holds every kept pair)"
    )


def _group_excess(category: str, excess: Excess | None) -> str:
    """The group score's excess in a sentence (nothing without placebo edits)."""
    if excess is None or not excess.n:
        return ""
    verdict = "significant" if excess.significant else "not significant"
    return _e(
        f" Over every rewrite to another {category} term (not the one swap per text of the "
        f"causal table): a rewrite flips {excess.identity_rate * 100:.1f}% of decisions, a "
        f"placebo edit {excess.placebo_rate * 100:.1f}%: excess "
        f"{difference(excess.excess, excess.ci)} points, {verdict} "
        f"({excess.n} texts with both edits)."
    )


def _group_strict(report: AuditReport, group: GroupScore) -> str:
    """The group score's excess on its high-scoring seeds in a sentence, in plain words
    where it does not hold there (nothing without scores)."""
    strict, excess = group.strict, group.excess
    if strict is None or excess is None or not excess.n:
        return ""
    holds = report.holds_on(excess.ci, strict)
    said = (
        f" On the {strict.n} {report.inputs} whose rewrites all score at least "
        f"{strict.level:g} (mean acceptability {group.acceptability or 0:.2f}): excess "
        f"{difference(strict.estimate, strict.ci)} points"
        if strict.n
        else f" None of its {report.inputs} has every rewrite scoring at least {strict.level:g}"
    )
    flag = "; it does not hold there." if holds is False else "."
    return _e(said + flag)


def two_category_figures(report: AuditReport) -> list[str]:
    """Heatmaps of the two-category rule sets: one per pair of categories."""
    by_pair: dict[tuple[str, str], dict[tuple[str, str], float]] = {}
    for finding in report.findings:
        rules = list(finding.rule_set)
        if len(rules) != 2 or rules[0].category == rules[1].category:
            continue
        first, second = sorted(rules, key=lambda r: r.category)
        cell = (first.value, second.value)
        by_pair.setdefault((first.category, second.category), {})[cell] = (
            finding.phi_r - finding.phi_not_r
        )
    parts: list[str] = []
    for (left, right), cells in sorted(by_pair.items()):
        rows = sorted({a for a, _ in cells})
        columns = sorted({b for _, b in cells})
        matrix = np.full((len(rows), len(columns)), np.nan)
        for (a, b), value in cells.items():
            matrix[rows.index(a), columns.index(b)] = value
        plot = plots.heatmap(
            rows,
            columns,
            matrix,
            unit=f"difference of the {report.outcome} rate, points",
            description=f"Difference of the {report.outcome} rate for each frequent {left} and "
            f"{right} rule set.",
        )
        if not parts:
            parts.append("<h2>Two categories at once</h2>")
        parts.append(
            f"<figure>{plot}<figcaption>{_e(left)} × {_e(right)}: the {_e(report.outcome)} "
            "rate of texts satisfying both rules minus the rest, percentage points (blank: "
            "not frequent enough to test).</figcaption></figure>"
        )
    return parts
