"""PyTorch text classifiers: CNN, bidirectional LSTM and CNN-LSTM over a word vocabulary.

These are the kinds of models TestSGD audits. A model is saved as a directory holding
``config.json`` (architecture and labels), ``vocab.json`` (the word list) and
``model.safetensors`` (the weights) — never a pickle, so loading one runs no code.
:func:`train_text_classifier` trains one from texts and labels with a fixed seed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from textfair.core.words import word_regex
from textfair.errors import TextfairError
from textfair.io import atomic_directory
from textfair.models.base import resolve_device
from textfair.models.threads import training_threads

__all__ = ["TextModelConfig", "TorchTextModel", "tokenize", "train_text_classifier"]

ARCHITECTURES = ("cnn", "lstm", "cnn_lstm")
PAD, UNK = "<pad>", "<unk>"
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


@dataclass
class TextModelConfig:
    """Everything needed to rebuild a network before its weights are loaded."""

    arch: str
    labels: list[str]
    vocab_size: int
    embed_dim: int = 64
    hidden: int = 64
    filters: int = 64
    kernel_sizes: list[int] = field(default_factory=lambda: [3, 4, 5])
    max_length: int = 200
    dropout: float = 0.3
    # How the weights were trained (epochs, batch_size, learning_rate, seed, class_weights),
    # so `textfair mitigate` can retrain the same way; empty when not recorded (defaults).
    training: dict = field(default_factory=dict)


def _build_network(config: TextModelConfig):
    import torch
    from torch import nn

    class CNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embedding = nn.Embedding(config.vocab_size, config.embed_dim, padding_idx=0)
            self.convs = nn.ModuleList(
                nn.Conv1d(config.embed_dim, config.filters, k, padding=k // 2)
                for k in config.kernel_sizes
            )
            self.dropout = nn.Dropout(config.dropout)
            self.out = nn.Linear(config.filters * len(config.kernel_sizes), len(config.labels))

        def forward(self, ids):
            # The padding embedding is zero, like the convolution's own padding, so real
            # positions are unchanged by padding; padded positions are masked out of the max.
            padded = (ids == 0).unsqueeze(1)
            x = self.embedding(ids).transpose(1, 2)
            width = ids.shape[1]  # an even kernel yields one extra position: drop it
            pooled = [
                torch.relu(conv(x)[:, :, :width]).masked_fill(padded, float("-inf")).amax(dim=2)
                for conv in self.convs
            ]
            return self.out(self.dropout(torch.cat(pooled, dim=1)))

    class BiLSTM(nn.Module):
        def __init__(self, convolve: bool) -> None:
            super().__init__()
            self.embedding = nn.Embedding(config.vocab_size, config.embed_dim, padding_idx=0)
            self.conv = (
                nn.Conv1d(config.embed_dim, config.filters, 5, padding=2) if convolve else None
            )
            width = config.filters if convolve else config.embed_dim
            self.lstm = nn.LSTM(width, config.hidden, batch_first=True, bidirectional=True)
            self.dropout = nn.Dropout(config.dropout)
            self.out = nn.Linear(2 * config.hidden, len(config.labels))

        def forward(self, ids):
            lengths = (ids != 0).sum(dim=1).clamp(min=1)
            x = self.embedding(ids)
            if self.conv is not None:
                x = torch.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
            # Packed sequences: the backward direction starts at each text's last real token,
            # so a text gets the same prediction whatever it is batched with.
            packed = nn.utils.rnn.pack_padded_sequence(
                x, lengths.cpu(), batch_first=True, enforce_sorted=False
            )
            states, _ = nn.utils.rnn.pad_packed_sequence(
                self.lstm(packed)[0], batch_first=True, padding_value=float("-inf")
            )
            return self.out(self.dropout(states.amax(dim=1)))

    if config.arch == "cnn":
        return CNN()
    return BiLSTM(convolve=config.arch == "cnn_lstm")


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
        network,
        batch_size: int = 64,
        device: str = "cpu",
    ):
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
        network = _build_network(config)
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


def _pad(sequences: list[list[int]]):
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


def build_vocab(texts: Sequence[str], min_count: int = 2, max_size: int = 20_000) -> list[str]:
    """Words seen at least `min_count` times, most frequent first, after <pad> and <unk>."""
    counts = Counter(token for text in texts for token in tokenize(text))
    frequent = [
        w for w, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if c >= min_count
    ]
    return [PAD, UNK, *frequent[: max_size - 2]]


def train_text_classifier(
    texts: Sequence[str],
    labels: Sequence[str],
    *,
    arch: str = "cnn_lstm",
    epochs: int = 8,
    seed: int = 0,
    batch_size: int = 32,
    learning_rate: float = 2e-3,
    label_order: Sequence[str] | None = None,
    class_weights: bool = True,
    **config_overrides,
) -> TorchTextModel:
    r"""Train a CNN, BiLSTM or CNN-LSTM text classifier; the same seed gives the same weights.

    The vocabulary is the words seen at least twice, most frequent first (20,000 at most,
    ``"<pad>"`` and ``"<unk>"`` included). The network is trained with Adam on the
    cross-entropy loss, over shuffled batches. The seed fixes torch's random state (initial
    weights, dropout) and the order of the batches, and training uses a fixed number of
    torch threads, so the same seed gives the same weights. How it was trained is kept in
    ``config.training``, so that ``textfair mitigate`` can retrain the same way.

    Parameters
    ----------
    texts
        The training texts.
    labels
        One label per text (turned into strings); two classes or more.
    arch
        ``"cnn"``, ``"lstm"`` (bidirectional) or ``"cnn_lstm"`` (default).
    epochs
        Passes over the data.
    seed
        Seeds torch (initial weights, dropout) and the shuffling of the batches.
    batch_size
        Texts per step.
    learning_rate
        Adam's learning rate.
    label_order
        The order of the output columns; by default the labels sorted.
    class_weights
        Weigh the loss by inverse class frequency, so a rare class (toxic comments are 17%
        of the Wikipedia sample) is not ignored.
    **config_overrides
        Sizes of the network, as ``TextModelConfig`` names them: ``embed_dim`` (64),
        ``hidden`` (64), ``filters`` (64), ``kernel_sizes`` ([3, 4, 5]), ``max_length``
        (200 tokens per text) and ``dropout`` (0.3).

    Returns
    -------
    TorchTextModel
        The trained model, in eval mode on the CPU; `save` writes it.

    Raises
    ------
    TextfairError
        An unknown architecture, a number of texts and labels that differ or are zero, or
        a single class.

    Notes
    -----
    With $N$ texts, $K$ classes and $n_c$ texts of class $c$, the
    class weights are

    $$
    w_c = \frac{N}{K \max(n_c, 1)},
    $$

    so that every class weighs as much in the loss,
    $\sum_i w_{y_i} (-\log p_{y_i}(x_i)) / \sum_i w_{y_i}$ over a batch.

    Examples
    --------
    >>> texts = ["you are an idiot", "thanks a lot", "idiot", "have a nice day"] * 5
    >>> labels = ["toxic", "non-toxic", "toxic", "non-toxic"] * 5
    >>> model = textfair.train_text_classifier(texts, labels, arch="cnn", epochs=2, seed=0)
    >>> model.labels
    ('non-toxic', 'toxic')
    >>> model.save("my-model/")  # doctest: +SKIP
    """

    if arch not in ARCHITECTURES:
        raise TextfairError(
            f"unknown architecture {arch!r}; choose one of: {', '.join(ARCHITECTURES)}"
        )
    if len(texts) != len(labels) or not texts:
        raise TextfairError(
            f"got {len(texts)} texts and {len(labels)} labels; expected the same non-zero number"
        )
    names = [str(x) for x in (label_order or sorted({str(y) for y in labels}))]
    if len(names) < 2:
        raise TextfairError(f"all labels are {names[0]!r}; a classifier needs two or more classes")
    with training_threads():
        return _train(
            texts,
            labels,
            names,
            arch,
            epochs,
            seed,
            batch_size,
            learning_rate,
            class_weights,
            config_overrides,
        )


def _train(
    texts, labels, names, arch, epochs, seed, batch_size, learning_rate, class_weights, overrides
) -> TorchTextModel:
    import torch

    torch.manual_seed(seed)
    vocab = build_vocab(texts)
    recipe = {
        "epochs": epochs,
        "batch_size": batch_size,
        "learning_rate": learning_rate,
        "seed": seed,
        "class_weights": class_weights,
    }
    config = TextModelConfig(
        arch=arch, labels=names, vocab_size=len(vocab), training=recipe, **overrides
    )
    model = TorchTextModel(config, vocab, _build_network(config))
    targets = torch.tensor([names.index(str(y)) for y in labels])
    encoded = [model.encode(str(t)) for t in texts]
    weights = None
    if class_weights:
        counts = torch.bincount(targets, minlength=len(names)).double()
        weights = (counts.sum() / (len(names) * counts.clamp(min=1))).float()
    loss_fn = torch.nn.CrossEntropyLoss(weight=weights)
    optimizer = torch.optim.Adam(model.network.parameters(), lr=learning_rate)
    generator = torch.Generator().manual_seed(seed)
    model.network.train()
    for _ in range(epochs):
        for rows in torch.randperm(len(encoded), generator=generator).split(batch_size):
            optimizer.zero_grad()
            logits = model.network(_pad([encoded[i] for i in rows.tolist()]))
            loss_fn(logits, targets[rows]).backward()
            optimizer.step()
    model.network.eval()
    return model
