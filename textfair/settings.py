"""The settings of an audit: one typed object, one table of constraints, one checker.

:class:`AuditConfig` is built once, from the command line (`textfair audit`'s options) or
from the Python API (`textfair.audit`'s keywords), and is what report.json records under
``config`` (:meth:`AuditConfig.to_dict`; :meth:`AuditConfig.from_dict` reads it back, old
reports included). Every setting is checked against :data:`CONSTRAINTS`, a declarative
table in the manner of scikit-learn's ``_param_validation``, by the one function
:func:`check_parameter`, before the model is asked anything.

Differences are in points (5 is five percentage points). A number below 1 given where points
are expected is read as a fraction, as textfair took them before (0.05 is 5 points), with a
one-line note saying how to write it.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from textfair.errors import InputNote, TextfairError
from textfair.terms import TermList, load_term_list

__all__ = [
    "CONSTRAINTS",
    "DEFAULT_MIN_ACCEPTABILITY",
    "MAX_ASSIGNMENTS",
    "AuditConfig",
    "PointsNote",
    "check_parameter",
    "points",
]

#: Variants scoring below this are not generated and not audited (``--min-acceptability``).
#: Where a calibrated score says a variant is as likely rejected as accepted: below it, a
#: strict reader more likely rejects the variant than accepts it. Re-weighed 2026-11-30
#: (``benchmarks.thresholds``, 0.4-0.9; docs/pages/benchmarks.md): 0.8 brings the tune half's
#: wrong variants still written to issue 56's 8% (12.9% at 0.5, in-sample), but takes every
#: seed of five HolisticBias categories of the bundled comments out of the test, so it stays.
DEFAULT_MIN_ACCEPTABILITY = 0.5

# Assignments per seed at most. Two HolisticBias axes of 100 descriptors make 10,000
# assignments; past this bound each seed is rewritten to a sample of them (fixed by its text).
# Every pair of dixon2018 categories (at most 17 x 16 = 272) stays exhaustive.
MAX_ASSIGNMENTS = 512


class PointsNote(InputNote, FutureWarning):
    """A difference given as a fraction (0.05) where points (5) are expected: read as the
    fraction it was, said in one line with how to write it (the CLI: "note: ...", naming
    the flag of `parameter`)."""

    def __init__(self, message: str, parameter: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter


def points(name: str, value: float) -> float:
    """A difference in points: `value` as it is from 1 up, a number in (0, 1) read as a
    fraction (0.05 is 5 points) with a :class:`PointsNote`; 0 and anything not a number are
    returned as they are (the checker refuses what is wrong)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return value
    if 0.0 < float(value) < 1.0:
        converted = round(100.0 * float(value), 10)
        note = (
            f"{name} {value:g} is below 1, so it is read as a fraction: {converted:g} points; "
            f"differences are given in points now, write {converted:g}"
        )
        parameter = name if name.isidentifier() else None
        warnings.warn(PointsNote(note, parameter), stacklevel=3)
        return converted
    return value


@dataclass(frozen=True)
class Interval:
    """A number of `kind` between `low` and `high` (None: unbounded), each end included or
    not. A NaN is in no interval."""

    kind: type
    low: float | None
    high: float | None
    closed: str = "both"  # "both", "left", "right" or "neither"
    unit: str = ""  # "points": said after the range

    def holds(self, value: object) -> bool:
        if not _is(value, self.kind):
            return False
        number = float(value)  # type: ignore[arg-type]
        if math.isnan(number):
            return False
        left = self.closed in ("both", "left")
        right = self.closed in ("both", "right")
        if self.low is not None and (number < self.low or (not left and number == self.low)):
            return False
        return not (
            self.high is not None and (number > self.high or (not right and number == self.high))
        )

    def words(self) -> str:
        what = "a whole number" if self.kind is numbers.Integral else "a number"
        if self.high is None:
            return (
                f"{what}, {self.low:g} or more"
                if self.closed in ("both", "left")
                else (f"{what} above {self.low:g}")
            )
        ends = ("[" if self.closed in ("both", "left") else "(") + (
            f"{self.low:g}, {self.high:g}" + ("]" if self.closed in ("both", "right") else ")")
        )
        return f"{what} in {ends}" + (f" {self.unit}" if self.unit else "")


