"""Words of the old identity a swap would leave behind (issue 56, IN_TEXT).

A text that names its identity again where the matcher finds no mention to rewrite ("Are
you gay? ... a gay nigger", "why you so gay?" under a heading "gay", "she was a lesbian"
after "Lesbian Teenager") keeps naming the old group beside the new one after a swap: a
reader sees two identities where the seed had one. The matcher drops such a word for good
reasons (an insult, a title, a capitals run, a word it cannot place), so the word is no
mention to rewrite; but the text still names the group, and the swap is left out
(`LeftBehind`, read by the ``other_use`` gate). A word that names people by binary sex
("the women", "other males") left beside a mention of "male" or "female" keeps a term of
no binary gender from its place (`names_the_sexes`, read by ``no_target``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from textfair.terms import Term, TermList, normalize_form
from textfair.text import _context as context
from textfair.text.mentions import Mention

__all__ = ["LeftBehind", "Sexes", "names_the_sexes", "sexed_body", "things_of"]


class LeftBehind:
    """Per term list: every written form of the terms of categories that are no name or
    gendered-word list, found in a text whatever the matcher made of them."""

    def __init__(self, term_list: TermList) -> None:
        self._forms: dict[str, list[Term]] = {}
        for term in term_list.terms():
            if term.names or term.words or term.members:
                continue  # names and gendered words: `references` follows those
            for form, _ in term.surface_forms():
                self._forms.setdefault(normalize_form(form), []).append(term)
        # A list's cue words name people where they are slurs ("nigger", "dyke"): a term
        # before one is said of people, as before a person noun.
        self._cues = frozenset(normalize_form(c) for t in term_list.terms() for c in t.cues)
        source = r"(?<!\w)(?:" + context.trie_pattern(self._forms) + r")(?!\w)"
        self._pattern = context.CaseBlindPattern(source) if self._forms else None

    def left(
        self, text: str, terms: Iterable[Term], spans: Sequence[tuple[int, int]]
    ) -> list[Term]:
        """Those of `terms` whose form `text` writes outside `spans` (the mentions and words
        a swap rewrites) of people or alone ("so gay?", "a gay nigger"), not of a thing
        ("gay marriage")."""
        if self._pattern is None:
            return []
        wanted = {t.id: t for t in terms}
        left: dict[str, Term] = {}
        # The characters the spans cover, marked once: a text repeating a term hundreds of
        # times has as many spans as matches, and a test of every span per match was
        # quadratic. An empty span overlaps a match it falls strictly inside.
        covered = bytearray(len(text))
        for s, e in spans:
            covered[s:e] = b"\x01" * (e - s)
        empty = [s for s, e in spans if s == e]
        for match in self._pattern.finditer(text):
            start, end = match.span()
            if covered.find(1, start, end) != -1 or any(start < s < end for s in empty):
                continue
            for term in self._forms.get(normalize_form(text[start:end]), ()):
                if term.id in wanted and not _names_a_thing(text, start, end, self._cues):
                    left[term.id] = wanted[term.id]
        return list(left.values())


# Words that name people by binary sex, or a body part of one sex: a text holding one beside
# a male or female mention sets the sexes side by side ("educating the male population ...
# rights to the women", "homosexual behaviour with other males", "female genitals, and male
# as well"), and a term of no binary gender in the mention's place crosses the axes: "the
# transgender population ... the women" (issue 56, IN_TEXT).
_SEX_WORDS = frozenset(
    """
    men women males females boys girls gentlemen ladies homosexual homosexuals prostate
    penis penises vagina vaginas testicles genitals
    """.split()
)
_WORD = re.compile(r"[A-Za-z]+")


def names_the_sexes(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether `text` names people by binary sex outside `spans` (the mentions), in the
    sentence of one of them: a contrast of the sexes is drawn in a sentence ("Rather than
    educating the male population, they deny rights to the women"); "men" sentences away
    in a long review sets no sex against the mention ("the intrepid female reporter ...
    Later the men arrive")."""
    sentences = None  # the mentions' sentences, read at the first word of sex
    for match in _WORD.finditer(text):
        if match.group().lower() in _SEX_WORDS and not any(
            s < match.end() and match.start() < e for s, e in spans
        ):
            if sentences is None:
                sentences = [context.sentence_of(text, s) for s, _ in spans]
            if any(first <= match.start() <= last for first, last in sentences):
                return True
    return False


def _names_a_thing(text: str, start: int, end: int, people: frozenset[str]) -> bool:
    """The word joins another ("anti-gay", "gay-agenda") or modifies a noun for no person
    ("gay marriage", "lesbian undertones", "old dubbed animation"): it describes a thing,
    and a text may keep it beside a new identity. A word of `people` (slurs) is no thing."""
    if text[end : end + 1] == "-" or text[start - 1 : start] == "-":
        return True
    after = context.tokens_after(text, end, count=1)
    if not after or not context.is_content_word(after[0]):
        return False
    word = context.normalize_token(after[0])
    if word in ("one", "ones") and _relative_who_after(text, end):
        return False  # "the younger ones who have only heard of it": people
    return not (context.is_person_noun(word) or word in people or word in _CHAT_PRONOUNS)


