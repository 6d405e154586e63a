"""Render an audit report: Markdown for people and files, rich tables for the terminal."""

from __future__ import annotations

import json
from pathlib import Path

from textfair.io import atomic_writer

__all__ = ["render_markdown", "render_terminal", "write_report"]


def _rule_set(rule_set: list[dict]) -> str:
    """Text rule sets as {"gay", "taoist"}; tabular ones as {sex ∈ Female, race ∈ Black}."""
    if rule_set and "term" in rule_set[0]:
        return "{" + ", ".join(f'"{r["term"]}"' for r in rule_set) + "}"
    return "{" + ", ".join(f"{r['feature']} ∈ {r['values']}" for r in rule_set) + "}"


def _pct(value) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _signed(value) -> str:
    return "-" if value is None else f"{100 * value:+.1f}%"


def _interval(ci) -> str:
    return f"[{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]"


def render_markdown(report: dict, top: int = 10) -> str:
    """The report as Markdown: findings, causal tests, label metrics, run statistics."""
    config, run = report["config"], report["run"]
    lines = [
        "# textfair audit",
        "",
        f"Model `{report['model']['id']}` (favourable label: `{report['model']['favorable']}`) on "
        f"`{report['data'].get('path', '')}`: {report['data']['rows']} rows"
        + (
            f", {report['data']['mentioning_rows']} mentioning an identity term"
            if "mentioning_rows" in report["data"]
            else ""
        )
        + f". Seed {report['seed']}; `{report['command']}`.",
        "",
        f"## Group fairness ({report['rule_sets_tested']} rule sets, mode {config['mode']}, "
        f"{config['correction']} correction, {int(100 * config['confidence'])}% intervals)",
        "",
        "Ranked by the credible difference: the end of the interval nearest zero (0 when the "
        "interval contains 0), then by score.",
        "",
        "| rule set | favourable with | without | score | interval of the difference | "
        "credible difference | p (adjusted) | significant | seeds |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for f in report["findings"][:top]:
        lines.append(
            f"| {_rule_set(f['rule_set'])} | {_pct(f['phi_r'])} | {_pct(f['phi_not_r'])} | "
            f"{_pct(f['score'])} | {_interval(f['ci'])} | {_signed(f.get('credible_bound'))} | "
            f"{f['p_adjusted']:.3g} | "
            f"{'yes' if f['significant'] else 'no'} | {f['n_r']} |"
        )
    significant = [f for f in report["findings"] if f["significant"]]
    lines += [
        "",
        f"{len(significant)} of {report['rule_sets_tested']} rule sets differ "
        "significantly after correction.",
    ]
    for f in significant[:3]:
        for example in f["examples"][:1]:
            lines += [
                "",
                f"Example for {_rule_set(f['rule_set'])}:",
                "",
                f"- {example['text'][:200]!r} → favourable: {example['favorable']}",
                f"- {example['counterfactual'][:200]!r} → favourable: "
                f"{example['counterfactual_favorable']}",
            ]
    causal = report.get("counterfactual")
    if causal:
        lines += [
            "",
            "## Causal tests (share of texts whose label flips when only identity terms change)",
            "",
            "| categories | flip rate | interval | texts |",
            "|---|---|---|---|",
        ]
        for c in causal["causal"]:
            lines.append(
                f"| {' + '.join(c['categories'])} | {_pct(c['flip_rate'])} | "
                f"[{_pct(c['ci'][0])}, {_pct(c['ci'][1])}] | {c['n']} |"
            )
        lines += [
            "",
            f"{causal['tests_run']} category sets tested of "
            f"{causal['tests_without_pruning']}; sound pruning saved "
            f"{causal['tests_without_pruning'] - causal['tests_run']} (a superset is pruned only "
            "when a subset's whole interval lies above the threshold).",
            "",
            "| category | group score (max − min favourable rate) | lowest | highest |",
            "|---|---|---|---|",
        ]
        for g in causal["group"]:
            if g["rates"]:
                low = min(g["rates"], key=g["rates"].get)
                high = max(g["rates"], key=g["rates"].get)
                lines.append(
                    f"| {g['category']} | {_pct(g['score'])} | {low} "
                    f"({_pct(g['rates'][low])}) | {high} ({_pct(g['rates'][high])}) |"
                )
    metrics = report.get("metrics")
    if metrics and "groups" in metrics:
        lines += _group_metrics_lines(metrics)
    elif metrics:
        means = metrics["generalized_mean"]
        lines += [
            "",
            "## Label-based metrics",
            "",
            f"Overall AUC {metrics['overall_auc']:.3f}; generalized means (power "
            f"{metrics['power']}): subgroup AUC {means['subgroup_auc']:.3f}, BPSN AUC "
            f"{means['bpsn_auc']:.3f}, BNSP AUC {means['bnsp_auc']:.3f}; FPR equality "
            f"difference {metrics['fpr_equality_difference']:.3f}, FNR "
            f"{metrics['fnr_equality_difference']:.3f}.",
        ]
    lines += [
        "",
        "## Run",
        "",
        f"{run['requested']} texts requested, {run['unique_inputs']} unique, "
        f"{run['model_queries']} model queries in {run['model_calls']} calls, "
        f"{run['cache_hits']} cache hits, {run['seconds']} s.",
    ]
    return "\n".join(lines) + "\n"


def _group_metrics_lines(metrics: dict) -> list[str]:
    lines = [
        "",
        "## Group metrics (each group against the rest)",
        "",
        "| group | DI | SPD | EOD | AOD | ERD |",
        "|---|---|---|---|---|---|",
    ]
    keys = (
        "disparate_impact",
        "statistical_parity_difference",
        "equal_opportunity_difference",
        "average_odds_difference",
        "error_rate_difference",
    )
    for name, values in metrics["groups"].items():
        cells = ["-" if values[k] is None else f"{values[k]:.3f}" for k in keys]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Consistency {metrics['consistency']:.3f} (on {metrics['consistency_rows']} "
        f"rows), Theil index {metrics['theil_index']:.4f}.",
    ]
    return lines


def render_terminal(report: dict, top: int = 10, console=None) -> None:
    """A summary with rich tables."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    table = Table(
        title=f"Group fairness: top {min(top, len(report['findings']))} of "
        f"{report['rule_sets_tested']} rule sets"
    )
    for column in (
        "rule set",
        "favourable with",
        "without",
        "score",
        "interval",
        "credible",
        "p adj.",
        "significant",
    ):
        table.add_column(column)
    for f in report["findings"][:top]:
        table.add_row(
            _rule_set(f["rule_set"]),
            _pct(f["phi_r"]),
            _pct(f["phi_not_r"]),
            _pct(f["score"]),
            _interval(f["ci"]),
            _signed(f.get("credible_bound")),
            f"{f['p_adjusted']:.3g}",
            "[bold red]yes[/]" if f["significant"] else "no",
        )
    console.print(table)
    causal = report.get("counterfactual")
    if causal:
        flips = Table(title="Causal tests: label flips when only identity terms change")
        for column in ("categories", "flip rate", "interval", "texts"):
            flips.add_column(column)
        for c in causal["causal"]:
            flips.add_row(
                " + ".join(c["categories"]),
                _pct(c["flip_rate"]),
                f"[{_pct(c['ci'][0])}, {_pct(c['ci'][1])}]",
                str(c["n"]),
            )
        console.print(flips)
    run = report["run"]
    console.print(
        f"{run['model_queries']} model queries for {run['requested']} texts requested "
        f"({run['cache_hits']} cache hits), {run['seconds']} s."
    )


def write_report(report: dict, directory: str | Path, top: int = 10) -> tuple[Path, Path]:
    """Write report.json and report.md into `directory`, each atomically."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / "report.json", out / "report.md"
    with atomic_writer(json_path) as handle:
        json.dump(report, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    with atomic_writer(md_path) as handle:
        handle.write(render_markdown(report, top))
    return json_path, md_path
