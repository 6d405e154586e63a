"""`textfair audit` and `textfair causal`: audit a text classifier on a corpus."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import typer

from textfair.cli._app import (
    app,
    command,
    settings_of,
)
from textfair.cli._options import (
    CORPUS,
    ESTIMATION,
    GROUP_ONLY,
    MODEL_HELP,
    REPORTING,
    RUNNING,
    TESTING,
)
from textfair.cli._progress import Stages
from textfair.cli._runs import cached_model, check_report_options, load_text_model, publish

if TYPE_CHECKING:
    from textfair.distributed.ray_engine import ActorPoolModel
    from textfair.models.spec import SpecModel

DEFAULT_MODEL = "toxicity-cnn-lstm"


AUDIT_OPTIONS = (
    *CORPUS,
    "unit",
    "min_acceptability",
    "private_names",
    *ESTIMATION,
    *TESTING,
    *RUNNING,
    *REPORTING,
    "workers",
    "pairs",
    "engine",
    "ray_address",
)
# `causal` runs the causal tests only: the options of the group stage are not its own.
CAUSAL_OPTIONS = tuple(name for name in AUDIT_OPTIONS if name not in GROUP_ONLY)
# The audit stages each command runs (what the test of every command's options replays).
STAGES = {"audit": ("group", "causal"), "causal": ("causal",)}


def _options(group: bool, old_name: str = "") -> Callable[..., None]:
    """The command of both `audit` and `causal`, as a function so each gets its own."""

    def run(
        model: str = typer.Option(DEFAULT_MODEL, "--model", help=MODEL_HELP),
        data: Path | None = typer.Option(
            None, "--data", help="CSV, TSV, JSONL or Parquet (default: bundled Wikipedia comments)."
        ),
        **options: object,
    ) -> None:
        if old_name:
            typer.echo(f"note: `textfair {old_name}` is now `textfair causal`", err=True)
        _audit({"model": model, "data": data, **options}, group=group)

    return run


def _audit(options: dict, group: bool) -> None:
    from rich.console import Console

    from textfair.auditing.decision import model_decision
    from textfair.auditing.report import audit_stages
    from textfair.auditing.text import audit_text
    from textfair.corpus import load_corpus
    from textfair.settings import AuditConfig

    err = Console(stderr=True)
    # Every option is checked before the corpus and the model are loaded.
    config = settings_of(AuditConfig, options, group=group).checked()
    check_report_options(
        options,
        {"--data": options["data"], "--model": options["model"], "--terms": options["terms"]},
    )
    if options.get("fail_above") is not None:
        terms = config.term_list()
        options["fail_above"].check_names(
            [*terms.category_names(), *(term.id for term in terms.terms())],
            terms.category_names(),
            "a category of the term list or one of its terms",
        )
    corpus = load_corpus(
        options["data"],
        text_column=options["text_column"],
        labels=options["label_column"],
        label_map=options["label_map"],
        unit=options["unit"],
    )
    labels = corpus.labels
    with err.status("loading the model"):
        loaded = _load(options)
        model = cached_model(loaded, options["model"], options)
    # The favourable outcome, checked against the model's labels before any query.
    favorable = model_decision(model, options["favorable"], options["decision"])
    with Stages(
        1 + audit_stages(config), queries=lambda: model.stats.forwarded, console=err
    ) as advance:
        advance("reading the corpus")
        report = audit_text(
            model,
            corpus.texts,
            favorable=favorable,
            labels=labels,
            config=config,
            model_id=options["model"],
            command=shlex.join(["textfair", *sys.argv[1:]]),
            data_info=corpus.info(),
            progress=advance,
            workers=options["workers"],
        )
    if options["engine"] == "ray":
        cast("ActorPoolModel", loaded).close()  # what `_load` makes for --engine ray
    publish(report, options, err)


def _load(options: dict) -> SpecModel | ActorPoolModel:
    """The model: in this process, or with --engine ray one copy per actor of a Ray pool
    that answers the audit's batches in parallel (the same batches, so the same answers and
    the same report as the local engine)."""
    if options["engine"] != "ray":
        return load_text_model(options["model"], options)
    from textfair.cli._runs import load_options
    from textfair.distributed.ray_engine import ActorPoolModel, require_ray

    require_ray()
    return ActorPoolModel(options["model"], load_options(options), address=options["ray_address"])


command(
    app,
    "audit",
    *AUDIT_OPTIONS,
    help="Audit a text classifier: which identity groups, alone or combined, get different "
    "outcomes, and how often swapping only an identity term changes the decision.",
)(_options(group=True))
CAUSAL_HELP = "Run only the causal tests: how often swapping identity terms changes the decision."
command(app, "causal", *CAUSAL_OPTIONS, help=CAUSAL_HELP)(_options(group=False))
# The old name, one letter from `counterfactuals` (which writes variants): kept hidden for one
# release.
command(app, "counterfactual", *CAUSAL_OPTIONS, help=CAUSAL_HELP, hidden=True)(
    _options(group=False, old_name="counterfactual")
)
