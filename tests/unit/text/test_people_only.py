"""Issue 42: a descriptor counts only where it describes people (every list), and a seed is
never rewritten into a group its text already names (no merges).

Sentences are the issue's quoted classes and real sentences of the acceptability gold set's
tune half that readers marked NOT_IDENTITY or MERGED; the kept ones are real uses of the same
words for people."""

import pytest

from textfair.text._merges import MergeCheck, merge_groups
from textfair.text.domain import TextDomain
from textfair.text.matcher import Matcher


@pytest.fixture(scope="module")
def matchers():
    return {name: Matcher(name) for name in ("dixon2018", "holistic", "names", "pronouns")}


def found(matchers, text, lists=("dixon2018", "holistic")):
    return [(name, m.surface) for name in lists for m in matchers[name].find(text)]


@pytest.mark.parametrize(
    "text",
    [
        # the quoted classes
        "We walked down a small street.",
        "It was a dumb comedy.",
        "The American dream is dead.",
        "He plays the straight man to Lewis.",
        "yo old bitch called me again",
        "We lived in the old American neighborhood.",
        # a size grading a fan, a group or a place, not a body
        "I am a huge fan of warrior movies.",
        "I love you, you love me, we're all a big happy family.",
        "Charles and Mary have taken up residence in a small Indiana town.",
        "The large ensemble cast of actors plays well.",
        # predicated of a thing
        "It isn't funny, isn't cute, the cat's makeup is about the only good thing in it.",
        "okay that was gay like me",
        # sympathy, not class
        "To be fair to the poor man, he does have to deliver some amazing lines.",
        "They had to rescue poor Phyllis, who is being held captive.",
        # a quoted title, a name
        "I adored the cyclical rendition of 'The old home guard' and the charming one.",
        "==Article on Christian G. Fritz== Hello.",
        "ONE: Mr Christian said hello",
        "Christian is always bleating on about people.",
        # fixed phrases
        "Her dumb blonde mom came too.",
    ],
)
def test_descriptors_that_describe_no_person_are_not_mentions(matchers, text):
    assert found(matchers, text) == []


@pytest.mark.parametrize(
    ("text", "lists"),
    [
        ("I ate at mc Donald's.", ("names",)),
        ("I only edited 2 entries - for The Russell Tribunal and Stop The War.", ("names",)),
        ('Except for the new "Alexander." If you are choosing', ("names",)),
        ("Sabrina the Teenage Witch was on TV.", ("names",)),
        ("Scholars believe that the Book of Daniel is about the events in Israel.", ("names",)),
        ("You son of a bitch", ("pronouns",)),
        ("Oh man I just discovered that there is a whole other page.", ("pronouns",)),
        ("It is irrelevant. straw man argument.", ("pronouns",)),
        ("Man, relax and enjoy.", ("pronouns",)),
        ("They are either the honest type or the bad guys.", ("pronouns",)),
    ],
)
def test_names_and_gendered_words_in_titles_and_idioms_are_not_mentions(matchers, text, lists):
    assert found(matchers, text, lists) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Check out a very young Bob Saget in this one!", ["young"]),
        ("There is nothing shameful about him being gay.", ["gay"]),
        ("They were poor, they were black.", ["poor", "black"]),
        ("A poor man begged at the door.", ["poor"]),
        ("He was a huge man with a beard.", ["huge"]),
        ("I would have liked it if there were attractive women in the movie.", ["attractive"]),
        ("The disabled who live here are happy.", ["disabled"]),
        ("The rich will get richer.", ["rich"]),
    ],
)
def test_descriptors_of_people_stay_mentions(matchers, text, expected):
    surfaces = [surface for _, surface in found(matchers, text, ("holistic",))]
    assert surfaces == expected


@pytest.mark.parametrize(
    "text",
    ["Her entire tribe became Muslim directly after her death.", "A Christian is a believer."],
)
def test_predicates_of_nouns_and_determined_nouns_stay_mentions(matchers, text):
    assert len(found(matchers, text, ("dixon2018",))) == 1


def test_a_descriptor_standing_for_people_is_written_as_people(matchers):
    domain = TextDomain(["The disabled who live here are happy."], "holistic", ["ability"])
    assert [m.form for m in domain.mentions(0)] == ["collective"]
    assert "deaf" in domain.targets_for(0, "ability")


@pytest.mark.parametrize(
    ("text", "category", "source", "left_out"),
    [
        # the MERGED classes: the group is named by a word that is no mention
        ("I like white girls and black chicks.", "race", "white", {"black", "african american"}),
        ("He dates white girls and spanish girls.", "race", "white", {"latino", "hispanic"}),
        ("Recommend it to anyone, be they young or old.", "age", "old", {"young", "younger"}),
        # real tune sentence: "(asian or african)" became "(asian or asian)"
        ("that is ``eastern`` (asian or african) in their logic", "race", "african", {"asian"}),
    ],
)
def test_a_target_the_text_already_names_is_not_written(text, category, source, left_out):
    domain = TextDomain([text], "dixon2018", [category])
    assert domain.values_of(0, category) == {source}
    targets = set(domain.targets_for(0, category))
    assert targets, "the seed still takes part with the other targets"
    assert not targets & left_out


def test_the_seeds_own_group_named_again_merges_nothing():
    # "gay" -> "homosexual" beside "Is Gay" (the same group): the synonym stays a target.
    text = "===User:Nawlinwiki Is Gay=== That person is gay, they deleted our page."
    domain = TextDomain([text], "dixon2018", ["gender"])
    assert "homosexual" in domain.targets_for(0, "gender")


def test_collocations_and_surnames_name_no_group():
    check = MergeCheck(TextDomain(["x"], "dixon2018").term_list)
    assert check.named("He is 20 years old and drinks black coffee.", "age", []) == frozenset()
    assert check.named("Jack Black met a man.", "race", []) == frozenset()
    assert check.named("But if you don't mind, how old are you?", "age", []) == frozenset()
    assert {"black", "african american"} <= check.named("black chicks", "race", [])


def test_merge_groups_are_whole_words_of_the_lists():
    groups = merge_groups()
    assert any({"latino", "spanish", "hispanic"} <= group for group in groups)
    assert any({"gay", "homosexual"} <= group for group in groups)
    assert all(word == word.lower() and word.strip() == word for g in groups for word in g)


def test_a_place_the_first_name_lexicon_holds_is_no_person():
    from textfair.text.matcher import Matcher

    matcher = Matcher("holistic")
    text = "Yaara returns to her native Israel for the funeral."
    assert [m.surface for m in matcher.find(text, ["characteristics"])] == []
    assert [m.surface for m in matcher.find("The young Victoria was queen.", ["age"])] == ["young"]
