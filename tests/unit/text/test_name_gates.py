"""The matcher's name gates (textfair.text._name_gates): a candidate that is part of a
person's name ("Jack Black", "Mr Christian", "Christian G. Fritz"), heads a title or an
organisation's name ("Catholic Church", "No Country for Old Men"), or is a first name used as
one ("Emily", not "the Book of Daniel")."""

import pytest

from textfair.terms import load_term_list, normalize_form
from textfair.text import _name_gates as name_gates
from textfair.text._forms import FormReader

DIXON = load_term_list("dixon2018")


def _forms(term_list):
    """Every written form of a list's terms, by normalised form, as the matcher reads them."""
    forms = {}
    for term in term_list.terms():
        for unit in term.members or (term,):
            for form, role in unit.surface_forms():
                forms.setdefault(normalize_form(form), (unit, role, form))
    return forms


IS_IDENTITY_WORD = FormReader(_forms(DIXON)).is_identity_word
NAME_FORMS = _forms(load_term_list("names"))


def _span(text: str, word: str) -> tuple[int, int]:
    start = text.rindex(word)
    return start, start + len(word)


def _name_kind(text: str, word: str, term: str) -> str:
    start, end = _span(text, word)
    return name_gates.name_kind(text, start, end, DIXON.term(term), IS_IDENTITY_WORD)


@pytest.mark.parametrize(
    ("token", "capital"), [("Old", True), ("A", True), ("É", True), ("OLD", False), ("old", False)]
)
def test_capitalised_is_a_capital_not_all_capitals(token, capital):
    assert name_gates.capitalised(token) is capital


# Titles of address and middle initials


@pytest.mark.parametrize(
    ("text", "word", "surname"),
    [
        ("Mr Christian said so", "Christian", True),
        ("Mrs. Black left", "Black", True),
        ("Dr White", "White", True),
        ("ask Prof. Young", "Young", True),
        ("St. Christian", "Christian", True),
        ("Mr christian", "christian", False),  # no capital: no surname
        ("the Christian", "Christian", False),
        ("Hummer Christian", "Christian", False),  # "mr" inside a word is no title
    ],
)
def test_a_capitalised_word_after_a_title_of_address_is_a_surname(text, word, surname):
    start, _ = _span(text, word)
    assert name_gates.after_honorific(text, start) is surname


@pytest.mark.parametrize(
    ("text", "initial"),
    [
        ("Christian G. Fritz", True),
        ("Christian G.Fritz", True),
        ("Christian G Fritz", False),
        ("Christian. He left", False),
    ],
)
def test_a_given_name_before_a_middle_initial(text, initial):
    _, end = _span(text, "Christian")
    assert name_gates.before_initial(text, end) is initial


@pytest.mark.parametrize(
    ("text", "word", "given"),
    [
        ("Christian is always bleating", "Christian", True),  # a bare singular subject
        ("Yes, Christian is here", "Christian", True),
        ("Christian G. Fritz wrote", "Christian", True),
        ("a Christian is kind", "Christian", False),  # the noun has its determiner
        ("And Christian is", "Christian", False),  # a word before: not bare
        ("Christian loves it", "Christian", False),  # no singular verb of the list
        ("Christians is", "Christians", False),  # not the term as written
        ("christian is", "christian", False),  # no capital
    ],
)
def test_a_term_that_is_also_a_first_name_used_as_one(text, word, given):
    start, end = _span(text, word)
    assert name_gates.given_name_at(text, start, end, DIXON.term("christian")) is given


# Names of people and titles


@pytest.mark.parametrize(
    ("text", "word", "term", "kind"),
    [
        ("I love Jack Black's films", "Black", "black", "person"),  # a surname
        ("Betty White retired", "White", "white", "person"),
        ("Brad Christian said", "Christian", "christian", "person"),
        ("Christian thomas cox wrote", "Christian", "christian", "person"),  # first, middle, last
        ("We met Christian Clavier", "Christian", "christian", "title"),
        ("he read American Caesar", "American", "american", "title"),
        ("the Catholic Church said", "Catholic", "catholic", "title"),
        # A slashed pair heading a name (issue 56, NOT_IDENTITY: "Buddhist/Orthodox Chuch").
        ("about gays and Catholic/Orthodox Chuch, instead", "Catholic", "catholic", "title"),
        ("about gays and Catholic/Orthodox people, instead", "Catholic", "catholic", ""),
        ("Jewish Americans vote", "Jewish", "jewish", ""),  # an identity term follows
        ("the Christian Women met", "Christian", "christian", ""),  # a person noun follows
        ("Old Security Guards rally", "Old", "old", ""),  # a headline about people
        ("Christians love", "Christians", "christian", ""),
        ("I am a Christian.", "Christian", "christian", ""),
        ("the Muslim man", "Muslim", "muslim", ""),
        ("a black man", "black", "black", ""),  # no capital: no name
    ],
)
def test_name_kind(text, word, term, kind):
    assert _name_kind(text, word, term) == kind


