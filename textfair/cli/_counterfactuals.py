"""`textfair counterfactuals`: write every identity-term variant of some texts as JSON lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import IO, TYPE_CHECKING

import typer

from textfair.cli._app import app, command, split_list

if TYPE_CHECKING:
    from textfair.text.matcher import Matcher

EXAMPLE_DATA = "wiki_examples.csv"


@command(
    app,
    "counterfactuals",
    "text_column",
    "terms",
    "categories",
    "min_acceptability",
    "private_names",
    "seed",
    "overwrite",
    "engine",
    "ray_address",
)
def counterfactuals_command(
    text: str | None = typer.Option(None, "--text", help="One text to generate variants of."),
    data: Path | None = typer.Option(
        None, "--data", help="A corpus: .csv, .tsv, .jsonl or .txt (one text per line)."
    ),
    id_column: str | None = typer.Option(
        None, "--id-column", help="A column of --data to use as seed_id (default: row number)."
    ),
    out: Path | None = typer.Option(None, "--out", help="Write JSON lines here (default: stdout)."),
    gender_swap: bool = typer.Option(
        False, "--gender-swap", help="Also write each text with he/she, his/her, ... swapped."
    ),
    max_variants: int = typer.Option(
        256, "--max-variants", min=1, help="Per text; above this, variants are sampled."
    ),
    *,
    text_column: str | None,
    terms: str,
    categories: str | None,
    min_acceptability: float,
    private_names: bool,
    seed: int,
    overwrite: bool,
    engine: str,
    ray_address: str | None,
) -> None:
    """Generate counterfactual texts that differ only in identity terms.

    Each line is {"seed_id", "text", "category", "from", "to", "acceptability", "swaps"};
    several swaps in one variant are joined with "+". With no --text or --data, runs on
    bundled examples.
    """
    from textfair.io import Output, check_outputs
    from textfair.settings import check_parameter
    from textfair.text.matcher import Matcher

    check_parameter("min_acceptability", min_acceptability)

    if text is not None and data is not None:
        raise _usage("both --text and --data were given; pass one of them")
    if text_column is not None and data is None:
        raise _usage("--text-column was given without --data; add --data FILE")
    check_outputs(
        [Output("--out", out, "shards" if engine == "ray" else "file")],
        {"--data": data, "--terms": terms},
        overwrite=overwrite,
    )
    if engine == "ray":
        if data is None:
            raise _usage("--engine ray generates from a corpus file; add --data FILE")
        _counterfactuals_on_ray(
            data,
            out,
            text_column,
            id_column,
            terms,
            categories,
            gender_swap,
            max_variants,
            seed,
            ray_address,
            min_acceptability,
            private_names,
        )
        return
    matcher = Matcher(terms)
    names = matcher.term_list.category_names(split_list(categories))
    seeds = list(_seeds(text, data, text_column, id_column))
    options = (gender_swap, max_variants, seed, min_acceptability, private_names)
    records = _records(seeds, matcher, names, options, show_progress=out)
    if out is None:
        _write(records, sys.stdout)
        return
    from textfair.io import atomic_writer

    with atomic_writer(out, replace=overwrite) as handle:
        count = _write(records, handle)
    typer.echo(f"wrote {count} variants of {len(seeds)} texts to {out}", err=True)


def _counterfactuals_on_ray(
    data: Path,
    out: Path | None,
    text_column: str | None,
    id_column: str | None,
    terms: str,
    categories: str | None,
    gender_swap: bool,
    max_variants: int,
    seed: int,
    address: str | None,
    min_acceptability: float,
    private_names: bool,
) -> None:
    """`counterfactuals --engine ray`: every row's variants generated on Ray, the local
    engine's records, as Parquet shards in --out (a directory)."""
    from textfair.cli._runs import generate_on_ray
    from textfair.distributed.pipelines import counterfactuals_corpus
    from textfair.distributed.ray_engine import require_ray
    from textfair.text.matcher import Matcher

    require_ray()
    Matcher(terms).term_list.category_names(split_list(categories))  # checked before Ray starts
    record = {"command": "counterfactuals", "data": str(data), "terms": terms, "seed": seed}
    rows = generate_on_ray(
        out,
        record,
        "texts",
        lambda staging, tracker: counterfactuals_corpus(
            data,
            text_column or "text",
            id_column,
            staging,
            terms=terms,
            categories=split_list(categories),
            gender_swap=gender_swap,
            max_variants=max_variants,
            seed=seed,
            min_acceptability=min_acceptability,
            private_names=private_names,
            address=address,
            tracker=tracker,
        ),
    )
    typer.echo(f"wrote {rows} variants to {out} (Parquet shards)", err=True)


def _usage(message: str) -> Exception:
    from textfair.errors import TextfairError

    return TextfairError(message)


def _seeds(
    text: str | None, data: Path | None, text_column: str | None, id_column: str | None
) -> Iterator[tuple[object, str]]:
    if text is not None:
        if not text.strip():
            raise _usage("--text is empty; pass a text that mentions an identity term")
        yield 0, text
        return
    from textfair.io import read_texts

    if data is None:
        data = Path(str(resources.files("textfair.datasets").joinpath(EXAMPLE_DATA)))
        text_column = "comment"
        id_column = id_column or "rev_id"
    frame = read_texts(data, text_column)
    column = frame.attrs["text_column"]
    if id_column is not None and id_column not in frame.columns:
        raise _usage(
            f"{data}: no column {id_column!r} for --id-column; columns are: "
            f"{', '.join(map(str, frame.columns))}"
        )
    ids = frame[id_column].tolist() if id_column else range(len(frame))
    yield from zip(ids, frame[column].tolist(), strict=True)


def _records(
    seeds: Sequence[tuple[object, str]],
    matcher: Matcher,
    names: list[str],
    options: tuple[bool, int, int, float, bool],
    show_progress: Path | None,
) -> Iterator[dict]:
    """The JSON records of every seed's variants; with an output file, progress on stderr."""
    from contextlib import nullcontext

    from textfair.cli._progress import Stages

    done = 0
    shown = (
        Stages(items=lambda: done, total=len(seeds), unit="texts")
        if show_progress is not None
        else nullcontext(lambda message: None)
    )
    from textfair.text.records import seed_records

    with shown as advance:
        advance("generating counterfactuals")
        for seed_id, seed_text in seeds:
            yield from seed_records(seed_id, seed_text, matcher, names, *options)
            done += 1


def _write(records: Iterable[dict], handle: IO[str]) -> int:
    count = 0
    for record in records:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        count += 1
    return count
