"""Retraining: fit a new model on the training data plus augmentation, and the two loops that
decide how much augmentation to add.

* :func:`testsgd_loop` (TestSGD, RQ3): add 50, 100, 200, ... rows, up to a fraction (10%) of
  the training set, retrain each time, and keep the version with the lowest score whose
  held-out accuracy drops by at most `max_accuracy_drop`.
* :func:`aequitas_loop` (Aequitas): round i adds a random p_i in [2^i, 2^(i+1)) percent of the
  training set size, drawn at random from the pool; stop when the estimate stops falling.

A :class:`Retrainer` knows how to fit a fresh model of the same kind as the audited one and how
to save it: textfair text models and tabular MLPs are retrained from scratch with their own
recipe (the same seed and no augmentation reproduce the original weights), Hugging Face models
are fine-tuned from their weights, scikit-learn estimators are cloned and refitted.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from textfair.errors import TextfairError
from textfair.io import atomic_writer
from textfair.models.callable import CallableModel
from textfair.models.hf import HFModel
from textfair.models.rows import RowModel
from textfair.models.sklearn import SklearnModel
from textfair.models.tabular_mlp import TabularMLP
from textfair.models.text_training import train_text_classifier
from textfair.models.threads import training_threads
from textfair.models.torch_text import TorchTextModel

if TYPE_CHECKING:
    import pandas as pd
    from sklearn.base import BaseEstimator

    from textfair.models.base import Model

__all__ = [
    "LoopResult",
    "Retrainer",
    "Retraining",
    "Step",
    "aequitas_loop",
    "holdout_split",
    "retrainer_for",
    "testsgd_loop",
]

NOT_RETRAINABLE = (
    "{what} cannot be retrained by textfair (it is not a textfair, Hugging Face or "
    "scikit-learn model); export the augmentation data instead with `textfair augment` "
    "and retrain it in your own pipeline"
)


def holdout_split(n: int, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Seeded random train / held-out row indices (sorted).

    The rows are shuffled by a random permutation drawn with `seed`; the first part is the
    training set, the rest is held out. The bundled models were trained on
    ``holdout_split(n, 0.2, 0)``, so the same arguments give held-out rows they never saw.

    Parameters
    ----------
    n
        The number of rows.
    fraction
        The held-out share, in (0, 1).
    seed
        Seeds the permutation (NumPy's ``default_rng``); the same seed gives the same split.

    Returns
    -------
    train : numpy.ndarray
        The training rows' indices, sorted.
    held_out : numpy.ndarray
        The held-out rows' indices, sorted.

    Raises
    ------
    TextfairError
        A `fraction` outside (0, 1), or one that leaves a side empty (too few rows).

    Notes
    -----
    The training side holds $\operatorname{round}(n (1 - f))$ rows (Python's
    rounding, half to even) and the held-out side the other
    $n - \operatorname{round}(n (1 - f))$.

    Examples
    --------
    >>> train, held_out = textfair.holdout_split(10, 0.2, seed=0)
    >>> train.tolist(), held_out.tolist()
    ([0, 2, 3, 4, 5, 6, 7, 9], [1, 8])
    """
    if not 0.0 < fraction < 1.0:
        raise TextfairError.bad(
            "holdout", f"is {fraction}; expected a fraction in (0, 1), e.g. 0.2"
        )
    order = np.random.default_rng(seed).permutation(n)
    cut = round(n * (1 - fraction))
    if cut == 0 or cut == n:
        raise TextfairError.bad(
            "holdout", f"{fraction} of {n} rows leaves an empty side; use more rows"
        )
    return np.sort(order[:cut]), np.sort(order[cut:])


# What a scikit-learn Retrainer fits on: texts (a sequence) or rows (a DataFrame).
TrainingInputs: TypeAlias = "Sequence[Any] | pd.DataFrame"