@dataclass(frozen=True)
class Options:
    """One of `choices`."""

    choices: tuple[str, ...]

    def holds(self, value: object) -> bool:
        return isinstance(value, str) and value in self.choices

    def words(self) -> str:
        return "one of " + ", ".join(map(repr, self.choices))


@dataclass(frozen=True)
class Kind:
    """Any value of `kinds` (a bool is no number here, nor a number a bool)."""

    kinds: tuple[type, ...]
    what: str

    def holds(self, value: object) -> bool:
        return any(_is(value, kind) for kind in self.kinds)

    def words(self) -> str:
        return self.what


@dataclass(frozen=True)
class Names:
    """A list (or tuple) of strings."""

    what: str

    def holds(self, value: object) -> bool:
        return isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)

    def words(self) -> str:
        return self.what


Constraint = Interval | Options | Kind | Names


def _is(value: object, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    return isinstance(value, kind) and not isinstance(value, bool)


# Every setting a user can give, from the command line or the API, and what it may be; a
# tuple is "any of these" (None among them: may be left out).
CONSTRAINTS: dict[str, tuple[Constraint | None, ...]] = {
    # AuditConfig's fields.
    "terms": (Kind((str, TermList), "a term list's name, a file or a TermList"),),
    "categories": (None, Names("a list of category names")),
    "theta": (Interval(numbers.Real, 0, 1, "right"),),
    "max_order": (Interval(numbers.Integral, 1, None),),
    "confidence": (Interval(numbers.Real, 0, 1, "neither"),),
    "error": (Interval(numbers.Real, 0, 100, "neither", "points"),),
    "min_samples": (Interval(numbers.Integral, 1, None),),
    "max_samples": (Interval(numbers.Integral, 1, None),),
    "mode": (Options(("paired", "paper")),),
    "correction": (Options(("holm", "bh", "none")),),
    "top": (Interval(numbers.Integral, 1, None),),
    "seed": (Interval(numbers.Integral, 0, None),),
    "group": (Kind((bool,), "True or False"),),
    "causal": (Kind((bool,), "True or False"),),
    "causal_threshold": (Interval(numbers.Real, 0, 1),),
    "causal_max_order": (None, Interval(numbers.Integral, 1, None)),
    "examples": (Interval(numbers.Integral, 0, None),),
    # A seed needs R and at least one other assignment.
    "max_assignments": (Interval(numbers.Integral, 2, None),),
    "exclude_flags": (Names("a list of flags"),),
    "min_acceptability": (Interval(numbers.Real, 0, 1),),
    "private_names": (Kind((bool,), "True or False"),),
    "templates": (
        Kind((str, list, tuple), "auto, toxicity, sentiment, none, a file or a list of templates"),
    ),
    "extra": (Kind((dict,), "a dict"),),
    # The API's keywords beside the settings.
    "unit": (Options(("document", "sentence")),),
    "bins": (Interval(numbers.Integral, 1, None),),
    "holdout": (Interval(numbers.Real, 0, 1, "neither"),),
}


def check_parameter(name: str, value: object) -> object:
    """`value` if it meets `name`'s constraints in :data:`CONSTRAINTS` (numpy's numbers
    become Python's: the report is JSON); else a one-line TextfairError naming `name`."""
    allowed = CONSTRAINTS[name]
    if value is None and None in allowed:
        return value
    for constraint in allowed:
        if constraint is not None and constraint.holds(value):
            if isinstance(value, numbers.Integral) and not isinstance(value, bool):
                return int(value)
            if isinstance(value, numbers.Real) and not isinstance(value, bool):
                return float(value)
            return value
    expected = " or ".join("None" if c is None else c.words() for c in allowed)
    raise TextfairError.bad(name, f"is {value!r:.60}; expected {expected}")


@dataclass
class AuditConfig:
    """Every setting of an audit, built once from the command line or the API; report.json
    records it (:meth:`to_dict`) so the run can be reproduced.

    `error` is in points (5: each interval's target half-width is 5 percentage points); a
    number below 1 is read as a fraction (0.05), as before, with a note. :meth:`checked`
    holds every setting to :data:`CONSTRAINTS` before the first model query.
    """

    terms: str | TermList = "dixon2018"
    categories: list[str] | None = None
    theta: float = 0.05
    max_order: int = 2
    confidence: float = 0.95
    error: float = 5.0
    min_samples: int = 100
    max_samples: int = 1000
    mode: str = "paired"
    correction: str = "holm"
    top: int = 10
    seed: int = 0
    group: bool = True
    causal: bool = True
    causal_threshold: float = 0.1
    causal_max_order: int | None = None
    """Causal tests over category sets of at most this many categories; None: every set
    when the list has at most `ALL_CAUSAL_SETS_UP_TO` categories, else `max_order`."""
    examples: int = 3
    max_assignments: int = MAX_ASSIGNMENTS
    """Assignments each seed is rewritten to at most (group fairness, paired mode)."""
    exclude_flags: tuple[str, ...] = ()
    """Terms holding any of these flags ("dispreferred") are left out of the list."""
    min_acceptability: float = DEFAULT_MIN_ACCEPTABILITY
    """Targets whose acceptability score is below this are neither generated nor audited
    (`textfair.text._acceptability`); 0 keeps every variant the rules allow."""
    private_names: bool = False
    """Every first name of the corpus is a private person's (applicants, customers); by
    default only one the text shows to be takes part (`textfair.text._references`)."""
    templates: str | list[str] | tuple[str, ...] = "auto"
    """The templated seeds audited beside the corpus, reported apart
    (`textfair.auditing.templates`): ``"auto"`` (the built-in suite for the model's task),
    ``"toxicity"``, ``"sentiment"``, ``"none"``, a file of templates, or a list of them."""
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.error = points("error", self.error)

    @property
    def error_fraction(self) -> float:
        """`error` as the fraction the estimators take (5 points: 0.05)."""
        return self.error / 100.0

    def term_list(self) -> TermList:
        """The term list this audit uses: `terms` less the terms holding an excluded flag."""
        terms = self.terms if isinstance(self.terms, TermList) else load_term_list(self.terms)
        return terms.without_flags(self.exclude_flags)

    def checked(self) -> AuditConfig:
        """This configuration, once every setting meets :data:`CONSTRAINTS`; a one-line
        TextfairError naming the first that does not."""
        for item in dataclasses.fields(self):
            setattr(self, item.name, check_parameter(item.name, getattr(self, item.name)))
        self.exclude_flags = tuple(self.exclude_flags)
        if self.min_samples > self.max_samples:
            raise TextfairError.bad(
                "min_samples", f"{self.min_samples} is above max_samples {self.max_samples}"
            )
        return self

    def to_dict(self) -> dict[str, Any]:
        """The settings as report.json records them: every field but `extra`, a TermList
        by its name, `exclude_flags` as a list."""
        record = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        record.pop("extra")
        if isinstance(self.terms, TermList):
            record["terms"] = self.terms.name
        record["exclude_flags"] = list(self.exclude_flags)
        if not isinstance(self.templates, str):
            record["templates"] = "custom"
        record["categories"] = None if self.categories is None else list(self.categories)
        return record

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> AuditConfig:
        """The settings a report.json records, old reports too: fields it lacks take their
        defaults, keys that are no field (the interval's name, `bins`) are left out, the term
        list of a report before 0.10 is read from ``term_list``, and an `error` written as a
        fraction (before differences were in points) is read as one, without a note; one
        without `min_acceptability` (before the score) kept every variant: 0."""
        names = {f.name for f in dataclasses.fields(cls)} - {"extra"}
        values = {k: v for k, v in record.items() if k in names}
        if "terms" not in values and isinstance(record.get("term_list"), str):
            values["terms"] = record["term_list"]
        error = values.get("error")
        if isinstance(error, int | float) and not isinstance(error, bool) and 0 < error < 1:
            values["error"] = round(100.0 * error, 10)
        if "exclude_flags" in values:
            values["exclude_flags"] = tuple(values["exclude_flags"])
        # A report from before the acceptability score kept every variant.
        values.setdefault("min_acceptability", 0.0)
        return cls(**values)
