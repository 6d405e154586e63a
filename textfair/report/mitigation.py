"""The before/after report of `textfair mitigate`, as Markdown."""

from __future__ import annotations

__all__ = ["render_mitigation"]


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _side(side: dict | None) -> str:
    if side is None:
        return "not tested"
    low, high = side["ci"]
    mark = " *" if side["significant"] else ""
    return f"{_pct(side['score'])} [{100 * low:+.1f}, {100 * high:+.1f}]{mark}"


def render_mitigation(report: dict) -> str:
    """Status, the before/after scores with intervals, held-out quality and the loop's steps."""
    lines = [f"# Mitigation: {report['status']}", ""]
    data = report.get("data", {})
    if data:
        lines += [
            f"Model `{report['model']['id']}` ({report['model']['retrainer']}); "
            f"{data.get('train_rows')} training rows, {data.get('held_out_rows')} held out.",
            "",
        ]
    if report["comparison"]:
        lines += [
            "## Scores before and after (interval of the signed difference; * significant)",
            "",
            "| rule set | role | before | after | reduction |",
            "|---|---|---|---|---|",
        ]
        for row in report["comparison"]:
            reduction = "n/a" if row["reduction"] is None else f"{100 * row['reduction']:.0f}%"
            lines.append(
                f"| {row['rule_set']} | {row['role']} | {_side(row['before'])} | "
                f"{_side(row['after'])} | {reduction} |"
            )
        lines.append("")
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
            "| augmentation rows | worst target score | held-out accuracy | kept |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {s['added']} | {_pct(s['worst_target_score'])} | "
            f"{_pct(s['held_out_accuracy'])} | {'yes' if s['kept'] else ''} |"
            for s in report["steps"]
        ]
        lines.append("")
    lines.append(f"{report['run']['seconds']} s in all.")
    return "\n".join(lines) + "\n"


def _auc(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"
