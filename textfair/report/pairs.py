"""Every counterfactual pair whose decision differs, as a table a user can browse, filter
and keep (CheckList shows each failing case; a report shows 2-4 per finding).

The pairs are the term-pair swaps of the causal tests: a seed that names one term of a
category, rewritten to each other term of it. They were all scored during the audit, so
writing them asks the model nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textfair.errors import TextfairError

if TYPE_CHECKING:
    import pandas as pd

    from textfair.report.model import AuditReport

FORMATS = (".csv", ".tsv", ".jsonl")


def check_pairs_path(path: str | Path | None) -> None:
    """Before any query: the file's suffix names a format textfair writes."""
    if path is not None and Path(path).suffix.lower() not in FORMATS:
        raise TextfairError(
            f"--pairs is {path}; expected a file ending in {', '.join(FORMATS)} "
            "(CSV, TSV or JSON lines), e.g. --pairs flips.csv"
        )


def flipped_pairs_frame(report: AuditReport) -> pd.DataFrame:
    """The flipped pairs as a DataFrame: category, axis, from, to, the text and its
    counterfactual, the decision of each in the model's words, the favourable label's
    probability of each, whether the seed's placebo edit flipped too (a flip that a
    neutral edit also causes is not evidence about the identity), and the counterfactual's
    acceptability score (3 decimals; empty for tables)."""
    import pandas as pd

    outcome = report.outcome
    flipped = report.counterfactual.flipped if report.counterfactual else ()
    columns = [
        "category",
        "axis",
        "from",
        "to",
        "text",
        "counterfactual",
        "decision",
        "counterfactual_decision",
        f"p_{outcome}",
        f"counterfactual_p_{outcome}",
        "placebo_flipped",
        "acceptability",
    ]
    rows = [
        [
            pair.category,
            report.term_axis(pair.category, pair.source),
            pair.source,
            pair.target,
            pair.text,
            pair.counterfactual,
            report.decision_name(pair.favourable),
            report.decision_name(not pair.favourable),
            round(pair.score, 6),
            round(pair.counterfactual_score, 6),
            pair.placebo_flipped,
            None if pair.acceptability is None else round(pair.acceptability, 3),
        ]
        for pair in flipped
    ]
    return pd.DataFrame(rows, columns=columns)


def write_flipped_pairs(report: AuditReport, path: str | Path, *, overwrite: bool = False) -> int:
    """Write every flipped pair to `path` (.csv, .tsv or .jsonl), atomically; returns how
    many. An existing file is replaced only with `overwrite`."""
    from textfair.io import atomic_writer

    check_pairs_path(path)
    if Path(path).exists() and not overwrite:
        raise TextfairError(
            f"--pairs {path} exists; replace it with --overwrite (overwrite=True in Python) "
            "or choose a new file name"
        )
    frame = flipped_pairs_frame(report)
    suffix = Path(path).suffix.lower()
    with atomic_writer(path, replace=overwrite) as handle:
        if suffix == ".jsonl":
            frame.to_json(handle, orient="records", lines=True, force_ascii=False)
        else:
            frame.to_csv(handle, index=False, sep="\t" if suffix == ".tsv" else ",")
    return len(frame)
