"""Options that several commands share, declared once: flag, type, default and help.

A command lists the shared options it takes with :func:`textfair.cli._signatures.with_options`
and receives them in ``**options``; the options it declares itself come first in its
``--help`` and win over a shared option of the same name (``mitigate`` has its own
``--error`` default, for instance). Declaring them once keeps a flag's default and help the
same in every command that has it. Their values are checked in `textfair.cli._option_checks`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import typer

from textfair.cli import _option_checks as option_checks
from textfair.settings import AuditConfig

# The audit's defaults, written once (in AuditConfig): the options show and take them.
DEFAULT = AuditConfig()

# Choices, listed in --help and checked by typer before the command runs (the same as
# textfair.settings.CONSTRAINTS's, which a test checks).
Mode = Literal["paired", "paper"]
Unit = Literal["document", "sentence"]
Correction = Literal["holm", "bh", "none"]
Method = Literal["counterfactual", "rule-sets"]
Loop = Literal["testsgd", "aequitas"]
Strategy = Literal["random", "semi", "fully"]
SearchTarget = Literal["label", "probability"]
Engine = Literal["local", "ray"]

# The --model of the text commands.
MODEL_HELP = (
    "hf:<hub id or directory>, textfair:<directory>, sklearn:<joblib file>, "
    "py:<module>:<function>, a directory, or a bundled model's name."
)

SHARED: dict[str, tuple[object, typer.models.OptionInfo]] = {
    # The corpus of a text command.
    "unit": (
        Unit,
        typer.Option(
            "document",
            "--unit",
            help="What one text is: a row of --data, or each sentence of a row (long "
            "documents: a variant then carries no context that contradicts it).",
        ),
    ),
    "text_column": (
        str | None,
        typer.Option(None, "--text-column", help="Column of --data that holds the texts."),
    ),
    "label_column": (
        str | None,
        typer.Option(
            None,
            "--label-column",
            help="Column of --data that holds the true labels (text audits: adds subgroup, "
            "BPSN and BNSP AUC; tables and mitigation: required).",
        ),
    ),
    "label_map": (
        str | None,
        typer.Option(
            None,
            "--label-map",
            help='Label values as the model names them: "1=toxic,0=non-toxic", "1=>50K,0=<=50K".',
        ),
    ),
    "favorable": (
        str | None,
        typer.Option(
            None,
            "--favorable",
            help="The favourable label, or several joined by commas for star ratings (4,5); "
            "default: non-toxic or positive.",
        ),
    ),
    "decision": (
        str | None,
        typer.Option(
            None,
            "--decision",
            help="Favourable outcome as a threshold rule, for multi-label heads: toxic<0.5, "
            "all(toxic,insult)<0.5 (instead of --favorable).",
        ),
    ),
    "label_names": (
        str | None,
        typer.Option(
            None,
            "--label-names",
            help="The model's class names, comma-separated in the order of its outputs: a "
            "py: model's (needed when it returns labels), or names for classes a model calls "
            "LABEL_0,LABEL_1 or 0,1 (e.g. non-toxic,toxic). Not the true labels "
            "(--label-column).",
        ),
    ),
    # The rows of a table command.
    "sensitive": (
        str,
        typer.Option(..., "--sensitive", help="Sensitive columns, e.g. sex,race,age"),
    ),
    "bins": (
        int,
        typer.Option(10, "--bins", help="Equal-width bins of numeric sensitive columns."),
    ),
    "schema_file": (
        Path | None,
        typer.Option(
            None, "--schema", help="YAML schema: feature kinds and domains the data must respect."
        ),
    ),
    # Identity terms.
    "terms": (
        str,
        typer.Option(
            DEFAULT.terms,
            "--terms",
            help="Built-in list (`textfair terms list`: dixon2018, holistic, names, "
            "names_ethnicity, nationality, ...) or a file; several joined by commas.",
        ),
    ),
    "exclude_flags": (
        list[str],
        typer.Option(
            [],
            "--exclude-flag",
            help="Leave out the terms holding this flag (e.g. dispreferred); repeatable.",
        ),
    ),
    "categories": (
        str | None,
        typer.Option(
            None, "--categories", help="Comma-separated, e.g. gender,race (default: all)."
        ),
    ),
    "min_acceptability": (
        float,
        typer.Option(
            DEFAULT.min_acceptability,
            "--min-acceptability",
            help="Variants whose acceptability score (the calibrated probability that a "
            "strict reader accepts them) is below this are not generated; 0 keeps all.",
        ),
    ),
    "private_names": (
        bool,
        typer.Option(
            DEFAULT.private_names,
            "--private-names",
            help="Every first name in the corpus is a private person's (applicants, "
            "customers): swap them all. Default: only names the text shows to be (my friend "
            "Tyrone, a guy named Tyrone, I'm Emily, Hi Peter).",
        ),
    ),
    # Rule sets and their estimates.
    "theta": (
        float,
        typer.Option(DEFAULT.theta, "--theta", help="Minimum support of a rule set."),
    ),
    "max_order": (
        int,
        typer.Option(
            DEFAULT.max_order,
            "--max-order",
            help="Most rules in a rule set; for the causal tests, most categories in a "
            "category set when the list has more than 5 categories (up to 5, every set).",
        ),
    ),
    "confidence": (
        float,
        typer.Option(DEFAULT.confidence, "--confidence", help="Confidence of every interval."),
    ),
    "error": (
        float,
        typer.Option(
            DEFAULT.error,
            "--error",
            help="Target half-width of intervals, in points (5: five percentage points; a "
            "number below 1 is read as a fraction, 0.05 = 5 points).",
        ),
    ),
    "min_samples": (
        int,
        typer.Option(DEFAULT.min_samples, "--min-samples", help="Per side, at least."),
    ),
    "max_samples": (
        int,
        typer.Option(DEFAULT.max_samples, "--max-samples", help="Per side, at most."),
    ),
    "max_assignments": (
        int,
        typer.Option(
            DEFAULT.max_assignments,
            "--max-assignments",
            help="Rewrites of a seed per category combination at most; past it, a sample "
            "fixed by the seed's text.",
        ),
    ),
    "mode": (
        Mode,
        typer.Option(
            DEFAULT.mode,
            "--mode",
            help="paired: each seed rewritten to every assignment; paper: TestSGD's "
            "independent samples.",
        ),
    ),
    "correction": (
        Correction,
        typer.Option(
            DEFAULT.correction,
            "--correction",
            help="Multiple-testing correction over all rule sets: holm (family-wise), bh "
            "(false discovery rate) or none.",
        ),
    ),
    "top": (int, typer.Option(DEFAULT.top, "--top", min=1, help="Findings shown.")),
    "seed": (
        int,
        typer.Option(DEFAULT.seed, "--seed", help="Every random choice flows from it."),
    ),
    # Reports and the CI gate.
    "out": (
        Path | None,
        typer.Option(None, "--out", help="Directory for report.json, report.md and report.html."),
    ),
    "overwrite": (
        bool,
        typer.Option(False, "--overwrite", help="Replace the output of an earlier run in --out."),
    ),
    "fail_above": (
        str | None,
        typer.Option(
            None,
            "--fail-above",
            help="Exit 1 when a significant finding's difference is above this many points: "
            "one number for all (10), or per category or term (gender=5,race=10, a bare "
            "number for the rest); a number below 1 is read as a fraction (0.05 = 5 points).",
        ),
    ),
    # Running a model.
    "batch_size": (int, typer.Option(64, "--batch-size", min=1, help="Texts per forward pass.")),
    "device": (
        str,
        typer.Option(
            "auto",
            "--device",
            callback=option_checks.check_device,
            help="auto (CUDA when available), cpu, mps, cuda or cuda:N.",
        ),
    ),
    "threads": (
        int | None,
        typer.Option(
            None,
            "--threads",
            min=1,
            callback=option_checks.check_threads,
            help="CPU threads of a torch model (default: the cores this process may use).",
        ),
    ),
    "workers": (
        int | None,
        typer.Option(
            None,
            "--workers",
            min=1,
            help="Processes that read the corpus before the model is asked (default: the "
            "cores this process may use; the report is the same with any number).",
        ),
    ),
    "pairs": (
        Path | None,
        typer.Option(
            None,
            "--pairs",
            help="Write every identity swap that flipped the decision to this file (.csv, .tsv "
            "or .jsonl): the text, its counterfactual, both decisions and probabilities.",
        ),
    ),
    "cache_path": (
        Path | None,
        typer.Option(
            None,
            "--cache",
            help="SQLite file of the model's answers (and a text audit's reading of the "
            "corpus): a rerun after a kill or Ctrl-C asks the model only what it had not "
            "answered, and an audit of any model on the same corpus, lists and settings reads "
            "it again no more (default with --out: DIR.cache.sqlite).",
        ),
    ),
    "trust_remote_code": (
        bool,
        typer.Option(
            False,
            "--trust-remote-code",
            help="Allow an hf: model's own Python code to run (only for a model you trust).",
        ),
    ),
    "revision": (
        str | None,
        typer.Option(None, "--revision", help="Hub branch, tag or commit of an hf: model."),
    ),
    "dtype": (
        str,
        typer.Option(
            "auto",
            "--dtype",
            callback=option_checks.check_dtype,
            help="Precision of an hf: model: auto (half precision on a CUDA device, float32 "
            "elsewhere), float32, float16 or bfloat16.",
        ),
    ),
    "max_length": (
        int | None,
        typer.Option(
            None, "--max-length", min=1, help="Tokens kept per text by an hf: model (truncation)."
        ),
    ),
    # Aequitas's search and the mitigation loops.
    "global_budget": (int, typer.Option(1000, "--global-budget", help="Random inputs tried.")),
    "local_budget": (int, typer.Option(2000, "--local-budget", help="Perturbations tried.")),
    "holdout": (float, typer.Option(0.2, "--holdout", help="Held-out share of --data.")),
    "max_fraction": (
        float,
        typer.Option(
            0.1, "--max-fraction", help="Most augmentation rows, as a share of the training part."
        ),
    ),
    "extend_to": (
        float,
        typer.Option(
            0.5,
            "--extend-to",
            help="testsgd loop: go on past --max-fraction, up to this share of the training "
            "part, until the worst target halves within the accuracy budget (0: stop there).",
        ),
    ),
    "max_accuracy_drop": (
        float,
        typer.Option(
            1.0,
            "--max-accuracy-drop",
            callback=option_checks.accuracy_drop_fraction,
            help="Held-out accuracy the fix may cost, in points (1: one percentage point; a "
            "number below 1 is read as a fraction, 0.01 = 1 point).",
        ),
    ),
    "max_per_text": (int, typer.Option(8, "--max-per-text", help="Counterfactuals per text.")),
    "per_rule_set": (
        int,
        typer.Option(200, "--per-rule-set", help="Texts written per rule set (rule-sets)."),
    ),
    "methods": (
        str | None,
        typer.Option(
            None,
            "--methods",
            help="Compare mitigation methods on one split instead of running one: 'all' or a "
            "comma list (texts: counterfactual, rule-sets, blindness, thresholds, logit-pairing; "
            "tables: "
            "aequitas, reweighing, correlation-remover, exponentiated-gradient, "
            "threshold-optimizer). Writes comparison.json, .md and .html into --out.",
        ),
    ),
    "method": (
        Method,
        typer.Option(
            "counterfactual",
            "--method",
            help="counterfactual (texts and their counterfactuals under the original label) "
            "or rule-sets (TestSGD: texts satisfying a finding, labelled with the denied outcome).",
        ),
    ),
    "max_rounds": (int, typer.Option(7, "--max-rounds", help="Aequitas loop: rounds at most.")),
    "patience": (
        int,
        typer.Option(
            3,
            "--patience",
            help="Aequitas loop: stop after this many rounds without a lower score (paper: 1).",
        ),
    ),
    # Where the corpus-wide stages run.
    "engine": (
        Engine,
        typer.Option(
            "local",
            "--engine",
            help="local (this process) or ray (Ray Data: sharded read, one model per actor, "
            "Parquet shards out; pip install 'textfair\\[ray]').",
        ),
    ),
    "ray_address": (
        str | None,
        typer.Option(
            None,
            "--ray-address",
            help="With --engine ray: the cluster to join (host:port or ray://host:port); "
            "default a local one.",
        ),
    ),
}

# Old names kept, hidden, for one release: using one prints a note naming the new flag.
ALIASES = {"label_column": "--label", "label_names": "--labels"}

# The options of every audit: rule sets, their estimates and the multiple-testing correction.
ESTIMATION = (
    "theta",
    "max_order",
    "confidence",
    "error",
    "min_samples",
    "max_samples",
    "max_assignments",
)
TESTING = ("mode", "correction", "seed")
# What only the group stage reads (rule sets and their sampling): a command that runs only
# the causal tests neither lists nor takes them, nor --fail-above, which gates on groups.
GROUP_ONLY = ("theta", "max_assignments", "mode", "fail_above")
# The corpus of a text command, its identity terms, and how its model runs.
CORPUS = (
    "text_column",
    "label_column",
    "label_map",
    "favorable",
    "decision",
    "terms",
    "exclude_flags",
    "categories",
)
RUNNING = (
    "label_names",
    "trust_remote_code",
    "batch_size",
    "device",
    "threads",
    "revision",
    "max_length",
    "dtype",
)
# What an audit shows and writes, and the CI gate.
REPORTING = ("top", "out", "overwrite", "fail_above", "cache_path")
