"""`textfair tabular audit` and `textfair tabular search`: models of table rows."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from textfair.cli._app import (
    app,
    command,
    settings_of,
    split_list,
)
from textfair.cli._options import ESTIMATION, REPORTING, TESTING, SearchTarget, Strategy
from textfair.cli._progress import Stages
from textfair.cli._runs import cached_model, check_report_options, publish
from textfair.io import Output, check_outputs

if TYPE_CHECKING:
    from textfair.tabular.inputs import TableInputs

tabular_app = typer.Typer(help="Audit classifiers of table rows.", no_args_is_help=True)
app.add_typer(tabular_app, name="tabular")


def load_inputs(model_spec: str, data: Path, options: dict) -> TableInputs:
    """The rows, schema and model of a `tabular` command, from its options."""
    from textfair.errors import TextfairError
    from textfair.tabular.inputs import load_table_inputs

    if not options["label_column"]:
        raise TextfairError(
            "no label column: a table audit needs the true labels; pass --label-column COLUMN"
        )
    return load_table_inputs(
        model_spec,
        data,
        split_list(options["sensitive"]),
        options["label_column"],
        favorable=options["favorable"],
        bins=options.get("bins", 10),
        labels=split_list(options.get("label_names")),
        schema_file=options.get("schema_file"),
        label_map=options["label_map"],
    )


TABLE_ROWS = ("sensitive", "label_column", "favorable", "label_names", "label_map")
AEQUITAS = (*TABLE_ROWS, "global_budget", "local_budget", "seed")
ROW_MODEL = typer.Option(
    ...,
    "--model",
    help="sklearn:<joblib file>, textfair:<dir> (the tabular MLP) or py:<module>:<function>.",
)
TABLE_DATA = typer.Option(..., "--data", help="The rows: CSV, TSV, JSONL or Parquet with a header.")


@command(
    tabular_app,
    "audit",
    *TABLE_ROWS,
    "bins",
    "schema_file",
    *ESTIMATION,
    *TESTING,
    *REPORTING,
)
def audit_command(
    model: str = ROW_MODEL,
    data: Path = TABLE_DATA,
    **options: Any,
) -> None:
    """Which groups (value subsets, runs of bins) get different outcomes, causal tests, and
    DI / SPD / EOD / AOD / ERD / consistency / Theil index."""
    from rich.console import Console

    from textfair.auditing.rows import audit_rows
    from textfair.settings import AuditConfig

    err = Console(stderr=True)
    config = settings_of(AuditConfig, options).checked()  # before the data and the model
    check_report_options(
        options, {"--data": data, "--model": model, "--schema": options["schema_file"]}
    )
    frame, schema, row_model = load_inputs(model, data, options)
    if options["fail_above"] is not None:
        names = [feature.name for feature in schema.sensitive]
        options["fail_above"].check_names(names, names, "a sensitive feature")
    # Rows are tuples in this column order: the cache is keyed by it too.
    cached = cached_model(row_model, model, options, context=",".join(row_model.columns))
    with Stages(queries=lambda: cached.stats.forwarded, console=err) as advance:
        report = audit_rows(
            cached,
            frame,
            schema,
            config=config,
            model_id=model,
            data_info={"path": str(data)},
            command=shlex.join(["textfair", *sys.argv[1:]]),
            progress=advance,
        )
    publish(report, options, err)


@command(tabular_app, "search", *AEQUITAS, "overwrite")
def search_command(
    model: str = ROW_MODEL,
    data: Path = TABLE_DATA,
    strategy: Strategy = typer.Option(
        "fully", "--strategy", help="Local search: random, semi-directed or fully directed."
    ),
    on: SearchTarget = typer.Option(
        "label",
        "--on",
        help="What must change for an input to count: the label, or the favourable "
        "probability by more than --gamma.",
    ),
    gamma: float = typer.Option(
        0.0, "--gamma", help="With --on probability: the smallest change that counts."
    ),
    time_budget: float | None = typer.Option(
        None, "--time-budget", help="Stop the search after this many seconds."
    ),
    out: Path | None = typer.Option(None, "--out", help="Write the discriminatory inputs (CSV)."),
    **options: Any,
) -> None:
    """Aequitas: find inputs whose outcome changes with their sensitive attributes alone."""
    from textfair.models import CachedModel
    from textfair.tabular.domain import TabularDomain
    from textfair.tabular.search import aequitas_search

    _check_out(out, data, model, options)
    frame, schema, row_model = load_inputs(model, data, options)
    domain = TabularDomain(frame[[f.name for f in schema.features]], schema)
    result = aequitas_search(
        domain,
        CachedModel(row_model),
        favorable=row_model.labels.index(str(schema.favorable)),
        strategy=strategy,
        on=on,
        gamma=gamma,
        time_budget=time_budget,
        **_budgets(options),
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

        with atomic_writer(out, replace=options["overwrite"]) as handle:
            pd.DataFrame(result.discriminatory, columns=domain.columns).to_csv(handle, index=False)
        typer.echo(f"wrote {out}", err=True)


@command(tabular_app, "augment", *AEQUITAS, "overwrite")
def tabular_augment_command(
    model: str = ROW_MODEL,
    data: Path = typer.Option(..., "--data", help="The training rows (CSV, TSV, JSONL, Parquet)."),
    out: Path = typer.Option(..., "--out", help="Write the augmentation rows here (.csv)."),
    **options: Any,
) -> None:
    """Aequitas augmentation data: discriminatory inputs and their sensitive variants, labelled
    with the model's label for the input found."""
    import pandas as pd

    from textfair.io import atomic_writer
    from textfair.mitigate.augment import aequitas_augmentation
    from textfair.models import CachedModel
    from textfair.tabular.domain import TabularDomain

    _check_out(out, data, model, options)
    frame, schema, row_model = load_inputs(model, data, options)
    columns = [f.name for f in schema.features]
    cached = CachedModel(row_model)
    rows, found = aequitas_augmentation(
        TabularDomain(frame[columns], schema),
        cached,
        favorable=cached.labels.index(str(schema.favorable)),
        **_budgets(options),
    )
    table = pd.DataFrame([r["row"] for r in rows], columns=columns)
    table[schema.label] = [r["label"] for r in rows]
    table["seed_row"] = [r["seed_row"] for r in rows]
    table["transformation"] = "aequitas_sensitive_variant"
    table["label_source"] = "the model's label for the discriminatory input found"
    with atomic_writer(out, replace=options["overwrite"]) as handle:
        table.to_csv(handle, index=False)
    typer.echo(f"wrote {len(rows)} rows from {found} discriminatory inputs to {out}", err=True)


def _check_out(out: Path | None, data: Path, model: str, options: dict) -> None:
    """--out of search and augment (a CSV file) through the one check of what a run writes."""
    check_outputs(
        [Output("--out", out)],
        {"--data": data, "--model": model, "--schema": options.get("schema_file")},
        overwrite=options["overwrite"],
    )


def _budgets(options: dict) -> dict:
    """Aequitas's search budgets and seed, from a command's options."""
    return {name: options[name] for name in ("global_budget", "local_budget", "seed")}