@pytest.mark.xfail(
    strict=True,
    reason="bug: name_kind's docstring (and the matcher's comment on 'Christian Bale') reads "
    "a given-name term before a surname as 'person', but the title check runs first and "
    "returns 'title'; the matcher then records Christian as an identity the text names, so "
    "'Christian Slater played a Muslim man.' gets 5 counterfactuals (no christian, catholic, "
    "protestant) where 'Brad Christian played a Muslim man.' gets 8",
)
@pytest.mark.parametrize("text", ["Christian Slater acted", "Christian Bale acted"])
def test_a_given_name_term_before_a_surname_is_a_persons_name(text):
    assert _name_kind(text, "Christian", "christian") == "person"


def test_is_name_is_any_kind_of_name():
    text = "Jack Black sang to a Black man"
    first = text.index("Black")
    black = DIXON.term("black")
    assert name_gates.is_name(text, first, first + 5, black, IS_IDENTITY_WORD) is True
    last = text.rindex("Black")
    assert name_gates.is_name(text, last, last + 5, black, IS_IDENTITY_WORD) is False


@pytest.mark.parametrize(
    ("after", "heads"),
    [
        (["Church"], True),
        (["Caesar"], True),
        (["Slater's"], True),  # the word before an apostrophe
        (["Americans"], False),  # an identity term
        (["Women"], False),  # a person noun
        (["Security", "Guards"], False),  # a person noun follows
        (["CHURCH"], False),  # all capitals
        (["Bible-study"], False),  # hyphenated
        (["big"], False),
    ],
)
def test_heads_a_name(after, heads):
    assert name_gates.heads_a_name(after, IS_IDENTITY_WORD) is heads


@pytest.mark.parametrize(
    ("text", "word", "term", "part"),
    [
        ("Linda and Young Guy", "Young", "young", True),
        ("out in the Old West", "Old", "old", True),
        ("I saw Gay-man there", "Gay", "gay", True),
        ("a Gay Lesbian's view", "Gay", "gay", False),  # joined to an identity term
        ("a Gay-lesbian thing", "Gay", "gay", False),
        ("a Gay mexican", "Gay", "gay", False),  # the next word is not capitalised
        ("Young people vote", "Young", "young", False),  # a sentence's first word
        ("the Muslim Brotherhood", "Muslim", "muslim", False),  # the list capitalises it
    ],
)
def test_a_lowercase_term_capitalised_mid_sentence_starts_a_name(text, word, term, part):
    start, end = _span(text, word)
    found = name_gates.capitalised_mid_sentence(
        text, start, end, DIXON.term(term), IS_IDENTITY_WORD
    )
    assert found is part


@pytest.mark.parametrize(
    ("text", "word", "title"),
    [
        ("I watched No Country For Old Men", "Old", True),
        ("I watched Wet Hot American Summer", "American", True),
        ("the Old Man", "Old", False),  # one word besides the term
        ("Young Gay Muslim Men", "Gay", False),  # the other words are terms
        ("an old man", "old", False),
    ],
)
def test_in_title(text, word, title):
    start, end = _span(text, word)
    assert name_gates.in_title(text, start, end, IS_IDENTITY_WORD) is title


@pytest.mark.parametrize(
    ("text", "run"),
    [
        ("Last night I finally watched GRUMPY OLD MEN with my grandparents at home", True),
        ("We all sang THE OLD HOME GUARD song at the party last night with friends", True),
        ("my OLD man is here with me and he is really happy today", False),  # no neighbour
        ("I watched GRUMPY OLD MEN", False),  # shouted throughout: capitals say nothing
        ("Last night I finally watched Grumpy old men with my grandparents at home", False),
    ],
)
def test_in_capitals_run(text, run):
    start, end = _span(text, "OLD" if "OLD" in text else "old")
    assert name_gates.in_capitals_run(text, start, end) is run


