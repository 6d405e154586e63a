"""The JSON-lines records `textfair counterfactuals` writes for one seed text (and the Ray
pipeline writes per shard): its counterfactuals and, when asked, its gender swap. Above both
generators, so neither imports the other."""

from __future__ import annotations

from textfair.text.gender import gender_swap as swap_gender
from textfair.text.generate import counterfactuals


def seed_records(
    seed_id,
    text,
    matcher,
    names,
    gender_swap,
    max_variants,
    seed,
    min_acceptability=0.0,
    private_names=False,
) -> list[dict]:
    """The records of one seed text: its counterfactuals (sampled with `seed`, those scoring
    below `min_acceptability` left out; `private_names`: every first name taken for a private
    person's), and with `gender_swap` the text with he/she, his/her, ... swapped."""
    seed_id = _plain(seed_id)
    records = [
        variant.to_record()
        for variant in counterfactuals(
            text,
            names,
            matcher=matcher,
            max_variants=max_variants,
            seed=seed,
            seed_id=seed_id,
            with_edits=False,
            min_acceptability=min_acceptability,
            private_names=private_names,
        )
    ]
    if gender_swap:
        swapped = swap_gender(text, seed_id=seed_id)
        if swapped is not None:
            records.append(swapped.to_record())
    return records


def _plain(value: object) -> object:
    """numpy scalars from pandas become plain Python values for JSON."""
    return value.item() if hasattr(value, "item") else value