def _relative_who_after(text: str, end: int) -> bool:
    """Whether "one(s)" after the word ending at `end` opens a relative clause of persons
    ("the younger ones who", "the old one whose"): said of people, as before a person noun
    ("the old ones that still run" is said of anything)."""
    after = context.tokens_after(text, end, count=2)
    return len(after) == 2 and context.normalize_token(after[1]) in ("who", "whom", "whose")


# The pronouns of chat ("ur so fucking gay u should go die"): no noun after the word.
_CHAT_PRONOUNS = frozenset("u ur ya yall".split())


# Body words of one sex ("pregnant", "big-breasted", "prostate"): a text holding one says
# the sex of someone it speaks of, and a swap of the sex of its people contradicts it ("the
# big-breasted girls" -> "the big-breasted boys"; issue 56, IN_TEXT).
_SEXED_BODY = re.compile(
    r"\b(?:pregnan(?:t|cy|cies)|breast(?:s|ed|feeding|fed)?|boobs?|penis(?:es)?|vagina[sl]?"
    r"|prostate|uterus|womb|testicles?|menstrua(?:l|tion)|erection)\b",
    re.IGNORECASE,
)


# Slurs of people of one sex ("faggot" of gay men, "dyke" of lesbians; Wikipedia "List of
# LGBT slurs", CC BY-SA 4.0, single words listed as facts): a swap of the sex of the person
# called one contradicts it ("calling him a faggot" -> "calling her a faggot"; issue 56).
_SEXED_SLURS = re.compile(r"\b(?:fag|fags|faggot|faggots|poof|poofs|dyke|dykes)\b", re.IGNORECASE)


# Epithets for women (Wikipedia "Category:Misogynistic slurs" and Wiktionary's senses, CC BY-SA
# 4.0, single words listed as facts): the woman a text calls one stays a woman; a man may be
# given one too ("he's a little bitch" -> "she's ..." reads well), so only the swap of a woman
# to a man is kept out ("this dumb blonde bitch was on her phone" -> "his phone": tweet reads
# of issue 56, 8 of 10 such swaps read wrong).
_WOMENS_EPITHETS = re.compile(
    r"\b(?:bitch(?:es)?|whores?|sluts?|hoes?|skanks?|thots?|cunts?|huss(?:y|ies))\b",
    re.IGNORECASE,
)


def sexed_body(text: str) -> bool:
    """Whether `text` names a body part or state of one sex (see `_SEXED_BODY`), or calls
    someone by a slur of one sex (`_SEXED_SLURS`)."""
    return _SEXED_BODY.search(text) is not None or _SEXED_SLURS.search(text) is not None


class Sexes:
    """Per term list: the targets a text's words of sex allow a gendered mention."""

    def __init__(self, term_list: TermList, axes: Mapping[tuple[str, str], frozenset[str]]):
        self.term_list = term_list
        # Each term's binary gender by (category, id): looked up for every target of every
        # mention, so not by `TermList.term`, which walks the list (3,000 terms in
        # benchmarks.lists' probe: its reading took over 15 minutes).
        self._gender = {(t.category, t.id): t.gender for t in term_list.terms()}
        # The axes holding terms of both binary genders ("male", "female": gender identity).
        self._sexed_axes = {
            key: sum(1 for t in term_list.categories[key[0]] if t.id in ids and t.gender) > 1
            for key, ids in axes.items()
        }

    def allowed(
        self,
        category: str,
        sources: Iterable[Term],
        targets: set[str],
        text: str,
        spans: Sequence[tuple[int, int]],
    ) -> set[str]:
        """`targets` less a term of no binary gender in the place of "male" or "female"
        where the text names the sexes (`names_the_sexes`), less a term of the other
        binary gender where it names a body of one sex (`sexed_body`), and less a man's
        term in the place of a woman's where it calls someone an epithet for women."""
        sources = list(sources)
        gender_of = {t: self._gender[(category, t)] for t in targets}
        if any(
            s.gender and self._sexed_axes[(category, s.axis_name)] for s in sources
        ) and names_the_sexes(text, spans):
            targets = {t for t in targets if gender_of[t]}
        kept = {s.gender for s in sources}
        if None not in kept and len(kept) == 1 and sexed_body(text):
            targets = {t for t in targets if gender_of[t] in kept | {None}}
        if kept == {"female"} and _WOMENS_EPITHETS.search(text) is not None:
            targets = {t for t in targets if gender_of[t] != "male"}
        return targets


def things_of(other_uses: Sequence[Mention], sources: Mapping[str, Term]) -> tuple[Mention, ...]:
    """The mentioned terms' words describing a thing ("the Jews ... Jewish history"), as
    mentions a swap rewrites with the others, so no word of the old group stays. A nation's
    thing ("American politics") is its affairs, which another nation does not share: it
    stays another use."""
    return tuple(
        replace(u, fixed=False, role="")
        for u in other_uses
        if u.role == "thing"
        and u.term_id in sources
        and u.term.axis_name != "nationality"
        and not u.term.groups_only
    )
