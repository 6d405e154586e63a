"""Any Python function as a model: f(list of inputs) -> probabilities, or -> labels."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from types import ModuleType

import numpy as np

from textfair.errors import TextfairError, describe_failure
from textfair.models.base import check_probabilities

__all__ = ["CallableModel", "load_callable"]


class CallableModel:
    """Wrap `fn(inputs)`; it returns an (n, k) probability array or n labels.

    Labels are turned into one-hot rows over `labels`, which must then be given. For
    probabilities, `labels` defaults to "0", "1", ... by column.
    """

    def __init__(
        self,
        fn: Callable[[list], object],
        labels: Sequence[str] | None = None,
        multi_label: bool = False,
    ) -> None:
        if not callable(fn):
            raise TextfairError(f"{fn!r} is not callable; pass a function of a list of inputs")
        self.fn = fn
        # One sigmoid per label (rows need not sum to 1): set it, or a `multi_label` attribute.
        self.multi_label = multi_label or bool(getattr(fn, "multi_label", False))
        # A function may carry its labels: `predict.labels = ["non-toxic", "toxic"]`.
        labels = labels if labels is not None else getattr(fn, "labels", None)
        self._labels = tuple(str(label) for label in labels) if labels is not None else None
        self.name = getattr(fn, "__qualname__", type(fn).__name__)

    @property
    def labels(self) -> tuple[str, ...]:
        if self._labels is None:
            raise TextfairError.bad(
                "label_names",
                f"of callable {self.name!r} (its class names) are unknown until it is called; "
                "name them in the order of its output columns: as_model(f, label_names=[...]) "
                "in Python, --label-names on the command line (or set f.labels)",
            )
        return self._labels

    def predict_proba(self, inputs: Sequence) -> np.ndarray:
        """Call the function on a batch and return validated probabilities."""
        returned = self.fn(list(inputs))
        source = f"callable {self.name!r}"
        try:
            output = np.asarray(returned)
        except ValueError:  # rows of different lengths
            raise TextfairError(
                f"{source} returned rows of different lengths; expected one row of class "
                "probabilities per input, all of the same length (or one label per input)"
            ) from None
        if output.ndim == 1:
            return self._one_hot(output, len(inputs), source)
        if self._labels is None:
            self._labels = tuple(str(i) for i in range(output.shape[1]))
        return check_probabilities(output, len(inputs), len(self._labels), source, self.multi_label)

    def _one_hot(self, predicted: np.ndarray, n_inputs: int, source: str) -> np.ndarray:
        if self._labels is None:
            raise TextfairError(
                f"{source} returned labels, not probabilities; name every class it can "
                "return: as_model(f, label_names=[...]) in Python, --label-names on the "
                "command line",
                parameter="label_names",
            )
        if len(predicted) != n_inputs:
            raise TextfairError(
                f"{source} returned {len(predicted)} labels for {n_inputs} inputs; "
                "expected one label per input"
            )
        index = {label: i for i, label in enumerate(self._labels)}
        rows = np.zeros((n_inputs, len(self._labels)))
        for row, label in enumerate(predicted.tolist()):
            if str(label) not in index:
                raise TextfairError(
                    f"{source} returned label {label!r}, not one of: {', '.join(self._labels)}"
                )
            rows[row, index[str(label)]] = 1.0
        return rows


def load_callable(spec: str) -> Callable:
    """Import `module:function` (the module must be importable: on sys.path or installed)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise TextfairError(
            f"callable spec {spec!r} is not module:function; write e.g. py:my_models:predict"
        )
    try:
        module = _import_here_too(module_name)
    except ImportError as err:
        raise TextfairError(
            f"cannot import module {module_name!r} ({err}); run from the directory that holds "
            "it, put that directory on PYTHONPATH, or install it"
        ) from None
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # its own code ran: it may raise anything, or sys.exit()
        raise TextfairError(
            f"importing module {module_name!r} failed: {describe_failure(err)}; fix the module "
            "(python -c 'import " + module_name + "' shows the whole error)"
        ) from None
    target = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise TextfairError(f"module {module_name!r} has no attribute {attribute!r}")
        target = getattr(target, part)
    if not callable(target):
        raise TextfairError(f"{spec!r} is not callable")
    return target


def _import_here_too(module_name: str) -> ModuleType:
    """Import a module as `python -m` would: also from the current directory, which the
    `textfair` console script does not put on the import path."""
    import sys

    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        here = os.getcwd()
        if err.name != module_name.partition(".")[0] or here in sys.path:
            raise
        sys.path.append(here)  # last: a module installed under the same name still wins
        return importlib.import_module(module_name)
