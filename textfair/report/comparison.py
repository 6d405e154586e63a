"""comparison.json, comparison.md and comparison.html: mitigation methods side by side.

Every renderer reads the JSON form (`Comparison.to_dict()`), so `textfair report
comparison.json` can render a saved comparison again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from textfair.io import atomic_directory, check_output_directory
from textfair.report._page import escape, number, page, percent, table

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "COMPARISON_FILES",
    "comparison_verdict",
    "print_comparison",
    "render_comparison",
    "render_comparison_html",
    "worst_target",
    "write_comparison",
]

COMPARISON_FILES = ["comparison.json", "comparison.md", "comparison.html"]

CHANGES = {
    "model": "the model (retrained)",
    "inputs": "the inputs (the model sees them blinded)",
    "decisions": "the decisions (the model is unchanged)",
    "nothing": "nothing: the audited model",
}


def _outcomes(report: dict) -> list[dict]:
    return [report["baseline"], *report["methods"]]


def worst_target(outcome: dict) -> tuple[float, tuple[float, float]] | None:
    """The worst target after the method: its |difference| and that interval, made absolute."""
    rows = [t for t in outcome.get("targets", []) if t.get("after")]
    if not rows:
        return None
    row = max(rows, key=lambda t: abs(t["after"]["difference"]))
    low, high = row["after"]["ci"]
    if low > 0:
        interval = (low, high)
    elif high < 0:
        interval = (-high, -low)
    else:
        interval = (0.0, max(-low, high))
    return abs(row["after"]["difference"]), interval


def _points(report: dict) -> list:
    """Each method with results as a point of the trade-off (`textfair.mitigate.compare.Point`)."""
    from textfair.report.front import Point

    return [
        Point(
            o["method"],
            o["worst_target"],
            o["quality"]["accuracy"]["value"],
            bool(o.get("over_budget")),
        )
        for o in _outcomes(report)
        if not o.get("skipped") and o.get("worst_target") is not None and o.get("quality")
    ]


def _headline(report: dict) -> str | None:
    """The method the verdict leads with: the comparison's, or (a comparison saved before it
    recorded one) chosen again from its points the same way."""
    if "headline" in report:
        return report["headline"]
    from textfair.report.front import headline, pareto_front

    points = _points(report)
    # Every comparison.json records its front: read it, not worked out again.
    return headline(points, report.get("pareto") or pareto_front(points))


def _lost(outcome: dict) -> str:
    """The held-out accuracy a method lost against the audited model, in points, and
    whether that is over the budget ("2.3, over budget"); "–" for the audited model."""
    cost = outcome.get("accuracy_cost")
    if cost is None:
        return "–"
    return f"{percent(cost)}, over budget" if outcome.get("over_budget") else percent(cost)


def _cost(outcome: dict) -> str:
    """ "over budget: -2.3 points of accuracy", or "" within the budget."""
    if not outcome.get("over_budget"):
        return ""
    return f"over budget: {percent(-outcome['accuracy_cost'], True)} points of accuracy"


def comparison_verdict(report: dict) -> str:
    """The headline method (of the Pareto front: never one another method beats on both the
    worst target and held-out accuracy), the most accurate method, and the front."""
    ran = [o for o in report["methods"] if not o.get("skipped")]
    if not ran:
        return "No method could be run on this model."
    base = report["baseline"]
    by_name = {o["method"]: o for o in ran}
    lead = by_name.get(_headline(report) or "")
    parts = []
    if lead is not None and base.get("worst_target") is not None:
        over = f" ({_cost(lead)})" if lead.get("over_budget") else ""
        if lead["worst_target"] < base["worst_target"]:
            parts.append(
                f"of the Pareto front, {lead['method']}{over} left the smallest worst target: "
                f"{percent(lead['worst_target'])} points against "
                f"{percent(base['worst_target'])} for the audited model, at "
                f"{percent(lead['quality']['accuracy']['value'])}% held-out accuracy"
            )
        else:
            parts.append(
                f"no method lowered the worst target of the audited model "
                f"({percent(base['worst_target'])} points; the closest on the Pareto front, "
                f"{lead['method']}{over}, {percent(lead['worst_target'])})"
            )
    elif lead is None and any(o.get("worst_target") is not None for o in ran):
        parts.append("the audited model is better on both axes than every method")
    accurate = max(ran, key=lambda o: o["quality"]["accuracy"]["value"])
    parts.append(
        f"the highest held-out accuracy among the methods: {accurate['method']}, "
        f"{percent(accurate['quality']['accuracy']['value'])}% (the audited model "
        f"{percent(base['quality']['accuracy']['value'])}%)"
    )
    costly = [o["method"] for o in ran if o.get("over_budget")]
    if costly:
        budget = percent(report.get("max_accuracy_drop", 0.01))
        parts.append(
            f"over the accuracy budget ({budget} points): {', '.join(costly)}, kept to show "
            "what they cost"
        )
    if not report.get("targets_significant", True):
        parts.append(
            "no finding of the audited model was significant, so the targets are its most "
            "credible findings"
        )
    front = ", ".join(_name(m) for m in report.get("pareto") or []) or "no method"
    parts.append(f"on the Pareto front (no method better on both): {front}")
    sentence = "; ".join(parts) + "."
    return sentence[:1].upper() + sentence[1:]


def _name(method: str) -> str:
    return "the audited model" if method == "none" else method


def _cell(text: object) -> str:
    """Text for a Markdown table cell: a rule set's "|" would end the cell."""
    return str(text).replace("|", "\\|")


