"""TestSGD's six-layer network for table rows, in PyTorch, saved without pickle.

Layers 64-32-16-8-4-k with ReLU (the census network of TestSGD and Aequitas). Categorical
columns are one-hot encoded, numeric ones standardised; the encoder is plain JSON beside the
weights (``config.json`` + ``model.safetensors``), so loading a model runs no code.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from textfair.errors import TextfairError
from textfair.io import atomic_directory
from textfair.models.threads import training_threads

if TYPE_CHECKING:
    import pandas as pd
    from torch import nn

__all__ = ["TabularMLP"]

HIDDEN = (64, 32, 16, 8, 4)


def _network(width: int, classes: int, hidden: Sequence[int]) -> nn.Sequential:
    from torch import nn

    layers, previous = [], width
    for size in hidden:
        layers += [nn.Linear(previous, size), nn.ReLU()]
        previous = size
    layers.append(nn.Linear(previous, classes))
    return nn.Sequential(*layers)


class TabularMLP:
    r"""A fitted MLP over DataFrame rows, with predict_proba and classes_ like scikit-learn.

    TestSGD's six-layer network for table rows (the census network of TestSGD and
    Aequitas): hidden layers 64-32-16-8-4 with ReLU, then one output per class. Categorical
    columns are one-hot encoded, numeric ones standardised. `train` fits one; `save` writes
    the encoder as plain JSON beside the weights (``config.json`` + ``model.safetensors``),
    so `load` runs no code.

    Parameters
    ----------
    encoder
        One dict per input column, in order: ``{"name", "kind": "numeric", "mean", "std"}``
        or ``{"name", "kind": "categorical", "values"}``.
    labels
        The classes, in the order of the output columns.
    network
        The torch module (put in eval mode); None only inside `train`, until it is built.
    hidden
        The sizes of the hidden layers.
    training
        How the weights were trained (``epochs``, ``learning_rate``, ``batch_size``,
        ``seed``), so a mitigation retrains the same way.

    Attributes
    ----------
    classes_ : numpy.ndarray
        The labels, as strings.
    encoder, network, hidden, training
        As given.

    Notes
    -----
    A numeric column $x$ is encoded as $(x - \mu) / \sigma$, with the mean
    $\mu$ and the population standard deviation $\sigma$ of the training rows
    ($\sigma = 1$ when it is 0); a categorical column as one indicator per value seen
    in training. The network computes

    $$
    f(x) = W_6\, \mathrm{ReLU}(W_5 \cdots \mathrm{ReLU}(W_1 x + b_1) \cdots + b_5) + b_6
    $$

    and `predict_proba` is the softmax of $f(x)$.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"sex": ["Male", "Female"] * 10, "age": range(20, 40)})
    >>> income = [">50K", "<=50K", "<=50K", ">50K"] * 5
    >>> model = textfair.TabularMLP.train(rows, income, epochs=2, seed=0)
    >>> model.classes_.tolist(), model.columns
    (['<=50K', '>50K'], ['sex', 'age'])
    >>> model.predict_proba(rows.head(3)).shape
    (3, 2)
    """

    def __init__(
        self,
        encoder: list[dict],
        labels: Sequence[str],
        network: nn.Module | None,
        hidden: Sequence[int] = HIDDEN,
        training: dict | None = None,
    ) -> None:
        self.encoder = encoder
        # epochs, learning_rate, batch_size and seed, so a mitigation retrains the same way
        self.training = dict(training or {})
        self.classes_ = np.array([str(label) for label in labels])
        self.network = network.eval() if network is not None else None
        self.hidden = tuple(hidden)

    @property
    def columns(self) -> list[str]:
        """The input columns, in order (a list of str)."""
        return [spec["name"] for spec in self.encoder]

    def encode(self, frame: pd.DataFrame) -> np.ndarray:
        """One-hot categorical columns, standardised numeric ones (unknown values: zeros).

        Parameters
        ----------
        frame : pandas.DataFrame
            Rows with every column of `columns` (others are ignored); categorical values are
            compared as strings.

        Returns
        -------
        numpy.ndarray
            float32, one row per input row: the columns' encodings side by side, in the
            order of `columns`.

        Raises
        ------
        TextfairError
            The rows lack a column the model was trained on.
        """
        missing = [c for c in self.columns if c not in frame.columns]
        if missing:
            raise TextfairError(f"the rows lack column {missing[0]!r} the model was trained on")
        parts = []
        for spec in self.encoder:
            column = frame[spec["name"]]
            if spec["kind"] == "numeric":
                values = column.to_numpy(dtype=np.float64)
                parts.append(((values - spec["mean"]) / spec["std"])[:, None])
            else:
                index = {value: i for i, value in enumerate(spec["values"])}
                onehot = np.zeros((len(column), len(spec["values"])))
                for row, value in enumerate(column.astype(str).tolist()):
                    if value in index:
                        onehot[row, index[value]] = 1.0
                parts.append(onehot)
        return np.hstack(parts).astype(np.float32)

    def predict_proba(self, frame: pd.DataFrame) -> np.ndarray:
        """Softmax probabilities for the rows of a DataFrame.

        Parameters
        ----------
        frame : pandas.DataFrame
            Rows with every column of `columns`.

        Returns
        -------
        numpy.ndarray
            Shape ``(len(frame), len(classes_))``, float64; each row sums to 1.
        """
        import torch

        assert self.network is not None  # None only inside `train`, until it is built
        with torch.inference_mode():
            logits = self.network(torch.from_numpy(self.encode(frame)))
            return torch.softmax(logits, dim=1).double().numpy()

    @classmethod
    def train(
        cls,
        frame: pd.DataFrame,
        labels: Sequence,
        *,
        epochs: int = 20,
        seed: int = 0,
        hidden: Sequence[int] = HIDDEN,
        learning_rate: float = 1e-3,
        batch_size: int = 128,
    ) -> TabularMLP:
        """Fit on a DataFrame of features and their labels; the same seed gives the same net.

        A column of a numeric dtype (not boolean) is numeric, any other categorical. The
        network is trained with Adam on the cross-entropy loss, over batches shuffled with
        `seed`, with a fixed number of torch threads, so the weights do not depend on the
        machine or its load.

        Parameters
        ----------
        frame : pandas.DataFrame
            The feature columns (the label column left out).
        labels
            One label per row (turned into strings); two classes or more.
        epochs
            Passes over the rows.
        seed
            Seeds torch (initial weights) and the shuffling of the batches.
        hidden
            The sizes of the hidden layers.
        learning_rate
            Adam's learning rate.
        batch_size
            Rows per step.

        Returns
        -------
        TabularMLP
            The fitted model; its classes are the labels sorted.

        Raises
        ------
        TextfairError
            All labels are the same.
        """
        import pandas as pd
        import torch

        torch.manual_seed(seed)
        encoder = []
        for name in frame.columns:
            column = frame[name]
            if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
                std = float(column.std(ddof=0)) or 1.0
                encoder.append(
                    {"name": str(name), "kind": "numeric", "mean": float(column.mean()), "std": std}
                )
            else:
                values = sorted({str(v) for v in column.tolist()})
                encoder.append({"name": str(name), "kind": "categorical", "values": values})
        names = sorted({str(y) for y in labels})
        if len(names) < 2:
            raise TextfairError("all labels are the same; a classifier needs two classes")
        recipe = {
            "epochs": epochs,
            "learning_rate": learning_rate,
            "batch_size": batch_size,
            "seed": seed,
        }
        model = cls(encoder, names, None, hidden, recipe)
        x = torch.from_numpy(model.encode(frame))
        model.network = _network(x.shape[1], len(names), hidden)
        y = torch.tensor([names.index(str(v)) for v in labels])
        optimizer = torch.optim.Adam(model.network.parameters(), lr=learning_rate)
        loss_fn = torch.nn.CrossEntropyLoss()
        generator = torch.Generator().manual_seed(seed)
        model.network.train()
        with training_threads():  # the same weights whatever the machine and its load
            for _ in range(epochs):
                for rows in torch.randperm(len(y), generator=generator).split(batch_size):
                    optimizer.zero_grad()
                    loss_fn(model.network(x[rows]), y[rows]).backward()
                    optimizer.step()
        model.network.eval()
        return model

    def save(self, directory: str | Path) -> Path:
        """Write config.json (encoder, labels, layers) and model.safetensors.

        The files are written beside `directory`, which they then replace in one step.

        Parameters
        ----------
        directory
            Where to save the model.

        Returns
        -------
        pathlib.Path
            The directory.
        """
        from safetensors.torch import save_file

        assert self.network is not None  # None only inside `train`, until it is built
        target = Path(directory)
        config = {
            "kind": "tabular_mlp",
            "encoder": self.encoder,
            "labels": self.classes_.tolist(),
            "hidden": list(self.hidden),
            "training": self.training,
        }
        with atomic_directory(target) as staging:
            (staging / "config.json").write_text(json.dumps(config, indent=1) + "\n")
            state = {k: v.contiguous() for k, v in self.network.state_dict().items()}
            save_file(state, str(staging / "model.safetensors"))
        return target

    @classmethod
    def load(cls, directory: str | Path) -> TabularMLP:
        """Load a model written by :meth:`save`.

        Parameters
        ----------
        directory
            The directory `save` wrote.

        Returns
        -------
        TabularMLP
            The model.

        Raises
        ------
        TextfairError
            The directory lacks config.json or model.safetensors, or its config.json is not
            a tabular MLP's.
        """
        from safetensors.torch import load_file

        path = Path(directory)
        config_path = path / "config.json"
        if not config_path.is_file() or not (path / "model.safetensors").is_file():
            raise TextfairError(
                f"{path}: not a textfair tabular model (needs config.json and model.safetensors)"
            )
        config = json.loads(config_path.read_text())
        if config.get("kind") != "tabular_mlp":
            raise TextfairError(f"{path}: config.json is not a tabular MLP's")
        state = load_file(str(path / "model.safetensors"))
        width = state["0.weight"].shape[1]
        network = _network(width, len(config["labels"]), config["hidden"])
        network.load_state_dict(state)
        return cls(
            config["encoder"], config["labels"], network, config["hidden"], config.get("training")
        )
