"""Whether a text's mentions of a category can be rewritten and the whole text still hang
together, and which terms it may become.

A variant is evidence about a model only if it says what its seed said with another
identity. Rewriting the mentions is not enough when the rest of the text names the old
identity too: "Jews" become "Sikhs" while "synagogue" and "anti-Semite" stay; "Americans"
become "Canadians" beside "America's wealth". So the decision is taken per text and per
category, precision first:

* **left out** (the text takes no part in the category's rows), with the reason counted in
  the report: it names two distinct terms (rewriting them to one would merge two groups:
  ``several_terms``); a mention is fixed ("older than", "too young": ``fixed_form``); the
  mentioned identity is also named where it is not rewritten, in a title, an institution
  or a nation's thing ("Catholic Church", "American politics": ``other_use``); a word that
  goes with one identity of the axis and has no counterpart is there ("Qur'an",
  "synagogue", a hashtag naming the identity, "#AmericaFirst": ``cue``); a person is named
  whom a swap could not follow (a pronoun swap beside a full name, a first name written
  elsewhere: ``full_name``, ``reference``; one person called by a nationality, "a Syrian
  refugee" in the news: ``unknown_person``); or no other term fits (``no_target``), or
  none but terms that can name a minor, in a text with sexual content
  (``minor_in_sexual_text``: no minor is written into sexual text,
  `textfair.text._minors`; a swap of "girl" to "boy" neither);
* otherwise **the terms it may become**: those of the mention's axis (a nationality never
  becomes a race, a gender identity never a sexual orientation), less those the text
  contradicts: a term whose `clashes` are in the text ("atheist" beside "pray"), a gendered
  term beside words of the other gender ("female" where the text says "he"), an adult age
  before a child noun ("old girls"), an attributive-only term in a predicate ("she is
  teenage"), a term without the counterpart of a related word the text holds;
* the **related words** of the mentioned term ("Judaism" for "Jewish", "America" for
  "American") are rewritten with it, to the target's word of the same role.
* a name swap that may make the text false about a real, named person or work (a full
  name, a film's character, a first name not shown to be a private person's) is **flagged**,
  not left out (`CategoryPlan.world`, WORLD: coherent, and a valid test; issue 56).

The plan is here; the rules it asks are apart, each with one job: who a name or a gendered
word refers to (`references`, applied by `reference_check`), what a nationality stands for
(`nationality`), the ages a text states (`ages`).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from textfair.terms import Term, TermList, normalize_form
from textfair.text import _context as context
from textfair.text import _gates as gates
from textfair.text import _grammar_gates as grammar_gates
from textfair.text import _references as references
from textfair.text._ages import (
    AGED_LOOKS,
    HEAD_STAGES,
    age_range,
    before_child,
    fits_life_stages,
    head_noun,
    life_stages,
    young_beside,
)
from textfair.text._gates import PlanState
from textfair.text._left_behind import LeftBehind, Sexes, things_of
from textfair.text._merges import MergeCheck, kin
from textfair.text._minors import names_a_minor
from textfair.text._reference_check import ReferenceCheck, pronoun_genders, word_genders
from textfair.text.matcher import Matcher
from textfair.text.mentions import Mention

__all__ = ["LEFT_OUT_REASONS", "CategoryPlan", "Coherence", "coherence_of", "world_of"]

#: Why a text takes no part in a category's rows: the reasons of the reading's gates, in
#: their order (`textfair.text._gates.PIPELINE`); ``low_acceptability``: every target left
#: scores below the acceptability threshold (`textfair.text._acceptability.keep_acceptable`).
LEFT_OUT_REASONS = tuple(reason for gate in gates.PIPELINE for reason in gate.reasons)


@dataclass(frozen=True)
class CategoryPlan:
    """How a text's mentions of one category may be rewritten."""

    left_out: str | None
    """The reason the text takes no part in the category's rows (LEFT_OUT_REASONS)."""
    targets: frozenset[str] = frozenset()
    """The term ids the text may be rewritten to (its own term not among them)."""
    related: tuple[Mention, ...] = ()
    """Related words of the mentioned term, rewritten with it ("Judaism" -> "Sikhism")."""
    world: str | None = None
    """What the rewrite rests on where it may make the text false about a real, named
    person or work ("full name 'Charles Lindbergh'"): a coherent variant, and a valid test,
    flagged WORLD (issue 56); None for none."""


