"""The default audit against a DistilBERT-size Hugging Face model: texts/s and overhead.

`python -m benchmarks.gpu --json [--device auto] [--dtype float16] [--batch-size 128]`
builds a classifier with distilbert-base's shapes (6 layers, 768 hidden, 12 heads, 67M
parameters) and random weights (nothing can be downloaded here; the cost of a forward pass
does not depend on the weights), with a word-level fast tokenizer learned from the bundled
comments, saves both as a Hugging Face model directory and loads it the way a user's model
is loaded (`hf:<directory>`, textfair's `HFModel`). It then runs the default audit of the
bundled comments (dixon2018, label metrics included) through one cache, and scores the exact
distinct texts that audit asked about with the model alone, `--repeats` times interleaved.

It prints: ``device`` and its name; ``texts_per_second`` of the model alone; the audit's
``seconds``, the model's seconds inside it (``model_seconds_in_audit``), textfair's own
seconds outside the model (``textfair_seconds``); ``overhead_ratio`` (median over repeats of
audit seconds / model-alone seconds on the same distinct texts); per stage the texts scored
and seconds. On a GPU the model answers thousands of texts a second, so the ratio measures
what textfair's own work costs beside a fast model (issue 45). `--rows` audits only the
first rows and `--tiny` builds the same architecture at 1 layer, 64 hidden and 2 heads (a
smoke test on a CPU: every code path and figure of the benchmark, at a fraction of a
DistilBERT's cost; its figures say nothing of a DistilBERT-size model).
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import statistics
import tempfile
import time
from importlib import resources
from pathlib import Path

import torch

from benchmarks.audit import stage_costs, timed_audit
from textfair.models import CachedModel
from textfair.models.spec import load_model
from textfair.settings import AuditConfig

VOCABULARY = 30_522  # distilbert-base's vocabulary size


def bundled_comments(rows: int | None) -> tuple[list[str], list[str]]:
    """The bundled Wikipedia comments and their labels (the first `rows` of them)."""
    path = resources.files("textfair.datasets").joinpath("wiki_toxicity.csv")
    with path.open(encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle))[:rows]
    texts = [row["comment"] for row in records]
    labels = ["toxic" if row["toxic"] == "True" else "non-toxic" for row in records]
    return texts, labels


# distilbert-base's shapes, and --tiny's: the same architecture, small (a smoke test).
SHAPES = {
    "distilbert-base": {"n_layers": 6, "dim": 768, "hidden_dim": 3072, "n_heads": 12},
    "tiny": {"n_layers": 1, "dim": 64, "hidden_dim": 256, "n_heads": 2},
}


def build_model(
    directory: Path, texts: list[str], max_length: int, shape: str = "distilbert-base"
) -> None:
    """A DistilBERT-architecture classifier (`shape`: one of SHAPES) with random weights and
    a word-level tokenizer learned from `texts`, saved as a Hugging Face model directory."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
    from transformers import (
        DistilBertConfig,
        DistilBertForSequenceClassification,
        PreTrainedTokenizerFast,
    )

    tokenizer = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.WordLevelTrainer(
        vocab_size=VOCABULARY, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
    )
    tokenizer.train_from_iterator(texts, trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        model_max_length=max_length,
    )
    torch.manual_seed(0)
    config = DistilBertConfig(
        vocab_size=VOCABULARY,
        **SHAPES[shape],
        num_labels=2,
        id2label={0: "non-toxic", 1: "toxic"},
        label2id={"non-toxic": 0, "toxic": 1},
    )
    DistilBertForSequenceClassification(config).save_pretrained(directory)
    fast.save_pretrained(directory)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    parser.add_argument(
        "--dtype", default="auto", choices=["auto", "float32", "float16", "bfloat16"]
    )
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--max-length", type=int, default=128, help="tokens per text at most")
    parser.add_argument("--rows", type=int, default=None, help="audit only the first rows")
    parser.add_argument("--repeats", type=int, default=3, help="medians over interleaved runs")
    parser.add_argument(
        "--tiny", action="store_true", help="1 layer, 64 hidden, 2 heads (a smoke test)"
    )
    args = parser.parse_args()
    texts, labels = bundled_comments(args.rows)
    with tempfile.TemporaryDirectory() as directory:
        shape = "tiny" if args.tiny else "distilbert-base"
        build_model(Path(directory), texts, args.max_length, shape)
        model = load_model(
            f"hf:{directory}",
            batch_size=args.batch_size,
            device=args.device,
            max_length=args.max_length,
            dtype=args.dtype,
        )
    model.predict_proba(texts[: args.batch_size])  # warm-up: kernels, allocator
    config = AuditConfig()
    audit_seconds, alone_seconds, inside_seconds, ratios = [], [], [], []
    cached = report = None
    for _ in range(args.repeats):
        cached = CachedModel(model)
        report, seconds = timed_audit(cached, texts, labels, config, "distilbert-size")
        inside = sum(cost.model_seconds for cost in cached.stats.stages.values())
        unique = list(cached._memory)  # the exact distinct texts the audit had scored
        started = time.perf_counter()
        model.predict_proba(unique)
        alone = time.perf_counter() - started
        audit_seconds.append(seconds)
        alone_seconds.append(alone)
        inside_seconds.append(inside)
        ratios.append(seconds / alone)
    assert cached is not None and report is not None
    device = str(model.device)
    result = {
        "benchmark": "gpu",
        "model": f"{shape} shapes, random weights, word-level tokenizer",
        "device": device,
        "device_name": torch.cuda.get_device_name(device) if device.startswith("cuda") else "cpu",
        "dtype": model.dtype,
        "batch_size": args.batch_size,
        "max_length": args.max_length,
        "rows": len(texts),
        "rule_sets": len(report.findings),
        "model_queries": len(cached._memory),
        "texts_per_second": round(len(cached._memory) / statistics.median(alone_seconds)),
        "seconds": round(statistics.median(audit_seconds), 3),
        "model_alone_seconds": round(statistics.median(alone_seconds), 3),
        "model_seconds_in_audit": round(statistics.median(inside_seconds), 3),
        "textfair_seconds": round(
            statistics.median(a - i for a, i in zip(audit_seconds, inside_seconds, strict=True)),
            3,
        ),
        "overhead_ratio": round(statistics.median(ratios), 3),
        "stages": stage_costs(cached),
        "repeats": args.repeats,
        "torch": torch.__version__,
        "python": platform.python_version(),
    }
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