def _interval(block: dict | None) -> str:
    if not block or block.get("value") is None:
        return "n/a"
    low, high = block["ci"] or (None, None)
    if low is None:
        return f"{percent(block['value'])}"
    return f"{percent(block['value'])} [{percent(low)}, {percent(high)}]"


def _change(target: dict) -> str:
    change = target.get("change")
    if not change:
        return "n/a"
    low, high = change["ci"]
    return f"{percent(change['estimate'], True)} [{percent(low, True)}, {percent(high, True)}]"


def render_comparison(report: dict) -> str:
    """comparison.md: the verdict, one row per method, then each method's targets."""
    split = report["split"]
    lines = [
        f"# Mitigation methods compared: {report.get('model_id') or 'the model'}",
        "",
        comparison_verdict(report),
        "",
        f"One seeded split (seed {report['seed']}): {split['train']} training rows (of which "
        f"{split['validation']} validation rows for post-processing), {split['evaluation']} "
        "evaluation rows. Every number below is measured on the evaluation rows.",
        "",
        "| method | stage | changes | worst target, points | largest abs. SPD, points "
        "| accuracy % | accuracy lost, points | macro F1 % | ROC AUC % | seconds |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for outcome in _outcomes(report):
        if outcome.get("skipped"):
            lines.append(
                f"| {outcome['method']} | {outcome['stage']} "
                f"| not run: {_cell(outcome['skipped'])} | | | | | | | |"
            )
            continue
        quality = outcome["quality"]
        lines.append(
            f"| {outcome['method']} | {outcome['stage'] or '-'} | {outcome['changes']} "
            f"| {_worst_cell(outcome)} | {percent(outcome.get('worst_spd'))} "
            f"| {_interval(quality['accuracy'])} | {_lost(outcome)} "
            f"| {_interval(quality['f1_macro'])} "
            f"| {_interval(quality['roc_auc'])} | {outcome['seconds']} |"
        )
    lines += ["", "## Targets, before and after each method", ""]
    lines += [
        "The difference d = favourable rate with the rule set minus without it; the change "
        "is d after minus d before, with a conservative 95% interval.",
        "",
        "| method | target | before | after | change |",
        "|---|---|---|---|---|",
    ]
    for outcome in report["methods"]:
        for target in outcome.get("targets", []):
            before, after = target.get("before"), target.get("after")
            lines.append(
                f"| {outcome['method']} | {_cell(target['rule_set'])} "
                f"| {percent(before['difference'], True) if before else 'n/a'} "
                f"| {percent(after['difference'], True) if after else 'n/a'} "
                f"| {_change(target)} |"
            )
    notes = [o for o in report["methods"] if o.get("note")]
    if notes:
        lines += ["", "## What each method changed", ""]
        lines += [f"- **{o['method']}**: {CHANGES[o['changes']]}; {o['note']}." for o in notes]
    return "\n".join(lines) + "\n"


def _worst_cell(outcome: dict) -> str:
    worst = worst_target(outcome)
    if not worst:
        return "n/a"
    return f"{percent(worst[0])} [{percent(worst[1][0])}, {percent(worst[1][1])}]"


def print_comparison(report: dict, console: Console) -> None:
    """comparison.md's verdict and tables for a terminal, a pipe or a CI log: prose that a
    pipe does not break, tables that keep every column at 80 characters (a long cell cut with
    "…", never wrapped word by word), the methods that did not run one line each."""
    from textfair.report.mitigation import prose_options, terminal_table

    prose = prose_options(console)
    split = report["split"]
    console.print(f"Mitigation methods compared: {report.get('model_id') or 'the model'}", **prose)
    console.print(comparison_verdict(report), **prose)
    console.print(
        f"Seed {report['seed']}: {split['train']} training rows ({split['validation']} of them "
        f"for post-processing), {split['evaluation']} evaluation rows, where every number is "
        "measured.",
        **prose,
    )
    front, lead = set(report.get("pareto") or []), _headline(report)
    ran = [o for o in _outcomes(report) if not o.get("skipped")]
    rows = [
        [
            _name(o["method"]) if o["method"] != "none" else "none (audited)",
            o["stage"] or "-",
            _worst_cell(o),
            _interval(o["quality"]["accuracy"]),
            percent(o["accuracy_cost"]) + (" !" if o.get("over_budget") else "")
            if o.get("accuracy_cost") is not None
            else "–",
            ("lead" if o["method"] == lead else "yes") if o["method"] in front else "",
            # Whole seconds from 1,000 on, in the column's 5 characters ("1156", not "1156…").
            f"{o['seconds']:.1f}" if o["seconds"] < 1000 else f"{o['seconds']:.0f}",
        ]
        for o in ran
    ]
    console.print(
        terminal_table(
            "Methods on the evaluation rows",
            [
                ("method", 14),
                ("stage", 5),
                ("worst target\n[95% CI], points", 16),
                ("accuracy %\n[95% CI]", 17),
                ("lost", 6),
                ("front", 5),
                ("s", 5),
            ],
            rows,
        )
    )
    budget = percent(report.get("max_accuracy_drop", 0.01))
    console.print(
        f"lost: held-out accuracy lost against the audited model, points (! over the budget "
        f"of {budget}); front: on the Pareto front of accuracy against the worst target (lead: "
        "the verdict's method); s: seconds.",
        **prose,
    )
    for o in report["methods"]:
        if o.get("skipped"):
            console.print(f"not run: {o['method']}: {o['skipped']}", **prose)
    targets = [
        [
            o["method"],
            t["rule_set"],
            percent((t.get("before") or {}).get("difference"), True),
            percent((t.get("after") or {}).get("difference"), True),
            _change(t),
        ]
        for o in report["methods"]
        for t in o.get("targets", [])
    ]
    if targets:
        console.print()
        console.print(
            terminal_table(
                "Targets: d before and after, change [95% CI], points",
                [
                    ("method", 14),
                    ("target", 10, 80 - 14 - 6 - 6 - 21 - 4),
                    ("before", 6),
                    ("after", 6),
                    ("change", 21),
                ],
                targets,
            )
        )


def render_comparison_html(report: dict) -> str:
    """comparison.html: the verdict, the trade-off plot with the Pareto front, the tables."""
    from textfair.report._plots import methods_tradeoff

    parts = [
        f"<h1>Mitigation methods compared: {escape(report.get('model_id') or 'the model')}</h1>",
        f'<p class="verdict" id="verdict">{escape(comparison_verdict(report))}</p>',
    ]
    plotted = [
        (o, w)
        for o in _outcomes(report)
        if not o.get("skipped") and (w := worst_target(o)) is not None
    ]
    if plotted:
        plot = methods_tradeoff(
            [o["method"] for o, _ in plotted],
            [o["quality"]["accuracy"]["value"] for o, _ in plotted],
            [tuple(o["quality"]["accuracy"]["ci"]) for o, _ in plotted],
            [w[0] for _, w in plotted],
            [w[1] for _, w in plotted],
            report.get("pareto") or [],
            description="Held-out accuracy against the worst target for each method.",
        )
        parts += [
            "<h2>Accuracy against fairness</h2>",
            f"<figure>{plot}<figcaption>Each method (none: the audited model) at its held-out "
            "accuracy and its worst target's |difference|, with 95% intervals; the Pareto "
            "front (no other method better on both) filled and joined.</figcaption></figure>",
        ]
    rows = []
    for outcome in _outcomes(report):
        if outcome.get("skipped"):
            rows.append(
                [
                    (escape(outcome["method"]), None),
                    (escape(outcome["stage"]), None),
                    (escape(f"not run: {outcome['skipped']}"), None),
                    ("–", ""),
                    ("–", ""),
                    ("–", ""),
                    ("–", ""),
                    ("–", ""),
                ]
            )
            continue
        worst = worst_target(outcome)
        rows.append(
            [
                (escape(outcome["method"]), None),
                (escape(outcome["stage"] or "-"), None),
                (escape(CHANGES[outcome["changes"]]), None),
                number(worst[0] if worst else None),
                number(outcome.get("worst_spd")),
                number(outcome["quality"]["accuracy"]["value"]),
                (escape(_lost(outcome)), str(outcome.get("accuracy_cost") or "")),
                (escape(outcome["seconds"]), str(outcome["seconds"])),
            ]
        )
    parts += [
        "<h2>Methods</h2>",
        table(
            "methods",
            "Each method on the evaluation rows",
            [
                "method",
                "stage",
                "changes",
                "worst target, points",
                "largest |SPD|, points",
                "accuracy %",
                "accuracy lost, points",
                "seconds",
            ],
            rows,
        ),
    ]
    target_rows = [
        [
            (escape(o["method"]), None),
            (escape(t["rule_set"]), None),
            number((t.get("before") or {}).get("difference"), True),
            number((t.get("after") or {}).get("difference"), True),
            (escape(_change(t)), str((t.get("change") or {}).get("estimate", ""))),
        ]
        for o in report["methods"]
        for t in o.get("targets", [])
    ]
    if target_rows:
        parts += [
            "<h2>Targets before and after</h2>",
            table(
                "targets",
                "d = favourable rate with the rule set minus without; change = d after - d "
                "before, with a conservative 95% interval",
                ["method", "target", "before, points", "after, points", "change, points"],
                target_rows,
            ),
        ]
    return page("textfair mitigation comparison", parts)


def write_comparison(
    report: dict,
    directory: str | Path,
    *,
    overwrite: bool = False,
    owned: list[str] = COMPARISON_FILES,
) -> Path:
    """comparison.json, .md and .html into `directory`, replaced as one set (`owned`: the
    names an earlier run of the same command may have left there)."""
    out = Path(directory)
    check_output_directory(out, owned, overwrite)
    text = json.dumps(report, indent=2, ensure_ascii=False, default=str) + "\n"
    written = json.loads(text)  # render what was written, so a saved file renders the same
    with atomic_directory(out, replace=overwrite) as staging:
        for name, content in (
            ("comparison.json", text),
            ("comparison.md", render_comparison(written)),
            ("comparison.html", render_comparison_html(written)),
        ):
            with open(staging / name, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(content)
    return out / "comparison.json"
