"""A calibration map for the acceptability score, stored as plain numbers, and its choice by
grouped cross-validation.

The logistic model gives $p = \\sigma(z)$, $z$ its logit. A calibration map $g$ turns $p$
into $g(p)$, fitted on **out-of-fold** scores (each unit scored by a model that did not see
its document), never on in-sample ones:

* ``none``: $g(p) = p$.
* ``platt``: $g(p) = \\sigma\\big(a \\cdot \\operatorname{logit}(p) + b\\big)$, $a, b$ by
  maximum likelihood (a near-unpenalised logistic regression of the readers' labels on
  $\\operatorname{logit}(p)$). $a > 1$ spreads an under-confident score away from one half,
  $a < 1$ pulls an over-confident one towards it; $b$ shifts it. Monotone when $a > 0$.
* ``isotonic``: the non-decreasing step function minimising
  $\\sum_i (y_i - g(p_i))^2$ (pool-adjacent-violators), stored as its knots
  $(x_k, y_k)$ and read between them by linear interpolation, flat outside the end knots:
  $g(p) = y_k + (y_{k+1} - y_k)(p - x_k) / (x_{k+1} - x_k)$ for $x_k \\le p \\le x_{k+1}$.

Which map is kept is decided by **nested** grouped cross-validation
(`nested_calibration`): for each outer fold (grouped by source document), the model is fitted
on the other folds, each map is fitted on *that* training part's own out-of-fold scores
(an inner grouped cross-validation), and the map is applied to the outer fold's scores. So
every calibrated score of the comparison comes from a model and a map that saw neither the
unit nor its document. The map with the lowest such ECE is kept (``none`` on a tie); the
shipped map is then fitted on the full fit's out-of-fold scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "METHODS",
    "Calibration",
    "choose",
    "ece_table",
    "fit_calibration",
    "nested_calibration",
    "sigmoid",
]

METHODS = ("none", "platt", "isotonic")
_EPS = 1e-6


def sigmoid(z: np.ndarray) -> np.ndarray:
    """$1 / (1 + e^{-z})$, elementwise, with $z$ clipped to $[-40, 40]$ (no overflow)."""
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, dtype=float), _EPS, 1 - _EPS)
    return np.log(p / (1 - p))


@dataclass(frozen=True)
class Calibration:
    """A monotone map of the model's probability to a calibrated one (see the module)."""

    method: str = "none"
    a: float = 1.0
    b: float = 0.0
    x: tuple[float, ...] = ()
    y: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"calibration method {self.method!r} is not one of {METHODS}")
        if self.method == "isotonic" and (len(self.x) != len(self.y) or len(self.x) < 2):
            raise ValueError("an isotonic calibration needs two or more knots, x and y alike")

    def __call__(self, p: np.ndarray) -> np.ndarray:
        p = np.asarray(p, dtype=float)
        if self.method == "platt":
            return sigmoid(self.a * _logit(p) + self.b)
        if self.method == "isotonic":
            return np.interp(p, self.x, self.y)
        return p

    def to_dict(self) -> dict[str, Any]:
        """Plain numbers for the model JSON."""
        if self.method == "platt":
            return {"method": "platt", "a": self.a, "b": self.b}
        if self.method == "isotonic":
            return {"method": "isotonic", "x": list(self.x), "y": list(self.y)}
        return {"method": "none"}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Calibration:
        """The map `to_dict` wrote (none when `data` is None: a model without one)."""
        if not data:
            return cls()
        return cls(
            str(data["method"]),
            float(data.get("a", 1.0)),
            float(data.get("b", 0.0)),
            tuple(float(v) for v in data.get("x", ())),
            tuple(float(v) for v in data.get("y", ())),
        )


def fit_calibration(method: str, p: np.ndarray, y: np.ndarray) -> Calibration:
    """The `method` map fitted on scores `p` (out-of-fold) and labels `y` (0/1)."""
    p, y = np.asarray(p, dtype=float), np.asarray(y, dtype=float)
    if method == "platt":
        from sklearn.linear_model import LogisticRegression

        regression = LogisticRegression(C=1e6, max_iter=1000)
        regression.fit(_logit(p)[:, None], y.astype(int))
        return Calibration("platt", float(regression.coef_[0, 0]), float(regression.intercept_[0]))
    if method == "isotonic":
        from sklearn.isotonic import IsotonicRegression

        regression = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip")
        regression.fit(p, y)
        x_knots = [float(v) for v in regression.X_thresholds_]
        y_knots = [float(v) for v in regression.y_thresholds_]
        if len(x_knots) < 2:  # one distinct score: a flat map over [0, 1]
            x_knots, y_knots = [0.0, 1.0], [y_knots[0]] * 2
        return Calibration("isotonic", x=tuple(x_knots), y=tuple(y_knots))
    return Calibration()


def nested_calibration(
    y: np.ndarray,
    folds: Callable[[np.ndarray], list[np.ndarray]],
    out_of_fold: Callable[[np.ndarray], np.ndarray],
    fit_score: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> dict[str, np.ndarray]:
    """Per method, every sample's calibrated score from nested grouped cross-validation.

    `folds(index)`: the outer folds of the samples at `index` (arrays of sample indices);
    `out_of_fold(index)`: the inner cross-validated scores of the samples at `index`, from
    models fitted on `index` alone; `fit_score(train, test)`: the scores of `test` by a model
    fitted on `train`.
    """
    everyone = np.arange(len(y))
    result = {m: np.zeros(len(y)) for m in METHODS}
    for test in folds(everyone):
        train = np.setdiff1d(everyone, test)
        raw = fit_score(train, test)
        inner = out_of_fold(train)
        for method in METHODS:
            result[method][test] = fit_calibration(method, inner, y[train])(raw)
    return result


def choose(eces: Mapping[str, float]) -> str:
    """The method with the lowest ECE, ``none`` unless another is strictly lower."""
    return min(METHODS, key=lambda m: (round(eces[m], 4), m != "none"))


def ece_table(
    y: np.ndarray,
    kinds: Sequence[str],
    scores: Mapping[str, np.ndarray],
    ece: Callable[[np.ndarray, np.ndarray], float],
) -> dict[str, dict[str, float]]:
    """Per method, its ECE overall (``all``) and per kind."""
    kinds_array = np.asarray(kinds)
    table: dict[str, dict[str, float]] = {}
    for method, p in scores.items():
        row = {"all": round(ece(p, y), 4)}
        for kind in dict.fromkeys(kinds):
            inside = kinds_array == kind
            row[kind] = round(ece(p[inside], y[inside]), 4)
        table[method] = row
    return table
