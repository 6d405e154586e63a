"""The acceptability model as shipped: a logistic model over standardised features, read
from JSON (``acceptability_model.json``: feature names, means, scales, coefficients,
intercept, an optional calibration map, what it was fitted on) and written back by the refit.

The score of raw features $x$ is $g\\big(\\sigma(w \\cdot (x - \\mu) / s + b)\\big)$: the
logistic model's probability, then the calibration map $g$ the refit chose by grouped
cross-validation (identity, Platt or isotonic, plain numbers under ``calibration``; see
:mod:`textfair.text._acceptability_calibration`). A model without the key is uncalibrated.

Apart from the scorer (:mod:`textfair.text._acceptability`) because the file is also what
:mod:`textfair.text.acceptability_fit` writes: the format lives in one place, and scoring needs
NumPy only (scikit-learn is needed only to refit).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from textfair.text._acceptability_calibration import Calibration, sigmoid
from textfair.text._acceptability_features import FEATURES

__all__ = ["MODEL_FILE", "AcceptabilityModel", "load_model", "sigmoid"]

MODEL_FILE = "acceptability_model.json"


@dataclass(frozen=True)
class AcceptabilityModel:
    """A logistic model over standardised features, as shipped in JSON."""

    features: tuple[str, ...]
    means: np.ndarray
    scales: np.ndarray
    coefficients: np.ndarray
    intercept: float
    meta: dict[str, Any] = field(default_factory=dict)
    """What the model was fitted on, and when, with its cross-validated figures (JSON values)."""
    calibration: Calibration = field(default_factory=Calibration)
    """The map applied to the logistic probability (identity unless the refit chose one)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AcceptabilityModel:
        """The model a JSON object describes (its other keys kept as `meta`)."""
        features = tuple(data["features"])
        arrays = [np.asarray(data[k], dtype=float) for k in ("means", "scales", "coefficients")]
        if any(a.shape != (len(features),) for a in arrays):
            raise ValueError("means, scales and coefficients need one number per feature")
        meta = {k: v for k, v in data.items() if k not in cls.__dataclass_fields__}
        meta.update(data.get("meta", {}))
        means, scales, coefficients = arrays
        calibration = Calibration.from_dict(data.get("calibration"))
        intercept = float(data["intercept"])
        return cls(features, means, scales, coefficients, intercept, meta, calibration)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object `from_dict` reads back."""
        return {
            "features": list(self.features),
            "means": [float(x) for x in self.means],
            "scales": [float(x) for x in self.scales],
            "coefficients": [float(x) for x in self.coefficients],
            "intercept": self.intercept,
            "calibration": self.calibration.to_dict(),
            **self.meta,
        }

    @property
    def weights(self) -> np.ndarray:
        """Coefficients on the raw features: $w_j / s_j$."""
        return self.coefficients / self.scales

    @property
    def offset(self) -> float:
        """The logit at all-zero raw features: $b - \\sum_j w_j \\mu_j / s_j$."""
        return float(self.intercept - self.weights @ self.means)

    def probability(self, x: np.ndarray) -> np.ndarray:
        """$p$ for each row of `x` (raw features, in :attr:`features` order), calibrated."""
        return self.of_logit(np.asarray(x, dtype=float) @ self.weights + self.offset)

    def of_logit(self, z: np.ndarray) -> np.ndarray:
        """The calibrated probability of logits `z`: $g(\\sigma(z))$."""
        return self.calibration(sigmoid(z))

    def uncalibrated(self) -> AcceptabilityModel:
        """The same model without its calibration map (the logistic probability alone)."""
        return replace(self, calibration=Calibration())


@cache
def load_model(path: str | Path | None = None) -> AcceptabilityModel:
    """The shipped model (``textfair/text/acceptability_model.json``), or one at `path`."""
    if path is None:
        raw = resources.files("textfair.text").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    else:
        raw = Path(path).read_text(encoding="utf-8")
    model = AcceptabilityModel.from_dict(json.loads(raw))
    if model.features != FEATURES:
        raise ValueError(f"{path or MODEL_FILE}: its features are not this version's FEATURES")
    return model
