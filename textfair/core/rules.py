"""Rules and rule sets: one sensitive category and the value it takes, at most one per
category. The one representation of a group, for text and rows alike, shared by the domains
that build them, the discovery algorithms that search them and the report that shows them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["Rule", "RuleSet"]


@dataclass(frozen=True, order=True)
class Rule:
    """One sensitive category and the value it takes (text: a term id)."""

    category: str
    value: str


class RuleSet(tuple[Rule, ...]):
    """At most one rule per category: the one representation of a rule set, for text and
    rows alike. A tuple, so discovery hashes, orders and indexes rule sets as it always did;
    these methods are the only place a rule set is shown, written or read back.

    In a report, a text rule set is written ``[{"category": c, "term": t}, ...]`` and a row
    rule set ``[{"feature": f, "values": v}, ...]``; `kind` says which ("text" or "rows").
    """

    __slots__ = ()

    def __new__(cls, rules: Iterable[Rule] = ()) -> RuleSet:
        return super().__new__(cls, rules)

    def label(self, kind: str = "text") -> str:
        """For people: {"gay", "taoist"} for text, {sex ∈ Female, race ∈ Black} for rows."""
        if kind == "text":
            return "{" + ", ".join(f'"{rule.value}"' for rule in self) + "}"
        return "{" + ", ".join(f"{rule.category} ∈ {rule.value}" for rule in self) + "}"

    @property
    def key(self) -> str:
        """A stable one-line name, "gender=gay & religion=taoist", for files and tables."""
        return " & ".join(f"{rule.category}={rule.value}" for rule in self)

    def to_records(self, kind: str = "text") -> list[dict[str, str]]:
        """The rule set as report.json writes it."""
        first, second = _RECORD_KEYS[kind]
        return [{first: rule.category, second: rule.value} for rule in self]

    @classmethod
    def from_records(cls, records: Iterable[Mapping[str, object]], kind: str = "text") -> RuleSet:
        """Read back what `to_records` wrote."""
        first, second = _RECORD_KEYS[kind]
        return cls(Rule(str(item[first]), str(item[second])) for item in records)


_RECORD_KEYS = {"text": ("category", "term"), "rows": ("feature", "values")}