@dataclass
class Retrainer:
    """Fits a new model of the audited model's kind, and saves one. What `fit` returns
    depends on the kind (a textfair model, a TabularMLP, a scikit-learn estimator), so it is
    typed Any; `save` takes what `fit` returned. Texts are fitted from a sequence, rows from
    a DataFrame: each kind's `fit` takes its own, so its inputs are typed Any here."""

    kind: str
    fit: Callable[[Any, Sequence[str]], Any]
    save: Callable[[Any, Path], Path]


def retrainer_for(model: Model, *, seed: int = 0, fine_tune_epochs: int = 2) -> Retrainer:
    """The retrainer for a loaded model; a one-line error for a model textfair cannot train."""
    # A row model wraps what it was made from (an estimator, a function): that is retrained.
    inner: object = model
    if isinstance(model, RowModel):
        inner = model.source
        if not hasattr(inner, "predict_proba"):
            raise TextfairError(NOT_RETRAINABLE.format(what="a py: function"))
    if isinstance(inner, TorchTextModel):
        return _torch_text(inner, seed)
    if isinstance(inner, TabularMLP):

        def fit(rows: pd.DataFrame, labels: Sequence[str]) -> TabularMLP:
            return TabularMLP.train(
                rows, labels, hidden=inner.hidden, **{"seed": seed, **inner.training}
            )

        return Retrainer("tabular-mlp", fit, lambda fitted, directory: fitted.save(directory))
    estimator = getattr(model, "estimator", inner)
    if hasattr(estimator, "get_params") and hasattr(estimator, "fit"):
        return _sklearn(estimator, text=not isinstance(model, RowModel))
    if isinstance(inner, HFModel):
        return _hugging_face(inner, seed, fine_tune_epochs)
    if isinstance(model, CallableModel) or callable(inner):
        raise TextfairError(NOT_RETRAINABLE.format(what=f"model {getattr(model, 'name', model)!r}"))
    raise TextfairError(NOT_RETRAINABLE.format(what=type(model).__name__))


def _torch_text(model: TorchTextModel, seed: int) -> Retrainer:
    from dataclasses import asdict

    config = asdict(model.config)
    architecture = {
        key: config[key]
        for key in ("embed_dim", "hidden", "filters", "kernel_sizes", "max_length", "dropout")
    }
    # The model's own recipe (its recorded seed included) wins over the defaults.
    recipe = {"seed": seed, **config.get("training", {})}

    def fit(texts: Sequence[str], labels: Sequence[str]) -> TorchTextModel:
        return train_text_classifier(
            list(texts),
            list(labels),
            arch=config["arch"],
            label_order=config["labels"],
            **recipe,
            **architecture,
        )

    return Retrainer("textfair-text", fit, lambda fitted, directory: fitted.save(directory))


def _sklearn(estimator: BaseEstimator, text: bool) -> Retrainer:
    from sklearn.base import clone

    def fit(inputs: TrainingInputs, labels: Sequence[str]) -> SklearnModel | BaseEstimator:
        fitted = clone(estimator).fit(list(inputs) if text else inputs, list(labels))
        return SklearnModel(fitted) if text else fitted

    def save(fitted: SklearnModel | BaseEstimator, directory: Path) -> Path:
        # scikit-learn has no code-free format; the retrained pipeline is written the way the
        # user's own was read (joblib), and loading it warns like any joblib file.
        import joblib

        Path(directory).mkdir(parents=True, exist_ok=True)
        path = Path(directory) / "model.joblib"
        with atomic_writer(path, binary=True) as handle:
            joblib.dump(getattr(fitted, "estimator", fitted), handle)
        return path

    return Retrainer("scikit-learn", fit, save)


def _hugging_face(model: HFModel, seed: int, epochs: int) -> Retrainer:
    def fit(texts: Sequence[str], labels: Sequence[str]) -> HFModel:
        return fine_tune_hf(model, list(texts), list(labels), epochs=epochs, seed=seed)

    def save(fitted: HFModel, directory: Path) -> Path:
        directory = Path(directory)
        fitted.network.save_pretrained(directory, safe_serialization=True)
        fitted.tokenizer.save_pretrained(directory)
        return directory

    return Retrainer("hugging-face", fit, save)


