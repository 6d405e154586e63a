"""PyTorch text classifiers: CNN, bidirectional LSTM and CNN-LSTM over a word vocabulary.

These are the kinds of models TestSGD audits. A model is saved as a directory holding
``config.json`` (architecture and labels), ``vocab.json`` (the word list) and
``model.safetensors`` (the weights) — never a pickle, so loading one runs no code.
:func:`textfair.models.text_training.train_text_classifier` trains one from texts and labels
with a fixed seed; the networks are in :mod:`textfair.models._text_networks`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from textfair.core.words import word_regex
from textfair.errors import TextfairError
from textfair.io import atomic_directory
from textfair.models._device import resolve_device
from textfair.models._text_networks import ARCHITECTURES, TextModelConfig, build_network

if TYPE_CHECKING:
    import torch
    from torch import nn

__all__ = ["TorchTextModel", "tokenize"]

FILES = ("config.json", "vocab.json", "model.safetensors")


def tokenize(text: str) -> list[str]:
    """Lowercased word and punctuation tokens: the tokens of nltk's RegexpTokenizer with
    textfair's pattern (`textfair.core.words`), each lowercased.

    The text is lowercased once before it is split, not token by token (a fifth of the
    bundled CNN-LSTM's time went to this function). That gives the same tokens: no character
    moves between word, space and punctuation when lowercased (checked over every code point
    in the tests). A capital sigma is the exception: its lowercase depends on the letters
    around it, and `str.lower` sees them across a token's edge ("ΟΔΟΣ.Α"), so a text with one
    is split first.
    """
    if "Σ" in text:
        return [token.lower() for token in word_regex().findall(text)]
    return word_regex().findall(text.lower())


class TorchTextModel:
    """A trained text classifier with its vocabulary; batched, length-sorted inference.

    A CNN, a bidirectional LSTM or a CNN-LSTM over a word vocabulary: the kinds of models
    TestSGD audits. `train_text_classifier` trains one; `load` reads one that `save` wrote,
    a directory of ``config.json`` (architecture and labels), ``vocab.json`` (the word list)
    and ``model.safetensors`` (the weights): never a pickle, so loading one runs no code.

    Parameters
    ----------
    config
        The architecture, labels and sizes (``TextModelConfig``), and how the weights were
        trained.
    vocab
        The word list: ``"<pad>"`` (id 0), ``"<unk>"`` (id 1), then the words.
    network
        The torch module built for `config`; it is moved to `device` and put in eval mode.
    batch_size
        Texts per forward pass.
    device
        Where the network runs (``"cpu"``, ``"cuda"``, ``"cuda:N"``), as given.

    Attributes
    ----------
    labels : tuple of str
        The labels, in the order of the output columns.
    fingerprint : str
        A hash of the three files the model was loaded from or saved to; empty for a model
        never saved.
    config, vocab, network, batch_size, device
        As given.

    Examples
    --------
    >>> model = textfair.TorchTextModel.load(
    ...     "textfair/bundled_models/toxicity-cnn-lstm")  # doctest: +SKIP
    >>> model.predict_proba(["hello"]).shape  # doctest: +SKIP
    (1, 2)
    """

    def __init__(
        self,
        config: TextModelConfig,
        vocab: list[str],
        network: nn.Module,
        batch_size: int = 64,
        device: str = "cpu",
    ) -> None:
        self.config = config
        self.vocab = vocab
        self.device = device
        self.network = network.to(device).eval()
        self.batch_size = batch_size
        self.labels = tuple(config.labels)
        self._index = {word: i for i, word in enumerate(vocab)}
        self.fingerprint = ""

    def encode(self, text: str) -> list[int]:
        """Token ids of a text, cut at ``config.max_length`` tokens.

        The tokens are lowercased words and punctuation; a word not in the vocabulary is the
        unknown id, 1.

        Parameters
        ----------
        text
            The text.

        Returns
        -------
        list of int
            The ids; at least one id (unknown) for an empty text.
        """
        tokens = tokenize(text)[: self.config.max_length]
        return list(map(self._index.get, tokens, itertools.repeat(1))) or [1]

    def predict_proba(self, inputs: Sequence[str]) -> np.ndarray:
        r"""Softmax probabilities, computed in length-sorted batches, returned in input order.

        Parameters
        ----------
        inputs
            The texts (each turned into a string).

        Returns
        -------
        numpy.ndarray
            Shape ``(len(inputs), len(labels))``, float64; each row sums to 1.

        Notes
        -----
        With the network's logits $z_1, \dots, z_k$ for a text,
        $p_j = e^{z_j} / \sum_{l=1}^{k} e^{z_l}$.
        """
        import torch

        encoded = [self.encode(str(text)) for text in inputs]
        order = np.argsort([len(ids) for ids in encoded], kind="stable")
        result = np.empty((len(inputs), len(self.labels)))
        with torch.inference_mode():
            for begin in range(0, len(order), self.batch_size):
                rows = order[begin : begin + self.batch_size]
                batch = _pad([encoded[i] for i in rows]).to(self.device)
                probabilities = torch.softmax(self.network(batch), dim=1)
                result[rows] = probabilities.cpu().double().numpy()
        return result

    def save(self, directory: str | Path) -> Path:
        """Write config.json, vocab.json and model.safetensors; replace `directory` atomically.

        The files are written beside `directory`, which they then replace in one step. The
        model's `fingerprint` is set from the files written.

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

        target = Path(directory)
        with atomic_directory(target) as staging:
            (staging / "config.json").write_text(json.dumps(asdict(self.config), indent=2) + "\n")
            (staging / "vocab.json").write_text(json.dumps(self.vocab, ensure_ascii=False) + "\n")
            state = {k: v.contiguous() for k, v in self.network.state_dict().items()}
            save_file(state, str(staging / "model.safetensors"))
        self.fingerprint = _fingerprint(target)
        return target

    @classmethod
    def load(
        cls, directory: str | Path, batch_size: int = 64, device: str = "cpu"
    ) -> TorchTextModel:
        """Load a model saved by :meth:`save`; a one-line error if it is not one.

        Parameters
        ----------
        directory
            The directory `save` wrote.
        batch_size
            Texts per forward pass.
        device
            ``"auto"`` (CUDA when available), ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.

        Returns
        -------
        TorchTextModel
            The model, with its `fingerprint` set from its files.

        Raises
        ------
        TextfairError
            No such directory, a missing file, a malformed config.json or vocab.json, an
            unknown architecture, or weights that are damaged or of another model.
        """
        from safetensors.torch import load_file

        path = Path(directory)
        if not path.exists():
            raise TextfairError(f"{path}: no such directory; pass a textfair model directory")
        missing = [name for name in FILES if not (path / name).is_file()]
        if missing:
            raise TextfairError(
                f"{path}: not a textfair text model (missing {', '.join(missing)}); "
                "expected a directory written by train_text_classifier(...).save()"
            )
        try:
            config = TextModelConfig(**json.loads((path / "config.json").read_text()))
            vocab = json.loads((path / "vocab.json").read_text(encoding="utf-8"))
        except (TypeError, ValueError) as err:
            raise TextfairError(f"{path}: config.json or vocab.json is malformed ({err})") from None
        if config.arch not in ARCHITECTURES:
            raise TextfairError(
                f"{path}: unknown architecture {config.arch!r}; expected one of {ARCHITECTURES}"
            )
        network = build_network(config)
        try:
            network.load_state_dict(load_file(str(path / "model.safetensors")))
        except Exception as err:  # safetensors' and torch's errors: a damaged or foreign file
            first = (str(err).strip().splitlines() or [type(err).__name__])[0][:200]
            raise TextfairError(
                f"{path}/model.safetensors cannot be read as this model's weights ({first}); "
                "the file is damaged, incomplete or of another model: save or copy it again"
            ) from None
        model = cls(config, vocab, network, batch_size=batch_size, device=resolve_device(device))
        model.fingerprint = _fingerprint(path)
        return model


def _pad(sequences: list[list[int]]) -> torch.Tensor:
    import torch

    width = max(len(ids) for ids in sequences)
    batch = np.zeros((len(sequences), width), dtype=np.int64)
    for row, ids in enumerate(sequences):
        batch[row, : len(ids)] = ids
    return torch.from_numpy(batch)


def _fingerprint(directory: Path) -> str:
    digest = hashlib.sha256()
    for name in FILES:
        digest.update((directory / name).read_bytes())
    return "textfair-text:" + digest.hexdigest()[:16]
