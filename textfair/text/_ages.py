"""The ages of age terms and the ages a text states: what a swap of an age term must agree with.

A swap of an age term ("young" -> "elderly") says something about a person's age; the rest
of the text may say it too. Here: the ages in years a life-stage term describes
(`age_range`), the life stages a text states elsewhere ("the kids", "teens", "a
16-year-old", "retired", "grandchildren", "in high school": `life_stages`), whether a
target fits them (`fits_life_stages`: only where the mentioned term fits the stage too, as
the cue may describe the same people), and the nouns that carry an age of their own
("girl", "geezer": `head_noun`, `STATED_AGE`). Apart from the coherence plan, which asks
these of a text, and from `textfair.text._references`, whose rules are about persons.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from textfair.terms import Term
from textfair.text import _context as context

if TYPE_CHECKING:
    from textfair.text.mentions import Mention

__all__ = [
    "ADULT_NOUNS",
    "AGED_LOOKS",
    "AGED_NOUNS",
    "CHILD_NOUNS",
    "HEAD_STAGES",
    "STATED_AGE",
    "age_range",
    "before_child",
    "fits_life_stages",
    "head_noun",
    "in_age_argument",
    "life_stages",
    "young_beside",
]


_OLDEST = 120
_NUMBERS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen".split()
    )
} | {
    w: 10 * k
    for k, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)
}
_DECADES = {
    w + "ies": 10 * k
    for k, w in enumerate("twent thirt fort fift sixt sevent eight ninet".split(), 2)
}
_NUMBER = (
    r"(?:\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[\s-]+\w+)?"
    r"|\w+teen|ten|eleven|twelve|one|two|three|four|five|six|seven|eight|nine)"
)
# Fixed life-stage words of the age terms (their ages in years, inclusive).
_STAGES: dict[str, tuple[int, int]] = {
    "adolescent": (12, 19),
    "teen": (13, 19),
    "teenage": (13, 19),
    "teenaged": (13, 19),
    "teenager": (13, 19),
    "young": (0, 39),
    "middle aged": (38, 65),
    "old": (55, _OLDEST),
    "elderly": (60, _OLDEST),
    "senior": (60, _OLDEST),
    "senior citizen": (60, _OLDEST),
    "geriatric": (60, _OLDEST),
    "retired": (50, _OLDEST),
    "spry": (55, _OLDEST),
    "young at heart": (50, _OLDEST),
    "octogenarian": (80, 89),
    "nonagenarian": (90, 99),
    "centenarian": (100, _OLDEST),
    "adult": (18, _OLDEST),
    "mature": (25, _OLDEST),
}
# Words elsewhere in a text that state a life stage, with its ages, and words one of which
# every match holds (lowercased; `_may_hold`): most texts hold none, and are not scanned.
_CUES: tuple[tuple[re.Pattern[str], tuple[int, int], tuple[str, ...]], ...] = tuple(
    (
        re.compile(r"(?<![\w\-])(?:" + pattern + r")(?![\w\-])", re.IGNORECASE),
        ages,
        tuple(keys.split()),
    )
    for pattern, ages, keys in (
        (
            r"toddlers?|infants?|kindergarten|grade school|elementary school|primary school",
            (0, 10),
            "toddler infant kindergarten school",
        ),
        (r"kids?|child|children|schoolboys?|schoolgirls?", (0, 17), "kid child school"),
        (
            r"teens?|teenagers?|adolescents?|high[\s-]?school(?:ers?)?",
            (12, 19),
            "teen adolescent high",
        ),
        (
            r"students?|undergrad(?:uate)?s?|freshm[ae]n|campus|college kids?",
            (15, 30),
            "student undergrad freshm campus college",
        ),
        (
            r"retired|retiree|retirees|retirement|pensioners?|grandchild|grandchildren|grandkids"
            r"|grandsons?|granddaughters?|grandpa|grandma|granny|nursing home"
            r"|old people's home|old folks' home",
            (45, _OLDEST),
            "retire pensioner grand granny home",
        ),
        # Childbearing years (issue 56: "her possible pregnancy ... a strong, middle aged
        # woman" -> "60-year-old", read IN_TEXT). Written by the textfair authors, with the
        # span of natural pregnancy; a term that fits it (middle-aged) keeps its range.
        (r"pregnan(?:t|cy|cies)|expecting a baby", (12, 50), "pregnan expecting"),
    )
)
_STATED = re.compile(
    r"(?<![\w\-])(?P<n>" + _NUMBER + r")[\s-]*(?:years?|yrs?)\.?[\s-]*olds?(?![\w])"
    r"|(?<![\w\-])(?:aged|age of|ages of)\s+(?P<m>\d{1,3})(?![\w])"
    r"|(?<![\w\-])in\s+(?:his|her|their)\s+(?:early\s+|late\s+|mid-?\s*)?"
    r"(?:(?P<d>[1-9]0)['’]?s|(?P<w>twenties|thirties|forties|fifties|sixties|seventies"
    r"|eighties|nineties))(?![\w])",
    re.IGNORECASE,
)
# Every match of `_STATED` holds one of these: "year" or "yr" (a stated age), "aged", "age
# of" or "ages of", a decade in digits ("80s", "1960s") or in words ("eighties").
_STATED_KEYS = ("year", "yr", "aged", "age of", "ages of", "0", "ties")


def _may_hold(lower: str, keys: Sequence[str]) -> bool:
    """Whether a text, lowercased as `context.lower_exactly` gives it, may hold a match of
    a pattern every match of which holds one of `keys`."""
    return any(key in lower for key in keys)


@cache
def _lowercase(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`pattern` without ignoring case, for a text lowercased (`context.lower_exactly`): the
    same matches at the same offsets, and faster (the matcher's trick)."""
    return re.compile(pattern.pattern, pattern.flags & ~re.IGNORECASE)