def fine_tune_hf(
    model: HFModel,
    texts: list[str],
    labels: list[str],
    *,
    epochs: int = 2,
    seed: int = 0,
    learning_rate: float = 5e-5,
    batch_size: int = 16,
) -> HFModel:
    """A copy of a Hugging Face classifier fine-tuned on `texts` (AdamW, seeded order)."""
    import torch

    tuned = copy.copy(model)
    tuned.network = copy.deepcopy(model.network)
    names = list(model.labels)
    unknown = sorted({str(y) for y in labels} - set(names))
    if unknown:
        raise TextfairError(
            f"labels {unknown[:3]} are not labels of the model; its labels are {names}"
        )
    targets = torch.tensor([names.index(str(y)) for y in labels])
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.AdamW(tuned.network.parameters(), lr=learning_rate)
    tuned.network.train()
    with training_threads():  # the same weights whatever the machine and its load
        for _ in range(epochs):
            for rows in torch.randperm(len(texts), generator=generator).split(batch_size):
                encoded = model.tokenizer(
                    [texts[i] for i in rows.tolist()],
                    padding=True,
                    truncation=True,
                    max_length=model.max_length,
                    return_tensors="pt",
                ).to(model.device)
                optimizer.zero_grad()
                tuned.network(**encoded, labels=targets[rows].to(model.device)).loss.backward()
                optimizer.step()
    tuned.network.eval()
    tuned.fingerprint = model.fingerprint + ":fine-tuned"
    return tuned


@dataclass
class Step:
    """One retraining: how many augmentation rows were added and what the model then scored."""

    added: int
    score: float
    accuracy: float
    extra: dict = field(default_factory=dict)


@dataclass
class LoopResult:
    """Every step of a loop, which one was kept (None: none kept accuracy) and its model.
    `over_budget`: no step kept the accuracy, and the kept one is the most accurate of them
    (`Retraining.keep_over_budget`)."""

    steps: list[Step]
    chosen: int | None
    model: Any | None  # what the Retrainer's `fit` returned
    over_budget: bool = False


Fit = Callable[[np.ndarray], Any]  # a Retrainer's fitted model
Measure = Callable[[Any], tuple[float, float, dict]]


@dataclass(frozen=True)
class Retraining:
    """What both loops work with.

    `fit(pool_rows)` trains on the training set plus those rows of the augmentation pool;
    `measure(model)` returns (target score, held-out accuracy, anything else to record). A
    version is kept only if its held-out accuracy is at least `baseline_accuracy` minus
    `max_accuracy_drop`; with `keep_over_budget`, when none is, the most accurate version is
    kept, marked over budget (a comparison of methods shows what each costs).
    """

    pool_size: int
    train_size: int
    fit: Fit
    measure: Measure
    baseline_accuracy: float
    max_accuracy_drop: float = 0.01
    seed: int = 0
    progress: Callable[[str], None] | None = None
    keep_over_budget: bool = False

    def step(self, rows: np.ndarray, message: str, extra: dict | None = None) -> tuple:
        """Retrain with `rows` of the pool and measure: (Step, model)."""
        if self.progress is not None:
            self.progress(message)
        model = self.fit(rows)
        score, accuracy, measured = self.measure(model)
        return Step(len(rows), score, accuracy, {**(extra or {}), **measured, "rows": rows}), model

    def choose(self, steps: list[Step], models: list) -> LoopResult:
        """The version with the lowest score among those within the accuracy budget; when
        none is (and `keep_over_budget`), the most accurate one (ties: the lower score), the
        version that comes closest to the budget."""
        floor = self.baseline_accuracy - self.max_accuracy_drop - 1e-12  # 1e-12: float noise
        allowed = [i for i, s in enumerate(steps) if s.accuracy >= floor]
        if allowed:
            best = min(allowed, key=lambda i: (steps[i].score, steps[i].added))
            return LoopResult(steps, best, models[best])
        if not self.keep_over_budget or not steps:
            return LoopResult(steps, None, None)
        best = max(range(len(steps)), key=lambda i: (steps[i].accuracy, -steps[i].score))
        return LoopResult(steps, best, models[best], over_budget=True)


