"""Choose "a" or "an" by how the next word sounds, not how it is spelled.

CheckList and most template tools pick the article by the first letter, which writes
"an European" and "a LGBT group". English picks it by the first sound: "a European",
"a unicorn", "an hour", "an LGBT group" (initialisms are read letter by letter).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

__all__ = ["indefinite_article"]

# Vowel letters read with a consonant sound ("a European", "a unicorn", "a one-off").
_CONSONANT_SOUND_PREFIXES = (
    "eu",
    "ewe",
    "uni",
    "use",
    "usu",
    "uti",
    "ure",
    "uri",
    "ubi",
    "uku",
    "uga",
    "ukr",
    "one",
    "once",
    "ouija",
)
# "un-" words whose "uni" is not the /juː/ of "unicorn" ("an uninformed reader").
_VOWEL_SOUND_UNI = ("unin", "unim", "unid", "unil", "unis")
# Consonant letters read with a vowel sound: a silent h.
_VOWEL_SOUND_PREFIXES = ("hour", "honest", "honor", "honour", "heir")
# Letters whose names start with a vowel sound, for initialisms ("an LGBT", "a UN").
_VOWEL_SOUND_LETTERS = set("AEFHILMNORSX")
# All-capital words that are said as words, not letter by letter.
_ACRONYMS_SAID_AS_WORDS = {"NASA", "NATO", "UNESCO", "UNICEF", "AIDS", "OPEC", "SWAT"}
_FIRST_WORD = re.compile(r"[A-Za-z0-9]+")


@lru_cache(maxsize=4096)  # an audit asks for the same few targets' articles thousands of times
def indefinite_article(phrase: str) -> Literal["a", "an"]:
    """Return "a" or "an" for the phrase that follows the article (lowercase)."""
    match = _FIRST_WORD.search(phrase)
    if not match:
        return "a"
    word = match.group()
    if word[0].isdigit():
        # 8, 11, 18, 80, 800: "an eight", "an eleven", "an eighteen".
        return "an" if word[0] == "8" or (len(word) in (2, 5) and word[:2] in ("11", "18")) else "a"
    if len(word) >= 2 and word.isupper() and word not in _ACRONYMS_SAID_AS_WORDS:
        return "an" if word[0] in _VOWEL_SOUND_LETTERS else "a"
    lower = word.lower()
    if lower.startswith(_VOWEL_SOUND_PREFIXES) or lower.startswith(_VOWEL_SOUND_UNI):
        return "an"
    if lower.startswith(_CONSONANT_SOUND_PREFIXES):
        return "a"
    return "an" if lower[0] in "aeiou" else "a"
