"""Replace identity mentions with other terms and keep the sentence grammatical.

For each mention the rewriter writes the target term in the same grammatical form (adjective,
singular noun, plural noun, "the elderly"-style collective), falling back to "<term> person" /
"<term> people" for terms that have no noun ("a Jew" -> "an old person"); copies the writer's
capitalisation relative to the term's natural spelling ("Muslim" -> "gay" mid-sentence,
"GAY" -> "MUSLIM", "Gay people ..." -> "Muslim people ..."); keeps possessives ("Muslims'" ->
"Jews'"); and fixes the indefinite article before the mention by sound ("a gay man" ->
"an Asian man", "an Asian man" -> "a European man"). Nothing else in the text changes.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from textfair.terms import Term
from textfair.text._articles import indefinite_article
from textfair.text._context import is_sentence_initial
from textfair.text._counterparts import gender_counterparts
from textfair.text._references import name_group
from textfair.text.mentions import Mention

__all__ = ["Edit", "Rewrite", "Rewriter", "apply_case", "case_style", "rewrite"]

Style = Literal["natural", "upper", "lower", "title"]

# The article before a mention, across opening quotes: "an ``Christian film critic``".
_ARTICLE_BEFORE = re.compile(r"(?<![\w'’\-])(an?)(\s+[\"“‘'`(]*)$", re.IGNORECASE)
_NON_LETTERS = re.compile(r"[\W_]+")
_NEXT_WORD = re.compile(r"([ ]+)([A-Za-z]+)\b")


def pick_name(names: tuple[str, ...], text: str, replaced: str) -> str:
    """The name a name group writes in place of `replaced` in `text`: a hash, not the run's
    random generator, so a text is always rewritten the same way (one cached query) and the
    estimand (the mean over the group's names) does not depend on the seed."""
    return names[zlib.crc32(f"{replaced}\0{text}".encode()) % len(names)]


def pick_member(group: Term, text: str, roles: frozenset[str] = frozenset()) -> Term:
    """The member a group of terms writes in `text`: one member for every mention and related
    word of the text (a hash of the text and the group, as `pick_name`), among those having a
    related word of each of `roles` (the text's "Mexico" needs a member with a country)."""
    fitting = tuple(m for m in group.members if roles <= {role for role, _ in m.related})
    members = fitting or group.members
    return members[zlib.crc32(f"{group.id}\0{text}".encode()) % len(members)]


# Slots: one per changed span of every variant; no per-object dict.
@dataclass(frozen=True, slots=True)
class Edit:
    """One change: `old` at [old_start, old_end) became `new` at [new_start, new_end).

    The span map of a `Rewrite`: offsets into the old text and into the new one.

    Attributes
    ----------
    kind : {"term", "article"}
        ``"term"`` is a mention rewritten, ``"article"`` an indefinite article fixed by
        sound.
    old_start, old_end : int
        Where `old` lies in the old text (end excluded).
    new_start, new_end : int
        Where `new` lies in the new text (end excluded).
    old, new : str
        The text replaced, and what replaced it.

    Examples
    --------
    >>> variant = textfair.swap_term("A gay man.", "gay", "asian")
    >>> variant.edits[0]
    Edit(kind='article', old_start=0, old_end=1, new_start=0, new_end=2, old='A', new='An')
    """

    kind: Literal["term", "article"]
    old_start: int
    old_end: int
    new_start: int
    new_end: int
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Rewrite:
    """A rewritten text and the map from old spans to new ones.

    What `rewrite` returns; `Variant` adds what was swapped.

    Attributes
    ----------
    text : str
        The new text.
    edits : tuple of Edit
        Where each change lies in the old text and in this one, in text order (empty
        unless asked for).
    """

    text: str
    edits: tuple[Edit, ...] = ()
    """Where each change lies in the old text and in this one (empty unless asked for)."""


@lru_cache(maxsize=4096)  # a text's mentions are mostly a few forms written alike
def case_style(surface: str, natural: str) -> Style:
    """How `surface` is capitalised compared with the list's `natural` spelling."""
    written, listed = _NON_LETTERS.sub("", surface), _NON_LETTERS.sub("", natural)
    if written == listed:
        return "natural"
    if written == listed.upper() and len(written) >= 2:
        return "upper"
    if written == listed.lower():
        return "lower"
    return "title" if written[:1].isupper() else "natural"


def apply_case(phrase: str, style: Style, sentence_initial: bool) -> str:
    """Write `phrase` (in its natural spelling) in the given case style."""
    if style == "upper":
        return phrase.upper()
    if style == "lower":
        return phrase.lower()
    if style == "title" and not sentence_initial:
        return " ".join(word[:1].upper() + word[1:] for word in phrase.split(" "))
    if sentence_initial or style == "title":
        return phrase[:1].upper() + phrase[1:]
    return phrase


def _target_phrase(mention: Mention, target: Term, text: str) -> str:
    """The target in the mention's grammatical form, in its natural spelling."""
    if mention.form == "gendered":
        # A gendered word rewritten with a first name ("she" with "Emily"): the other
        # gender's word when the new name's gender differs (`role` holds the word's gender).
        word = mention.surface.lower()
        if not target.gender or target.gender == mention.role:
            return mention.surface
        return gender_counterparts().counterpart(word, text, mention.start + len(mention.surface))
    if mention.form == "name":
        # A first name rewritten with a gender swap ("Emily" with "she" -> "he"): a name of
        # the target's gender (`role` holds the name's gender).
        if not target.gender or target.gender == mention.role:
            return mention.surface
        return pick_name(name_group(target.gender).written_names, text, mention.surface.lower())
    if mention.form == "related":
        # A related word ("Judaism") becomes the target's word of the same role ("Sikhism");
        # the plan that allowed the rewrite checked the target has one.
        return dict(target.related)[mention.role]
    if target.names:
        return pick_name(target.written_names, text, mention.surface.lower())
    if target.words:
        word = mention.surface.lower()
        if mention.term.gender == target.gender:
            return word
        end = mention.start + len(mention.surface)
        return gender_counterparts(target.swaps).counterpart(word, text, end)
    term_text = target.text
    if "-" in mention.surface and "-" not in mention.natural and " " in term_text:
        term_text = term_text.replace(" ", "-")  # the writer hyphenated: "African-American"
    if mention.form == "noun":
        return target.singular_noun or f"{term_text} person"
    if mention.form == "plural":
        plural = target.plural_noun
        if plural and mention.possessive and plural == target.text:
            # A plural the same as its adjective takes no possessive of its own:
            # "Americans' fever" -> "Japanese people's fever", not "Japanese's" (issue 56).
            plural = None
        return plural or f"{term_text} people"
    if mention.form == "collective":
        if target.nominal:
            return term_text
        return target.plural_noun or f"{term_text} people"
    return term_text


def _with_possessive(phrase: str, possessive: str, upper: bool) -> str:
    if not possessive:
        return phrase
    apostrophe, s = possessive[0], "S" if upper else "s"
    if len(possessive) == 1 and phrase[-1:] in "sS":
        return phrase + apostrophe  # plural possessive: "Jews'"
    return phrase + apostrophe + s


def _article_case(article: str, old: str, shouting: bool) -> str:
    """Copy the old article's case; a lone "A" is upper case only in an all-caps mention."""
    if old.isupper() and (len(old) == 2 or shouting):
        return article.upper()
    return article.capitalize() if old[0].isupper() else article


class Rewriter:
    """Rewrites one text for many target assignments, reusing what does not change.

    Build it once per text with the text's mentions; `render` and `apply` are then cheap,
    which is what makes enumerating every counterfactual of a corpus fast.
    """

    def __init__(self, text: str, mentions: Iterable[Mention]) -> None:
        self.text = text
        self.mentions = sorted(mentions, key=lambda m: m.start)
        self.by_category: dict[str, list[int]] = {}
        """The indices of each category's mentions: a rewrite of one category reads these,
        not every mention (a spam comment has hundreds)."""
        for index, mention in enumerate(self.mentions):
            self.by_category.setdefault(mention.category, []).append(index)
        # Capitalise a replacement at a sentence start only where the writer did.
        self._initial = [
            m.surface[:1].isupper() and is_sentence_initial(text, m.start) for m in self.mentions
        ]
        self._styles = [self._style(m) for m in self.mentions]
        self._articles = [
            _ARTICLE_BEFORE.search(text, max(0, m.start - 12), m.start) for m in self.mentions
        ]
        # What a rendering reads of a mention besides its place: mentions that look alike
        # ("gay" three times, "JEW" six hundred times in a spam comment) share one number,
        # and one rendering per target. A gendered word's rendering reads its place ("her"
        # -> "his" or "him"), so it has a number of its own.
        looks: dict[tuple, int] = {}
        self._look = [
            looks.setdefault(
                (m.term_id, m.form, m.surface, m.natural, m.role, m.possessive, style, initial)
                if m.form != "gendered"
                else (index,),
                len(looks),
            )
            for index, (m, style, initial) in enumerate(
                zip(self.mentions, self._styles, self._initial, strict=True)
            )
        ]
        # Renderings by (look, target id); a target that is a gendered word reads the place
        # of every mention, so those are kept by (mention index, target id).
        self._by_look: dict[tuple[int, str], tuple[str, str]] = {}
        self._by_place: dict[tuple[int, str], tuple[str, str]] = {}

    def _style(self, mention: Mention) -> Style:
        """The mention's case style; an acronym ("LGBT") looks the same in any case, so a
        writer shouting around it ("AN LGBT GROUP") is read from the next word."""
        style = case_style(mention.surface, mention.natural)
        if style == "natural" and len(mention.natural) > 1 and mention.natural.isupper():
            following = _NEXT_WORD.match(self.text, mention.end)
            if following and len(following.group(2)) > 1 and following.group(2).isupper():
                return "upper"
        return style

    def render(self, index: int, target: Term) -> tuple[str, str]:
        """What replaces mention `index` (possessive included) when it becomes `target`,
        and the indefinite article that sound requires before it."""
        memo, key = self._memo(index, target)
        found = memo.get(key)
        if found is None:
            mention, style = self.mentions[index], self._styles[index]
            if target.members:  # a group writes one member for the whole text
                target = pick_member(target, self.text, self._roles(target.category))
            natural = _target_phrase(mention, target, self.text)
            phrase = apply_case(natural, style, self._initial[index])
            if target.article and natural.startswith(target.text):
                article = target.article
            else:
                article = indefinite_article(natural)
            found = memo[key] = (
                _with_possessive(phrase, mention.possessive, style == "upper"),
                article,
            )
        return found

    def _roles(self, category: str) -> frozenset[str]:
        """The roles of the related words of `category` this text rewrites ("country")."""
        return frozenset(
            m.role for m in self.mentions if m.form == "related" and m.category == category
        )

    def _memo(
        self, index: int, target: Term
    ) -> tuple[dict[tuple[int, str], tuple[str, str]], tuple[int, str]]:
        """Where the rendering of mention `index` as `target` is remembered, and its key."""
        if target.words:
            return self._by_place, (index, target.id)
        return self._by_look, (self._look[index], target.id)

    def apply(self, targets: dict[int, Term], with_edits: bool = True) -> Rewrite:
        """Replace mention i with targets[i] for every i given; other mentions stay."""
        # Called once per variant: what the loop reads is bound locally, and a rendering
        # already made is read from the memo without a call to `render`.
        text, mentions, articles, looks, by_look = (
            self.text,
            self.mentions,
            self._articles,
            self._look,
            self._by_look,
        )
        pieces: list[str] = []
        edits: list[Edit] = []
        cursor = 0
        length = 0
        for index in sorted(targets):
            target = targets[index]
            # Most renderings are shared by look (`_memo`): read here without a call.
            known = None if target.words else by_look.get((looks[index], target.id))
            new_term, sound_article = known or self.render(index, target)
            mention, article = mentions[index], articles[index]
            if article is not None and article.start(1) >= cursor:
                old_article = article.group(1)
                new_article = _article_case(
                    sound_article, old_article, self._styles[index] == "upper"
                )
                if new_article != old_article:
                    pieces.append(text[cursor : article.start(1)])
                    length += article.start(1) - cursor
                    pieces.append(new_article)
                    if with_edits:
                        edits.append(
                            Edit(
                                "article",
                                article.start(1),
                                article.end(1),
                                length,
                                length + len(new_article),
                                old_article,
                                new_article,
                            )
                        )
                    length += len(new_article)
                    cursor = article.end(1)
            pieces.append(text[cursor : mention.start])
            length += mention.start - cursor
            pieces.append(new_term)
            if with_edits:
                edits.append(
                    Edit(
                        "term",
                        mention.start,
                        mention.end,
                        length,
                        length + len(new_term),
                        text[mention.start : mention.end],
                        new_term,
                    )
                )
            length += len(new_term)
            cursor = mention.end
        pieces.append(text[cursor:])
        return Rewrite("".join(pieces), tuple(edits))


def rewrite(text: str, replacements: Iterable[tuple[Mention, Term]]) -> Rewrite:
    """Replace each mention with its target term, keeping the text grammatical.

    The target is written in the mention's grammatical form (adjective, singular noun,
    plural noun, ``"the elderly"``-style collective), falling back to ``"<term> person"`` /
    ``"<term> people"`` for terms that have no noun (``"a Jew"`` -> ``"an old person"``).
    The writer's capitalisation is copied relative to the term's natural spelling
    (``"Muslim"`` -> ``"gay"`` mid-sentence, ``"GAY"`` -> ``"MUSLIM"``, ``"Gay people
    ..."`` -> ``"Muslim people ..."``); possessives are kept (``"Muslims'"`` ->
    ``"Jews'"``); the indefinite article before the mention is fixed by sound (``"a gay
    man"`` -> ``"an Asian man"``). Nothing else in the text changes.

    Parameters
    ----------
    text
        The text the mentions were found in.
    replacements
        (mention, target term) pairs; mentions not given stay as they are.

    Returns
    -------
    Rewrite
        The new text and the span map (term edits, plus any article changed by sound).

    Examples
    --------
    >>> mention = textfair.find_mentions("A gay man.")[0]
    >>> asian = textfair.load_term_list("dixon2018").term("asian")
    >>> textfair.rewrite("A gay man.", [(mention, asian)]).text
    'An Asian man.'
    """
    pairs = list(replacements)
    rewriter = Rewriter(text, [mention for mention, _ in pairs])
    index = {id(mention): i for i, mention in enumerate(rewriter.mentions)}
    return rewriter.apply({index[id(mention)]: target for mention, target in pairs})
