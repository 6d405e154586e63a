"""nationality and nationality_income (issue 44, part 2): countries' people by their demonyms
(CIA World Factbook), alone and by the World Bank income group of their country; a country
named as a place or a nation's thing is no mention, and a swap keeps the rest of the text
true (the country's name goes with its people, articles go by sound)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import textfair
from textfair.core.rules import Rule, RuleSet
from textfair.errors import TextfairError
from textfair.terms import load_term_list
from textfair.text.domain import TextDomain
from textfair.text.matcher import Matcher

from locations import ROOT

INCOME = (
    "high income nationality",
    "upper middle income nationality",
    "lower middle income nationality",
    "low income nationality",
)


def rewrite(text, term_list, category, target):
    """The text rewritten to `target`, or None when its plan does not allow that target."""
    domain = TextDomain([text], term_list, min_acceptability=0)
    written = domain.rewrite(0, RuleSet((Rule(category, target),)))
    return None if written is None else written.input


def left_out(text, term_list="nationality", category="nationality"):
    """Why `text` takes no part in the category's rows (None: it takes part)."""
    domain = TextDomain([text], term_list, min_acceptability=0)
    reasons = [r for r, n in domain.left_out[category].items() if n]
    return reasons[0] if reasons else None


def test_the_list_holds_the_factbook_demonyms_with_their_source_and_licence():
    nationality = load_term_list("nationality")
    assert list(nationality.categories) == ["nationality"] and len(nationality) == 185
    assert "Factbook" in nationality.source and "public domain" in nationality.licence.lower()
    terms = nationality.terms()
    assert all(t.person_context for t in terms)
    mexican = nationality.term("Mexicans")
    assert (mexican.text, mexican.singular_noun, mexican.plural_noun) == (
        "Mexican",
        "Mexican",
        "Mexicans",
    )
    assert dict(mexican.related) == {"country": "Mexico"}
    assert nationality.term("Swedes").singular_noun == "Swede"
    assert nationality.term("filipino").text == "Filipino"  # not the Factbook's "Philippine"
    # Left out: dependencies, demonyms of two countries, words that name something else.
    for word in ("Puerto Rican", "Korean", "Congolese", "Dominican", "Georgian", "Pole"):
        with pytest.raises(TextfairError):
            nationality.term(word)


def test_the_header_records_sources_commits_checksum_and_every_country_left_out():
    header = (ROOT / "term_lists" / "nationality.yaml").read_text(encoding="utf-8")
    assert "8662a8b17a784841ab4528631b04090eb2f183eb" in header  # factbook.json
    assert "4f58f4f042f782cd1f358516f2372d61863de745" in header  # GPID-WB/Class
    assert "045cdac0dae551968dbde9ccc49cdc5cede11eed6951916919cec8138db10e38" in header
    assert "A nationality is a proxy, not a person's identity" in header
    assert "Left out (33 of the World Bank's 218 economies)" in header
    assert '#   Korea, Rep.: "Korean" names the people of Korea, Dem. People\'s Rep. too.' in header


def test_income_groups_hold_the_classified_countries_of_the_nationality_list():
    income = load_term_list("nationality_income")
    groups = income.categories["income_group"]
    assert [g.id for g in groups] == list(INCOME)
    assert [len(g.members) for g in groups] == [61, 51, 48, 23]
    assert "World Bank" in income.source and "CC BY 4.0" in income.licence
    members = {m.text for g in groups for m in g.members}
    demonyms = {t.text for t in load_term_list("nationality").terms()}
    assert members == demonyms - {"Ethiopian", "Venezuelan"}  # unclassified for FY2026
    by_group = {m.text: g.id for g in groups for m in g.members}
    assert by_group["American"] == "high income nationality"
    assert by_group["Mexican"] == "upper middle income nationality"
    assert by_group["Kenyan"] == "lower middle income nationality"
    assert by_group["Afghan"] == "low income nationality"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Mexicans are lazy.", [("Mexicans", "plural")]),
        ("He is a Mexican.", [("Mexican", "noun")]),
        ("Mexican people are nice.", [("Mexican", "adjective")]),
        ("The French are rude.", [("French", "collective")]),
        (
            "She is Swedish and her husband is a Swede.",
            [("Swedish", "adjective"), ("Swede", "noun")],
        ),
        # A country is a place, and a nation's thing is no person.
        ("Iraq has done better.", []),
        ("I love Mexican food.", []),
        ("The Chinese government lied.", []),
        # A noun that is an ordinary word is not listed: "pole".
        ("He climbed a pole.", []),
    ],
)
def test_demonyms_count_where_they_describe_or_stand_for_people(text, found):
    mentions = Matcher("nationality").find(text)
    assert [(m.surface, m.form) for m in mentions] == found


