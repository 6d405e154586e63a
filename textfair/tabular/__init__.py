"""Tabular data on the same discovery core: schema, binning and TabularDomain."""
