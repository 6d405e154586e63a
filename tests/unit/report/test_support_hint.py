"""The note that names a category without a rule set says what would give it one: the
--theta at which its term of largest support becomes a rule set, or why no --theta can."""

import re

import pytest

import textfair

FILLERS = ("posted the notes", "asked a question", "fixed the typo", "read the page")


def _race_note(report):
    return next(n for n in report.reading_notes() if n.startswith("No rule set for race"))


@pytest.mark.slow  # two whole audits: 5 s
def test_the_hint_names_the_theta_that_gives_race_a_rule_set_and_it_does():
    """Issue 41: at --theta 0.05 and at 0.01 the bundled comments give race no rule set, and
    the hint said "lower it" both times. It names the --theta that works (14 of 1,492 texts
    can be written to its most frequent terms: 0.0093), the same at both, and that works.
    (Every variant, as before the acceptability threshold: the counts pinned are the hint's.)"""
    settings = {"categories": ["race", "religion"], "causal": False, "min_acceptability": 0}
    notes = {
        theta: _race_note(textfair.audit("toxicity-cnn-lstm", theta=theta, **settings))
        for theta in (0.05, 0.01)
    }
    for theta, note in notes.items():
        assert note.startswith("No rule set for race (64 of 1,492 texts mention it)")
        assert f"support --theta {theta} " in note
        assert "at most 14 texts (support 0.00938): --theta 0.0093 or below" in note
    theta = float(re.search(r"--theta ([0-9.]+) or below", notes[0.01]).group(1))
    lowered = textfair.audit("toxicity-cnn-lstm", theta=theta, **settings)
    assert any(r.category == "race" for f in lowered.findings for r in f.rule_set)
    assert not any(n.startswith("No rule set for race") for n in lowered.reading_notes())


def test_the_hint_says_when_lowering_theta_cannot_help_and_why():
    """Texts that name two races ("Black and white people") cannot be rewritten to one
    without merging two groups: no --theta gives race a rule set, and the note says so."""
    texts = [f"Black and white people {f}." for f in FILLERS] + [
        f"A Muslim editor {f} on day {day}." for f in FILLERS for day in range(5)
    ]
    report = textfair.audit(
        "toxicity-cnn-lstm", texts, categories=["race", "religion"], causal=False
    )
    note = _race_note(report)
    assert "lowering --theta cannot help" in note and "(4 name two of its terms)" in note
    assert "or below" not in note
    lowest = textfair.audit(
        "toxicity-cnn-lstm", texts, categories=["race", "religion"], causal=False, theta=0.001
    )
    assert not any(r.category == "race" for f in lowest.findings for r in f.rule_set)
