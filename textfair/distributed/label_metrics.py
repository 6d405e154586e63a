"""The label metrics of a labelled corpus on the cluster (subgroup, BPSN and BNSP AUC per
identity term; FPR/FNR gaps): the corpus read, matched and scored there, and only a few
numbers per distinct text brought back (`LabelScores`), so the driver need not hold it.

Apart from the pipelines that write shards (`textfair.distributed.pipelines`): this one
returns the metrics the local engine computes, from the same scores.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from textfair.distributed.ray_engine import (
    ProgressReader,
    Tracker,
    read_corpus,
    start,
    term_matcher,
)
from textfair.distributed.scoring import describe_model, score_distinct

if TYPE_CHECKING:
    from ray.data import Dataset

    from textfair.stats.label_metrics import BiasMetrics

__all__ = ["LabelScores", "label_metrics_on_ray", "label_scores"]


@dataclass
class LabelScores:
    """What the label metrics need of a labelled corpus, one entry per distinct text:
    its score for the positive class, how often it occurs and how often labelled positive,
    and the subgroups (identity terms) it mentions, as row indices per term."""

    scores: np.ndarray
    counts: np.ndarray
    positives: np.ndarray
    subgroups: dict[str, np.ndarray]

    def per_row(
        self, order: Sequence[str]
    ) -> tuple[np.ndarray, np.ndarray, Mapping[str, np.ndarray]]:
        """Truth and scores expanded to one entry per corpus row (positives first within a
        text: the metrics are rank statistics, blind to row order), and the masks of the
        subgroups `order` names over those rows, each made when the metrics ask for it."""
        scores = np.repeat(self.scores, self.counts)
        starts = np.concatenate([[0], np.cumsum(self.counts)[:-1]])
        truth = np.zeros(len(scores), dtype=bool)
        within = np.arange(len(scores)) - np.repeat(starts, self.counts)
        truth[within < np.repeat(self.positives, self.counts)] = True
        empty = np.empty(0, dtype=np.int64)
        indices = {name: self.subgroups.get(name, empty) for name in order}
        return truth, scores, _SubgroupMasks(indices, self.counts, starts)


class _SubgroupMasks(Mapping[str, np.ndarray]):
    """subgroup -> boolean mask over the expanded rows, made when asked for (one at a time,
    so the driver never holds a mask per subgroup)."""

    def __init__(
        self, indices: dict[str, np.ndarray], counts: np.ndarray, starts: np.ndarray
    ) -> None:
        self._indices, self._counts, self._starts = indices, counts, starts

    def __getitem__(self, name: str) -> np.ndarray:
        distinct = self._indices[name]
        mask = np.zeros(int(self._counts.sum()), dtype=bool)
        for first, count in zip(self._starts[distinct], self._counts[distinct], strict=True):
            mask[first : first + count] = True
        return mask

    def __iter__(self) -> Iterator[str]:
        return iter(self._indices)

    def __len__(self) -> int:
        return len(self._indices)


def label_scores(
    dataset: Dataset,
    spec: str,
    load_options: dict[str, Any],
    *,
    positive_column: int,
    terms: str,
    categories: Sequence[str],
    batch_size: int,
    address: str | None = None,
    tracker: Tracker | None = None,
) -> LabelScores:
    """Score every distinct text of `dataset` (columns ``text`` and ``positive``, a bool) on
    the cluster, find its identity mentions there, and bring back only `LabelScores`."""
    from ray.data.aggregate import Count, Sum

    ray = start(address)
    tracker = tracker or Tracker()
    distinct = (
        dataset.groupby("text").aggregate(
            Count(alias_name="count"), Sum("positive", alias_name="positives")
        )
    ).materialize()
    tracker.set_total(distinct.count())
    tracker.reader = ProgressReader(ray)
    try:
        matched = distinct.map_batches(
            _mentioned_terms,
            fn_kwargs={"terms": terms, "categories": list(categories)},
            batch_format="numpy",
        ).materialize()
        scored = score_distinct(matched, spec, load_options, batch_size, tracker.reader)
        parts: dict[str, list] = {"scores": [], "counts": [], "positives": [], "terms": []}
        for batch in scored.iter_batches(batch_format="numpy", batch_size=65536):
            rows = list(batch["probabilities"])  # NumPy's stack takes a sequence of rows
            parts["scores"].append(np.stack(rows)[:, positive_column])
            parts["counts"].append(batch["count"].astype(np.int64))
            parts["positives"].append(batch["positives"].astype(np.int64))
            parts["terms"].extend(batch["terms"])
    finally:
        tracker.reader.close()
    subgroups: dict[str, list[int]] = {}
    for index, mentioned in enumerate(parts["terms"]):
        for term in str(mentioned).split("\n") if mentioned else ():
            subgroups.setdefault(term, []).append(index)
    return LabelScores(
        scores=np.concatenate(parts["scores"]) if parts["scores"] else np.empty(0),
        counts=np.concatenate(parts["counts"]) if parts["counts"] else np.empty(0, np.int64),
        positives=np.concatenate(parts["positives"])
        if parts["positives"]
        else np.empty(0, np.int64),
        subgroups={term: np.asarray(rows, dtype=np.int64) for term, rows in subgroups.items()},
    )


def _mentioned_terms(
    batch: dict[str, np.ndarray], terms: str, categories: list[str]
) -> dict[str, np.ndarray]:
    """Each text's mentioned terms (every mention, rewritable or not, as the local label
    metrics count them), joined by newlines."""
    matcher = term_matcher(terms)
    found = [
        "\n".join(sorted({m.term_id for m in matcher.find(str(text), categories)}))
        for text in batch["text"]
    ]
    return {**batch, "terms": np.asarray(found, dtype=object)}


def label_metrics_on_ray(
    spec: str,
    load_options: dict[str, Any],
    data: Path,
    *,
    text_column: str,
    label_column: str,
    positive_label: str,
    terms: str = "dixon2018",
    categories: Sequence[str] | None = None,
    label_map: dict[str, str] | None = None,
    address: str | None = None,
    tracker: Tracker | None = None,
    confidence: float = 0.95,
    correction: str = "holm",
) -> BiasMetrics:
    """The label metrics of a labelled corpus (subgroup, BPSN and BNSP AUC per identity
    term; FPR/FNR gaps), the corpus read, matched and scored on the cluster: the audit's
    label-metric stage for a corpus the driver need not hold. Equal to the local engine's
    metrics for the same corpus, model, `confidence` (of every interval) and `correction`
    (of the AUCs' tests against the overall AUC)."""
    from textfair.stats.label_metrics import bias_metrics
    from textfair.terms import load_term_list

    start(address)
    model = describe_model(spec, load_options, address)
    names = list(model["labels"])
    if positive_label not in names:
        from textfair.errors import TextfairError

        raise TextfairError(
            f"positive label {positive_label!r} is not a label of the model; its labels are: "
            f"{', '.join(names)}"
        )
    term_list = load_term_list(terms)
    chosen = term_list.category_names(list(categories) if categories else None)
    corpus, _ = read_corpus(data, {text_column: "text", label_column: "label"})
    labelled = corpus.map_batches(
        _positive,  # type: ignore[arg-type]  # Ray's type of `fn` has no room for fn_kwargs
        fn_kwargs={"positive": positive_label, "label_map": label_map or {}},
        batch_format="pandas",
    )
    found = label_scores(
        labelled,
        spec,
        load_options,
        positive_column=names.index(positive_label),
        terms=terms,
        categories=chosen,
        batch_size=load_options["batch_size"],
        tracker=tracker,
    )
    # The local engine's subgroups, in its order: every term of every category.
    order = dict.fromkeys(term.id for c in chosen for term in term_list.categories[c])
    truth, scores, masks = found.per_row(list(order))
    found_metrics = bias_metrics(truth, scores, masks, confidence=confidence, correction=correction)
    return replace(found_metrics, positive_label=positive_label)


def _positive(batch: pd.DataFrame, positive: str, label_map: dict[str, str]) -> pd.DataFrame:
    labels = batch["label"].map(lambda value: label_map.get(value, value))
    return pd.DataFrame({"text": batch["text"], "positive": labels == positive})
