"""How a model's output becomes a favourable or unfavourable outcome.

Three kinds of heads, three rules:

* **one label** (``non-toxic``): favourable when the model's most probable label is it
  (argmax), the reading of a softmax head with one favourable class;
* **a set of labels** (``4,5`` or ``4 stars,5 stars``): favourable when the most probable
  label is any of them: star ratings and other ordinal heads;
* **a threshold rule** (``toxic<0.5``, ``any(toxic,insult)>=0.5``, ``all(toxic,obscene)<0.5``):
  favourable when the rule holds on the probabilities: multi-label heads with a sigmoid per
  label (``problem_type: multi_label_classification``), whose rows do not sum to 1 and whose
  argmax says nothing about any one label.

A rule names the favourable outcome, so a toxicity head is written ``toxic<0.5`` (not toxic)
and a sentiment head ``positive>=0.5``. ``any(...)``/``all(...)`` combine several labels: the
rule holds when it holds for any, or all, of them.

Causal tests count a flip when the outcome changes: for label rules the most probable label
(as Themis does), for threshold rules whether the rule holds.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from textfair.errors import TextfairError
from textfair.models.base import naming_hint

__all__ = [
    "Decision",
    "class_labels",
    "decide",
    "favourable_score",
    "outcomes",
    "parse_decision",
    "recorded_decision",
]

_OPERATORS: dict[str, Callable] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_RULE = re.compile(
    r"^\s*(?:(?P<combine>any|all)\s*\((?P<labels>[^()]+)\)|(?P<label>[^<>=]+?))\s*"
    r"(?P<op><=|>=|<|>)\s*(?P<threshold>[0-9]*\.?[0-9]+)\s*$"
)


@dataclass(frozen=True)
class Decision:
    """The favourable outcome of a model: its label columns, and a threshold when the rule
    reads probabilities rather than the most probable label."""

    labels: tuple[str, ...]
    columns: tuple[int, ...]
    op: str | None = None
    threshold: float | None = None
    combine: str = "any"

    @property
    def by_threshold(self) -> bool:
        """True for a threshold rule (multi-label heads), False for a label rule."""
        return self.op is not None

    @property
    def column(self) -> int:
        """The first favourable column (for what reads a single label)."""
        return self.columns[0]

    def favourable(self, probabilities: np.ndarray) -> np.ndarray:
        """One bool per row: is the outcome favourable?"""
        probabilities = np.asarray(probabilities)
        if probabilities.ndim != 2 or len(probabilities) == 0:
            return np.zeros(len(probabilities), dtype=bool)
        if self.op is None:  # a label rule (not `by_threshold`)
            return np.isin(probabilities.argmax(axis=1), self.columns)
        holds = _OPERATORS[self.op](probabilities[:, list(self.columns)], self.threshold)
        return holds.any(axis=1) if self.combine == "any" else holds.all(axis=1)

    def score(self, probabilities: np.ndarray) -> np.ndarray:
        """A favourable score in [0, 1] per row, rising as the outcome gets more favourable:
        the favourable labels' probability for a label rule; for a threshold rule the
        probability the rule compares, turned so that the rule holds when it is high
        (``toxic<0.5`` scores 1 - p(toxic); ``all(a,b)<0.5`` scores 1 - max)."""
        probabilities = np.asarray(probabilities, dtype=float)
        if not self.by_threshold:
            return probabilities[:, list(self.columns)].sum(axis=1)
        chosen = probabilities[:, list(self.columns)]
        below = self.op in ("<", "<=")
        if below:
            return 1.0 - (chosen.min(axis=1) if self.combine == "any" else chosen.max(axis=1))
        return chosen.max(axis=1) if self.combine == "any" else chosen.min(axis=1)

    def outcome(self, probabilities: np.ndarray) -> np.ndarray:
        """The outcome a causal test compares: the most probable label's column for a label
        rule, 1/0 (the rule holds or not) for a threshold rule."""
        probabilities = np.asarray(probabilities)
        if self.by_threshold:
            return self.favourable(probabilities).astype(int)
        return probabilities.argmax(axis=1)

    def describe(self) -> str:
        """The rule as the user writes it: "non-toxic", "4,5", "toxic<0.5"."""
        names = [self.labels[c] for c in self.columns]
        if not self.by_threshold:
            return ",".join(names)
        subject = names[0] if len(names) == 1 else f"{self.combine}({','.join(names)})"
        return f"{subject}{self.op}{self.threshold:g}"


def decide(favorable: int | Decision, probabilities: np.ndarray) -> np.ndarray:
    """Favourable (True) or not per row, for a Decision or a favourable column (argmax)."""
    if isinstance(favorable, Decision):
        return favorable.favourable(probabilities)
    return np.asarray(probabilities).argmax(axis=1) == favorable


def favourable_score(favorable: int | Decision, probabilities: np.ndarray) -> np.ndarray:
    """The favourable score per row: a Decision's, or the favourable column's probability."""
    if isinstance(favorable, Decision):
        return favorable.score(probabilities)
    return np.asarray(probabilities)[:, favorable]


def outcomes(favorable: int | Decision, probabilities: np.ndarray) -> np.ndarray:
    """What a flip compares: the argmax label, or the rule's 1/0 for a threshold rule."""
    if isinstance(favorable, Decision):
        return favorable.outcome(probabilities)
    return np.asarray(probabilities).argmax(axis=1)


