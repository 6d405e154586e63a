"""The identity term lists and word lists textfair ships, installed as `textfair.term_lists`.

Data, not code: read with importlib.resources (see textfair.terms). A package of its own so
that both a wheel and an editable install map this top-level folder into textfair.
"""
