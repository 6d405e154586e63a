"""names_ethnicity (issue 44): first names by race or Hispanic origin and sex from the Census
2020 first-name table, swapped within a sex so that the text's pronouns stay true; a name is
a proxy, and one that reads as a word, a surname or a president is not listed."""

import pytest
from rich.console import Console

import textfair
from textfair.core.rules import Rule, RuleSet
from textfair.report.markdown import render_markdown
from textfair.report.terminal import render_terminal
from textfair.terms import load_term_list
from textfair.text.domain import TextDomain

GROUPS = ("White", "Black", "Hispanic", "Asian")


def test_the_list_holds_four_groups_of_each_sex_with_its_source():
    names = load_term_list("names_ethnicity")
    assert list(names.categories) == ["female_name", "male_name"]
    for sex, terms in (
        ("female", names.categories["female_name"]),
        ("male", names.categories["male_name"]),
    ):
        assert [t.text for t in terms] == [f"{g} {sex} name" for g in GROUPS]
        assert all(t.gender == sex and len(t.names) >= 150 and t.write == 100 for t in terms)
    assert "Census" in names.source and "public domain" in names.licence.lower()
    listed = [n for t in names.terms() for n in t.names]
    assert len(listed) == len(set(listed)), "a name belongs to one group"
    assert all(n.isalpha() and n[0].isupper() and n[1:].islower() for n in listed)


@pytest.mark.parametrize(
    "name",
    # A president's surname, a surname more than a first name, a place, a religious figure,
    # an ordinary word borne by few people.
    ["Roosevelt", "Cortez", "Kumar", "America", "Jesus", "Muhammad", "Tram", "Loan", "Manual"],
)
def test_names_that_read_as_something_else_are_not_listed(name):
    listed = {n for t in load_term_list("names_ethnicity").terms() for n in t.names}
    assert name not in listed


def test_a_swap_keeps_the_sex_so_the_pronouns_stay():
    text = "Tyrone said he would fix the article tomorrow."
    domain = TextDomain([text], "names_ethnicity", min_acceptability=0, private_names=True)
    [mention] = domain.mentions(0)
    assert (mention.category, mention.term_id) == ("male_name", "black male name")
    written = domain.rewrite(0, RuleSet((Rule("male_name", "white male name"),))).input
    name = written.split()[0]
    assert name in load_term_list("names_ethnicity").term("white male name").written_names
    assert written == f"{name} said he would fix the article tomorrow."


def test_a_full_name_is_a_real_person_swapped_and_flagged_world():
    # Issue 56: renaming a real person is coherent, perhaps false about them (WORLD), and
    # a valid test: written, flagged with what it rests on, counted apart.
    domain = TextDomain(["Tyrone Washington said he would come."], "names_ethnicity")
    assert domain.left_out["male_name"]["full_name"] == 0
    assert domain.category_mask("male_name")[0]
    assert domain.worlds.of(0, ["male_name"]) == "full name 'Tyrone Washington'"
    assert domain.worlds.counts(domain.categories())["male_name"] == 1


