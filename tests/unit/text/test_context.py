"""The words around a mention (textfair.text._context): token windows before and after a
position, normalised tokens, word classes, sentence starts, the shipped word lists, and the
patterns the matcher scans with (tries, lowercased texts, collocations)."""

import re

import pytest

from textfair.terms import read_data_words
from textfair.text import _context as context


def _at(text: str, word: str) -> tuple[int, int]:
    """The start and end of the last `word` in `text`."""
    start = text.rindex(word)
    return start, start + len(word)


# Token windows


def test_tokens_after_are_words_and_single_punctuation_marks_in_order():
    text = "Yesterday a devout Muslim man, said: hello-world! It's fine."
    _, end = _at(text, "Muslim")
    assert context.tokens_after(text, end) == ["man", ",", "said", ":"]
    assert context.tokens_after(text, end, count=9) == [
        "man", ",", "said", ":", "hello-world", "!", "It's", "fine", ".",
    ]  # fmt: skip


def test_tokens_before_are_the_last_ones_nearest_last():
    text = "Yesterday, a devout Muslim man"
    start, _ = _at(text, "Muslim")
    assert context.tokens_before(text, start) == [",", "a", "devout"]
    assert context.tokens_before(text, start, count=1) == ["devout"]
    assert context.tokens_before(text, 0) == []
    assert context.tokens_after(text, len(text)) == []


def test_a_word_the_window_cuts_in_half_is_dropped():
    text = "abcdefghij klm Muslim"
    start, _ = _at(text, "Muslim")
    # The window of 6 characters starts inside "abcdefghij": its "j" is no word of the text.
    assert context.tokens_before(text, start, window=6) == ["klm"]
    assert context.tokens_before(text, start, window=20) == ["abcdefghij", "klm"]


def test_the_window_after_reads_only_so_far():
    text = "Muslim " + "x " * 50 + "far"
    assert "far" not in context.tokens_after(text, 6, count=100, window=80)
    assert context.tokens_after(text, 6, count=100, window=200)[-1] == "far"


def test_words_keep_inner_apostrophes_and_hyphens_in_any_script():
    text = "Ünïcode wörds: Muslim’s café-goers, would-be's"
    assert context.tokens_after(text, 0, count=10) == [
        "Ünïcode", "wörds", ":", "Muslim’s", "café-goers", ",", "would-be's",
    ]  # fmt: skip


# Normalisation and word classes


@pytest.mark.parametrize(
    ("token", "plain", "normal"),
    [
        ("He’s", "he's", "he"),
        ("Muslim’s", "muslim's", "muslim"),
        ("Muslims'", "muslims'", "muslims"),
        ("MUSLIM", "muslim", "muslim"),
        ("boss", "boss", "boss"),
    ],
)
def test_tokens_are_lowercased_with_straight_apostrophes_and_no_possessive(token, plain, normal):
    assert context.plain_token(token) == plain
    assert context.normalize_token(token) == normal


def test_normalized_form_joins_words_with_single_spaces():
    assert context.normalized_form("African-American") == "african american"
    assert context.normalized_form("African   American") == "african american"


@pytest.mark.parametrize(
    ("token", "word", "content"),
    [
        ("man", True, True),
        ("Muslim", True, True),
        ("family", True, True),  # a noun in -ly
        ("quickly", True, False),  # an -ly adverb
        ("the", True, False),
        ("Their", True, False),
        ("42", True, False),
        ("!", False, False),
        ("é", True, True),
    ],
)
def test_word_and_content_word(token, word, content):
    assert context.is_word(token) is word
    assert context.is_content_word(token) is content


@pytest.mark.parametrize(
    ("text", "term", "follows"),
    [
        ("a Muslim man", "Muslim", True),
        ("a Muslim from Syria", "Muslim", False),
        ("a Muslim", "Muslim", False),
        ("Muslim and Christian leaders", "Muslim", True),  # coordination looked through
        ("a Muslim and a Christian", "Muslim", False),
        ("her car", "her", True),
        ("I saw her", "her", False),
        ("her quickly", "her", False),
    ],
)
def test_noun_follows(text, term, follows):
    _, end = _at(text, term)
    assert context.noun_follows(text, end) is follows


@pytest.mark.parametrize(
    ("token", "verb"),
    [
        ("spoke", True),
        ("says", True),
        ("wanted", True),
        ("Prayed", True),
        ("bed", False),  # a noun in -ed
        ("hundred", False),
        ("red", False),
        ("man", False),
        ("used", False),  # too short to be read as an -ed form
    ],
)
def test_looks_like_verb(token, verb):
    assert context.looks_like_verb(token) is verb


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("a Christian", True),
        ("the devout Catholic", True),
        ("every young Muslim", True),
        ("a devout young Muslim", True),  # two adjectives
        ("a big devout young Muslim", False),  # three are too many
        ("I'm Christian", False),
        ("Being Jewish", False),
        ("Muslim", False),
    ],
)
def test_determiner_before_across_up_to_two_adjectives(text, found):
    start, _ = _at(text, text.split()[-1])
    assert context.determiner_before(text, start) is found


