"""`textfair augment`: write augmentation data from an audit report or a training set."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from textfair.cli.app import app, command, split_list


@command(app, "augment")
def augment_command(
    data: Path = typer.Option(..., "--data", help="The training texts (CSV, TSV, JSONL)."),
    text_column: str = typer.Option(..., "--text-column"),
    out: Path = typer.Option(..., "--out", help="Write .csv or .jsonl augmentation data here."),
    method: str = typer.Option(
        "counterfactual",
        "--method",
        help="counterfactual (CDA, needs --label-column) or rule-sets (TestSGD, needs --report)",
    ),
    report: Path | None = typer.Option(None, "--report", help="report.json of an audit."),
    label_column: str | None = typer.Option(None, "--label-column"),
    categories: str | None = typer.Option(None, "--categories"),
    top: int = typer.Option(3, "--top", help="Significant findings to mitigate (rule-sets)."),
    per_rule_set: int = typer.Option(200, "--per-rule-set"),
    max_per_text: int = typer.Option(8, "--max-per-text"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Generate augmentation data with provenance columns (seed_id, source, transformation,
    label_source)."""
    import pandas as pd

    from textfair.errors import TextfairError
    from textfair.io import atomic_writer, read_texts, refuse_overwriting_inputs
    from textfair.mitigate.augment import counterfactual_augmentation, rule_set_augmentation

    refuse_overwriting_inputs(out, None, [data, report])
    frame = read_texts(data, text_column)
    texts = frame[text_column].tolist()
    if method == "counterfactual":
        if label_column is None or label_column not in frame.columns:
            raise TextfairError(
                f"--method counterfactual needs --label-column naming a column of {data}; "
                f"columns are: {', '.join(map(str, frame.columns))}"
            )
        rows = counterfactual_augmentation(
            texts,
            frame[label_column].tolist(),
            categories=split_list(categories),
            max_per_text=max_per_text,
            seed=seed,
        )
    elif method == "rule-sets":
        if report is None:
            raise TextfairError(
                "--method rule-sets needs --report FILE, the report.json of an audit of this model"
            )
        from textfair.report.model import AuditReport  # numpy and scipy: not for --help

        rows = rule_set_augmentation(
            AuditReport.read(report), texts, top=top, per_rule_set=per_rule_set, seed=seed
        )
    else:
        raise TextfairError(f"--method {method!r}: expected counterfactual or rule-sets")
    if out.suffix.lower() not in (".csv", ".jsonl"):
        raise TextfairError(f"--out {out}: expected a .csv or .jsonl file name")
    with atomic_writer(out) as handle:
        if out.suffix.lower() == ".csv":
            pd.DataFrame(
                rows,
                columns=["seed_id", "text", "label", "source", "transformation", "label_source"],
            ).to_csv(handle, index=False)
        else:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    typer.echo(f"wrote {len(rows)} augmentation rows to {out}", err=True)
