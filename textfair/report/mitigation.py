"""The before/after report of `textfair mitigate`, as Markdown and as a page."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textfair.report._page import escape, number, page, percent, table
from textfair.report._plots import before_after, tradeoff
from textfair.report.markdown import code_span, markdown_cell, markdown_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from textfair.report.terminal import PrintOptions

__all__ = [
    "mitigation_verdict",
    "print_mitigation",
    "prose_options",
    "render_mitigation",
    "render_mitigation_html",
    "terminal_table",
]


def _size(value: float | None) -> str:
    """The size of a difference (a worst target score), in points: ``8.0``."""
    return "n/a" if value is None else f"{100 * value:.1f}"


def _pct(value: float | None) -> str:
    """A rate as a percentage: ``84.3%``."""
    return "n/a" if value is None else f"{_size(value)}%"


def _side(side: dict | None) -> str:
    """The signed difference with its interval, in points: "+9.7 [+4.7, +14.4] *"."""
    if side is None:
        return "not tested"
    low, high = side["ci"]
    mark = " *" if side["significant"] else ""
    difference = side["phi_r"] - side["phi_not_r"]
    return f"{100 * difference:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]{mark}"


def render_mitigation(report: dict) -> str:
    """Status, the before/after scores with intervals, held-out quality and the loop's steps."""
    lines = [f"# Mitigation: {markdown_text(report['status'])}", ""]
    if line := _data_line(report, code_span):
        lines += [line, ""]
    if report["comparison"]:
        lines += [
            "## Before and after (difference of the favourable rate and its interval, in "
            "points; * significant)",
            "",
            "| rule set | role | before | after | change of the size (points) | reduction |",
            "|---|---|---|---|---|---|",
        ]
        for row in report["comparison"]:
            cells = [
                row["rule_set"],
                row["role"],
                _side(row["before"]),
                _side(row["after"]),
                _change(row),
                _reduction(row),
            ]
            lines.append("| " + " | ".join(map(markdown_cell, cells)) + " |")
        lines += [
            "",
            "Reduction: the relative fall of the score, shown when the score before was at "
            "least 2 points (from a smaller base a relative change is noise).",
            "",
        ]
    held = report.get("held_out") or {}
    if held.get("before"):
        after = held.get("after") or {}
        lines += [
            f"## Held-out split ({held.get('rows')} rows)",
            "",
            "| | accuracy | ROC AUC |",
            "|---|---|---|",
            f"| before | {_pct(held['before']['accuracy'])} | {_auc(held['before']['roc_auc'])} |",
            f"| after | {_pct(after.get('accuracy'))} | {_auc(after.get('roc_auc'))} |",
            "",
        ]
    if report["steps"]:
        lines += [
            "## Retraining steps",
            "",
            "| augmentation rows | worst target score (points) | held-out accuracy | kept |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {s['added']}{' (past --max-fraction)' if s.get('extended') else ''} | "
            f"{_size(s['worst_target_score'])} | "
            f"{_pct(s['held_out_accuracy'])} | {'yes' if s['kept'] else ''} |"
            for s in report["steps"]
        ]
        lines.append("")
    lines.append(f"{report['run']['seconds']} s in all.")
    return "\n".join(lines) + "\n"


def _data_line(report: dict, name: Callable[[object], str] = str) -> str:
    """The model and its data split; when the loop never ran (nothing was significant) the
    audit's data alone, said in words, not as "None training rows"."""
    data = report.get("data") or {}
    model = f"Model {name(report['model']['id'])} ({report['model']['retrainer']})"
    if data.get("train_rows") is not None:
        line = f"{model}; {data['train_rows']} training rows, {data['held_out_rows']} held out."
        if data.get("reported_seeds"):
            line += (
                f" Targets from the audit of every seed input; the kept step chosen on "
                f"{data['selection_seeds']} of them, before and after measured on the other "
                f"{data['reported_seeds']}."
            )
        return line
    if report.get("status", "").startswith("nothing to mitigate"):
        return (
            f"{model}: the audit found no significant finding, so there was nothing to aim "
            "the retraining at; no data was split and no model was retrained."
        )
    return ""


def _change(row: dict) -> str:
    """The score (the size of the difference) after minus before, in points, with which way
    it went: "-8.1, smaller", "+2.1, larger (worse)"."""
    change = _size_change(row)
    if change is None:
        return "n/a"
    points = round(100 * change, 1)
    if points == 0:
        return "0.0, unchanged"
    return f"{points:+.1f}, " + ("smaller" if points < 0 else "larger (worse)")


