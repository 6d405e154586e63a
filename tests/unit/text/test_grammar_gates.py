"""The matcher's grammar gates (textfair.text._grammar_gates): whether a candidate is a
predicate ("he is old"), modifies the next word ("a Muslim man"), stands for people ("the
elderly", "the poor have"), is read in a degree ("too young"), or describes no person ("it
isn't cute", "a huge fan", "poor Phyllis")."""

from dataclasses import replace

import pytest

from textfair.terms import load_term_list
from textfair.text import _grammar_gates as grammar_gates

DIXON = load_term_list("dixon2018")
HOLISTIC = load_term_list("holistic")


def _span(text: str, word: str) -> tuple[int, int]:
    start = text.rindex(word)
    return start, start + len(word)


@pytest.mark.parametrize(
    ("before", "predicate"),
    [
        (["he", "is"], True),
        (["i'm"], True),
        (["she", "may", "be"], True),
        (["she", "seems"], True),
        (["we", "became"], True),
        (["they", "are", "not"], True),
        (["he", "is", "very"], True),
        (["who", "is"], True),
        (["to", "be"], True),
        (["being"], True),
        (["isn't"], True),
        (["the", "man", "is"], False),  # a noun subject: the list's own gates decide
        (["it", "is"], False),
        (["seems"], False),  # no subject
        (["very"], False),
        ([], False),
    ],
)
def test_is_predicate(before, predicate):
    assert grammar_gates.is_predicate(before) is predicate


@pytest.mark.parametrize(
    ("text", "word", "degree"),
    [
        ("too young to vote", "young", True),
        ("Too young", "young", True),
        ("a very old man", "old", True),
        ("How old are you", "old", True),
        ("old enough to vote", "old", True),
        ("older than me", "older", True),
        ("an old man", "old", False),
    ],
)
def test_gradable_context(text, word, degree):
    start, end = _span(text, word)
    assert grammar_gates.gradable_context(text, start, end) is degree


@pytest.mark.parametrize(
    ("text", "word", "modifies"),
    [
        ("a Muslim man", "Muslim", True),
        ("a Muslim boss", "Muslim", True),  # a singular in -ss
        ("Muslim and Christian leaders", "Muslim", True),
        ("the claim that Christian missionaries lie", "Christian", True),  # "that": a conjunction
        ("A Muslim spoke", "Muslim", False),  # a verb follows: a noun
        ("a Muslim says", "Muslim", False),
        ("a Muslim wanted", "Muslim", False),
        ("a Christian missionaries", "Christian", False),  # a singular determiner, a plural
        ("a Muslim", "Muslim", False),
    ],
)
def test_modifies_next(text, word, modifies):
    start, end = _span(text, word)
    assert grammar_gates.modifies_next(text, start, end) is modifies


@pytest.mark.parametrize(
    ("text", "word", "collective"),
    [
        ("the elderly", "elderly", True),
        ("the elderly.", "elderly", True),
        ("the elderly and the sick", "elderly", True),
        ("the young who vote", "young", True),
        ("the elderly have", "elderly", True),
        ("women, children and elderly", "elderly", True),  # listed with person nouns
        ("the young man", "young", False),
        ("the old, and", "old", False),
        ("the old & wise", "old", False),
        ("the old 'n wise con", "old", False),  # a coordination of adjectives
        ("an elderly", "elderly", False),
    ],
)
def test_is_collective(text, word, collective):
    start, end = _span(text, word)
    assert grammar_gates.is_collective(text, start, end) is collective


@pytest.mark.parametrize(
    ("text", "word", "thing"),
    [
        ("It isn't funny, isn't cute", "cute", True),  # the subject of the copula before
        ("that was gay", "gay", True),
        ("it's so gay", "gay", True),
        ("that's gay", "gay", True),
        ("it is not gay", "gay", True),
        ("it will be gay", "gay", True),
        ("which is Catholic", "Catholic", True),
        ("he is gay", "gay", False),
        ("He said it, he is gay", "gay", False),
        ("It isn't funny. He is gay", "gay", False),  # the sentence ended
        ("her entire tribe became Muslim", "Muslim", False),  # a noun may be people
        ("PS - your TV interests are gay", "gay", True),  # a noun for no person (issue 56)
        ("PS - your TV friends are gay", "gay", False),
        ("there were attractive women", "attractive", False),  # modifies a noun
        ("this is gay people", "gay", False),
    ],
)
def test_predicate_of_thing(text, word, thing):
    start, end = _span(text, word)
    assert grammar_gates.predicate_of_thing(text, start, end) is thing


@pytest.mark.parametrize(
    ("text", "word", "grades"),
    [
        ("a huge fan of jazz", "huge", True),
        ("a big happy family", "big", True),
        ("a tiny scattered Jewish community", "tiny", True),
        ("a small Indiana town", "small", True),
        ("a small, tight-knit group", "small", True),
        ("a big man", "big", False),  # a body
        ("a little girl", "little", False),
        ("a big. fan", "big", False),  # the sentence ended
        ("a big the fan", "big", False),
    ],
)
def test_grades_a_thing(text, word, grades):
    _, end = _span(text, word)
    assert grammar_gates.grades_a_thing(text, end) is grades


