"""Words of the old identity a swap would leave behind (issue 56, IN_TEXT): the term written
again where it is no mention, the sexes named beside "male", an adult's role beside a minor's
age, and the cues of the religion lists. Each rule: a case it stops and a near case that
stays."""

from __future__ import annotations

from textfair.text.generate import counterfactuals
from textfair.text.matcher import Matcher


def texts_of(text: str, categories: list[str], terms: str = "dixon2018") -> set[str]:
    matcher = Matcher(terms)
    return {v.text for v in counterfactuals(text, categories, matcher=matcher, max_variants=500)}


def test_the_term_said_again_of_people_keeps_the_swap_among_its_kin():
    # "a gay nigger" stays after "Are you gay?" is rewritten: only a term of the same
    # people ("homosexual") keeps the text naming one group.
    variants = texts_of("Are you gay? Are you a gay nigger?", ["gender"])
    assert "Are you homosexual? Are you a gay nigger?" in variants
    assert not any(w in v for v in variants for w in ("bisexual", "straight", "heterosexual"))


def test_a_kin_term_said_again_keeps_the_swap_among_its_kin():
    # Issue 56, IN_TEXT: "== queer == wow ur so fucking gay" never becomes "heterosexual"
    # beside the "gay" left (an insult, no mention); "u" after it is a chat pronoun, no noun.
    variants = texts_of("== queer ==  wow ur so fucking gay u should go die", ["gender"])
    assert variants and not any(
        w in v for v in variants for w in ("straight", "heterosexual", "bisexual")
    )
    near = texts_of("== queer ==  wow ur so fucking rude u should go die", ["gender"])
    assert "== heterosexual ==  wow ur so fucking rude u should go die" in near


def test_the_term_of_a_thing_left_behind_stops_nothing():
    variants = texts_of("They oppose gay marriage. He is gay.", ["gender"])
    assert "They oppose gay marriage. He is bisexual." in variants


def test_a_term_with_no_kin_said_again_leaves_the_text_out():
    # "young ... young cast": no age term names the same people as "young".
    assert texts_of("A young and fairly talented young cast. He is a young man.", ["age"]) == set()
    assert texts_of("A fairly talented cast. He is a young man.", ["age"])


def test_the_sexes_named_beside_male_keep_a_term_of_no_binary_gender_out():
    text = "Rather than educating the male population, they deny rights to the women."
    variants = texts_of(text, ["gender"])
    assert variants == {text.replace("male population", "female population")}
    near = texts_of("Rather than educating the male population, they deny rights.", ["gender"])
    assert "Rather than educating the trans population, they deny rights." in near
    # The sexes named sentences away set no sex against the mention (a long review).
    apart = texts_of("The intrepid female reporter goes to Rome. Later the men arrive.", ["gender"])
    assert "The intrepid trans reporter goes to Rome. Later the men arrive." in apart


def test_no_minor_age_before_an_adults_role():
    variants = texts_of("The film is about a young ambitious cop.", ["age"])
    assert variants and not any("teenage" in v for v in variants)
    near = texts_of("The film is about a young ambitious student.", ["age"])
    assert "The film is about a teenage ambitious student." in near


def test_no_adult_age_before_a_scots_word_for_a_child():
    # Issue 56, IN_TEXT: "young lassies from Scotland" -> "old lassies".
    variants = texts_of("I don't care what young lassies from Scotland do.", ["age"])
    assert "I don't care what teenage lassies from Scotland do." in variants
    assert not any(w in v for v in variants for w in ("old", "elderly"))
    near = texts_of("I don't care what young people from Scotland do.", ["age"])
    assert "I don't care what old people from Scotland do." in near


def test_no_look_of_later_life_beside_a_young_age():
    # Issue 56, IN_TEXT: "a beautiful unmarried young woman" -> "a white-haired ... young".
    young = texts_of("Sara, a beautiful unmarried young woman, visits.", ["body_type"], "holistic")
    assert young and not any(
        w in v for v in young for w in ("white-haired", "gray-haired", "graying")
    )
    near = texts_of("Sara, a beautiful unmarried woman, visits.", ["body_type"], "holistic")
    assert "Sara, a white-haired unmarried woman, visits." in near


def test_cues_of_jewish_in_lowercase_and_compounds_leave_the_text_out():
    assert texts_of("It is run by anti-semites to harm all Jewish people.", ["religion"]) == set()
    assert texts_of("They are Jews or at least show a pro-Zionist stance.", ["religion"]) == set()
    assert texts_of("It is run by bigots to harm all Jewish people.", ["religion"])


