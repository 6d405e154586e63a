"""Which groups a text already names, so that no mention is rewritten into one of them.

A rewrite that writes a group the text keeps distinct merges two groups into one: "white"
-> "African American" beside "black chicks", "white" -> "Latino" beside "spanish girls",
"old" -> "young" in "be they young or old". Such a target is taken out of the seed's
allowed targets (`CategoryPlan.targets`); the seed still takes part with the others.

The check reads words, not mentions: a word the matcher does not count as a mention still
names its group here ("black chicks", where "chicks" is no person noun the gate knows; the
"young" of "young or old"). Near-synonyms count too (`merge_groups`: "spanish" and
"Hispanic" name the Latino group, "homosexual" the gay one). Words inside a known
collocation ("years old", "black coffee"), surnames after a first name ("Jack Black") and
degrees ("how old are you") name no group.
"""

from __future__ import annotations

from functools import cache

from textfair.terms import Term, TermList, normalize_form
from textfair.text import _context as context
from textfair.text import _grammar_gates as grammar_gates

__all__ = ["MergeCheck", "kin", "merge_groups"]


# Words that name one identity group, or a group and the groups it holds (a hypernym): a
# text naming any word of a group, anywhere and in any use, names that group. Written by the
# textfair authors from the near-synonyms the US census forms put under one heading
# ("Hispanic or Latino", "Black or African American", "American Indian or Alaska Native"),
# the synonyms and slurs of the GLAAD media reference guide, and the denominations of the
# religions the built-in lists name. A word may be in more than one group ("mexican": a
# nationality, and Latino). Terms of a list in no group still name themselves.
_GROUPS = """
hispanic, latino, latina, latinx, latine, latin american, chicano, chicana, spanish, mexican
black, african american, afro american, african, negro, afro
white, caucasian, european american, anglo
asian, east asian, asian american, oriental, aapi, chinese, japanese, korean, vietnamese
south asian, desi, indian, indian american
native american, american indian, indigenous, aboriginal, aborigine, alaska native, first nations
middle eastern, arab
gay, homosexual, homo
straight, heterosexual, hetero
bisexual, bi
lesbian, lesbo, dyke
trans, transgender, transsexual
nonbinary, non binary, enby, genderqueer
lgbt, lgbtq, lgbtq+, lgbtqia, queer
old, older, elderly, senior, aged, geriatric, elder
young, younger, youthful, youth
teen, teenage, teenaged, teenager, adolescent
christian, catholic, roman catholic, protestant, evangelical, lutheran, methodist, mormon, baptist
muslim, moslem, islamic, sunni, shia, shiite
jewish, jew, hebrew, ashkenazi jewish, sephardic jewish, orthodox jewish, hasidic
atheist, nonbeliever, irreligious
rich, wealthy, affluent, moneyed, well off, well to do, one percenter
poor, low income, impoverished, broke
disabled, handicapped, crippled
"""


# Umbrella terms and the groups they hold (GLAAD media reference guide: "LGBTQ", "queer" as
# an umbrella term; "gay" of women too): a word of one names the other's people too ("queer
# ... fags", "no gay community ... a few lesbians ... Dyke Slope").
_UMBRELLAS = """
lgbt, lgbtq, lgbtq+, lgbtqia, queer: gay, homosexual, lesbian, bisexual, trans, transgender
lgbt, lgbtq, lgbtq+, lgbtqia, queer: nonbinary
gay: lesbian
"""


# Terms that hold every other term of their category ("religious", "spiritual" of holistic).
_HOLDS_ITS_CATEGORY = frozenset({"religious", "spiritual"})


@cache
def _kin_pairs() -> frozenset[frozenset[str]]:
    pairs = set()
    for group in merge_groups():
        pairs |= {frozenset((a, b)) for a in group for b in group}
    for line in _UMBRELLAS.strip().splitlines():
        umbrella, held = line.split(":")
        tops = [normalize_form(w.strip()) for w in umbrella.split(",")]
        below = [normalize_form(w.strip()) for w in held.split(",")] + tops
        pairs |= {frozenset((a, b)) for a in tops for b in below}
    return frozenset(pairs)


@cache
def kin(first: Term, second: Term) -> bool:
    """Whether two terms name the same people, or one holds the other's (a near-synonym, a
    denomination of a religion, an umbrella: "homosexual" and "gay", "Catholic" and
    "Christian", "queer" and "gay"): a word of one is no word of *another* identity."""
    if first.id == second.id:
        return True
    if first.category == second.category and {first.id, second.id} & _HOLDS_ITS_CATEGORY:
        return True  # "religious groups (such as the Essenes)": every religion is religious
    forms = [{normalize_form(f) for f, _ in t.surface_forms()} for t in (first, second)]
    pairs = _kin_pairs()
    return any(frozenset((a, b)) in pairs for a in forms[0] for b in forms[1])


@cache
def merge_groups() -> tuple[frozenset[str], ...]:
    """The groups of words that name one identity group, each word normalised as the
    matcher normalises a form."""
    return tuple(
        frozenset(normalize_form(word.strip()) for word in line.split(",") if word.strip())
        for line in _GROUPS.strip().splitlines()
    )


