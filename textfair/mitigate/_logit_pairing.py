"""Counterfactual logit pairing (Garg et al. 2019): fine-tune a text classifier so that a
text and its counterfactual get the same logits.

The loss of a step is the cross-entropy of a batch of labelled training texts plus

    lambda * mean over a batch of pairs (x, x') of sum_k |logit_k(x) - logit_k(x')|,

x a training text naming an identity term and x' the same text with another term of the
category (`counterfactual_augmentation`'s rewrites). lambda = 0 is plain fine-tuning with
the same steps, the baseline that shows what the pairing term adds.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

from textfair.errors import TextfairError
from textfair.models.threads import training_threads
from textfair.models.torch_text import TorchTextModel, _pad

if TYPE_CHECKING:
    import torch

    from textfair.models.hf import HFModel
    from textfair.text.matcher import Matcher

__all__ = ["TunableModel", "counterfactual_pairs", "logit_pairing", "pair_gap"]

# A model logit pairing fine-tunes through its logits: a textfair torch text model or a
# Hugging Face one.
TunableModel: TypeAlias = "TorchTextModel | HFModel"


def counterfactual_pairs(
    texts: Sequence[str], labels: Sequence[str], matcher: Matcher, seed: int, per_text: int = 4
) -> list[tuple[str, str]]:
    """(text, counterfactual) for each training text naming an identity term: at most
    `per_text` rewrites to other terms of its categories, drawn with `seed`."""
    from textfair.mitigate.augment import counterfactual_augmentation

    rows = counterfactual_augmentation(
        texts, labels, max_per_text=per_text, seed=seed, matcher=matcher
    )
    return [(texts[row["seed_id"]], row["text"]) for row in rows]


def _copy(model: TunableModel) -> tuple[TunableModel, float]:
    """A copy whose network can be trained while `model` stays as it was."""
    from textfair.models.hf import HFModel

    if isinstance(model, TorchTextModel):
        return copy.deepcopy(model), 5e-4
    if isinstance(model, HFModel):
        tuned = copy.copy(model)
        tuned.network = copy.deepcopy(model.network)
        return tuned, 5e-5  # fine-tuning a pretrained transformer: fine_tune_hf's rate
    raise TextfairError(
        "logit pairing fine-tunes textfair's torch text models and Hugging Face models; "
        f"got {type(model).__name__}"
    )


def _logits(model: TunableModel, texts: Sequence[str]) -> torch.Tensor:
    """The network's logits for a batch of texts (gradients kept)."""
    if isinstance(model, TorchTextModel):
        return model.network(_pad([model.encode(str(t)) for t in texts]))
    encoded = model.tokenizer(
        list(texts),
        padding=True,
        truncation=True,
        max_length=model.max_length,
        return_tensors="pt",
    ).to(model.device)
    return model.network(**encoded).logits


def logit_pairing(
    model: TunableModel,
    texts: Sequence[str],
    labels: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    *,
    weight: float = 1.0,
    epochs: int = 2,
    seed: int = 0,
    batch_size: int = 32,
    learning_rate: float | None = None,
) -> TunableModel:
    """A copy of `model` (a textfair torch text model or a Hugging Face model) fine-tuned
    with counterfactual logit pairing (see the module); `model` itself is left as it was.
    `learning_rate` defaults to 5e-4 for textfair's models and 5e-5 for a transformer. The
    same arguments give the same weights."""
    import torch

    tuned, default_rate = _copy(model)
    if not pairs:
        raise TextfairError(
            "no counterfactual pair: the training texts name no identity term of the list"
        )
    network = tuned.network
    names = list(model.labels)
    targets = torch.tensor([names.index(str(y)) for y in labels])
    with training_threads():
        torch.manual_seed(seed)
        generator = torch.Generator().manual_seed(seed)
        optimizer = torch.optim.AdamW(network.parameters(), lr=learning_rate or default_rate)
        loss_fn = torch.nn.CrossEntropyLoss()
        network.train()
        for _ in range(epochs):
            order = torch.randperm(len(texts), generator=generator).split(batch_size)
            pair_order = torch.randperm(len(pairs), generator=generator).tolist()
            for step, rows in enumerate(order):
                optimizer.zero_grad()
                logits = _logits(tuned, [texts[i] for i in rows.tolist()])
                loss = loss_fn(logits, targets[rows].to(logits.device))
                if weight:
                    chosen = [
                        pair_order[(step * batch_size + k) % len(pairs)] for k in range(batch_size)
                    ]
                    gap = _logits(tuned, [pairs[i][0] for i in chosen]) - _logits(
                        tuned, [pairs[i][1] for i in chosen]
                    )
                    loss = loss + weight * gap.abs().sum(dim=1).mean()
                loss.backward()
                optimizer.step()
        network.eval()
    tuned.fingerprint = (getattr(model, "fingerprint", "") or "") + ":logit-paired"
    return tuned


def pair_gap(model: TunableModel, pairs: Sequence[tuple[str, str]]) -> float:
    """Mean over pairs of sum_k |logit_k(x) - logit_k(x')|: what logit pairing lowers."""
    import torch

    gaps = []
    with torch.inference_mode():
        for begin in range(0, len(pairs), 64):
            batch = pairs[begin : begin + 64]
            a = _logits(model, [x for x, _ in batch])
            b = _logits(model, [y for _, y in batch])
            gaps.append((a - b).abs().sum(dim=1))
    return float(torch.cat(gaps).mean())