def test_a_swap_writes_the_form_of_the_mention_with_the_article_it_sounds():
    assert rewrite("Mexicans are lazy.", "nationality", "nationality", "kenyan") == (
        "Kenyans are lazy."
    )
    # One person counts where the text shows a private one ("my neighbour"): `groups_only`.
    assert rewrite("My neighbour is a Mexican.", "nationality", "nationality", "indian") == (
        "My neighbour is an Indian."
    )
    assert rewrite("I'm an Indian.", "nationality", "nationality", "uruguayan") == (
        "I'm a Uruguayan."
    )
    # A country with no noun for its people: "<adjective> person", "<adjective> people".
    assert rewrite("My neighbour is a Mexican.", "nationality", "nationality", "french") == (
        "My neighbour is a French person."
    )
    assert rewrite("Mexicans are lazy.", "nationality", "nationality", "polish") == (
        "Polish people are lazy."
    )


def test_the_country_named_with_its_people_is_rewritten_with_them():
    text = "My friend, a Mexican from Mexico, came here."
    assert rewrite(text, "nationality", "nationality", "kenyan") == (
        "My friend, a Kenyan from Kenya, came here."
    )
    # "from the United Kingdom" is not written where "Mexico" was: no British variant.
    assert rewrite(text, "nationality", "nationality", "british") is None


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Mexicans love Mexican food.", "other_use"),  # "Mexican food" would stay
        ("Mexicans and Kenyans met.", "several_terms"),
        ("Mexicans moved to Kenya.", "several_terms"),  # Kenya's people are named too
        ("Americans in Latin America.", "cue"),  # "Latin America" is no "Latin Kenya"
        ("The Indians lived on the reservation.", "cue"),  # the Native American sense
        ("The Dutch are proud, like every Dutchman.", "cue"),  # "Dutchman" has no counterpart
        ("Poles and Polish people alike.", "cue"),
        ("Mexicans are lazy.", None),
    ],
)
def test_a_text_a_swap_could_not_keep_true_is_left_out(text, why):
    assert left_out(text) == why


def test_a_nationality_beside_this_country_is_that_countrys():
    # Issue 56, IN_TEXT: "changed American culture ... coming into this country".
    text = "LSD changed American culture. Much cocaine came into this country then."
    assert left_out(text, "dixon2018", "race") == "cue"
    near = "LSD changed American culture. Much cocaine came into this city then."
    assert left_out(near, "dixon2018", "race") is None


def test_an_income_swap_writes_a_member_of_the_target_group_with_its_country():
    income = load_term_list("nationality_income")
    low = {m.text: m for m in income.term("low income nationality").members}
    written = rewrite("Mexicans are lazy.", "nationality_income", "income_group", INCOME[3])
    plurals = {m.plural_noun or f"{m.text} people" for m in low.values()}
    assert written.removesuffix(" are lazy.") in plurals
    written = rewrite(
        "My friend, a Mexican from Mexico, came here.",
        "nationality_income",
        "income_group",
        INCOME[2],
    )
    before, after = written.removeprefix("My friend, ").split(" from ")
    country = after.removesuffix(", came here.")
    [member] = [
        m for m in income.term(INCOME[2]).members if dict(m.related).get("country") == country
    ]
    assert before in (f"a {member.text}", f"an {member.text}")
    assert before.split()[0] == ("an" if member.text[0] in "AEIOU" else "a")