def test_cues_of_jewish_misspelt_as_comments_write_them_leave_the_text_out():
    # Issue 56, IN_TEXT: "are you Jew? ... between holocoust and Armeian deportations?" ->
    # "are you Christian?"; "he is jewish ... the Zionst smear campaign" -> "sikh".
    text = "Are you Jew? How is there any resemblence between holocoust and deportations?"
    assert texts_of(text, ["religion"]) == set()
    assert texts_of("He is jewish, and they call it a Zionst smear.", ["religion"]) == set()
    near = texts_of(
        "Are you Jew? How is there any resemblence between war and deportations?", ["religion"]
    )
    assert "Are you Christian? How is there any resemblence between war and deportations?" in near


def test_an_orphanage_is_a_cue_of_orphans():
    # Issue 56, IN_TEXT: "Young orphan Sophie lives in a none-too-friendly orphanage" ->
    # "Young undocumented Sophie".
    text = "Young orphan Sophie lives in a none-too-friendly orphanage."
    assert texts_of(text, ["characteristics"], "holistic") == set()
    near = texts_of(
        "Young orphan Sophie lives in a none-too-friendly house.", ["characteristics"], "holistic"
    )
    assert "Young undocumented Sophie lives in a none-too-friendly house." in near


def test_a_faiths_house_of_worship_is_its_cue_in_holistic():
    # Issue 56, IN_TEXT: holistic rewrites no related word, so "church" stays: the swap
    # stays among the faiths that worship in one.
    text = "There are 5-10% Christians in China, and many members in the State church."
    variants = texts_of(text, ["religion"], "holistic")
    assert text.replace("Christians", "Catholics") in variants
    assert not any(w in v for v in variants for w in ("agnostics", "Buddhists", "Muslims"))
    near = texts_of(text.replace("the State church", "the party"), ["religion"], "holistic")
    assert "There are 5-10% agnostics in China, and many members in the party." in near


def test_a_state_church_keeps_the_swap_among_the_christian_faiths():
    # Issue 56, NOT_IDENTITY: "Christians in China ... members in the State church" ->
    # "Buddhists ... the State temple": an established church is an institution, and
    # Christian.
    text = "There are 5-10% Christians in China, and many members in the State church."
    variants = texts_of(text, ["religion"])
    assert text.replace("Christians", "Catholics") in variants
    assert not any(w in v for v in variants for w in ("Buddhists", "temple", "Muslims"))
    near = texts_of(text.replace("the State church", "the church"), ["religion"])
    assert "There are 5-10% Buddhists in China, and many members in the temple." in near


def test_us_party_politics_and_the_border_walls_are_cues_of_their_people():
    # Issue 56's read of tweets, IN_TEXT: "all Americans with ur fake democratic platform.
    # ... ur corrupt GOP" -> "all Indians"; "Mexican immigrants ... border walls" -> "Indian".
    text = "You do scare all Americans with ur platform. It is ur corrupt GOP ethics."
    assert texts_of(text, ["race"]) == set()
    near = texts_of(
        "You do scare all Americans with ur platform. It is ur corrupt ethics.", ["race"]
    )
    assert "You do scare all Canadians with ur platform. It is ur corrupt ethics." in near
    walls = "The fire crew of Mexican immigrants never thinks of border walls."
    assert texts_of(walls, ["race"]) == set()
    assert texts_of(walls.replace("border walls", "politics"), ["race"])


def test_crossing_a_border_keeps_the_swap_among_the_people_who_cross_borders():
    # Issue 56's second read of tweets, IN_TEXT: "illegal aliens ... #BuildThatWall" ->
    # "illegal casual workers"; "immigrant children" at "Border Protection" -> "casual worker".
    text = "Volunteers in the town help the refugees who crossed the border last week."
    variants = texts_of(text, ["characteristics"], "holistic")
    assert text.replace("refugees", "immigrants") in variants
    assert not any("workers" in v or "wealthy" in v for v in variants), variants
    near = texts_of(
        text.replace("crossed the border", "came here"), ["characteristics"], "holistic"
    )
    assert "Volunteers in the town help the gig workers who came here last week." in near


def test_a_party_short_name_or_slogan_keeps_the_swap_on_its_side_of_politics():
    # Issue 56's second read of tweets: "#Dems and conservatives be treated the same" ->
    # "socially liberal people" (MERGED); "#MAGA ... Constitutional Conservatives" ->
    # "Socially Liberal People" (IN_TEXT).
    left = ("liberal", "Democrat", "leftist", "left-wing", "progressive")
    dems = texts_of(
        "The Dems and the conservatives should answer to the courts.",
        ["political_ideologies"],
        "holistic",
    )
    assert not any(w in v for v in dems for w in left), dems
    maga = texts_of(
        "Fill the courts with conservatives, MAGA!", ["political_ideologies"], "holistic"
    )
    assert "Fill the courts with Republicans, MAGA!" in maga
    assert not any(w in v for v in maga for w in left), maga
    near = texts_of(
        "Fill the courts with conservatives, friends!", ["political_ideologies"], "holistic"
    )
    assert "Fill the courts with liberals, friends!" in near


