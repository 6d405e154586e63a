"""Hand-checked substitutions: (input, source term, target term, expected output).

Every expected output was written by hand from English grammar, not copied from textfair's
output. A row whose expected output equals its input asserts that nothing is an identity
mention there (the swap must not fire).
"""

import pytest

from textfair.text.gender import gender_swap
from textfair.text.generate import swap_term

CASES = [
    # --- case pattern: natural spelling, UPPER, sentence-initial, lowercase writer, Title ---
    ("a gay man", "gay", "muslim", "a Muslim man"),
    ("I met a Muslim woman.", "muslim", "gay", "I met a gay woman."),
    ("GAY PEOPLE ARE WELCOME", "gay", "muslim", "MUSLIM PEOPLE ARE WELCOME"),
    ("Gay people are welcome.", "gay", "muslim", "Muslim people are welcome."),
    ("Muslim women met.", "muslim", "gay", "Gay women met."),
    ("The Muslim community met.", "muslim", "jewish", "The Jewish community met."),
    ("the muslim community met.", "muslim", "jewish", "the jewish community met."),
    ("Hello. muslim people came.", "muslim", "gay", "Hello. gay people came."),
    ("Gay rights matter.", "gay", "lesbian", "Lesbian rights matter."),
    ("He is LGBT.", "lgbt", "gay", "He is gay."),
    ("Why? Muslims pray.", "muslim", "atheist", "Why? Atheists pray."),
    ('"Gay people," he said.', "gay", "old", '"Old people," he said.'),
    ("i think gay people are ok", "gay", "old", "i think old people are ok"),
    ("The GAY community", "gay", "muslim", "The MUSLIM community"),
    # --- indefinite article by sound ---
    ("A gay man.", "gay", "asian", "An Asian man."),
    ("a gay group", "gay", "lgbt", "an LGBT group"),
    ("a gay man", "gay", "lgbtq", "an LGBTQ man"),
    ("an lgbt group", "lgbt", "muslim", "a muslim group"),
    ("an Asian woman", "asian", "european", "a European woman"),
    ("a European man", "european", "asian", "an Asian man"),
    ("a Muslim man", "muslim", "atheist", "an atheist man"),
    ("An atheist wrote this.", "atheist", "christian", "A Christian wrote this."),
    ("AN ASIAN MAN", "asian", "european", "A EUROPEAN MAN"),
    ("A GAY MAN", "gay", "atheist", "AN ATHEIST MAN"),
    ("a unicorn and a gay man", "gay", "asian", "a unicorn and an Asian man"),
    ("an honest gay man", "gay", "asian", "an honest Asian man"),
    ("a young man", "young", "old", "an old man"),
    ("an old man", "old", "young", "a young man"),
    ("an elderly woman", "elderly", "middle aged", "a middle-aged woman"),
    ("a middle-aged man", "middle aged", "elderly", "an elderly man"),
    ("a middle aged man", "middle aged", "elderly", "an elderly man"),
    ("a Hispanic man", "hispanic", "indian", "an Indian man"),
    ("an Indian man", "indian", "hispanic", "a Hispanic man"),
    ("a homosexual couple", "homosexual", "older", "an older couple"),
    # --- plural nouns, and "<term> people" where a term has no plural noun ---
    ("Muslims are welcome.", "muslim", "jewish", "Jews are welcome."),
    ("Jews are welcome.", "jewish", "muslim", "Muslims are welcome."),
    ("Muslims are welcome.", "muslim", "gay", "Gay people are welcome."),
    ("I like gays.", "gay", "muslim", "I like Muslims."),
    ("Whites are people too.", "white", "asian", "Asians are people too."),
    ("The Chinese are here.", "chinese", "japanese", "The Japanese are here."),
    ("Teenagers love it.", "teenage", "elderly", "Elderly people love it."),
    ("African Americans vote.", "african american", "hispanic", "Hispanics vote."),
    ("Hispanics vote.", "hispanic", "african american", "African Americans vote."),
    ("Middle Easterners arrived.", "middle eastern", "asian", "Asians arrived."),
    ("Asians arrived.", "asian", "middle eastern", "Middle Easterners arrived."),
    ("Atheists, Muslims and Jews", "muslim", "sikh", "Atheists, Sikhs and Jews"),
    # --- singular nouns, and "<term> person" where a term has no noun ---
    ("I am a Jew.", "jewish", "muslim", "I am a Muslim."),
    ("I am a Muslim.", "muslim", "jewish", "I am a Jew."),
    ("I am a Muslim.", "muslim", "gay", "I am a gay person."),
    ("She is a lesbian.", "lesbian", "transgender", "She is a transgender person."),
    ("She is a lesbian.", "lesbian", "bisexual", "She is a bisexual."),
    ("I am a teenager.", "teenage", "elderly", "I am an elderly person."),
    ("a Jew from Syria", "jewish", "old", "an old person from Syria"),
    ("a devout Catholic", "catholic", "jewish", "a devout Jew"),
    ("a Muslim and a Christian", "muslim", "jewish", "a Jew and a Christian"),
    ("The Muslim is here.", "muslim", "gay", "The gay person is here."),
    ("non-binary folks came", "nonbinary", "muslim", "Muslim folks came"),
    # --- adjective readings of adjective/noun terms ---
    ("I'm Christian.", "christian", "jewish", "I'm Jewish."),
    ("Being Jewish is fine.", "jewish", "muslim", "Being Muslim is fine."),
    ("Muslim and Christian leaders", "muslim", "jewish", "Jewish and Christian leaders"),
    # a written plural inside a compound stays plural
    ("non-Muslims shouldn't", "muslim", "buddhist", "non-Buddhists shouldn't"),
    ("Non-Jews came", "jewish", "catholic", "Non-Catholics came"),
    # --- possessives, straight and curly apostrophes ---
    ("The Muslim's house", "muslim", "jewish", "The Jew's house"),
    ("The Muslims' houses", "muslim", "jewish", "The Jews' houses"),
    ("The Muslims’ houses", "muslim", "jewish", "The Jews’ houses"),
    ("the gays' rights", "gay", "muslim", "the Muslims' rights"),
    ("The Muslims' houses", "muslim", "gay", "The gay people's houses"),
    ("A Christian's view", "christian", "atheist", "An atheist's view"),
    ("the lesbian's view", "lesbian", "gay", "the gay person's view"),
    ("a white man's court", "white", "asian", "an Asian man's court"),
    # --- multi-word terms across space or hyphen ---
    ("An African-American man", "african american", "asian", "An Asian man"),
    ("An African American man", "african american", "asian", "An Asian man"),
    ("an Asian man", "asian", "african american", "an African American man"),
    (
        "a gay African-American man",
        "african american",
        "middle eastern",
        "a gay Middle-Eastern man",
    ),
    ("african american voters", "african american", "asian", "asian voters"),
    ("a Middle Eastern man", "middle eastern", "european", "a European man"),
    ("non-binary folks", "nonbinary", "transgender", "transgender folks"),
    ("We support LGBTQ+ rights.", "lgbtq", "gay", "We support gay rights."),
    ("We support gay rights.", "gay", "lgbtq", "We support LGBTQ rights."),
    # --- several mentions in one text ---
    ("Gay men and gay women", "gay", "lesbian", "Lesbian men and lesbian women"),
    ("A Muslim met a Muslim.", "muslim", "atheist", "An atheist met an atheist."),
    ("Muslims are fine. I am a Muslim.", "muslim", "jewish", "Jews are fine. I am a Jew."),
    # --- collective use: "the elderly" ---
    ("the elderly are wise", "elderly", "young", "the young are wise"),
    ("the elderly are wise", "elderly", "muslim", "the Muslims are wise"),
    ("the elderly are wise", "elderly", "gay", "the gay people are wise"),
    # --- context gates: only identity mentions change ---
    ("black coffee and an old car", "black", "asian", "black coffee and an old car"),
    ("a black and white film", "black", "asian", "a black and white film"),
    ("a glass of white wine", "white", "asian", "a glass of white wine"),
    ("a straight line", "straight", "gay", "a straight line"),
    ("a black man drinks black coffee", "black", "asian", "an Asian man drinks black coffee"),
    ("an old man in an old car", "old", "young", "a young man in an old car"),
    ("He is straight.", "straight", "gay", "He is gay."),
    ("Jack Black is funny", "black", "asian", "Jack Black is funny"),
    ("I love young adult fiction", "young", "old", "I love young adult fiction"),
    ("a 3 year old boy", "old", "young", "a 3 year old boy"),
    ("She is 80 years old.", "old", "young", "She is 80 years old."),
    ("my old friend", "old", "young", "my old friend"),
    ("both black and white audiences", "white", "asian", "both black and Asian audiences"),
    ("the White House said", "white", "asian", "the White House said"),
    ("the female doctor", "female", "male", "the male doctor"),
]

