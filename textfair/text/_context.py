"""Looking at the words around a mention: tokens, word classes and shipped word lists.

The matcher's context gates and the rewriter's grammar decisions ("her" -> "his" or "him",
"a Muslim" noun or adjective) need the few words before and after a position. They are read
with nltk's ``RegexpTokenizer``, which needs no downloaded data, on a small window of the text.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache

from textfair.core.words import word_regex
from textfair.terms import normalize_form, read_data_words

# Function words: when one of these follows a word, that word is not modifying a noun.
FUNCTION_WORDS = frozenset(
    """
    a an the this that these those some any no every each all both either neither and or but
    nor so yet for because although though if unless while whereas of in on at to from by
    with without about above below under over into onto upon through during before after
    since until than as like near between among against across around behind beside besides
    beyond inside outside toward towards via per i me my mine myself you your yours yourself
    we us our ours ourselves they them their theirs themselves he him his himself she her
    hers herself it its itself who whom whose which what where when why how whoever whatever
    is am are was were be been being do does did doing done have has had having will would
    shall should can could may might must ought not never also too very just only even still
    already again ever soon then there here now today tonight tomorrow yesterday always
    often sometimes usually really quite rather enough almost much more most less least such
    same other another yes okay ok please thanks up down out off away back
    """.split()
)

# Nouns that end in -ly, so "her family" keeps "her" as a determiner.
_LY_NOUNS = frozenset(
    """
    family ally belly bully lily jelly rally reply supply assembly anomaly monopoly italy
    folly holly melancholy homily butterfly fly
    """.split()
)

DETERMINERS = frozenset(
    "a an the one every each this that another any no my your his her its our their".split()
)
SUBJECT_PRONOUNS = frozenset("i you he she we they who".split())
# Copulas and linking verbs: "he is old", "she seems young", "they became older".
COPULAS = frozenset(
    "am is are was were be been being seem seems seemed look looks looked feel feels felt "
    "become becomes became grow grows grew get gets got".split()
)
MODALS = frozenset("may might will would can could should must".split())
COORDINATORS = frozenset(["and", "or", "&"])
# Contracted pronoun+copula tokens, written with a straight apostrophe (see `normalize_token`).
COPULA_CONTRACTIONS = frozenset(
    """
    i'm you're he's she's we're they're who's im youre hes shes theyre
    """.split()
)
# Words allowed between a copula and the term: "he is not black", "I am very old".
# ("mad", "hella": slang for "very", as in "it is mad gay", a pejorative of a thing; issue 56)
DEGREE_WORDS = frozenset(
    """
    not also very too so really all both quite just still getting
    mad hella totally extremely
    """.split()
)

# Words keep inner apostrophes and hyphens ("man's", "would-be"); punctuation is one token.
_TOKENIZER_PATTERN = r"\w+(?:['’\-]\w+)*|[^\w\s]"
_WORD = re.compile(r"\w")


# On ASCII text the standard engine with ASCII classes gives the `regex` engine's tokens
# (its \w and \s are then the ASCII ones; "\x1c" is no space to either) 40% faster.
_ASCII_TOKENIZER = re.compile(_TOKENIZER_PATTERN, re.ASCII)


def _tokens(text: str) -> list[str]:
    """The tokens of nltk's RegexpTokenizer with this pattern (its `findall`, without the
    tokenizer's per-call checks: a gate asks thousands of times per corpus)."""
    if text.isascii():
        return _ASCII_TOKENIZER.findall(text)
    return word_regex(_TOKENIZER_PATTERN).findall(text)


def tokens_after(text: str, end: int, count: int = 4, window: int = 80) -> list[str]:
    """The first `count` tokens (words or single punctuation marks) after position `end`."""
    return list(_window_after(text, end, window)[:count])


def tokens_before(text: str, start: int, count: int = 3, window: int = 60) -> list[str]:
    """The last `count` tokens before position `start`, nearest last."""
    return list(_window_before(text, start, window)[-count:])


