"""Whole-text coherence: a seed is rewritten only where the rest of the text still agrees.

Each case stands for a class of wrong variants the blind readings of issue 24 found; the
assertions are on what textfair writes (or refuses to write), not on internals.
"""

from __future__ import annotations

import pytest

from textfair.core.rules import Rule
from textfair.corpus import load_corpus
from textfair.text.domain import TextDomain
from textfair.text.generate import counterfactuals
from textfair.text.matcher import Matcher
from textfair.text.rule_satisfying import rule_satisfying
from textfair.text.sentences import split_sentences


def texts_of(text: str, categories: list[str], terms: str = "dixon2018") -> set[str]:
    matcher = Matcher(terms)
    return {v.text for v in counterfactuals(text, categories, matcher=matcher, max_variants=500)}


@pytest.mark.parametrize(
    "text",
    [
        "The Jews of the town asked the rabbi every week.",  # a cue of the identity
        "He is a Muslim who quotes the Qur'an and hadith daily.",  # Qur'an is related, hadith a cue
        "Catholics still go to Mass and listen to the Pope.",
        "The Jews were blamed by every anti-Semite in town.",
        "The Catholics left the Catholic Church in 1990.",  # Catholic Church: another use
        "Jefferson was not a Jew because he rejected Jesus.",  # a cue of another term
    ],
)
def test_a_text_still_naming_the_old_identity_is_left_out(text):
    assert texts_of(text, ["religion"]) == set()


def test_related_words_are_rewritten_with_the_term():
    variants = texts_of("Many Jews practise Judaism and pray in a synagogue.", ["religion"])
    assert "Many Muslims practise Islam and pray in a mosque." in variants
    assert "Many Sikhs practise Sikhism and pray in a gurdwara." in variants
    # "atheist" has no place of worship, and "pray" contradicts it: never written here.
    assert not any("atheis" in text for text in variants)
    assert all("Judaism" not in text and "synagogue" not in text for text in variants)


def test_a_country_follows_its_nationality():
    variants = texts_of("Americans hold most of America's wealth.", ["race"])
    assert "Canadians hold most of Canada's wealth." in variants
    assert all("America" not in text for text in variants)
    assert len(variants) == 5  # the other nationalities: never a race ("Latinas")


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("He dreamed the dream of every Mexican immigrant.", {"black", "white", "latina"}),
        ("She is a female partner at the firm.", {"heterosexual", "straight", "gay"}),
        ("Two gay men moved in next door.", {"male", "female", "transgender"}),
    ],
)
def test_axes_keep_a_term_on_its_own_axis(text, never):
    written = " ".join(texts_of(text, ["race", "gender"])).lower()
    assert written
    assert not any(f" {word} " in f" {written} " for word in never)


def test_a_gendered_term_is_never_written_against_the_texts_pronouns():
    variants = texts_of("He said he was male, and nobody argued.", ["gender"])
    assert variants and not any("female" in text for text in variants)
    # No binary gender beside "he" either: "a nonbinary person ... him" reads wrong.
    assert variants == {
        "He said he was trans, and nobody argued.",
        "He said he was transgender, and nobody argued.",
    }


def test_age_fits_the_noun_and_the_syntax():
    girls = texts_of("The young girls played outside.", ["age"])
    assert girls == {"The teenage girls played outside."}  # no "old", "elderly" girls
    predicate = texts_of("She is young.", ["age"])
    assert "She is teenage." not in predicate and "She is old." in predicate
    for idiom in (
        "Her old boyfriend called.",
        "That tired old plot again.",
        "He is a 16 yr. old kid.",
        "Poor old dad fell asleep.",
    ):
        assert texts_of(idiom, ["age"]) == set(), idiom
    # A stated age fixes the life stage: no other age is written beside it.
    assert texts_of("The colonel must be in his eighties; the old man sat.", ["age"]) == set()
    assert texts_of("An elderly man who died at the age of 76.", ["age"]) == set()
    # "millennial" is a generation, its own axis: no life stage becomes it, nor it one.
    assert not any("millennial" in t for t in texts_of("An old man sat down.", ["age"]))
    assert texts_of("Millennials love avocado toast.", ["age"]) == set()


