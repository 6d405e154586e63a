"""`textfair mitigate` and `textfair tabular mitigate`: audit, augment, retrain, re-audit."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from textfair.cli.app import app, settings_of, user_errors
from textfair.cli.tabular import load_inputs, tabular_app
from textfair.errors import TextfairError
from textfair.io import refuse_overwriting_inputs

if TYPE_CHECKING:
    from textfair.report.model import AuditReport

AUDIT_HELP = "Audit setting; mitigation defaults are tighter than `audit`'s to measure a change."


# What `--out DIR` of a mitigation receives; an input inside any of these would be replaced.
MITIGATION_FILES = [
    "model",
    "before",
    "after",
    "mitigation.json",
    "mitigation.md",
    "augmentation.csv",
]


@app.command("mitigate")
@user_errors
def mitigate_command(
    out: Path = typer.Option(..., "--out", help="Directory for the reports and the new model."),
    model: str = typer.Option("toxicity-cnn-lstm", "--model", help="Model spec or bundled name."),
    data: Path | None = typer.Option(
        None, "--data", help="Labelled texts (default: the bundled Wikipedia comments)."
    ),
    text_column: str | None = typer.Option(None, "--text-column"),
    label_column: str | None = typer.Option(None, "--label-column", help="True labels."),
    label_map: str | None = typer.Option(None, "--label-map", help='e.g. "1=toxic,0=non-toxic"'),
    favorable: str | None = typer.Option(None, "--favorable"),
    report: Path | None = typer.Option(
        None, "--report", help="report.json of an audit of this model, instead of a new audit."
    ),
    method: str = typer.Option(
        "counterfactual", "--method", help="counterfactual (CDA) or rule-sets (TestSGD labels)."
    ),
    loop: str = typer.Option("testsgd", "--loop", help="testsgd or aequitas."),
    top: int = typer.Option(3, "--top", help="Significant findings to mitigate."),
    holdout: float = typer.Option(0.2, "--holdout", help="Held-out share of --data."),
    holdout_terms: float = typer.Option(
        0.25, "--holdout-terms", help="Share of the targets' terms the augmentation never uses."
    ),
    max_fraction: float = typer.Option(
        0.1, "--max-fraction", help="Most augmentation rows, as a share of the training part."
    ),
    max_accuracy_drop: float = typer.Option(0.01, "--max-accuracy-drop"),
    max_per_text: int = typer.Option(8, "--max-per-text", help="Counterfactuals per text."),
    terms: str = typer.Option("dixon2018", "--terms"),
    categories: str | None = typer.Option(None, "--categories"),
    error: float = typer.Option(0.02, "--error", help=AUDIT_HELP),
    max_samples: int = typer.Option(3000, "--max-samples", help=AUDIT_HELP),
    min_samples: int = typer.Option(100, "--min-samples"),
    confidence: float = typer.Option(0.95, "--confidence"),
    theta: float = typer.Option(0.05, "--theta"),
    max_order: int = typer.Option(2, "--max-order"),
    mode: str = typer.Option("paired", "--mode"),
    correction: str = typer.Option("holm", "--correction"),
    seed: int = typer.Option(0, "--seed"),
    batch_size: int = typer.Option(64, "--batch-size", min=1),
    device: str = typer.Option("auto", "--device"),
) -> None:
    """Retrain a text classifier on augmentation data until its top findings shrink, keeping
    held-out accuracy; re-audit it, also on identity terms the augmentation never used."""
    from textfair.auditing import AuditConfig
    from textfair.corpus import guess_favorable, load_corpus
    from textfair.mitigate.pipeline import MitigationConfig, mitigate_text
    from textfair.mitigate.retrain import retrainer_for
    from textfair.models.spec import load_model

    refuse_overwriting_inputs(out, MITIGATION_FILES, [data, model, report])
    corpus = load_corpus(data, text_column=text_column, labels=label_column, label_map=label_map)
    if corpus.labels is None:
        raise TextfairError(
            "mitigation retrains the model, so it needs true labels: pass --label-column "
            "(and --label-map if the values are not the model's label names)"
        )
    loaded = load_model(model, batch_size=batch_size, device=device)
    retrainer_for(loaded)  # a model textfair cannot retrain fails here, before any work
    favorable = favorable or guess_favorable(loaded.labels)
    before = _read_report(report, loaded) if report is not None else None
    options = locals()
    # The loop targets group findings; causal tests would only add time.
    audit_config = settings_of(AuditConfig, options, causal=False)
    config = settings_of(MitigationConfig, options)
    result = _with_progress(
        mitigate_text,
        loaded,
        corpus.texts,
        corpus.labels,
        favorable=favorable,
        audit_config=audit_config,
        config=config,
        before=before,
        model_id=model,
    )
    result.report["data"]["path"] = corpus.source
    _write(result, out, ["seed_id", "text", "label", "source", "transformation", "label_source"])


@tabular_app.command("mitigate")
@user_errors
def tabular_mitigate_command(
    model: str = typer.Option(..., "--model", help="sklearn:<joblib file> or textfair:<dir>"),
    data: Path = typer.Option(..., "--data", help="Labelled rows (CSV, TSV, JSONL, Parquet)."),
    sensitive: str = typer.Option(..., "--sensitive"),
    label: str = typer.Option(..., "--label"),
    out: Path = typer.Option(..., "--out", help="Directory for the reports and the new model."),
    favorable: str | None = typer.Option(None, "--favorable"),
    bins: int = typer.Option(10, "--bins"),
    schema_file: Path | None = typer.Option(None, "--schema"),
    label_map: str | None = typer.Option(
        None, "--label-map", help='Label values as the model names them: "1=>50K,0=<=50K".'
    ),
    report: Path | None = typer.Option(None, "--report", help="report.json of this model."),
    loop: str = typer.Option("aequitas", "--loop", help="aequitas or testsgd."),
    top: int = typer.Option(3, "--top"),
    holdout: float = typer.Option(0.2, "--holdout"),
    max_rounds: int = typer.Option(7, "--max-rounds", help="Aequitas rounds at most."),
    patience: int = typer.Option(
        3, "--patience", help="Stop after this many rounds without a lower score (paper: 1)."
    ),
    max_fraction: float = typer.Option(0.1, "--max-fraction", help="TestSGD loop's cap."),
    max_accuracy_drop: float = typer.Option(0.01, "--max-accuracy-drop"),
    global_budget: int = typer.Option(1000, "--global-budget"),
    local_budget: int = typer.Option(2000, "--local-budget"),
    error: float = typer.Option(0.05, "--error"),
    max_samples: int = typer.Option(1000, "--max-samples"),
    theta: float = typer.Option(0.05, "--theta"),
    max_order: int = typer.Option(2, "--max-order"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Retrain a table classifier on Aequitas's discriminatory inputs (labelled with the model's
    label for the input found) until its top findings shrink; re-audit it."""
    from textfair.auditing import AuditConfig
    from textfair.mitigate.pipeline import MitigationConfig, mitigate_table
    from textfair.mitigate.retrain import retrainer_for

    refuse_overwriting_inputs(out, MITIGATION_FILES, [data, model, report, schema_file])
    frame, schema, row_model = load_inputs(
        model, data, sensitive, label, favorable, bins, None, schema_file, label_map
    )
    retrainer_for(row_model)  # fails here, before any work, for a model we cannot retrain
    before = _read_report(report, row_model) if report is not None else None
    options = locals()
    config = settings_of(MitigationConfig, options, method="aequitas")
    audit_config = settings_of(AuditConfig, options)
    result = _with_progress(
        mitigate_table,
        row_model,
        frame,
        schema,
        audit_config=audit_config,
        config=config,
        before=before,
        model_id=model,
    )
    result.report["data"]["path"] = str(data)
    _write(result, out, None)