@pytest.mark.parametrize(
    ("text", "sympathy"),
    [
        ("to rescue poor Phyllis", True),  # a first name
        ("to be fair to the poor man", True),
        ("this poor guy Aaron", True),
        ("poor people", False),
        ("a poor family", False),
        ("a poor man", False),  # no definite determiner
        ("the poor", False),
        ("poor", False),
        ("the rich man", False),  # no word of sympathy
    ],
)
def test_sympathy_reading(text, sympathy):
    word = "rich" if "rich" in text else "poor"
    start, end = _span(text, word)
    assert grammar_gates.sympathy_reading(text, start, end) is sympathy


@pytest.mark.parametrize(
    ("text", "word", "people"),
    [
        ("the disabled who live here", "disabled", True),
        ("the poor have", "poor", True),
        ("the blind are", "blind", True),
        ("The Poor Deserve better", "Poor", True),
        ("the blind man", "blind", False),
        ("a blind who", "blind", False),
        ("the poor", "poor", False),
    ],
)
def test_stands_for_people(text, word, people):
    start, end = _span(text, word)
    assert grammar_gates.stands_for_people(text, start, end) is people


@pytest.mark.parametrize(
    ("text", "word", "term", "no_person"),
    [
        ("that was gay", "gay", DIXON.term("gay"), True),  # predicated of a thing
        ("it is so old", "old", DIXON.term("old"), True),
        ("a huge fan of jazz", "huge", HOLISTIC.term("huge"), True),  # a size grading a fan
        ("a big happy family", "big", HOLISTIC.term("big"), True),
        ("to rescue poor Phyllis", "poor", HOLISTIC.term("poor"), True),  # sympathy
        ("he is gay", "gay", DIXON.term("gay"), False),
        ("an old man", "old", DIXON.term("old"), False),
        ("a big man", "big", HOLISTIC.term("big"), False),
        ("poor people suffer", "poor", HOLISTIC.term("poor"), False),
    ],
)
def test_describes_no_person(text, word, term, no_person):
    start, end = _span(text, word)
    assert grammar_gates.describes_no_person(text, start, end, term) is no_person


def test_size_and_sympathy_are_read_only_for_a_term_that_needs_people_around_it():
    huge = HOLISTIC.term("huge")
    assert huge.person_context is True
    text = "a huge fan of jazz"
    start, end = _span(text, "huge")
    assert grammar_gates.describes_no_person(text, start, end, huge) is True
    unguarded = replace(huge, person_context=False)
    assert grammar_gates.describes_no_person(text, start, end, unguarded) is False


@pytest.mark.parametrize(
    ("text", "word", "form", "no_person"),
    [
        # Issue 56's blind read: senses of holistic's descriptors that name no identity.
        ("Those poor misguided idiots will never learn.", "poor", "adjective", True),
        ("Poor guy, he never had a chance.", "Poor", "adjective", True),
        ("oh poor man, what a day", "poor", "adjective", True),
        ("you poor thing", "poor", "adjective", True),
        ("pray for those poor souls", "poor", "adjective", True),
        ("He is a strong believer in free speech.", "strong", "adjective", True),
        ("a strong supporter of the bill", "strong", "adjective", True),
        ("We share a single identity as humans.", "single", "adjective", True),
        ("the single biggest problem", "single", "adjective", True),
        ("a reliable and professional actor", "professional", "adjective", True),
        ("it remains for a professional soldier to report", "professional", "adjective", True),
        ("all Jewish organizations (religious and secular) agree", "secular", "adjective", True),
        ("Space aliens abducted him.", "aliens", "plural", True),
        ("The aliens landed in a spaceship from Mars.", "aliens", "plural", True),
        ("The film is about aliens invading earth.", "aliens", "plural", True),
        # The identity senses stay.
        ("Poor people deserve help.", "Poor", "adjective", False),
        ("A poor guy begged me for money.", "poor", "adjective", False),
        ("Poor kids get free lunches.", "Poor", "adjective", False),
        ("She is a strong woman.", "strong", "adjective", False),
        ("I am a single mother of two.", "single", "adjective", False),
        ("a single guy at the bar", "single", "adjective", False),
        ("She is a professional woman in the city.", "professional", "adjective", False),
        ("all Jewish leaders (religious and secular) agree", "secular", "adjective", False),
        ("it was stupid (the blind young man should know)", "blind", "adjective", False),
        ("Illegal aliens should be deported.", "aliens", "plural", False),
        ("Aliens need a visa to work here.", "Aliens", "plural", False),
    ],
)
def test_senses_of_holistic_descriptors_that_name_no_identity(text, word, form, no_person):
    term = HOLISTIC.term({"aliens": "alien"}.get(word.lower(), word.lower()))
    start, end = _span(text, word)
    assert grammar_gates.describes_no_person(text, start, end, term, form) is no_person


