"""The generator's shortcuts (issue 42: substitution at 20k texts/s) change no result: each
gives what the full computation gives, on real reviews and on texts written to hit it."""

from __future__ import annotations

import csv
import random

import pytest

from textfair.text import _ages as ages
from textfair.text._merges import MergeCheck
from textfair.text.domain import TextDomain

from locations import ROOT

REVIEWS = ROOT / "examples" / "data" / "imdb_small.tsv"

# One text per alternative of each life-stage pattern (several cases): a key missed by the
# shortcut skips the one text that holds it.
STAGES = """Toddlers|an INFANT|kindergarten|grade school|Elementary School|primary school|the kids
|a Kid|the child|Children|schoolboys|a SCHOOLGIRL|Teens|a teenager|adolescents|High-school
|highschoolers|Students|an undergraduate|freshmen|on campus|College kids|Retired|a retiree
|retirement|pensioners|grandchildren|grandkids|a grandson|granddaughters|Grandpa|grandma
|GRANNY|a nursing home|an old people's home|the old folks' home|a 16-year-old
|twenty-five years old|six yrs. old|aged 12|at the age of 76|the ages of 9|in her 80s
|in his mid-30's|in their late twenties|in his EIGHTIES|a ſtudent|a ſchoolgirl
|a \u212aID|the \u0130nfants|kıds and ınfants|a café’s kids|Ñinos, the KIDS"""
STAGE_TEXTS = [f"We saw {phrase.strip()} there." for phrase in STAGES.split("|")]


@pytest.fixture(scope="module")
def reviews() -> list[str]:
    with open(REVIEWS, encoding="utf-8", newline="") as handle:
        return [row["review"] for row in csv.DictReader(handle, delimiter="\t")]


def test_life_stages_skip_only_texts_that_state_none(reviews, monkeypatch):
    texts = STAGE_TEXTS + reviews
    fast = [ages.life_stages(text) for text in texts]
    # The full computation: every pattern scanned, ignoring case, on the text as written.
    monkeypatch.setattr(ages.context, "lower_exactly", lambda text: None)
    assert fast == [ages.life_stages(text) for text in texts]
    assert all(fast[: len(STAGE_TEXTS)])  # every written text states a stage


def test_merge_check_asked_about_some_targets_answers_as_for_all(reviews):
    check = MergeCheck(TextDomain(["x"], "dixon2018").term_list)
    texts = [
        "I like white girls and black chicks.",
        "Spanish girls and white guys; Jack Black drinks black coffee.",
        "Gay men and homosexuals, young or old, how old are you?",
        *reviews[:200],
    ]
    for text in texts:
        for category, terms in check_categories(check).items():
            full = check.named(text, category, [(0, 3)])
            for among in (terms, frozenset(sorted(terms)[::2]), frozenset()):
                assert check.named(text, category, [(0, 3)], among=among) == full & among


def check_categories(check: MergeCheck) -> dict[str, frozenset[str]]:
    """Every category the check knows, with the ids it can name there."""
    found: dict[str, set[str]] = {}
    for by_category in check._named.values():
        for category, ids in by_category.items():
            found.setdefault(category, set()).update(ids)
    return {c: frozenset(ids) for c, ids in found.items()}


def test_ascii_tokens_are_the_regex_engines_tokens():
    from textfair.core.words import word_regex
    from textfair.text import _context as context

    reference = word_regex(context._TOKENIZER_PATTERN)
    rng = random.Random(0)
    alphabet = [chr(i) for i in range(128)]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(20000)]
    texts += [chr(i) + chr(j) + "a" for i in range(128) for j in range(128)]
    texts += ["It's a well-known man's \x1c\x1f\x0b dog - 'quoted' (x) _y_ 3rd."]
    assert all(context._tokens(text) == reference.findall(text) for text in texts)


def test_ascii_twin_of_a_lowercase_pattern_finds_the_same(reviews):
    from textfair.text.matcher import Matcher

    matcher = Matcher("dixon2018")
    twin = matcher._pattern._lower
    for text in [review.lower() for review in reviews[:300] if review.isascii()]:
        expected = [m.span() for m in twin._unicode.finditer(text)]
        assert [m.span() for m in twin.finditer(text)] == expected
    # and the case-blind pattern as a whole: the lowercase twin where offsets stay, else the
    # case-blind scan, finds what ignoring case finds ("İ" lowercases to two characters)
    for text in [*reviews[:300], "İstanbul's Muslim and GAY people"]:
        blind = matcher._pattern._blind
        assert [m.span() for m in matcher._pattern.finditer(text)] == [
            m.span() for m in blind.finditer(text)
        ]


