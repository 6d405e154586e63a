"""`textfair audit` and `textfair counterfactual`: audit a text classifier on a corpus."""

from __future__ import annotations

import shlex
import sys
from importlib import resources
from pathlib import Path

import typer

from textfair.cli.app import app, fail_if_above, split_list, user_errors

DEFAULT_MODEL = "toxicity-cnn-lstm"
DEFAULT_DATA = "wiki_toxicity.csv"
DEFAULT_LABEL_COLUMN = "toxic"
DEFAULT_LABEL_MAP = "True=toxic,False=non-toxic"
FAVORABLE_GUESSES = ("non-toxic", "not toxic", "positive", "favorable", "favourable")


def _options(group: bool):
    """The options both commands share, as a function so each command gets its own."""

    def run(
        model: str = typer.Option(DEFAULT_MODEL, "--model", help="Model spec or bundled name."),
        data: Path | None = typer.Option(
            None, "--data", help="CSV, TSV, JSONL or Parquet (default: bundled Wikipedia comments)."
        ),
        text_column: str | None = typer.Option(None, "--text-column"),
        label_column: str | None = typer.Option(
            None, "--label-column", help="True labels: adds subgroup/BPSN/BNSP AUC and gaps."
        ),
        label_map: str | None = typer.Option(
            None, "--label-map", help='Map label values to model labels: "1=toxic,0=non-toxic".'
        ),
        favorable: str | None = typer.Option(
            None, "--favorable", help="The favourable label (default: non-toxic or positive)."
        ),
        terms: str = typer.Option("dixon2018", "--terms"),
        categories: str | None = typer.Option(None, "--categories", help="e.g. gender,race"),
        theta: float = typer.Option(0.05, "--theta", help="Minimum support of a rule set."),
        max_order: int = typer.Option(2, "--max-order", help="Most rules in a rule set."),
        confidence: float = typer.Option(0.95, "--confidence"),
        error: float = typer.Option(0.05, "--error", help="Target half-width of intervals."),
        min_samples: int = typer.Option(100, "--min-samples"),
        max_samples: int = typer.Option(1000, "--max-samples"),
        mode: str = typer.Option("paired", "--mode", help="paired or paper (TestSGD)."),
        correction: str = typer.Option("holm", "--correction", help="holm, bh or none."),
        top: int = typer.Option(10, "--top", help="Findings shown."),
        seed: int = typer.Option(0, "--seed"),
        batch_size: int = typer.Option(64, "--batch-size", min=1),
        device: str = typer.Option("auto", "--device"),
        out: Path | None = typer.Option(None, "--out", help="Write report.json and report.md."),
        fail_above: float | None = typer.Option(
            None, "--fail-above", help="Exit 1 when a significant finding scores above this."
        ),
    ) -> None:
        _audit(locals(), group=group)

    return run


def _audit(options: dict, group: bool) -> None:
    from rich.console import Console

    from textfair.audit import AuditConfig, audit_text
    from textfair.models.spec import load_model
    from textfair.report import render_terminal, write_report

    err = Console(stderr=True)
    data, frame, column, labels = load_corpus(
        options["data"], options["text_column"], options["label_column"], options["label_map"]
    )
    label_column = options["label_column"]
    if options["data"] is None:
        label_column = label_column or DEFAULT_LABEL_COLUMN
    with err.status("loading the model"):
        model = load_model(
            options["model"], batch_size=options["batch_size"], device=options["device"]
        )
    favorable = options["favorable"] or guess_favorable(model.labels)
    config = AuditConfig(
        terms=options["terms"],
        categories=split_list(options["categories"]),
        theta=options["theta"],
        max_order=options["max_order"],
        confidence=options["confidence"],
        error=options["error"],
        min_samples=options["min_samples"],
        max_samples=options["max_samples"],
        mode=options["mode"],
        correction=options["correction"],
        top=options["top"],
        seed=options["seed"],
        group=group,
    )
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    stages = int(group) * 2 + 1 + int(labels is not None)  # rule sets, scoring, causal, labels
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task("reading the corpus", total=stages + 1)

        def advance(message: str) -> None:
            bar.update(task, advance=1, description=message)

        report = audit_text(
            model,
            frame[column].tolist(),
            favorable=favorable,
            labels=labels,
            config=config,
            model_id=options["model"],
            command=shlex.join(["textfair", *sys.argv[1:]]),
            data_info={"path": str(data), "text_column": column, "label_column": label_column},
            progress=advance,
        )
        bar.update(task, completed=stages + 1)
    render_terminal(report, top=options["top"])
    if options["out"] is not None:
        json_path, md_path = write_report(report, options["out"], top=options["top"])
        err.print(f"wrote {json_path} and {md_path}")
    fail_if_above(report, options["fail_above"], err)


def load_corpus(
    data: Path | None, text_column: str | None, label_column: str | None, label_map: str | None
):
    """The corpus to audit: (path, frame, text column, mapped labels or None).

    Without --data, the bundled Wikipedia comments and their toxicity labels.
    """
    from textfair.errors import TextfairError
    from textfair.io import read_texts

    if data is None:
        data = Path(str(resources.files("textfair.datasets").joinpath(DEFAULT_DATA)))
        text_column = text_column or "comment"
        if label_column is None:
            label_column, label_map = DEFAULT_LABEL_COLUMN, label_map or DEFAULT_LABEL_MAP
    frame = read_texts(data, text_column)
    if label_column is not None and label_column not in frame.columns:
        raise TextfairError(
            f"{data}: no label column {label_column!r}; columns are: "
            f"{', '.join(map(str, frame.columns))}"
        )
    labels = None
    if label_column is not None:
        labels = _mapped(frame[label_column].tolist(), label_map)
    return data, frame, text_column or "text", labels


def guess_favorable(labels) -> str:
    """The favourable label when the user names none: non-toxic, positive, ..."""
    from textfair.errors import TextfairError

    for guess in FAVORABLE_GUESSES:
        if guess in labels:
            return guess
    raise TextfairError(
        f"which label is favourable? pass --favorable with one of: {', '.join(labels)}"
    )


def _mapped(values: list, label_map: str | None) -> list[str]:
    from textfair.errors import TextfairError

    texts = [str(v) for v in values]
    if not label_map:
        return texts
    mapping = {}
    for pair in label_map.split(","):
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise TextfairError(
                f"--label-map entry {pair!r} is not VALUE=LABEL; write e.g. 1=toxic,0=non-toxic"
            )
        mapping[key.strip()] = value.strip()
    return [mapping.get(v, v) for v in texts]


app.command(
    "audit",
    help="Audit a text classifier: which identity groups, alone or combined, get different "
    "outcomes, and how often swapping only an identity term changes the decision.",
)(user_errors(_options(group=True)))
app.command(
    "counterfactual",
    help="Run only the causal tests: how often swapping identity terms changes the decision.",
)(user_errors(_options(group=False)))
