"""The gates of the matcher that read a candidate's grammar: whether it is a predicate ("he
is old"), modifies the next word ("a Muslim man"), stands for people ("the elderly", "the
poor have"), is read in a degree ("too young"), or describes no person (predicated of a
thing, a size grading a group, sympathy: "it isn't cute", "a huge fan", "poor Phyllis").
The form reader (`textfair.text._forms`) asks them too; apart from the name and phrase gates,
which read what a candidate is part of rather than its role in the sentence.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from textfair.terms import Term
from textfair.text import _context as context

if TYPE_CHECKING:  # mentions reads forms, which asks these gates
    from textfair.text.mentions import Mention

__all__ = [
    "SINGULAR_DETERMINERS",
    "SIZE_WORDS",
    "describes_no_person",
    "fits_a_hashtag",
    "gradable_context",
    "grades_a_thing",
    "is_collective",
    "is_predicate",
    "modifies_next",
    "predicate_of_thing",
    "stands_for_people",
    "sympathy_reading",
]

SINGULAR_DETERMINERS = frozenset("a an one every each this that another".split())
# Words after an adjective that show it stands for people: "the elderly and", "the young who".
_NOMINAL_FOLLOWERS = frozenset(
    """
    and or who whom that are were have had will would can could should must do did in of at
    to from with
    """.split()
)

_NEGATED_COPULAS = frozenset(
    "isn't isnt aren't arent wasn't wasnt weren't werent ain't aint".split()
)


def is_predicate(before: list[str]) -> bool:
    """ "he is old", "I'm white", "she may be older", "seems young", "they are not straight"."""
    if before and before[-1] in context.DEGREE_WORDS:
        before = before[:-1]
    if not before:
        return False
    if before[-1] in context.COPULA_CONTRACTIONS or before[-1] in _NEGATED_COPULAS:
        return True
    if before[-1] == "being":
        return True
    if before[-1] not in context.COPULAS or len(before) < 2:
        return False
    subject = before[-2]
    if subject in context.MODALS and len(before) >= 3:
        subject = before[-3]
    return subject in context.SUBJECT_PRONOUNS or subject == "to"


_GRADABLE_BEFORE = frozenset(
    "too very so quite how more less most pretty rather fairly really truly extremely".split()
)
_GRADABLE_AFTER = frozenset("enough than".split())


def gradable_context(text: str, start: int, end: int) -> bool:
    """ "too young", "very old", "old enough", "older than": a degree the term is read in."""
    before = context.tokens_before(text, start, count=1)
    after = context.tokens_after(text, end, count=1)
    return bool(
        (before and context.normalize_token(before[0]) in _GRADABLE_BEFORE)
        or (after and context.normalize_token(after[0]) in _GRADABLE_AFTER)
    )


_ONE_WORD = re.compile(r"\w+")


def fits_a_hashtag(text: str, mention: Mention, term: Term) -> bool:
    """Whether `term` can be written where `mention` is: a mention written as a hashtag
    ("#Conservatives", "#refugees") takes only a term its form writes as one word there;
    "#Left-wing People" or "#independently wealthy people" breaks the tag (both read
    UNGRAMMATICAL in a blind read of tweets). Any other mention takes any term."""
    if mention.start == 0 or text[mention.start - 1] != "#":
        return True
    if mention.form == "plural":
        written = term.plural_noun
    elif mention.form == "noun":
        written = term.singular_noun
    elif mention.form == "adjective":
        written = term.text
    else:  # a gendered word's counterpart, a related word: one word each
        return True
    return written is not None and _ONE_WORD.fullmatch(written) is not None


def modifies_next(text: str, start: int, end: int) -> bool:
    """ "a Muslim man" (adjective), not "A Muslim spoke" or "a Muslim says" (noun)."""
    if not context.noun_follows(text, end):
        return False
    following = context.tokens_after(text, end, count=1)[0]
    if context.looks_like_verb(following):
        return False
    before = context.tokens_before(text, start, count=1)
    # "that" before a plural is a conjunction ("the claim that Christian missionaries").
    singular = before and context.normalize_token(before[0]) in SINGULAR_DETERMINERS - {"that"}
    plural_looking = following.endswith("s") and not following.endswith(("ss", "us", "is"))
    return not (singular and plural_looking)


def is_collective(text: str, start: int, end: int) -> bool:
    """ "the elderly", "the young and the old", "women, children and elderly": the
    adjective stands for people."""
    before = context.tokens_before(text, start, count=2)
    listed = (
        len(before) == 2
        and context.normalize_token(before[1]) in context.COORDINATORS
        and context.is_person_noun(context.normalize_token(before[0]))
    )
    if not before or (context.normalize_token(before[-1]) != "the" and not listed):
        return False
    after = context.tokens_after(text, end, count=1)
    if not after:
        return True
    if after[0] == "&" or re.match(r"\s*['’]n\b", text[end:]):
        return False  # "the old 'n wise con": a coordination of adjectives, not people
    if not context.is_word(after[0]):
        return after[0] != ","
    return context.normalize_token(after[0]) in _NOMINAL_FOLLOWERS


# Subjects that are never people: a predicate of one describes a thing ("it isn't cute",
# "that was gay", "which is Catholic").
_THING_SUBJECTS = frozenset("it this that which what".split())
# Nouns of things a text calls gay, cute, old, ... that never stand for people (written for
# issue 56's reads: "your TV interests are gay"; the project's own list, MIT).
_THING_NOUNS = frozenset(
    """
    interest interests taste tastes music song songs movie movies film films show shows
    game games video videos article articles page pages post posts edit edits comment
    comments idea ideas joke jokes shirt shirts clothes outfit car cars book books story
    stories website site picture pictures pic pics avatar username userpage signature
    """.split()
)


def predicate_of_thing(text: str, start: int, end: int) -> bool:
    """The term is predicated of a thing, not a person: "It isn't funny, isn't cute", "that
    was gay", "it's so gay". The subject is the word before the copula (through "not",
    modals and degree words), a pronoun for no person; an elided subject ("..., isn't
    cute") is read from the copula before it in the clause."""
    after = context.tokens_after(text, end, count=1)
    if after and context.is_content_word(after[0]):
        return False  # "there were attractive women": the term modifies a noun
    return _thing_subject(text, start)


def _thing_subject(text: str, start: int) -> bool:
    """The copula before `start` has a subject that is no person (`predicate_of_thing`)."""
    raw = context.tokens_before(text, start, count=12)
    k = len(raw) - 1
    while k >= 0 and context.plain_token(raw[k]) in context.DEGREE_WORDS:
        k -= 1
    if k < 0:
        return False
    copula = context.plain_token(raw[k])
    if copula in _THING_COPULAS:
        return True  # "it's gay", "that's so gay"
    if copula not in context.COPULAS and copula not in _NEGATED_COPULAS:
        return False  # most candidates: no copula before them
    j = k - 1
    while j >= 0 and context.plain_token(raw[j]) in _BEFORE_COPULA:
        j -= 1
    if j < 0:
        return False
    if raw[j] == ",":
        # "It isn't funny, isn't cute": the subject of the copula before, in the clause.
        for i in range(j - 1, -1, -1):
            word = context.plain_token(raw[i])
            if word in context.COPULAS or word in _NEGATED_COPULAS:
                return _thing_subject(text, _offset_of(text, start, raw, i))
            if word in ".!?;":
                return False
        return False
    # Only a pronoun that never stands for a person, or a noun of `_THING_NOUNS` ("your TV
    # interests are gay"): another noun subject may be one for people that no list has
    # ("her entire tribe became Muslim").
    subject = context.normalize_token(raw[j])
    return subject in _THING_SUBJECTS or subject in _THING_NOUNS


_THING_COPULAS = frozenset("it's that's thats what's whats".split())
_BEFORE_COPULA = context.MODALS | {"not", "never", "also", "still", "always"}


def _offset_of(text: str, start: int, raw: list[str], index: int) -> int:
    """The offset in `text` just after the `index`-th of the tokens `raw` read before
    `start` (found from the right)."""
    position = start
    for token in reversed(raw[index + 1 :]):
        position = text.rfind(token, 0, position)
    return position


# Size words: before a group, or before a noun for what a person does ("a huge fan"), they
# grade the noun, not a body ("a big happy family", "a tiny Jewish community").
SIZE_WORDS = frozenset(
    "big bigger biggest huge large larger largest giant gigantic massive enormous tiny "
    "small smaller smallest little littler".split()
)
_GRADED_HEADS = frozenset(
    """
    fan fans admirer admirers supporter supporters believer believers lover lovers follower
    followers enthusiast enthusiasts buff buffs fool fools idiot idiots loser losers family
    families community communities crowd crowds group groups team teams audience audiences
    cast casts population populations army armies following majority minority town towns
    city cities country countries village villages advocate advocates proponent proponents
    opponent opponents critic critics defender defenders backer backers contender contenders
    candidate candidates
    """.split()
)
# Words that grade what they modify as a size does: "a strong believer", "a strong
# supporter" (issue 56's blind read) is a degree of belief, not a body.
_GRADING_WORDS = SIZE_WORDS | {"strong", "stronger", "strongest"}


def grades_a_thing(text: str, end: int) -> bool:
    """A size word grading what follows, not a body: "a huge fan", "a big happy family",
    "a tiny scattered Jewish community", "a small Indiana town"."""
    for token in context.tokens_after(text, end, count=4):
        word = context.normalize_token(token)
        if word in _GRADED_HEADS:
            return True
        if not context.is_word(token) and token not in ",-":
            return False
        if context.is_person_noun(word) or word in context.FUNCTION_WORDS:
            return False
    return False


# Words of sympathy: before a name or one person with a definite determiner they pity, they
# do not describe ("poor Phyllis", "the poor man"); "poor people", "a poor family" do.
_SYMPATHY_WORDS = frozenset(["poor"])
# Nouns that "poor" pities, whatever comes before (issue 56's blind read: "those poor
# misguided idiots", "you poor thing", "poor souls").
_PITIED = frozenset(
    """
    idiot idiots fool fools soul souls thing things bastard bastards sod sods devil devils
    sap saps sucker suckers creature creatures moron morons schmuck schmucks wretch wretches
    dear dears darling darlings lamb lambs bugger buggers dope dopes
    """.split()
)
# Before "poor guy": nothing, a clause edge or an interjection ("Poor guy, he ...", "oh
# poor man", "you poor kid"): pity, not a class ("a poor guy" stays).
_PITY_OPENERS = frozenset("oh ah aw aww awww ahh you ya".split())
_PITIED_ONE = frozenset("guy man woman girl boy kid fellow chap dude lady bloke lad gal".split())


def sympathy_reading(text: str, start: int, end: int) -> bool:
    """A word of sympathy before a first name ("to rescue poor Phyllis"), before one
    person with a definite determiner or at a clause's start ("to be fair to the poor man",
    "this poor guy Aaron", "Poor guy, he never", "oh poor kid"), or before a word it pities
    ("those poor misguided idiots", "you poor thing"), not a class."""
    if text[start:end].lower() not in _SYMPATHY_WORDS:
        return False
    after = context.tokens_after(text, end, count=3)
    if not after:
        return False
    if after[0] in context.first_names():
        return True
    for token in after:  # "poor misguided idiots": through the adjectives to the noun
        word = context.normalize_token(token)
        if word in _PITIED:
            return True
        if not context.is_word(token) or context.is_person_noun(word):
            break
        if word in context.FUNCTION_WORDS:
            break
    before = context.tokens_before(text, start, count=1)
    noun = context.normalize_token(after[0])
    opener = context.normalize_token(before[0]) if before else ""
    if opener in _DEFINITE:
        return context.is_person_noun(noun) and not noun.endswith("s")
    # "Poor guy, he never had a chance", ". Poor man.", "oh poor kid": one person pitied.
    edge = not before or not context.is_word(before[0]) or opener in _PITY_OPENERS
    return edge and noun in _PITIED_ONE


_DEFINITE = frozenset("the this that my your his her our their".split())


# "single" counting one, not a marital status, after an article or a quantifier before a
# noun for no person ("a single identity", "the single biggest", "one single word"; "a
# single mother" stays). "not a single", "every single" are collocations.
_COUNTING_BEFORE = frozenset("a an the one any each every no this that".split())


def counts_one(text: str, start: int, end: int) -> bool:
    """ "single" counting one: after an article or a quantifier, before a word that is no
    person noun ("a single identity", "the single biggest problem")."""
    if text[start:end].lower() != "single":
        return False
    before = context.tokens_before(text, start, count=1)
    if not before or context.normalize_token(before[0]) not in _COUNTING_BEFORE:
        return False
    after = context.tokens_after(text, end, count=1)
    return (
        bool(after)
        and context.is_word(after[0])
        and not (context.is_person_noun(context.normalize_token(after[0])))
    )


# "professional" before a noun of a trade or a body of people says how they work, not a
# class ("a reliable and professional actor", "a professional soldier", "edited by
# professional staff": issue 56, read NOT_IDENTITY); before a noun for anyone ("professional
# women", "professional people") it stays a class.
_ANYONE = frozenset(
    """
    person persons people man men woman women guy guys lady ladies folk folks family
    families couple couples parent parents mother mothers father fathers mom moms mum mums
    dad dads friend friends adult adults individual individuals class classes
    """.split()
)


def by_trade(text: str, start: int, end: int) -> bool:
    """ "professional" before a noun that is no word for anyone (`_ANYONE`)."""
    if text[start:end].lower() != "professional":
        return False
    after = context.tokens_after(text, end, count=1)
    return (
        bool(after)
        and context.is_content_word(after[0])
        and context.normalize_token(after[0]) not in _ANYONE
    )


# A parenthesis of descriptors after a noun describes that noun ("all major Jewish
# organizations (religious and secular) are opposed": issue 56, NOT_IDENTITY). The
# parenthesis holds at most four words, none a function word but "and" and "or".
_PARENTHESIS = re.compile(r"([A-Za-z][\w\-]*)[ \t]*\(([A-Za-z\-, \t]{1,50})\)")


def said_of_a_thing_before(text: str, start: int) -> bool:
    """Inside a short parenthesis of descriptors after a noun for no person
    ("organizations (religious and secular)"; "the leaders (religious and secular)" stays)."""
    opening = text.rfind("(", max(0, start - 50), start)
    if opening < 0:
        return False
    match = _PARENTHESIS.search(text, max(0, opening - 40), min(len(text), start + 50))
    if match is None or not match.start(2) <= start < match.end(2):
        return False
    words = [w for w in re.split(r"[ \t,]+", match.group(2)) if w]
    if len(words) > 4 or any(
        w.lower() not in ("and", "or") and w.lower() in context.FUNCTION_WORDS for w in words
    ):
        return False
    noun = context.normalize_token(match.group(1))
    return context.is_content_word(noun) and not (context.is_person_noun(noun) or noun in _ANYONE)


# "aliens" from space (issue 56's blind read: a film's aliens became "homeless people"): a
# word of science fiction in the text, or "space" before it; "illegal aliens" stay.
_SPACE_WORDS = re.compile(
    r"\b(?:space(?:ship|craft|ships)?|outer[ \t]+space|ufos?|planet(?:s)?|mars|martians?|"
    r"extra-?terrestrials?|abduct(?:ed|ion|ions|s)?|flying[ \t]+saucers?|sci-?fi|science"
    r"[ \t]+fiction|galax(?:y|ies)|earthlings?|invasion|invad(?:e|ed|es|ing)|mothership|"
    r"roswell|area[ \t]+51)\b",
    re.IGNORECASE,
)
_IMMIGRATION_BEFORE = frozenset("illegal illegals undocumented resident legal criminal".split())


def space_alien(text: str, start: int, end: int) -> bool:
    """ "aliens" from space, not an immigration status: "space aliens", "the aliens landed
    in a spaceship", "a film about aliens invading earth"; "illegal aliens" stay."""
    if not text[start:end].lower().startswith("alien"):
        return False
    before = context.tokens_before(text, start, count=1)
    if before and context.normalize_token(before[0]) in _IMMIGRATION_BEFORE:
        return False
    return _SPACE_WORDS.search(text) is not None


# Words after "the" + adjective that make the adjective stand for people whatever the term:
# a relative pronoun or a plural verb ("the disabled who", "the poor have"). Weaker followers
# ("and", "of") do so only for a term flagged nominal ("the young and the restless").
_PEOPLE_FOLLOWERS = frozenset(
    "who whom are were have had will would can could should must do did deserve need".split()
)


def stands_for_people(text: str, start: int, end: int) -> bool:
    """ "the disabled who live here", "the poor have", "the blind are": after "the", an
    adjective before a relative pronoun or a plural verb stands for people."""
    before = context.tokens_before(text, start, count=1)
    if not before or context.normalize_token(before[0]) != "the":
        return False
    after = context.tokens_after(text, end, count=1)
    return bool(after) and context.plain_token(after[0]) in _PEOPLE_FOLLOWERS


def describes_no_person(
    text: str, start: int, end: int, term: Term, form: str = "adjective"
) -> bool:
    """A word of a term, in the grammatical `form` read, that describes no person (issue
    42): an adjective predicated of a thing ("it isn't cute", "that was gay"), a size or
    strength grading a group or a fan ("a huge fan", "a big happy family", "a strong
    believer"), sympathy ("poor Phyllis", "the poor man", "those poor misguided idiots"),
    "single" counting one ("a single identity"); in any form, "aliens" from space."""
    if not term.person_context:
        return form == "adjective" and predicate_of_thing(text, start, end)
    if space_alien(text, start, end):
        return True
    if form != "adjective":
        return False
    if predicate_of_thing(text, start, end):
        return True
    grading = context.normalized_form(text[start:end]) in _GRADING_WORDS
    if grading and grades_a_thing(text, end):
        return True
    return (
        sympathy_reading(text, start, end)
        or counts_one(text, start, end)
        or by_trade(text, start, end)
        or said_of_a_thing_before(text, start)
    )