def testsgd_loop(
    job: Retraining,
    *,
    start: int = 50,
    max_fraction: float = 0.1,
    goal: float | None = None,
    extend_to: float = 0.0,
) -> LoopResult:
    """TestSGD's loop: nested portions of a seeded shuffle of the pool, 50 doubling up to
    `max_fraction` of the training set; keep the lowest score within the accuracy budget.

    With a `goal` (a worst-target score, e.g. half the audited one) and `extend_to` above
    `max_fraction`, the loop goes on doubling while no version within the accuracy budget
    has reached the goal, up to `extend_to` of the training set (or the whole pool), and
    stops at the first that does. Retraining a network from scratch is chaotic: float sums
    that differ in the last bit between two CPUs give another model, so whether the last
    TestSGD step reaches the goal differs from machine to machine (measured: 62% on one,
    46% on another); going on until it is reached makes the outcome the same claim
    everywhere, at the cost of more retraining where it is needed."""
    order = np.random.default_rng(job.seed).permutation(job.pool_size)
    cap = min(job.pool_size, max(start, round(max_fraction * job.train_size)))
    sizes = []
    size = min(start, cap)
    while size < cap:
        sizes.append(size)
        size *= 2
    sizes.append(cap)
    limit = min(job.pool_size, max(cap, round(extend_to * job.train_size)))
    steps: list[Step] = []
    models: list[Any] = []

    def reached() -> bool:
        kept = job.choose(steps, models)
        chosen = None if kept.over_budget else kept.chosen
        return goal is not None and chosen is not None and steps[chosen].score <= goal

    while sizes:
        size = sizes.pop(0)
        number = len(steps) + 1
        of = f"{number}, goal not reached" if size > cap else f"{number}/{number + len(sizes)}"
        message = f"retraining with {size} augmentation rows ({of})"
        step, model = job.step(order[:size], message, {"extended": size > cap})
        steps.append(step)
        models.append(model)
        if not sizes and size < limit and not reached():
            sizes.append(min(2 * size, limit))
    return job.choose(steps, models)


def aequitas_loop(
    job: Retraining, *, baseline_score: float, max_rounds: int = 7, patience: int = 3
) -> LoopResult:
    """Aequitas's loop: round i adds a random p_i in [2^i, 2^(i+1)) percent of the training
    set size, drawn from a seeded shuffle of the pool, to what earlier rounds added, and
    retrains; keep the lowest score within the accuracy budget.

    Aequitas stops at the first round whose estimate does not fall (``patience=1``). Small
    portions move a model by less than refitting noise, so by default the loop stops only after
    `patience` rounds in a row without a new lowest score (or when the pool or `max_rounds`
    runs out).
    """
    if patience < 1:
        raise TextfairError.bad("patience", f"is {patience}; expected 1 or more rounds")
    rng = np.random.default_rng(job.seed)
    order = rng.permutation(job.pool_size)
    steps: list[Step] = []
    models: list[Any] = []
    best, misses, size = baseline_score, 0, 0
    for i in range(max_rounds):
        percent = rng.uniform(2.0**i, 2.0 ** (i + 1))
        size = min(job.pool_size, size + max(1, round(percent / 100 * job.train_size)))
        message = f"retraining with {size} augmentation rows (round {i + 1}/{max_rounds})"
        step, model = job.step(order[:size], message, {"percent": round(percent, 2)})
        steps.append(step)
        models.append(model)
        misses = 0 if step.score < best else misses + 1
        best = min(best, step.score)
        if misses >= patience or size == job.pool_size:
            break
    return job.choose(steps, models)
