"""Discovery: which groups a model treats differently. Nothing here knows text from rows."""

from textfair.discovery.rulesets import Domain, FrequentRuleSets, Rule, frequent_rule_sets
from textfair.discovery.sampling import Sampling, seed_order

__all__ = ["Domain", "FrequentRuleSets", "Rule", "Sampling", "frequent_rule_sets", "seed_order"]
