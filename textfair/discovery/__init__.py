"""Discovery: which groups a model treats differently. Nothing here knows text from rows."""

from textfair.discovery.rulesets import Domain, FrequentRuleSets, Rule, frequent_rule_sets

__all__ = ["Domain", "FrequentRuleSets", "Rule", "frequent_rule_sets"]
