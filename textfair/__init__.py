"""textfair: test text classifiers for discrimination against identity groups.

The public API is what this module exports (``__all__``, grouped below as the documentation's
API reference groups it); the submodules are implementation details that may change between
releases. Importing textfair loads neither pandas, scipy nor torch: the functions import
what they need when called, so ``import textfair`` and ``textfair --help`` stay fast.
"""

from textfair._version import __version__
from textfair.api import audit, audit_table, compare_mitigations
from textfair.core.rules import Rule, RuleSet
from textfair.corpus import Corpus, load_corpus
from textfair.discovery.acceptable import Strict
from textfair.discovery.findings import GroupFinding
from textfair.discovery.keptpairs import PairsLeftOut
from textfair.discovery.results import CausalScore, Excess, FlippedPair, GroupScore, PairShift
from textfair.errors import TextfairError
from textfair.mitigate.comparison import Comparison
from textfair.mitigate.method_outcome import MethodOutcome
from textfair.mitigate.retrain import holdout_split
from textfair.models import as_model
from textfair.models.base import Model
from textfair.models.baselines import logistic_regression, tabular_encoder
from textfair.models.hf import HFModel
from textfair.models.rows import RowModel
from textfair.models.spec import load_model
from textfair.models.tabular_mlp import TabularMLP
from textfair.models.text_training import train_text_classifier
from textfair.models.torch_text import TorchTextModel
from textfair.report.gate import Gate
from textfair.report.model import AuditReport, CategoryCoverage
from textfair.report.parts import Counterfactual, ModelInfo, RunStats, TableMetrics
from textfair.report.versions import CausalChange, FindingChange, VersionComparison, compare
from textfair.settings import AuditConfig
from textfair.stats.label_metrics import AucGap, BiasMetrics, SubgroupMetrics
from textfair.stats.metrics import GroupMetrics
from textfair.tabular.schema import Feature, Schema, infer_schema
from textfair.terms import (
    GenderPairs,
    Term,
    TermList,
    builtin_term_lists,
    load_gender_pairs,
    load_term_list,
)
from textfair.terms.lists import GenderPair
from textfair.text.gender import GenderSwapper, gender_swap
from textfair.text.generate import counterfactuals, swap_term
from textfair.text.matcher import Matcher, find_mentions
from textfair.text.mentions import Mention
from textfair.text.rewrite import Edit, Rewrite, rewrite
from textfair.text.rule_satisfying import rule_satisfying, sample_rule_satisfying
from textfair.text.templates import TEMPLATES, Template, expand_template, expand_templates
from textfair.text.variants import Swap, Variant

# One list literal, grouped (as the API reference groups it), so type checkers read it.
__all__ = [  # noqa: RUF022 (grouped, not sorted)
    # Auditing a model
    "AuditReport",
    "Corpus",
    "Gate",
    "audit",
    "audit_table",
    "compare",
    "compare_mitigations",
    "load_corpus",
    "AuditConfig",
    # What a report holds (its findings, scores, metrics, run) and what a comparison holds
    "AucGap",
    "BiasMetrics",
    "CausalChange",
    "CausalScore",
    "Comparison",
    "Counterfactual",
    "Excess",
    "FindingChange",
    "FlippedPair",
    "GroupFinding",
    "GroupMetrics",
    "GroupScore",
    "MethodOutcome",
    "ModelInfo",
    "PairShift",
    "PairsLeftOut",
    "Rule",
    "RuleSet",
    "RunStats",
    "CategoryCoverage",
    "Strict",
    "SubgroupMetrics",
    "TableMetrics",
    "VersionComparison",
    # Models: load, wrap, train
    "Feature",
    "HFModel",
    "Model",
    "RowModel",
    "Schema",
    "TabularMLP",
    "TorchTextModel",
    "as_model",
    "holdout_split",
    "infer_schema",
    "load_model",
    "logistic_regression",
    "tabular_encoder",
    "train_text_classifier",
    # Identity term lists
    "GenderPair",
    "GenderPairs",
    "Term",
    "TermList",
    "builtin_term_lists",
    "load_gender_pairs",
    "load_term_list",
    # Generating texts: counterfactuals, rule sets, templates
    "TEMPLATES",
    "Edit",
    "GenderSwapper",
    "Matcher",
    "Mention",
    "Rewrite",
    "Swap",
    "Template",
    "Variant",
    "counterfactuals",
    "expand_template",
    "expand_templates",
    "find_mentions",
    "gender_swap",
    "rewrite",
    "rule_satisfying",
    "sample_rule_satisfying",
    "swap_term",
    # Errors and the version
    "TextfairError",
    "__version__",
]
