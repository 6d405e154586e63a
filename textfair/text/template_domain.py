"""TemplateDomain: templated seeds, as the Domain protocol, audited beside a corpus.

A template is a sentence with one identity slot (``{identity}``, ``{religion:plural}``,
``{identity:name}``, ...; the syntax of `textfair.text.templates`) and, where the person
has a gender, pronoun slots that agree with the term written (``{he}``, ``{his}``,
``{him}``, ``{himself}``; capitalised, ``{He}``). Each template gives one seed per category
it suits and per axis of that category (a term is compared with the terms of its own axis,
as on a corpus): the seed is the template written with one of the axis's terms, and it can
be rewritten to every other. So every term of every category is written into every
template that suits it, whatever a corpus names, and discovery (rule sets, paired
differences, causal tests over a placebo edit) runs on these seeds as on a corpus's.

Which templates suit which category depends on how its terms name a person:

* descriptors (an adjective or noun: religion, age, nationality): ``{c}`` before a noun,
  ``{c:noun}``, ``{c:plural}``; no pronoun slot (the person's gender is not given);
* first names (names lists): ``{c:name}``, with pronouns of the name's gender; each such
  template gives `NAMES_PER_TEMPLATE` seeds with different names, the same rank of name in
  every group;
* gendered words (the pronouns list): ``{c:noun}`` (man, woman) and ``{c:plural}``, with
  pronouns.

A template's first name is a private person's by construction: no reference check applies.
A template with sexual or violent words is never written with a term that can name a minor
(`textfair.text._minors`: `UNSAFE_FOR_MINORS`, `names_a_minor`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from textfair.core.rules import Rule
from textfair.errors import TextfairError
from textfair.terms import Term, TermList
from textfair.text._context import is_sentence_initial
from textfair.text._forms import Form
from textfair.text._minors import UNSAFE_FOR_MINORS, names_a_minor
from textfair.text._written import template_key
from textfair.text.mentions import Mention
from textfair.text.rewrite import Rewriter
from textfair.text.variants import Swap, Variant

if TYPE_CHECKING:
    from textfair.text.reading_store import ReadingStore

__all__ = [
    "NAMES_PER_TEMPLATE",
    "TemplateDomain",
    "TemplateSeed",
    "category_kind",
    "parse_template",
]

Kind = Literal["descriptor", "name", "gendered"]

#: Seeds a first-name template gives per axis, each with another name of every group.
NAMES_PER_TEMPLATE = 2

#: Neutral words a placebo edit writes before the person (as `TextDomain.placebo` does).
PLACEBO_WORDS = ("tall", "local", "left-handed", "quiet")

_SLOT = re.compile(r"\{(?P<category>\w+)(?::(?P<form>noun|plural|name))?\}")
_PRONOUN = re.compile(r"\{(?P<word>[hH]e|[hH]im|[hH]is|[hH]imself)\}")
_FORMS: dict[str | None, Form] = {
    None: "adjective",
    "noun": "noun",
    "plural": "plural",
    "name": "name",
}
_PRONOUNS = {
    "male": {"he": "he", "him": "him", "his": "his", "himself": "himself"},
    "female": {"he": "she", "him": "her", "his": "her", "himself": "herself"},
}
_GENDERED_NOUNS = {"male": ("man", "men"), "female": ("woman", "women")}
_ALLOWED_FORMS: dict[Kind, frozenset[str]] = {
    "descriptor": frozenset({"adjective", "noun", "plural"}),
    "name": frozenset({"name"}),
    "gendered": frozenset({"noun", "plural"}),
}

_WORD = re.compile(r"[a-z]+")


def category_kind(terms: Sequence[Term]) -> Kind:
    """How a category's terms name a person: first names, gendered words or descriptors."""
    if terms and all(t.names for t in terms):
        return "name"
    if terms and all(t.words and t.gender for t in terms):
        return "gendered"
    return "descriptor"


@dataclass(frozen=True)
class ParsedTemplate:
    """A template read: its text, the identity slot's category (``identity``: any) and
    form, whether it has pronoun slots, and whether it is sexual or violent."""

    text: str
    category: str
    form: Form
    pronouns: bool
    unsafe_for_minors: bool


