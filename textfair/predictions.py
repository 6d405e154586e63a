"""The records `textfair predict` writes: one per text, the same from either engine."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from textfair.models.decision import Decision

__all__ = ["prediction_records", "rounded"]


def rounded(probability: float) -> float:
    """Four decimals: finer than any model's calibration, and 0.4262 reads where
    0.42617380619049072 does not."""
    return round(float(probability), 4)


def prediction_records(
    texts: Sequence[str],
    probabilities: np.ndarray,
    labels: Sequence[str],
    multi_label: bool,
    rule: Decision | None,
) -> list[dict]:
    """{"text", "label", "probabilities"} per text; with a decision rule also "favorable"
    and "favorable_score". A multi-label head has no "label": its most probable label means
    nothing."""
    outcome = rule.favourable(probabilities) if rule else None
    scores = rule.score(probabilities) if rule else None
    records = []
    for i, (text, row) in enumerate(zip(texts, probabilities, strict=True)):
        record: dict = {"text": text}
        if not multi_label:
            record["label"] = labels[int(row.argmax())]
        record["probabilities"] = dict(zip(labels, map(rounded, row), strict=True))
        if outcome is not None and scores is not None:  # a decision rule was given
            record["favorable"] = bool(outcome[i])
            record["favorable_score"] = rounded(scores[i])
        records.append(record)
    return records
