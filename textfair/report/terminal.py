"""The audit in a terminal, a pipe or a CI log: compact rich tables that keep every column
(names folded, never cut), the reading notes, the run, and the verdict as the last line.

One of the report's renderers, apart from report.md's (`textfair.report.markdown`) and the
page's (`textfair.report.html`): it knows `AuditReport` only as a type, and prints rather
than returns, at the console's width.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypedDict

from textfair.core.counts import counted
from textfair.io import printable
from textfair.report import _labelwords as words
from textfair.report._coverage import corpus_words
from textfair.report._numbers import difference, percent
from textfair.report._strictcells import scored, strict_cells
from textfair.report.parts import LabelMetrics

# Only a type here: AuditReport's notebook methods call the renderers, so importing the
# model at run time would close a cycle.
if TYPE_CHECKING:
    from rich.console import Console, Group
    from rich.table import Table

    from textfair.report.model import AuditReport

__all__ = ["PrintOptions", "fitted_table", "render_terminal"]

# A table cell: plain text, or (text, rich style).
Cell = str | tuple[str, str]


class PrintOptions(TypedDict, total=False):
    """How a sentence is printed (`Console.print`'s keywords): without rich markup, soft-wrapped
    (one line in a log or a pipe), and, where given, without highlighting."""

    markup: bool
    soft_wrap: bool
    highlight: bool


# The name column folds (never cuts) its names down to this width before text cells are cut.
NAME_MIN_WIDTH = 30
# The narrowest a name column folds to, and a text cell (no digit in its column) is cut to
# with "…", before a table that still does not fit is printed as one line per row.
NAME_FOLD_MIN = 12
TEXT_MIN_WIDTH = 12


def fitted_table(
    title: str, columns: list[str], rows: Sequence[Sequence[Cell]], width: int
) -> Table | Group:
    """`rows` (cells: plain strings, or (text, style)) as a rich Table that fits `width`,
    every column kept: in a terminal, a pipe or a CI log alike.

    The first column holds names, folded over lines (after a space or a "|" between
    values) but never cut, at NAME_MIN_WIDTH or its longest name when there is room, and
    down to NAME_FOLD_MIN when there is not. The other columns never wrap: a column of
    numbers keeps its width (a number is never cut), and a column of words (no digit in any
    cell) is cut with "…", down to TEXT_MIN_WIDTH, widest first. A table that still cannot
    fit is printed as one line per row ("name: header value; header value"), which a log
    keeps whole.

    Returns
    -------
    renderable
        The table, or the lines.
    """
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    from textfair.report._labels import wrap_label

    pad = 3  # a space either side and a rule

    def text(cell: Cell) -> Text:
        return Text(*cell) if isinstance(cell, tuple) else Text(str(cell))

    def widest(index: int) -> int:
        lines = [*columns[index].splitlines(), *(text(row[index]).plain for row in rows)]
        return max(map(cell_len, lines)) + pad

    def words(index: int) -> bool:
        return not any(ch.isdigit() for row in rows for ch in text(row[index]).plain)

    longest = widest(0) - pad
    widths = {i: widest(i) for i in range(1, len(columns))}
    room = width - 1 - pad - sum(widths.values())
    least = min(longest, NAME_FOLD_MIN)
    # Cut text columns, widest first, until the names have room to fold.
    for index in sorted((i for i in widths if words(i)), key=lambda i: -widths[i]):
        if room >= least:
            break
        cut = min(widths[index] - (TEXT_MIN_WIDTH + pad), least - room)
        if cut > 0:
            widths[index] -= cut
            room += cut
    if room < least:
        return _row_lines(title, columns, [[text(c).plain for c in row] for row in rows])
    room = min(room, longest)
    table = Table(title=title, title_justify="left", padding=(0, 1))
    table.add_column(Text(columns[0]), no_wrap=True, min_width=room)
    for index, column in enumerate(columns[1:], start=1):
        table.add_column(
            Text(column),
            no_wrap=True,
            justify="right",
            overflow="ellipsis",
            max_width=widths[index] - pad,
        )
    for row in rows:
        name = "\n".join(wrap_label(text(row[0]).plain, room))
        table.add_row(Text(name), *(text(cell) for cell in row[1:]))
    return table


def _row_lines(title: str, columns: list[str], rows: list[list[str]]) -> Group:
    """A table too wide for its width, as one line per row: "name: header value; ...".
    Each header is written on one line ("difference [interval], points")."""
    from rich.console import Group
    from rich.text import Text

    heads = [" ".join(c.split()) for c in columns]
    lines = [Text(title)]
    for row in rows:
        cells = "; ".join(
            f"{head} {cell.strip()}" for head, cell in zip(heads[1:], row[1:], strict=True)
        )
        lines.append(Text(f"  {row[0]}: {cells}"))
    return Group(*lines)


def _marked(value: str, significant: bool) -> Cell:
    """A number that is significant: in bold red with a star (a star alone without colour)."""
    return (f"{value} *", "bold red") if significant else f"{value}  "


def render_terminal(report: AuditReport, top: int = 10, console: Console | None = None) -> None:
    """A summary that fits the terminal: compact tables (under 100 columns for the default
    audit; the full ones are in report.md and on the page) that keep every column, whose
    names fold but are never cut (see `fitted_table`), then the reading notes, the run, and
    the verdict as the last line. A log or a pipe, which has no width of its own, gets 100
    columns (or $COLUMNS)."""
    import os

    from rich.console import Console

    if console is None:
        console = Console()
        if not console.is_terminal:
            console = Console(width=int(os.environ.get("COLUMNS") or 0) or 100)
    # Sentences: rich breaks them at words in a terminal; in a log each stays one line, so
    # `grep Verdict:` finds all of it.
    prose: PrintOptions = {"markup": False, "soft_wrap": not console.is_terminal}

    def show(title: str, columns: list[str], rows: Sequence[Sequence[Cell]]) -> None:
        table = fitted_table(title, columns, rows, console.width)
        console.print(table, soft_wrap=not console.is_terminal)

    def section(report: AuditReport) -> None:
        findings = report.listed_findings(top)
        if findings:
            # Every significant finding is listed, beyond the top ones if need be.
            beyond = len(findings) > top
            show(
                f"Group fairness: {len(findings)} of {len(report.findings)} rule sets, the "
                f"{top} most credible and every significant one"
                if beyond
                else f"Group fairness: top {len(findings)} of "
                f"{counted(len(report.findings), 'rule set')}",
                [
                    "rule set",
                    "difference\n[interval], points",
                    f"{report.outcome}\nwith",
                    "without",
                    "p adj.",
                    report.unit,
                ],
                [
                    [
                        printable(report.shown_label(f, folded)),
                        _marked(difference(f.difference, f.ci), f.significant),
                        percent(f.phi_r),
                        percent(f.phi_not_r),
                        f"{f.p_adjusted:.3g}",
                        f"{f.n_r} !" if report.small(f) else str(f.n_r),
                    ]
                    for f, folded in findings
                ],
            )
            if scored(report):
                # A table of its own: beside the findings' columns it would not fit 100.
                show(
                    f"The same rule sets on the {report.unit} whose variants all score at least "
                    f"{report.strict_level:g}",
                    [
                        "rule set",
                        "acceptability\n(mean)",
                        "difference\n[interval], points, n",
                        "holds",
                    ],
                    [
                        [
                            printable(report.shown_label(f, folded)),
                            *strict_cells(report, f),
                            report.holds_words(f),
                        ]
                        for f, folded in findings
                    ],
                )
            console.print(
                f"* significant after {report.correction_name}; "
                "difference: the rate with the rule set minus without it (negative: its "
                f"{report.inputs} fare worse). {report.intervals_statement}",
                **prose,
            )
            left_out = report.left_out_words(top)
            if left_out:
                console.print(left_out, **prose)
        for note in report.reading_notes(top):
            console.print(printable(note), **prose)
        if isinstance(report.metrics, LabelMetrics):
            _terminal_label_metrics(report.metrics, show, lambda line: console.print(line, **prose))
        if report.counterfactual is not None:
            rows: list[list[Cell]] = []
            for c in report.counterfactual.causal:
                e = c.excess
                rows.append(
                    [
                        printable(" + ".join(c.categories)),
                        _marked(difference(e.excess, e.ci), e.significant) if e else "–",
                        percent(e.identity_rate) if e else "–",
                        percent(e.placebo_rate) if e else "–",
                        percent(c.score) if c.measured else "no text",
                        str(e.n) if e else "–",
                    ]
                )
            show(
                "Causal tests: decisions flipped when only identity terms change",
                [
                    "categories",
                    "excess\n[interval], points",
                    "identity\nswap",
                    "placebo\nedit",
                    "Themis\nscore",
                    f"{report.inputs}\nwith both",
                ],
                rows,
            )
            console.print(
                "Excess: how much more often one identity swap flips the decision (identity "
                "swap) than a neutral word written before the term (placebo edit), its interval "
                f"simultaneous over {counted(len(report.counterfactual.causal), 'test')} "
                "(Bonferroni), "
                f"* significant after {report.correction_name}; "
                f"Themis score: the share of the {report.inputs} sampled with any flip; "
                f"{report.inputs} with both: those the excess is measured on.",
                **prose,
            )

    if report.templates is None:
        # What the findings rest on, in the words of report.md's and the page's header.
        console.print(f"On your {report.inputs}: {section_heading(report)}", **prose)
        section(report)
    else:
        for heading, part in (("On your texts", report), ("On templates", report.templates)):
            console.print(f"{heading}: {section_heading(part)}", **prose)
            section(part)
    run = report.run
    templates = (
        f"; on templates {report.templates.run.queries()} in {report.templates.run.seconds} s"
        if report.templates is not None
        else ""
    )
    console.print(
        f"{report.run_words}, {run.seconds} s{templates}.{run.reading_said()}",
        **prose,
    )
    console.print(f"Verdict: {printable(report.summary())}", **prose)


def section_heading(report: AuditReport) -> str:
    """What a section of an audit with templates rests on, in a line: "1,492 texts: 366
    name an identity term, 172 can be rewritten" or "576 seeds from 153 templates
    (toxicity), never pooled with your texts" (`corpus_words`, as every surface says it)."""
    said = corpus_words(report)
    return f"{said}, never pooled with your texts" if "templates" in report.data else said


def _terminal_label_metrics(
    metrics: LabelMetrics,
    show: Callable[[str, list[str], Sequence[Sequence[Cell]]], None],
    say: Callable[[str], None],
) -> None:
    """One row per AUC with a value (term, kind, value with its interval, the term's texts
    of each class), starred where it differs significantly from the overall AUC: narrow
    enough for 80 columns. The AUCs left out have too few texts."""
    some, _ = words.split(metrics)
    rows = [
        [
            printable(s.subgroup),
            name,
            _marked(words.auc_cell(s, kind, metrics), bool(gap and gap.significant)),
            f"{s.positives} / {s.negatives}",
        ]
        for s in some
        for kind, name in words.AUC_NAMES.items()
        if s.intervals.get(kind)
        for gap in [s.gaps.get(kind)]
    ]
    if rows:
        show(
            f"Label metrics: AUCs with enough texts (overall {words.auc_cell(None, '', metrics)})",
            ["term", "AUC", "value [interval]", words.classes(metrics)],
            rows,
        )
    for note in (words.gaps_note(metrics), words.too_few_note(metrics)):
        if note:
            say(printable(note))
    rest = len(metrics.subgroups) - len({row[0] for row in rows})
    if rest and metrics.min_per_class:
        say(f"{rest} more terms have too few texts for any AUC; report.md lists them.")