def test_titles_usernames_and_things_are_not_mentions():
    for text in (
        "I watched GRUMPY OLD MEN last night, it was fine.",
        "See the edits of User:Sikh-history for the sources.",
        "They fought about Christian dogma for years.",
        "Holy Sikh shrines were visited.",
        "In particular the couple Linda and Young Guy.",
    ):
        assert counterfactuals(text) == [], text


def test_names_are_rewritten_with_their_pronouns_or_not_at_all():
    names = Matcher("names")
    (variant,) = counterfactuals(
        "Emily said she would call her mother.", matcher=names, max_variants=1, private_names=True
    )
    name = variant.text.split()[0]
    assert variant.text == f"{name} said he would call his father."
    assert counterfactuals("Emily met John and he smiled at her.", matcher=names) == []
    # Without `private_names`, a first name the text does not show to be a private
    # person's (the public figures, characters and pets of tweets) is swapped all the same,
    # flagged WORLD (issue 56); with it, nothing is flagged.
    (public,) = counterfactuals("Emily said she would call her mother.", matcher=names)
    assert public.text == variant.text.replace(name, public.text.split()[0])
    assert public.world == "first name 'Emily', not shown to be a private person's"
    assert variant.world is None
    assert counterfactuals("Read Daniel 9:24 again.", matcher=names) == []


def test_the_article_before_a_quoted_mention_follows_the_new_word():
    variant = rule_satisfying('He is an "Asian man" by his own words.', {"race": "european"})
    assert variant is not None and variant.text == 'He is a "European man" by his own words.'


def test_seeds_left_out_are_counted_by_reason_and_recall_is_their_complement():
    texts = [
        "The Jews met the rabbi.",  # cue
        "Christians and Muslims met.",  # several terms
        "The Catholic Church and its Catholics.",  # other use
        "Muslims met at noon.",  # takes part
    ]
    domain = TextDomain(texts, categories=["religion"])
    assert domain.mentioning == {"religion": 4}
    assert domain.left_out["religion"] == {
        "several_terms": 1,
        "fixed_form": 0,
        "other_use": 1,
        "cue": 1,
        "full_name": 0,
        "reference": 0,
        "unknown_person": 0,
        "no_target": 0,
        "minor_in_sexual_text": 0,
        "low_acceptability": 0,
    }
    assert domain.recall() == {"religion": 0.25}
    assert domain.category_mask("religion").tolist() == [False, False, False, True]


def test_support_and_rewrites_follow_each_seeds_axis():
    domain = TextDomain(["An American man spoke.", "A black man spoke."], categories=["race"])
    assert domain.support_mask((Rule("race", "canadian"),)).tolist() == [True, False]
    assert domain.support_mask((Rule("race", "white"),)).tolist() == [False, True]
    assert domain.rewrite(0, (Rule("race", "white"),)) is None
    assert domain.rewrite(1, (Rule("race", "white"),)).text == "A white man spoke."
    assert domain.rewrite(0, (Rule("race", "canadian"),)).text == "A Canadian man spoke."


def test_sentences_split_where_a_reader_would():
    text = "Mr. Smith met the Jews. They went to the synagogue!<br /><br />J. Edgar left."
    assert split_sentences(text) == [
        "Mr. Smith met the Jews.",
        "They went to the synagogue!",
        "J. Edgar left.",
    ]
    corpus = load_corpus(["One text. Two texts.", "Three"], labels=["a", "b"], unit="sentence")
    assert corpus.texts == ["One text.", "Two texts.", "Three"]
    assert corpus.labels == ["a", "a", "b"]
    assert corpus.info()["unit"] == "sentence" and corpus.info()["documents"] == 2


def test_sentence_units_let_a_document_with_cues_take_part():
    document = "The Jews of the town were proud. The rabbi was old and grand."
    whole = TextDomain([document], categories=["religion"])
    assert not whole.category_mask("religion")[0]
    by_sentence = TextDomain(split_sentences(document), categories=["religion"])
    assert by_sentence.category_mask("religion").tolist() == [True, False]


