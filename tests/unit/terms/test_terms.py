"""Term lists: the shipped lists are exact, user files are validated with one-line errors."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.errors import TextfairError
from textfair.terms import builtin_term_lists, load_gender_pairs, load_term_list

from locations import ROOT
from synthetic import FILLER

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
    assert builtin_term_lists() == {
        "dixon2018": "terms",
        "holistic": "terms",
        "names": "terms",
        "names_ethnicity": "terms",
        "nationality": "terms",
        "nationality_income": "terms",
        "pronouns": "terms",
        "gender_pairs": "pairs",
    }


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


GOOD_LIST = """\
name: mine
categories:
  gender:
    - term: gay
      pos: adjective
    - lesbian
  religion:
    - Muslim
    - Christian
"""

# (what is wrong, the list with it, the line the message must name, words it must hold)
MISTAKES = [
    ("unknown top-level key", GOOD_LIST + "colour: red\n", 10, "unknown key 'colour'"),
    ("unknown term key", GOOD_LIST.replace("pos: adjective", "pso: adjective"), 5, "'pso'"),
    ("bad pos", GOOD_LIST.replace("pos: adjective", "pos: verb"), 5, "pos: 'verb'"),
    ("bad article", GOOD_LIST.replace("pos: adjective", "article: the"), 5, "article"),
    ("flag not a boolean", GOOD_LIST.replace("pos: adjective", "nominal: maybe"), 5, "nominal"),
    ("entry without term", GOOD_LIST.replace("- lesbian", "- {pos: noun}"), 6, "no `term:`"),
    ("empty term", GOOD_LIST.replace("- lesbian", "- ' '"), 6, "empty term"),
    ("punctuation as a term", GOOD_LIST.replace("- lesbian", "- '-'"), 6, "no letter"),
    (
        "category not a list",
        GOOD_LIST.replace("  religion:\n    - Muslim\n    - Christian\n", "  religion: Muslim\n"),
        7,
        "expected a list",
    ),
    ("one-term category", GOOD_LIST.replace("    - Christian\n", ""), 7, "has one term"),
    ("empty category", GOOD_LIST + "  age:\n", 10, "is empty"),
    ("duplicate term", GOOD_LIST + "    - Muslim\n", 10, "listed twice"),
    ("form in two categories", GOOD_LIST + "  other:\n    - gay\n    - queer\n", 11, "in both"),
    ("plural not a word", GOOD_LIST.replace("pos: adjective", "plural: [1, 2]"), 5, "plural"),
    ("YAML syntax", GOOD_LIST.replace("  religion:", "  religion: [", 1), 8, "malformed YAML"),
]


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize(("name", "text", "line", "words"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_terms_validate_names_the_line_of_each_kind_of_mistake(name, text, line, words, tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(text)
    result = run("terms", "validate", str(path))
    assert result.exit_code == 2, result.output
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and words in message, message
    assert f"line {line}" in message, message


def test_the_good_list_validates(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(GOOD_LIST)
    result = run("terms", "validate", str(path))
    assert result.exit_code == 0 and "2 categories, 4 terms" in result.output


def test_terms_new_writes_a_template_that_validates_and_never_overwrites(tmp_path):
    path = tmp_path / "mine.yaml"
    assert run("terms", "new", str(path)).exit_code == 0
    assert "person_context:" in path.read_text()  # the schema is documented in the file
    result = run("terms", "validate", str(path))
    assert result.exit_code == 0 and "2 categories, 5 terms" in result.output
    before = path.read_text()
    again = run("terms", "new", str(path))
    assert again.exit_code == 2 and "exists" in again.output and path.read_text() == before


def test_lists_combine_and_a_form_in_two_of_them_is_refused(tmp_path):
    path = tmp_path / "more.yaml"
    path.write_text(
        "categories:\n  religion:\n    - Shinto\n    - Jain\n"
        "  diet:\n    - vegan\n    - vegetarian\n"
    )
    both = load_term_list(f"dixon2018,{path}")
    assert "shinto" in {t.id for t in both.terms(["religion"])} and "diet" in both.categories
    assert len(both) == len(load_term_list("dixon2018")) + 4
    clash = tmp_path / "clash.yaml"
    clash.write_text("categories:\n  other:\n    - gay\n    - vegan\n")
    with pytest.raises(TextfairError, match="in both"):
        load_term_list(f"dixon2018,{clash}")


@pytest.mark.slow  # a command-line audit end to end, 4 s: the fast tier keeps to 3 minutes
def test_the_documented_example_list_audits_end_to_end(tmp_path):
    """The YAML block of the term-list page, validated and audited with the bundled model on a
    forum corpus of real sentences that name its terms."""
    page = ROOT / "docs" / "pages" / "term-lists.md"
    block = re.search(r"```yaml\n(name: mine\n.*?)```", page.read_text("utf-8"), re.DOTALL)[1]
    (tmp_path / "mine.yaml").write_text(block, encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(app, ["terms", "validate", str(tmp_path / "mine.yaml")])
    assert checked.exit_code == 0, checked.output
    people = ["blind", "deaf", "autistic", "disabled"]
    origins = ["Nigerian", "Polish", "Irish", "Syrian"]
    rng = np.random.default_rng(4)
    rows = [
        f"My {rng.choice(people)} {rng.choice(origins)} neighbour {FILLER[i % len(FILLER)]}, "
        f"thread {i}."
        for i in range(240)
    ]
    pd.DataFrame({"text": rows}).to_csv(tmp_path / "forum.csv", index=False)
    out = tmp_path / "forum-report"
    args = ["audit", "--terms", str(tmp_path / "mine.yaml"), "--data", str(tmp_path / "forum.csv")]
    done = runner.invoke(app, [*args, "--text-column", "text", "--out", str(out)])
    assert done.exit_code in (0, 1), done.output
    report = json.loads((out / "report.json").read_text())
    categories = {r["category"] for f in report["findings"] for r in f["rule_set"]}
    assert categories == {"disability", "nationality"}
    assert report["config"]["term_list"].endswith("mine.yaml")
