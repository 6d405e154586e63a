"""What every command that audits a model does around the audit: check the report options
before any work, keep the model's answers (on disk with --cache), and publish the report
(terminal, --out, --fail-above)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from textfair.cli._app import EXIT_UNFAIR, cache_in_use
from textfair.core.counts import counted
from textfair.errors import TextfairError

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from textfair.cli._progress import Stages
    from textfair.distributed.pipelines import Tracker
    from textfair.models.base import Model
    from textfair.models.cached import CachedModel
    from textfair.models.spec import SpecModel
    from textfair.report.model import AuditReport

__all__ = [
    "cache_file",
    "cached_model",
    "check_report_options",
    "load_options",
    "load_text_model",
    "publish",
]


def load_text_model(spec: str, options: dict) -> SpecModel:
    """The model a text command names, run as its options say (batch size, device, threads,
    and for hf: models the revision and the tokens kept)."""
    from textfair.models.spec import load_model

    return load_model(spec, **load_options(options))


def load_options(options: dict) -> dict:
    """load_model's keywords from a command's RUNNING options (also what each Ray actor
    loads its model with)."""
    from textfair.cli._app import split_list

    return {
        "label_names": split_list(options.get("label_names")),
        "trust_remote_code": options.get("trust_remote_code", False),
        "batch_size": options["batch_size"],
        "device": options["device"],
        "threads": options["threads"],
        "revision": options["revision"],
        "max_length": options["max_length"],
        "dtype": options.get("dtype", "auto"),
    }


def cached_model(model: Model, spec: str, options: dict, context: str = "") -> CachedModel:
    """The model behind one CachedModel for the whole run. With --cache, or by default a file
    beside --out (DIR.cache.sqlite), answers are also kept on disk, keyed by a fingerprint of
    the model's files (and `context`, e.g. a table model's column order), and committed once
    per chunk of 16 batches: a rerun after a kill asks the model only what it had not
    answered."""
    from textfair.models import CachedModel
    from textfair.models.spec import spec_fingerprint

    # Chunks of 16 batches: each a commit to the cache file, and a step of the progress.
    chunk = 16 * int(options.get("batch_size") or 64)
    path = cache_file(options)
    implicit = options.get("cache_path") is None
    if path is None:
        return CachedModel(model, batch_size=chunk)
    try:
        key = spec_fingerprint(spec, model)
    except TextfairError:
        if implicit:
            return CachedModel(model, batch_size=chunk)  # nothing identifies the model
        raise
    if context:
        key += ":" + hashlib.sha256(context.encode()).hexdigest()[:12]
    cached = CachedModel(model, cache_path=path, cache_key=key, batch_size=chunk)
    cache_in_use[:] = [path]
    return cached


def check_report_options(options: dict, inputs: dict) -> None:
    """Before the first model query: --fail-above must be points in [0, 100] (a NaN would
    never fail, and the gate would pass whatever the audit finds); --out and the cache go
    through the one check of what a run writes (:func:`textfair.io.check_outputs`) against
    the command's `inputs` (flag -> path or model spec). A command that makes no finding it
    could gate on (causal tests only) has no --fail-above."""
    from textfair.io import Output, check_outputs
    from textfair.report.files import REPORT_FILES
    from textfair.report.gate import Gate
    from textfair.report.pairs import check_pairs_path

    if options.get("fail_above") is not None:
        options["fail_above"] = Gate.parse(options["fail_above"])
    out = options["out"]
    cache = cache_file(options)
    check_pairs_path(options.get("pairs"))
    check_outputs(
        [
            Output("--out", out, "directory", tuple(REPORT_FILES)),
            Output("--pairs", options.get("pairs"), "file"),
            Output("--cache" if options.get("cache_path") else "--out's cache", cache, "cache"),
        ],
        inputs,
        overwrite=options["overwrite"],
    )


def cache_file(options: dict) -> Path | None:
    """The answers file of a run: --cache, or by default DIR.cache.sqlite beside --out."""
    path, out = options.get("cache_path"), options.get("out")
    if path is None and out is not None:
        return Path(str(out).rstrip("/\\") + ".cache.sqlite")
    return None if path is None else Path(path)


def publish(report: AuditReport, options: dict, err: Console) -> None:
    """Show an audit's top findings, write report.json and report.md to --out, and apply
    --fail-above: exit 1 when a significant finding scores above it. Exit 1 means only
    this; a text audit whose gate cannot be judged (nothing tested, or a --require category
    untested) exits 5 after this (`cli/_audit`); a mistake in the input exits 2."""
    from dataclasses import replace

    from textfair.report.files import write_report
    from textfair.report.terminal import render_terminal

    top, out, gate = options["top"], options["out"], options.get("fail_above")

    def say(line: str) -> None:
        # One line each, whole (a path is not broken in two), as text rather than markup.
        err.print(line, markup=False, soft_wrap=True)

    if gate is not None:  # the verdict says whether the gate passes
        report = replace(report, extra={**report.extra, "fail_above": gate.to_json()})
    render_terminal(report, top=top)
    if out is not None:
        paths = write_report(report, out, top=top, overwrite=options["overwrite"], fail_above=gate)
        say(f"wrote {', '.join(map(str, paths))}")
        cache = cache_file(options)
        if cache is not None and cache.is_file():
            size = cache.stat().st_size / 1e6
            say(
                f"kept the model's answers and the corpus's reading in {cache} ({size:.1f} "
                "MB): a rerun reuses them, an audit of another model the reading; --cache "
                "PATH puts them elsewhere"
            )
    else:
        say("wrote nothing: pass --out DIR for report.json, report.md and report.html")
    if options.get("pairs") is not None:
        from textfair.report.pairs import write_flipped_pairs

        count = write_flipped_pairs(report, options["pairs"], overwrite=options["overwrite"])
        say(f"wrote {counted(count, 'flipped pair')} to {options['pairs']}")
    failing = report.failing(gate) if gate is not None else []
    if failing:
        say(
            f"{counted(len(failing), 'significant difference')} larger than --fail-above {gate}, "
            "either way: failing"
        )
        raise typer.Exit(EXIT_UNFAIR)


def ray_progress(stages: int, unit: str) -> tuple[Stages, Tracker]:
    """A progress display and the Tracker a Ray pipeline feeds it through: the stage, and
    the items done (read from the cluster's counter) of the total once it is known."""
    from textfair.cli._progress import Stages
    from textfair.distributed.ray_engine import Tracker

    shown = Stages(stages, unit=unit)
    tracker = Tracker(set_total=lambda total: setattr(shown, "total", total))
    shown.items = tracker.done
    return shown, tracker


def generate_on_ray(
    out: Path | None, record: dict, unit: str, generate: Callable[[Path, Tracker], int]
) -> int:
    """Run `generate(staging, tracker)` (a Ray generation pipeline) into the shard directory
    --out with one progress stage; `record` (what ran) goes into its marker with the rows
    written, which are returned. --out is checked before Ray starts."""
    from textfair.distributed.ray_engine import check_shard_directory, shard_directory

    out = check_shard_directory(out, record["command"])
    shown, tracker = ray_progress(1, unit)
    with shown as advance, shard_directory(out, record) as staging:
        advance("generating counterfactuals on Ray")
        record["rows"] = generate(staging, tracker)
    return record["rows"]