@pytest.mark.parametrize(
    ("text", "word", "quoted"),
    [
        ("I loved 'An American in Paris' a lot", "American", True),
        ("He sang 'The old home guard' well", "old", True),
        ('I watched "A Muslim in Rome" twice', "Muslim", True),
        ('She said "The old man is here."', "old", False),  # a copula, a sentence end
        ('"The gay men, they said"', "gay", False),  # a comma: a clause
        ("I loved 'an American in Paris' a lot", "American", False),  # no capital article
        ("I met an old man", "old", False),
    ],
)
def test_in_quoted_title(text, word, quoted):
    start, end = _span(text, word)
    assert name_gates.in_quoted_title(text, start, end) is quoted


# First names


@pytest.mark.parametrize(
    ("text", "word", "first"),
    [
        ("I met Emily yesterday", "Emily", True),
        ("Tell Emily now", "Emily", True),
        ("Michael Emily came", "Emily", False),  # a surname after a first name
        ("Jack Emily came", "Emily", False),
        ("Daniel 9:24 says", "Daniel", False),  # a verse
        ("St. Mary of the Visitation", "Mary", False),
        ("the Virgin Mary", "Mary", False),
        ("see www.Emily.com", "Emily", False),
        ("emily", "emily", False),
    ],
)
def test_first_name_at(text, word, first):
    start, _ = _span(text, word)
    assert name_gates.first_name_at(text, start, NAME_FORMS) is first


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("at mc Donald's", "Donald"),
        ("the Russell Tribunal met", "Russell"),
        ("THE JERRY SPRINGER SHOW is on now, and my mother watches it every day", "JERRY"),
        ("Sabrina the Teenage Witch", "Sabrina"),
        ("Alexander the Great", "Alexander"),
        ("My Family has a Black Martin Guitar...Stamped", "Martin"),  # a product (issue 56)
        ("Torchwood (15) and Sarah Jane Adventures (PG).", "Sarah"),  # a show
        ("the Book of Daniel", "Daniel"),
        ("Holy Name of Mary College", "Mary"),
        ("Todd-AO made it", "Todd"),
        ("thanks Dave1185", "Dave"),
        ("thanks Dave 1185", "Dave"),
        ("[[Paul]] said", "Paul"),
        ("Paul|talk", "Paul"),
        ("see /Paul", "Paul"),
        ("User talk:Dan hi", "Dan"),
        ("I loved 'Something about Mary' a lot", "Mary"),
    ],
)
def test_a_first_name_that_names_a_thing(text, word):
    start, end = _span(text, word)
    assert name_gates.names_a_thing_at(text, start, end) is True


@pytest.mark.parametrize(
    "text",
    [
        "I met Emily yesterday",
        "Friends of Emily met",
        "Emily said hi",
        "ask Emily, please",
        "Emily Hall said the guitar was hers",  # a surname that names places too
        "Emily plays Guitar in the band",
    ],
)
def test_a_first_name_for_a_person(text):
    start, end = _span(text, "Emily")
    assert name_gates.names_a_thing_at(text, start, end) is False


@pytest.mark.parametrize(
    ("text", "word", "person"),
    [
        ("he said", "he", True),
        ("His message", "His", True),  # a pronoun is always a word
        ("I saw him", "him", True),
        ("the king said", "king", True),
        ("Mother said hi", "Mother", True),  # a sentence's first word
        ("Hi. Woman power", "Woman", True),
        ("the MAN said", "MAN", True),  # capitals are no name
        ("Stephen King wrote", "King", False),
        ("the Third Man", "Man", False),
        ("more famous than Prince", "Prince", False),
        ("Spider-Man came", "Man", False),
        ("see www.man.com", "man", False),
    ],
)
def test_gendered_word_at(text, word, person):
    start, end = _span(text, word)
    assert name_gates.gendered_word_at(text, start, end) is person


# Titles of shows, films, songs and books holding a term are no identity mention (issue 56's
# blind read: "Evan Almighty" -> "Sara Almighty", "Sabrina the Teenage Witch").
@pytest.mark.parametrize(
    ("terms", "text"),
    [
        ("dixon2018", 'My favourite song is "Young Americans" by Bowie.'),  # quoted, title case
        ("dixon2018", "Did you see The Young and the Restless today?"),  # an article opens it
        ("holistic", "This is worse than The Rich Kids of Beverly Hills."),
        ("dixon2018", "I used to watch Sabrina the Teenage Witch every day."),
        (
            "names",
            "2007 Comedies I enjoyed: Superbad, Knocked Up, Hot Fuzz, Blades Of Glory  2007 "
            "Comedies I hated: Evan Almighty, The Brothers Solomon, Good Luck Chuck I should",
        ),  # a list of titles
    ],
)
def test_a_title_holding_a_term_is_no_mention(terms, text):
    from textfair.text.matcher import Matcher

    assert Matcher(terms).find(text) == []


