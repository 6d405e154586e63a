"""How many seeds (rows for tables) a finding needs before the views cite it unflagged.

One number that the report's data (`AuditReport.small`, `AuditReport.holds_on`) and its
sentences (`textfair.report._prose`) both read, kept apart so that neither imports the other.
"""

__all__ = ["SMALL_SAMPLE"]

# Below this many seeds (rows for tables) on the rule set's side, a finding is flagged: its
# interval is wide and its point estimate moves with every seed (an interval from 20 seeds of
# a 10-point difference spans about ±20 points).
SMALL_SAMPLE = 30
