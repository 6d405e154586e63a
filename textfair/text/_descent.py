"""A religion's term said of a people by descent (issue 56, IN_TEXT).

"Jewish" names a faith and a people: where a text speaks of descent ("shared Iranian genes
among Jews and Kurds", "a common surname among Jews", "she replied: only ethnic", "a name
sounds Jewish", "having a Jewish mother"), it names the people, and no faith takes its
place ("genes among atheists" reads wrong). The other religion terms of the lists name a
faith only, so only the terms of the one ethnoreligious people among them are read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from textfair.text import _context as context
from textfair.text.mentions import Mention

__all__ = ["by_descent"]

# The terms of a people by descent as well as a faith (dixon2018's and holistic's "Jewish"
# and the two Jewish ethnic divisions holistic names; not its denominations, "Reform
# Jewish", which name a practice of the faith).
_PEOPLES = frozenset({"jewish", "ashkenazi jewish", "sephardic jewish"})

# Words of descent: of the family line, genes and ethnicity (not "heritage" or "mother",
# which readers accepted beside a new faith: "my Sikh heritage").
_DESCENT = re.compile(
    r"\b(?:ethnic(?:ally|ity|ities)?|genes?|genetic(?:s|ally)?|DNA|(?:sur)?names?|descent"
    r"|ancestry|matrilineal(?:ly)?)\b",
    re.IGNORECASE,
)
# A parent said to be of the people ("having a Jewish mother"): descent, by the mention's noun.
_PARENT = re.compile(
    r"[ \t]+(?:mother|father|parents?|grandmother|grandfather|grandparents?|ancestors?)\b",
    re.IGNORECASE,
)


def by_descent(text: str, mentions: Iterable[Mention]) -> bool:
    """Whether `text` speaks of descent in a sentence holding a mention of a people's term
    (a text that speaks of genes elsewhere may still speak of the faith here). Each sentence
    is searched once: a text without sentence breaks that repeats the term hundreds of times
    is one 5,000-character sentence, and a search per mention made its reading quadratic."""
    searched: set[tuple[int, int]] = set()
    for mention in mentions:
        if mention.term.id not in _PEOPLES:
            continue
        if _PARENT.match(text, mention.end):
            return True
        sentence = context.sentence_of(text, mention.start)
        if sentence in searched:
            continue
        searched.add(sentence)
        if _DESCENT.search(text, *sentence):
            return True
    return False
