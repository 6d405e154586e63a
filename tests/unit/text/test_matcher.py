"""Mention detection: spans, forms, context gates, and precision/recall on hand-labelled data."""

import json

import pytest

from textfair.terms import load_term_list
from textfair.text.matcher import Matcher, find_mentions

from conftest import DATA


def surfaces(text):
    return [(m.surface, m.term_id, m.form) for m in find_mentions(text)]


def test_longest_match_multiword_hyphen_case_and_possessives():
    text = "An African-American met GAY Muslims and a Muslim’s AFRICAN AMERICAN friend."
    found = find_mentions(text)
    assert [(m.surface, m.term_id) for m in found] == [
        ("African-American", "african american"),
        ("GAY", "gay"),
        ("Muslims", "muslim"),
        ("Muslim", "muslim"),
        ("AFRICAN AMERICAN", "african american"),
    ]
    possessive = found[3]
    assert possessive.possessive == "’s" and text[possessive.start : possessive.end] == "Muslim’s"
    assert found[2].form == "plural"


def test_spans_categories_and_word_boundaries():
    text = "Gayle is not gay; the Americans' flag; a straightforward Jewishness."
    found = find_mentions(text)
    assert [(m.term_id, m.category) for m in found] == [("gay", "gender"), ("american", "race")]
    assert text[found[1].start : found[1].end] == "Americans'"


@pytest.mark.parametrize(
    "text",
    [
        "I drink black coffee.",
        "A black and white film.",
        "Pass the white wine.",
        "My old car broke down.",
        "Draw a straight line.",
        "I love young adult fiction.",
        "She is 20 years old.",
        "The White House said no.",
        "Jack Black and Betty White starred.",
        "Christian Slater starred.",
        "It is an old version of the page.",
        "I watched Wet Hot American Summer twice.",
        "See www.Christian-Bible.com for details.",
        "Go straight to the point.",
    ],
)
def test_gates_drop_non_identity_uses(text):
    assert find_mentions(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Black people live here.", [("Black", "black", "adjective")]),
        ("a black man", [("black", "black", "adjective")]),
        ("white women", [("white", "white", "adjective")]),
        ("the elderly", [("elderly", "elderly", "collective")]),
        ("an old man", [("old", "old", "adjective")]),
        ("I am old.", [("old", "old", "adjective")]),
        ("He's straight.", [("straight", "straight", "adjective")]),
        ("a young, shy girl", [("young", "young", "adjective")]),
        ("a very young Bob Saget", [("young", "young", "adjective")]),
        ("the young and the restless", [("young", "young", "collective")]),
        (
            "people, gay and straight",
            [("gay", "gay", "adjective"), ("straight", "straight", "adjective")],
        ),
        (
            "black and white audiences",
            [("black", "black", "adjective"), ("white", "white", "adjective")],
        ),
        (
            "white South Africans",
            [("white", "white", "adjective"), ("Africans", "african", "plural")],
        ),
    ],
)
def test_gates_keep_people(text, expected):
    assert surfaces(text) == expected


def test_noun_and_adjective_readings():
    assert surfaces("I am a Muslim.")[0][2] == "noun"
    assert surfaces("a Muslim man")[0][2] == "adjective"
    assert surfaces("I'm Muslim.")[0][2] == "adjective"
    assert surfaces("a Jew")[0][2] == "noun"


def test_category_filter_and_custom_list(write):
    assert [m.term_id for m in find_mentions("a gay Muslim", ["religion"])] == ["muslim"]
    custom = load_term_list(write("c.yaml", "categories:\n  diet: [vegan, carnivore]\n"))
    assert [m.term_id for m in Matcher(custom).find("Vegans? No, a vegan.")] == ["vegan"]


GOLD_MENTIONS = ("mention_gold.jsonl", "mention_gold_heldout.jsonl", "mention_gold_2026.jsonl")


def _records(*names):
    for name in names:
        with open(DATA / name, encoding="utf-8") as handle:
            yield from (json.loads(line) for line in handle)


def test_precision_and_recall_on_hand_labelled_real_sentences():
    from textfair.text._evaluation import score_mentions
    from textfair.text.matcher import default_matcher

    scores = score_mentions(_records(*GOLD_MENTIONS), default_matcher())
    assert scores.sentences >= 400
    assert scores.precision >= 0.95, scores
    assert scores.recall >= 0.95, scores


def test_hand_labelled_variants_read_well():
    """200 audit variants of real comments and reviews, labelled by reading them."""
    from textfair.text._evaluation import score_variants

    scores = score_variants(_records("variant_gold.jsonl"))
    assert scores.labelled >= 200
    # Most of these seeds are whole documents whose context names the old identity too
    # (textfair.text._coherence leaves them out of the category's rows): of the 200, those
    # still written word for word are scored. (49 since the pregnancy life stage: a "middle
    # aged woman" hiding "her possible pregnancy" is no longer written "elderly", labelled
    # acceptable here, read IN_TEXT as "60-year-old" by the strict read of issue 56.)
    assert scores.still_generated >= 49
    assert scores.acceptability >= 0.957, scores


