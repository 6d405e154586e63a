"""A corpus of any size built from the bundled Wikipedia comments, for the scale benchmark
and the Ray tests: each comment and its seeded identity-term counterfactuals (with the
comment's label) form a pool of distinct texts, and rows are drawn from the pool with a
seed, so texts repeat as they do in real comment data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from textfair.text.generate import counterfactuals
from textfair.text.matcher import Matcher

WIKI = Path(__file__).resolve().parents[1] / "textfair" / "datasets" / "wiki_toxicity.csv"


def text_pool(terms: str = "dixon2018", per_text: int = 64, seed: int = 0) -> pd.DataFrame:
    """Every comment and up to `per_text` of its counterfactuals: columns comment, toxic."""
    frame = pd.read_csv(WIKI)
    matcher = Matcher(terms)
    rows = []
    for index, (text, toxic) in enumerate(zip(frame["comment"], frame["toxic"], strict=True)):
        rows.append((text, toxic))
        for variant in counterfactuals(
            text, None, matcher=matcher, max_variants=per_text, seed=seed + index, with_edits=False
        ):
            rows.append((variant.text, toxic))
    return pd.DataFrame(rows, columns=["comment", "toxic"]).drop_duplicates("comment")


def build_corpus(rows: int, pool: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """`rows` rows drawn from `pool` with replacement (seeded)."""
    picks = np.random.default_rng(seed).integers(0, len(pool), size=rows)
    return pool.iloc[picks].reset_index(drop=True)
