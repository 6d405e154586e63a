"""Mitigation reads its corpus once (issue 58): the loop's two halves are the whole
corpus's reading in part, and the next method of `--methods all` finds it read."""

import numpy as np

from textfair.mitigate._strategies import TextStrategy
from textfair.settings import AuditConfig
from textfair.text.domain import TextDomain
from textfair.text.reading_store import forget_readings

from conftest import bundled_comments


def _strategy(texts, labels, config) -> TextStrategy:
    return TextStrategy(
        texts=texts,
        labels=labels,
        favorable="non-toxic",
        audit_config=config,
        method="counterfactual",
        train=np.arange(300),
        held=np.arange(300, len(texts)),
        retrainer=None,  # type: ignore[arg-type]  # nothing is retrained here
        options={"seed": 0},
    )


def test_mitigation_reads_its_corpus_once():
    forget_readings()
    texts, labels = (part[:400] for part in bundled_comments())
    config = AuditConfig(categories=["gender"]).checked()
    first = _strategy(texts, labels, config)
    assert first.domain.reading_source == ""
    assert first.selection_domain.reading_source == "this process"
    assert first.report_domain.reading_source == "this process"
    assert _strategy(texts, labels, config).domain.reading_source == "this process"
    # Each half's reading is the one reading the half alone gives.
    for half in (first.selection_domain, first.report_domain):
        fresh = TextDomain(half.texts, config.term_list(), ["gender"], config.min_acceptability)
        assert half.reading.mentions == fresh.reading.mentions
        assert half.reading.plans == fresh.reading.plans
        assert half.reading.scores.keys() == fresh.reading.scores.keys()
        for key, values in fresh.reading.scores.items():
            np.testing.assert_array_equal(half.reading.scores[key], values)
        assert half.recall() == fresh.recall()
    forget_readings()
