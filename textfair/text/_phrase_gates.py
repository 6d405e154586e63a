"""The gates of the matcher for words that belong to a larger unit: a compound (the halves
of a hyphenated word: "half-Chinese", "black-clad"), a fixed phrase ("son of a bitch", "oh
man"), an interjection ("Man, relax"), a listed collocation ("black market", "old school"),
and the parts of an identity the list does not have ("Asian American"). Apart from the name
and grammar gates: each reads the unit around a candidate, not the candidate's role.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from textfair.terms import Term
from textfair.text import _context as context

if TYPE_CHECKING:
    from textfair.text.mentions import Mention

__all__ = [
    "WORDS",
    "WordReader",
    "heads_a_compound",
    "in_article_title",
    "in_collocation",
    "in_compound",
    "in_fixed_phrase",
    "in_no_collocation",
    "in_reference_list",
    "interjection",
    "pronoun_in_title",
    "where_a_place_goes",
    "without_unlisted_compounds",
]

WORDS = re.compile(r"[^\W\d_]+")  # letters only: cheaper than tokenizing, enough to compare
# A hyphen before a letter, compiled once (a pattern string is looked up in re's cache at
# every call).
_HYPHEN_LETTER = re.compile(r"-([^\W\d_])")


class WordReader(Protocol):
    """What a collocation check asks of a term list's words (`FormReader` answers)."""

    def is_identity_word(self, token: str) -> bool: ...

    def is_person_word(self, token: str) -> bool: ...


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


# Fixed phrases that are never identity mentions, whatever their words' classes say (issue
# 42: the general gates do the rest). Idioms and roles with a person noun
# in them ("the straight man" of a comedy duo, "your old lady" for a wife), insults and
# interjections built of gendered words, an intensifier ("a big old queen"; issue 56).
# Written by the textfair authors, MIT.
_FIXED_PHRASES = re.compile(
    r"\b(?:sons? of (?:a )?bitch(?:es)?|mother[ -]?fuck\w*|straw (?:wo)?m[ae]n|oh,? (?:man|boy)"
    r"|boy,? oh,? boy|man,? oh,? man|dumb blondes?|(?:bad|good) guys?"
    r"|(?:plays?|played|playing|as) (?:the|a) straight (?:wo)?m[ae]n"
    r"|(?:my|your|yo|ur|his|her|their|our) old (?:man|men|lady|ladies|bitch|girl|boy|woman)"
    r"|old farts?|big old|big ol')\b",
    re.IGNORECASE,
)


_FIXED_PHRASE_WORDS = frozenset(
    (
        "son sons mother straw man men woman women boy dumb blonde blondes straight old guy guys"
        " king queen"
    ).split()
)

# "man" with no determiner after a preposition is humankind, not a man: "the result of
# man", "made by man", "nature against man" (the Isle of Man and the Son of Man are no
# mention either); and "is king" said of a thing is the idiom for what rules ("content is
# king", "grossness is king"), not a monarch (issue 56, NOT_IDENTITY). A person said to be
# king ("Charles is king", "he was king") is no idiom. Written by the textfair authors, MIT.
_MANKIND = re.compile(r"\b(?:of|by|against)[ ]+man\b(?![-'’\w])", re.IGNORECASE)
_IS_KING = re.compile(
    r"\b([a-z][\w'’]*)[ ]+(?:is|was|remains|reigns)[ ]+(?:king|queen)\b(?![ ]+of\b)",
    re.IGNORECASE,
)


# An encyclopedia's article title: the series "<group> rights in <Country>" ("LGBT rights
# in Greece"), and a term in parentheses after a capitalised word, the way an article's
# title tells one sense from another ("Flamboyant (gay)"): a title, not people (issue 56).
_RIGHTS_IN = re.compile(r"[ \t]+rights[ \t]+in[ \t]+[A-Z]")
_DISAMBIGUATED = re.compile(r"[A-Z][\w\-]*[ \t]*\($")