@pytest.mark.parametrize(
    ("text", "mentioned"),
    [
        ("Those poor misguided idiots will never learn.", False),
        ("He is a strong believer in free speech.", False),
        ("We share a single identity as humans.", False),
        ("Space aliens abducted him.", False),
        ("The married couple and the little sister are poor.", False),
        ("Poor people deserve help.", True),
        ("The married man and the little sister are poor.", True),
        ("She is a strong woman.", True),
        ("I am a single mother of two.", True),
        ("Illegal aliens should be deported.", True),
    ],
)
def test_the_holistic_matcher_writes_no_variant_for_those_senses(text, mentioned):
    from textfair.text.generate import counterfactuals
    from textfair.text.matcher import Matcher

    holistic = Matcher("holistic")
    assert bool(holistic.find(text)) is mentioned
    assert bool(counterfactuals(text, matcher=holistic)) is mentioned


def _variants(text: str, category: str) -> set[str]:
    from textfair.core.rules import RuleSet
    from textfair.text.domain import TextDomain

    domain = TextDomain([text], HOLISTIC, [category])
    written = (domain.rewrite(0, RuleSet((rule,))) for rule in domain.single_rules(category))
    return {v.text for v in written if v is not None and v.text != text}


def test_a_mention_written_as_a_hashtag_takes_only_a_term_written_as_one_word():
    """Read blind on tweets: "#Conservatives" -> "#Left-wing People" and "#refugees" ->
    "#independently wealthy people" broke the tag (UNGRAMMATICAL)."""
    tagged = _variants("@user and THEY are #Conservatives.", "political_ideologies")
    assert "@user and THEY are #Liberals." in tagged
    assert not any(" People" in v or "#Left-wing" in v for v in tagged), tagged
    # Not a hashtag: a term of several words is written with its noun.
    plain = _variants("@user and THEY are Conservatives.", "political_ideologies")
    assert "@user and THEY are Left-wing people." in plain or any(
        " people." in v.lower() for v in plain
    ), plain
    text = "We are #Muslims and proud."
    (mention,) = _mentions(text, "religion")
    assert grammar_gates.fits_a_hashtag(text, mention, HOLISTIC.term("Sikh"))
    assert not grammar_gates.fits_a_hashtag(text, mention, HOLISTIC.term("Orthodox Jewish"))


def _mentions(text: str, category: str):
    from textfair.text.matcher import Matcher

    return Matcher(HOLISTIC).find(text, [category])


def test_a_descriptor_after_an_adverb_is_an_adjective_and_a_worker_a_noun():
    """holistic.yaml as term_lists/build_lists.py writes it: "socially liberals" and "casual
    worker people" were read UNGRAMMATICAL on tweets; "socially liberal people" and "casual
    workers" are what a writer writes."""
    assert HOLISTIC.term("socially liberal").plural_noun is None
    assert HOLISTIC.term("fiscally conservative").singular_noun is None
    assert HOLISTIC.term("casual worker").plural_noun == "casual workers"
    variants = _variants(
        "Dont have anything to do with Trump or any conservatives. Refuse to trade with them.",
        "political_ideologies",
    )
    # The adverb's descriptors take their noun; the plain ones ("any liberals") are written
    # as they were once the refitted score keeps them (issue 56).
    for descriptor in ("socially liberal", "fiscally conservative"):
        assert f"any {descriptor} people." in " ".join(variants), variants
    assert not any(
        "socially liberals" in v or "conservatives" in v.split("any ")[1] for v in variants
    )


def test_an_age_in_years_is_written_before_a_noun_only():
    """ "When you are older" -> "When you are sixty-year-old" was read UNGRAMMATICAL on
    tweets: the HolisticBias ages in years are attributive only ("a sixty-year-old man")."""
    assert HOLISTIC.term("sixty-year-old").attributive_only
    predicate = _variants("@user so you say. When you are older you may understand.", "age")
    assert predicate and not any("year-old" in v for v in predicate), predicate
    before_a_noun = _variants("The old man next door waved at us.", "age")
    assert any("sixty-year-old man" in v for v in before_a_noun), before_a_noun


def test_a_term_asked_of_a_pronoun_is_a_mention():
    """ "Is he gay or straight?": the first term of a question to a pronoun was no mention
    (issue 56's recall bug), so a swap of "straight" could write "gay or polyamorous" (read
    IN_TEXT); with both found the text names two terms and takes no part."""
    assert [m.term_id for m in _mentions("Is he gay or straight?", "sexual_orientation")] == [
        "gay",
        "straight",
    ]
    assert not _variants("Is he gay or straight?", "sexual_orientation")
    # One term asked of a pronoun still gets variants.
    assert "Isn't he bisexual?" in _variants("Isn't he gay?", "sexual_orientation")
