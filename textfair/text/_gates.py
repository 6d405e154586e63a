"""The reading's gates, declared in order in one place: `PIPELINE`.

A seed's mentions of a category pass these gates one after the other (as a spaCy pipeline
lists its components); the first that stops them leaves the seed out of the category's rows
and names why (its left-out reason, counted in the report). A gate is added, removed or
moved here and nowhere else: `textfair.text._coherence.Coherence` runs `PIPELINE` as it
stands, and ``python -m benchmarks.substitution --json`` measures each gate on the gold set
by running the reading without it (`disabled`): the wrong variants it removes and the fine
ones it costs.

Every gate reads a `PlanState` (the text, the category's mentions, the words that go with
them) and returns a reason, or None to let the mentions pass. The gates before
``no_target`` decide whether the text can take part at all; ``no_target`` and
``minor_in_sexual_text`` decide to which terms; ``low_acceptability``, the last, is the
acceptability score (`textfair.text._acceptability.keep_acceptable`, applied per target by
the seed reader).

What a *mention* is (titles, names, web addresses, idioms, "old" for former) is decided
before: the matcher's gates (`textfair.text.matcher`, `_name_gates`, `_phrase_gates`,
`_grammar_gates`, `_address_gates`) drop a word that is no identity mention, so it is no
mention to leave out.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from textfair.terms import Term
from textfair.text import _context as context
from textfair.text import _nationality as nationality
from textfair.text import _references as references
from textfair.text._ages import AGED_NOUNS, STATED_AGE, head_noun, in_age_argument
from textfair.text._descent import by_descent
from textfair.text._merges import kin
from textfair.text._minors import minor_words_in, sexual_content
from textfair.text.mentions import Mention

if TYPE_CHECKING:
    from textfair.text._coherence import Coherence

__all__ = ["GATE_NAMES", "PIPELINE", "Gate", "PlanState", "disabled", "running", "runs"]


@dataclass
class PlanState:
    """What the gates read of one text and category, and what they find on the way."""

    text: str
    category: str
    found: Sequence[Mention]
    words: Sequence[Any]  # the text's cue, related and clash words (`_coherence._Word`)
    other_uses: Sequence[Mention]
    several: bool
    private_names: bool
    sources: dict[str, Term]
    related: list[tuple[Any, Term]]
    axis: frozenset[str] = frozenset()
    spans: list[tuple[int, int]] = field(default_factory=list)
    genders: frozenset[str] = frozenset()
    companions: tuple[Mention, ...] = ()
    targets: set[str] = field(default_factory=set)
    cue_terms: set[str] | None = None
    """The terms a word of several identities in the text allows (None: no such word)."""
    cued_elsewhere: set[Term] = field(default_factory=set)
    """The terms whose cue the text holds beside mentions of another identity ("Muslims
    ... the priest"): never written there (a merge), but no stop."""
    things: tuple[Mention, ...] = ()
    """The mentioned terms' words of a thing ("Jewish history" beside "the Jews"), rewritten
    with the mentions: a faith's or a group's thing, not a nation's affairs."""
    world: str | None = None
    """What a swap rests on where it may make the text false about a real, named person or
    work ("full name 'Charles Lindbergh'"): a flag the variants carry (WORLD), no stop."""


@dataclass(frozen=True)
class Gate:
    """One gate: its name (its left-out reason, where it gives one), the reasons it gives,
    what it stops in one line, and its check."""

    name: str
    reasons: tuple[str, ...]
    stops: str
    check: Callable[[Coherence, PlanState], str | None]


def _several_terms(coherence: Coherence, state: PlanState) -> str | None:
    """Two terms of the category (a rewrite to one term would merge two groups), two members
    of one group ("Mexicans and Brazilians"), or two axes (no term fits both)."""
    if len(state.sources) > 1 and not state.several:
        return "several_terms"
    members: dict[str, set[str]] = {}
    for mention in state.found:
        if mention.member is not None:
            members.setdefault(mention.term_id, set()).add(mention.member.id)
    for word, term in state.related:
        if word.member is not None:
            members.setdefault(term.id, set()).add(word.member.id)
    if any(len(named) > 1 for named in members.values()):
        return "several_terms"
    axes = {term.axis_name for term in state.sources.values()}
    return "several_terms" if len(axes) > 1 else None


def _fixed_form(coherence: Coherence, state: PlanState) -> str | None:
    """A mention in a fixed form ("older than", "Roman Catholic"), or an age the text
    argues from ("Even though I'm quite young", "young enough to be his daughter")."""
    if any(m.fixed for m in state.found):
        return "fixed_form"
    if coherence._aged_category[state.category] and any(
        in_age_argument(state.text, m) for m in state.found
    ):
        return "fixed_form"  # "Even though I'm quite young", "young enough to be"
    return None


def _other_use(coherence: Coherence, state: PlanState) -> str | None:
    """The identity also named where it is not rewritten: a title, an institution, a
    nation's thing ("Catholic Church", "American politics"), or the term written again where
    it is no mention ("why you so gay?" beside a mention of "gay")."""
    rewritten = {(m.start, m.end) for m in state.things}
    if any(
        u.term_id in state.sources and (u.start, u.end) not in rewritten for u in state.other_uses
    ):
        return "other_use"
    # The term written again where the matcher found no mention ("Are you gay? ... a gay
    # nigger", "why you so gay?" under a heading "gay"): a swap would leave it naming the
    # old group beside the new one (issue 56, IN_TEXT; `textfair.text._left_behind`).
    # A term of the same people ("Is Gay" beside "gay" -> "homosexual") keeps the word
    # true: the swap stays among those.
    own = state.spans + [(w.start, w.end) for w, _ in state.related]
    # A kin term of the mention counts too ("queer" heading "wow ur so fucking gay"): the
    # swap to a term of other people would leave "gay" naming the old group.
    kins = [*state.sources.values()] + [
        t
        for t in coherence.term_list.categories[state.category]
        if t.id in state.axis
        and t.id not in state.sources
        and any(kin(t, s) for s in state.sources.values())
    ]
    left = coherence._left_behind.left(state.text, kins, own)
    if left:
        same = {
            t.id
            for t in coherence.term_list.categories[state.category]
            if t.id in state.axis and t.id not in state.sources and all(kin(t, w) for w in left)
        }
        if not same:
            return "other_use"
        state.cue_terms = same if state.cue_terms is None else state.cue_terms & same
    return None


def _cue(coherence: Coherence, state: PlanState) -> str | None:
    """A word that goes with one identity of the axis alone ("synagogue", a slur, a hashtag
    naming it), a word that contradicts a mentioned term, a nation's own affairs or culture,
    or an age the text states beside an adult-only term."""
    text, sources, spans = state.text, state.sources, state.spans
    for word in state.words:
        if any(start < word.end and word.start < end for start, end in spans):
            continue  # the mention itself ("Lutherans": a term, and a cue of Protestant)
        if word.kind == "cue":
            owners = {t.id for t in word.terms if t.category == state.category}
            owners &= state.axis
            if not owners:
                continue
            if not any(
                kin(t, s) for t in word.terms if t.id in owners for s in sources.values()
            ) and not any(_same_sentence(text, word.start, start) for start, _ in spans):
                # A word of another identity than the mentioned one, none of its kin, in
                # another sentence ("Muslims ... The priest said", not "Catholics ...
                # biblical" nor "queer ... fags" nor "not a Jew because he rejected Jesus"):
                # the mention can become any term but the word's own, which would merge the
                # two groups the text keeps apart (issue 56).
                state.cued_elsewhere |= {t for t in word.terms if t.id in owners}
                continue
            if len(owners) > 1 and owners.issuperset(sources):
                # A word of several identities, the mentioned ones among them ("Jesus" of
                # Christian, Catholic and Protestant; "homophobic" of the sexual minorities):
                # the swap stays among them, and the word stays true.
                state.cue_terms = owners if state.cue_terms is None else state.cue_terms & owners
                continue
            return "cue"
        if word.kind == "clash" and any(t.id in sources for t in word.terms):
            return "cue"
    if any(t.axis_name == "nationality" for t in sources.values()) and (
        nationality.this_country(text)
    ):
        return "cue"  # "changed American culture ... coming into this country"
    if any(t.groups_only for t in sources.values()):
        if nationality.our_nation(text):
            return "cue"  # "too many Americans ... into our country"
        # A people spoken of in general takes part; one where the text speaks of public
        # affairs does not (one private person, "my Syrian neighbour", takes part).
        groups = [m for m in state.found if m.term.groups_only]
        if not (groups and all(nationality.one_person(text, m) for m in groups)):
            own = spans + [(w.start, w.end) for w, _ in state.related]
            if nationality.public_affairs(text, own):
                return "cue"  # "Build the wall ... 30% of Americans"
        if nationality.region_or_slur(text, spans):
            return "cue"  # "Asian group ... those Chinese dudes"
        if nationality.a_peoples_culture(text, spans):
            return "cue"  # "a film about Canadians", "real Italians ... spice"
    if references.hashtag_names(text, sources.values(), spans):
        return "cue"  # "Americans ... #AmericaFirst"
    if by_descent(text, state.found):
        return "cue"  # "shared Iranian genes among Jews and Kurds": a people, not a faith
    adult_only = coherence._restricted[state.category][0]
    if adult_only and (
        STATED_AGE.search(text) or any(head_noun(text, m) in AGED_NOUNS for m in state.found)
    ):
        return "cue"  # "an elderly man ... died at the age of 76"
    return None


_SENTENCE_END = re.compile(r"[.!?\n]")


def _same_sentence(text: str, first: int, second: int) -> bool:
    """No sentence ends between the two positions of `text`."""
    low, high = min(first, second), max(first, second)
    return _SENTENCE_END.search(text, low, high) is None


def _references(coherence: Coherence, state: PlanState) -> str | None:
    """A person the swap could not follow: a gendered word's swap beside a person named in
    full (`full_name`: "Bill Nighy ... her" contradicts the name), a first name referred to
    again where the swap cannot follow, a first name beside gendered words of both genders
    (which refer to whom is not known: `reference`), or beside its gendered words and
    another person named in full (whose they are is not known either: `reference`), one
    person called by a nationality in the news (`unknown_person`).

    A first name's swap that may make the text false about a real, named person or work
    (named in full, in a text about a film, not shown to be a private person's) stays
    coherent: it is no stop but a flag, `PlanState.world`, that its variants carry (WORLD,
    issue 56)."""
    text, sources = state.text, state.sources
    if any(
        m.term.groups_only
        and nationality.one_person(text, m)
        and not nationality.one_private_person(text, m.start)
        for m in state.found
    ):
        return "unknown_person"  # "a Syrian refugee attacks ...": the news
    left_out, companions, world = coherence._references(
        text, state.found, sources, state.several, state.private_names
    )
    if left_out is not None:
        return left_out
    state.companions, state.world = tuple(companions), world
    category = state.category
    if coherence._gendered_category[category] and not coherence._one_gender[category]:
        state.genders = coherence._genders_of(text)
    if any(t.names for t in sources.values()) and state.genders:
        # A first name beside gendered words: they are rewritten with it ("Emily ... she"
        # -> "Michael ... he"), which keeps them agreeing; with words of both genders it is
        # not known which refer to whom.
        if len(state.genders) > 1 or len(sources) > 1:
            return "reference"
        state.companions = tuple(coherence._gendered_words(text, next(iter(sources.values()))))
        state.genders = frozenset()
        # Another person named in full ("Meg Tilly ... Ellen Burstyn ... herself", "Richard
        # Attenborough ... Denzel Washington ... him"): the rewritten words may be theirs.
        spans = [(m.start, m.end) for m in state.found]
        if state.companions and any(
            not any(s < end and start < e for s, e in spans)
            for start, end in references.named_people(text)
        ):
            return "reference"
        # A gendered noun in apposition with another name ("this man, Antoni, is" ->
        # "this woman, Antoni", read IN_TEXT): it is that person's, not the swapped name's
        # (not a list: "Flo was still mom, Thelma was").
        if any(
            (apposed := _APPOSED_NAME.match(text, word.end)) is not None
            and not any(s <= apposed.start(1) < e for s, e in spans)
            and _determined(text, word.start)
            for word in state.companions
        ):
            return "reference"
    return None


_APPOSED_NAME = re.compile(r",[ \t]+([A-Z][a-z]+)\b")


def _determined(text: str, start: int) -> bool:
    """A determiner before the word at `start` ("this man")."""
    before = context.tokens_before(text, start, count=1)
    return bool(before) and context.normalize_token(before[0]) in context.DETERMINERS


def _no_target(coherence: Coherence, state: PlanState) -> str | None:
    """Too few terms the rest of the text allows: a term it contradicts ("atheist" beside
    "pray"), of the other gender, an adult age before a child noun, an attributive-only term
    in a predicate, one that is not gradable after a degree word, one without the counterpart
    of a related word, one a life stage stated elsewhere rules out, one whose group the text
    names elsewhere (`Coherence.allowed_targets`)."""
    state.targets = coherence.allowed_targets(state)
    return "no_target" if len(state.targets) < len(state.sources) else None


def _minor_in_sexual_text(coherence: Coherence, state: PlanState) -> str | None:
    """No minor is written into sexual text: "Young Japanese girl" in a porn spam line never
    becomes "Teenage ...", nor a "girl" a "boy" (`textfair.text._minors`)."""
    # A gendered word's counterpart is written for the pronouns list's own mentions and
    # for the words rewritten with a first name ("Emily ... girl" -> "Jose ... boy").
    own = state.found if coherence._swaps_words[state.category] else ()
    swaps_a_minor = any(minor_words_in(m.surface) for m in (*own, *state.companions))
    minors = coherence._minor_terms
    if minors.isdisjoint(state.targets) and not swaps_a_minor:
        return None
    if not sexual_content(state.text):
        return None
    state.targets -= minors
    if swaps_a_minor or len(state.targets) < len(state.sources):
        return "minor_in_sexual_text"
    return None


def _low_acceptability(coherence: Coherence, state: PlanState) -> str | None:
    """Applied by the seed reader, target by target (`keep_acceptable`): listed here for its
    place in the order."""
    return None


#: The gates, in the order a seed's mentions meet them.
PIPELINE: tuple[Gate, ...] = (
    Gate("several_terms", ("several_terms",), "two terms, two members, or two axes",
         _several_terms),
    Gate("fixed_form", ("fixed_form",), 'a fixed form ("older than")', _fixed_form),
    Gate("other_use", ("other_use",), 'the identity in a title or an institution',
         _other_use),
    Gate("cue", ("cue",), 'a word of one identity alone ("synagogue", a slur)', _cue),
    Gate("references", ("full_name", "reference", "unknown_person"),
         "a person the swap cannot follow", _references),
    Gate("no_target", ("no_target",), "no other term the text allows", _no_target),
    Gate("minor_in_sexual_text", ("minor_in_sexual_text",), "a minor's term in sexual text",
         _minor_in_sexual_text),
    Gate("low_acceptability", ("low_acceptability",), "every variant scores low",
         _low_acceptability),
)  # fmt: skip

#: Every gate's name, in order.
GATE_NAMES: tuple[str, ...] = tuple(gate.name for gate in PIPELINE)

_DISABLED: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar(
    "textfair_disabled_gates", default=frozenset()
)


@contextlib.contextmanager
def disabled(*names: str) -> Iterator[None]:
    """Run the reading without the gates `names` (what a gate buys and costs is measured
    so, by the substitution benchmark); a name not in `GATE_NAMES` is a ValueError."""
    unknown = set(names) - set(GATE_NAMES)
    if unknown:
        raise ValueError(f"no gate {sorted(unknown)}; the gates are {', '.join(GATE_NAMES)}")
    token = _DISABLED.set(frozenset(names))
    try:
        yield
    finally:
        _DISABLED.reset(token)


def running() -> tuple[Gate, ...]:
    """The gates that run now: `PIPELINE` less those `disabled`."""
    off = _DISABLED.get()
    return tuple(gate for gate in PIPELINE if gate.name not in off) if off else PIPELINE


def off() -> tuple[str, ...]:
    """The gates `disabled` now, in name order (a reading without them is another reading)."""
    return tuple(sorted(_DISABLED.get()))


def runs(name: str) -> bool:
    """Whether the gate `name` runs now (not `disabled`)."""
    return name not in _DISABLED.get()
