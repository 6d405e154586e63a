"""`textfair mitigate` and `textfair tabular mitigate`: audit, augment, retrain, re-audit."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from textfair.cli._app import app, command, settings_of
from textfair.cli._options import CORPUS, ESTIMATION, MODEL_HELP, RUNNING, TESTING, Loop, Method
from textfair.cli._runs import load_text_model
from textfair.cli._tabular import load_inputs, tabular_app
from textfair.errors import TextfairError
from textfair.io import Output, check_outputs

if TYPE_CHECKING:
    from textfair.mitigate.comparison import Comparison
    from textfair.mitigate.pipeline import Mitigation
    from textfair.models.base import Model
    from textfair.report.model import AuditReport

AUDIT_HELP = (
    "Audit setting (a difference in points, as in `audit`); mitigation defaults are tighter "
    "than `audit`'s to measure a change."
)
REPORT_HELP = "report.json of an audit of this model, instead of a new audit."
LOOP_HELP = (
    "testsgd: add 50, 100, 200, ... rows up to --max-fraction; aequitas: a random share "
    "per round until the score stops falling (--patience)."
)
TARGETS_HELP = "How many significant findings (most credible first) to mitigate."
METHODS_HELP = (
    "Mitigation methods: one, several joined by commas, or 'all' ({names}). One retraining method "
    "alone ({loops}; default {default}) runs its loop and writes mitigation.json, .md and the "
    "model; anything else compares the methods on one split into comparison.json, .md, .html "
    "('all': those that apply to the model, the others listed with why)."
)
OLD_METHOD_HELP = "Old name of --methods (one retraining method)."


# What `--out DIR` of a mitigation receives; an input inside any of these would be replaced.
MITIGATION_FILES = [
    "model",
    "before",
    "after",
    "mitigation.json",
    "mitigation.md",
    "mitigation.html",
    "augmentation.csv",
    "comparison.json",
    "comparison.md",
    "comparison.html",
]


@command(
    app,
    "mitigate",
    *CORPUS,
    "min_acceptability",
    "holdout",
    "max_fraction",
    "extend_to",
    "max_accuracy_drop",
    "max_per_text",
    "per_rule_set",
    "max_rounds",
    "patience",
    *ESTIMATION,
    *TESTING,
    *RUNNING,
    "overwrite",
)
def mitigate_command(
    out: Path = typer.Option(..., "--out", help="Directory for the reports and the new model."),
    model: str = typer.Option("toxicity-cnn-lstm", "--model", help=MODEL_HELP),
    data: Path | None = typer.Option(
        None, "--data", help="Labelled texts (default: the bundled Wikipedia comments)."
    ),
    report: Path | None = typer.Option(None, "--report", help=REPORT_HELP),
    loop: Loop = typer.Option("testsgd", "--loop", help=LOOP_HELP),
    top: int = typer.Option(3, "--top", min=1, help=TARGETS_HELP),
    holdout_terms: float = typer.Option(
        0.25, "--holdout-terms", help="Share of the targets' terms the augmentation never uses."
    ),
    error: float = typer.Option(2.0, "--error", help=AUDIT_HELP),
    max_samples: int = typer.Option(3000, "--max-samples", help=AUDIT_HELP),
    methods: str | None = typer.Option(
        None,
        "--methods",
        help=METHODS_HELP.format(
            names="counterfactual, rule-sets, blindness, thresholds, logit-pairing",
            loops="counterfactual, rule-sets",
            default="counterfactual",
        ),
    ),
    method: Method | None = typer.Option(None, "--method", hidden=True, help=OLD_METHOD_HELP),
    **options: Any,
) -> None:
    """Retrain a text classifier on augmentation data until its top findings shrink, keeping
    held-out accuracy; re-audit it, also on identity terms the augmentation never used."""
    from textfair.auditing.decision import model_decision
    from textfair.corpus import load_corpus
    from textfair.mitigate.pipeline import MitigationConfig, mitigate_text
    from textfair.mitigate.retrain import retrainer_for
    from textfair.models.decision import class_labels
    from textfair.settings import AuditConfig

    _check_out(out, {"--data": data, "--model": model, "--report": report}, options)
    compared, loop_method = _methods("text", methods, method)
    corpus = load_corpus(
        data,
        text_column=options["text_column"],
        labels=options["label_column"],
        label_map=options["label_map"],
    )
    if corpus.labels is None:
        raise TextfairError(
            "mitigation retrains the model, so it needs true labels: pass --label-column "
            "(and --label-map if the values are not the model's label names)"
        )
    loaded = load_text_model(model, options)
    if compared is None:
        retrainer_for(loaded)  # a model textfair cannot retrain fails here, before any work
    else:
        _check_applicable("text", compared, loaded)
    # Retraining writes class labels: one favourable label (a label set or a threshold rule
    # of a multi-label head names none to write).
    decision = model_decision(loaded, options["favorable"], options["decision"])
    favorable = class_labels(decision, "mitigation")[0]
    if len(decision.columns) > 1:
        raise TextfairError(
            f"mitigation retrains on class labels and needs one favourable label; got "
            f"{decision.describe()!r}: pass --favorable with one of them"
        )
    settings = {**options, **locals()}
    # The loop targets group findings; causal tests would only add time.
    audit_config = settings_of(AuditConfig, settings, causal=False)
    if compared is not None:
        from textfair.mitigate.compare import compare_text_mitigations

        _compare(
            compare_text_mitigations,
            compared,
            out,
            options,
            loaded,
            corpus.texts,
            corpus.labels,
            favorable=favorable,
            audit_config=audit_config,
            top=top,
            model_id=model,
        )
        return
    before = _read_report(report, loaded) if report is not None else None
    config = settings_of(MitigationConfig, settings, method=loop_method)
    result = _with_progress(
        mitigate_text,
        model,
        loaded,
        corpus.texts,
        corpus.labels,
        favorable=favorable,
        audit_config=audit_config,
        config=config,
        before=before,
    )
    result.report["data"]["path"] = corpus.source
    columns = ["seed_id", "text", "label", "source", "transformation", "label_source"]
    _write(result, out, columns, options["overwrite"])


@command(
    tabular_app,
    "mitigate",
    "sensitive",
    "label_column",
    "favorable",
    "label_names",
    "label_map",
    "bins",
    "schema_file",
    "holdout",
    "max_fraction",
    "extend_to",
    "max_accuracy_drop",
    "global_budget",
    "local_budget",
    "max_rounds",
    "patience",
    *ESTIMATION,
    *TESTING,
    "overwrite",
)
def tabular_mitigate_command(
    model: str = typer.Option(
        ..., "--model", help="sklearn:<joblib file> or textfair:<dir> (the tabular MLP)."
    ),
    data: Path = typer.Option(..., "--data", help="Labelled rows (CSV, TSV, JSONL, Parquet)."),
    out: Path = typer.Option(..., "--out", help="Directory for the reports and the new model."),
    report: Path | None = typer.Option(None, "--report", help=REPORT_HELP),
    loop: Loop = typer.Option("aequitas", "--loop", help=LOOP_HELP),
    top: int = typer.Option(3, "--top", min=1, help=TARGETS_HELP),
    methods: str | None = typer.Option(
        None,
        "--methods",
        help=METHODS_HELP.format(
            names="aequitas, reweighing, correlation-remover, exponentiated-gradient, "
            "threshold-optimizer",
            loops="aequitas",
            default="aequitas",
        ),
    ),
    **options: Any,
) -> None:
    """Retrain a table classifier on Aequitas's discriminatory inputs (labelled with the model's
    label for the input found) until its top findings shrink; re-audit it."""
    from textfair.mitigate.pipeline import MitigationConfig, mitigate_table
    from textfair.mitigate.retrain import retrainer_for
    from textfair.settings import AuditConfig

    inputs = {"--data": data, "--model": model, "--report": report}
    _check_out(out, {**inputs, "--schema": options["schema_file"]}, options)
    compared, _ = _methods("rows", methods, None)
    frame, schema, row_model = load_inputs(model, data, options)
    settings = {**options, **locals()}
    if compared is not None:
        from textfair.mitigate.compare import compare_table_mitigations

        _check_applicable("rows", compared, row_model)
        _compare(
            compare_table_mitigations,
            compared,
            out,
            options,
            row_model,
            frame,
            schema,
            audit_config=settings_of(AuditConfig, settings, causal=False),
            top=top,
            model_id=model,
        )
        return
    retrainer_for(row_model)  # fails here, before any work, for a model we cannot retrain
    before = _read_report(report, row_model) if report is not None else None
    config = settings_of(MitigationConfig, settings, method="aequitas")
    audit_config = settings_of(AuditConfig, settings)
    result = _with_progress(
        mitigate_table,
        model,
        row_model,
        frame,
        schema,
        audit_config=audit_config,
        config=config,
        before=before,
    )
    result.report["data"]["path"] = str(data)
    _write(result, out, None, options["overwrite"])


def _methods(kind: str, methods: str | None, old: str | None) -> tuple[list[str] | None, str]:
    """What --methods asks for, checked before any work: (None, the loop's method) to run one
    retraining loop, or (the methods, "") to compare them. `old`: the value of the hidden old
    --method (one retraining method), still read, with a note."""
    from textfair.cli._app import split_list
    from textfair.mitigate.methods import LOOP_METHODS, methods_for

    if old is not None:
        if methods is not None:
            raise TextfairError.bad(
                "methods", "is given with --method, its old name; use --methods"
            )
        typer.echo("note: --method is now --methods; --method goes in a later release", err=True)
        methods = old
    if methods is None:
        return None, LOOP_METHODS[kind][0]
    named = split_list(methods)
    if not named:
        raise TextfairError.bad("methods", "is empty; name one method, several, or 'all'")
    methods_for(kind, named)  # a name that is no method of this kind of data: one line
    if len(named) == 1 and named[0] in LOOP_METHODS[kind]:
        return None, named[0]
    return named, ""


def _check_applicable(kind: str, named: list[str], model: Model) -> None:
    """Methods named one by one must apply to the model (one line, before any model query);
    of 'all', the comparison lists those that do not with the reason."""
    from textfair.mitigate.methods import applicable, methods_for

    if named != ["all"]:
        applicable(methods_for(kind, named), model, named=True)


def _compare(
    compare: Callable[..., Comparison],
    named: list[str],
    out: Path,
    options: dict,
    *inputs: object,
    **settings: object,
) -> None:
    """Run a comparison of the methods named by --methods and write it into `out`."""
    from rich.console import Console

    from textfair.report.comparison import print_comparison, write_comparison

    comparison = compare(
        *inputs,
        methods=named,
        holdout=options["holdout"],
        seed=options["seed"],
        max_accuracy_drop=options["max_accuracy_drop"],
        **settings,
    )
    report = comparison.to_dict()
    write_comparison(report, out, overwrite=options["overwrite"], owned=MITIGATION_FILES)
    print_comparison(report, Console())
    Console(stderr=True).print(f"wrote {out}/comparison.json, comparison.md, comparison.html")


def _read_report(path: Path, model: Model) -> AuditReport:
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


def _check_out(out: Path, inputs: dict, options: dict) -> None:
    """--out (a directory replaced as a whole) through the one check of what a run writes,
    against the command's inputs and its term list, before any work."""
    check_outputs(
        [Output("--out", out, "directory", tuple(MITIGATION_FILES))],
        {**inputs, "--terms": options.get("terms")},
        overwrite=options["overwrite"],
    )


def _with_progress(
    mitigate: Callable[..., Mitigation], model_id: str, *inputs: object, **options: object
) -> Mitigation:
    """Run a mitigation with this command line recorded and its stages on stderr."""
    from textfair.cli._progress import Stages
    from textfair.run import Run

    with Stages(done_lines=True) as advance:
        command = shlex.join(["textfair", *sys.argv[1:]])
        return mitigate(*inputs, run=Run(model_id, command, advance), **options)


def _write(
    result: Mitigation, out: Path, augmentation_columns: list[str] | None, overwrite: bool
) -> None:
    """The reports before and after, mitigation.json/.md, the augmentation used, the model:
    staged beside `out`, which they replace as one set."""
    import pandas as pd
    from rich.console import Console

    from textfair.io import atomic_directory
    from textfair.report.files import write_report
    from textfair.report.mitigation import (
        print_mitigation,
        render_mitigation,
        render_mitigation_html,
    )

    files = {"mitigation": out / "mitigation.json"}
    with atomic_directory(out, replace=overwrite) as staging:
        write_report(result.before, staging / "before")
        if result.after is not None:
            write_report(result.after, staging / "after")
        if result.model is not None:
            saved = result.retrainer.save(result.model, staging / "model")
            files["model"] = out / saved.relative_to(staging)
            pd.DataFrame(result.augmentation, columns=augmentation_columns).to_csv(
                staging / "augmentation.csv", index=False
            )
            files["augmentation"] = out / "augmentation.csv"
        result.report["files"] = {k: str(v) for k, v in files.items()}
        text = json.dumps(result.report, indent=2, ensure_ascii=False, default=str) + "\n"
        (staging / "mitigation.json").write_text(text, encoding="utf-8")
        markdown = render_mitigation(result.report)
        (staging / "mitigation.md").write_text(markdown, encoding="utf-8")
        # From the JSON as written, so `textfair report mitigation.json` renders it again.
        page = render_mitigation_html(json.loads(text))
        (staging / "mitigation.html").write_text(page, encoding="utf-8")
    print_mitigation(result.report, Console())
    Console(stderr=True).print(f"wrote {out}/mitigation.json, mitigation.md, before/, after/")