def test_merge_words_read_in_the_lowercased_text_as_in_the_text(reviews):
    from textfair.text import _context as context
    from textfair.text import _merges as merges

    check = MergeCheck(TextDomain(["x"], "dixon2018").term_list)
    texts = [
        "Jack Black drinks BLACK COFFEE at 20 years old.",
        "An ſtrange Old-school fan.",
        *reviews,
    ]
    read = 0
    for text in texts:
        lower = context.lower_exactly(text)
        for start, end, _ in check._scan(text):
            fast = merges._names_no_group(text, start, end, lower)
            assert fast == merges._names_no_group(text, start, end)
            read += fast
    assert read  # some words do lie in a collocation


def test_the_assignments_a_seed_takes_are_those_it_is_rewritten_to():
    """Issue 58: paired rows rule out the assignments a seed cannot take all at once
    (`assignments_taken`); for every seed and every assignment over one and two categories,
    that is exactly where `rewrite` writes a variant."""
    import itertools

    from textfair.core.rules import Rule

    from conftest import bundled_comments

    domain = TextDomain(bundled_comments()[0][:400], "dixon2018", workers=1)
    taking_part = {}
    for categories in (("gender",), ("race",), ("gender", "religion")):
        assignments = [
            tuple(Rule(c, v) for c, v in zip(categories, values, strict=True))
            for values in itertools.product(
                *[[r.value for r in domain.single_rules(c)] for c in categories]
            )
        ]
        columns = domain.assignment_columns(assignments)
        taking_part[categories] = 0
        for index in range(len(domain.texts)):
            taken = domain.assignments_taken(index, categories, columns)
            written = [domain.rewrite(index, a) is not None for a in assignments]
            assert taken.tolist() == written, (index, categories)
            taking_part[categories] += any(written)
    # Seeds that take some assignments (not only seeds that take none), in each case.
    assert taking_part[("gender",)] > 30 and taking_part[("race",)] > 5
    assert taking_part[("gender", "religion")] > 0


def test_a_sentence_found_looking_back_is_the_one_a_scan_from_the_start_finds(reviews):
    """`sentence_of` looks back from the position for the last sentence end (a scan from the
    text's start made reading a text quadratic in its mentions): the same span as the scan
    at every position of real reviews and of texts with every end mark, at either edge."""
    import re

    from textfair.text import _context as context

    ends = re.compile(r"[.!?\n]")

    def scanned(text: str, position: int) -> tuple[int, int]:
        start = max((m.end() for m in ends.finditer(text, 0, position)), default=0)
        end = ends.search(text, position)
        return start, end.start() if end else len(text)

    texts = [*reviews[:40], ".a!b?c\nd.", "no end at all", "", "..", "a.\n\nb"]
    for text in texts:
        # Every position beside an end mark and at either edge, every 7th elsewhere.
        marks = {m.start() + d for m in ends.finditer(text) for d in (-1, 0, 1, 2)}
        for position in sorted({0, len(text), *range(0, len(text), 7), *marks}):
            if 0 <= position <= len(text):
                assert context.sentence_of(text, position) == scanned(text, position)


def test_terms_left_behind_are_those_outside_the_spans_tested_one_by_one():
    """`LeftBehind.left` marks the spans' characters once rather than testing every span per
    match (quadratic in a text repeating a term): the same terms as the span-by-span test,
    for random spans, empty ones included, over texts repeating the terms."""
    from textfair.terms import load_term_list
    from textfair.text._left_behind import LeftBehind

    terms = load_term_list("dixon2018")
    left_behind = LeftBehind(terms)
    every = list(terms.terms())
    rng = random.Random(58)
    words = ["gay", "Muslim", "old", "black", "the", "queer", "men", "Jewish", "young", "."]
    found = 0
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 30)))
        spans = []
        for _ in range(rng.randint(0, 6)):
            start = rng.randint(0, len(text))
            spans.append((start, min(len(text), start + rng.choice([0, 1, 3, 8]))))
        expected = _left_one_by_one(left_behind, text, every, spans)
        assert left_behind.left(text, every, spans) == expected, (text, spans)
        found += bool(expected)
    assert found > 100  # texts where terms are left behind, not only texts with none


def _left_one_by_one(left_behind, text, terms, spans):
    """`left`, with the overlap of a match and the spans tested span by span."""
    from textfair.text import _left_behind as module

    wanted = {t.id: t for t in terms}
    left = {}
    for match in left_behind._pattern.finditer(text):
        start, end = match.span()
        if any(s < end and start < e for s, e in spans):
            continue
        for term in left_behind._forms.get(module.normalize_form(text[start:end]), ()):
            if term.id in wanted and not module._names_a_thing(text, start, end, left_behind._cues):
                left[term.id] = wanted[term.id]
    return list(left.values())
