"""`textfair audit` and `textfair causal`: audit a text classifier on a corpus."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import typer

from textfair.cli import _notes
from textfair.cli._app import (
    EXIT_UNFAIR,
    EXIT_UNTESTED,
    app,
    command,
    settings_of,
    split_list,
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
from textfair.cli._runs import (
    cache_file,
    cached_model,
    check_report_options,
    load_text_model,
    publish,
)
from textfair.core.counts import counted
from textfair.errors import TextfairError

if TYPE_CHECKING:
    from rich.console import Console

    from textfair.distributed.ray_engine import ActorPoolModel
    from textfair.models.spec import SpecModel
    from textfair.report.model import AuditReport
    from textfair.settings import AuditConfig

DEFAULT_MODEL = "toxicity-cnn-lstm"

# The options only the text audits take, declared here rather than in _options.SHARED: the
# model and corpus, the templated seeds audited beside the corpus (`audit` and `causal`),
# and the categories the gate requires tested (`audit` only: it reads group findings).
MODEL = typer.Option(DEFAULT_MODEL, "--model", help=MODEL_HELP)
DATA = typer.Option(
    None, "--data", help="CSV, TSV, JSONL or Parquet (default: bundled Wikipedia comments)."
)
TEMPLATES = typer.Option(
    "auto",
    "--templates",
    help="Templated seeds audited beside the corpus and reported apart: auto (the built-in "
    "suite for the model's task), toxicity, sentiment, none, or a text file with one "
    "template per line (I am a {identity} person.).",
)
BASELINE = typer.Option(
    None,
    "--baseline",
    help="report.json of the previous version's audit (same corpus and settings): each "
    "finding's change (rule sets and causal scores), paired on the same seeds, with its "
    "interval.",
)
FAIL_IF_WORSE = typer.Option(
    None,
    "--fail-if-worse",
    help="With --baseline: exit 1 when a finding (a rule set's difference, or a causal "
    "score's flip rate) got significantly worse by more than this many points.",
)
REQUIRE = typer.Option(
    None,
    "--require",
    help="Categories that must be tested, comma-separated (religion,race): exit 5 when one "
    "has no rule set on the texts or the templates, with or without --fail-above.",
)


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
    """The command of `audit` (`group`) or `causal`, as a function so each gets its own."""
    if group:

        def audit(
            model: str = MODEL,
            data: Path | None = DATA,
            templates: str = TEMPLATES,
            require: str | None = REQUIRE,
            baseline: Path | None = BASELINE,
            fail_if_worse: float | None = FAIL_IF_WORSE,
            **options: object,
        ) -> None:
            chosen = {
                "model": model,
                "data": data,
                "templates": templates,
                "require": require,
                "baseline": baseline,
                "fail_if_worse": fail_if_worse,
            }
            _audit({**chosen, **options}, group=True)

        return audit

    def run(
        model: str = MODEL, data: Path | None = DATA, templates: str = TEMPLATES, **options: object
    ) -> None:
        if old_name:
            typer.echo(f"note: `textfair {old_name}` is now `textfair causal`", err=True)
        _audit({"model": model, "data": data, "templates": templates, **options}, group=False)

    return run


def _audit(options: dict, group: bool) -> None:
    from rich.console import Console

    from textfair.auditing.decision import model_decision
    from textfair.auditing.report import audit_stages
    from textfair.auditing.text import audit_text
    from textfair.corpus import load_corpus
    from textfair.settings import AuditConfig
    from textfair.text.reading_store import ReadingStore

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
    required = _required(options.get("require"), config)
    _check_templates(config)
    corpus = load_corpus(
        options["data"],
        text_column=options["text_column"],
        labels=options["label_column"],
        label_map=options["label_map"],
        unit=options["unit"],
    )
    labels = corpus.labels
    baseline = _baseline(options, config, corpus.texts)  # refused before any model query
    with err.status("loading the model"):
        loaded = _load(options)
        model = cached_model(loaded, options["model"], options)
    # The favourable outcome, checked against the model's labels before any query.
    favorable = model_decision(model, options["favorable"], options["decision"])
    with Stages(1 + audit_stages(config), queries=model.forwarded_so_far, console=err) as advance:
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
            progress=_saying_notes_first(advance),
            workers=options["workers"],
            store=ReadingStore(cache_file(options)),
        )
    if options["engine"] == "ray":
        cast("ActorPoolModel", loaded).close()  # what `_load` makes for --engine ray
    if baseline is None:
        _gate(report, options, required, err)
        return
    from dataclasses import replace

    from textfair.report.versions import compare

    comparison = compare(baseline, report)
    report = replace(report, extra={**report.extra, "baseline": comparison.to_dict()})
    code = 0
    try:
        _gate(report, options, required, err)
    except typer.Exit as stop:
        code = int(stop.exit_code)
    for line in comparison.lines():
        err.print(line, markup=False, soft_wrap=True)
    points = options.get("fail_if_worse")
    if points is not None:
        worse = comparison.worse(points)
        if worse:
            err.print(
                f"{counted(len(worse), 'finding')} got significantly worse by more than "
                f"--fail-if-worse {points:g} points: failing",
                markup=False,
                soft_wrap=True,
            )
            code = EXIT_UNFAIR
        elif not (comparison.changes or comparison.causal) and code == 0:
            err.print(
                "untested: no finding could be compared with --baseline, so --fail-if-worse "
                "cannot pass on nothing",
                markup=False,
                soft_wrap=True,
            )
            code = EXIT_UNTESTED
    if code:
        raise typer.Exit(code)


def _baseline(options: dict, config: AuditConfig, texts: list[str]) -> AuditReport | None:
    """--baseline's report, checked against this audit's corpus and settings (one line when
    it cannot be compared), and --fail-if-worse's points; None without --baseline."""
    import math

    from textfair.auditing.text import corpus_keys
    from textfair.report.model import AuditReport
    from textfair.report.versions import check_baseline

    points, path = options.get("fail_if_worse"), options.get("baseline")
    if points is not None and (math.isnan(points) or not 0 <= points <= 100):
        raise TextfairError(
            f"--fail-if-worse is {points}; expected points between 0 and 100 (5 = a finding "
            "5 points worse)"
        )
    if path is None:
        if points is not None:
            raise TextfairError(
                "--fail-if-worse needs --baseline: pass the previous version's report.json"
            )
        return None
    try:
        old = AuditReport.read(Path(path) / "report.json" if Path(path).is_dir() else path)
    except TextfairError as err:
        raise TextfairError(f"--baseline {path}: {err}") from None
    terms = config.term_list()
    record = config.to_dict()
    record["categories"] = terms.category_names(list(config.categories or []) or None)
    record["term_list"] = record.get("terms")
    check_baseline(old, {**corpus_keys(texts, config), "rows": len(texts)}, record)
    return old


