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
``templates``, the templated section's suite, seeds, rule sets, queries and seconds (part of
the audit's); ``overhead_ratio``, the median over interleaved repeats of audit seconds /
seconds for the
model alone to score the same unique texts (each repeat's pair runs back to back, so machine
load drifts out of the ratio); beside it the ratio of the least audit and model-alone
seconds, and the median of audit seconds / the model's seconds inside that audit.
``reaudit``: the same measurements for an audit that finds the corpus's reading (issue 58:
another model's audit of the comments read it), each repeat's audit a new model cache, so
``reaudit.overhead_ratio`` is what an audit of each new model version costs over its model.
``term_lists`` runs the same audit with the other built-in lists (holistic, names, pronouns):
their terms, the rows that mention them, rule sets, causal sets, model queries and seconds.
``breakdown``, from one more audit of the default, where its seconds go: ``matching`` (the
corpus's mentions and plans), ``generation`` (rewrites and placebo edits), ``model`` (its
forward passes), ``statistics`` (the rest of the audit: sampling, intervals, corrections,
the report object) and ``rendering`` (report.json, report.md and report.html written).
``tiny_transformer``: the same paired overhead measurement with the bundled
toxicity-tiny-transformer, where the model's forward passes take a larger share.
``threads`` times the same audit beside `--load` competing busy processes with textfair's
thread setting, torch's default and one thread (see benchmarks/threads.py), and says whether
the loaded audit stays within 3x its idle time.
Run: ``python -m benchmarks.audit --json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import platform
import statistics
import tempfile
import time
from importlib import resources
from pathlib import Path

import torch

from benchmarks.threads import competing_load
from textfair.auditing.text import audit_text
from textfair.models import CachedModel
from textfair.models.spec import load_model
from textfair.report.files import write_report
from textfair.settings import AuditConfig
from textfair.stats import z_value
from textfair.text.domain import TextDomain
from textfair.text.reading_store import forget_readings

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


def list_audit(model, texts, labels, terms: str, repeats: int) -> dict:
    """The default audit with another built-in list: its size, its queries, its time and its
    overhead against the model alone (beside the dixon2018 audit, same comments and model)."""
    from textfair.terms import load_term_list

    categories = load_term_list(terms).categories
    # The comments show no first name to be a private person's: `names` is measured with
    # every name taken for one (its pinned report's setting).
    config = AuditConfig(terms=terms, private_names=terms == "names")
    measured = paired_overhead(model, texts, labels, config, repeats, "toxicity-cnn-lstm")
    report = measured.pop("report")
    measured.pop("cached")
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
        **measured,
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


def timed_audit(cached, texts, labels, config, model_id="toxicity-cnn-lstm", domain=None):
    """The bundled model's audit of the comments with `config`, and its seconds."""
    started = time.perf_counter()
    report = audit_text(
        cached,
        texts,
        favorable="non-toxic",
        labels=labels,
        config=config,
        model_id=model_id,
        domain=domain,
    )
    return report, time.perf_counter() - started


def paired_overhead(
    model, texts, labels, config, repeats: int, model_id: str, reused: bool = False
) -> dict:
    """Audit seconds against the model alone on the same unique texts, `repeats` times
    interleaved (each pair back to back, so machine load drifts out of the ratio). Each
    audit reads the corpus, or with `reused` finds it read (a re-audit: another model's
    audit of the same corpus read it in this process)."""
    audit_seconds, model_seconds, within = [], [], []
    forget_readings()
    if reused:
        timed_audit(CachedModel(model), texts, labels, config, model_id)  # reads, keeps
    for _ in range(repeats):
        if not reused:
            forget_readings()
        cached = CachedModel(model)
        report, seconds = timed_audit(cached, texts, labels, config, model_id)
        audit_seconds.append(seconds)
        within.append(seconds / sum(cost.model_seconds for cost in cached.stats.stages.values()))
        unique = list(cached._memory)  # the exact texts the audit had scored
        started = time.perf_counter()
        model.predict_proba(unique)
        model_seconds.append(time.perf_counter() - started)
    ratios = [a / m for a, m in zip(audit_seconds, model_seconds, strict=True)]
    return {
        "report": report,
        "cached": cached,
        "seconds": round(statistics.median(audit_seconds), 2),
        "model_alone_seconds": round(statistics.median(model_seconds), 2),
        "overhead_ratio": round(statistics.median(ratios), 3),
        # The least of each side: what a machine with no other work would show.
        "overhead_ratio_of_minimums": round(min(audit_seconds) / min(model_seconds), 3),
        # The audit against the model's own seconds inside it: the same moments of the
        # machine on both sides, so a machine whose speed drifts moves it least.
        "overhead_ratio_within_audit": round(statistics.median(within), 3),
    }