# A term where the place one goes to stands, with at most one word before it and nothing
# after it in its clause but a vocative: "Should have went to central Catholic man", "she
# attended Catholic", "the screen went to black." A school's or a church's name (or a
# colour), not people: readers judged the swap NOT_IDENTITY (issue 56). "went to Catholic
# school", "goes to gay bars" go on to a noun, and are read as ever.
_TO_A_PLACE = re.compile(
    r"\b(?:(?:go|goes|going|gone|went)[ ]+to|attend|attends|attended|attending"
    r"|graduated[ ]+from)[ ]+(?:[A-Za-z]+[ ]+)?$",
    re.IGNORECASE,
)
_PLACE_ENDS = re.compile(r"(?:[ ]+(?:man|dude|bro|lol|haha))?[ ]*(?:[.!?,;:)\n]|$)", re.IGNORECASE)


def where_a_place_goes(text: str, start: int, end: int) -> bool:
    """The term ends a clause after "went to", "attended" (see `_TO_A_PLACE`): a place."""
    if _PLACE_ENDS.match(text, end) is None:
        return False  # most candidates: a word of the clause follows
    before = _TO_A_PLACE.search(text, max(0, start - 40), start)
    # "went to a gay", "goes to his Jewish": a noun left out, no name
    return before is not None and before.group().split()[-1].lower() not in _DETERMINING - {"the"}


def in_article_title(text: str, start: int, end: int) -> bool:
    """Inside an article's title: "LGBT rights in Greece", "Flamboyant (gay)", or a work's
    title in a list of references ("# The Muslim community of the Indo-Pakistan
    subcontinent, 610-1947; a brief historical analysis. by Ishtiaq Husain Qureshi")."""
    if _RIGHTS_IN.match(text, end) or in_reference_list(text, start, end):
        return True
    return text[end : end + 1] == ")" and bool(
        _DISAMBIGUATED.search(text, max(0, start - 40), start)
    )


# An item of a list (a "#", "*" or "•" opening a line, or after two spaces where a line
# break was lost) that ends on its author: "... analysis. by Ishtiaq Husain Qureshi" (issue 56,
# NOT_IDENTITY: a book's title).
_ITEM_MARK = re.compile(r"(?:^|\n|[ \t]{2})[ \t]*[#*•][ \t]+")
_BYLINE = re.compile(r"[.;,][ \t]*by[ \t]+[A-Z][a-z]+(?:[ \t]+[A-Z][\w.]*){1,3}")


def in_reference_list(text: str, start: int, end: int) -> bool:
    """Inside an item of a list of references, before its byline (`_BYLINE`)."""
    begin = max(0, start - 200)
    if "by" not in text[end : end + 200] or not any(c in text[begin:start] for c in "#*•"):
        return False  # most candidates
    if _ITEM_MARK.search(text, begin, start) is None:
        return False
    following = _ITEM_MARK.search(text, end)
    stop = following.start() if following else len(text)
    newline = text.find("\n", end, stop)
    if newline >= 0:
        stop = newline
    return _BYLINE.search(text, end, stop) is not None


def in_fixed_phrase(text: str, start: int, end: int) -> bool:
    """Inside a fixed phrase that names no identity: "son of a bitch", "oh man", "dumb
    blonde", "plays the straight man", "yo old bitch" (a former girlfriend)."""
    if text[start:end].lower() not in _FIXED_PHRASE_WORDS:
        return False  # most candidates: no phrase holds them
    begin = max(0, start - 30)
    if any(
        m.start() <= start and end <= m.end()
        for m in _FIXED_PHRASES.finditer(text, begin, min(len(text), end + 30))
    ):
        return True
    if _idiom_of_rule_or_kind(text, start, end, begin):
        return True
    # "the old man" for a father the text has just named ("the daughter of a speakeasy
    # owner/father ... After the old man dies"): the idiom, not an age (issue 56).
    old_man = _THE_OLD_MAN.match(text, max(0, start - 4))
    return (
        old_man is not None
        and old_man.start() <= start < old_man.end()
        and _FATHER.search(text, max(0, start - 200), start) is not None
    )