# The gates of one candidate ask about the same positions a dozen times; tokenizing each
# window once per (text, position) keeps matching cheap next to the model. A text's hash is
# computed once by Python and kept, so a lookup costs no rescan of the text.
@lru_cache(maxsize=8192)
def _window_after(text: str, end: int, window: int) -> tuple[str, ...]:
    return tuple(_tokens(text[end : end + window]))


@lru_cache(maxsize=8192)
def _window_before(text: str, start: int, window: int) -> tuple[str, ...]:
    begin = max(0, start - window)
    tokens = _tokens(text[begin:start])
    # A window that cuts a word in half would yield a fragment; drop it.
    if begin > 0 and tokens and _WORD.match(text[begin - 1]) and text.startswith(tokens[0], begin):
        tokens = tokens[1:]
    return tuple(tokens)


# The gates ask about the same few thousand words tens of thousands of times per corpus
# ("the", "and", "people"): these pure word functions remember their answers, a cache hit
# costing a fraction of recomputing them.
_WORD_CACHE = 4096  # the bundled comments ask about 1,300 distinct words at most


@lru_cache(maxsize=_WORD_CACHE)
def plain_token(token: str) -> str:
    """Lowercase with straight apostrophes ("He’s" -> "he's")."""
    return token.lower().replace("’", "'")


@lru_cache(maxsize=_WORD_CACHE)
def normalize_token(token: str) -> str:
    """Lowercase, straighten curly apostrophes and drop a possessive, for list lookups."""
    lower = plain_token(token)
    if lower.endswith("'s"):
        return lower[:-2]
    return lower[:-1] if lower.endswith("'") else lower


# `normalize_form` of a written form, remembered: a corpus writes the few hundred forms of
# a list's terms and words thousands of times, and each scan (matcher, coherence words,
# merges) looks every match up by its normalized form.
normalized_form = lru_cache(maxsize=_WORD_CACHE)(normalize_form)


def is_word(token: str) -> bool:
    """True for a word token, False for punctuation."""
    return bool(_WORD.match(token))


@lru_cache(maxsize=_WORD_CACHE)
def is_content_word(token: str) -> bool:
    """A word that can be a noun or adjective: not a function word, not an -ly adverb."""
    if not is_word(token) or token.isdigit():
        return False
    lower = normalize_token(token)
    if lower in FUNCTION_WORDS:
        return False
    return not (lower.endswith("ly") and lower not in _LY_NOUNS)


def noun_follows(text: str, end: int) -> bool:
    """Guess whether the word ending at `end` is followed by the noun it modifies.

    Used where a word is either a determiner/adjective or stands alone: "her car" vs "saw her",
    "a Muslim man" vs "a Muslim from Syria". Coordination is looked through once:
    "Muslim and Christian leaders" modifies "leaders"; "a Muslim and a Christian" does not.
    """
    after = tokens_after(text, end, count=4)
    if not after:
        return False
    first = normalize_token(after[0])
    if first in ("and", "or") and len(after) >= 3 and is_content_word(after[1]):
        return is_content_word(after[2])
    return is_content_word(after[0])


# Frequent verbs that do not end in -ed: "A Muslim spoke", "a Christian said".
COMMON_VERBS = frozenset(
    """
    said says say spoke speaks speak went goes go came comes come made makes make took takes
    gave gives saw sees knew knows thought thinks told tells wrote writes left leaves got gets
    became becomes found finds felt feels ran runs sat sits stood stands met meets brought
    brings began begins kept keeps held holds won wins lost loses paid pays sent sends built
    builds fought fights taught teaches bought buys caught catches sold sells heard hears
    believe believes want wants like likes hate hates love loves need needs live lives pray
    prays claim claims seem seems tend tends
    """.split()
)
_ED_NOUNS = frozenset("bed red hundred need seed speed breed creed greed feed shed sled".split())