def breakdown(model, texts, labels, config) -> dict:
    """One more audit, instrumented: seconds of matching, generation (every rewrite and
    placebo edit, timed where the domain makes them), the model, statistics (the rest of
    the audit) and rendering (the three report files written)."""
    cached = CachedModel(model)
    started = time.perf_counter()
    domain = TextDomain(texts, config.term_list(), config.categories)
    matching = time.perf_counter() - started
    generation = [0.0]

    def timed(function):
        def counted(*args):
            begun = time.perf_counter()
            try:
                return function(*args)
            finally:
                generation[0] += time.perf_counter() - begun

        return counted

    # Instance attributes: every rewrite (rule sets, counterfactual families, term pairs)
    # goes through the domain's remembered `_rewrite_cached`, every placebo through `placebo`.
    domain._rewrite_cached = timed(domain._rewrite_cached)
    domain.placebo = timed(domain.placebo)
    report, audit_seconds = timed_audit(cached, texts, labels, config, domain=domain)
    model_seconds = sum(cost.model_seconds for cost in cached.stats.stages.values())
    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        write_report(report, Path(directory) / "report")
        rendering = time.perf_counter() - started
    return {
        "matching": round(matching, 3),
        "generation": round(generation[0], 3),
        "model": round(model_seconds, 3),
        "statistics": round(audit_seconds - model_seconds - generation[0], 3),
        "rendering": round(rendering, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeats", type=int, default=5, help="medians over interleaved runs")
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
    measured = paired_overhead(model, texts, labels, config, args.repeats, "toxicity-cnn-lstm")
    report, cached = measured.pop("report"), measured.pop("cached")
    # Issue 58: the same audit when the corpus's reading is found (another model's audit of
    # it read it): what a CI job's audit of each new version costs.
    reaudit = paired_overhead(
        model, texts, labels, config, args.repeats, "toxicity-cnn-lstm", reused=True
    )
    del reaudit["report"], reaudit["cached"]
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
        # The templated section (issue 55): its own queries and seconds, part of the audit's.
        "templates": (
            {
                "suite": report.templates.data.get("templates"),
                "seeds": report.templates.data.get("rows"),
                "rule_sets": len(report.templates.findings),
                "model_queries": report.templates.run.model_queries,
                "placebo_queries": report.templates.run.placebo_queries,
                "seconds": report.templates.run.seconds,
            }
            if report.templates is not None
            else None
        ),
        "stages": stage_costs(cached),
        **measured,
        "reaudit": reaudit,
        "breakdown": breakdown(model, texts, labels, config),
        "repeats": args.repeats,
        "python": platform.python_version(),
    }
    result["query_reduction"] = round(result["testsgd_queries"] / result["model_queries"], 1)
    result["group_fairness_queries"] = group_only.run.model_queries
    result["group_query_reduction"] = round(
        result["testsgd_queries"] / result["group_fairness_queries"], 1
    )
    result["term_lists"] = {
        name: list_audit(model, texts, labels, name, args.repeats)
        for name in ("holistic", "names", "pronouns")
    }
    transformer = load_model("toxicity-tiny-transformer", batch_size=64, device="cpu")
    transformer.predict_proba(texts[:64])  # warm-up
    tiny = paired_overhead(
        transformer, texts, labels, config, args.repeats, "toxicity-tiny-transformer"
    )
    result["tiny_transformer"] = {
        "model_queries": tiny.pop("report").run.model_queries,
        **{k: v for k, v in tiny.items() if k != "cached"},
    }
    if args.load:
        result["threads"] = competing_load(
            model, texts, labels, torch_default, args.repeats, args.load
        )
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
