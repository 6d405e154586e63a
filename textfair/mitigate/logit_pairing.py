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

from textfair.errors import TextfairError
from textfair.models.threads import training_threads
from textfair.models.torch_text import TorchTextModel, _pad

__all__ = ["counterfactual_pairs", "logit_pairing", "pair_gap"]


def counterfactual_pairs(
    texts: Sequence[str], labels: Sequence[str], matcher, seed: int, per_text: int = 4
) -> list[tuple[str, str]]:
    """(text, counterfactual) for each training text naming an identity term: at most
    `per_text` rewrites to other terms of its categories, drawn with `seed`."""
    from textfair.mitigate.augment import counterfactual_augmentation

    rows = counterfactual_augmentation(
        texts, labels, max_per_text=per_text, seed=seed, matcher=matcher
    )
    return [(texts[row["seed_id"]], row["text"]) for row in rows]


def logit_pairing(
    model: TorchTextModel,
    texts: Sequence[str],
    labels: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    *,
    weight: float = 1.0,
    epochs: int = 2,
    seed: int = 0,
    batch_size: int = 32,
    learning_rate: float = 5e-4,
) -> TorchTextModel:
    """A copy of `model` fine-tuned with counterfactual logit pairing (see the module);
    `model` itself is left as it was. The same arguments give the same weights."""
    import torch

    if not isinstance(model, TorchTextModel):
        raise TextfairError(
            f"logit pairing fine-tunes textfair's torch text models; got {type(model).__name__}"
        )
    if not pairs:
        raise TextfairError(
            "no counterfactual pair: the training texts name no identity term of the list"
        )
    tuned = copy.deepcopy(model)
    network = tuned.network
    names = list(model.labels)
    targets = torch.tensor([names.index(str(y)) for y in labels])
    encoded = [tuned.encode(str(t)) for t in texts]
    first = [tuned.encode(a) for a, _ in pairs]
    second = [tuned.encode(b) for _, b in pairs]
    with training_threads():
        torch.manual_seed(seed)
        generator = torch.Generator().manual_seed(seed)
        optimizer = torch.optim.Adam(network.parameters(), lr=learning_rate)
        loss_fn = torch.nn.CrossEntropyLoss()
        network.train()
        for _ in range(epochs):
            order = torch.randperm(len(encoded), generator=generator).split(batch_size)
            pair_order = torch.randperm(len(pairs), generator=generator).tolist()
            for step, rows in enumerate(order):
                optimizer.zero_grad()
                logits = network(_pad([encoded[i] for i in rows.tolist()]))
                loss = loss_fn(logits, targets[rows])
                if weight:
                    chosen = [
                        pair_order[(step * batch_size + k) % len(pairs)] for k in range(batch_size)
                    ]
                    gap = network(_pad([first[i] for i in chosen])) - network(
                        _pad([second[i] for i in chosen])
                    )
                    loss = loss + weight * gap.abs().sum(dim=1).mean()
                loss.backward()
                optimizer.step()
        network.eval()
    tuned.fingerprint = ""
    return tuned


def pair_gap(model: TorchTextModel, pairs: Sequence[tuple[str, str]]) -> float:
    """Mean over pairs of sum_k |logit_k(x) - logit_k(x')|: what logit pairing lowers."""
    import torch

    with torch.inference_mode():
        a = model.network(_pad([model.encode(x) for x, _ in pairs]))
        b = model.network(_pad([model.encode(y) for _, y in pairs]))
    return float((a - b).abs().sum(dim=1).mean())
