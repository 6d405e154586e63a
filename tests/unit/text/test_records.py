"""The JSON-lines records of one seed text (textfair.text.records.seed_records): its
counterfactuals as `textfair counterfactuals` writes them, those below `min_acceptability`
left out, the gender swap last, and the seed id as plain JSON."""

import json

import numpy as np
import pytest

from textfair.text.matcher import Matcher
from textfair.text.records import seed_records

SEED = "She is black and proud."
# What the dixon2018 list writes for "black" here, with each target's acceptability.
RACE = {
    "african american": 0.978,
    "white": 0.972,
    "hispanic": 0.972,
    "latino": 0.972,
    "latina": 0.977,
    "latinx": 0.972,
}


@pytest.fixture(scope="module")
def matcher():
    return Matcher("dixon2018")


def _records(matcher, text=SEED, **given):
    arguments = {"seed_id": 7, "names": None, "gender_swap": False, "max_variants": 100}
    arguments.update(given)
    return seed_records(text=text, matcher=matcher, seed=0, **arguments)


def test_each_counterfactual_is_a_record_that_swaps_the_term(matcher):
    records = _records(matcher)
    assert {record["to"]: record["acceptability"] for record in records} == RACE
    white = next(record for record in records if record["to"] == "white")
    assert white == {
        "seed_id": 7,
        "text": "She is white and proud.",
        "category": "race",
        "from": "black",
        "to": "white",
        "acceptability": 0.972,
        "swaps": [{"category": "race", "from": "black", "to": "white"}],
        "world": None,  # no real, named person or work the swap may make false (issue 56)
    }
    assert all(record["text"].startswith("She is ") for record in records)


def test_min_acceptability_leaves_out_the_records_below_it(matcher):
    kept = _records(matcher, min_acceptability=0.975)
    assert sorted(record["to"] for record in kept) == sorted(
        target for target, score in RACE.items() if score >= 0.975
    )
    assert "white" not in {record["to"] for record in kept}
    assert [record["to"] for record in _records(matcher, min_acceptability=0.978)] == [
        "african american"
    ]
    assert _records(matcher, min_acceptability=0.99) == []


def test_the_gender_swap_is_the_last_record(matcher):
    records = _records(matcher, gender_swap=True)
    assert len(records) == len(RACE) + 1
    assert records[-1] == {
        "seed_id": 7,
        "text": "He is black and proud.",
        "category": "gender_pairs",
        "from": "she",
        "to": "he",
        "acceptability": None,
        "swaps": [{"category": "gender_pairs", "from": "she", "to": "he"}],
        "world": None,
    }
    assert records[:-1] == _records(matcher)


def test_a_text_with_no_gendered_word_gets_no_swap_record(matcher):
    text = "The weather is fine today."
    assert _records(matcher, text=text, gender_swap=True) == []
    assert _records(matcher, text="He is nice.", gender_swap=True)[0]["text"] == "She is nice."
    assert _records(matcher, text="He is nice.", gender_swap=False) == []


def test_names_choose_the_categories_rewritten(matcher):
    text = "The old Muslim man smiled."
    everything = _records(matcher, text=text, max_variants=500)
    assert {record["category"] for record in everything} == {"age", "religion", "age+religion"}
    age = _records(matcher, text=text, names=["age"], max_variants=500)
    assert {record["category"] for record in age} == {"age"}
    assert all("Muslim" in record["text"] for record in age)
    assert len(age) == sum(record["category"] == "age" for record in everything)


def test_max_variants_draws_with_the_seed(matcher):
    text = "The old Muslim man smiled."
    every = _records(matcher, text=text, max_variants=500)
    drawn = seed_records(1, text, matcher, None, False, 5, seed=0)
    again = seed_records(1, text, matcher, None, False, 5, seed=0)
    other = seed_records(1, text, matcher, None, False, 5, seed=1)
    assert len(drawn) == 5 and drawn == again
    assert {r["text"] for r in drawn} <= {r["text"] for r in every}
    assert [r["text"] for r in other] != [r["text"] for r in drawn]


@pytest.mark.parametrize(
    ("seed_id", "written"),
    [(np.int64(12), 12), (np.int32(-3), -3), (12, 12), ("row-7", "row-7"), (None, None)],
)
def test_the_seed_id_is_written_as_a_plain_value(matcher, seed_id, written):
    records = _records(matcher, seed_id=seed_id, gender_swap=True)
    assert [record["seed_id"] for record in records] == [written] * (len(RACE) + 1)
    assert all(type(record["seed_id"]) is type(written) for record in records)
    line = json.dumps(records[-1])  # a numpy integer would not serialise
    assert json.loads(line)["seed_id"] == written


def test_a_numpy_string_seed_id_is_a_plain_string(matcher):
    (record,) = _records(matcher, seed_id=np.str_("row-7"), max_variants=1)
    assert type(record["seed_id"]) is str and record["seed_id"] == "row-7"