def _size_change(row: dict) -> float | None:
    if not row.get("before") or not row.get("after"):
        return None
    return row["after"]["score"] - row["before"]["score"]


def _difference(side: dict | None) -> tuple[float, tuple[float, float], bool] | None:
    """(signed difference, interval, significant) of a side, for the plot."""
    if side is None:
        return None
    return side["phi_r"] - side["phi_not_r"], tuple(side["ci"]), bool(side["significant"])


def _reduction(row: dict) -> str:
    if row["reduction"] is not None:
        return f"{100 * row['reduction']:.0f}%"
    return "base under 2 points" if row["before"] and row["after"] else "n/a"


def _auc(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def render_mitigation_html(report: dict) -> str:
    """A mitigation: before/after scores side by side, held-out terms, held-out accuracy
    and the accuracy–fairness trade-off of each retraining step."""
    parts = [
        f"<h1>Mitigation of {escape(report.get('model', {}).get('id', 'a model'))}</h1>",
        f'<p class="verdict" id="verdict">{escape(mitigation_verdict(report))}</p>',
    ]
    comparison = report.get("comparison", [])
    rows = [
        [
            (escape(row["rule_set"]), None),
            (escape(row["role"]), None),
            _signed_cell(row.get("before")),
            _signed_cell(row.get("after")),
            _change_cell(row),
            number(row.get("reduction")),
        ]
        for row in comparison
    ]
    if rows:
        plot = before_after(
            [f"{row['rule_set']} ({row['role']})" for row in comparison],
            [_difference(row.get("before")) for row in comparison],
            [_difference(row.get("after")) for row in comparison],
            description="Before and after: the difference of the favourable rate of each "
            "target and held-out term, with its interval.",
        )
        parts += [
            "<h2>Before and after</h2>",
            f"<figure>{plot}<figcaption>Each target and held-out term: the favourable rate "
            "with the rule set minus without it, in points, before (grey) and after (blue) "
            "retraining, with intervals; filled points are significant after correction. "
            "A fix moves the point toward 0 and its interval around 0.</figcaption></figure>",
            table(
                "comparison",
                "Targets and held-out terms (never written by the augmentation): signed "
                "differences with intervals, points; * significant",
                ["rule set", "role", "before", "after", "change of the size", "reduction %"],
                rows,
            ),
        ]
        worse = [row for row in comparison if (_size_change(row) or 0) >= 0.0005]
        if worse:
            parts.append(
                '<p class="muted">Larger after retraining (worse): '
                + escape(
                    "; ".join(
                        f"{row['rule_set']} ({row['role']}) {_side(row['before'])} → "
                        f"{_side(row['after'])}"
                        for row in worse
                    )
                )
                + ".</p>"
            )
    held = report.get("held_out") or {}
    if held.get("before"):
        after = held.get("after") or {}
        parts += [
            f"<h2>Held-out split ({escape(held.get('rows', '?'))} rows)</h2>",
            table(
                "held",
                "Quality of the model before and after, on rows no step trained on",
                ["model", "accuracy %"],
                [
                    [("before", None), number(held["before"].get("accuracy"))],
                    [("after", None), number(after.get("accuracy"))],
                ],
            ),
        ]
    steps = report.get("steps") or []
    if steps:
        chosen = next((i for i, s in enumerate(steps) if s.get("kept")), None)
        plot = tradeoff(
            [s["added"] for s in steps],
            [s["worst_target_score"] for s in steps],
            [s["held_out_accuracy"] for s in steps],
            chosen=chosen,
            description="Target score against held-out accuracy for each retraining step.",
        )
        parts += [
            "<h2>Accuracy and fairness at each step</h2>",
            f"<figure>{plot}<figcaption>Each retraining step: the worst target score against "
            "held-out accuracy, labelled with the augmentation rows added; the kept model is "
            "circled.</figcaption></figure>",
        ]
    parts.append(f"<p>{escape(report.get('run', {}).get('seconds', '?'))} s in all.</p>")
    return page("textfair mitigation", parts)


def _signed_cell(side: dict | None) -> tuple[str, str | None]:
    """A side as "+9.7 [+4.7, +14.4] *", sorted by its signed difference."""
    if side is None:
        return "not tested", ""
    return escape(_side(side)), f"{side['phi_r'] - side['phi_not_r']:.6f}"


def _change_cell(row: dict) -> tuple[str, str | None]:
    change = _size_change(row)
    text = escape(_change(row))
    if change is not None and round(100 * change, 1) > 0:
        text = f'<span class="out">{text}</span>'
    return text, "" if change is None else f"{change:.6f}"


def mitigation_verdict(report: dict) -> str:
    """One sentence: the status, the top target's score before and after, held-out accuracy."""
    sentence = f"Status: {report['status']}"
    targets = [row for row in report.get("comparison", []) if row.get("role") == "target"]
    if targets and targets[0].get("after"):
        top = targets[0]
        sentence += (
            f"; the top target {top['rule_set']} scored {percent(top['before']['score'])} points "
            f"before and {percent(top['after']['score'])} after"
        )
    held = report.get("held_out") or {}
    if held.get("before") and held.get("after"):
        sentence += (
            f"; held-out accuracy {percent(held['before']['accuracy'])}% before, "
            f"{percent(held['after']['accuracy'])}% after"
        )
    worse = [
        row
        for row in report.get("comparison", [])
        if row.get("role") != "target" and round(100 * (_size_change(row) or 0), 1) > 0
    ]
    if worse:
        sentence += "; larger after (worse): " + ", ".join(
            f"{row['rule_set']} {percent(row['before']['score'])} → "
            f"{percent(row['after']['score'])} points"
            for row in worse
        )
    return sentence + "."


def prose_options(console: Console) -> PrintOptions:
    """How `print_mitigation` and `print_comparison` print a sentence: as written (no
    markup, no highlighting), on one line in a pipe or a log."""
    return dict(markup=False, soft_wrap=not console.is_terminal, highlight=False)


def terminal_table(
    title: str,
    columns: list[tuple[str, int] | tuple[str, int, int]],
    rows: list[list[str]],
) -> Table:
    """A rich Table for a terminal, a pipe or a CI log: every column kept (never dropped),
    no cell wrapped; a cell too long for the console's width is cut with "…". `columns`:
    (header, least width) or (header, least, most) for a column of free text (a rule set),
    so that it cannot take the room of the numbers beside it."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    # No side edges and one space between columns: an 80-character pipe keeps room for the
    # cells (a boxed table spends 3 characters per column on its rules).
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
    )
    for header, least, *most in columns:
        table.add_column(
            Text(header),
            no_wrap=True,
            overflow="ellipsis",
            min_width=least,
            max_width=most[0] if most else None,
        )
    for row in rows:
        table.add_row(*(Text(str(cell), no_wrap=True, overflow="ellipsis") for cell in row))
    return table


def print_mitigation(report: dict, console: Console) -> None:
    """mitigation.md's content for a terminal or a pipe: the status and data in prose, each
    target and held-out term on one line, the held-out quality and the steps as tables that
    keep every column at 80 characters."""
    prose = prose_options(console)
    console.print(f"Mitigation: {report['status']}", **prose)
    if line := _data_line(report):
        console.print(line, **prose)
    rows = report.get("comparison") or []
    if rows:
        console.print(
            "\nBefore → after (difference of the favourable rate [interval], points; "
            "* significant):",
            **prose,
        )
        for row in rows:
            console.print(
                f"  {row['rule_set']} ({row['role']}): {_side(row['before'])} → "
                f"{_side(row['after'])}; size {_change(row)}, reduction {_reduction(row)}",
                **prose,
            )
    held = report.get("held_out") or {}
    if held.get("before"):
        after = held.get("after") or {}
        console.print()
        console.print(
            terminal_table(
                f"Held-out split ({held.get('rows')} rows)",
                [("model", 6), ("accuracy", 8), ("ROC AUC", 7)],
                [
                    ["before", _pct(held["before"]["accuracy"]), _auc(held["before"]["roc_auc"])],
                    ["after", _pct(after.get("accuracy")), _auc(after.get("roc_auc"))],
                ],
            )
        )
    if report.get("steps"):
        console.print()
        console.print(
            terminal_table(
                "Retraining steps",
                [
                    ("augmentation rows", 10),
                    ("worst target, points", 12),
                    ("accuracy", 8),
                    ("kept", 4),
                ],
                [
                    [
                        f"{s['added']}{' (extended)' if s.get('extended') else ''}",
                        _size(s["worst_target_score"]),
                        _pct(s["held_out_accuracy"]),
                        "yes" if s["kept"] else "",
                    ]
                    for s in report["steps"]
                ],
            )
        )
    console.print(f"\n{report['run']['seconds']} s in all.", **prose)