def test_comparatives_and_degrees_stay_comparatives_and_degrees():
    from textfair.text.domain import TextDomain
    from textfair.text.generate import counterfactuals

    # A degree ("too young") becomes another gradable term only; a comparative, another
    # comparative (their own axis in dixon2018): "too elderly", "elderly than" never.
    assert [v.text for v in counterfactuals("You are too young to vote.", ["age"])] == [
        "You are too old to vote."
    ]
    assert [v.text for v in counterfactuals("An older man said so.", ["age"])] == [
        "A younger man said so."
    ]
    assert counterfactuals("old enough", ["age"]) == []
    found = find_mentions("You are too young to vote, and an older man said so.")
    assert [(m.term_id, m.fixed) for m in found] == [("young", False), ("older", False)]
    domain = TextDomain(["A young friend came.", "A young man spoke."], categories=["age"])
    assert domain.category_mask("age").tolist() == [False, True]
    assert domain.fixed_forms == {"age": 1}  # "a young friend" -> "an old friend": an idiom
    assert [v.text for v in counterfactuals("A young man spoke.", ["age"])][:1] == [
        "An old man spoke."
    ]


def test_hyphenated_halves_are_adjectives_and_unlisted_compounds_are_never_rewritten():
    from textfair.text.generate import counterfactuals

    half = find_mentions("I am half-Chinese myself.")
    assert [(m.term_id, m.form) for m in half] == [("chinese", "adjective")]
    texts = {v.text for v in counterfactuals("I am half-Chinese myself.", ["race"])}
    assert "I am half-Japanese myself." in texts  # a nationality stays a nationality
    assert "I am half-African myself." not in texts
    compound = find_mentions("an Asian American actor")
    assert [(m.term_id, m.fixed) for m in compound] == [("asian", True), ("american", True)]
    assert counterfactuals("an Asian American actor", ["race"]) == []
    assert counterfactuals("Many Italian Americans live here.", ["race"]) == []
    assert [m.term_id for m in find_mentions("an African American actor")] == ["african american"]


# Slow tier: it writes every unit of the gold set again (6-8 s).
@pytest.mark.slow
def test_the_long_form_gold_set_is_scored_per_half_against_what_the_code_writes():
    from textfair.text._evaluation import score_longform

    records = list(_records("variant_gold_longform.jsonl"))
    assert {r["split"] for r in records} == {"tune", "frozen"}
    # Split by document before any rule was tuned: no document is in both halves.
    halves: dict[str, set] = {"tune": set(), "frozen": set()}
    for r in records:
        halves[r["split"]].add((r["source"], r["doc_id"]))
    assert not halves["tune"] & halves["frozen"]
    tune = score_longform(records, "tune")
    assert tune.units > 100 and 0 < tune.taking_part <= tune.units
    assert tune.labelled + len(tune.unlabelled) <= tune.taking_part
    # A label counts only for the very variant it was given to.
    changed = [{**r, "variant": r["variant"] + " (edited)"} for r in records]
    assert score_longform(changed, "tune").labelled == 0


# Slow tier: it writes every unit of the gold set again (6-8 s).
@pytest.mark.slow
def test_the_long_form_gold_set_is_scored_sentence_by_sentence_against_what_the_code_writes():
    from textfair.text._evaluation import score_longform_sentences

    units = list(_records("variant_gold_longform.jsonl"))
    readings = list(_records("variant_gold_longform_sentences.jsonl"))
    # Readings were taken on the tuning half only: the frozen half stays unread.
    assert {r["split"] for r in readings} == {"tune"}
    assert {r["unit"] for r in readings} <= {u["id"] for u in units if u["split"] == "tune"}
    tune = score_longform_sentences(units, readings, "tune")
    assert tune.units > 100 and 0 < tune.labelled <= tune.taking_part <= tune.units
    frozen = score_longform_sentences(units, readings, "frozen")
    assert frozen.labelled == 0 and len(frozen.unlabelled) == frozen.taking_part
    # A reading counts only for the very variant it was given to.
    changed = [{**r, "variant": r["variant"] + " (edited)"} for r in readings]
    assert score_longform_sentences(units, changed, "tune").labelled == 0


class _EveryWord(frozenset):
    """A word set that holds every word: `_in_collocation` then always scans."""

    def issuperset(self, other) -> bool:
        return True


def test_the_collocation_shortcut_gives_the_full_scans_answer(monkeypatch):
    """A candidate with a word that no listed collocation has is not scanned; on the
    bundled comments, the gold sentences and phrases a collocation holds in pieces ("Jew's
    harp": jew, s, harp), the matches are those of the scan of every candidate."""
    from textfair.corpus import load_corpus
    from textfair.text import _context as context

    texts = load_corpus().texts + [r["text"] for r in _records("mention_gold_2026.jsonl")]
    texts += [
        "He played the Jew's harp and the jews harp at the Jew’s Harp Inn.",
        "a BLACK MARKET deal, a black-market deal, Black Friday, old school friends",
        "the black and white audiences liked the black and white film; a young adult novel",
    ]
    shortcut = Matcher("dixon2018")
    found = [(shortcut.find(t), shortcut.other_uses(t)) for t in texts]
    monkeypatch.setattr(context, "collocation_words", lambda: _EveryWord())
    scanned = Matcher("dixon2018")
    assert [(scanned.find(t), scanned.other_uses(t)) for t in texts] == found
    assert any(use.surface == "Jew" for _, uses in found for use in uses)  # the harp, kept
