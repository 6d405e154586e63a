"""The default audit, timed and counted against what TestSGD's Alg. 2 would query.

Runs `textfair audit`'s default (bundled CNN-LSTM, bundled Wikipedia comments) and prints:
``rule_sets``; ``model_queries`` (texts the model scored); ``testsgd_queries`` (for the same
rule sets at the same error bound, Alg. 2 draws pairs in chunks of sample_thr = 1000 until
z·sqrt(p1(1-p1)/n) + z·sqrt(p2(1-p2)/n) <= error, querying 2·n texts; p1, p2 are the rates
this audit measured); ``group_fairness_queries``, what the group fairness stage alone queried
(the part Alg. 2 does; the full audit adds the causal tests and the label metrics, which score
every labelled comment) and ``group_query_reduction`` against Alg. 2; ``placebo_queries``, the
texts scored for the causal stage's placebo edits (part of ``model_queries``); ``stages``, per
stage of the last repeat the texts the model scored and its seconds on them; ``seconds``; and
``overhead_ratio``, the median over interleaved repeats of audit seconds / seconds for the
model alone to score the same unique texts (each repeat's pair runs back to back, so machine
load drifts out of the ratio).
``term_lists`` runs the same audit with the other built-in lists (holistic, names, pronouns):
their terms, the rows that mention them, rule sets, causal sets, model queries and seconds.
``threads`` times the same audit beside `--load` competing busy processes with textfair's
thread setting, torch's default and one thread (see benchmarks/threads.py).
Run: ``python -m benchmarks.audit --json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import platform
import statistics
import time
from importlib import resources

import torch

from benchmarks.threads import competing_load
from textfair.auditing import AuditConfig, audit_text
from textfair.models import CachedModel
from textfair.models.spec import load_model
from textfair.stats import z_value

SAMPLE_THR = 1000


def testsgd_queries(findings, confidence: float, error: float) -> int:
    """Texts Alg. 2 would query for these rule sets: 2·n, n a multiple of sample_thr."""
    z = z_value(confidence)
    total = 0
    for finding in findings:
        spread = sum(math.sqrt(p * (1 - p)) for p in (finding.phi_r, finding.phi_not_r))
        needed = (z * spread / error) ** 2
        n = max(SAMPLE_THR, SAMPLE_THR * math.ceil(needed / SAMPLE_THR))
        total += 2 * n
    return total


def list_audit(model, texts, labels, terms: str) -> dict:
    """The default audit with another built-in list: its size, its queries and its time
    (beside the dixon2018 audit above, on the same comments and model)."""
    from textfair.terms import load_term_list

    categories = load_term_list(terms).categories
    report, seconds = timed_audit(CachedModel(model), texts, labels, AuditConfig(terms=terms))
    return {
        "terms": sum(len(category) for category in categories.values()),
        "categories": len(categories),
        "mentioning_rows": report.data["mentioning_rows"],
        "rule_sets": len(report.findings),
        "causal_sets": len(report.counterfactual.causal) if report.counterfactual else 0,
        "model_queries": report.run.model_queries,
        "placebo_queries": report.run.placebo_queries,
        "requested_texts": report.run.requested,
        "sampled_assignments": report.config.get("sampled_assignments", []),
        "seconds": round(seconds, 2),
    }


def stage_costs(cached) -> dict:
    """Per stage of the audit, the texts the model scored and its seconds on them."""
    return {
        name: {
            "model_queries": cost.forwarded,
            "model_seconds": round(cost.model_seconds, 3),
            "seconds": round(cost.seconds, 3),
        }
        for name, cost in cached.stats.stages.items()
    }


def timed_audit(cached, texts, labels, config):
    """The bundled model's audit of the comments with `config`, and its seconds."""
    started = time.perf_counter()
    report = audit_text(
        cached,
        texts,
        favorable="non-toxic",
        labels=labels,
        config=config,
        model_id="toxicity-cnn-lstm",
    )
    return report, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeats", type=int, default=3, help="medians over interleaved runs")
    parser.add_argument(
        "--load",
        type=int,
        default=1,
        help="competing busy processes for the thread timing (0: skip)",
    )
    args = parser.parse_args()
    torch_default = torch.get_num_threads()  # before load_model sets textfair's choice
    path = resources.files("textfair.datasets").joinpath("wiki_toxicity.csv")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    texts = [row["comment"] for row in rows]
    labels = ["toxic" if row["toxic"] == "True" else "non-toxic" for row in rows]
    model = load_model("toxicity-cnn-lstm", batch_size=64, device="cpu")
    model.predict_proba(texts[:64])  # warm-up
    config = AuditConfig()
    audit_seconds, model_seconds = [], []
    for _ in range(args.repeats):  # interleaved, so both sides see the same machine load
        cached = CachedModel(model)
        report, seconds = timed_audit(cached, texts, labels, config)
        audit_seconds.append(seconds)
        unique = list(cached._memory)  # the exact texts the audit had scored
        started = time.perf_counter()
        model.predict_proba(unique)
        model_seconds.append(time.perf_counter() - started)
    seconds, model_alone = statistics.median(audit_seconds), statistics.median(model_seconds)
    ratio = statistics.median(a / m for a, m in zip(audit_seconds, model_seconds, strict=True))
    group_only = audit_text(
        CachedModel(model),
        texts,
        favorable="non-toxic",
        config=AuditConfig(causal=False),
        model_id="toxicity-cnn-lstm",
    )
    result = {
        "benchmark": "audit",
        "model": "toxicity-cnn-lstm",
        "rows": len(texts),
        "rule_sets": len(report.findings),
        "model_queries": report.run.model_queries,
        "testsgd_queries": testsgd_queries(report.findings, config.confidence, config.error),
        "requested_texts": report.run.requested,
        "placebo_queries": report.run.placebo_queries,
        "stages": stage_costs(cached),
        "seconds": round(seconds, 2),
        "model_alone_seconds": round(model_alone, 2),
        "overhead_ratio": round(ratio, 3),
        "repeats": args.repeats,
        "python": platform.python_version(),
    }
    result["query_reduction"] = round(result["testsgd_queries"] / result["model_queries"], 1)
    result["group_fairness_queries"] = group_only.run.model_queries
    result["group_query_reduction"] = round(
        result["testsgd_queries"] / result["group_fairness_queries"], 1
    )
    result["term_lists"] = {
        name: list_audit(model, texts, labels, name) for name in ("holistic", "names", "pronouns")
    }
    if args.load:
        result["threads"] = competing_load(
            model, texts, labels, torch_default, args.repeats, args.load
        )
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