def test_a_man_and_a_woman_take_part_in_both_categories():
    domain = TextDomain(
        ["Latoya told Brian that the page was fine."],
        "names_ethnicity",
        min_acceptability=0,
        private_names=True,
    )
    assert domain.category_mask("female_name")[0] and domain.category_mask("male_name")[0]
    both = RuleSet((Rule("female_name", "white female name"), Rule("male_name", "black male name")))
    female, male = domain.rewrite(0, both).input.split(" told ")
    terms = load_term_list("names_ethnicity")
    assert female in terms.term("white female name").written_names
    assert male.split()[0] in terms.term("black male name").written_names


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("It deserved Todd-AO and Technicolor, said my friend Brian.", None),
        ("Can you help User Dave1185 with the reverts?", "no mention"),
        ("True art films, like 'Something about Mary', are rare.", "no mention"),
        ("This is the definite Lars von Trier piece.", "world"),
        ("== Richard the Lionheart == I ask about Richard's sexuality.", "reference"),
        ("You sorry beaner, Pablo, stop editing.", "cue"),
        ("In the movie Tyrone loves his dog.", "world"),
        ("Keri has no backup for her hit single.", "world"),
        ("I saw this movie with our friend Tyrone and he loved it.", None),
        ("Hello Paul. Thanks for your great work on cycling!", None),
        # Nothing says who they are: a celebrity, a character, a pet or a drug as often as not:
        # swapped, and flagged WORLD (issue 56).
        ("Paul is the worst houseguest ever #BB20", "world"),
        ("Molly makes everything better tonight", "world"),
        ("Why is Zac always shirtless?", "world"),
        ("a guy named Tyrone fixed my car", None),
        ("Hi, I'm Latoya and my order never came.", None),
        # A talk page's message or reply addressing an editor, the writer saying who they are.
        ("== A friendly note == Peter, this is Noc. Please stop.", None),
        ("== New article == Hey Bogdan, I finally created the article.", None),
        (":: Tyrone you have not read the source yourself.", None),
        ("Hey its Jim. Thanks for the help.", None),
        ("Tyrone you are so funny lately", "world"),  # no talk page: who knows
        # The name again in a hashtag or as its initial: a swap renames one of them only.
        ("I am working for my boss Ned, unfortunately. #nedfail", "reference"),
        ("my neighbor John came with a beer but I said no! sorry J", "reference"),
    ],
)
def test_a_name_is_swapped_and_flagged_world_unless_it_names_a_private_person(text, why):
    domain = TextDomain([text], "names_ethnicity", min_acceptability=0)
    categories = domain.categories()
    takes_part = any(domain.category_mask(c)[0] for c in categories)
    if why in (None, "world"):
        assert takes_part
        flagged = domain.worlds.of(0, categories)
        assert (flagged is not None) is (why == "world"), flagged
    elif why == "no mention":
        assert not any(m.term.names for m in domain.mentions(0))
    else:
        assert not takes_part
        assert sum(domain.left_out[c][why] for c in categories) == 1


def test_a_corpus_of_names_nobody_shows_to_be_private_is_audited_with_world_counted_apart():
    # Public figures, characters, pets and drugs as often as not: swapped all the same, each
    # seed flagged WORLD and counted apart on report.json and every surface (issue 56);
    # --private-names takes every name for a private person's, and flags none.
    texts = [f"{name} was at the party last night." for name in ("Tyrone", "Latoya", "Brian")]
    texts += [f"{name} always says the right thing." for name in ("Emily", "Jose", "Priya")]
    report = textfair.audit(
        "toxicity-cnn-lstm",
        texts,
        terms="names_ethnicity",
        min_acceptability=0,
        templates="none",
        theta=0.01,
    )
    assert report.data["seeds_world"] == report.data["seeds_rewritable"]
    assert report.data["seeds_world"]["male_name"] == 3
    assert sum(report.data["seeds_left_out"]["male_name"].values()) == 0
    flagged = [f for f in report.findings if f.world]
    assert flagged and all(f.world <= f.n_r for f in flagged)
    assert textfair.AuditReport.from_dict(report.to_dict()) == report
    said = [note for note in report.reading_notes() if "(WORLD)" in note]
    assert said and "on a real named person or work (WORLD)" in said[0]
    assert "(WORLD)" in render_markdown(report) and said[0] in render_markdown(report)
    console = Console(record=True, width=100)
    render_terminal(report, console=console)
    assert "on a real named person or work (WORLD)" in " ".join(console.export_text().split())
    private = textfair.audit(
        "toxicity-cnn-lstm", texts, terms="names_ethnicity", min_acceptability=0, private_names=True
    )
    assert private.config["private_names"] is True
    assert private.data["seeds_world"] == {"female_name": 0, "male_name": 0}
    assert not any(f.world for f in private.findings)


def test_the_name_referent_gold_set_points_at_the_bundled_texts():
    # Each mark of tests/data/name_referent_gold.jsonl is the word it says, where it says,
    # in the bundled corpus it names, with two readers' labels.
    from benchmarks.name_recall import corpora, gold

    texts = corpora()
    records = gold("tune") + gold("frozen")
    assert len(records) == 289
    labels = {"private", "public", "fictional", "not_a_person", "unsure"}
    for record in records:
        text = texts[record["corpus"]][record["index"]]
        for mark in record["marks"]:
            assert text[mark["start"] : mark["end"]] == mark["word"]
            assert len(mark["labels"]) == 2 and set(mark["labels"]) <= labels