def _idiom_of_rule_or_kind(text: str, start: int, end: int, begin: int) -> bool:
    """ "the result of man" (humankind), "grossness is king" (what rules): see `_MANKIND`."""
    word = text[start:end].lower()
    if word == "man":
        found = _MANKIND.search(text, begin, min(len(text), end + 2))
        return found is not None and found.end() == end
    if word not in ("king", "queen"):
        return False
    found = _IS_KING.search(text, max(0, start - 40), min(len(text), end + 6))
    if found is None or found.end() != end:
        return False
    subject = found.group(1)
    lower = context.normalize_token(subject)
    if subject[:1].isupper() and (
        subject in context.first_names() or not context.is_sentence_initial(text, found.start())
    ):
        return False  # "Charles is king", "Elvis was king": a name
    return not (
        lower in context.SUBJECT_PRONOUNS or lower in _DETERMINING or context.is_person_noun(lower)
    )


_THE_OLD_MAN = re.compile(r"the old man\b", re.IGNORECASE)
_FATHER = re.compile(r"\b(?:father|dad|daddy|pa|pop)\b", re.IGNORECASE)


# Bare nouns that, set off by commas or opening a sentence before one, are interjections or
# vocatives: "Man, relax", "and, boy, was he in for it", "an 'acid' trip, man, where".
_INTERJECTION = re.compile(r"(?:^|[,.!?;:(]\s*|\boh\s+)(?:man|boy|dude)\s*[,!]", re.IGNORECASE)


_CLAUSE_END = re.compile(r"[ \t]*(?:[.!?]+|$)")
# Words that make a closing noun a person's noun: determiners, possessives, numbers.
_DETERMINING = frozenset(
    "a an the this that these those my your his her our their its one no every any some "
    "what such another".split()
)


# A greeting or thanks to whoever reads: "Hey guys thanks for following!" -> "Hey gals" (issue
# 56's second read of tweets, NOT_IDENTITY), not "you guys" said of a group.
_GREETING = re.compile(r"\b(?:hey|hi|hiya|hello|thanks|thank\s+you)[ \t]+$", re.IGNORECASE)


def interjection(text: str, start: int, end: int) -> bool:
    """A gendered noun used as an interjection or a vocative, not for a person: "Man,
    relax", ", boy, was he", "Should have went to central Catholic man", "Hey guys"."""
    word = text[start:end].lower()
    if word == "guys":
        return _GREETING.search(text, max(0, start - 12), start) is not None
    if word not in ("man", "boy", "dude"):
        return False
    begin = max(0, start - 6)
    match = _INTERJECTION.search(text, begin, min(len(text), end + 2))
    if match is not None and match.start() <= start and match.end() >= end:
        return True
    # Closing a sentence with no determiner before it: "Should have went to central
    # Catholic man", "that was sick dude!" (issue 56), not "He is a good man."
    if _CLAUSE_END.match(text, end) is None:
        return False
    before = [context.plain_token(t) for t in context.tokens_before(text, start, count=3)]
    before = [t for t in before if t.isalpha()]
    return bool(before) and not any(
        t in _DETERMINING or t in context.DETERMINERS for t in before[-2:]
    )


def in_collocation(
    text: str, start: int, end: int, reader: WordReader, lower: str | None = None
) -> bool:
    """Inside a collocation ("black market", "old school"). A coordination of two
    identity words before a person noun is not one: "black and white film" is, "black
    and white audiences" is not. Only a window around the candidate is scanned: a
    collocation that holds it cannot reach further than the longest phrase. `reader`: the
    list's words (identity and person words); `lower`: the text lowercased, when that keeps
    every character's place (scanned instead)."""
    if in_no_collocation(text[start:end]):
        return False
    reach = context.collocation_reach()
    window_end = min(len(text), end + reach)
    scanned, pattern = (
        (text, context.collocation_regex())
        if lower is None
        else (lower, context.collocation_regex(lowercase=True))
    )
    for match in pattern.finditer(scanned, max(0, start - reach), window_end):
        if not (match.start() <= start and end <= match.end()):
            continue
        if match.end() == window_end < len(text) and context.is_word(text[window_end]):
            continue  # the window cut a word: "(?![\w])" saw a false end
        words = re.split(r"[\s\-]+", text[match.start() : match.end()])
        if reader.is_identity_word(words[0]) and reader.is_identity_word(words[-1]):
            after = context.tokens_after(text, match.end(), count=1)
            if after and reader.is_person_word(after[0]):
                continue
        return True
    return False


