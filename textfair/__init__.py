"""textfair: test text classifiers for discrimination against identity groups.

The public API is re-exported here; everything else is an implementation detail.
"""

from textfair._version import __version__
from textfair.errors import TextfairError
from textfair.models import as_model
from textfair.models.spec import load_model
from textfair.run import Run
from textfair.terms import (
    GenderPairs,
    Term,
    TermList,
    builtin_term_lists,
    load_gender_pairs,
    load_term_list,
)
from textfair.text.gender import GenderSwapper, gender_swap
from textfair.text.generate import (
    Swap,
    Variant,
    counterfactuals,
    rule_satisfying,
    sample_rule_satisfying,
    swap_term,
)
from textfair.text.matcher import Matcher, Mention, find_mentions
from textfair.text.rewrite import Edit, Rewrite, rewrite
from textfair.text.templates import TEMPLATES, Template, expand_template, expand_templates

# The audit pulls in scipy and pandas (a second to import): loaded on first use, so that
# `import textfair` and `textfair --help` stay fast.
_LAZY = {
    "audit": "textfair.api",
    "audit_table": "textfair.api",
    "compare_mitigations": "textfair.api",
    "AuditReport": "textfair.report.model",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'textfair' has no attribute {name!r}")


__all__ = [
    "TEMPLATES",
    "AuditReport",
    "Edit",
    "GenderPairs",
    "GenderSwapper",
    "Matcher",
    "Mention",
    "Rewrite",
    "Run",
    "Swap",
    "Template",
    "Term",
    "TermList",
    "TextfairError",
    "Variant",
    "__version__",
    "as_model",
    "audit",
    "audit_table",
    "builtin_term_lists",
    "compare_mitigations",
    "counterfactuals",
    "expand_template",
    "expand_templates",
    "find_mentions",
    "gender_swap",
    "load_gender_pairs",
    "load_model",
    "load_term_list",
    "rewrite",
    "rule_satisfying",
    "sample_rule_satisfying",
    "swap_term",
]
