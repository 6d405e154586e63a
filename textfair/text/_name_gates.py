"""The gates of the matcher that read names and titles: a candidate that is part of a
person's name ("Jack Black", "Mr Christian", "Christian G. Fritz"), heads an
organisation's name or a title ("Catholic Church", "No Country for Old Men", "'An American
in Paris'"), or is a first name used as one ("Emily", not "the Book of Daniel"). Apart
from the other gates: each reads capitals and the name lexicons around a candidate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache

from textfair.terms import Term, normalize_form
from textfair.terms.pairs import PRONOUNS
from textfair.text import _address_gates as address_gates
from textfair.text import _context as context
from textfair.text import _phrase_gates as phrase_gates
from textfair.text._name_titles import (
    GLUE_WORDS,
    TITLE_GLUE,
    TITLE_WORD,
    ends_a_title,
    in_title_list,
)
from textfair.text._phrase_gates import WORDS

__all__ = [
    "CAPITALISED_RUN_AFTER",
    "CAPITALISED_RUN_BEFORE",
    "after_honorific",
    "before_initial",
    "capitalised",
    "capitalised_mid_sentence",
    "first_name_at",
    "gendered_word_at",
    "given_name_at",
    "heads_a_name",
    "in_capitals_run",
    "in_quoted_title",
    "in_title",
    "in_title_list",
    "is_name",
    "name_kind",
    "names_a_thing_at",
]

# A run of capitalised words, which may hold short lowercase words as titles do:
# "No Country for Old Men", "American Association for the Advancement of Science".
_TITLE_WORD = TITLE_WORD
_TITLE_GLUE = TITLE_GLUE
CAPITALISED_RUN_BEFORE = re.compile(rf"(?:{_TITLE_WORD}[ ]+{_TITLE_GLUE})+$")
CAPITALISED_RUN_AFTER = re.compile(rf"(?:[ ]+{_TITLE_GLUE}{_TITLE_WORD})+")

# Patterns of the gates compiled once (a pattern string is looked up in re's cache at
# every call): the word joined after a term, a middle initial.
_NEXT_JOINED_WORD = re.compile(r"(?:[ ]+|-)([A-Za-z][\w'’]*)")
_MIDDLE_INITIAL = re.compile(r" [A-Z]\. ?[A-Z]")


def capitalised(token: str) -> bool:
    """Written with a capital, not in capitals throughout ("Old", "A"; not "OLD")."""
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
    if after and after[0] == "/":
        # "Catholic/Orthodox Chuch": the name goes on past the pair's second word (read
        # NOT_IDENTITY in issue 56's gold set: "Buddhist/Orthodox Chuch").
        pair = context.tokens_after(text, end, count=4)
        after = pair[2:] if len(pair) > 2 and pair[1][:1].isupper() else []
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


_PERSON_PRONOUNS = frozenset(
    "i me you he him she her we us they them who whom one someone somebody everyone "
    "everybody anyone anybody nobody myself yourself himself herself ourselves themselves "
    "i'm im you're youre he's hes she's shes we're they're theyre".split()
)


_QUOTED = re.compile(r"(?:``|''|[\"“”'‘’])([^\"“”`'‘’\n]{3,80})(?:''|``|[\"“”'‘’])")


_QUOTE_MARK = re.compile("[\"“”'‘’`](?:The|An?) ")


def in_quoted_title(text: str, start: int, end: int) -> bool:
    """Inside a short quotation that is a title, not speech: three to six words, the
    first an article with a capital ("'The old home guard'", "'An American in Paris'"), no
    comma, no verb, no sentence end; or two to six words, every one but the short ones of
    a title capitalised ("\"Young Americans\"", "\"Old Yeller\"": issue 56)."""
    begin = max(0, start - 80)
    if _QUOTE_MARK.search(text, begin, start) is None:  # a quote opening on an article
        return _quoted_title_case(text, start, end)
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


def in_title(text: str, start: int, end: int, is_identity_word: Callable[[str], bool]) -> bool:
    """Inside a run of capitalised words with three or more that are not terms:
    a title or a name ("No Country For Old Men", "Wet Hot American Summer")."""
    if not capitalised(text[start:end]):
        return False
    left = CAPITALISED_RUN_BEFORE.search(text, max(0, start - 120), start)
    right = CAPITALISED_RUN_AFTER.match(text, end)
    run_start = left.start() if left else start
    words = [
        word for part in (left, right) if part for word in part.group().split() if word[0].isupper()
    ]
    if words and context.is_sentence_initial(text, run_start):
        words = words[1:]  # a sentence's first word is capitalised anyway
    elif (
        left
        and left.group().split() in (["The"], ["A"], ["An"])
        and _WORD_BEFORE.search(text, max(0, run_start - 30), run_start)
    ):
        # "Did you see The Young and the Restless": an article capitalised after a word
        # of the sentence, right before the term, opens a title (issue 56).
        return True
    return sum(not is_identity_word(w) for w in words) >= 2


_GLUE_WORDS = GLUE_WORDS


def _quoted_title_case(text: str, start: int, end: int) -> bool:
    """Inside a quotation of two to six words written in title case, the term's among them
    ("\"Young Americans\"", "'Rich Dad Poor Dad'"), closed with no sentence punctuation
    inside: a title; a quoted sentence ("\"Young people never listen\"") is not."""
    if not capitalised(text[start:end]) or text[start - 1 : start] == "-":
        return False  # "``Afro-European American``": a compound label, no title
    for match in _QUOTED.finditer(text, max(0, start - 62), min(len(text), end + 62)):
        if not (match.start(1) <= start and end <= match.end(1)):
            continue
        inside = match.group(1)
        words = inside.split()
        if not 2 <= len(words) <= 6 or any(mark in inside for mark in ",.!?;:"):
            return False
        if match.end() < len(text) and text[match.end()].isalpha():
            return False  # an apostrophe inside a word ("aren't")
        if len(words) == 2 and all(
            w in context.first_names() or w in context.last_names() for w in words
        ):
            return False  # "``Ellie Mae``", "'Jack Black'": a person's name in quotes
        return all(capitalised(w) or w in _GLUE_WORDS for w in words[1:]) and capitalised(words[0])
    return False


_WORD_BEFORE = re.compile(r"[a-z][a-z]+[ ]+$")
_VERSE = re.compile(r"[A-Z][a-z]+\s+\d+\s*:\s*\d")
_PLACE_OR_SAINT = frozenset("st saint virgin mount mt lake fort port san santa".split())


def first_name_at(text: str, start: int, forms: Mapping[str, tuple[Term, str, str]]) -> bool:
    """A capitalised first name, not a surname after another first name ("James Taylor"):
    `forms` are the list's, by normalised form (a first name of its names before)."""
    if not text[start].isupper() or address_gates.in_url(text, start):
        return False
    if _VERSE.match(text, start):
        return False  # "Daniel 9:24", "John 3:16": a book of the Bible, not a person
    before = context.tokens_before(text, start, count=2)
    if before[-1:] == ["."] and len(before) == 2 and before[0].lower() in ("st", "mt"):
        return False  # "St. Mary of the Visitation"
    if before and before[-1].lower() in _PLACE_OR_SAINT:
        return False  # "Virgin Mary", "Lake Tahoe"
    before = before[-1:]
    if before and before[0][:1].isupper():
        found = forms.get(normalize_form(before[0]))
        if (found and found[0].names) or before[0] in context.first_names():
            return False
    return True


