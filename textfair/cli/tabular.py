"""`textfair tabular audit` and `textfair tabular search`: models of table rows."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer

from textfair.cli.app import (
    REPORT_FILES,
    app,
    check_fail_above,
    fail_if_above,
    settings_of,
    split_list,
    user_errors,
)
from textfair.io import refuse_overwriting_inputs

tabular_app = typer.Typer(help="Audit classifiers of table rows.", no_args_is_help=True)
app.add_typer(tabular_app, name="tabular")


def load_inputs(
    model_spec: str,
    data: Path,
    sensitive: str,
    label: str,
    favorable: str | None,
    bins: int,
    labels: str | None,
    schema_file: Path | None = None,
    label_map: str | None = None,
):
    """The rows, schema and model of a `tabular` command, from its options."""
    from textfair.tabular.inputs import load_table_inputs

    return load_table_inputs(
        model_spec,
        data,
        split_list(sensitive),
        label,
        favorable=favorable,
        bins=bins,
        labels=split_list(labels),
        schema_file=schema_file,
        label_map=label_map,
    )


@tabular_app.command("audit")
@user_errors
def audit_command(
    model: str = typer.Option(..., "--model", help="sklearn:<joblib file> or py:<module>:<fn>"),
    data: Path = typer.Option(..., "--data", help="CSV, TSV, JSONL or Parquet with a header."),
    sensitive: str = typer.Option(..., "--sensitive", help="Sensitive columns, e.g. sex,race,age"),
    label: str = typer.Option(..., "--label", help="The label column."),
    favorable: str | None = typer.Option(None, "--favorable", help="The favourable label."),
    labels: str | None = typer.Option(None, "--labels", help="Labels of a py: model."),
    label_map: str | None = typer.Option(
        None, "--label-map", help='Label values as the model names them: "1=>50K,0=<=50K".'
    ),
    bins: int = typer.Option(10, "--bins", help="Equal-width bins of numeric sensitive columns."),
    schema_file: Path | None = typer.Option(
        None, "--schema", help="YAML schema: feature kinds and domains the data must respect."
    ),
    theta: float = typer.Option(0.05, "--theta"),
    max_order: int = typer.Option(2, "--max-order"),
    confidence: float = typer.Option(0.95, "--confidence"),
    error: float = typer.Option(0.05, "--error"),
    min_samples: int = typer.Option(100, "--min-samples"),
    max_samples: int = typer.Option(1000, "--max-samples"),
    mode: str = typer.Option("paired", "--mode", help="paired or paper (TestSGD)."),
    correction: str = typer.Option("holm", "--correction"),
    top: int = typer.Option(10, "--top"),
    seed: int = typer.Option(0, "--seed"),
    out: Path | None = typer.Option(None, "--out", help="Write report.json and report.md."),
    fail_above: float | None = typer.Option(None, "--fail-above"),
) -> None:
    """Which groups (value subsets, runs of bins) get different outcomes, causal tests, and
    DI / SPD / EOD / AOD / ERD / consistency / Theil index."""
    from rich.console import Console

    from textfair.auditing import AuditConfig, audit_table
    from textfair.report import render_terminal, write_report

    err = Console(stderr=True)
    config = settings_of(AuditConfig, locals()).checked()  # before the data and the model
    check_fail_above(fail_above)
    refuse_overwriting_inputs(out, REPORT_FILES, [data, model, schema_file])
    frame, schema, row_model = load_inputs(
        model, data, sensitive, label, favorable, bins, labels, schema_file, label_map
    )
    with err.status("auditing") as status:
        report = audit_table(
            row_model,
            frame,
            schema,
            config=config,
            model_id=model,
            data_info={"path": str(data)},
            command=shlex.join(["textfair", *sys.argv[1:]]),
            progress=lambda message: status.update(message),
        )
    render_terminal(report, top=top)
    if out is not None:
        json_path, md_path = write_report(report, out, top=top)
        err.print(f"wrote {json_path} and {md_path}")
    fail_if_above(report, fail_above, err)


@tabular_app.command("search")
@user_errors
def search_command(
    model: str = typer.Option(..., "--model"),
    data: Path = typer.Option(..., "--data"),
    sensitive: str = typer.Option(..., "--sensitive"),
    label: str = typer.Option(..., "--label"),
    favorable: str | None = typer.Option(None, "--favorable"),
    labels: str | None = typer.Option(None, "--labels"),
    label_map: str | None = typer.Option(
        None, "--label-map", help='Label values as the model names them: "1=>50K,0=<=50K".'
    ),
    strategy: str = typer.Option("fully", "--strategy", help="random, semi or fully directed."),
    on: str = typer.Option("label", "--on", help="label, or probability (with --gamma)."),
    gamma: float = typer.Option(0.0, "--gamma"),
    global_budget: int = typer.Option(1000, "--global-budget"),
    local_budget: int = typer.Option(2000, "--local-budget"),
    time_budget: float | None = typer.Option(None, "--time-budget", help="Seconds."),
    seed: int = typer.Option(0, "--seed"),
    out: Path | None = typer.Option(None, "--out", help="Write the discriminatory inputs (CSV)."),
) -> None:
    """Aequitas: find inputs whose outcome changes with their sensitive attributes alone."""
    from textfair.models import CachedModel
    from textfair.tabular.domain import TabularDomain
    from textfair.tabular.search import aequitas_search

    refuse_overwriting_inputs(out, None, [data, model])
    frame, schema, row_model = load_inputs(
        model, data, sensitive, label, favorable, 10, labels, label_map=label_map
    )
    domain = TabularDomain(frame[[f.name for f in schema.features]], schema)
    result = aequitas_search(
        domain,
        CachedModel(row_model),
        favorable=row_model.labels.index(str(schema.favorable)),
        strategy=strategy,
        on=on,
        gamma=gamma,
        global_budget=global_budget,
        local_budget=local_budget,
        time_budget=time_budget,
        seed=seed,
    )
    estimate = result.estimate
    typer.echo(
        f"{result.found} discriminatory inputs ({result.global_found} of {result.global_tested} "
        f"global, {result.local_found} of {result.local_tested} local) in {result.seconds:.1f} s; "
        f"estimated discriminatory share {100 * estimate.estimate:.1f}% "
        f"[{100 * estimate.low:.1f}%, {100 * estimate.high:.1f}%]"
    )
    if out is not None:
        import pandas as pd

        from textfair.io import atomic_writer

        with atomic_writer(out) as handle:
            pd.DataFrame(result.discriminatory, columns=domain.columns).to_csv(handle, index=False)
        typer.echo(f"wrote {out}", err=True)


@tabular_app.command("augment")
@user_errors
def tabular_augment_command(
    model: str = typer.Option(..., "--model"),
    data: Path = typer.Option(..., "--data", help="The training rows."),
    sensitive: str = typer.Option(..., "--sensitive"),
    label: str = typer.Option(..., "--label"),
    out: Path = typer.Option(..., "--out", help="Write the augmentation rows here (.csv)."),
    favorable: str | None = typer.Option(None, "--favorable"),
    labels: str | None = typer.Option(None, "--labels", help="Labels of a py: model."),
    label_map: str | None = typer.Option(
        None, "--label-map", help='Label values as the model names them: "1=>50K,0=<=50K".'
    ),
    global_budget: int = typer.Option(1000, "--global-budget"),
    local_budget: int = typer.Option(2000, "--local-budget"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Aequitas augmentation data: discriminatory inputs and their sensitive variants, labelled
    with the model's label for the input found."""
    import pandas as pd

    from textfair.io import atomic_writer
    from textfair.mitigate.augment import aequitas_augmentation
    from textfair.models import CachedModel
    from textfair.tabular.domain import TabularDomain

    refuse_overwriting_inputs(out, None, [data, model])
    frame, schema, row_model = load_inputs(
        model, data, sensitive, label, favorable, 10, labels, label_map=label_map
    )
    columns = [f.name for f in schema.features]
    cached = CachedModel(row_model)
    rows, found = aequitas_augmentation(
        TabularDomain(frame[columns], schema),
        cached,
        favorable=cached.labels.index(str(schema.favorable)),
        global_budget=global_budget,
        local_budget=local_budget,
        seed=seed,
    )
    table = pd.DataFrame([r["row"] for r in rows], columns=columns)
    table[label] = [r["label"] for r in rows]
    table["seed_row"] = [r["seed_row"] for r in rows]
    table["transformation"] = "aequitas_sensitive_variant"
    table["label_source"] = "the model's label for the discriminatory input found"
    with atomic_writer(out) as handle:
        table.to_csv(handle, index=False)
    typer.echo(f"wrote {len(rows)} rows from {found} discriminatory inputs to {out}", err=True)
