"""The registry of mitigation methods for one comparison (Biswas & Rajan 2020): pre-, in- and
post-processing, their names, stages and kinds of data, what each needs of a model, and how
one is run.

Each method starts from the audited model and the same seeded split (`Split`), in the
setting of its kind of data (`TableSetting`, `TextSetting`), and returns a `Mitigated`: a
model over the same inputs that the comparison audits again, what the method changed (the
model, its inputs or its decisions), and the seconds it took. A method that cannot act on a
model (reweighing a model whose fit takes no weights) says why instead.

The methods themselves are in `textfair.mitigate._table_methods` (aequitas, reweighing,
correlation-remover, exponentiated-gradient, threshold-optimizer) and
`textfair.mitigate._text_methods` (counterfactual, rule-sets, blindness, thresholds,
logit-pairing); the post-processing both kinds share in `textfair.mitigate._group_thresholds`.

A randomized decision (exponentiated gradient, threshold optimizer) is read as its
probability of the favourable label: the audit decides with its most likely outcome.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Literal, TypeVar, overload

from textfair.errors import TextfairError
from textfair.mitigate import _table_methods as table_methods
from textfair.mitigate import _text_methods as text_methods
from textfair.mitigate._setting import (
    NOT_RETRAINED,
    Mitigated,
    Setting,
    TableSetting,
    TextSetting,
)

if TYPE_CHECKING:
    from textfair.models.base import Model

__all__ = [
    "LOOP_METHODS",
    "METHODS",
    "TABLE_METHODS",
    "TEXT_METHODS",
    "Method",
    "applicable",
    "methods_for",
    "run_method",
]

# The setting a method runs on: a table's (`TableSetting`) or a corpus's (`TextSetting`).
KindSetting = TypeVar("KindSetting", bound=Setting)


def _applies_to_every_model(model: Model) -> str:
    return ""


@dataclass(frozen=True)
class Method(Generic[KindSetting]):
    """One mitigation method: its name, stage and kind of data, and how to run it."""

    name: str
    stage: str  # "pre", "in" or "post"
    kind: str  # "text" or "rows"
    run: Callable[[KindSetting], Mitigated]
    summary: str
    # Why the method cannot act on a model ("" when it can): `--methods all` runs only the
    # methods that apply and lists the others with this reason.
    needs: Callable[[Model], str] = _applies_to_every_model


AnyMethod = Method[TableSetting] | Method[TextSetting]
Chosen = TypeVar("Chosen", bound=AnyMethod)  # a method of either kind, kept as it is


def _timed(function: Callable[[], Mitigated]) -> Mitigated:
    started = time.perf_counter()
    result = function()
    result.seconds = round(time.perf_counter() - started, 3)
    return result


def _needs_retrainer(model: Model) -> str:
    """The methods that refit the model need textfair to know how to retrain it."""
    from textfair.mitigate.retrain import retrainer_for

    try:
        retrainer_for(model)
    except TextfairError:
        return NOT_RETRAINED
    return ""


def _needs_two_labels(model: Model) -> str:
    """Per-group thresholds move one probability: a model of two labels."""
    if len(tuple(model.labels)) == 2:
        return ""
    return f"needs a model of two labels; this one has {len(tuple(model.labels))}"


TABLE_METHODS: dict[str, Method[TableSetting]] = {
    m.name: m
    for m in (
        Method(
            "aequitas",
            "pre",
            "rows",
            table_methods.run_aequitas,
            "retrain on Aequitas's inputs",
            _needs_retrainer,
        ),
        Method(
            "reweighing",
            "pre",
            "rows",
            table_methods.run_reweighing,
            "refit with K&C weights",
            table_methods.needs_weights,
        ),
        Method(
            "correlation-remover",
            "pre",
            "rows",
            table_methods.run_correlation_remover,
            "decorrelate features from the sensitive ones",
            table_methods.needs_pipeline,
        ),
        Method(
            "exponentiated-gradient",
            "in",
            "rows",
            table_methods.run_exponentiated_gradient,
            "refit under demographic parity",
            table_methods.needs_weights,
        ),
        Method(
            "threshold-optimizer",
            "post",
            "rows",
            table_methods.run_threshold_optimizer,
            "per-group thresholds",
            _needs_two_labels,
        ),
    )
}

TEXT_METHODS: dict[str, Method[TextSetting]] = {
    m.name: m
    for m in (
        Method(
            "counterfactual",
            "pre",
            "text",
            text_methods.retraining_with("counterfactual"),
            "retrain with counterfactual texts",
            _needs_retrainer,
        ),
        Method(
            "rule-sets",
            "pre",
            "text",
            text_methods.retraining_with("rule-sets"),
            "retrain with TestSGD rule-set texts",
            _needs_retrainer,
        ),
        Method(
            "blindness",
            "pre",
            "text",
            text_methods.run_blindness,
            "identity terms masked",
            _needs_retrainer,
        ),
        Method(
            "thresholds",
            "post",
            "text",
            text_methods.run_thresholds,
            "per-term thresholds",
            _needs_two_labels,
        ),
        Method(
            "logit-pairing",
            "in",
            "text",
            text_methods.run_logit_pairing,
            "fine-tune with counterfactual logit pairing",
            text_methods.needs_torch_text,
        ),
    )
}

METHODS: dict[str, AnyMethod] = {**TABLE_METHODS, **TEXT_METHODS}

# Methods with a closed retraining loop of their own (`textfair.mitigate.pipeline`): named
# alone, `mitigate --methods` runs that loop and writes its before/after report.
LOOP_METHODS = {"text": ("counterfactual", "rule-sets"), "rows": ("aequitas",)}


@overload
def methods_for(kind: Literal["text"], names: Sequence[str] | str) -> list[Method[TextSetting]]: ...


@overload
def methods_for(
    kind: Literal["rows"], names: Sequence[str] | str
) -> list[Method[TableSetting]]: ...


@overload
def methods_for(
    kind: str, names: Sequence[str] | str
) -> list[Method[TextSetting]] | list[Method[TableSetting]]: ...


def methods_for(
    kind: str, names: Sequence[str] | str
) -> list[Method[TextSetting]] | list[Method[TableSetting]]:
    """The methods named (or "all" of this kind), in the order given; a one-line error for
    a name that is not a method of this kind of data."""
    if kind == "text":
        return _named(TEXT_METHODS, kind, names)
    return _named(TABLE_METHODS, kind, names)


def _named(
    registry: Mapping[str, Method[KindSetting]], kind: str, names: Sequence[str] | str
) -> list[Method[KindSetting]]:
    """`methods_for` over the registry of one kind of data (a name of the other kind is no
    method of this one)."""
    available = [m for m in registry.values() if m.kind == kind]
    if isinstance(names, str):
        names = [names]  # one method by its name, not its letters
    if list(names) == ["all"]:
        return available
    chosen = []
    for name in names:
        method = registry.get(name)
        if method is None or method.kind != kind:
            raise TextfairError.bad(
                "methods",
                f"has {name!r}; for {'texts' if kind == 'text' else 'tables'} expected "
                f"all or some of: {', '.join(m.name for m in available)}",
            )
        chosen.append(method)
    return chosen


def applicable(
    methods: Sequence[Chosen], model: Model, *, named: bool
) -> tuple[list[Chosen], dict[str, str]]:
    """The methods that apply to `model`, and why each other does not. Methods named one by
    one (`named`) must all apply: a one-line error before any work; of "all", the others are
    left out with their reason."""
    kept, left_out = [], {}
    for method in methods:
        why = method.needs(model)
        if not why:
            kept.append(method)
        elif named:
            raise TextfairError.bad("methods", f"has {method.name!r}, which {why}")
        else:
            left_out[method.name] = why
    return kept, left_out


def run_method(method: Method[KindSetting], setting: KindSetting) -> Mitigated:
    """Run one method on the comparison's setting, timed."""
    return _timed(lambda: method.run(setting))
