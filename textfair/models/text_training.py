"""Training a PyTorch text classifier (CNN, BiLSTM or CNN-LSTM) from texts and labels: the
vocabulary, the class weights and the seeded loop, so the same seed gives the same weights.

Apart from the model it makes (textfair.models.torch_text): auditing a saved model never
needs the training code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypedDict, Unpack

from textfair.errors import TextfairError
from textfair.models._text_networks import ARCHITECTURES, TextModelConfig, build_network
from textfair.models.threads import training_threads
from textfair.models.torch_text import TorchTextModel, _pad, tokenize

__all__ = ["NetworkSizes", "build_vocab", "train_text_classifier"]

PAD, UNK = "<pad>", "<unk>"


class NetworkSizes(TypedDict, total=False):
    """The sizes of a network that `train_text_classifier` takes as keywords (the fields of
    ``TextModelConfig`` of the same names)."""

    embed_dim: int
    hidden: int
    filters: int
    kernel_sizes: list[int]
    max_length: int
    dropout: float


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
    **config_overrides: Unpack[NetworkSizes],
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
    texts: Sequence[str],
    labels: Sequence[str],
    names: list[str],
    arch: str,
    epochs: int,
    seed: int,
    batch_size: int,
    learning_rate: float,
    class_weights: bool,
    overrides: NetworkSizes,
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
    model = TorchTextModel(config, vocab, build_network(config))
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