def test_british_politics_takes_no_african_american():
    # Issue 56's read of tweets, IN_TEXT: "foul remarks about non-white people ... the Tory
    # Party" -> "non-African American people": a people of the United States.
    text = "Boris Johnson made foul remarks about non-white people; the Tory Party is racist."
    variants = texts_of(text, ["race"])
    assert text.replace("non-white", "non-black") in variants
    assert not any("African American" in v for v in variants), variants
    near = texts_of(text.replace("the Tory Party", "the party"), ["race"])
    assert any("non-African American" in v for v in near), near


def test_the_old_testament_keeps_the_swap_among_its_faiths():
    variants = texts_of("They push a Protestant POV at Books of the Old Testament.", ["religion"])
    assert "They push a Catholic POV at Books of the Old Testament." in variants
    assert not any(w in v for v in variants for w in ("Buddhist", "Taoist", "Sikh", "Muslim"))


def test_the_persecutors_of_a_group_are_no_cue_of_it():
    # "Nazi" names those who persecuted Jews, not Jews: another group in their place is a
    # coherent text, false about the event (WORLD, counted valid by issue 56).
    variants = texts_of("The Nazis murdered the Jews of the town.", ["religion"])
    assert "The Nazis murdered the Muslims of the town." in variants
    assert texts_of("The anti-Semites murdered the Jews of the town.", ["religion"]) == set()


def test_jewish_said_of_descent_takes_no_faith_in_its_place():
    genes = "The similarity of these people, Jews and Kurds in particular, is due to shared genes."
    assert texts_of(genes, ["religion"]) == set()
    history = genes.replace("genes", "history")
    assert history.replace("Jews", "Muslims") in texts_of(history, ["religion"])
    # Descent spoken of in another sentence leaves the faith's mention alone.
    apart = "Genes decide much. The Jews of the town prayed."
    assert "Genes decide much. The Muslims of the town prayed." in texts_of(apart, ["religion"])


def test_a_faiths_thing_is_rewritten_with_its_people():
    # "Jewish traditions" beside "the Jews": the thing was left naming the old group (the
    # text was left out, other_use); rewritten with the mention, the text hangs together.
    text = "The Jews of the town kept their Jewish traditions alive."
    assert "The Muslims of the town kept their Muslim traditions alive." in texts_of(
        text, ["religion"]
    )
    # A nation's thing is its affairs, not its people's: still another use.
    assert texts_of("The Americans here discuss American politics.", ["race"]) == set()


def _name_targets(text: str) -> set[str]:
    from textfair.text.domain import TextDomain

    domain = TextDomain([text], "names", ["name_gender"], 0.0, workers=1)
    return set(domain.targets_for(0, "name_gender"))


def test_a_name_swap_beside_another_person_named_in_full_is_left_out():
    # "she" may be Meg Tilly's: rewritten with Ellen, it would regender another person.
    assert _name_targets("My neighbour Ellen met Meg Tilly, and she said she was tired.") == set()
    assert _name_targets("My neighbour Ellen met a painter, and she said she was tired.")


def test_a_name_swap_beside_a_gendered_noun_in_apposition_with_another_name_is_left_out():
    # Issue 56, IN_TEXT: "Martin ... this man, Antoni, is" -> "Haley ... this woman, Antoni":
    # the man is Antoni, whom the names list does not know.
    assert _name_targets("Ask my neighbour Martin: this man, Antoni, is a nationalist.") == set()
    assert _name_targets("Ask my neighbour Martin: this man is a nationalist.")
    # A list is no apposition: "mom, Thelma was" names two people.
    assert _name_targets("My neighbour Martin was still dad, Thelma was busy.")


def test_an_age_the_text_argues_from_is_a_fixed_form():
    stopped = "Even though I'm quite young, the Beatles are my favourite band!"
    assert texts_of(stopped, ["age"]) == set()
    assert texts_of("I'm quite young, and the Beatles are my favourite band!", ["age"])
    assert (
        texts_of("Ten years younger, she seems young enough to be his daughter.", ["age"]) == set()
    )
    assert texts_of("Ten years younger, she seems young and happy.", ["age"])


def test_a_jewish_parent_or_name_is_descent():
    assert (
        texts_of("Being Jewish (i.e. having a Jewish mother) is for life.", ["religion"]) == set()
    )
    assert texts_of("Saying a name sounds Jewish is no attack.", ["religion"]) == set()
    assert texts_of("Being Jewish (i.e. keeping the Jewish feasts) is for life.", ["religion"])