GENDER_CASES = [
    ("He gave her his car.", "She gave him her car."),
    ("She told him that the book is hers.", "He told her that the book is his."),
    ("Her husband loves her.", "His wife loves him."),
    ("HIS MOTHER said Mr. Smith is a good man.", "HER FATHER said Ms. Smith is a good woman."),
    ("The man's wife and her own son.", "The woman's husband and his own daughter."),
    ("She saw her yesterday.", "He saw him yesterday."),
    ("The boys and their uncle", "The girls and their aunt"),
    ("The king is himself a father.", "The queen is herself a mother."),
    ("Is it his or hers?", "Is it hers or his?"),
    ("I gave her a book.", "I gave him a book."),
]


def test_table_is_large_enough():
    assert len(CASES) + len(GENDER_CASES) >= 80


@pytest.mark.parametrize(("text", "source", "target", "expected"), CASES)
def test_hand_checked_swap(text, source, target, expected):
    variant = swap_term(text, source, target)
    assert (variant.text if variant else text) == expected


@pytest.mark.parametrize(("text", "expected"), GENDER_CASES)
def test_hand_checked_gender_swap(text, expected):
    assert gender_swap(text).text == expected


def test_a_plural_the_same_as_its_adjective_takes_people_for_a_possessive():
    from textfair.text.generate import counterfactuals
    from textfair.text.matcher import Matcher

    text = "The satire capitalizes on Americans' fever for technology."
    variants = {v.text for v in counterfactuals(text, ["race"], matcher=Matcher(), max_variants=50)}
    assert "The satire capitalizes on Japanese people's fever for technology." in variants
    assert "The satire capitalizes on Canadians' fever for technology." in variants
    assert not any("Japanese's" in v for v in variants)


def test_a_parenthesis_is_read_past_for_his_or_hers():
    from textfair.text._counterparts import gender_counterparts

    pairs = gender_counterparts()
    text = "His (few) killings are hardly shown."
    assert pairs.counterpart("his", text, 3) == "her"
    near = "The book is his (I think)."
    assert pairs.counterpart("his", near, near.index("his") + 3) == "hers"
