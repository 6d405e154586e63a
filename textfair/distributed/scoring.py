"""A model on the cluster, as the pipelines use it: described once (the driver loads no
model), and the distinct texts of a dataset scored in the actor pool.

Both pipelines that score (`pipelines.predict_corpus` and `label_metrics.label_scores`) go
through it, so a model is loaded, batched and retried on the cluster in one way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textfair.distributed.ray_engine import ModelActor, ProgressReader, start, workers

if TYPE_CHECKING:
    from ray.actor import ActorHandle
    from ray.data import Dataset

__all__ = ["CALL_BATCHES", "describe_model", "score_distinct"]

# Distinct texts per actor call: the local engine's chunk (16 batches), so a model sees
# batches of its own batch size, length-sorted within the call as it sorts them locally.
CALL_BATCHES = 16


def describe_model(
    spec: str, load_options: dict[str, Any], address: str | None = None
) -> dict[str, Any]:
    """The model's labels, multi_label and fingerprint, loaded once on the cluster (the
    driver loads no model), so the favourable outcome can be checked before any scoring."""
    ray = start(address)
    remote = ray.remote(num_cpus=1, max_retries=3)(_describe)
    try:
        return ray.get(remote.remote(spec, load_options))
    except Exception as err:
        from textfair.errors import TextfairError

        cause = getattr(err, "cause", None)
        if isinstance(cause, TextfairError):
            raise cause from None
        first = (str(err).strip().splitlines() or [type(err).__name__])[-1][:300]
        raise TextfairError(f"model {spec!r} could not be loaded on Ray: {first}") from None


def _describe(spec: str, load_options: dict[str, Any]) -> dict[str, Any]:
    return ModelActor(spec, load_options).describe()


def score_distinct(
    distinct: Dataset,
    spec: str,
    load_options: dict[str, Any],
    batch_size: int,
    progress: ProgressReader,
) -> Dataset:
    """`distinct` (a ``text`` column) with ``probabilities``, scored by the actor pool."""
    ray = start()
    count, gpus = workers(ray)
    # Ray Data restarts a dead actor and retries its batches (max_restarts and
    # max_task_retries default to -1 for an actor pool).
    return distinct.map_batches(
        _bound_actor(spec, load_options, progress.counter),
        batch_size=batch_size * CALL_BATCHES,
        concurrency=count,
        num_cpus=0 if gpus else 1,
        num_gpus=gpus,
        batch_format="numpy",
    )


def _bound_actor(
    spec: str, load_options: dict[str, Any], counter: ActorHandle | None
) -> type[ModelActor]:
    """ModelActor with its (small) arguments bound in the class, so they travel by value
    with it and a restarted actor has them wherever it starts."""

    class BoundModelActor(ModelActor):
        def __init__(self) -> None:
            super().__init__(spec, load_options, counter)

    return BoundModelActor