_SINGULAR_VERBS = frozenset(
    "is was has does says said thinks wants seems keeps isn't wasn't doesn't".split()
)


def given_name_at(text: str, start: int, end: int, term: Term) -> bool:
    """A term that is also a first name used as one: before a middle initial ("Christian G.
    Fritz"), or a bare singular subject with no determiner ("Christian is always bleating":
    the noun needs one, "a Christian is")."""
    if before_initial(text, end):
        return True
    if text[start:end] != term.text or not text[start].isupper():
        return False
    before = context.tokens_before(text, start, count=1)
    if before and (
        context.normalize_token(before[0]) in context.DETERMINERS or context.is_word(before[0])
    ):
        return False
    after = context.tokens_after(text, end, count=1)
    return bool(after) and context.plain_token(after[0]) in _SINGULAR_VERBS


_SURNAME_PREFIXES = frozenset("mc mac o van von de".split())
# A possessive that ends its clause: after "by", a firm's name (issue 56, NOT_IDENTITY).
_FIRM = re.compile(r"['’]s[ \t]*(?:[.!?,;:)\n]|$)")


def names_a_thing_at(text: str, start: int, end: int) -> bool:
    """A first name that is part of a surname ("mc Donald's"), of a named thing after
    "the" ("the Russell Tribunal", "THE JERRY SPRINGER SHOW"), of a title ("Sabrina the
    Teenage Witch", "the Book of Daniel", in capitals, or in quotes), or of a fixed
    phrase."""
    before = context.tokens_before(text, start, count=1)
    if before and context.normalize_token(before[0]) in _SURNAME_PREFIXES | {"the"}:
        return True
    if before and context.normalize_token(before[0]) == "by" and _FIRM.match(text, end):
        return True  # "the famous snack cake by Drake's!": a firm, not "by Milverton's acts"
    if _JOINED_AFTER.match(text, end) or (start and text[start - 1] in _JOINED_BEFORE):
        return True  # "Todd-AO", "Dave1185", "Paul|" (a signature link), "User:Paul", "/Paul"
    if address_gates.in_username(text, start) or _in_short_quote(text, start, end):
        return True  # "User talk:Dan", "'Something about Mary'"
    if address_gates.signs_the_text(text, start, end):
        return True  # "...    Dylan Hunt": a signature
    if _TITLED_NAME.match(text, end):
        return True  # "Sabrina the Teenage Witch", "Alexander the Great": a title
    if _NAMED_THING.match(text, end):
        return True  # "a Black Martin Guitar", "Sarah Jane Adventures": a thing's name
    if in_title_list(text, start, end):
        return True  # "Comedies I hated: Evan Almighty, The Brothers Solomon, Good Luck Chuck"
    if ends_a_title(text, start):
        return True  # "the musical Sunday in the Park with George"
    heading = _NAME_OF.search(text, max(0, start - 40), start)
    if (
        heading
        and heading.group(1) not in context.first_names()
        and not context.is_sentence_initial(text, heading.start(1))
    ):
        return True  # "the Book of Daniel", "Holy Name of Mary College": a title
    return (
        in_capitals_run(text, start, end)
        or in_quoted_title(text, start, end)
        or phrase_gates.in_fixed_phrase(text, start, end)
    )


