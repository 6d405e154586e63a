"""The context gates of the matcher that need no term list: titles, names, URLs, compounds,
predicates and gradable readings. Each says, from the words around a candidate, whether it
is not an identity mention, or which form it has; `Matcher` applies them in one place.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from textfair.terms import Term
from textfair.text import context

SINGULAR_DETERMINERS = frozenset("a an one every each this that another".split())
# Words after an adjective that show it stands for people: "the elderly and", "the young who".
_NOMINAL_FOLLOWERS = frozenset(
    """
    and or who whom that are were have had will would can could should must do did in of at
    to from with
    """.split()
)
WORDS = re.compile(r"[^\W\d_]+")  # letters only: cheaper than tokenizing, enough to compare

# A run of capitalised words, which may hold short lowercase words as titles do:
# "No Country for Old Men", "American Association for the Advancement of Science".
_TITLE_WORD = r"[A-Z][a-z][\w'’]*"
_TITLE_GLUE = r"(?:(?:of|the|for|in|on|a|an|to|at|by)[ ]+)*"
CAPITALISED_RUN_BEFORE = re.compile(rf"(?:{_TITLE_WORD}[ ]+{_TITLE_GLUE})+$")
CAPITALISED_RUN_AFTER = re.compile(rf"(?:[ ]+{_TITLE_GLUE}{_TITLE_WORD})+")


# Patterns of the gates compiled once (a pattern string is looked up in re's cache at
# every call): the word joined after a term, a hyphen before a letter, a middle initial.
_NEXT_JOINED_WORD = re.compile(r"(?:[ ]+|-)([A-Za-z][\w'’]*)")
_HYPHEN_LETTER = re.compile(r"-([^\W\d_])")
_MIDDLE_INITIAL = re.compile(r" [A-Z]\. ?[A-Z]")


def capitalised(token: str) -> bool:
    return token[:1].isupper() and not (len(token) > 1 and token.isupper())


def capitalised_mid_sentence(
    text: str, start: int, end: int, term: Term, is_identity_word: Callable[[str], bool]
) -> bool:
    """A term the list writes in lowercase ("gay", "young") written capitalised inside a
    sentence and joined to a capitalised word that is no identity term: part of a name
    ("Young Guy", "Gay-man", "the Old West"; not "a Gay Lesbian's", "a Gay mexican")."""
    surface = text[start:end]
    if not term.text[:1].islower() or not capitalised(surface):
        return False
    if context.is_sentence_initial(text, start):
        return False
    following = _NEXT_JOINED_WORD.match(text[end : end + 40])
    if not following:
        return False
    word = following.group(1)
    named = is_identity_word(context.normalize_token(word))
    if text[end] == "-":
        return not named
    return capitalised(word) and not named


# The rest of a token from a place in it, to the next space or line break (or the end):
# one match, cheaper than two finds and the choice of the nearer one.
_TOKEN_REST = re.compile(r"[^ \n]*")


def in_url(text: str, start: int) -> bool:
    """Part of a web address or file name: "www.Christian-Bible.com",
    ".../official-neglect-for-anglo-sikh-war-monuments2704.html"."""
    if start > 0 and text[start - 1] in ".@_":
        return True
    token_start = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    rest = _TOKEN_REST.match(text, start)
    assert rest is not None  # a run of no length matches anywhere
    token = text[token_start : rest.end()]
    if "." not in token and "/" not in token:
        return False  # every sign below has a dot or a slash: most words end here
    token = token.lower()
    return (
        "://" in token
        or "www." in token
        or ".htm" in token
        or token.count("/") >= 2
        or re.search(r"\.(?:org|com|net|edu|gov)\b", token) is not None
    )


_NAMESPACE = re.compile(r"(?:user|talk|user talk|wikipedia|category|template|file)\s*:\S*$", re.I)


def in_username(text: str, start: int) -> bool:
    """Part of a wiki user name or page name: "User:Sikh-history", "Category:Jewish_x"."""
    begin = max(0, start - 40)
    # The namespace's colon must be in the window; looking for it is cheaper than the search.
    return text.find(":", begin, start) >= 0 and _NAMESPACE.search(text, begin, start) is not None


def in_capitals_run(text: str, start: int, end: int) -> bool:
    """A term written in capitals next to another word in capitals, in a text that is not
    shouted throughout: a title or a heading ("GRUMPY OLD MEN", "THE OLD HOME GUARD")."""
    surface = text[start:end]
    if not (surface.isupper() and len(surface) > 1):
        return False
    before = WORDS.findall(text, max(0, start - 30), start)[-1:]
    after = WORDS.findall(text, end, end + 30)[:1]
    if not any(len(w) > 1 and w.isupper() for w in before + after):
        return False
    return not _shouted(text)


@lru_cache(maxsize=256)
def _shouted(text: str) -> bool:
    """Most of the text's letters are capitals (a shouted comment): its capitals say nothing."""
    letters = sum(map(str.isalpha, text))
    return sum(map(str.isupper, text)) >= 0.3 * letters


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


