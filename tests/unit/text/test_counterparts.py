"""Which masculine word "her" becomes: "his" where it determines a noun, "him" otherwise."""

from __future__ import annotations

import pytest

from textfair.text._counterparts import gender_counterparts


def _her(text: str) -> str:
    return gender_counterparts().counterpart("her", text, text.index("her ") + 3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # After a causative verb "her" is the object of the verb that follows ...
        ("Don't make her stand up.", "him"),
        ("They let her go home.", "him"),
        # ... but determines a noun that no verb is spelt like (a tweet read in issue 56).
        ("They make her life hell.", "his"),
        ("It made her day.", "his"),
        ("Please help her family.", "his"),
        # "half" as an adverb of degree follows an object ...
        ("He beat her half to death.", "him"),
        ("It scared her half out of her wits.", "him"),
        # ... a share of something, or a half-sibling, is a noun "her" determines.
        ("She kept her half of the bed.", "his"),
        ("He met her half brother.", "his"),
    ],
)
def test_her_after_a_causative_verb_and_before_half(text: str, expected: str) -> None:
    assert _her(text) == expected
