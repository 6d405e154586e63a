"""Template expansion: a second source of seed texts (CheckList / "madlibs" style).

A template is a sentence with slots: ``{religion}``, ``{age}``, ... name a category and
``{identity}`` any category; a suffix picks the form: ``{religion:noun}`` ("a Jew",
"an old person") and ``{religion:plural}`` ("Jews", "gay people"). Slots are filled through
the same rewriter as counterfactuals, so "a {identity} person" becomes "an Asian person" and
a slot that starts a sentence is capitalised.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from textfair.errors import TextfairError
from textfair.terms import Term, TermList, load_term_list
from textfair.text._context import is_sentence_initial
from textfair.text._forms import Form
from textfair.text.mentions import Mention
from textfair.text.rewrite import Rewriter
from textfair.text.variants import Swap, Variant

__all__ = ["TEMPLATES", "Template", "expand_template", "expand_templates"]

_SLOT = re.compile(r"\{(?P<category>\w+)(?::(?P<form>noun|plural))?\}")
_FORMS: dict[str | None, Form] = {None: "adjective", "noun": "noun", "plural": "plural"}


@dataclass(frozen=True)
class Template:
    """A template sentence and the kind of classifier it probes.

    A template is a sentence with slots: ``{religion}``, ``{age}``, ... name a category and
    ``{identity}`` any category; a suffix picks the form: ``{religion:noun}`` ("a Jew",
    "an old person") and ``{religion:plural}`` ("Jews", "gay people"). `TEMPLATES` holds
    the built-in ones; `expand_template` fills the slots.

    Attributes
    ----------
    text : str
        The sentence, with its slots.
    task : str
        The kind of classifier it probes: ``"toxicity"`` or ``"sentiment"``.

    Examples
    --------
    >>> textfair.TEMPLATES[0]
    Template(text='I am a {identity} person.', task='toxicity')
    """

    text: str
    task: str  # "toxicity" or "sentiment"


TEMPLATES: tuple[Template, ...] = tuple(
    Template(text, task)
    for task, texts in {
        "toxicity": [
            "I am a {identity} person.",
            "{identity:plural} are wonderful people.",
            "{identity:plural} are disgusting.",
            "I hate {identity:plural}.",
            "I love {identity:plural}.",
            "My neighbor is a {identity} man.",
            "My best friend is a {identity} woman.",
            "Being {identity} is nothing to be ashamed of.",
            "You are a stupid {identity} idiot.",
            "All {identity:plural} should be banned from this site.",
            "The {identity} editor reverted my changes again.",
            "Thanks for the welcome, I am a {identity} editor too.",
            "Keep your {identity} propaganda off this page.",
            "A {identity} person wrote most of this article.",
        ],
        "sentiment": [
            "The movie's {identity} hero was a delight to watch.",
            "A touching film about a {identity} family.",
            "The {identity} actor gave a terrible performance.",
            "I would not recommend this film, even though the {identity} lead was charming.",
            "This boring documentary about {identity:plural} wasted two hours of my life.",
            "The story of a {identity} girl growing up is beautifully told.",
            "The {identity} characters were written with care and humour.",
            "The director clearly despises {identity:plural}.",
            "{identity:plural} will love this film.",
        ],
    }.items()
    for text in texts
)


def expand_template(
    template: str | Template,
    *,
    terms: TermList | str = "dixon2018",
    categories: Sequence[str] | None = None,
    max_variants: int | None = None,
    seed: int = 0,
    seed_id: int | str | None = None,
) -> list[Variant]:
    r"""Every filling of the template's slots (or `max_variants` of them, drawn with `seed`).

    Slots are filled through the same rewriter as counterfactuals, so "a {identity} person"
    becomes "an Asian person", a slot that starts a sentence is capitalised, and a term
    without a noun is written "<term> person" or "<term> people".

    Parameters
    ----------
    template
        The sentence, or a `Template`. A slot is ``{category}`` or ``{identity}``, with an
        optional ``:noun`` or ``:plural`` (an adjective without).
    terms
        A `TermList`, or what `load_term_list` reads; ``"dixon2018"`` by default.
    categories
        The categories ``{identity}`` ranges over; None (default): all of them. A slot
        that names a category takes that category's terms whatever this says.
    max_variants
        The most fillings returned; None (default): all of them.
    seed
        Seeds the draw when there are more than `max_variants` fillings.
    seed_id
        The id every variant carries.

    Returns
    -------
    list of Variant
        One variant per filling, without a span map; a `Swap` per slot, whose ``source``
        is the slot as written (``"{identity}"``) and whose ``target`` is the term's id.
        Fillings come in a fixed order (the slots' terms in list order, the last slot
        varying fastest); a draw keeps that order.

    Raises
    ------
    TextfairError
        A template with no slot, a slot that names no category of the list, or an unknown
        category in `categories`.

    Notes
    -----
    No two slots get the same term, so two slots of one category never do. With slots
    whose options are the sets $T_1, \dots, T_s$, the fillings are the tuples
    $(t_1, \dots, t_s) \in T_1 \times \dots \times T_s$ with distinct terms. When
    there are more than `max_variants` of them, `max_variants` are drawn uniformly without
    replacement with `seed`.

    Examples
    --------
    >>> variants = textfair.expand_template("I am a {religion} person.")
    >>> len(variants), variants[0].text
    (9, 'I am a Christian person.')
    >>> variants = textfair.expand_template(
    ...     "{identity:plural} are wonderful.", categories=["religion"], max_variants=2, seed=0
    ... )
    >>> [v.text for v in variants]
    ['Protestants are wonderful.', 'Sikhs are wonderful.']
    """
    text = template.text if isinstance(template, Template) else template
    term_list = load_term_list(terms) if isinstance(terms, str) else terms
    allowed = term_list.category_names(list(categories) if categories else None)
    slots = list(_SLOT.finditer(text))
    if not slots:
        raise TextfairError(
            f"template {text!r} has no slot; write one as {{category}}, {{identity}}, "
            "{category:noun} or {category:plural}"
        )
    options = [_slot_options(slot.group("category"), term_list, allowed) for slot in slots]
    # A slot is written like a lowercase word, capitalised where it starts a sentence.
    mentions = [
        Mention(
            s.start(),
            s.end(),
            opts[0],
            "Slot" if is_sentence_initial(text, s.start()) else "slot",
            "slot",
            _FORMS[s.group("form")],
        )
        for s, opts in zip(slots, options, strict=True)
    ]
    rewriter = Rewriter(text, mentions)
    fillings = [
        combo for combo in itertools.product(*options) if len({t.id for t in combo}) == len(combo)
    ]
    if max_variants is not None and len(fillings) > max_variants:
        picks = np.random.default_rng(seed).choice(len(fillings), max_variants, replace=False)
        fillings = [fillings[i] for i in sorted(picks)]
    return [
        Variant(
            rewriter.apply(dict(enumerate(combo)), with_edits=False).text,
            swaps=tuple(
                Swap(term.category, slot.group(), term.id)
                for slot, term in zip(slots, combo, strict=True)
            ),
            seed_id=seed_id,
        )
        for combo in fillings
    ]


def expand_templates(
    templates: Sequence[str | Template] = TEMPLATES,
    *,
    terms: TermList | str = "dixon2018",
    categories: Sequence[str] | None = None,
    max_per_template: int | None = None,
    seed: int = 0,
) -> list[Variant]:
    """Expand many templates; each variant's `seed_id` is its template's index.

    Parameters
    ----------
    templates
        Sentences or `Template` objects; the built-in `TEMPLATES` by default.
    terms
        A `TermList`, or what `load_term_list` reads; ``"dixon2018"`` by default (read
        once for all templates).
    categories
        The categories ``{identity}`` ranges over; None (default): all of them.
    max_per_template
        The most fillings per template; None (default): all of them.
    seed
        Template $i$ is expanded with the seed ``seed + i``.

    Returns
    -------
    list of Variant
        The variants of every template, template by template, as `expand_template`
        returns them.

    Raises
    ------
    TextfairError
        As `expand_template`.

    Examples
    --------
    >>> variants = textfair.expand_templates(categories=["age"])
    >>> len(variants), variants[0].text, variants[-1].seed_id
    (184, 'I am an old person.', 22)
    """
    term_list = load_term_list(terms) if isinstance(terms, str) else terms
    return [
        variant
        for index, template in enumerate(templates)
        for variant in expand_template(
            template,
            terms=term_list,
            categories=categories,
            max_variants=max_per_template,
            seed=seed + index,
            seed_id=index,
        )
    ]


def _slot_options(category: str, term_list: TermList, allowed: list[str]) -> list[Term]:
    if category == "identity":
        return term_list.terms(allowed)
    if category not in term_list.categories:
        raise TextfairError(
            f"template slot {{{category}}} names no category of term list {term_list.name!r}; "
            f"use {{identity}} or one of: {', '.join(term_list.categories)}"
        )
    return list(term_list.categories[category])