@pytest.mark.parametrize(
    ("text", "initial"),
    [
        ("Muslim", True),
        ("Hi. Muslim", True),
        ("Hi! Muslim", True),
        ("Hi?  (Muslim", True),
        ('Hi. "Muslim', True),
        ("Hello! - 'Muslim", True),
        ("hi\nMuslim", True),
        ("hi\r\n\tMuslim", True),
        ("a Muslim", False),
        ('hi "Muslim', False),
        ("hi, Muslim", False),
        ("hi: Muslim", False),
    ],
)
def test_is_sentence_initial(text, initial):
    start, _ = _at(text, "Muslim")
    assert context.is_sentence_initial(text, start) is initial


# The shipped word lists


@pytest.mark.parametrize(
    ("word", "person"),
    [
        ("woman", True),
        ("women", True),
        ("troopers", True),
        ("ladies", True),  # -ies from lady
        ("bosses", True),  # -es from boss
        ("car", False),
        ("cars", False),
    ],
)
def test_person_nouns_singular_and_regular_plural(word, person):
    assert context.is_person_noun(word) is person


def test_the_name_lexicons():
    assert {"Jack", "Emily", "Christian"} <= context.first_names()
    assert {"Slater", "Black"} <= context.last_names()
    assert "Black" not in context.first_names()


# Patterns


def test_trie_pattern_matches_every_key_longest_first():
    pattern = re.compile(context.trie_pattern(["african", "african american", "as", "asian"]))
    assert [m.group() for m in pattern.finditer("african american, asian, as, african")] == [
        "african american",
        "asian",
        "as",
        "african",
    ]


def test_a_space_in_a_trie_key_matches_any_run_of_spaces_or_hyphens():
    pattern = re.compile(context.trie_pattern(["african american"]), re.IGNORECASE)
    text = "African-American, african american, African  American, African - American"
    assert [m.group() for m in pattern.finditer(text)] == [
        "African-American",
        "african american",
        "African  American",
        "African - American",
    ]
    assert pattern.search("africanamerican") is None


def test_a_trie_key_is_matched_literally():
    pattern = re.compile(context.trie_pattern(["a.b", "c+"]))
    assert pattern.findall("axb a.b cc c+") == ["a.b", "c+"]


def test_lower_in_place_keeps_offsets_or_says_none():
    assert context.lower_in_place("A MUSLIM Café") == "a muslim café"
    assert "İ".lower() == "i̇"  # two characters: a dotted i lowercases to i + a combining dot
    assert context.lower_in_place("İstanbul") is None
    assert context.lower_in_place("") == ""


def test_lower_exactly_refuses_letters_that_match_ascii_without_lowercasing_to_it():
    assert context.lower_exactly("MUSLIM") == "muslim"
    assert context.lower_exactly("Straße") == "straße"
    assert context.lower_exactly("ıslam") is None  # dotless i matches "i" ignoring case
    assert context.lower_exactly("ſikh") is None  # long s matches "s" ignoring case
    assert context.lower_exactly("İslam") is None


def test_a_case_blind_pattern_matches_at_the_texts_own_offsets():
    pattern = context.CaseBlindPattern(r"\bmuslim\b")
    assert [(m.start(), m.group()) for m in pattern.finditer("a MUSLIM, a Muslim")] == [
        (2, "muslim"),  # the lowercased copy was scanned
        (12, "muslim"),
    ]
    # "İ" lowercases to two characters: the text itself is scanned, ignoring case.
    assert [(m.start(), m.group()) for m in pattern.finditer("İ MUSLIM")] == [(2, "MUSLIM")]


def test_a_lowercase_pattern_matches_ascii_and_other_text_alike():
    pattern = context.LowercasePattern(r"\w+")
    assert [m.group() for m in pattern.finditer("café muslim")] == ["café", "muslim"]
    assert [m.group() for m in pattern.finditer("ab cd", 3)] == ["cd"]


def test_word_runs_split_at_every_non_word_character():
    assert context.word_runs("Jew's harp-Maker_x") == ["jew", "s", "harp", "maker", "x"]


def test_collocations_are_found_as_whole_words_in_any_case():
    text = "the black market, OLD SCHOOL music and blackmarket"
    assert [m.group() for m in context.collocation_regex().finditer(text)] == [
        "black market",
        "OLD SCHOOL",
    ]
    lower = context.collocation_regex(lowercase=True)
    assert [m.group() for m in lower.finditer(text.lower())] == ["black market", "old school"]
    assert {"black", "market", "old", "school"} <= context.collocation_words()
    longest = max(len(phrase) for phrase in read_data_words("collocations.txt"))
    assert context.collocation_reach() == 2 * longest + 8