def parse_decision(
    labels: Sequence[str],
    favorable: str | None = None,
    rule: str | None = None,
    multi_label: bool = False,
) -> Decision:
    """The model's favourable outcome from `--favorable` (one label or a comma-separated
    set) or `--decision` (a threshold rule), checked against the model's labels; one-line
    errors that list them. A multi-label head needs a threshold rule."""
    names = tuple(str(label) for label in labels)
    if rule is not None and favorable is not None:
        raise TextfairError(
            f"both --favorable {favorable!r} and --decision {rule!r} given (favorable= and "
            "decision= in Python); a threshold rule names the favourable outcome itself: pass "
            "one of them"
        )
    if rule is not None:
        return _threshold_rule(names, rule)
    if multi_label:
        example = f"{names[0]}<0.5" if names else "LABEL<0.5"
        raise TextfairError(
            f"the model is multi-label (one sigmoid per label: {', '.join(names)}), so its "
            f"most probable label decides nothing; say when the outcome is favourable with "
            f"--decision, e.g. --decision '{example}' or 'all({','.join(names[:2])})<0.5'"
        )
    if favorable is None:
        raise TextfairError(_which_label(names))
    wanted = [part.strip() for part in str(favorable).split(",") if part.strip()]
    if str(favorable) in names:
        wanted = [str(favorable)]  # a label that holds a comma itself
    columns = tuple(_column(names, label, "favourable label") for label in wanted)
    if not columns:
        raise TextfairError(_which_label(names))
    if len(set(columns)) == len(names):
        raise TextfairError(
            f"every label of the model ({', '.join(names)}) is favourable in {favorable!r}, "
            "so every outcome would be; leave at least one out"
        )
    return Decision(names, columns)


def recorded_decision(labels: Sequence[str], recorded: str) -> Decision:
    """The Decision a report recorded as `model.favorable` ("non-toxic", "4,5", "toxic<0.5")."""
    names = tuple(str(label) for label in labels)
    if recorded not in names and _RULE.match(recorded):
        return _threshold_rule(names, recorded)
    return parse_decision(names, recorded)


def class_labels(decision: Decision, purpose: str) -> tuple[str, list[str]]:
    """(the favourable label, the other labels) for what writes class labels (augmentation
    data, retraining); a threshold rule has no class label to write: one-line error."""
    if decision.by_threshold:
        raise TextfairError(
            f"{purpose} writes class labels, and the favourable outcome {decision.describe()!r} "
            "is a threshold rule of a multi-label head, which names none; label the data "
            "yourself, or use a model with one favourable label"
        )
    favourable = decision.labels[decision.column]
    others = [name for i, name in enumerate(decision.labels) if i not in decision.columns]
    return favourable, others


def _threshold_rule(names: tuple[str, ...], rule: str) -> Decision:
    found = _RULE.match(rule)
    if found is None:
        raise TextfairError(
            f"--decision {rule!r} is not a rule; expected LABEL<0.5, LABEL>=0.5, "
            "any(LABEL,LABEL)<0.5 or all(LABEL,LABEL)<0.5 (the favourable outcome)"
        )
    threshold = float(found.group("threshold"))
    if not 0.0 <= threshold <= 1.0:
        raise TextfairError(
            f"--decision {rule!r} has threshold {threshold}; expected a probability in [0, 1]"
        )
    if found.group("combine"):
        wanted = [part.strip() for part in found.group("labels").split(",") if part.strip()]
        combine = found.group("combine")
    else:
        wanted, combine = [found.group("label").strip()], "any"
    columns = tuple(_column(names, label, "label") for label in wanted)
    return Decision(names, columns, found.group("op"), threshold, combine)


def _column(names: tuple[str, ...], label: str, what: str) -> int:
    if label in names:
        return names.index(label)
    folded = [name.lower() for name in names]
    if label.lower() in folded and folded.count(label.lower()) == 1:
        return folded.index(label.lower())
    raise TextfairError(
        f"{what} {label!r} is not a label of the model; its labels are: {', '.join(names)}"
        + naming_hint(names)
    )


def _which_label(names: tuple[str, ...]) -> str:
    hint = ""
    if all(re.fullmatch(r"LABEL_\d+", name) for name in names):
        hint = " (the model's config names no labels, so its card says which LABEL_i is which)"
    return (
        f"which label is favourable? name it with --favorable (favorable= in Python; one "
        f"label, or several joined by commas for star ratings) or --decision (decision=, a "
        f"threshold rule); the model's labels are: {', '.join(names)}{hint}"
    )
