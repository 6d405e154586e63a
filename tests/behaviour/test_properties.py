"""Hypothesis properties of the rewriter over generated sentences.

Sentences mix filler words (which hold no identity term) with identity mentions in person
contexts ("a <term> man", "<plural> are", "I am a <noun>"), written in the list's natural
spelling, in upper case, or at a sentence start.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textfair.terms import load_term_list
from textfair.text._articles import indefinite_article
from textfair.text.generate import counterfactuals, swap_term
from textfair.text.matcher import default_matcher

TERMS = load_term_list("dixon2018")
SINGLE_WORD = [t for t in TERMS.terms() if " " not in t.text and "-" not in t.text]
FILLER = (
    "we saw that it was really nice and then left quickly because of rain today so "
    "this page says nothing about cats or dogs but everyone agreed with me here"
).split()
PEOPLE = ["man", "woman", "people", "friend", "neighbor", "family", "teacher"]
# "a lesbian man" is not a sentence anyone writes: round trips with a term that implies a
# gender use nouns that do not say one.
NEUTRAL_PEOPLE = [noun for noun in PEOPLE if noun not in ("man", "woman")]

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)

filler = st.lists(st.sampled_from(FILLER), max_size=6).map(" ".join)


def _article(term_text: str, term) -> str:
    return term.article or indefinite_article(term_text)


@st.composite
def term_pair(draw):
    """Two distinct single-word terms of one category."""
    category = draw(st.sampled_from(list(TERMS.categories)))
    choices = [t for t in SINGLE_WORD if t.category == category]
    first = draw(st.sampled_from(choices))
    second = draw(st.sampled_from([t for t in choices if t != first]))
    return first, second


@st.composite
def adjective_sentence(draw, term, neutral=False):
    """A sentence using `term` as an adjective before a person noun, in some case style."""
    nouns = NEUTRAL_PEOPLE if neutral else PEOPLE
    if term.category == "age":
        nouns = [n for n in nouns if n not in ("friend", "family")]  # "old friend": idioms
    noun = draw(st.sampled_from(nouns))
    start = draw(st.booleans())
    phrase = f"{_article(term.text, term)} {term.text} {noun}"
    if start:
        phrase = phrase[0].upper() + phrase[1:]
        text = f"{phrase} {draw(filler)}".strip() + "."
    else:
        text = f"{draw(filler)} {phrase} {draw(filler)}".strip() + "."
    return text.upper() if draw(st.booleans()) else text


@SETTINGS
@given(data=st.data())
def test_a_to_b_to_a_returns_the_original_text(data):
    first, second = data.draw(term_pair())
    neutral = bool(first.gender or second.gender)
    text = data.draw(adjective_sentence(first, neutral))
    there = swap_term(text, first.id, second.id)
    assert there is not None, text
    back = swap_term(there.text, second.id, first.id)
    assert back is not None, there.text
    assert back.text == text


@st.composite
def mixed_text(draw):
    """Filler and several mentions (adjective, plural, noun frames) of any terms."""
    pieces = []
    for _ in range(draw(st.integers(1, 3))):
        term = draw(st.sampled_from(TERMS.terms()))
        frames = [f"{_article(term.text, term)} {term.text} {draw(st.sampled_from(PEOPLE))}"]
        if term.plural_noun:
            frames.append(f"{term.plural_noun} are here")
        if term.singular_noun:
            frames.append(f"I am {_article(term.singular_noun, term)} {term.singular_noun}")
        pieces += [draw(filler), draw(st.sampled_from(frames)) + ","]
    text = " ".join(p for p in pieces if p).rstrip(",") + "."
    return text[0].upper() + text[1:]


@SETTINGS
@given(text=mixed_text(), seed=st.integers(0, 2**16))
def test_only_mentions_and_their_articles_change(text, seed):
    mentions = {(m.start, m.end) for m in default_matcher().find(text)}
    for variant in counterfactuals(text, max_variants=8, seed=seed):
        restored, cursor = [], 0
        for edit in variant.edits:
            assert variant.text[edit.new_start : edit.new_end] == edit.new
            restored += [variant.text[cursor : edit.new_start], edit.old]
            cursor = edit.new_end
            if edit.kind == "article":
                assert edit.old.lower() in ("a", "an") and edit.new.lower() in ("a", "an")
            else:
                assert (edit.old_start, edit.old_end) in mentions
        assert "".join(restored) + variant.text[cursor:] == text


@SETTINGS
@given(text=mixed_text(), seed=st.integers(0, 2**16))
def test_every_inserted_term_is_found_again(text, seed):
    for variant in counterfactuals(text, max_variants=8, seed=seed):
        found = {m.start: m.term_id for m in default_matcher().find(variant.text)}
        targets = {s.target for s in variant.swaps}
        for edit in variant.edits:
            if edit.kind == "term" and edit.new_start in found:
                continue
            assert edit.kind == "article", (variant.text, edit)
        assert targets <= set(found.values()), (variant.text, targets)


@st.composite
def several_terms_sentence(draw):
    """A sentence naming two or three distinct terms of one category, each before a noun."""
    category = draw(st.sampled_from(list(TERMS.categories)))
    choices = [t for t in SINGLE_WORD if t.category == category]
    terms = draw(st.lists(st.sampled_from(choices), min_size=2, max_size=3, unique=True))
    phrases = [f"{_article(t.text, t)} {t.text} {draw(st.sampled_from(PEOPLE))}" for t in terms]
    return category, f"{draw(filler)} {' and '.join(phrases)} {draw(filler)}".strip() + "."


def _distinct_terms(text, category):
    return {m.term_id for m in default_matcher().find(text, [category])}


@given(several_terms_sentence(), st.integers(0, 2**16))
@SETTINGS
def test_no_variant_merges_distinct_terms(case, seed):
    """Counterfactuals map a seed's distinct terms injectively; rule-set rewrites and audit
    rows, which need one term per category, leave such seeds out of that category."""
    from textfair.core.rules import Rule
    from textfair.text.domain import TextDomain
    from textfair.text.rule_satisfying import rule_satisfying

    category, text = case
    named = _distinct_terms(text, category)
    if len(named) < 2:  # a gate may drop a mention ("old", "young" need a person context)
        return
    for variant in counterfactuals(text, [category], max_variants=16, seed=seed):
        # Each distinct term goes to its own term: after the swaps, as many distinct terms.
        after = {s.source: s.target for s in variant.swaps}
        assert len({after.get(term, term) for term in named}) == len(named), variant.text
    some_term = next(iter(TERMS.categories[category])).id
    assert rule_satisfying(text, {category: some_term}) is None
    domain = TextDomain([text], categories=[category])
    assert domain.rewrite(0, (Rule(category, some_term),)) is None
    assert domain.several_terms == {category: 1}
