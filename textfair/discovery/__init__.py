"""Discovery: which groups a model treats differently. Nothing here knows text from rows.

The rules, rule sets and the Domain protocol it works on are in `textfair.core`."""

from textfair.discovery._rulesets import MIN_SEEDS, FrequentRuleSets, frequent_rule_sets
from textfair.discovery._sampling import Sampling, seed_order

__all__ = ["MIN_SEEDS", "FrequentRuleSets", "Sampling", "frequent_rule_sets", "seed_order"]