def parse_template(text: str) -> ParsedTemplate:
    """Read a template's one identity slot and its pronoun slots; a template with none or
    several identity slots is a one-line TextfairError."""
    without_pronouns = _PRONOUN.sub("", text)
    slots = list(_SLOT.finditer(without_pronouns))
    if len(slots) != 1:
        raise TextfairError(
            f"template {text[:80]!r} has {len(slots)} identity slots; expected one, written "
            "{identity}, {identity:noun}, {identity:plural}, {identity:name} or a category's "
            "name in place of identity ({religion}), with pronoun slots {he}, {his}, {him}"
        )
    slot = slots[0]
    words = set(_WORD.findall(without_pronouns.lower()))
    return ParsedTemplate(
        text,
        slot.group("category"),
        _FORMS[slot.group("form")],
        bool(_PRONOUN.search(text)),
        bool(words & UNSAFE_FOR_MINORS),
    )


@dataclass(frozen=True)
class TemplateSeed:
    """One seed: template `template` for `category`, written with `own` and rewritable to
    every term of `terms` (one axis of the category); `name_rank`: which name of a name
    group it writes."""

    template: int
    category: str
    terms: tuple[Term, ...]
    own: Term
    name_rank: int


class TemplateDomain:
    """Templated seeds of a term list's categories (see the module's docstring).

    Parameters
    ----------
    templates
        Slot templates (`textfair.text.template_suites.suite` gives the built-in ones).
    terms
        The term list.
    categories
        The categories audited (None: all).
    kinds
        Per template, the one kind of category it was written for ("descriptor", "name",
        "gendered"; `template_suites.suite_kinds`), or None: any kind its slot suits.
    """

    def __init__(
        self,
        templates: Sequence[str],
        terms: TermList,
        categories: Sequence[str] | None = None,
        kinds: Sequence[str | None] | None = None,
    ) -> None:
        self.term_list = terms
        self._categories = terms.category_names(list(categories) if categories else None)
        self.templates = [parse_template(t) for t in templates]
        if not self.templates:
            raise TextfairError("no template was given; give at least one, or --templates none")
        unknown = {
            t.category
            for t in self.templates
            if t.category != "identity" and t.category not in terms.categories
        }
        if unknown:
            raise TextfairError(
                f"template slot {{{sorted(unknown)[0]}}} names no category of term list "
                f"{terms.name!r}; use {{identity}} or one of: {', '.join(terms.categories)}"
            )
        self.kinds = {c: category_kind(terms.categories[c]) for c in self._categories}
        self._written_for = list(kinds) if kinds is not None else [None] * len(self.templates)
        self.minors_left_out = dict.fromkeys(self._categories, 0)
        """Per category, (seed, term) pairs not written: a minor in sexual or violent text."""
        self.seeds: list[TemplateSeed] = []
        for k, template in enumerate(self.templates):
            for c in self._categories:
                self._add_seeds(k, template, c)
        self._seed_category = np.array([s.category for s in self.seeds], dtype=object)
        self._written: dict[tuple[int, str, bool], str] = {}
        # The key the written texts are stored under in a cache file (`take_stored`), and
        # how many were found there.
        self._stored_key = template_key(templates, self._written_for, terms, self._categories)
        self._stored_known = 0

    def take_stored(self, store: ReadingStore) -> str:
        """Take the texts an earlier audit wrote for these templates from `store`'s cache
        file (`write` reads them as written); a line on a damaged row, else ""."""
        texts, note = store.find_template_texts(self._stored_key, len(self.seeds))
        texts.update(self._written)  # this process's dict is shared: every audit adds to it
        self._written = texts
        self._stored_known = len(self._written)
        return note

    def keep_stored(self, store: ReadingStore) -> str:
        """Keep the texts written in `store`'s cache file when there are new ones, for the
        next audit; a line when the file could not take them, else ""."""
        note = store.keep_template_texts(self._stored_key, self._written, self._stored_known)
        self._stored_known = len(self._written)
        return note

    def _add_seeds(self, k: int, template: ParsedTemplate, category: str) -> None:
        kind = self.kinds[category]
        if template.category not in ("identity", category):
            return
        if self._written_for[k] not in (None, kind):
            return
        if template.form not in _ALLOWED_FORMS[kind] or (
            template.pronouns and kind == "descriptor"
        ):
            return
        for axis_terms in _axes(self.term_list.categories[category]):
            terms = axis_terms
            if template.unsafe_for_minors:
                terms = tuple(t for t in axis_terms if not names_a_minor(t))
                self.minors_left_out[category] += len(axis_terms) - len(terms)
            if len(terms) < 2:
                continue
            for r in range(NAMES_PER_TEMPLATE if kind == "name" else 1):
                own = terms[(k + r) % len(terms)]
                self.seeds.append(TemplateSeed(k, category, terms, own, k * NAMES_PER_TEMPLATE + r))

    # --- writing -------------------------------------------------------------------------

    def write(self, index: int, term: Term, placebo: bool = False) -> str:
        """Seed `index`'s template written with `term` (with the placebo edit: its own term
        with a neutral word before it, or another name of its group)."""
        key = (index, term.id, placebo)
        text = self._written.get(key)
        if text is None:
            text = self._written[key] = self._write(self.seeds[index], term, placebo)
        return text

    def _write(self, seed: TemplateSeed, term: Term, placebo: bool) -> str:
        template = self.templates[seed.template]
        gender = term.gender or "male"
        text = _PRONOUN.sub(lambda m: _pronoun(m.group("word"), gender), template.text)
        slot = _SLOT.search(text)
        assert slot is not None  # parse_template found exactly one
        kind = self.kinds[seed.category]
        if placebo and kind != "name":
            word = PLACEBO_WORDS[seed.template % len(PLACEBO_WORDS)]
            if is_sentence_initial(text, slot.start()):
                word = word.capitalize()
            text = f"{text[: slot.start()]}{word} {text[slot.start() :]}"
            slot = _SLOT.search(text)
            assert slot is not None
        initial = is_sentence_initial(text, slot.start())
        if kind == "name":
            names = term.names[: term.write or len(term.names)]
            # The placebo edit: the next name of the same group keeps every identity.
            phrase = names[(seed.name_rank + int(placebo)) % len(names)]
        elif kind == "gendered":
            singular, plural = _GENDERED_NOUNS[gender]
            phrase = plural if template.form == "plural" else singular
            phrase = phrase.capitalize() if initial else phrase
        else:
            written = term.members[seed.template % len(term.members)] if term.members else term
            form = template.form
            tail = ""
            if form == "plural" and written.plurals[:1] == (written.text,):
                # "Chinese are ..." reads as a slip: a plural that is the adjective itself
                # is written "<term> people".
                form, tail = "adjective", " people"
            mention = Mention(
                slot.start(), slot.end(), written, "Slot" if initial else "slot", "slot", form
            )
            text = f"{text[: slot.end()]}{tail}{text[slot.end() :]}"
            return Rewriter(text, [mention]).apply({0: written}, with_edits=False).text
        return f"{text[: slot.start()]}{phrase}{text[slot.end() :]}"

    # --- the Domain protocol -------------------------------------------------------------

    def categories(self) -> list[str]:
        """The identity categories of the audit."""
        return list(self._categories)

    def single_rules(self, category: str) -> list[Rule]:
        """One rule per term of the category."""
        return [Rule(category, term.id) for term in self.term_list.categories[category]]

    @cached_property
    def _term_ids(self) -> list[frozenset[str]]:
        return [frozenset(t.id for t in s.terms) for s in self.seeds]

    @cached_property
    def _terms_by_id(self) -> list[dict[str, Term]]:
        """Per seed, its axis's terms by id (the first of an id), one dict per distinct axis:
        a rewrite looks its term up instead of scanning a 3,000-term axis."""
        shared: dict[tuple[str, ...], dict[str, Term]] = {}
        by_seed = []
        for seed in self.seeds:
            key = tuple(t.id for t in seed.terms)
            if key not in shared:
                shared[key] = {}
                for term in seed.terms:
                    shared[key].setdefault(term.id, term)
            by_seed.append(shared[key])
        return by_seed

    def support_mask(self, rule_set: tuple[Rule, ...]) -> np.ndarray:
        """Seeds of the rule set's one category whose axis holds its term (a template has
        one identity slot: a rule set of two categories has no seed)."""
        if len(rule_set) != 1:
            return np.zeros(len(self.seeds), dtype=bool)
        (rule,) = rule_set
        return np.array(
            [
                s.category == rule.category and rule.value in ids
                for s, ids in zip(self.seeds, self._term_ids, strict=True)
            ],
            dtype=bool,
        )

    def category_mask(self, category: str) -> np.ndarray:
        """Seeds written for the category."""
        return np.asarray(self._seed_category == category, dtype=bool)

    def seeds_for(self, rule_set: tuple[Rule, ...]) -> np.ndarray:
        """Indices of the seeds in `support_mask`."""
        return np.flatnonzero(self.support_mask(rule_set))

    def disjoint(self, first: tuple[Rule, ...], second: tuple[Rule, ...]) -> bool:
        """No seed satisfies both: any different term of a shared category."""
        terms = {rule.category: rule.value for rule in first}
        return any(terms.get(rule.category, rule.value) != rule.value for rule in second)

    def input(self, index: int) -> str:
        """Seed `index` as the model sees it: the template with its own term."""
        seed = self.seeds[index]
        return self.write(index, seed.own)

    @property
    def texts(self) -> list[str]:
        """Every seed as written."""
        return [self.input(i) for i in range(len(self.seeds))]

    def values_of(self, index: int, category: str) -> set[str]:
        """The term seed `index` is written with, in its category."""
        seed = self.seeds[index]
        return {seed.own.id} if seed.category == category else set()

    def rewrite(self, index: int, rule_set: tuple[Rule, ...]) -> Variant | None:
        """Seed `index` written with the rule set's term; None when the rule set is not of
        the seed's category and axis."""
        seed = self.seeds[index]
        if len(rule_set) != 1 or rule_set[0].category != seed.category:
            return None
        target = self._terms_by_id[index].get(rule_set[0].value)
        if target is None:
            return None
        swaps = () if target.id == seed.own.id else (Swap(seed.category, seed.own.id, target.id),)
        return Variant(self.write(index, target), (), swaps=swaps, seed_id=index)

    def rewrite_input(self, index: int, rule_set: tuple[Rule, ...]) -> str | None:
        """`rewrite(index, rule_set).input`, without making a `Variant` (paired rows' call)."""
        seed = self.seeds[index]
        if len(rule_set) != 1 or rule_set[0].category != seed.category:
            return None
        target = self._terms_by_id[index].get(rule_set[0].value)
        return self.write(index, target) if target is not None else None

    remembers_rewrites = True
    """`rewrite` reads `write`'s memo: paired scoring may write the next seeds while a model
    that waits answers (`textfair.discovery.paired_rows`), as for the texts."""
    supports_placebo = True
    """`placebo` writes edits (`Domain.supports_placebo`)."""

    def placebo(self, index: int, categories: Sequence[str]) -> Variant | None:
        """Seed `index` with a neutral word before the person ("a tall Muslim person",
        "this quiet man") or, for a first name, the next name of the same group: an edit at
        the place of the identity swap that keeps every identity. Fixed by the seed, never
        by a run's seed."""
        seed = self.seeds[index]
        if seed.category not in categories:
            return None
        return Variant(self.write(index, seed.own, placebo=True), (), swaps=(), seed_id=index)

    def sample(
        self, rule_set: tuple[Rule, ...], n: int, rng: np.random.Generator, negate: bool = False
    ) -> list[Variant]:
        """TestSGD's Sample(D, R), or Sample(D, not R) with `negate`: seeds drawn with
        replacement among those supporting R, written with R's term, or with another term
        of the seed's axis."""
        seeds = self.seeds_for(rule_set)
        if len(seeds) == 0:
            raise TextfairError(f"no template seed supports {rule_set}")
        picks = rng.choice(seeds, size=n, replace=True)
        if not negate:
            return [v for i in picks if (v := self.rewrite(int(i), rule_set)) is not None]
        others = []
        for i in picks:
            terms = [t for t in self.seeds[int(i)].terms if t.id != rule_set[0].value]
            other = terms[int(rng.integers(len(terms)))]
            variant = self.rewrite(int(i), (Rule(rule_set[0].category, other.id),))
            if variant is not None:
                others.append(variant)
        return others

    # --- what an audit records (`textfair.auditing.report.AuditedDomain`) ----------------

    kind: Literal["text"] = "text"
    """The report's kind."""
    values_exclusive: bool = True
    """Two terms of one category never hold together (`disjoint`): no pairwise check."""
    settings_not_read: tuple[str, ...] = ()
    """Settings report.json does not record for texts: none."""

    def scored_examples(self, examples: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """A finding's examples as they are: a template's fillings are not scored."""
        return [dict(example) for example in examples]

    def seeds_per_category(self) -> dict[str, int]:
        """Per category, the seeds written for it."""
        return {c: int(self.category_mask(c).sum()) for c in self._categories}

    def templates_per_category(self) -> dict[str, int]:
        """Per category, the templates that suit it."""
        return {
            c: len({s.template for s in self.seeds if s.category == c}) for c in self._categories
        }


def _axes(terms: Sequence[Term]) -> list[tuple[Term, ...]]:
    """A category's terms by axis, in list order (terms without an axis: one group)."""
    groups: dict[str | None, list[Term]] = {}
    for term in terms:
        groups.setdefault(term.axis, []).append(term)
    return [tuple(group) for group in groups.values()]


def _pronoun(slot: str, gender: str) -> str:
    word = _PRONOUNS[gender][slot.lower()]
    return word.capitalize() if slot[:1].isupper() else word
