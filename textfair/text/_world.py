"""The WORLD flags of a corpus's seeds (issue 56): per seed and category it takes part in,
what its rewrites rest on where they may be false about a real, named person or work ("full
name 'Charles Lindbergh'", "first name 'Molly', not shown to be a private person's").

Such a variant is coherent and a valid test of whether the decision depends on the identity
term, so it is written and flagged, never left out; the flags are read here, per seed for a
variant's record and a finding's count, per category for the report's ``data.seeds_world``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from textfair.text._coherence import CategoryPlan

__all__ = ["WorldFlags"]


class WorldFlags:
    """Per seed, the WORLD flag of each category it takes part in (most seeds have none)."""

    def __init__(self, plans: Iterable[Mapping[str, CategoryPlan]]) -> None:
        self._flags = [
            {c: plan.world for c, plan in by_category.items() if plan.world and not plan.left_out}
            for by_category in plans
        ]

    def of(self, index: int, categories: Iterable[str]) -> str | None:
        """What seed `index`'s rewrites in `categories` rest on ("; "-joined), or None."""
        flags = self._flags[index]
        return "; ".join(dict.fromkeys(flags[c] for c in categories if c in flags)) or None

    def counts(self, categories: Sequence[str]) -> dict[str, int]:
        """Per category, the seeds taking part in its rows whose rewrites are flagged."""
        return {c: sum(c in flags for flags in self._flags) for c in categories}
