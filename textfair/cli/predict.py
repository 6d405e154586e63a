"""`textfair predict`: load a model from a spec and print its probabilities as JSON lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from textfair.cli.app import app, command
from textfair.cli.options import MODEL_HELP, RUNNING


@command(
    app,
    "predict",
    "text_column",
    "favorable",
    "decision",
    *RUNNING,
    "cache_path",
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
    labels: str | None,
    trust_remote_code: bool,
    batch_size: int,
    device: str,
    threads: int | None,
    revision: str | None,
    max_length: int | None,
    cache_path: Path | None,
    engine: str,
    ray_address: str | None,
) -> None:
    """Score texts with a model: {"text", "label", "probabilities", ...} per line; with
    --favorable or --decision also whether the outcome is favourable and its score."""
    from textfair.auditing import model_decision
    from textfair.cli.progress import Stages
    from textfair.cli.runs import cached_model, load_text_model
    from textfair.io import refuse_overwriting_inputs

    refuse_overwriting_inputs(out, None, [data])
    if engine == "ray":
        _predict_on_ray(
            model,
            data,
            text_column,
            out,
            ray_address,
            text,
            favorable,
            decision,
            cache_path,
            {
                "labels": split_list(labels),
                "trust_remote_code": trust_remote_code,
                "revision": revision,
                "max_length": max_length,
                "batch_size": batch_size,
                "device": device,
                "threads": threads,
            },
        )
        return
    texts = _texts(text, data, text_column)
    running = {name: value for name, value in locals().items() if name in RUNNING}
    loaded = load_text_model(model, running)
    cached = cached_model(loaded, model, {**running, "cache_path": cache_path, "out": out})
    asked = favorable is not None or decision is not None or cached.multi_label
    rule = model_decision(cached, favorable, decision) if asked else None
    shown = Stages(items=lambda: cached.stats.forwarded, total=len(set(texts)), unit="texts")
    with shown as advance:
        advance("scoring")
        probabilities = cached.predict_proba(texts)
    lines = []
    outcome = rule.favourable(probabilities) if rule else None
    scores = rule.score(probabilities) if rule else None
    for i, (item, row) in enumerate(zip(texts, probabilities, strict=True)):
        record: dict = {"text": item}
        if not cached.multi_label:  # a multi-label head's most probable label means nothing
            record["label"] = cached.labels[int(row.argmax())]
        record["probabilities"] = dict(zip(cached.labels, map(_rounded, row), strict=True))
        if rule is not None:
            record["favorable"] = bool(outcome[i])
            record["favorable_score"] = _rounded(scores[i])
        lines.append(json.dumps(record, ensure_ascii=False))
    if out is None:
        sys.stdout.write("\n".join(lines) + "\n")
        return
    from textfair.io import atomic_writer

    with atomic_writer(out) as handle:
        handle.write("\n".join(lines) + "\n")
    typer.echo(
        f"scored {len(texts)} texts ({cached.stats.unique_inputs} unique) with {model}", err=True
    )


def _predict_on_ray(
    model, data, text_column, out, address, text, favorable, decision, cache, load_options
) -> None:
    """`predict --engine ray`: every row of --data scored on Ray Data, Parquet shards in
    --out (a directory, replaced as a whole)."""
    from textfair.distributed.ray_engine import predict_corpus, require_ray
    from textfair.errors import TextfairError
    from textfair.io import atomic_directory

    require_ray()
    unsupported = [
        flag
        for flag, value in (
            ("--text", text),
            ("--favorable", favorable),
            ("--decision", decision),
            ("--cache", cache),
        )
        if value
    ]
    if unsupported:
        raise TextfairError(
            f"--engine ray scores a corpus file: {', '.join(unsupported)} is "
            "not supported with it yet; leave it out or use --engine local"
        )
    if data is None or out is None:
        raise TextfairError("--engine ray needs --data FILE and --out DIR (Parquet shards)")
    with atomic_directory(out) as staging:
        counts = predict_corpus(
            model,
            load_options,
            data,
            text_column or "text",
            staging / "shards",
            address=address,
            batch_size=load_options["batch_size"],
        )
    typer.echo(
        f"scored {counts['rows']} rows ({counts['distinct_texts']} distinct texts) "
        f"with {model} on Ray; wrote {out}/shards",
        err=True,
    )


def _rounded(probability: float) -> float:
    """Four decimals: finer than any model's calibration, and 0.4262 reads where
    0.42617380619049072 does not."""
    return round(float(probability), 4)


def _texts(text: list[str] | None, data: Path | None, text_column: str | None) -> list[str]:
    """The texts to score: the --text values or the text column of --data, one of them."""
    from textfair.errors import TextfairError
    from textfair.io import read_texts

    if text and data is not None:
        raise TextfairError("both --text and --data were given; pass one of them")
    if not text and data is None:
        raise TextfairError("nothing to score; pass --text TEXT or --data FILE --text-column COL")
    if data is None:
        return list(text)
    return read_texts(data, text_column)[text_column or "text"].tolist()