@lru_cache(maxsize=_WORD_CACHE)
def looks_like_verb(token: str) -> bool:
    """A frequent verb or an -ed form ("spoke", "wanted"): not a noun that a term modifies."""
    lower = normalize_token(token)
    return lower in COMMON_VERBS or (
        len(lower) > 4 and lower.endswith("ed") and lower not in _ED_NOUNS
    )


def determiner_before(text: str, start: int) -> bool:
    """A determiner before the word at `start`, across up to two adjectives.

    "a Christian", "the devout Catholic", "every young Muslim" are nouns if nothing follows;
    "I'm Christian" or "Being Jewish" have no determiner: predicate adjectives.
    """
    for skipped, token in enumerate(reversed(tokens_before(text, start, count=3))):
        if normalize_token(token) in DETERMINERS:
            return True
        if skipped == 2 or not is_content_word(token) or plain_token(token) in COPULA_CONTRACTIONS:
            return False
    return False


def is_sentence_initial(text: str, start: int) -> bool:
    """True when `start` begins a sentence: text start, after . ! ? or a line break."""
    index = start - 1
    while index >= 0 and text[index] in " \t\"“‘'([*=-":
        index -= 1
    return index < 0 or text[index] in ".!?\n\r"


@cache
def person_nouns() -> frozenset[str]:
    """Person and group nouns of the context gate (term_lists/person_nouns.txt)."""
    return frozenset(word.lower() for word in read_data_words("person_nouns.txt"))


@lru_cache(maxsize=_WORD_CACHE)
def is_person_noun(word: str) -> bool:
    """True for a person or group noun, singular or regular plural ("troopers", "ladies")."""
    nouns = person_nouns()
    if word in nouns:
        return True
    if word.endswith("ies") and word[:-3] + "y" in nouns:
        return True
    if word.endswith("es") and word[:-2] in nouns:
        return True
    return word.endswith("s") and word[:-1] in nouns


@cache
def first_names() -> frozenset[str]:
    """First names (CheckList), to tell "Jack Black" from "black"."""
    return frozenset(read_data_words("first_names.txt"))


@cache
def last_names() -> frozenset[str]:
    """Last names (CheckList), to tell "Christian Slater" from "Christian"."""
    return frozenset(read_data_words("last_names.txt"))


def trie_pattern(keys: Iterable[str]) -> str:
    """A regex matching every key, longest first, built as a prefix trie.

    One compiled trie scans a text once, however many keys there are. A space inside a key
    matches any run of spaces or hyphens ("african american" matches "African-American").
    """
    root: dict = {}
    for key in keys:
        node = root
        for char in key:
            node = node.setdefault(char, {})
        node[""] = {}
    return _trie_node(root)