def test_an_audit_by_sentence_records_its_unit_and_documents():
    import numpy as np

    import textfair

    def model(texts):
        return np.array([[0.2, 0.8] if "rabbi" in t else [0.8, 0.2] for t in texts])

    texts = [f"The Jews of town {k} were proud. The rabbi spoke." for k in range(30)]
    report = textfair.audit(
        textfair.as_model(model, label_names=["ok", "toxic"]),
        texts,
        unit="sentence",
        categories=["religion"],
        causal=False,
        theta=0.1,
        favorable="ok",
    )
    assert report.data["unit"] == "sentence" and report.data["documents"] == 30
    assert report.data["rows"] == 60
    # Whole documents would all be left out (the rabbi is a cue); sentences take part.
    assert report.data["seeds_taking_part"] == {"religion": 1.0}


def test_a_fixed_form_leaves_its_text_out():
    # "Roman Catholic" names a church as much as a faith: found, never rewritten.
    assert texts_of("The Roman Catholics met the bishop of Rome.", ["religion"]) == set()
    assert "Muslims met at noon." in texts_of("Catholics met at noon.", ["religion"])


def test_a_cue_of_another_identity_in_another_sentence_removes_its_group_only():
    # "priest" goes with Christian and Catholic: the Muslims may become any group but those
    # (and their kin, Protestant), which would merge the two the text keeps apart (issue 56).
    variants = texts_of(
        "The Muslims of the town were angry. The priest asked them to stay.", ["religion"]
    )
    assert "The Jews of the town were angry. The priest asked them to stay." in variants
    assert not any(g in v for v in variants for g in ("Christian", "Catholic", "Protestant"))


@pytest.mark.parametrize(
    "text",
    [
        "Jefferson was not a Jew because he rejected Jesus.",  # the same sentence
        "The Catholics met. They read a biblical passage.",  # biblical: Christian, their kin
    ],
)
def test_a_cue_of_the_mentioned_identity_or_its_kin_still_leaves_the_text_out(text):
    categories = ["religion"] if "Jew" in text or "Catholic" in text else ["gender"]
    assert texts_of(text, categories) == set()


def test_a_slur_of_several_terms_keeps_the_swap_among_them():
    # "fags" insults gay men, whom "gay", "homosexual" and "queer" all name: the swap stays
    # among those three, and the slur stays true of the new term (issue 56).
    variants = texts_of("You are a queer. Go back to the other fags.", ["gender"])
    assert "You are a homosexual. Go back to the other fags." in variants
    assert not any(w in v for v in variants for w in ("bisexual", "straight", "lesbian"))


def test_of_the_faith_names_people():
    variants = texts_of("He does not like people of the Jewish faith.", ["religion"])
    assert "He does not like people of the Muslim faith." in variants
    assert not any("atheist" in v for v in variants)  # "faith" contradicts it


def test_a_cue_of_a_religion_beside_religious_still_leaves_the_text_out():
    # "religious" holds every religion: a cue of one is no word of another identity.
    text = "He had ties to religious groups. Jesus preached the end of the world."
    assert texts_of(text, ["religion"], terms="holistic") == set()


def test_a_transgender_descriptor_keeps_the_gender_its_words_say():
    # Issue 56: "Tanya is one of the dumbest female leads ... her" -> "trans masc leads".
    from textfair.text.generate import counterfactuals
    from textfair.text.matcher import Matcher

    def written(text: str) -> set[str]:
        matcher = Matcher("holistic")
        variants = counterfactuals(text, ["gender_and_sex"], matcher=matcher, max_variants=500)
        return {v.text for v in variants}

    text = "Tanya is one of the dumbest female characters, and her lines are silly."
    assert not any(w in t for t in written(text) for w in ("trans masc", "transmasc", "trans male"))
    assert text.replace("female", "trans femme") in written(text)
    near = "He is a male doctor and his patients love him."
    assert near.replace("male", "trans masc") in written(near)
