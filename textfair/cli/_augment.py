"""`textfair augment`: write augmentation data from an audit report or a training set."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from textfair.cli._app import app, command, split_list


@command(
    app,
    "augment",
    "text_column",
    "label_column",
    "method",
    "categories",
    "min_acceptability",
    "per_rule_set",
    "max_per_text",
    "seed",
    "overwrite",
    "engine",
    "ray_address",
)
def augment_command(
    data: Path = typer.Option(
        ..., "--data", help="The training texts (CSV, TSV, JSONL, Parquet or .txt)."
    ),
    out: Path = typer.Option(..., "--out", help="Write .csv or .jsonl augmentation data here."),
    report: Path | None = typer.Option(
        None, "--report", help="report.json of an audit: its findings are the rule sets written."
    ),
    top: int = typer.Option(
        3, "--top", min=1, help="How many significant findings (most credible first) to write for."
    ),
    *,
    text_column: str | None,
    label_column: str | None,
    method: str,
    categories: str | None,
    min_acceptability: float,
    per_rule_set: int,
    max_per_text: int,
    seed: int,
    overwrite: bool,
    engine: str,
    ray_address: str | None,
) -> None:
    """Generate augmentation data with provenance columns (seed_id, source, transformation,
    label_source)."""
    import pandas as pd

    from textfair.errors import TextfairError
    from textfair.io import Output, atomic_writer, check_outputs, read_texts
    from textfair.mitigate.augment import counterfactual_augmentation, rule_set_augmentation
    from textfair.settings import check_parameter

    check_parameter("min_acceptability", min_acceptability)
    if engine != "ray" and out.suffix.lower() not in (".csv", ".jsonl"):
        raise TextfairError(f"--out {out}: expected a .csv or .jsonl file name")
    check_outputs(
        [Output("--out", out, "shards" if engine == "ray" else "file")],
        {"--data": data, "--report": report},
        overwrite=overwrite,
    )
    if engine == "ray":
        _augment_on_ray(
            data,
            out,
            text_column,
            label_column,
            method,
            categories,
            max_per_text,
            seed,
            ray_address,
            min_acceptability,
        )
        return
    frame = read_texts(data, text_column)
    texts = frame[frame.attrs["text_column"]].tolist()
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
            min_acceptability=min_acceptability,
        )
    elif method == "rule-sets":
        if report is None:
            raise TextfairError(
                "--method rule-sets needs --report FILE, the report.json of an audit of this model"
            )
        from textfair.report.model import AuditReport  # numpy and scipy: not for --help

        rows = rule_set_augmentation(
            AuditReport.read(report),
            texts,
            top=top,
            per_rule_set=per_rule_set,
            seed=seed,
            min_acceptability=min_acceptability,
        )
    with atomic_writer(out, replace=overwrite) as handle:
        if out.suffix.lower() == ".csv":
            pd.DataFrame(
                rows,
                columns=["seed_id", "text", "label", "source", "transformation", "label_source"],
            ).to_csv(handle, index=False)
        else:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    typer.echo(f"wrote {len(rows)} augmentation rows to {out}", err=True)


def _augment_on_ray(
    data: Path,
    out: Path,
    text_column: str | None,
    label_column: str | None,
    method: str,
    categories: str | None,
    max_per_text: int,
    seed: int,
    address: str | None,
    min_acceptability: float,
) -> None:
    """`augment --engine ray`: counterfactual augmentation of every row of --data on Ray,
    the local engine's rows, as Parquet shards in --out (a directory)."""
    from textfair.cli._runs import generate_on_ray
    from textfair.distributed.pipelines import augment_corpus
    from textfair.distributed.ray_engine import require_ray
    from textfair.errors import TextfairError

    require_ray()
    if method != "counterfactual":
        raise TextfairError(
            "--engine ray writes --method counterfactual (every row of a corpus); "
            "--method rule-sets rewrites a few hundred sampled seeds: use --engine local"
        )
    if label_column is None:
        raise TextfairError(
            "--method counterfactual needs --label-column naming a column of --data"
        )
    record = {"command": "augment", "method": method, "data": str(data), "seed": seed}
    rows = generate_on_ray(
        out,
        record,
        "rows",
        lambda staging, tracker: augment_corpus(
            data,
            text_column or "text",
            label_column,
            staging,
            categories=split_list(categories),
            max_per_text=max_per_text,
            seed=seed,
            min_acceptability=min_acceptability,
            address=address,
            tracker=tracker,
        ),
    )
    typer.echo(f"wrote {rows} augmentation rows to {out} (Parquet shards)", err=True)
