"""References kept together (issue 42): a name, pronoun or age swap rewrites every other
reference to the same people, or the seed is left out with a reason."""

from __future__ import annotations

import pytest

from textfair.core.rules import Rule
from textfair.terms import load_term_list
from textfair.text._ages import age_range, life_stages
from textfair.text._coherence import LEFT_OUT_REASONS
from textfair.text._references import name_group, shown_private
from textfair.text.domain import TextDomain
from textfair.text.generate import counterfactuals
from textfair.text.matcher import Matcher


def reason(text: str, terms: str) -> str | None:
    """Why the seed takes no part in its (only) category's rows by the rules (no threshold on
    the acceptability score); None when it does."""
    domain = TextDomain([text], terms, min_acceptability=0)
    (category,) = [c for c in domain.categories() if domain.mentioning[c]]
    return next((r for r, n in domain.left_out[category].items() if n), None)


def variants(text: str, terms: str, categories: list[str] | None = None) -> set[str]:
    return {v.text for v in counterfactuals(text, categories, matcher=Matcher(terms))}


@pytest.mark.parametrize(
    ("text", "terms", "why"),
    [
        # A first name's swap renaming a real person is no stop (WORLD, issue 56): below.
        ("John Banner is wonderful as Sergeant Schultz.", "names", None),
        ("Dear Rev. Michael S. Margolin, is it bias?", "names", None),
        # "Book of Daniel" names a work (the matcher's people-only gate): no name to carry.
        ("Scholars believe the Book of Daniel is late; he wrote so.", "pronouns", None),
        ("Reverend Billy preaches; how does he make his money?", "pronouns", "full_name"),
        ("You changed him, @Emily, and I saw it.", "pronouns", "full_name"),
        ("You felt sorry for him; Bill Nighy plays Ray.", "pronouns", "full_name"),
        ("Mr. Dreyfuss was perfect for his role.", "pronouns", "full_name"),
        ("My friend Emily said she was a female nurse.", "names", "reference"),
        ("Emily said she was a nurse.", "names", None),
        ("She is a Latina actress.", "pronouns", "reference"),
        ("I told Joyce that he would call.", "pronouns", "reference"),
        ("Emily said he would call.", "pronouns", "reference"),
        ("Hey, Aaron told me he would help.", "names", None),
        ("Emily said she would call her mother.", "pronouns", None),
        ("Don't trust him; he is angry.", "pronouns", None),
        ("He was born in Nazareth, they say.", "pronouns", None),
    ],
)
def test_a_swap_that_cannot_carry_every_reference_leaves_the_seed_out(text, terms, why):
    assert reason(text, terms) == why


@pytest.mark.parametrize(
    ("text", "flag"),
    [
        ("A photo of Charles Lindbergh with his plane.", "full name 'Charles Lindbergh'"),
        ("Dear Rev. Michael S. Margolin, is it bias?", "full name 'Michael S. Margolin'"),
        ("In the film Lisa wanders about lost.", "first name 'Lisa' in a text about a work"),
        ("Molly makes everything better.", "first name 'Molly', not shown to be a private"),
        ("My friend Emily said she was tired.", None),
    ],
)
def test_a_name_swap_renaming_a_real_person_is_written_and_flagged_world(text, flag):
    """Issue 56: coherent but perhaps false about a real, named person or work, the variant
    is a valid test; it is written, flagged with what the flag rests on, never left out."""
    for variant in counterfactuals(text, matcher=Matcher("names")):
        assert variant.world == flag or (flag and variant.world.startswith(flag))
        assert variant.to_record()["world"] == variant.world
    domain = TextDomain([text], "names", min_acceptability=0)
    assert domain.recall()["name_gender"] == 1.0
    assert domain.worlds.counts(domain.categories())["name_gender"] == (flag is not None)
    (target,) = domain.targets_for(0, "name_gender")
    rewritten = domain.rewrite(0, (Rule("name_gender", target),))
    assert rewritten is not None and rewritten.world == domain.worlds.of(0, ["name_gender"])
    assert (rewritten.world is not None) is (flag is not None)


def test_names_ethnicity_swaps_of_a_real_person_are_flagged_too():
    (variant, *_) = counterfactuals(
        "Tyrone Hill scored twice last night.", matcher=Matcher("names_ethnicity")
    )
    assert variant.world == "full name 'Tyrone Hill'"


def test_a_pronoun_swap_beside_a_named_person_is_still_left_out():
    # "Bill Nighy ... her" contradicts the name in the text itself (IN_TEXT, not WORLD).
    assert reason("You felt sorry for him; Bill Nighy plays Ray.", "pronouns") == "full_name"
    assert not variants("You felt sorry for him; Bill Nighy plays Ray.", "pronouns")


def test_a_first_name_in_a_named_epithet_is_no_mention():
    domain = TextDomain(["Richard the Lionheart was brave."], "names", min_acceptability=0)
    assert not any(domain.mentioning.values())


