"""`textfair predict`: load a model from a spec and print its probabilities as JSON lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from textfair.cli._app import app, command
from textfair.cli._options import MODEL_HELP, RUNNING


@command(
    app,
    "predict",
    "text_column",
    "favorable",
    "decision",
    *RUNNING,
    "cache_path",
    "overwrite",
    "engine",
    "ray_address",
)
def predict_command(
    model: str = typer.Option("toxicity-cnn-lstm", "--model", help=MODEL_HELP),
    text: list[str] = typer.Option(None, "--text", help="A text to score (repeatable)."),
    data: Path | None = typer.Option(
        None, "--data", help="A corpus: .csv, .tsv, .jsonl, .parquet or .txt."
    ),
    out: Path | None = typer.Option(None, "--out", help="Write JSON lines here (default: stdout)."),
    *,
    text_column: str | None,
    favorable: str | None,
    decision: str | None,
    label_names: str | None,
    trust_remote_code: bool,
    batch_size: int,
    device: str,
    threads: int | None,
    revision: str | None,
    max_length: int | None,
    dtype: str,
    cache_path: Path | None,
    overwrite: bool,
    engine: str,
    ray_address: str | None,
) -> None:
    """Score texts with a model: {"text", "label", "probabilities", ...} per line; with
    --favorable or --decision also whether the outcome is favourable and its score."""
    from textfair.auditing.decision import model_decision
    from textfair.cli._progress import Stages
    from textfair.cli._runs import cache_file, cached_model, load_text_model
    from textfair.io import Output, check_outputs
    from textfair.predictions import prediction_records

    cache = cache_file({"cache_path": cache_path, "out": out})
    check_outputs(
        [
            Output("--out", out, "shards" if engine == "ray" else "file"),
            Output("--cache" if cache_path else "--out's cache", cache, "cache"),
        ],
        {"--data": data, "--model": model},
        overwrite=overwrite,
    )
    running = {name: value for name, value in locals().items() if name in RUNNING}
    if engine == "ray":
        decide = {"favorable": favorable, "decision": decision}
        _predict_on_ray(
            model, data, text_column, out, ray_address, text, cache_path, running, decide
        )
        return
    texts = _texts(text, data, text_column)
    loaded = load_text_model(model, running)
    cached = cached_model(loaded, model, {**running, "cache_path": cache_path, "out": out})
    asked = favorable is not None or decision is not None or cached.multi_label
    rule = model_decision(cached, favorable, decision) if asked else None
    shown = Stages(items=lambda: cached.stats.forwarded, total=len(set(texts)), unit="texts")
    with shown as advance:
        advance("scoring")
        probabilities = cached.predict_proba(texts)
    records = prediction_records(texts, probabilities, cached.labels, cached.multi_label, rule)
    lines = [json.dumps(record, ensure_ascii=False) for record in records]
    if out is None:
        sys.stdout.write("\n".join(lines) + "\n")
        return
    from textfair.io import atomic_writer

    with atomic_writer(out, replace=overwrite) as handle:
        handle.write("\n".join(lines) + "\n")
    typer.echo(
        f"scored {len(texts)} texts ({cached.stats.unique_inputs} unique) with {model}", err=True
    )


def _predict_on_ray(
    model: str,
    data: Path | None,
    text_column: str | None,
    out: Path | None,
    address: str | None,
    text: list[str] | None,
    cache: Path | None,
    running: dict[str, Any],
    decide: dict[str, str | None],
) -> None:
    """`predict --engine ray`: every row of --data scored on Ray Data, each distinct text
    once, `predict`'s records written as Parquet shards into --out (a new directory, or one
    an earlier run wrote, replaced as a whole)."""
    from textfair.auditing.decision import model_decision
    from textfair.cli._runs import load_options, ray_progress
    from textfair.distributed.pipelines import predict_corpus
    from textfair.distributed.ray_engine import (
        ModelLabels,
        check_shard_directory,
        require_ray,
        shard_directory,
    )
    from textfair.distributed.scoring import describe_model
    from textfair.errors import TextfairError

    require_ray()
    for flag, value in (("--text", text), ("--cache", cache)):
        if value:
            raise TextfairError(
                f"--engine ray scores a corpus file, each distinct text once; {flag} is for "
                "--engine local: leave it out"
            )
    if data is None:
        raise TextfairError("--engine ray needs --data FILE (a corpus to score)")
    out = check_shard_directory(out, "predict")
    options = load_options(running)
    described = describe_model(model, options, address)
    rule = None
    if decide["favorable"] or decide["decision"] or described["multi_label"]:
        rule = model_decision(ModelLabels(**described), **decide)
    record: dict[str, object] = {"command": "predict", "model": model, "data": str(data)}
    shown, tracker = ray_progress(3, "texts")
    with shown as advance, shard_directory(out, record) as staging:
        tracker.advance = advance
        counts = predict_corpus(
            model,
            options,
            data,
            text_column or "text",
            staging,
            labels=described["labels"],
            multi_label=described["multi_label"],
            rule=rule,
            address=address,
            tracker=tracker,
        )
        record.update(counts)
    typer.echo(
        f"scored {counts['rows']} rows ({counts['distinct_texts']} distinct texts) with "
        f"{model} on Ray; wrote Parquet shards to {out}",
        err=True,
    )


def _texts(text: list[str] | None, data: Path | None, text_column: str | None) -> list[str]:
    """The texts to score: the --text values or the text column of --data, one of them."""
    from textfair.errors import TextfairError
    from textfair.io import read_texts

    if text and data is not None:
        raise TextfairError("both --text and --data were given; pass one of them")
    if not text and data is None:
        raise TextfairError("nothing to score; pass --text TEXT or --data FILE --text-column COL")
    if data is None:
        assert text  # checked above: one of them is given
        return list(text)
    frame = read_texts(data, text_column)
    return frame[frame.attrs["text_column"]].tolist()