def test_an_income_swap_keeps_the_text_true():
    category = "income_group"
    # Two countries of one group would become one: left out.
    for text in ("Mexicans and Brazilians met.", "Mexicans moved to Brazil."):
        assert left_out(text, "nationality_income", category) == "several_terms"
    # Counterfactuals map the groups a text names to distinct groups: nationalities of two
    # groups are rewritten, each to a member of its target with that member's country.
    matcher = Matcher("nationality_income")
    variants = textfair.counterfactuals("Mexicans from Mexico met Kenyans.", matcher=matcher)
    assert variants and all("Mexic" not in v.text for v in variants if len(v.swaps) == 2)
    assert textfair.counterfactuals("Mexicans met Brazilians.", matcher=matcher) == []
    # A member's own rules: "Mexican food" is a nation's thing.
    assert Matcher("nationality_income").find("I love Mexican food.") == []
    [mention] = Matcher("nationality_income").find("Mexicans are lazy.")
    assert (mention.term_id, mention.member.text) == (INCOME[1], "Mexican")
    # The same text is always rewritten to the same member, whatever the run.
    text = "My neighbour is a Mexican."
    assert rewrite(text, "nationality_income", category, INCOME[0]) is not None
    assert rewrite(text, "nationality_income", category, INCOME[0]) == rewrite(
        text, "nationality_income", category, INCOME[0]
    )


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ("[{term: A, members: [b, c]}]", "is a group itself"),
        ("[{term: Kenyan}, {term: kenyan}]", "member 'kenyan' is listed twice"),
        ("[{term: Kenyan}, {term: Malian}]", "already a form of 'kenyan' of 'one'"),
        ("[]", "expected a list of terms"),
    ],
)
def test_a_group_of_terms_is_validated_member_by_member(write, members, message):
    path = write(
        "groups.yaml",
        f"categories:\n  g:\n    - {{term: One, members: {members}}}\n"
        "    - {term: Two, members: [{term: Kenyan}]}\n",
    )
    with pytest.raises(TextfairError, match=message):
        load_term_list(path)


def _source(variable, default):
    path = Path(os.environ.get(variable, default))
    return path if path.exists() else None


FACTBOOK = _source("TEXTFAIR_FACTBOOK_DIR", "/work/.mirror/factbook+factbook.json/repo")
WORLD_BANK = _source("TEXTFAIR_WORLD_BANK_CLASS", "/work/.mirror/GPID-WB+Class/repo")