_TITLED_NAME = re.compile(r"[ ]+the[ ]+[A-Z][a-z]")
# A name heading the name of a thing: at most one more capitalised word, then a noun that
# names a product, a show or an institution, and is no common surname (not "Hall", "Park",
# "Street": "Mary Hall said"; issue 56, NOT_IDENTITY).
_NAMED_THING = re.compile(
    r"(?:[ ]+[A-Z][a-z]+)?[ ]+(?:Guitars?|Adventures|Chronicles|Diaries|Show|Hour|Files"
    r"|Records|Foundation|Institute|Museum|Awards?|Prize|Trophy|Stadium|Hospital|University"
    r"|College|Academy|Airport|Avenue|Boulevard|Restaurant|Hotel|Company|Corporation)\b"
)
# A name joined to more: a hyphen or a slash ("Todd-AO", "Gamaliel/Raul654"), digits
# ("Dave1185", "Dave 1185"), a wiki link's bar or brackets ("Paul|", "[[Paul]]"); or after a
# namespace or path ("User:Paul").
_JOINED_AFTER = re.compile(r"[-/]\w|[ _]?\d|\||\]\]")
_JOINED_BEFORE = frozenset("-:/|_[")
# A quotation of at most six words around a name, opening on a capital, with no sentence
# punctuation inside but at its end: a title ("'Something about Mary'", "\"Annie Hall\"",
# the new "Alexander." for a film); a quotation the text ends in without closing it is one
# too (`Except for the new "Alexander.`: issue 56, NOT_IDENTITY).
_SHORT_QUOTE = re.compile(
    r"[\"“‘']([A-Z][^\"“”‘’'.!?;:,\n]{0,60})(?:[.,!?]?[\"”’']|(?P<unclosed>[.!?]*[ \t]*$))"
)


def _in_short_quote(text: str, start: int, end: int) -> bool:
    """The name is inside a short quoted title (see _SHORT_QUOTE)."""
    for match in _SHORT_QUOTE.finditer(text, max(0, start - 62), min(len(text), end + 62)):
        if match.start(1) <= start and end <= match.end(1):
            after = match.end()
            if match.group("unclosed") is not None and text[after:].strip():
                return False  # the window ended, not the text
            # A closing mark followed by a letter is an apostrophe inside a word.
            return len(match.group(1).split()) <= 6 and not (
                after < len(text) and text[after].isalpha()
            )
    return False


_NAME_OF = re.compile(r"\b([A-Z][a-z]+)[ ]+of[ ]+$")


def gendered_word_at(text: str, start: int, end: int) -> bool:
    """A gendered word that stands for a person. A noun capitalised inside a sentence is a
    name or a title ("Stephen King", "the Third Man", "The Lady from Shanghai", "than
    Prince"); pronouns are always words ("His message")."""
    if address_gates.in_url(text, start):
        return False
    word = text[start:end]
    if word.lower() in PRONOUNS:
        return not phrase_gates.pronoun_in_title(text, start, end)
    if not word[:1].isupper() or word.isupper():
        return True
    if _ROLE_BEFORE.search(text, max(0, start - 40), start) and not CAPITALISED_RUN_AFTER.match(
        text, end
    ):
        return True  # "the scheming Duchess": a role; not "the page Boy in Da Corner"
    return context.is_sentence_initial(text, start) and not (start > 0 and text[start - 1] == "-")


# An article and a lowercase adjective before a capitalised noun: a role, not a name ("as
# the scheming Duchess"; "the Third Man", "Stephen King" stay names).
_ROLE_BEFORE = re.compile(r"\b(?:the|a|an)[ ]+[a-z][a-z\-]*[ ]+$")