def _saying_notes_first(advance: Callable[[str], None]) -> Callable[[str], None]:
    """`advance`, saying the notes on how the input was read at the audit's first stage:
    the audit announces its stages once every input is validated (labels, templates, a
    corpus with something to audit), so a run that fails says only its error, and one
    that goes on says its notes before the report and its verdict."""

    def stage(message: str) -> None:
        _notes.say()
        advance(message)

    return stage


def _required(value: str | None, config: AuditConfig) -> tuple[str, ...]:
    """--require's categories, each one of the term list's (a category left out by
    --categories is allowed: it is then untested, exit 5); a one-line error otherwise."""
    if value is None:
        return ()
    names = split_list(value)
    if names is None:
        raise TextfairError(
            f"--require {value!r} names no category; give categories comma-separated, such "
            "as religion,race"
        )
    terms = config.term_list()
    known = terms.category_names()
    unknown = [name for name in names if name not in known]
    if unknown:
        raise TextfairError(
            f"--require names {', '.join(map(repr, unknown))}; expected categories of the term "
            f"list {terms.name!r}: {', '.join(known)}; name those, comma-separated"
        )
    return tuple(dict.fromkeys(names))


def _check_templates(config: AuditConfig) -> None:
    """A --templates file is read now, before the corpus and the model are loaded: a missing,
    unreadable or empty one is one line (exit 2). `auto` needs the model's labels: the audit
    settles it (`textfair.auditing.templates.template_texts`)."""
    from textfair.auditing.templates import template_texts

    if config.templates != "auto":
        template_texts(config.templates, ())


def _gate(report: AuditReport, options: dict, required: tuple[str, ...], err: Console) -> None:
    """Publish the report (terminal, --out, --pairs) and apply the gate: exit 1 when
    --fail-above is crossed (`report.failing` reads the texts' and the templates' findings);
    else exit 5 when the gate cannot be judged: nothing tested at all under --fail-above or
    --require, or a --require category untested. A run crossing --fail-above exits 1 even
    with a --require category untested (both lines are said)."""
    gate = options.get("fail_above") is not None
    untested = _untested(report, required, options) if gate or required else ""
    try:
        publish(report, options, err)
    except typer.Exit as stop:
        if untested and stop.exit_code == EXIT_UNFAIR:
            err.print(untested, markup=False, soft_wrap=True)
        raise
    if untested:
        err.print(untested, markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_UNTESTED)


def _untested(report: AuditReport, required: tuple[str, ...], options: dict) -> str:
    """The line of exit 5, what was not tested and how to fix it; "" when the gate can be
    judged."""
    sections = "the texts or the templates" if report.templates is not None else "the texts"

    def fixes(them: str) -> str:
        ways = [f"more texts that name {them}", "a lower --theta"]
        if options.get("unit") != "sentence":
            ways.append("--unit sentence for long documents")
        if report.templates is None:
            ways.append("--templates auto")
        return ", ".join(ways[:-1]) + " or " + ways[-1]

    if report.untested():  # no rule set in either section
        rows = report.data.get("rows")
        where = sections
        if isinstance(rows, int):
            where = sections.replace("the texts", f"the {rows:,} texts", 1)
        verdict = (
            "--fail-above cannot pass on nothing"
            if options.get("fail_above") is not None
            else f"--require {','.join(required)} is not met"
        )
        return (
            f"untested: no rule set of any category was scored on {where}, so {verdict}; "
            f"give {fixes('its categories')}"
        )
    missing = report.untested(required)
    if not missing:
        return ""
    audited = set(report.config.get("categories") or ())
    left_out = [name for name in missing if name not in audited]
    scarce = [name for name in missing if name in audited]
    reasons = []
    if scarce:
        reasons.append(f"{', '.join(scarce)} had no rule set on {sections} (give {fixes('them')})")
    if left_out:
        reasons.append(f"{', '.join(left_out)} not audited (add to --categories)")
    return f"untested: --require {','.join(required)} is not met: {'; '.join(reasons)}"


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
