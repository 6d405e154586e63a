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

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard

from textfair.errors import TextfairError
from textfair.models.base import Model
from textfair.models.callable import CallableModel
from textfair.models.hf import HFModel
from textfair.models.keywords import renamed
from textfair.models.sklearn import SklearnModel
from textfair.models.spec import CLASS_NAMES, load_model, name_classes

if TYPE_CHECKING:
    from transformers import Pipeline

__all__ = ["as_model"]


def as_model(
    obj: object,
    *,
    label_names: Sequence[str] | None = None,
    batch_size: int = 32,
    labels: Sequence[str] | None = None,
) -> Model:
    r"""Return whatever classifier a notebook holds as a textfair model.

    A textfair model has ``labels`` and ``predict_proba(inputs)``, which returns one row of
    probabilities per input, a column per label.

    Parameters
    ----------
    obj
        The classifier. Accepted, in the order they are recognised:

        * a model spec string or path (``"toxicity-cnn-lstm"``, ``"hf:<dir>"``, ...), as
          `load_model` reads it;
        * a textfair model already (``labels`` and ``predict_proba``: `TorchTextModel`,
          `HFModel`, a wrapped scikit-learn model or function, a cached model), returned
          as it is;
        * a Hugging Face ``text-classification`` (or ``sentiment-analysis``) pipeline: its
          model and tokenizer are scored directly, batched and length-sorted, with a softmax
          over all labels (a pipeline's own call returns only the top label unless told
          otherwise);
        * a ``(model, tokenizer)`` pair of transformers objects;
        * a fitted scikit-learn estimator or ``Pipeline`` with ``predict_proba`` and
          ``classes_`` (its labels are ``classes_``, as strings);
        * a plain function of a list of inputs that returns probabilities (an
          $n \times k$ array) or labels (one per input).
    label_names
        The model's class names, in the order of its outputs (not the texts' true labels,
        which are `textfair.audit`'s ``true_labels``). For a plain function (or a ``py:``
        spec): its classes, in the order of its output
        columns, or every label it can return. A function may carry them instead as a
        ``labels`` attribute; without them, probability columns are named ``"0"``, ``"1"``,
        ... and returned labels are an error. For a model that calls its classes
        ``LABEL_0``, ``LABEL_1``, ... (a Hugging Face pipeline) or ``0``, ``1``, ...: their
        names (``["non-toxic", "toxic"]``).
    labels
        The old name of `label_names`, kept for one release with a ``FutureWarning``.
    batch_size
        Texts per forward pass of a transformers model (and of a spec's torch model).

    Returns
    -------
    Model
        The model, with ``labels`` and ``predict_proba``.

    Raises
    ------
    TextfairError
        A one-line error saying what is accepted: for a pipeline of another task, an
        estimator without ``classes_`` or ``predict_proba`` (not fitted), a spec that names
        no model, or anything else.

    Examples
    --------
    >>> def keywords(texts):
    ...     return ["toxic" if "idiot" in t else "non-toxic" for t in texts]
    >>> model = textfair.as_model(keywords, label_names=["non-toxic", "toxic"])
    >>> model.predict_proba(["you idiot", "hello"]).tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    >>> textfair.as_model("toxicity-cnn-lstm").labels
    ('non-toxic', 'toxic')
    """
    label_names = renamed("label_names", label_names, labels, CLASS_NAMES)
    if isinstance(obj, str | Path):
        return load_model(str(obj), batch_size=batch_size, label_names=label_names)
    what = f"the {type(obj).__name__}"
    if _is_model(obj):
        return name_classes(obj, label_names, what)
    if _is_hf_pipeline(obj):
        model = HFModel.from_objects(obj.model, obj.tokenizer, batch_size=batch_size)
        return name_classes(model, label_names, what)
    if isinstance(obj, tuple) and len(obj) == 2 and _is_hf_network(obj[0]):
        model = HFModel.from_objects(obj[0], obj[1], batch_size=batch_size)
        return name_classes(model, label_names, what)
    if hasattr(obj, "predict_proba") and hasattr(obj, "classes_"):
        return name_classes(SklearnModel(obj), label_names, what)
    if hasattr(obj, "predict_proba") or hasattr(obj, "fit"):
        raise TextfairError(
            f"model is a {type(obj).__name__} without classes_ or predict_proba; pass a fitted "
            "scikit-learn classifier (call .fit first) that supports predict_proba"
        )
    if callable(obj):
        return CallableModel(obj, labels=label_names)
    raise TextfairError(
        f"model is a {type(obj).__name__}; expected a Hugging Face pipeline, a (model, "
        "tokenizer) pair, a fitted scikit-learn classifier, a textfair model, a model spec "
        "or a function of a list of texts"
    )


def _is_model(obj: object) -> TypeGuard[Model]:
    # Not isinstance(obj, Model): a sklearn estimator has predict_proba but no `labels`, and
    # a pipeline object is callable; only a real textfair model has both attributes.
    return hasattr(obj, "labels") and callable(getattr(obj, "predict_proba", None))


def _is_hf_pipeline(obj: object) -> TypeGuard[Pipeline]:
    # An object of a class never imported cannot be one: looking the class up where it is
    # defined, only once imported, spares a plain function's audit the seconds that
    # importing transformers' pipelines takes.
    pipelines = sys.modules.get("transformers.pipelines.base")
    if pipelines is None or not isinstance(obj, pipelines.Pipeline):
        return False
    if getattr(obj, "task", "") not in ("text-classification", "sentiment-analysis"):
        raise TextfairError(
            f"the pipeline's task is {obj.task!r}; textfair audits text-classification "
            "pipelines (pipeline('text-classification', model=...))"
        )
    return True


def _is_hf_network(obj: object) -> bool:
    networks = sys.modules.get("transformers.modeling_utils")  # as for pipelines, above
    return networks is not None and isinstance(obj, networks.PreTrainedModel)