def _read_report(path: Path, model) -> AuditReport:
    """An audit report, checked to be of this model."""
    from textfair.report.model import AuditReport  # numpy and scipy: not for --help

    try:
        loaded = AuditReport.read(path)
    except TextfairError as err:
        raise TextfairError(f"--report {err}") from None
    mine = getattr(model, "fingerprint", None)
    theirs = loaded.model.fingerprint
    if (mine and theirs and mine != theirs) or list(loaded.model.labels) != [
        str(label) for label in model.labels
    ]:
        raise TextfairError(
            f"--report {path} is an audit of model {loaded.model.id!r} "
            f"(fingerprint {theirs}), not of this model (fingerprint {mine}); audit this model "
            "or leave --report out"
        )
    return loaded


def _with_progress(mitigate, *inputs, **options):
    """Run a mitigation with this command line recorded and its stages on the terminal."""
    with _progress() as advance:
        command = shlex.join(["textfair", *sys.argv[1:]])
        return mitigate(*inputs, command=command, progress=advance, **options)


class _progress:
    """A progress display for the stages of a mitigation; yields advance(message)."""

    def __enter__(self):
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.console = Console(stderr=True)
        self.bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        self.bar.__enter__()
        self.task = self.bar.add_task("starting", total=None)
        self.stage = None

        def advance(message: str) -> None:
            if self.stage is not None:
                self.console.print(f"[green]done[/green] {self.stage}")
            self.stage = message
            self.bar.update(self.task, description=message)

        return advance

    def __exit__(self, *exc) -> None:
        self.bar.__exit__(*exc)
        if exc[0] is None and self.stage is not None:
            self.console.print(f"[green]done[/green] {self.stage}")


def _write(result, out: Path, augmentation_columns: list[str] | None) -> None:
    """The reports before and after, mitigation.json/.md, the augmentation used, the model."""
    import pandas as pd
    from rich.console import Console
    from rich.markdown import Markdown

    from textfair.io import atomic_writer
    from textfair.report import write_report
    from textfair.report.mitigation import render_mitigation

    out.mkdir(parents=True, exist_ok=True)
    write_report(result.before, out / "before")
    files = {"mitigation": out / "mitigation.json"}
    if result.after is not None:
        write_report(result.after, out / "after")
    if result.model is not None:
        files["model"] = result.retrainer.save(result.model, out / "model")
        with atomic_writer(out / "augmentation.csv") as handle:
            pd.DataFrame(result.augmentation, columns=augmentation_columns).to_csv(
                handle, index=False
            )
        files["augmentation"] = out / "augmentation.csv"
    result.report["files"] = {k: str(v) for k, v in files.items()}
    with atomic_writer(out / "mitigation.json") as handle:
        json.dump(result.report, handle, indent=2, ensure_ascii=False, default=str)
        handle.write("\n")
    markdown = render_mitigation(result.report)
    with atomic_writer(out / "mitigation.md") as handle:
        handle.write(markdown)
    console = Console()
    console.print(Markdown(markdown))
    Console(stderr=True).print(f"wrote {out}/mitigation.json, mitigation.md, before/, after/")