# Made at import, not when the first text asks (inside a benchmark's timing).
for _pattern in (_STATED, *(cue[0] for cue in _CUES)):
    _lowercase(_pattern)


def _number(word: str) -> int | None:
    word = word.lower().replace("-", " ")
    if word.isdigit():
        return int(word)
    total = 0
    for part in word.split():
        if part not in _NUMBERS:
            return None
        total += _NUMBERS[part]
    return total


def age_range(term: Term) -> tuple[int, int] | None:
    """The ages in years a life-stage term can describe ("teenage": 13 to 19, "forty year
    old": 40, "thirty something": 30 to 39); None for a comparative or a generation
    ("older", "millennial"), which states no life stage."""
    name = term.id.replace("-", " ")
    if name in _STAGES:
        return _STAGES[name]
    stated = re.fullmatch(r"(.+?) (year old|something)", name)
    if stated:
        number = _number(stated.group(1))
        if number is not None:
            return (number, number) if stated.group(2) == "year old" else (number, number + 9)
    return None


def life_stages(text: str, skip: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The life stages `text` states outside the spans `skip` (the mentions being
    rewritten), as age ranges: "the kids" (0-12), "teens" (12-19), "a 16-year-old" (16),
    "in her 80s" (80-89), "retired", "grandchildren" (45 and over)."""

    def outside(match: re.Match[str]) -> bool:
        return not any(s < match.end() and match.start() < e for s, e in skip)

    lower = context.lower_exactly(text)

    def scan(pattern: re.Pattern[str], keys: Sequence[str]) -> Iterable[re.Match[str]]:
        if lower is None:
            return pattern.finditer(text)
        return _lowercase(pattern).finditer(lower) if _may_hold(lower, keys) else ()

    stages = [ages for pattern, ages, keys in _CUES for m in scan(pattern, keys) if outside(m)]
    for match in scan(_STATED, _STATED_KEYS):
        if not outside(match):
            continue
        if match.group("d") or match.group("w"):
            decade = int(match.group("d") or _DECADES[match.group("w").lower()])
            stages.append((decade, decade + 9))
            continue
        number = _number(match.group("n") or match.group("m"))
        if number is not None and number <= _OLDEST:
            stages.append((number, number))
    return stages


def fits_life_stages(
    target: tuple[int, int] | None,
    sources: Sequence[tuple[int, int] | None],
    stages: Sequence[tuple[int, int]],
) -> bool:
    """Whether a target of ages `target` fits every stated life stage that the mentioned
    terms (`sources`) fit too. A stage no source fits describes other people (the text
    already sets them apart: "an old man ... the kids"), and constrains nothing."""
    if target is None:
        return True
    for low, high in stages:
        source_fits = any(s is not None and s[0] <= high and low <= s[1] for s in sources)
        if source_fits and not (target[0] <= high and low <= target[1]):
            return False
    return True


# Nouns for children: an adult age before one reads wrong ("elderly child", "old girls").
CHILD_NOUNS = frozenset(
    """
    child children kid kids baby babies boy boys girl girls son sons daughter daughters
    toddler toddlers infant infants schoolboy schoolboys schoolgirl schoolgirls youngster
    youngsters teen teens teenager teenagers kiddo kiddos lad lads lass lasses tot tots
    newborn newborns grandson grandsons granddaughter granddaughters lassie lassies laddie
    laddies bairn bairns
    """.split()
)


# Nouns that carry an age of their own: any other age contradicts them ("young geezer").
AGED_NOUNS = frozenset(
    """
    geezer geezers codger codgers oldster oldsters crone crones retiree retirees pensioner
    pensioners granny grannies grandpa grandpas grandma grandmas grandfather grandfathers
    grandmother grandmothers grandparent grandparents
    """.split()
)
# Nouns for adults only, by role or station: no minor's age is written before one ("a
# teenage ambitious cop", "a teenage Irish mob boss", "her teenage husband"; issue 56).
ADULT_NOUNS = frozenset(
    """
    cop cops policeman policemen policewoman policewomen detective detectives sheriff
    sheriffs boss bosses husband husbands wife wives widow widows widower widowers
    """.split()
)
# The ages a noun itself says: a mention modifying one describes that person.
HEAD_STAGES = ((CHILD_NOUNS, (0, 25)), (AGED_NOUNS, (55, 120)), (ADULT_NOUNS, (20, 120)))
# A stated age ("at the age of 76", "a 79-year-old", "aged 12", "in his 80s"): a life-stage
# term rewritten beside one contradicts it.
STATED_AGE = re.compile(
    r"\b(?:ages?|aged)\s+(?:of\s+)?\d{1,3}\b|\b\d{1,3}[\s-]*(?:years?|yrs?)\.?[\s-]*old\b"
    r"|\bin\s+(?:his|her|their)\s+(?:early\s+|late\s+|mid-?)?"
    r"(?:\d0s|teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b",
    re.IGNORECASE,
)


def head_noun(text: str, mention: Mention) -> str | None:
    """The noun an adjective mention modifies, within the next three words, lowercased."""
    if mention.form != "adjective":
        return None
    for token in context.tokens_after(text, mention.end, count=3):
        word = context.normalize_token(token)
        if word in CHILD_NOUNS or word in AGED_NOUNS or word in ADULT_NOUNS:
            return word  # an age noun ("boss") need not be in the person nouns' list
        if context.is_person_noun(word):
            return word
        if not context.is_word(token) and token not in ",-":
            return None
    return None


def before_child(text: str, mention: Mention) -> bool:
    """The mention modifies a child noun ("young girls")."""
    return head_noun(text, mention) in CHILD_NOUNS


# Looks of later life: hair that has turned grey or white (HolisticBias's body-type terms).
AGED_LOOKS = frozenset(
    (
        "white haired",
        "gray haired",
        "grey haired",
        "silver haired",
        "graying",
        "greying",
        "salt and pepper haired",
    )
)
_YOUNG_WORDS = frozenset("young younger teenage teen youthful adolescent juvenile".split())


def young_beside(text: str, mention: Mention) -> bool:
    """A young age or a child noun in the mention's noun phrase ("a beautiful unmarried
    young woman", "her pretty little girl"): no look of later life is written there ("a
    white-haired unmarried young woman", issue 56)."""
    if mention.form != "adjective":
        return False
    for token in context.tokens_after(text, mention.end, count=3):
        word = context.normalize_token(token)
        if word in _YOUNG_WORDS or word in CHILD_NOUNS:
            return True
        if not context.is_word(token) or context.is_person_noun(word):
            return False
    before = context.tokens_before(text, mention.start, count=2)
    return any(context.normalize_token(t) in _YOUNG_WORDS for t in before)


# An age the text argues from: the writer's own in a concession or a time ("Even though I'm
# quite young, the Beatles are my favourite band", "Now I am older I watch ..."), or a degree
# that sets a measure ("she seems young enough to be his daughter"). Another age reverses
# the argument, as in a comparison ("older than"): the mention is a fixed form (issue 56).
_ARGUED_FROM = re.compile(
    r"\b(?:even[ \t]+though|although|though|now(?:[ \t]+that)?|since)[ \t]+"
    r"I(?:['’]m|[ \t]+am|[ \t]+was)[ \t]+(?:\w+[ \t]+)?$",
    re.IGNORECASE,
)
_ENOUGH_TO = re.compile(r"[ \t]+enough[ \t]+to\b", re.IGNORECASE)


# An institution for an age ("a home for elderly people", a nursing home): another age
# names no such place.
_HOME_FOR = re.compile(r"\bhomes?[ \t]+for[ \t]+(?:the[ \t]+)?$", re.IGNORECASE)


def in_age_argument(text: str, mention: Mention) -> bool:
    """Whether the age `mention` is one the text argues from (see `_ARGUED_FROM`), or names
    an institution for that age (`_HOME_FOR`)."""
    if _ENOUGH_TO.match(text, mention.end):
        return True
    if _HOME_FOR.search(text, max(0, mention.start - 20), mention.start):
        return True
    return _ARGUED_FROM.search(text, max(0, mention.start - 40), mention.start) is not None
