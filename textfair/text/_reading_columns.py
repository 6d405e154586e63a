"""A stored reading's mentions and plans as columns: what `textfair.text.reading` stores, and
the seeds' mentions made into objects only when a seed is first asked for.

A re-audit of a 20k-text corpus spent most of the time it took to take a stored reading on
parsing one JSON value per mention field and building every mention of every seed (0.45 s of
0.66 s), most of them never rewritten again by that audit. Here each field is a column: the
numbers (spans, which term, which string) are int32 arrays checked in a few array operations,
the strings (surfaces, forms, roles, reasons, term ids) are written once each in a table,
and a seed's `Mention`\\ s are built when `StoredMentions[seed]` is first read.

Tables, each a set of equal-length columns:

* ``found``: every seed's mentions, seed by seed (``owner`` the seed, ascending);
* ``plans``: every seed's plan per category (``owner`` the seed, ``category``,
  ``left_out`` and ``world`` as strings or -1 for none, its targets the slice
  ``target_start:target_end`` of the column ``targets``);
* ``related``: the plans' related words (``owner`` the plan's row).

A mention's term is a row of ``terms`` (category, term id, member id or None), looked up in
the audit's own term list: a term or member the list lacks, a span outside its text, an
index outside its table or an owner out of order refuses the whole reading.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from textfair.terms import Term, TermList
from textfair.text._coherence import CategoryPlan
from textfair.text.mentions import Mention

__all__ = ["MENTION_FIELDS", "StoredMentions", "columns_of", "reading_of"]

#: A mention's columns: where it is, which term (a row of the terms table), its strings
#: (rows of the strings table) and whether it is fixed.
MENTION_FIELDS = ("start", "end", "term", "surface", "natural", "form", "possessive", "role")


class _Tables:
    """The strings and terms tables being written: each distinct value once, by position."""

    def __init__(self) -> None:
        self.strings: dict[str, int] = {}
        self.terms: dict[tuple[str, str, str | None], int] = {}

    def string(self, value: str | None) -> int:
        return -1 if value is None else self.strings.setdefault(value, len(self.strings))

    def term(self, mention: Mention) -> int:
        member = mention.member.id if mention.member is not None else None
        key = (mention.category, mention.term_id, member)
        return self.terms.setdefault(key, len(self.terms))


def _mention_rows(tables: _Tables, mentions: list[tuple[int, Mention]]) -> dict[str, list[int]]:
    columns: dict[str, list[int]] = {name: [] for name in ("owner", *MENTION_FIELDS, "fixed")}
    for owner, m in mentions:
        columns["owner"].append(owner)
        columns["start"].append(m.start)
        columns["end"].append(m.end)
        columns["term"].append(tables.term(m))
        for name in ("surface", "natural", "form", "possessive", "role"):
            columns[name].append(tables.string(getattr(m, name)))
        columns["fixed"].append(int(m.fixed))
    return columns


def columns_of(
    mentions: Sequence[Sequence[Mention]], plans: Sequence[dict[str, CategoryPlan]]
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """A reading's mentions and plans as (the header's tables: strings and terms, the int32
    columns by name)."""
    tables = _Tables()
    found = _mention_rows(tables, [(i, m) for i, seed in enumerate(mentions) for m in seed])
    plan_columns: dict[str, list[int]] = {
        name: [] for name in ("owner", "category", "left_out", "world", "target_start")
    }
    targets: list[int] = []
    related: list[tuple[int, Mention]] = []
    for seed, by_category in enumerate(plans):
        for category, plan in by_category.items():
            row = len(plan_columns["owner"])
            plan_columns["owner"].append(seed)
            plan_columns["category"].append(tables.string(category))
            plan_columns["left_out"].append(tables.string(plan.left_out))
            plan_columns["world"].append(tables.string(plan.world))
            plan_columns["target_start"].append(len(targets))
            targets.extend(tables.string(t) for t in sorted(plan.targets))
            related.extend((row, m) for m in plan.related)
    plan_columns["target_end"] = [*plan_columns["target_start"][1:], len(targets)]
    arrays = {f"found.{k}": v for k, v in found.items()}
    arrays |= {f"plans.{k}": v for k, v in plan_columns.items()}
    arrays |= {f"related.{k}": v for k, v in _mention_rows(tables, related).items()}
    arrays["targets"] = targets
    header = {
        "strings": list(tables.strings),
        "terms": [list(key) for key in tables.terms],
    }
    return header, {name: np.asarray(v, dtype="<i4") for name, v in arrays.items()}


class StoredMentions(Sequence[list[Mention]]):
    """Each seed's mentions as a stored reading holds them: `[seed]` builds that seed's
    `Mention`\\ s the first time it is read (and keeps them); `named(seed)` gives its
    (category, term id) pairs without building any."""

    def __init__(
        self,
        columns: dict[str, np.ndarray],
        bounds: np.ndarray,
        strings: list[str],
        terms: list[tuple[Term, Term | None]],
    ) -> None:
        self._rows = {name: columns[name].tolist() for name in (*MENTION_FIELDS, "fixed")}
        self._bounds = bounds.tolist()  # seed i's rows: bounds[i]:bounds[i + 1]
        self._strings = strings
        self._terms = terms
        self._made: list[list[Mention] | None] = [None] * (len(bounds) - 1)

    def __len__(self) -> int:
        return len(self._made)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        made = self._made[index]
        if made is None:
            made = self._made[index] = _mentions(
                self._rows, range(self._bounds[index], self._bounds[index + 1]), self
            )
        return made

    def __iter__(self) -> Iterator[list[Mention]]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def named(self, index: int) -> list[tuple[str, str]]:
        """The (category, term id) of each mention of seed `index`, in order."""
        rows = self._rows["term"][self._bounds[index] : self._bounds[index + 1]]
        return [(self._terms[k][0].category, self._terms[k][0].id) for k in rows]


def _mentions(rows: dict[str, list[int]], span: range, tables: StoredMentions) -> list[Mention]:
    strings, terms = tables._strings, tables._terms
    return [
        Mention(
            rows["start"][k],
            rows["end"][k],
            terms[rows["term"][k]][0],
            strings[rows["surface"][k]],
            strings[rows["natural"][k]],
            strings[rows["form"][k]],  # type: ignore[arg-type]
            strings[rows["possessive"][k]],
            bool(rows["fixed"][k]),
            strings[rows["role"][k]],
            terms[rows["term"][k]][1],
        )
        for k in span
    ]


def reading_of(
    header: dict[str, Any],
    columns: dict[str, np.ndarray],
    lengths: np.ndarray,
    term_list: TermList,
) -> tuple[StoredMentions, list[dict[str, CategoryPlan]]]:
    """The mentions (built when asked for) and plans (now) that `columns_of` stored, their
    terms looked up in `term_list`; ValueError or KeyError for anything that does not fit
    the texts of `lengths` (each text's length) or the list."""
    strings = [str(s) for s in header["strings"]]
    by_key = {(t.category, t.id): t for t in term_list.terms()}
    members = {(t.category, t.id, m.id): m for t in term_list.terms() for m in t.members}
    terms = [
        (by_key[(c, t)], None if member is None else members[(c, t, member)])
        for c, t, member in header["terms"]
    ]
    seeds = len(lengths)
    found = {k.removeprefix("found."): v for k, v in columns.items() if k.startswith("found.")}
    plans = {k.removeprefix("plans."): v for k, v in columns.items() if k.startswith("plans.")}
    related = {
        k.removeprefix("related."): v for k, v in columns.items() if k.startswith("related.")
    }
    targets = columns["targets"]
    _check_owners(found["owner"], seeds)
    _check_owners(plans["owner"], seeds)
    _check_owners(related["owner"], len(plans["owner"]))
    _check_mentions(found, lengths[found["owner"]], len(strings), len(terms))
    _check_mentions(related, lengths[plans["owner"][related["owner"]]], len(strings), len(terms))
    for name in ("category", "left_out", "world"):
        _check_index(plans[name], len(strings), optional=name != "category")
    _check_index(targets, len(strings))
    start, end = plans["target_start"], plans["target_end"]
    if np.any(start < 0) or np.any(end < start) or np.any(end > len(targets)):
        raise ValueError("a plan's targets outside the stored ones")
    bounds = np.searchsorted(found["owner"], np.arange(seeds + 1), side="left")
    mentions = StoredMentions(found, bounds, strings, terms)
    return mentions, _plans(plans, targets, related, strings, mentions, seeds)


def _plans(
    plans: dict[str, np.ndarray],
    targets: np.ndarray,
    related: dict[str, np.ndarray],
    strings: list[str],
    tables: StoredMentions,
    seeds: int,
) -> list[dict[str, CategoryPlan]]:
    rows = {name: column.tolist() for name, column in related.items()}
    by_plan: dict[int, list[int]] = {}
    for k, owner in enumerate(rows["owner"]):
        by_plan.setdefault(owner, []).append(k)
    all_targets = [strings[k] for k in targets.tolist()]
    out: list[dict[str, CategoryPlan]] = [{} for _ in range(seeds)]
    columns = zip(
        plans["owner"].tolist(),
        plans["category"].tolist(),
        plans["left_out"].tolist(),
        plans["world"].tolist(),
        plans["target_start"].tolist(),
        plans["target_end"].tolist(),
        strict=True,
    )
    for row, (owner, category, left_out, world, first, last) in enumerate(columns):
        out[owner][strings[category]] = CategoryPlan(
            None if left_out < 0 else strings[left_out],
            frozenset(all_targets[first:last]),
            tuple(_mentions(rows, by_plan.get(row, ()), tables)),  # type: ignore[arg-type]
            None if world < 0 else strings[world],
        )
    return out


def _check_owners(owner: np.ndarray, count: int) -> None:
    if len(owner) and (owner[0] < 0 or owner[-1] >= count or np.any(np.diff(owner) < 0)):
        raise ValueError("a row owned by no seed, or out of order")


def _check_index(column: np.ndarray, size: int, optional: bool = False) -> None:
    if len(column) and (column.min() < (-1 if optional else 0) or column.max() >= size):
        raise ValueError("an index outside its table")


def _check_mentions(
    columns: dict[str, np.ndarray], lengths: np.ndarray, strings: int, terms: int
) -> None:
    start, end = columns["start"], columns["end"]
    if np.any(start < 0) or np.any(end < start) or np.any(end > lengths):
        raise ValueError("a mention outside its text")
    _check_index(columns["term"], terms)
    for name in ("surface", "natural", "form", "possessive", "role"):
        _check_index(columns[name], strings)
    if len(columns["fixed"]) and not np.isin(columns["fixed"], (0, 1)).all():
        raise ValueError("a mention neither fixed nor not")
