"""Other references to the person a swap rewrites: names, titles, gendered identity words and
hashtags elsewhere in the text.

A swap of a pronoun, a first name or an age says something about a person; every other word
of the text that refers to the same person must say the same, or the variant contradicts
itself ("Joyce ... he", "Brittany Depp ... Mr. Depp", "five old people" later "the kids").
Which word refers to whom is not known here, so the rules keep to what is safe whatever
the reference:

* a **full name** (a first name with a surname, an initial, an epithet or a title:
  "John Banner", "Michael S. Margolin", "Richard the Lionheart", "Reverend Billy", "Mr.
  Depp") names a person the text treats as real: renaming them, or changing the gender of
  the words that may refer to them, makes the text false about that person;
* a **first name alone** is flipped with a pronoun swap ("Emily said she" -> "Michael said
  he"), so every gendered reference changes together, whoever it refers to;
* a **gendered identity word** that a gender swap cannot carry ("female", "Latina",
  "lesbian": identity terms, not pair words) keeps the seed out of a pronoun or name swap;
* a **hashtag** naming the identity ("#AmericaFirst") would keep naming the old one.

The ages a text states are `textfair.text._ages`'s; what a nationality stands for (a people in
general, one person, a country's public affairs, a culture) is `textfair.text._nationality`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from textfair.terms import Term, load_term_list
from textfair.text import _context as context

if TYPE_CHECKING:
    from textfair.text.mentions import Mention

__all__ = [
    "NONBINARY_TERMS",
    "THE_WRITER",
    "WORK_WORDS",
    "about_a_work",
    "any_word",
    "full_name_at",
    "full_name_of",
    "gendered_identity_words",
    "hashtag_names",
    "name_group",
    "named_elsewhere",
    "named_people",
    "shown_private",
    "the_writers_own",
    "unknown_first_names",
]

# Titles before a name: a titled name ("Mr. Depp", "Reverend Billy") is someone the text
# treats as real (or as a character of a real work), with a fixed gender.
TITLES = frozenset(
    """
    mr mrs ms miss mister madam sir dame lord lady dr doctor prof professor rev reverend fr
    father sister brother saint st officer detective sergeant sgt captain capt president
    senator judge governor king queen prince princess uncle aunt auntie count countess
    """.split()
)
# Capitalised words that follow a first name and are no surname ("Will He", "Grace And").
_NOT_SURNAMES = frozenset(
    "i he she it we they you his her him the a an and or but of in on at to for with".split()
)
# Capitalised words of the first-name lexicon that texts use far more often for a month, a
# day, a holiday, a religious figure, a place or a faith than for a person (the names list
# leaves them out for the same reason: term_lists/build_lists.py).
_CALENDAR = frozenset(
    """
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday christmas easter jesus christ
    god lord allah buddha krishna moses muhammad mohammed mohammad israel jordan nazareth
    jerusalem eden genesis santa paris london sydney virginia georgia carolina dakota
    christian little messiah angel love story true blue boy son king prince summer
    africa america britain england france germany ireland iran iraq italy spain russia
    china japan india canada mexico
    """.split()
)
#: The words above, for the other gates (`_name_gates`): no person's name in a run.
NOT_NAMES = _CALENDAR
# A place, not a person, after these ("of Nazareth", "in Jordan").
_PLACE_BEFORE = frozenset("of in from to at near".split())

# Identity terms on a gender-identity axis that name no binary gender: "he" or "she"
# beside one reads wrong ("a nonbinary person ... him").
NONBINARY_TERMS = frozenset(
    """
    nonbinary non-binary non_binary agender androgyne bigender demigender enby genderfluid
    genderless genderqueer neutrois
    """.split()
) | {"gender neutral", "gender non conforming", "non binary", "third gender", "two spirit"}

# A surname may open on a particle ("Lars von Trier", "Vincent van Gogh", "Osama bin Laden").
_PARTICLE = r"(?:von|van|der|den|de|da|di|del|della|du|la|le|bin|ibn|al|el|ben|ter)[ \t]+"
_SURNAME = re.compile(
    r"[ \t]+(?:[A-Z]\.[ \t]*)?(?:" + _PARTICLE + r")?(?:[A-Z][\w'’]*|the[ \t]+[A-Z]\w+)|-[A-Z]"
)
# "Book of Daniel", "House of David", "Gospel of John": a work or a lineage named after a
# person.
_NAMED_OF = re.compile(r"\b[A-Z][a-z]+[ \t]+of[ \t]+$")
_TITLE_BEFORE = re.compile(r"\b([A-Za-z]+)\.?[ \t]+$")
_TITLED = re.compile(
    r"\b(?:Mr|Mrs|Ms|Miss|Mister|Dr|Sir|Dame|Lord|Lady|Madam)\.?[ \t]+[A-Z][\w'’\-]+"
)
# A capitalised word, not the start of a contraction ("Don't" is no "Don").
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b(?!['’](?:t|ll|re|ve|d)\b)")
# "Will you", "May I": a sentence-initial modal, not a name.
_QUESTION = re.compile(r"\s+(?:i|you|he|she|it|we|they|not)\b", re.IGNORECASE)
# A user's handle ("@Emily", "@wikiadmin"): a real user.
_HANDLE = re.compile(r"(?<![\w@])@[A-Za-z][\w.]*")
_FULL_NAME = re.compile(r"\b([A-Z][a-z]+)[ \t]+(?:[A-Z]\.[ \t]*)?([A-Z][\w'’\-]*[a-z][\w'’]*)")


def full_name_at(text: str, start: int, end: int) -> bool:
    """The first name at [start, end) is part of a full name: a surname, an initial and a
    surname, or an epithet follows ("John Banner", "Michael S. Margolin", "Richard the
    Lionheart", "Levi-Civita"), a title goes before ("Reverend Billy", "Dr. Emily"), it is a
    user's handle ("@Emily"), or it names a work or a lineage ("the Book of Daniel", "the
    House of David")."""
    return full_name_of(text, start, end) is not None


def full_name_of(text: str, start: int, end: int) -> str | None:
    """The full name the first name at [start, end) is part of, as written ("Charles
    Lindbergh", "Dr. Emily", "@Emily", "Book of Daniel"; see `full_name_at`), or None."""
    after = _SURNAME.match(text, end)
    if after and not text[start:end].endswith(("'s", "’s")):
        word = after.group().strip(" \t-").split()[0].rstrip(".")
        if word.lower() not in _NOT_SURNAMES or after.group().lstrip().startswith("the"):
            return " ".join(text[start : after.end()].split())
    if start > 0 and text[start - 1] == "@":
        return text[start - 1 : end]  # "@Emily": a user's handle
    before = _TITLE_BEFORE.search(text, max(0, start - 16), start)
    if before and before.group(1)[:1].isupper() and before.group(1).lower() in TITLES:
        return " ".join(text[before.start() : end].split())
    named_of = _NAMED_OF.search(text, max(0, start - 30), start)
    return None if named_of is None else " ".join(text[named_of.start() : end].split())


# Words of a text about a film, a show or music: its first names are characters, actors or
# performers ("Lisa wanders lost in the opening", "Keri's hit single"), real or part of a
# real work, whom a swap would make false.
WORK_WORDS = frozenset(
    """
    film films movie movies cast character characters director directed actor actors actress
    actresses role roles scene scenes starring episode episodes series sequel screenplay plot
    album albums song songs single singles singer rapper band concert tour
    """.split()
)


def any_word(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching any of `words` as a whole word, in any case."""
    return re.compile(r"\b(?:" + "|".join(sorted(words)) + r")\b", re.IGNORECASE)


_WORK_WORD = any_word(WORK_WORDS)


def about_a_work(text: str) -> bool:
    """The text speaks of a film, a show or music (`WORK_WORDS`)."""
    return _WORK_WORD.search(text) is not None


# "my wife Sarah", "our friend Rudy": the writer's own people, private whatever the text is
# about.
_OWN_PERSON = re.compile(
    r"\b(?:my|our)[ \t]+(?:(?:best|old|little|big|dear|late|younger|older|eldest|oldest)[ \t]+)?"
    r"(?:wife|husband|son|daughter|friend|brother|sister|boyfriend|girlfriend|mom|mum|dad|"
    r"mother|father|kid|nephew|niece|cousin|roommate|flatmate|partner|fiancee?|grandson|"
    r"granddaughter|grandma|grandpa|grandmother|grandfather|uncle|aunt|auntie|colleague|"
    r"coworker|co-worker|boss|neighbou?r|classmate|buddy|pal|stepson|stepdaughter|baby|"
    r"toddler|child|student|client|customer|tenant|landlord|landlady)[ \t]*,?[ \t]+$",
    re.IGNORECASE,
)
# "a guy named Tyrone", "this girl called Emily": someone the writer introduces by first name.
_INTRODUCED = re.compile(
    r"\b(?:guy|girl|man|woman|boy|lady|kid|child|baby|person|someone|somebody|friend|student|"
    r"customer|client|colleague|coworker|co-worker|dude|fellow|chap|bloke|gal|neighbou?r|"
    r"classmate|teacher|nurse)[ \t]+(?:named|called)[ \t]+$",
    re.IGNORECASE,
)
# "our server Jessica", "the manager, Tom": someone who served the writer, named by role.
_SERVED_BY = re.compile(
    r"\b(?:my|our|the)[ \t]+(?:server|waiter|waitress|bartender|barista|host|hostess|"
    r"stylist|hairdresser|hair[ \t]+stylist|barber|colorist|manicurist|technician|tech|"
    r"mechanic|agent|rep|representative|manager|owner|cashier|clerk|driver|realtor|"
    r"contractor|groomer|trainer|instructor|teacher|therapist|masseuse|massage[ \t]+therapist|"
    r"nurse|receptionist|associate|salesman|saleswoman|salesperson|planner|photographer|"
    r"coordinator|chef|cook|guide|tutor|coach|landlord|landlady|neighbou?r)[ \t]*,?[ \t]+$",
    re.IGNORECASE,
)
# "I'm Emily", "my name is Emily": the writer, a private person.
THE_WRITER = re.compile(
    r"(?:\bI[ \t]*(?:'|’)?[ \t]*m|\bI am|\bmy name is|\bmy name's)[ \t]+$", re.IGNORECASE
)
# "Hi Peter," opening a message or a line of it: the person the writer addresses.
_GREETED = re.compile(r"(?:^|\n)[ \t=:*]*(?:hi|hello|hey|dear)[ \t,]+$", re.IGNORECASE)
# A talk page's message opening after its heading ("== New article == Hey Bogdan,", "== A
# friendly note == Peter, ...") or a reply's indentation ("::Doug you have not read ...",
# "::: Monkeykiss, Stephen I agree"): the editor the writer addresses, a private person.
# (Tweets, where a greeted first name was a celebrity as often as not, have neither.)
_TALK_OPENING = re.compile(
    r"(?:==[ \t`]*|(?:^|\n)[ \t`]*:+[ \t]*)"
    r"(?:(?P<greeting>(?:hi|hello|hey|dear)[ \t,]+)|(?:[A-Z]\w*,[ \t]+)?)$",
    re.IGNORECASE,
)
_ADDRESS_AFTER = re.compile(r"\w+[ \t]*(?:[,:!]|(?:you|I)\b)")
# "Hey its Jim.": the writer says who they are after a greeting.
_INTRODUCES_ONESELF = re.compile(
    r"\b(?:hi|hey|hello)[ \t,]+(?:it['’]?s|this[ \t]+is)[ \t]+$", re.IGNORECASE
)


def _addressed_on_a_talk_page(text: str, start: int) -> bool:
    """The first name at `start` opens a talk page's message or reply, greeted or followed
    by a comma, a colon or "you"/"I" (`_TALK_OPENING`)."""
    opening = _TALK_OPENING.search(text[max(0, start - 40) : start])
    if opening is None:
        return False
    return opening.group("greeting") is not None or _ADDRESS_AFTER.match(text, start) is not None


def the_writers_own(text: str, start: int) -> bool:
    """The first name at `start` is introduced as one of the writer's people ("my wife
    Sarah")."""
    return _OWN_PERSON.search(text, max(0, start - 50), start) is not None


_HASHTAG = re.compile(r"#(\w+)")


@cache
def _tag_words(term: Term) -> frozenset[str]:
    """The term's written forms and related words (its members' too), lowercased without
    spaces, as a hashtag would hold them; words under four letters left out."""
    words = {form for form, _ in term.surface_forms()}
    for unit in (term, *term.members):
        words.update(word for _, word in unit.related)
    return frozenset(w.lower().replace(" ", "") for w in words if len(w) >= 4)


def hashtag_names(text: str, terms: Iterable[Term], spans: Sequence[tuple[int, int]]) -> bool:
    """A hashtag outside `spans` (the mentions) names one of `terms` or its country
    ("#AmericaFirst", "#AmericanKids" beside "Americans"): a swap would leave it naming the
    old identity."""
    if "#" not in text:
        return False
    words = frozenset().union(*(_tag_words(term) for term in terms))
    for match in _HASHTAG.finditer(text):
        if any(s <= match.start(1) < e for s, e in spans):
            continue  # the mention itself, written as a hashtag ("#American kids")
        tag = match.group(1).lower()
        if any(word in tag for word in words):
            return True
    return False


def shown_private(text: str, start: int) -> bool:
    """The text shows that the first name at `start` is a private person's: one of the
    writer's people ("my friend Tyrone", "our neighbour, Emily"), someone introduced by name
    ("a guy named Tyrone") or by the role they served the writer in ("our server Jessica",
    "the manager, Tom"), the writer ("I'm Emily", "my name is Emily", "Hey its Jim"), the
    one a message opens by greeting ("Hi Peter,") or the editor a talk page's message or
    reply addresses ("== A note == Peter, ...", "::Doug you have not read"). Read blind,
    first names in tweets, comments and reviews with nothing of the kind were mostly public
    figures, characters, pets, products and drugs ("Molly"), whom a swap makes false: such
    a name is left out (``unknown_person``) unless the user says the corpus's names are
    private people's (`private_names`)."""
    begin = max(0, start - 50)
    return (
        any(
            pattern.search(text, begin, start) is not None
            for pattern in (_OWN_PERSON, _INTRODUCED, THE_WRITER, _SERVED_BY)
        )
        # "^" matches only at the text's start, not at `pos`: a greeting opens the text or a line.
        or _GREETED.search(text, max(0, start - 12), start) is not None
        or _INTRODUCES_ONESELF.search(text, max(0, start - 20), start) is not None
        or _addressed_on_a_talk_page(text, start)
    )


def named_elsewhere(text: str, names: Sequence[Mention]) -> bool:
    """A first name of `names` is also written where it is no mention (a heading, a full
    name, a title: "== Richard the Lionheart == ... Richard's"), inside a hashtag ("my boss
    Ned ... #nedfail") or as its initial after it ("John ... sorry J"): the swap would
    rename the person in one place only."""
    found = {m.start for m in names}
    for surface in {m.surface for m in names}:
        for match in re.finditer(r"(?<![\w])" + re.escape(surface) + r"(?![\w])", text):
            if match.start() not in found:
                return True
        lower = surface.lower()
        if any(lower in tag.lower() for tag in _HASHTAG.findall(text)):
            return True  # "my boss Ned ... #nedfail"
        initial = surface[0].upper()
        first = min(m.end for m in names if m.surface == surface)
        if initial != "I" and re.search(r"(?<![\w.])" + initial + r"(?![\w.'’])", text[first:]):
            return True  # "my neighbor John ... sorry J"
    return False


def named_people(text: str) -> list[tuple[int, int]]:
    """Spans of the full names, titled names and handles of `text` ("Bill Nighy", "Mr.
    Dreyfuss", "@Emily"): a first name of the name lexicon followed by a capitalised
    surname, a title followed by a capitalised name, or an @-handle."""
    found = [m.span() for m in _TITLED.finditer(text)]
    found += [m.span() for m in _HANDLE.finditer(text)]
    first = context.first_names()
    for match in _FULL_NAME.finditer(text):
        name, surname = match.group(1), match.group(2)
        if name in first and name.lower() not in _CALENDAR and surname.lower() not in _NOT_SURNAMES:
            found.append(match.span())
    return sorted(found)


def unknown_first_names(
    text: str, mention_spans: Iterable[tuple[int, int]], begin: int = 0, stop: int | None = None
) -> list[tuple[int, int]]:
    """Capitalised first names that are not at `mention_spans` (the name list's mentions):
    names of a person whose gender a swap cannot know ("Bill", "Joyce", which the list
    leaves out as ordinary words). A sentence's first word asking a question ("Will you",
    "May I") is no name. Only those between `begin` and `stop` (None: the text's end)."""
    first = context.first_names()
    spans = list(mention_spans)
    found = []
    for match in _CAPITALISED.finditer(text, begin, len(text) if stop is None else stop):
        word, start = match.group(), match.start()
        lower = word.lower()
        if word not in first or lower in _CALENDAR or lower in _ordinary_words():
            continue
        before = context.tokens_before(text, start, count=1)
        if (
            not (before and before[0] in _PLACE_BEFORE)
            and not any(s <= start < e for s, e in spans)
            and not (
                context.is_sentence_initial(text, start) and _QUESTION.match(text, match.end())
            )
        ):
            found.append(match.span())
    return found


@cache
def _ordinary_words() -> frozenset[str]:
    """Lowercase words the first-name lexicon also holds that are function words or identity
    terms and their related words ("My", "An", "German", "Islam")."""
    words = set(context.FUNCTION_WORDS | context.DETERMINERS)
    for name in ("dixon2018", "holistic"):
        for term in load_term_list(name).terms():
            words.update(form.lower() for form, _ in term.surface_forms())
            words.update(word.lower() for _, word in term.related)
    return frozenset(words)


@cache
def _gendered_identity_pattern() -> re.Pattern[str]:
    """The written forms of every gendered identity term of the built-in lists that are
    not pair words ("female", "Latina", "lesbian", "trans male", "Chicano")."""
    forms: set[str] = set()
    for name in ("dixon2018", "holistic"):
        for term in load_term_list(name).terms():
            if term.gender and not term.words and not term.names:
                forms.update(form.lower() for form, _ in term.surface_forms())
    return re.compile(
        r"(?<![\w\-])" + context.trie_pattern(sorted(forms)) + r"(?![\w\-])", re.IGNORECASE
    )


def gendered_identity_words(text: str) -> list[str]:
    """The gendered identity terms of `text` ("female", "Latina", "lesbian") that a pronoun
    or name swap leaves as they are."""
    return [m.group() for m in _gendered_identity_pattern().finditer(text)]


@cache
def name_group(gender: str) -> Term:
    """The first-name group of the built-in `names` list for `gender`."""
    return next(t for t in load_term_list("names").terms() if t.gender == gender)