def test_a_pronoun_swap_flips_the_first_names_with_it():
    (variant,) = counterfactuals(
        "Emily said she would call her mother.", matcher=Matcher("pronouns")
    )
    name = variant.text.split()[0]
    assert name in name_group("male").written_names
    assert variant.text == f"{name} said he would call his father."
    # Every gendered reference flips, whoever it refers to: both names change.
    (both,) = counterfactuals("Hi Raymond, Emily says he left.", matcher=Matcher("pronouns"))
    words = both.text.replace(",", "").split()
    assert words[1] in name_group("female").written_names
    assert words[2] in name_group("male").written_names
    assert words[4] == "she"


def test_the_new_reasons_are_counted_with_the_others():
    assert {"full_name", "reference", "unknown_person"} <= set(LEFT_OUT_REASONS)
    domain = TextDomain(
        ["John Banner met her.", "Emily met him; Emily is a female pilot.", "Emily left."],
        "names",
        private_names=True,
    )
    # "John Banner" takes part, flagged WORLD (issue 56); the female pilot cannot follow.
    assert domain.left_out["name_gender"]["full_name"] == 0
    assert domain.left_out["name_gender"]["reference"] == 1
    assert domain.recall()["name_gender"] == pytest.approx(2 / 3)
    assert domain.worlds.counts(domain.categories())["name_gender"] == 1


def test_no_term_of_no_binary_gender_is_written_beside_he_or_she():
    written = variants("He said he was male, and nobody argued.", "dixon2018", ["gender"])
    assert written and not any("nonbinary" in t for t in written)
    assert "They said it: a nonbinary nurse." in variants(
        "They said it: a male nurse.", "dixon2018", ["gender"]
    )


def test_age_ranges_of_the_terms():
    terms = {t.id: t for t in load_term_list("holistic").categories["age"]}
    assert age_range(terms["teenage"]) == (13, 19)
    assert age_range(terms["forty five year old"]) == (45, 45)
    assert age_range(terms["thirty something"]) == (30, 39)
    assert age_range(terms["older"]) is None  # a comparison states no life stage


def test_life_stages_stated_elsewhere():
    assert life_stages("The kids hid.") == [(0, 17)]
    assert life_stages("a 16-year-old and a man in his eighties") == [(16, 16), (80, 89)]
    assert life_stages("He is retired.") == [(45, 120)]
    # The mention itself is no cue: "teenage" is what is rewritten.
    text = "The teenage boy and his teens."
    assert life_stages(text, [(4, 11)]) == [(12, 19)]


def test_a_life_stage_elsewhere_rules_out_an_age_it_contradicts():
    written = variants("An old man sat with his grandchildren.", "dixon2018", ["age"])
    assert written and not any(w in t for t in written for w in ("young", "teenage"))
    assert "An elderly man sat with his grandchildren." in written
    girl = variants("The young girl ran home.", "holistic", ["age"])
    assert girl and not any(w in t for t in girl for w in ("spry", "fifty", "elderly"))
    assert "The teenage girl ran home." in girl
    # A stage the mentioned term does not fit speaks of other people: it constrains nothing.
    candy = variants("An old man gave candy to the kids.", "dixon2018", ["age"])
    assert "An elderly man gave candy to the kids." in candy


def test_a_pregnancy_states_the_childbearing_years():
    # Issue 56: "her possible pregnancy ... a strong, middle aged woman" -> "60-year-old".
    assert life_stages("She hid her pregnancy.") == [(12, 50)]
    text = "Why would a strong, middle aged woman hide her pregnancy from her boss?"
    pregnant = variants(text, "holistic", ["age"])
    assert pregnant and not any("60-year-old" in t or "elderly" in t for t in pregnant)
    assert text.replace("middle aged", "forty-year-old") in pregnant
    # Without the pregnancy, a later age is written.
    near = "Why would a strong, middle aged woman hide her debts from her boss?"
    assert near.replace("middle aged", "60-year-old") in variants(near, "holistic", ["age"])


@pytest.mark.parametrize(
    ("text", "name", "private"),
    [
        ("My best friend Tyrone came over.", "Tyrone", True),
        ("our neighbour, Emily, called", "Emily", True),
        ("a guy named Tyrone fixed my car", "Tyrone", True),
        ("Hi, I'm Emily and my order never came.", "Emily", True),
        ("my name is Latoya", "Latoya", True),
        ("Hi Peter, see the talk page.", "Peter", True),
        ("== Thanks ==\nHello Joaquin: see the vote.", "Joaquin", True),
        ("Our server Jessica was great.", "Jessica", True),
        ("Ask for the manager, Tom.", "Tom", True),
        # Nothing says who they are: a celebrity, a character, a pet, a product, a drug.
        ("Paul is the worst houseguest ever", "Paul", False),
        ("Molly makes everything better", "Molly", False),
        ("Thanks Amy for scheduling that", "Amy", False),
        ("my dog Rex ate it", "Rex", False),
        ("I told them Hi Peter was a show", "Peter", False),  # no greeting opening a line
    ],
)
def test_a_private_person_is_one_the_text_shows_to_be(text, name, private):
    assert shown_private(text, text.index(name)) is private