def is_name(
    text: str, start: int, end: int, term: Term, is_identity_word: Callable[[str], bool]
) -> bool:
    """Part of a name: a person's or a title's (see `name_kind`)."""
    return bool(name_kind(text, start, end, term, is_identity_word))


def name_kind(
    text: str, start: int, end: int, term: Term, is_identity_word: Callable[[str], bool]
) -> str:
    """ "person" for part of a person's name, "title" for the head of a title or an
    organisation's name, "" for neither:
    "Jack Black", "Betty White" (surname) or "Christian Slater" (first name), or a
    term always capitalised heading a name or title: "Christian Clavier", "American
    Caesar", "Catholic Church" (the next word capitalised, and neither an identity term nor
    a person noun: "Jewish Americans", "Christian Women" stay mentions)."""
    if not text[start].isupper():
        return ""
    after = context.tokens_after(text, end, count=2)
    # A term always capitalised ("Christian Clavier", "American Caesar"), or a lowercase one
    # capitalised mid-sentence ("Linda and Young Guy", "the Old West", "Sydney Gay and
    # Lesbian Mardi Gras"): a sentence's first word is capitalised anyway.
    mid_sentence = not context.is_sentence_initial(text, start)
    names_follow = bool(after) and heads_a_name(after, is_identity_word)
    if (term.text[:1].isupper() or mid_sentence) and names_follow:
        return "title"
    before = context.tokens_before(text, start, count=1)
    if (
        before
        and before[0] in context.first_names()
        and before[0].lower() not in context.FUNCTION_WORDS | context.DETERMINERS  # "An"
    ):
        return "person"  # "Jack Black", "Brad Christian": a surname after a first name
    if term.given_name:
        after = context.tokens_after(text, end, count=1)
        words = WORDS.findall(text, end, end + 40)[:2]
        if (
            text[start:end].lower() == term.id  # the singular: "Christians love" is no name
            and len(words) == 2
            and words[0].capitalize() in context.first_names()
            and words[1].capitalize() in context.last_names()
            and words[1].lower() not in context.FUNCTION_WORDS
        ):
            return "person"  # "Christian thomas cox": first, middle and last name
        if (
            after
            and after[0][0].isupper()
            and after[0] in context.last_names()
            and not context.is_person_noun(after[0].lower())
        ):
            return "person"
    return ""


def heads_a_compound(text: str, end: int, term: Term) -> bool:
    """The first half of a hyphenated word that is not about people: a colour ("black-clad",
    "white-haired": a lowercase term before a lowercase part) or a joint nationality of a
    thing ("Canadian-German co-production"). "Chinese-born" stays a mention."""
    following = _HYPHEN_LETTER.match(text[end : end + 2])
    if not following:
        return False
    return following.group(1).isupper() or term.text[:1].islower()


def in_compound(text: str, start: int) -> bool:
    """The second half of a hyphenated word: "half-Chinese", "anti-Muslim", "alpha-male".
    (Listed hyphenated forms, "African-American", match as one form and never get here.)"""
    return start >= 2 and text[start - 1] == "-" and text[start - 2].isalpha()


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


def heads_a_name(after: list[str], is_identity_word: Callable[[str], bool]) -> bool:
    """The words after a capitalised term continue a name: the next is capitalised (not
    all capitals, not hyphenated), neither a term nor a person noun, and no person noun
    follows it ("Old Security Guards" is a headline about people)."""
    word = after[0].partition("'")[0].partition("’")[0]  # the word before an apostrophe
    if not (word.isalpha() and word[:1].isupper() and not word.isupper()):
        return False
    if is_identity_word(word) or context.is_person_noun(word.lower()):
        return False
    return not (len(after) > 1 and context.is_person_noun(after[1].lower()))


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


# Fixed phrases that are never identity mentions, whatever their words' classes say (issue
# 42: the general gates above and below do the rest). Idioms and roles with a person noun
# in them ("the straight man" of a comedy duo, "your old lady" for a wife), insults and
# interjections built of gendered words. Written by the textfair authors, MIT.
_FIXED_PHRASES = re.compile(
    r"\b(?:sons? of (?:a )?bitch(?:es)?|mother[ -]?fuck\w*|straw (?:wo)?m[ae]n|oh,? (?:man|boy)"
    r"|boy,? oh,? boy|man,? oh,? man|dumb blondes?|(?:bad|good) guys?"
    r"|(?:plays?|played|playing|as) (?:the|a) straight (?:wo)?m[ae]n"
    r"|(?:my|your|yo|ur|his|her|their|our) old (?:man|men|lady|ladies|bitch|girl|boy|woman))\b",
    re.IGNORECASE,
)


_FIXED_PHRASE_WORDS = frozenset(
    (
        "son sons mother straw man men woman women boy dumb blonde blondes straight old guy guys"
    ).split()
)