@functools.lru_cache(maxsize=4096)  # a corpus writes its few hundred forms again and again
def in_no_collocation(surface: str) -> bool:
    """A candidate written `surface` lies inside no listed collocation, wherever it is: a
    collocation that holds it has each of its words (ASCII: the pattern's case-blind match
    is then plain lowercase; other text is scanned)."""
    return surface.isascii() and not context.collocation_words().issuperset(
        context.word_runs(surface)
    )


_HYPHENATED_IDENTITY_HEADS = frozenset({"american", "canadian"})


def without_unlisted_compounds(text: str, mentions: list[Mention]) -> list[Mention]:
    """Fix (find, but never rewrite) the parts of an identity the list does not have: "Asian
    American", "Italian Americans", "Iranian-Americans", "North American" (the list has
    "African American" as one term). Rewriting a part says something else ("Middle Eastern
    Middle Eastern", "Italian African Americans")."""
    fixed: set[int] = set()
    for i, (first, second) in enumerate(itertools.pairwise(mentions)):
        gap = text[first.end : second.start]
        if (
            first.category == second.category
            and gap in (" ", "-")
            and not first.possessive
            and second.term_id in _HYPHENATED_IDENTITY_HEADS
        ):
            fixed.update((i, i + 1))
    for i, mention in enumerate(mentions):
        if mention.term_id in _HYPHENATED_IDENTITY_HEADS and mention.start > 0:
            previous = WORDS.findall(text, max(0, mention.start - 30), mention.start)
            gap = text[: mention.start].rstrip(" -")
            if (
                previous
                and previous[-1][:1].isupper()
                and gap.endswith(previous[-1])
                and not context.is_sentence_initial(text, len(gap) - len(previous[-1]))
            ):
                fixed.add(i)
    return [replace(m, fixed=True) if i in fixed else m for i, m in enumerate(mentions)]


_WORD_BEFORE_PRONOUN = re.compile(r"([A-Za-z][\w'’]*)[ ]+$")
_WORD_AFTER_PRONOUN = re.compile(r"[ ]+([A-Za-z][\w'’]*)")


def pronoun_in_title(text: str, start: int, end: int) -> bool:
    """A pronoun capitalised inside a sentence, a capitalised word on each side: part of a
    title ("Over Her Dead Body was a nice little movie", "I liked Kiss Her Goodbye"). A
    sentence's words are capitalised only in names and titles, unless the writer capitalises
    every word (a text mostly in title case or in capitals: its capitals say nothing)."""
    if not _capitalised(text[start:end]) or context.is_sentence_initial(text, start):
        return False
    before = _WORD_BEFORE_PRONOUN.search(text, max(0, start - 40), start)
    after = _WORD_AFTER_PRONOUN.match(text, end)
    if not (before and after and _capitalised(before.group(1)) and _capitalised(after.group(1))):
        return False
    if after.group(1) == "I":
        return False
    return not _capitals_say_nothing(text)


def _capitalised(token: str) -> bool:
    """Written with a capital, not in capitals throughout ("Her"; not "HER")."""
    return token[:1].isupper() and not (len(token) > 1 and token.isupper())


@functools.lru_cache(maxsize=256)
def _capitals_say_nothing(text: str) -> bool:
    """Most of the text's letters are capitals (shouted), or most of its longer words start
    with one ("I Hate How He Talks To Me Every Day"): its capitals mark no title."""
    letters = sum(map(str.isalpha, text))
    if sum(map(str.isupper, text)) >= 0.3 * letters:
        return True
    words = [w for w in WORDS.findall(text) if len(w) > 3]
    return len(words) >= 5 and sum(w[:1].isupper() for w in words) >= 0.6 * len(words)
