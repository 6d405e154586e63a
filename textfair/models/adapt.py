"""`as_model`: whatever classifier a notebook holds, as a textfair Model.

Accepted, in the order they are recognised:

* a model spec string or path (`"toxicity-cnn-lstm"`, `"hf:<dir>"`, ...), as `load_model`;
* a textfair Model already (`labels` + `predict_proba`: TorchTextModel, HFModel,
  SklearnModel, CallableModel, CachedModel) — returned as it is;
* a Hugging Face text-classification `pipeline(...)` — its model and tokenizer are scored
  directly, batched and length-sorted, with softmax over all labels (a pipeline's own call
  returns only the top label unless told otherwise);
* a `(model, tokenizer)` pair of transformers objects;
* a fitted scikit-learn estimator or `Pipeline` with `predict_proba` and `classes_`;
* a plain function of a list of inputs, returning probabilities or labels (`labels=` names
  the columns or the labels it can return).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard

from textfair.errors import TextfairError
from textfair.models.base import Model
from textfair.models.callable import CallableModel
from textfair.models.hf import HFModel
from textfair.models.sklearn import SklearnModel
from textfair.models.spec import load_model

if TYPE_CHECKING:
    from transformers import Pipeline

__all__ = ["as_model"]


def as_model(obj: object, *, labels: Sequence[str] | None = None, batch_size: int = 32) -> Model:
    """Return `obj` as a textfair Model, or raise a one-line TextfairError saying what is
    accepted. `labels` is used for plain functions; `batch_size` for transformers."""
    if isinstance(obj, str | Path):
        return load_model(str(obj), batch_size=batch_size, labels=labels)
    if _is_model(obj):
        return obj  # type: ignore[return-value]
    if _is_hf_pipeline(obj):
        return HFModel.from_objects(obj.model, obj.tokenizer, batch_size=batch_size)
    if isinstance(obj, tuple) and len(obj) == 2 and _is_hf_network(obj[0]):
        return HFModel.from_objects(obj[0], obj[1], batch_size=batch_size)
    if hasattr(obj, "predict_proba") and hasattr(obj, "classes_"):
        return SklearnModel(obj)
    if hasattr(obj, "predict_proba") or hasattr(obj, "fit"):
        raise TextfairError(
            f"model is a {type(obj).__name__} without classes_ or predict_proba; pass a fitted "
            "scikit-learn classifier (call .fit first) that supports predict_proba"
        )
    if callable(obj):
        return CallableModel(obj, labels=labels)
    raise TextfairError(
        f"model is a {type(obj).__name__}; expected a Hugging Face pipeline, a (model, "
        "tokenizer) pair, a fitted scikit-learn classifier, a textfair model, a model spec "
        "or a function of a list of texts"
    )


def _is_model(obj: object) -> bool:
    # Not isinstance(obj, Model): a sklearn estimator has predict_proba but no `labels`, and
    # a pipeline object is callable; only a real textfair model has both attributes.
    return hasattr(obj, "labels") and callable(getattr(obj, "predict_proba", None))


def _is_hf_pipeline(obj: object) -> TypeGuard[Pipeline]:
    try:
        from transformers import Pipeline
    except ImportError:  # transformers is a dependency; a broken install reads as "not one"
        return False
    if not isinstance(obj, Pipeline):
        return False
    if getattr(obj, "task", "") not in ("text-classification", "sentiment-analysis"):
        raise TextfairError(
            f"the pipeline's task is {obj.task!r}; textfair audits text-classification "
            "pipelines (pipeline('text-classification', model=...))"
        )
    return True


def _is_hf_network(obj: object) -> bool:
    try:
        from transformers import PreTrainedModel
    except ImportError:
        return False
    return isinstance(obj, PreTrainedModel)
