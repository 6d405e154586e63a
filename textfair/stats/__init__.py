"""The statistics core: pure functions over counts and arrays; no model, no text."""

from textfair.stats.estimate import (
    VACUOUS_SHARE,
    BoundedMean,
    Difference,
    Proportion,
    StoppingDecision,
    bounded_mean,
    difference,
    informative,
    proportion,
    should_stop,
    t_p_value,
    t_value,
    testsgd_margin,
    z_value,
)
from textfair.stats.testing import (
    Adjusted,
    adjust,
    benjamini_hochberg,
    holm,
    two_proportion_p_value,
)

__all__ = [
    "VACUOUS_SHARE",
    "Adjusted",
    "BoundedMean",
    "Difference",
    "Proportion",
    "StoppingDecision",
    "adjust",
    "benjamini_hochberg",
    "bounded_mean",
    "difference",
    "holm",
    "informative",
    "proportion",
    "should_stop",
    "t_p_value",
    "t_value",
    "testsgd_margin",
    "two_proportion_p_value",
    "z_value",
]