def _trie_node(node: dict) -> str:
    # Keys are distinct, so sorting the items compares only characters ("" ends a key).
    branches = [
        _trie_piece(char) + _trie_node(child) for char, child in sorted(node.items()) if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    # A key also ends here: the longer continuation is optional, and greedy, so tried first.
    return f"(?:{body})?" if "" in node else body


@cache
def _trie_piece(char: str) -> str:
    """What one character of a key matches: itself, or any run of spaces or hyphens for a
    space. Remembered: an audit's tries (matcher, coherence words, merges) have thousands of
    nodes over a few dozen characters."""
    return r"[\s\-]+" if char == " " else re.escape(char)


@cache
def collocation_reach() -> int:
    """How far a collocation can extend past a word inside it: its longest phrase, with room
    for runs of spaces between its words."""
    phrases = read_data_words("collocations.txt")
    return 2 * max(len(phrase) for phrase in phrases) + 8


@cache
def collocation_words() -> frozenset[str]:
    """Every word of a listed collocation, lowercased and split at any non-word character
    ("jew's harp": jew, s, harp): a candidate with a word outside this set lies inside none
    of them, and needs no scan (`collocation_regex`)."""
    return frozenset(
        word for phrase in read_data_words("collocations.txt") for word in word_runs(phrase)
    )


class LowercasePattern:
    """A pattern for a text lowercased in place (`lower_in_place`), compiled twice: on an
    ASCII text, where ``\\w``, ``\\s`` and ``\\d`` mean what they mean in any text, the
    ASCII-only twin finds the same matches 10-15% faster (a Unicode class is looked up per
    character, and a trie's lookbehind asks at every character)."""

    def __init__(self, source: str) -> None:
        self._unicode = re.compile(source)
        self._ascii = re.compile(source, re.ASCII)

    def finditer(
        self, lower: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        """The matches in `lower` (between `pos` and `endpos`), as `re.Pattern.finditer`."""
        return (self._ascii if lower.isascii() else self._unicode).finditer(lower, pos, endpos)


class CaseBlindPattern:
    """A pattern matched ignoring case, the fast way: where lowercasing keeps every character
    in its place (`lower_in_place`), its lowercase twin (`LowercasePattern`) scans the
    lowercased text, about twice as fast as ignoring case, at the text's own offsets;
    elsewhere ("İ") the case-blind pattern scans the text. The matcher, the coherence words
    and the no-merge words all scan this way."""

    def __init__(self, source: str) -> None:
        self._blind = re.compile(source, re.IGNORECASE)
        self._lower = LowercasePattern(source)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches in `text` (of its lowercased copy where that keeps the offsets: a
        match's groups are then lowercase)."""
        lower = lower_in_place(text)
        return self._blind.finditer(text) if lower is None else self._lower.finditer(lower)


def lower_in_place(text: str) -> str | None:
    """`text` lowercased, when that keeps every character in its place (None when a character
    lowercases to more than one: "İ"). A lowercase pattern then matches it at the text's own
    offsets, about twice as fast as the case-blind pattern matches the text."""
    lower = text.lower()
    return lower if len(lower) == len(text) else None


def lower_exactly(text: str) -> str | None:
    """`text` lowercased, where a pattern of lowercase ASCII letters matches it just where
    the pattern ignoring case matches `text` (None elsewhere): every character keeps its
    place (`lower_in_place`), and none is one that matches an ASCII letter ignoring case
    without lowercasing to it ("ı" matches "i", "ſ" matches "s")."""
    lower = lower_in_place(text)
    if lower is None or (not text.isascii() and ("ı" in text or "ſ" in text)):
        return None
    return lower


_WORD_RUN = re.compile(r"[^\W_]+")


def word_runs(text: str) -> list[str]:
    """The runs of word characters in `text`, lowercased ("Jew's" -> jew, s)."""
    return _WORD_RUN.findall(text.lower())


@cache
def collocation_regex(lowercase: bool = False) -> re.Pattern[str] | LowercasePattern:
    """Collocations that are never identity mentions (term_lists/collocations.txt).

    With `lowercase`, the pattern for a lowercased text (`LowercasePattern`): case-blind
    matching of a large alternation is about twice as slow as matching the text lowercased
    (the phrases are)."""
    phrases = {normalize_form(phrase) for phrase in read_data_words("collocations.txt")}
    source = r"(?<![\w])" + trie_pattern(phrases) + r"(?![\w])"
    return LowercasePattern(source) if lowercase else re.compile(source, re.IGNORECASE)


_SENTENCE_ENDS = ".!?\n"
_SENTENCE_END = re.compile(f"[{re.escape(_SENTENCE_ENDS)}]")


def sentence_of(text: str, position: int) -> tuple[int, int]:
    """The (start, end) of the sentence of `text` holding `position`: between the sentence
    ends (".", "!", "?", a line break) around it. The start is found looking back from
    `position` (a scan from the text's start made a text's readings quadratic in its
    mentions)."""
    start = max(text.rfind(end, 0, position) for end in _SENTENCE_ENDS) + 1
    end = _SENTENCE_END.search(text, position)
    return start, end.start() if end else len(text)
