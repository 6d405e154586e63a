"""The JSON-lines records `textfair counterfactuals` writes for one seed text (and the Ray
pipeline writes per shard): its counterfactuals and, when asked, its gender swap. Above both
generators, so neither imports the other."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from textfair.text.gender import gender_swap as swap_gender
from textfair.text.generate import counterfactuals
from textfair.text.matcher import Matcher


def seed_records(
    seed_id: object,
    text: str,
    matcher: Matcher,
    names: Sequence[str] | None,
    gender_swap: bool,
    max_variants: int,
    seed: int,
    min_acceptability: float = 0.0,
    private_names: bool = False,
) -> list[dict[str, Any]]:
    """The records of one seed text: its counterfactuals (sampled with `seed`, those scoring
    below `min_acceptability` left out; `private_names`: every first name taken for a private
    person's), and with `gender_swap` the text with he/she, his/her, ... swapped."""
    plain_id = _plain(seed_id)
    records = [
        variant.to_record()
        for variant in counterfactuals(
            text,
            names,
            matcher=matcher,
            max_variants=max_variants,
            seed=seed,
            seed_id=plain_id,
            with_edits=False,
            min_acceptability=min_acceptability,
            private_names=private_names,
        )
    ]
    if gender_swap:
        swapped = swap_gender(text, seed_id=plain_id)
        if swapped is not None:
            records.append(swapped.to_record())
    return records


def _plain(value: object) -> int | str | None:
    """numpy scalars from pandas become plain Python values for JSON. A seed id is read
    from the corpus's id column as it is (a whole number or a string, as written there),
    so it is passed on unchanged, not converted."""
    return cast("int | str | None", value.item() if hasattr(value, "item") else value)
