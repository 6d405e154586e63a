"""A user's YAML parsed safely and in bounded time (textfair.io._safe_yaml): plain data only,
no tags that build Python objects, no anchors or aliases, one-line errors with the place."""

import time

import pytest

from textfair.io._safe_yaml import load_yaml

from conftest import one_line_error


def _refusal(text, label="terms.yaml", **kwargs) -> str:
    return str(one_line_error(load_yaml, text, label, **kwargs))


def test_plain_data_is_parsed():
    text = "name: mine\ncategories:\n  religion: [Muslim, Jewish]\n  age:\n    - term: old\n"
    assert load_yaml(text, "terms.yaml") == {
        "name": "mine",
        "categories": {"religion": ["Muslim", "Jewish"], "age": [{"term": "old"}]},
    }


def test_an_empty_document_is_none():
    assert load_yaml("", "terms.yaml") is None


@pytest.mark.parametrize(
    "tag",
    ["!!python/object/apply:os.system", "!!python/object:os.system", "!!python/name:os.system"],
)
def test_python_tags_are_refused_and_build_nothing(tmp_path, tag):
    witness = tmp_path / "ran"
    message = _refusal(f"{tag} ['touch {witness}']\n")
    assert message.startswith("terms.yaml: malformed YAML (could not determine a constructor")
    assert f"'tag:yaml.org,2002:{tag[2:]}'" in message
    assert message.endswith("at line 1, column 1); fix the syntax")
    assert not witness.exists()


def test_a_python_tag_deep_in_a_document_is_refused_at_its_line(tmp_path):
    witness = tmp_path / "ran"
    text = f"name: mine\ncategories:\n  age: !!python/object/apply:os.system ['touch {witness}']\n"
    assert "at line 3, column 8" in _refusal(text)
    assert not witness.exists()


def test_an_anchor_is_refused_at_its_line():
    message = _refusal("a: 1\nb: &shared [1, 2]\nc: 3\n")
    assert message == (
        "terms.yaml: YAML anchors and aliases (&name, *name) are not accepted (line 2); "
        "write the values out"
    )


def test_a_billion_laughs_document_is_refused_at_once():
    levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for k in range(1, 9):
        previous = chr(ord("a") + k - 1)
        name = chr(ord("a") + k)
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    started = time.perf_counter()
    message = _refusal("\n".join(levels) + "\n")
    assert time.perf_counter() - started < 0.5
    assert "anchors and aliases" in message and "(line 1)" in message


def test_malformed_yaml_names_the_problem_its_place_and_the_hint():
    message = _refusal("key: value\n  bad: 1\n", "schema.yaml", hint="see the schema page")
    assert message == (
        "schema.yaml: malformed YAML (mapping values are not allowed in this context at line "
        "2, column 6); see the schema page"
    )
