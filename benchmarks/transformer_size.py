"""Texts/s of a DistilBERT-sized classifier on this machine: the cost a real transformer's
forward passes put on a corpus, for the README's projection of the Ray engine.

`python -m benchmarks.transformer_size --json [--device cuda]` builds a network with
distilbert-base's shapes (6 layers, 768 hidden, 12 heads, 67M parameters) and random weights
(nothing can be downloaded here; the cost does not depend on the weights), and scores the
first 512 unique bundled Wikipedia comments, truncated at 128 tokens, in length-sorted
batches of 32, after one warm-up pass. A word-level vocabulary over the comments stands in
for WordPiece (which splits rarer words into several pieces, so real inputs are somewhat
longer and slower).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pandas as pd
import torch
from transformers import DistilBertConfig, DistilBertForSequenceClassification

WIKI = Path(__file__).resolve().parents[1] / "textfair" / "datasets" / "wiki_toxicity.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--texts", type=int, default=512)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    texts = list(dict.fromkeys(pd.read_csv(WIKI)["comment"]))[: args.texts]
    vocabulary: dict[str, int] = {}
    ids = [
        [vocabulary.setdefault(word, 2 + len(vocabulary) % 30000) for word in text.split()][:128]
        or [1]
        for text in texts
    ]
    torch.manual_seed(0)
    model = DistilBertForSequenceClassification(DistilBertConfig(num_labels=2))
    model = model.eval().to(args.device)
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))

    def score() -> None:
        with torch.inference_mode():
            for begin in range(0, len(order), 32):
                rows = [ids[i] for i in order[begin : begin + 32]]
                width = max(map(len, rows))
                batch = torch.tensor([row + [0] * (width - len(row)) for row in rows])
                model(input_ids=batch.to(args.device), attention_mask=(batch != 0).to(args.device))

    score()  # warm-up
    started = time.perf_counter()
    score()
    seconds = time.perf_counter() - started
    result = {
        "benchmark": "transformer_size",
        "model": "distilbert-base shapes, random weights",
        "parameters": sum(p.numel() for p in model.parameters()),
        "device": args.device,
        "torch_threads": torch.get_num_threads(),
        "texts": len(ids),
        "texts_per_second": round(len(ids) / seconds, 1),
    }
    print(json.dumps(result, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