def test_a_first_names_gender_rules_out_a_term_of_the_other():
    assert not any("lesbian" in v for v in texts_of("My friend John is gay.", ["gender"]))
    assert "My friend Emily is lesbian." in texts_of("My friend Emily is gay.", ["gender"])


def test_a_first_name_of_no_known_gender_rules_out_a_gendered_term():
    # "Tom" and "Nico" are first names the names list leaves out: whose gender is not known.
    variants = texts_of("Tom Atkins is a queer and so are you.", ["gender"])
    assert variants and not any("lesbian" in v for v in variants)
    assert not any("Lesbian" in v for v in texts_of("``Nico Bellic is a Gay mexican``", ["gender"]))
    near = texts_of("My friend is a queer and so are you.", ["gender"])
    assert "My friend is a lesbian and so are you." in near


def test_an_institution_for_an_age_is_a_fixed_form():
    assert texts_of("He takes his father to a home for elderly people.", ["age"]) == set()
    assert texts_of("He takes his father to visit elderly people.", ["age"])


def test_a_regions_country_pins_its_people():
    text = "The cast has many European actors, like those from Turkey and Russia."
    assert texts_of(text, ["race"]) == set()
    assert texts_of("The cast has many European actors.", ["race"])


def test_a_sexed_body_word_keeps_the_sex_of_a_gendered_swap():
    variants = texts_of("The thing about the big-breasted girls is dull.", ["pronouns"], "pronouns")
    assert not any("boys" in v for v in variants)
    near = texts_of("The thing about the tall girls is dull.", ["pronouns"], "pronouns")
    assert "The thing about the tall boys is dull." in near


def test_blaxploitation_is_a_cue_of_black_people():
    # A cue of black and African American: the swap stays between the two.
    text = "Worth watching for Blaxploitation film fans. We see three black men."
    assert texts_of(text, ["race"]) == {text.replace("black", "African American")}
    assert texts_of("Worth watching for horror film fans. We see three black men.", ["race"])


def test_flaming_before_an_orientation_is_a_fixed_form():
    text = "Pascal is a flaming homosexual, he likes young boys."
    assert texts_of(text, ["gender"]) == set()
    assert texts_of("Pascal is a homosexual, he likes young boys.", ["gender"])


def test_a_slur_of_one_sex_keeps_the_sex_of_a_gendered_swap():
    text = "I oppose James, but calling him a faggot will hurt his cause."
    assert not any("her" in v.split() for v in texts_of(text, ["pronouns"], "pronouns"))
    near = "I oppose James, but calling him a fool will hurt his cause."
    assert any("her" in v.split() for v in texts_of(near, ["pronouns"], "pronouns"))


def test_the_term_said_again_of_ones_who_keeps_the_text_out():
    # Issue 56: "the younger generation" -> "older" left "the younger ones who have only
    # heard of it" behind; "ones who" speaks of people, as a person noun does.
    text = "The younger generation must see it, the younger ones who only heard of it."
    assert not texts_of(text, ["age"])
    # "ones that" may be anything ("the younger ones that still run"): a thing, no mention.
    near = "The younger generation must see it, not the younger ones that still run."
    assert near.replace("younger generation", "older generation") in texts_of(near, ["age"])


def test_a_noun_holistic_does_not_write_is_a_cue_of_its_adjective():
    # Issue 56: HolisticBias writes "Jewish", never "Jew": "whether someone is or is not a
    # Jew, or what it means to be Jewish" -> "to be Rasta" left the Jew behind.
    text = "I won't debate whether someone is a Jew, or what it means to be Jewish."
    assert not texts_of(text, ["religion"], "holistic")
    near = "I won't debate what it means to be Jewish."
    assert near.replace("Jewish", "Rasta") in texts_of(near, ["religion"], "holistic")


def test_an_epithet_for_women_keeps_a_woman_from_becoming_a_man():
    # Issue 56's tweet reads: "this dumb blonde bitch was on her phone" -> "his phone" read
    # wrong (the bitch is still a woman); 8 of 10 such swaps.
    text = "This dumb blonde bitch was on her phone and she didn't even stop."
    assert not any("his" in v.split() for v in texts_of(text, ["pronouns"], "pronouns"))
    near = "This dumb blonde driver was on her phone and she didn't even stop."
    assert any("his" in v.split() for v in texts_of(near, ["pronouns"], "pronouns"))
    # A man may be called one too: his swap to a woman still reads well.
    man = "He is such a little bitch, he cried when his team lost."
    assert any("she" in v.split() for v in texts_of(man, ["pronouns"], "pronouns"))