def world_of(plans: Mapping[str, CategoryPlan], categories: Iterable[str]) -> str | None:
    """What a variant swapping `categories` rests on where it may be false about a real,
    named person or work: its categories' plans' WORLD flags ("; "-joined), or None."""
    flags = [plans[c].world for c in sorted(categories) if c in plans and plans[c].world]
    return "; ".join(dict.fromkeys(f for f in flags if f)) or None


@dataclass(frozen=True)
class _Word:
    start: int
    end: int
    kind: str  # "cue", "related", "clash"
    terms: tuple[Term, ...]
    role: str = ""
    member: Term | None = None  # a related word of a group's member: the member


class Coherence:
    """The per-text decisions for one term list; build once, call `plan` per text."""

    def __init__(self, term_list: TermList) -> None:
        self.term_list = term_list
        by_word: dict[tuple[str, str, str], list[Term]] = {}
        # A group's words are its members', and belong to the group; a related word also
        # names the member it goes with ("Mexico": Mexican, of "Upper middle income").
        self._member_of: dict[tuple[str, str], Term] = {}
        for term in term_list.terms():
            for unit in term.members or (term,):
                for word in unit.cues:
                    by_word.setdefault((word, "cue", ""), []).append(term)
                for role, word in unit.related:
                    by_word.setdefault((word, "related", role), []).append(term)
                    if unit is not term:
                        self._member_of[(word, role)] = unit
                for word in unit.clashes:
                    by_word.setdefault((word, "clash", ""), []).append(term)
        # One trie over every word, matched ignoring case; a word listed with a capital
        # ("Mass", "Church") counts only as listed or in capitals, a lowercase one in any case.
        self._words: dict[str, list[tuple[str, str, tuple[Term, ...], str]]] = {}
        for (word, kind, role), listed in by_word.items():
            self._words.setdefault(normalize_form(word), []).append(
                (kind, role, tuple(listed), word)
            )
        source = r"(?<![\w\-])" + context.trie_pattern(self._words) + r"(?![\w\-])"
        self._pattern = context.CaseBlindPattern(source) if self._words else None
        self._axes: dict[tuple[str, str], frozenset[str]] = {}
        for category, terms in term_list.categories.items():
            for term in terms:
                key = (category, term.axis_name)
                self._axes[key] = self._axes.get(key, frozenset()) | {term.id}
        self._roles = {term.id: dict(term.related) for term in term_list.terms() if term.related}
        for term in term_list.terms():
            # A group has a role where any of its members has one (a rewrite writes a member
            # that has every role the text needs: `rewrite.pick_member`).
            for member in term.members:
                for role, word in member.related:
                    self._roles.setdefault(term.id, {}).setdefault(role, word)
        # Categories with a gendered term (not a pronoun category's own words): only their
        # texts are searched for gendered words.
        self._gendered_category = {
            c: any(t.gender and not t.words for t in terms)
            for c, terms in term_list.categories.items()
        }
        # Categories whose terms all imply one gender ("Black male name", "White male name"):
        # a swap keeps it, so the text's gendered words are neither rewritten nor read.
        self._one_gender = {
            c: len({t.gender for t in terms}) == 1 and terms[0].gender is not None
            for c, terms in term_list.categories.items()
        }
        self._last: tuple[str | None, list[_Word], frozenset[str] | None] = (None, [], None)
        # Whether a swap of names or gendered words rewrites every reference to the same
        # people (`ReferenceCheck`, with matchers of its own), and the gendered words a
        # name's swap rewrites: its bound methods, asked per text and category.
        check = ReferenceCheck(term_list)
        self._references = check.left_out
        self._gendered_words = check.gendered_words
        self._name_genders = check.name_genders
        # Categories of gendered identity terms, no names nor gendered words: there a first
        # name's gender beside a mention rules out a term of the other gender.
        self._named_gender = {
            c: self._gendered_category[c] and not any(t.names or t.words for t in terms)
            for c, terms in term_list.categories.items()
        }
        # Per term, the ages it can describe (None: no life stage), for life-stage cues.
        self._ages = {term.id: age_range(term) for term in term_list.terms()}
        self._aged_category = {
            c: any(self._ages[t.id] is not None for t in terms)
            for c, terms in term_list.categories.items()
        }
        self._merges = MergeCheck(term_list)
        # Words of the old identity a swap would leave behind, and the sexes (`_left_behind`).
        self._left_behind = LeftBehind(term_list)
        self._sexes = Sexes(term_list, self._axes)
        # Terms that can name a minor, and the categories whose swaps write the counterpart
        # of each gendered word ("girl" -> "boy"): what a sexual text may not be given.
        self._minor_terms = frozenset(t.id for t in term_list.terms() if names_a_minor(t))
        self._swaps_words = {
            c: any(t.words for t in terms) for c, terms in term_list.categories.items()
        }
        # Per category: whether it has an adult-only term, an attributive-only one and one
        # that is not gradable (the terms a child noun, a predicate or a degree rules out).
        self._restricted = {
            c: (
                any(t.adult_only for t in terms),
                any(t.attributive_only for t in terms),
                any(not t.gradable for t in terms),
            )
            for c, terms in term_list.categories.items()
        }

    def _fitting(
        self,
        text: str,
        category: str,
        found: Sequence[Mention],
        sources: dict[str, Term],
        targets: set[str],
    ) -> set[str]:
        """The `targets` the rest of the text allows as references to the same people: no
        term of no binary gender where the text says "he" or "she" ("a nonbinary person ...
        him"), and no age that a life stage stated elsewhere rules out ("five old people"
        later "the kids": not "elderly"; see `textfair.text._ages.fits_life_stages`)."""
        if (
            self._gendered_category[category]
            and not references.NONBINARY_TERMS.isdisjoint(targets)
            and pronoun_genders(text)
        ):
            targets = {t for t in targets if t not in references.NONBINARY_TERMS}
        if (
            self._aged_category[category]
            and any(self._ages[s] for s in sources)
            and any(self._ages[t] for t in targets)  # a target of no age fits any stage
        ):
            stages = life_stages(text, [(m.start, m.end) for m in found])
            # The noun a mention modifies is the same person: "young girl" is no "spry
            # girl", "old geezer" no "teenage geezer".
            heads = {head_noun(text, m) for m in found}
            stages += [ages for nouns, ages in HEAD_STAGES if heads & nouns]
            if stages:
                ages = [self._ages[s] for s in sources]
                targets = {t for t in targets if fits_life_stages(self._ages[t], ages, stages)}
        return targets

    def related_word(self, term: Term, role: str) -> str | None:
        """The word `term` has for `role` ("faith" of "muslim": "Islam"), if any."""
        return self._roles.get(term.id, {}).get(role)

    def plan(
        self,
        text: str,
        mentions: Sequence[Mention],
        other_uses: Sequence[Mention] = (),
        several: bool = False,
        private_names: bool = False,
    ) -> dict[str, CategoryPlan]:
        """The plan of every category `mentions` name (mentions of one text, any categories).

        With `several`, a text naming distinct terms of a category is planned too (their
        targets: the axis's other terms, which counterfactuals map injectively); without,
        it is left out (a rule-set rewrite would merge them). With `private_names`, every
        first name is taken for a private person's (a corpus of applicants or customers);
        without, only one the text shows to be (`references.shown_private`)."""
        by_category: dict[str, list[Mention]] = {}
        for mention in mentions:
            by_category.setdefault(mention.category, []).append(mention)
        if not by_category:
            return {}
        words = self._scan(text)
        return {
            category: self._plan(text, category, found, words, other_uses, several, private_names)
            for category, found in by_category.items()
        }

    def _scan(self, text: str) -> list[_Word]:
        """The cue, related and clash words of `text` and the genders its gendered words
        have; remembered for the last text (one text is asked about category by category)."""
        if self._last[0] is text or self._last[0] == text:
            return self._last[1]
        words = []
        for match in self._pattern.finditer(text) if self._pattern else ():
            found = text[match.start() : match.end()]
            for kind, role, terms, listed in self._words[context.normalized_form(found)]:
                if listed != listed.lower() and " ".join(found.split()) not in (
                    listed,
                    listed.upper(),
                ):
                    continue  # "mass" is not "Mass"
                member = self._member_of.get((listed, role)) if kind == "related" else None
                words.append(_Word(match.start(), match.end(), kind, terms, role, member))
        self._last = (text, words, None)
        return words

    def _genders_of(self, text: str) -> frozenset[str]:
        """The genders of the text's gendered words, found once per text when asked."""
        genders = self._last[2]
        if genders is None:
            genders = word_genders(text)
            self._last = (self._last[0], self._last[1], genders)
        return genders

    def _plan(
        self,
        text: str,
        category: str,
        found: Sequence[Mention],
        words: Sequence[_Word],
        other_uses: Sequence[Mention],
        several: bool,
        private_names: bool,
    ) -> CategoryPlan:
        """The plan of `category`, whose mentions in `text` are `found` (see `plan`):
        `words` are the text's cue, related and clash words. The gates of
        `textfair.text._gates.PIPELINE` run in order; the first that stops the mentions
        names the reason the text is left out."""
        sources = {m.term_id: m.term for m in found}
        related: list[tuple[_Word, Term]] = []
        for word in words:
            if word.kind != "related":
                continue
            owners = [t for t in word.terms if t.category == category]
            # "church" goes with Christian, Catholic and Protestant: it belongs to the one
            # the text mentions; with none mentioned it names each (and so several terms).
            mentioned = [t for t in owners if t.id in sources]
            related += [(word, t) for t in (mentioned[:1] or owners)]
        for _, term in related:
            sources.setdefault(term.id, term)
        axis = frozenset().union(*(self._axes[(category, t.axis_name)] for t in sources.values()))
        things = things_of(other_uses, sources)  # "the Jews ... Jewish history": rewritten
        state = PlanState(
            text,
            category,
            found,
            words,
            other_uses,
            several,
            private_names,
            sources,
            related,
            axis,
            [(m.start, m.end) for m in (*found, *things)],
            targets=set(axis - sources.keys()),  # before `no_target` reads the text
            things=things,
        )
        for gate in gates.running():
            reason = gate.check(self, state)
            if reason is not None:
                return CategoryPlan(reason)
        targets, companions = state.targets, state.companions
        mentions = tuple(
            Mention(
                w.start,
                w.end,
                term,
                text[w.start : w.end],
                (
                    dict(w.member.related)[w.role]
                    if w.member is not None
                    else self.related_word(term, w.role) or text[w.start : w.end]
                ),
                "related",
                role=w.role,
                member=w.member,
            )
            for w, term in related
        )
        return CategoryPlan(None, frozenset(targets), mentions + companions + things, state.world)

    def allowed_targets(self, state: PlanState) -> set[str]:
        """The terms of the mentions' axis the rest of `state`'s text allows (the
        ``no_target`` gate): no term the text contradicts, none of another gender than its
        gendered words, no adult age before a child noun, no attributive-only term in a
        predicate, no term that is not gradable after a degree word, none without the
        counterpart of a related word, none a stated life stage rules out (`_fitting`),
        none whose group the text names elsewhere (`_named_elsewhere`)."""
        text, category, found, sources = state.text, state.category, state.found, state.sources
        clashing = {t.id for w in state.words if w.kind == "clash" for t in w.terms}
        roles = {w.role for w, _ in state.related}
        adult_only, attributive_only, ungradable = self._restricted[category]
        # Each reading rules out only the category's terms of one kind: it is read only
        # where the category has such a term (no term of religion is adult-only, say).
        child = adult_only and any(before_child(text, m) for m in found)
        predicate = attributive_only and any(_predicative(text, m) for m in found)
        degree = ungradable and any(
            m.form == "adjective" and grammar_gates.gradable_context(text, m.start, m.end)
            for m in found
        )
        named: frozenset[str] = frozenset()
        if self._named_gender[category]:
            # "My friend John is gay", "Tom Atkins is a queer": never "a lesbian" (a first
            # name of the mention's sentence says, or leaves unknown, whose gender it is).
            for mention in found:
                named |= self._name_genders(text, *context.sentence_of(text, mention.start))
        genders = state.genders | named
        targets = set()
        for term in self.term_list.categories[category]:
            if term.id in sources or term.id not in state.axis or term.id in clashing:
                continue
            if term.gender and not term.words and (genders - {term.gender}):
                continue  # "female" where the text says "he"; "Emily" beside "his"
            if (child and term.adult_only) or (predicate and term.attributive_only):
                continue
            if degree and not term.gradable:
                continue  # "too young" -> "too old", never "too elderly"
            if not all(grammar_gates.fits_a_hashtag(text, m, term) for m in found):
                continue  # "#Conservatives": never "#Left-wing People"
            if term.id in AGED_LOOKS and any(young_beside(text, m) for m in found):
                continue  # "a beautiful young woman": never "a white-haired young woman"
            if any(self.related_word(term, role) is None for role in roles):
                continue
            if any(kin(term, other) for other in state.cued_elsewhere):
                continue  # "Muslims ... the priest": no Catholic, Christian, Protestant
            targets.add(term.id)
        if state.cue_terms is not None:
            targets &= state.cue_terms  # "Christians ... Jesus": Catholic, Protestant
        # "the male population ... the women", "the big-breasted girls": the sexes stay.
        targets = self._sexes.allowed(category, sources.values(), targets, text, state.spans)
        if len(targets) >= len(sources):  # else left out whatever the rest of the text says
            targets = self._fitting(text, category, found, sources, targets)
            targets -= self._named_elsewhere(text, category, found, state.related, targets)
        return targets

    def _named_elsewhere(
        self,
        text: str,
        category: str,
        found: Sequence[Mention],
        related: Sequence[tuple[_Word, Term]],
        targets: set[str],
    ) -> frozenset[str]:
        """The `targets` whose group the text names besides the words rewritten: writing one
        would merge two groups the text keeps distinct ("white" -> "Latino" beside "spanish
        girls"; `MergeCheck`)."""
        spans = [(m.start, m.end) for m in found] + [(w.start, w.end) for w, _ in related]
        sources = frozenset(m.term_id for m in found)
        return self._merges.named(text, category, spans, sources, among=targets)


def _predicative(text: str, mention: Mention) -> bool:
    """ "she is young", "they're old": the term is the predicate."""
    if mention.form != "adjective":
        return False
    before = [context.plain_token(t) for t in context.tokens_before(text, mention.start, count=4)]
    return grammar_gates.is_predicate(before)


# One Coherence per matcher (it holds the list's tables and a one-text memo): made on first
# use, and gone with the matcher.
_OF_MATCHER: weakref.WeakKeyDictionary[Matcher, Coherence] = weakref.WeakKeyDictionary()


def coherence_of(matcher: Matcher) -> Coherence:
    """The per-text coherence decisions for `matcher`'s term list, made once per matcher."""
    found = _OF_MATCHER.get(matcher)
    if found is None:
        found = _OF_MATCHER[matcher] = Coherence(matcher.term_list)
    return found