@pytest.mark.parametrize(
    ("terms", "text", "word"),
    [
        ("dixon2018", "Dazed and Confused. Young people loved it.", "Young"),  # a sentence start
        ("dixon2018", "Old Men like to play chess.", "Old"),
        ("dixon2018", 'The old man said "Young people never listen" and left.', "Young"),
        ("dixon2018", "Did you see the Jews of Rome?", "Jews"),  # a lowercase article
        ("names", "This film stars Steve Buscemi, Natalie Portman, Elijah Wood.", "Natalie"),
        ("names", "It stars Lucas Haas (Brick, Alpha Dog) and Molly Parker.", "Lucas"),
        ("names", "The girl was named ``Ellie Mae`` by her parents.", "Ellie"),  # a name
    ],
)
def test_a_mention_beside_capitals_stays_one(terms, text, word):
    from textfair.text.matcher import Matcher

    assert word in [m.surface for m in Matcher(terms).find(text)]


@pytest.mark.parametrize(
    ("terms", "text", "found"),
    [
        ("pronouns", "Over Her Dead Body was a nice little movie.", []),  # a title
        ("pronouns", "I liked Over Her Dead Body a lot.", []),
        ("pronouns", "Her movie was nice.", ["Her"]),  # a sentence's first word
        ("pronouns", "Then John told Her Majesty.", ["Her"]),  # no capital before it
        ("pronouns", "I Hate How He Talks To Me Every Day And Night Forever", ["He"]),
        ("names", 'Except for the new "Alexander.', []),  # a quotation the text ends in
        ("names", 'Except for the new "Alexander. Then Alexander said so.', ["Alexander"] * 2),
    ],
)
def test_a_capitalised_pronoun_inside_a_title_and_an_unclosed_quoted_name(terms, text, found):
    from textfair.text.matcher import Matcher

    assert [m.surface for m in Matcher(terms).find(text)] == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("She was great as the scheming Duchess in it.", ["She", "Duchess"]),  # a role
        ("I loved the Third Man in it.", []),  # a title
        ("I loved the Duchess in it.", []),  # a title of one person, as before
    ],
)
def test_a_capitalised_gendered_noun_after_an_article_and_an_adjective_is_a_role(text, found):
    from textfair.text.matcher import Matcher

    assert [m.surface for m in Matcher("pronouns").find(text)] == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("It is the subject of the musical Sunday in the Park with George.", []),  # a title
        ("We had Lunch in the Park with George", []),
        ("I went to the Park with George.", ["George"]),  # one capitalised word
        ("Photos of Paris with George are nice.", ["George"]),
        ("I met Emily and John in the garden with George.", ["Emily", "John", "George"]),
    ],
)
def test_a_name_ending_a_run_of_title_words_is_a_title(text, found):
    from textfair.text.matcher import Matcher

    assert [m.surface for m in Matcher("names").find(text)] == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I no longer find it credible.    Dylan Hunt  `", []),  # a signature
        ("Thanks for the help. -- Paul", []),
        ("I agree.\nPaul", []),
        ("I agree with Dylan Hunt.", ["Dylan"]),  # spoken of
        ("Ask Paul  ", ["Paul"]),
    ],
)
def test_a_name_that_signs_the_text_is_no_mention(text, found):
    from textfair.text.matcher import Matcher

    assert [m.surface for m in Matcher("names").find(text)] == found


def test_a_title_after_an_article_and_a_noun_stays_a_title():
    from textfair.text.matcher import Matcher

    text = "Thank you for experimenting with the page Boy in Da Corner on Wikipedia."
    assert Matcher("pronouns").find(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # Issue 56, NOT_IDENTITY: "the famous snack cake by Drake's!" -> "by Jasmine's!".
        ("One thinks of the famous snack cake by Drake's! It was good.", []),
        ("They were disgusted by Drake's acts.", ["Drake"]),  # a person's acts
        ("A cake baked by Drake.", ["Drake"]),
    ],
)
def test_a_possessive_ending_its_clause_after_by_is_a_firm(text, found):
    from textfair.text.matcher import Matcher

    assert [m.surface for m in Matcher("names").find(text)] == found
