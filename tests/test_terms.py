"""Term lists: the shipped lists are exact, user files are validated with one-line errors."""

import pytest

from textfair.errors import TextfairError
from textfair.terms import builtin_term_lists, load_gender_pairs, load_term_list

# Table 1 of TestSGD (Dixon et al. 2018), as printed in shared/PAPERS.md.
DIXON_2018 = {
    "gender": "lesbian gay bisexual transgender trans queer lgbt lgbtq homosexual straight "
    "heterosexual male female nonbinary",
    "race": "african|african american|black|white|european|hispanic|latino|latina|latinx|"
    "mexican|canadian|american|asian|indian|middle eastern|chinese|japanese",
    "religion": "christian muslim jewish buddhist catholic protestant sikh taoist atheist",
    "age": "old|older|young|younger|teenage|millennial|middle aged|elderly",
}


def _expected(category):
    text = DIXON_2018[category]
    return text.split("|") if "|" in text else text.split()


def test_dixon2018_has_the_48_terms_of_the_paper_in_4_categories():
    terms = load_term_list("dixon2018")
    assert list(terms.categories) == ["gender", "race", "religion", "age"]
    for category in DIXON_2018:
        assert [t.id for t in terms.categories[category]] == _expected(category)
    assert len(terms) == 48
    assert "Dixon" in terms.source and "TestSGD" in terms.source


def test_terms_carry_forms_and_flags():
    terms = load_term_list("dixon2018")
    jewish = terms.term("Jews")
    assert (jewish.singular_noun, jewish.plural_noun) == ("Jew", "Jews")
    gay = terms.term("gay")
    assert gay.singular_noun is None and gay.plural_noun is None  # "gays" is matched, not written
    assert terms.term("african-american").id == "african american"
    assert terms.term("LGBTQ+").id == "lgbtq" and terms.term("lgbt").article == "an"
    gated = {t.id for t in terms.terms() if t.person_context}
    assert {"white", "black", "old", "young", "older", "younger", "straight"} <= gated


def test_gender_pairs_has_at_least_40_pairs_and_resolves_her():
    pairs = load_gender_pairs()
    assert len(pairs) >= 40
    her = {(p.masculine, p.when) for p in pairs.pairs if p.feminine == "her"}
    assert her == {("his", "before_noun"), ("him", "not_before_noun")}
    assert builtin_term_lists() == {"dixon2018": "terms", "gender_pairs": "pairs"}


def test_user_yaml_and_csv(write):
    yaml_file = write("mine.yaml", "categories:\n  pets: [cat lover, dog lover]\n")
    assert [t.id for t in load_term_list(yaml_file).terms()] == ["cat lover", "dog lover"]
    csv_file = write("mine.csv", "category,term\ncolour,red\ncolour,blue\nsize,big\nsize,small\n")
    loaded = load_term_list(csv_file)
    assert list(loaded.categories) == ["colour", "size"] and len(loaded) == 4


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.yaml", "categories:\n  age: []\n", "category 'age' is empty; add at least two"),
        ("one.yaml", "categories:\n  age: [old]\n", "has one term ('old'), so no counterfactual"),
        ("two.yaml", "categories:\n  a: [gay, x]\n  b: [gay, y]\n", "is in both 'a' and 'b'"),
        ("dup.yaml", "categories:\n  a: [gay, Gay]\n", "listed twice in 'a'"),
        (
            "key.yaml",
            "categories:\n  a: [{term: x, plurals: xs}, y]\n",
            "unknown key 'plurals' in term 'x' (category 'a'); expected one of: term, pos",
        ),
        ("top.yaml", "categoris:\n  a: [x, y]\n", "unknown key 'categoris' in the top level"),
        ("pos.yaml", "categories:\n  a: [{term: x, pos: verb}, y]\n", "expected adjective, noun"),
        ("bad.yaml", "categories: [\n", "malformed YAML"),
        ("list.yaml", "- a\n- b\n", "expected a YAML mapping"),
        ("bad.csv", "kind,word\na,b\n", "expected exactly 'category,term'"),
        ("row.csv", "category,term\na,\n", "line 2"),
        ("none.yaml", "name: x\n", "expected `categories:`"),
    ],
)
def test_invalid_lists_give_one_line_naming_file_entry_and_fix(write, name, content, message):
    path = write(name, content)
    with pytest.raises(TextfairError) as caught:
        load_term_list(path)
    text = str(caught.value)
    assert message in text
    assert str(path) in text and "\n" not in text


def test_unknown_list_non_utf8_and_wrong_kind(write):
    with pytest.raises(TextfairError, match=r"unknown term list 'nope'.*available: dixon2018"):
        load_term_list("nope")
    latin1 = write("latin.csv", "category,term\nreligion,caf\xe9\n".encode("latin-1"))
    with pytest.raises(TextfairError, match=r"not UTF-8 text \(byte 0xe9 at offset 26\)"):
        load_term_list(latin1)
    with pytest.raises(TextfairError, match="'gender_pairs' is a list of pairs, not of terms"):
        load_term_list("gender_pairs")
    with pytest.raises(TextfairError, match=r"unknown category 'colour'.*available: gender"):
        load_term_list("dixon2018").category_names(["colour"])