class MergeCheck:
    """Per text and category, the terms of a list that the text names anywhere.

    Parameters
    ----------
    term_list
        The list whose terms are looked for. Lists of first names and gendered words name
        persons, not groups: nothing is looked for there.
    """

    def __init__(self, term_list: TermList) -> None:
        # Each written word -> the (category, term id) pairs it names: a term's own forms,
        # and every word of a group holding one of them.
        named: dict[str, set[tuple[str, str]]] = {}
        groups = merge_groups()
        for term in term_list.terms():
            if term.names or term.words:
                continue
            forms = {normalize_form(form) for form, _ in term.surface_forms()}
            words = set(forms)
            for group in groups:
                if group & forms:
                    words |= group
            for word in words:
                named.setdefault(word, set()).add((term.category, term.id))
                if not word.endswith("s") and word[-1:].isalpha():
                    named.setdefault(word + "s", set()).add((term.category, term.id))
        # Per word, per category: the ids it names.
        self._named: dict[str, dict[str, frozenset[str]]] = {}
        for word, pairs in named.items():
            by_category: dict[str, set[str]] = {}
            for category, term_id in pairs:
                by_category.setdefault(category, set()).add(term_id)
            self._named[word] = {c: frozenset(ids) for c, ids in by_category.items()}
        source = r"(?<![\w])(?:" + context.trie_pattern(self._named) + r")(?![\w])"
        self._pattern = context.CaseBlindPattern(source) if named else None
        self._last: tuple[str | None, list[tuple[int, int, dict[str, frozenset[str]]]]] = (
            None,
            [],
        )
        # Per word of the last text: whether it names its group, once a category asked; and
        # the text lowercased, where that is exact (`context.lower_exactly`).
        self._read: list[bool | None] = []
        self._lower: str | None = None

    def named(
        self,
        text: str,
        category: str,
        spans: list[tuple[int, int]],
        sources: frozenset[str] = frozenset(),
        among: frozenset[str] | set[str] | None = None,
    ) -> frozenset[str]:
        """The term ids of `category` that `text` names outside `spans` (the mentions about
        to be rewritten, and their related words).

        Parameters
        ----------
        text
            The seed text.
        category
            The category asked about.
        spans
            (start, end) of each word rewritten: a word inside one names the seed's own
            term, which is being changed.
        sources
            The ids of the terms rewritten: a word naming their own group elsewhere names no
            other group ("gay" -> "homosexual" beside "Is Gay" merges nothing).
        among
            The only ids asked about (the targets still allowed), or None: all. Words that
            could name none of them are not read closely, which is most of the cost.

        Returns
        -------
        frozenset of str
            The ids of the category's terms (of `among`, if given) whose group the rest of
            the text names.
        """
        found: set[str] = set()
        hits = self._scan(text)
        for index, (start, end, by_category) in enumerate(hits):
            ids = by_category.get(category)
            if ids is None or not ids.isdisjoint(sources):
                continue  # another category's word, or the seed's own group named again
            if among is not None and (ids & among) <= found:
                continue  # names nothing asked about that is not known already
            if any(s <= start and end <= e for s, e in spans):
                continue  # a word being rewritten
            if self._names_a_group(text, index, start, end):
                found |= ids
        return frozenset(found if among is None else found & among)

    def _names_a_group(self, text: str, index: int, start: int, end: int) -> bool:
        """Whether the `index`-th word found in the last text scanned names its group (not
        in a collocation, no surname, no degree: `_names_no_group`); read once per word
        however many categories ask."""
        known = self._read[index]
        if known is None:
            known = self._read[index] = not _names_no_group(text, start, end, self._lower)
        return known

    def _scan(self, text: str) -> list[tuple[int, int, dict[str, frozenset[str]]]]:
        """Every word of `text` that may name a group, remembered for the last text (whether
        it does, `_names_a_group`, is read when a category asks)."""
        if self._last[0] is text or self._last[0] == text:
            return self._last[1]
        hits = []
        for match in self._pattern.finditer(text) if self._pattern else ():
            start, end = match.span()
            hits.append((start, end, self._named[context.normalized_form(match.group())]))
        self._last = (text, hits)
        self._read = [None] * len(hits)
        self._lower = context.lower_exactly(text)
        return hits


def _names_no_group(text: str, start: int, end: int, lower: str | None = None) -> bool:
    """A word in a known collocation ("years old", "black coffee"), a surname after a
    first name ("Jack Black"), or a degree ("how old are you", "older than"). `lower`: the
    text lowercased where that is exact (`context.lower_exactly`), scanned instead."""
    before = context.tokens_before(text, start, count=1)
    if before and before[0][:1].isupper() and before[0] in context.first_names():
        return True
    if grammar_gates.gradable_context(text, start, end):
        return True
    if not context.collocation_words().intersection(context.word_runs(text[start:end])):
        return False  # no collocation holds a word of it (most words)
    reach = context.collocation_reach()
    window = (max(0, start - reach), min(len(text), end + reach))
    matches = (
        context.collocation_regex().finditer(text, *window)
        if lower is None
        else context.collocation_regex(lowercase=True).finditer(lower, *window)
    )
    return any(match.start() <= start and end <= match.end() for match in matches)