@pytest.mark.skipif(
    FACTBOOK is None or WORLD_BANK is None or shutil.which("git") is None,
    reason="the Factbook and World Bank sources are not on this machine (set "
    "TEXTFAIR_FACTBOOK_DIR and TEXTFAIR_WORLD_BANK_CLASS to build the lists)",
)
def test_the_build_reproduces_the_shipped_lists_byte_for_byte():
    babel = pytest.importorskip("babel")
    from term_lists import build_lists

    # The lists record the Babel whose CLDR codes joined the sources: another version may
    # join them otherwise, and writes its own number.
    shipped = (ROOT / "term_lists" / "nationality.yaml").read_text(encoding="utf-8")
    built_with = re.search(r"as packaged in Babel ([\w.]+)\)", shipped)
    assert built_with is not None
    if built_with.group(1) != babel.__version__:
        pytest.skip(f"built with Babel {built_with.group(1)}; Babel {babel.__version__} here")

    dictionary = Path("/usr/share/dict/words")
    if not dictionary.exists():
        pytest.skip("no English word list at /usr/share/dict/words (Debian's wamerican)")
    found = subprocess.run(
        ["git", "-C", str(FACTBOOK), "cat-file", "-e", f"{build_lists.FACTBOOK_COMMIT}^{{commit}}"]
    )
    if found.returncode:
        pytest.skip("the Factbook copy lacks the commit the lists were built from")
    nationality, income, _ = build_lists.nationality_lists(
        FACTBOOK, build_lists._world_bank_file(WORLD_BANK), build_lists._dictionary(dictionary)
    )
    assert nationality == (ROOT / "term_lists" / "nationality.yaml").read_text(encoding="utf-8")
    assert income == (ROOT / "term_lists" / "nationality_income.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        # One person called by a nationality: a real person in the news as often as not.
        ("Syrian refugee attacks girls at the mall pool.", "unknown_person"),
        ("A Moroccan truck driver was arrested today.", "unknown_person"),
        ("I fear no Russian.", "unknown_person"),
        # Unless the text shows a private one; a people spoken of in general stays.
        ("My Syrian neighbour brought us bread.", None),
        ("My Indian Uber driver was lovely.", None),  # a private person: a brand is fine
        ("Amazing how many Americans slag off capitalism from their armchairs.", None),
        ("Syrians are the kindest hosts I know.", None),
        # Where the text speaks of public affairs, a people is that country's in its
        # politics and news: a politics word, a name, a hashtag, a link.
        ("Syrian refugees arrived in town today.", "cue"),
        ("Build the wall. Nearly 30% of Americans live on welfare.", "cue"),
        ("Trump says Mexicans are great.", "cue"),
        ("The Dutch Red Cross helps Syrians.", "cue"),
        ("@user Another elitist out of touch with Americans!", None),  # a handle opens it
        ("Americans love it https://t.co/x", "cue"),
        ("Americans love it #sundayfunday", "cue"),
        ("I LOVE IT when Americans are happy.", None),  # shouting is no name
        ("The GOP hates Americans.", "cue"),
        # One said to be of a nationality is one person, most often a real one.
        ("You don't know her, she is Senegalese.", "unknown_person"),
        ("He is German and loves it.", "unknown_person"),
        ("“I am German when we win but an immigrant when we lose”", "unknown_person"),
        # The writer's own nationality: the rest of the text most often turns on it.
        ("I'm Irish and proud.", "unknown_person"),
        # A region's people, a nickname or slur, a flag, a colour of skin or a count.
        ("Asian group... those Chinese dudes are loud.", "cue"),
        ("Americans are loud, Aussies are louder.", "cue"),
        ("Americans: loud\\n\\nAussies: louder", "cue"),  # line breaks written out
        ("And she is with Canadians 🇨🇦", "cue"),
        ("Some people realize why black Americans feel the way they do.", "cue"),
        ("They have not released the names of the 13 Russians yet.", "cue"),
        # A people's culture, a work about them, a place or an idiom: no people swapped.
        ("The film knows what is quirky about Canadians.", "cue"),
        ("Served by real Italians, I expected more spice.", "cue"),
        ("im on knodell n french rd fuck boy", "cue"),
        ("A half dozen young Turks angling for attention.", "cue"),
        ("why the dutch are wearing yellow in this game", "cue"),  # a national team
        ("mine is my spanish teacher, she favorites the boys", "cue"),  # a language
        ("The indians scored 13 runs in 1 inning", "cue"),  # a team
        ("greeks season is over, but returns in august", "cue"),  # a show
        ("Good morning my Swedish friend. I love the meatballs.", "cue"),  # a cuisine
        ("also rough translation of the chinese: very beautiful octopus", "cue"),
        ("meds from the vet for my german", "cue"),  # a dog
        ("On the plane (Lufthansa): gotta love the Germans.", "cue"),  # a name after "("
        ("@KimKardashian armenians shouldnt burn!! lol", "cue"),  # a real account
        ("@user armenians shouldnt burn!! lol", None),  # an anonymised one
        ("Like I know you are American, but anything else?", "unknown_person"),
        # A hashtag or the capital names the old country still.
        ("Why would Americans vote for them? #AmericaFirst", "cue"),
        ("Russians here in Moscow are friendly.", "cue"),
        # The writer speaks as one of a nation: the nationality is most often theirs.
        ("Too many Americans died while invaders walk into our country.", "cue"),
    ],
)
def test_one_person_hashtags_and_capitals(text, why):
    for terms in ("nationality", "nationality_income"):
        domain = TextDomain([text], terms, min_acceptability=0)
        [category] = domain.categories()
        if why is None:
            assert domain.category_mask(category)[0], (terms, text)
        else:
            assert domain.left_out[category][why] == 1, (terms, text, domain.left_out)
