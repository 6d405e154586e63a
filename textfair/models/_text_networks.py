"""The networks of textfair's PyTorch text classifiers (a CNN, a bidirectional LSTM and a
CNN-LSTM over a word vocabulary) and the configuration that rebuilds one before its
weights are loaded.

Apart from the model (textfair.models.torch_text), which saves, loads and runs a network,
and from the training (textfair.models.text_training), which makes one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torch import nn

ARCHITECTURES = ("cnn", "lstm", "cnn_lstm")


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


def build_network(config: TextModelConfig) -> nn.Module:
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

        def forward(self, ids: torch.Tensor) -> torch.Tensor:
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

        def forward(self, ids: torch.Tensor) -> torch.Tensor:
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
