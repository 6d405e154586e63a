"""The audit layer: discovery, the label metrics and the report, over text or table rows.

`text.audit_text` audits a text classifier on a corpus, `rows.audit_rows` a classifier of
table rows; both run `report.audit_domain`, which builds the report over any domain. The
label metrics are in `labels` (texts) and `rows` (table metrics), the favourable outcome a
model is audited for in `decision`. (Not named `audit`: importing `textfair.audit.x` would
replace the public function `textfair.audit` with this package.)
"""
