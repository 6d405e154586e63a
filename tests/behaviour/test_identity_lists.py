"""The built-in lists beyond dixon2018: holistic (HolisticBias), names (CheckList first names)
and pronouns (gendered words that move together), on real text."""

import json

import pytest

from textfair.core.rules import Rule, RuleSet
from textfair.errors import TextfairError
from textfair.terms import load_term_list
from textfair.text._evaluation import score_swaps
from textfair.text.domain import TextDomain
from textfair.text.matcher import Matcher
from textfair.text.rewrite import Rewriter

from locations import DATA

GOLD = DATA / "pronoun_gold.jsonl"


def test_pronoun_gold_set_is_swapped_correctly():
    records = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines()]
    held_out = [r for r in records if "held out" in r["source"]]
    assert len(records) >= 200 and len(held_out) >= 50
    ambiguous = [r for r in records if " her " in f" {r['text'].lower()} "]
    assert len(ambiguous) >= 25  # "her" -> "his" or "him" is where swaps go wrong
    scores = score_swaps(records)
    assert scores.accuracy >= 0.95, scores.misses
    assert score_swaps(held_out).accuracy >= 0.95


def test_a_pronoun_seed_moves_all_its_words_together():
    domain = TextDomain(
        [
            "He said his son would help him himself.",
            "She gave him her car.",  # both genders: who is who is unknown, left out
            "The weather was fine.",
        ],
        "pronouns",
    )
    assert domain.category_mask("pronouns").tolist() == [True, False, False]
    variant = domain.rewrite(0, RuleSet((Rule("pronouns", "feminine"),)))
    assert variant.input == "She said her daughter would help her herself."
    assert domain.rewrite(0, RuleSet((Rule("pronouns", "masculine"),))).input == domain.texts[0]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Stephen King wrote his best novel.", ["his"]),  # a name, not a gendered noun
        ("They watched The Third Man again.", []),
        ("Men are welcome; the man said so.", ["Men", "man"]),
        ("A HOST OF MEN", ["MEN"]),
    ],
)
def test_capitalised_gendered_nouns_inside_a_sentence_are_names(text, found):
    assert [m.surface for m in Matcher("pronouns").find(text)] == found


def test_names_swap_keeps_case_possessives_and_surnames():
    matcher = Matcher("names")
    terms = {t.id: t for t in matcher.term_list.terms()}
    text = "Emily's review: EMILY and Emily Smith agree."
    mentions = matcher.find(text)
    assert [m.surface for m in mentions] == ["Emily", "EMILY", "Emily"]
    written = Rewriter(text, mentions).apply({i: terms["male name"] for i in range(3)}).text
    new = written.split("'")[0]
    assert new in terms["male name"].written_names
    assert written == f"{new}'s review: {new.upper()} and {new} Smith agree."  # same person
    assert matcher.find("I met Will at the Virgin Mary church in Boston.") == []
    assert [m.surface for m in matcher.find("James Taylor sang.")] == ["James"]


def test_name_picks_depend_on_the_text_only():
    domain = TextDomain(
        ["Ask Emily about it.", "Emily wrote the page."], "names", private_names=True
    )
    rule = RuleSet((Rule("name_gender", "male name"),))
    first = [domain.rewrite(i, rule).input for i in range(2)]
    again = TextDomain(
        ["Emily wrote the page.", "Ask Emily about it."], "names", private_names=True
    )
    assert [again.rewrite(i, rule).input for i in (1, 0)] == first


def test_holistic_list_keeps_axes_flags_and_attribution():
    holistic = load_term_list("holistic")
    assert len(holistic.categories) == 12 and len(holistic) > 550
    assert "CC BY-SA 4.0" in holistic.licence and "Smith" in holistic.source
    flagged = {t.id for t in holistic.terms() if "dispreferred" in t.flags}
    assert "hearing impaired" in flagged
    kept = holistic.without_flags(["dispreferred"])
    assert not any("dispreferred" in t.flags for t in kept.terms())
    assert len(kept) == len(holistic) - len(flagged)
    found = Matcher("holistic").find("She is a Deaf grandmother and a proud Buddhist.")
    assert [(m.category, m.term_id) for m in found] == [
        ("ability", "deaf"),
        ("religion", "buddhist"),
    ]
    assert Matcher("holistic").find("It is a slow car and a fat chance.") == []


def test_gender_is_metadata_and_a_rewrite_changes_the_term_only():
    matcher = Matcher("holistic")
    text = "my grandfather is a Deaf man"
    mention = next(m for m in matcher.find(text) if m.category == "ability")
    lesbian = matcher.term_list.term("lesbian")
    assert lesbian.gender == "female"
    rewritten = Rewriter(text, [mention]).apply({0: matcher.term_list.term("blind")}).text
    assert rewritten == "my grandfather is a blind man"


def test_combining_lists_that_share_terms_is_a_one_line_error():
    with pytest.raises(TextfairError, match="listed twice"):
        load_term_list("dixon2018,holistic")
    combined = load_term_list("dixon2018,names,pronouns")
    assert set(combined.categories) == {
        "gender",
        "race",
        "religion",
        "age",
        "name_gender",
        "pronouns",
    }