def in_fixed_phrase(text: str, start: int, end: int) -> bool:
    """Inside a fixed phrase that names no identity: "son of a bitch", "oh man", "dumb
    blonde", "plays the straight man", "yo old bitch" (a former girlfriend)."""
    if text[start:end].lower() not in _FIXED_PHRASE_WORDS:
        return False  # most candidates: no phrase holds them
    begin = max(0, start - 30)
    return any(
        m.start() <= start and end <= m.end()
        for m in _FIXED_PHRASES.finditer(text, begin, min(len(text), end + 30))
    )


# Subjects that are never people: a predicate of one describes a thing ("it isn't cute",
# "that was gay", "which is Catholic").
_THING_SUBJECTS = frozenset("it this that which what".split())


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
    # Only a pronoun that never stands for a person: a noun subject may be one for people
    # that no list has ("her entire tribe became Muslim").
    return context.normalize_token(raw[j]) in _THING_SUBJECTS


_THING_COPULAS = frozenset("it's that's thats what's whats".split())
_BEFORE_COPULA = context.MODALS | {"not", "never", "also", "still", "always"}


_PERSON_PRONOUNS = frozenset(
    "i me you he him she her we us they them who whom one someone somebody everyone "
    "everybody anyone anybody nobody myself yourself himself herself ourselves themselves "
    "i'm im you're youre he's hes she's shes we're they're theyre".split()
)


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
    city cities country countries village villages
    """.split()
)


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


def sympathy_reading(text: str, start: int, end: int) -> bool:
    """A word of sympathy before a first name ("to rescue poor Phyllis") or before one
    person with a definite determiner ("to be fair to the poor man", "this poor guy
    Aaron"), not a class."""
    if text[start:end].lower() not in _SYMPATHY_WORDS:
        return False
    after = context.tokens_after(text, end, count=1)
    if not after:
        return False
    if after[0] in context.first_names():
        return True
    before = context.tokens_before(text, start, count=1)
    noun = context.normalize_token(after[0])
    definite = bool(before) and context.normalize_token(before[0]) in _DEFINITE
    return definite and context.is_person_noun(noun) and not noun.endswith("s")


# Bare nouns that, set off by commas or opening a sentence before one, are interjections or
# vocatives: "Man, relax", "and, boy, was he in for it", "an 'acid' trip, man, where".
_INTERJECTION = re.compile(r"(?:^|[,.!?;:(]\s*|\boh\s+)(?:man|boy|dude)\s*[,!]", re.IGNORECASE)


def interjection(text: str, start: int, end: int) -> bool:
    """A gendered noun used as an interjection or a vocative, not for a person: "Man,
    relax", ", boy, was he"."""
    word = text[start:end].lower()
    if word not in ("man", "boy", "dude"):
        return False
    begin = max(0, start - 6)
    match = _INTERJECTION.search(text, begin, min(len(text), end + 2))
    return match is not None and match.start() <= start and match.end() >= end


_DEFINITE = frozenset("the this that my your his her our their".split())
# A title of address before a capitalised word: the word is a surname ("Mr Christian").
_HONORIFIC = re.compile(
    r"(?<![\w])(?:mr|mrs|ms|miss|dr|sir|madam|mister|saint|st|prof)\.?[ ]+$", re.IGNORECASE
)


def after_honorific(text: str, start: int) -> bool:
    """A capitalised word after a title of address is a surname: "Mr Christian said"."""
    return text[start].isupper() and _HONORIFIC.search(text, max(0, start - 8), start) is not None


def before_initial(text: str, end: int) -> bool:
    """A given name before a middle initial: "Christian G. Fritz"."""
    return _MIDDLE_INITIAL.match(text[end : end + 6]) is not None


_QUOTED = re.compile(r"(?:``|''|[\"“”'‘’])([^\"“”`'‘’\n]{3,80})(?:''|``|[\"“”'‘’])")


_QUOTE_MARK = re.compile("[\"“”'‘’`](?:The|An?) ")


def in_quoted_title(text: str, start: int, end: int) -> bool:
    """Inside a short quotation that is a title, not speech: three to six words, the
    first an article with a capital ("'The old home guard'", "'An American in Paris'"), no
    comma, no verb, no sentence end."""
    begin = max(0, start - 80)
    if _QUOTE_MARK.search(text, begin, start) is None:  # a quote opening on an article
        return False  # most candidates: no quotation opens before them
    for match in _QUOTED.finditer(text, begin, min(len(text), end + 80)):
        if not (match.start(1) <= start and end <= match.end(1)):
            continue
        words = match.group(1).split()
        if not 3 <= len(words) <= 6 or words[0] not in ("The", "A", "An"):
            return False
        if "," in match.group(1) or (match.end() < len(text) and text[match.end()].isalpha()):
            return False  # a clause, or an apostrophe inside a word ("aren't")
        if match.group(1).rstrip()[-1:] in ".!?,;:":
            return False
        return not any(
            context.looks_like_verb(w)
            or context.plain_token(w) in context.COPULAS
            or context.plain_token(w) in _PERSON_PRONOUNS
            for w in words
        )
    return False


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
