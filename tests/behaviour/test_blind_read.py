"""benchmarks.blind_read: the draw writes batches a reader can take (no list, corpus or
variant shown) with no text twice and none read before; the tally counts each list's items
wrong to both readers and to either, and refuses a reading out of the rubric."""

import json

import pytest

from benchmarks import blind_read

TEXTS = [
    "Americans are lovely people.",
    "Mexicans are the kindest hosts I know.",
    "My Syrian neighbour brought us soup.",
    "Germans are always on time, they say.",
    "I think Brazilians are funny.",
]


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.tsv"
    path.write_text("text\n" + "\n".join(TEXTS) + "\n", encoding="utf-8")
    return path


def test_a_draw_shows_readers_only_the_marked_text_and_leaves_out_what_was_read(corpus, tmp_path):
    items = blind_read.draw([corpus], ["nationality"], [10], seed=3)
    assert 3 <= len(items) <= len(TEXTS)
    assert len({i["text"] for i in items}) == len(items)
    blind_read.write(items, tmp_path / "read")
    batch = json.loads((tmp_path / "read" / "batch00.json").read_text(encoding="utf-8"))
    assert all(set(entry) == {"item", "shown"} and "[[" in entry["shown"] for entry in batch)
    assert (tmp_path / "read" / "RUBRIC.md").read_text(encoding="utf-8").startswith("# Reading")
    again = blind_read.draw(
        [corpus], ["nationality"], [10], seed=3, exclude=[tmp_path / "read" / "items.json"]
    )
    assert again == []


def test_the_tally_counts_wrong_to_both_and_to_either(corpus, tmp_path):
    items = blind_read.draw([corpus], ["nationality"], [3], seed=3)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    verdicts = [(False, False), (False, True), (True, True)]
    for path, side in ((first, 0), (second, 1)):
        lines = [
            {"item": i["item"], "acceptable": v[side], "class": None if v[side] else "WORLD"}
            for i, v in zip(items, verdicts, strict=True)
        ]
        path.write_text("\n".join(json.dumps(x) for x in lines), encoding="utf-8")
    counted = blind_read.tally(items, [first, second])["lists"]["nationality"]
    assert (counted["items"], counted["wrong_to_both"], counted["wrong_to_either"]) == (3, 1, 2)
    assert counted["classes"] == {"WORLD": 3}
    second.write_text(json.dumps({"item": items[0]["item"], "acceptable": False}), "utf-8")
    with pytest.raises(ValueError, match="out of the rubric"):
        blind_read.tally(items, [first, second])
