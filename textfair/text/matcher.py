"""Find identity mentions in text.

All written forms of all terms (terms, aliases, distinct nouns, plurals) are compiled into one
regular expression shaped as a prefix trie, so a text is scanned once whatever the size of the
term list. Matching is case-insensitive on word boundaries; multi-word terms match across
spaces or hyphens ("African-American"); the longest form wins ("African American" over
"African"); possessives ("Muslim's", "Muslims’") are part of the mention.

Context gates then drop what is not an identity mention: anything inside a known collocation
("black and white", "old friend", "Indian Ocean"), surnames and first names ("Jack Black",
"Christian Slater"), and, for terms flagged ``person_context``, every use that does not
modify or stand for people ("old car", "straight line" are dropped; "an old man",
"white people", "he is black", "the elderly" are kept).

Here is the `Matcher`, which applies the gates in one place, with what needs its term list
(the forms, the collocation and idiom checks' words, what follows a term); the gates that
need none are in `name_gates`, `address_gates`, `phrase_gates` and `grammar_gates`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from textfair.terms import Term, TermList, load_term_list, normalize_form
from textfair.text import _address_gates as address_gates
from textfair.text import _context as context
from textfair.text import _grammar_gates as grammar_gates
from textfair.text import _name_gates as name_gates
from textfair.text import _phrase_gates as phrase_gates
from textfair.text._forms import GROUP_NOUNS, FormReader
from textfair.text._grammar_gates import describes_no_person
from textfair.text._idiom_swaps import IdiomSwaps
from textfair.text._name_gates import (
    first_name_at,
    gendered_word_at,
    given_name_at,
    names_a_thing_at,
)
from textfair.text._phrase_gates import in_collocation, without_unlisted_compounds
from textfair.text.mentions import POSSESSIVE, Mention, read_possessive, word_mention

__all__ = ["Matcher", "default_matcher", "find_mentions"]


class Matcher:
    """Finds mentions of a term list's terms in text; build once, call `find` many times.

    All written forms of all terms (terms, aliases, distinct nouns, plurals) are compiled
    into one regular expression shaped as a prefix trie, so a text is scanned once whatever
    the size of the list. Matching is case-insensitive on word boundaries; multi-word terms
    match across spaces or hyphens (``"African-American"``); the longest form wins
    (``"African American"`` over ``"African"``); possessives (``"Muslim's"``,
    ``"Muslims'"``) are part of the mention.

    Context gates then drop what is not an identity mention: anything inside a known
    collocation (``"black and white"``, ``"old friend"``, ``"Indian Ocean"``), surnames and
    first names (``"Jack Black"``, ``"Christian Slater"``), and, for terms flagged
    ``person_context``, every use that does not modify or stand for people (``"old car"``
    and ``"straight line"`` are dropped; ``"an old man"``, ``"white people"``, ``"he is
    black"``, ``"the elderly"`` are kept).

    A matcher remembers the last text it scanned; give each thread its own matcher.

    Parameters
    ----------
    terms
        A `TermList`, or what `load_term_list` reads (a built-in list's name, a file, or
        several joined by commas); ``"dixon2018"`` by default.

    Attributes
    ----------
    term_list : TermList
        The list whose terms it finds.

    Examples
    --------
    >>> matcher = textfair.Matcher("dixon2018")
    >>> [m.surface for m in matcher.find("Jack Black met an old friend and an old man.")]
    ['old']
    """

    def __init__(self, terms: TermList | str = "dixon2018") -> None:
        self.term_list = load_term_list(terms) if isinstance(terms, str) else terms
        self._forms: dict[str, tuple[Term, str, str]] = {}
        # A group's members are found as themselves, each under its own flags, and count as
        # the group: their mentions are given the group's term at the end of a scan.
        self._group_of: dict[str, Term] = {}
        for term in self.term_list.terms():
            for unit in term.members or (term,):
                if unit is not term:
                    self._group_of[unit.id] = term
                for form, role in unit.surface_forms():
                    # The first role listed wins: "Chinese" is a base form before a plural.
                    self._forms.setdefault(normalize_form(form), (unit, role, form))
        self._grammar = FormReader(self._forms)
        # Whether another term would make an idiom of a mention ("a young friend"), asked
        # of every mention kept: the bound method itself, no lookup on the way.
        self._swap_makes_collocation = IdiomSwaps(self._forms).swap_makes_collocation
        trie = context.trie_pattern(self._forms)
        self._last_text: str | None = None
        self._last_mentions: list[Mention] = []
        self._last_other_uses: list[Mention] = []
        self._last_other_by_category: dict[str, list[Mention]] | None = None
        source = r"(?<![\w])(?P<m>" + trie + r")" + POSSESSIVE + r"(?![\w+])"
        # Case-insensitive matching of a large alternation is twice as slow as matching the
        # lowercased text: `CaseBlindPattern` does that wherever the offsets stay the text's.
        self._pattern = context.CaseBlindPattern(source)

    def find(self, text: str, categories: list[str] | None = None) -> list[Mention]:
        """All identity mentions in `text`, left to right, optionally of some categories only.

        The mentions of the last text are remembered, so asking for one category after
        another (as a per-category causal test does) scans the text once.

        Parameters
        ----------
        text
            The text to scan.
        categories
            Category names; None or empty (default): every category.

        Returns
        -------
        list of Mention
            The mentions, in the order they occur, fixed ones included.

        Raises
        ------
        TextfairError
            A category the term list does not have.

        Examples
        --------
        >>> matcher = textfair.Matcher()
        >>> [m.term_id for m in matcher.find("Muslims and old Jews", ["religion"])]
        ['muslim', 'jewish']
        """
        self._scan(text)
        if not categories:
            return list(self._last_mentions)
        wanted = set(self.term_list.category_names(categories))
        if not self._last_mentions:
            return []  # most texts: checked categories, nothing to filter
        return [m for m in self._last_mentions if m.category in wanted]

    def other_uses(self, text: str, categories: list[str] | None = None) -> list[Mention]:
        """Where `text` names an identity of a proper term in a way that is not rewritten.

        A title or an institution (``"Catholic Church"``, ``"Jew Watch"``), a nation's thing
        (``"American politics"``), an idiom (``"American dream"``). Rewriting the text's
        other mentions of that category would leave these naming the old identity.
        (Personal names, ``"Christian Bale"``, and lowercase terms' other senses, ``"old
        car"``, are not listed: they name no identity.)

        Parameters
        ----------
        text
            The text to scan (remembered, as for `find`).
        categories
            Category names; None or empty (default): every category. Names are not checked
            against the list.

        Returns
        -------
        list of Mention
            The other uses, as fixed mentions, category by category in the order given
            (in text order for all categories).

        Examples
        --------
        >>> uses = textfair.Matcher().other_uses("The Catholic Church and the American dream.")
        >>> [(use.surface, use.category) for use in uses]
        [('Catholic', 'religion'), ('American', 'race')]
        """
        self._scan(text)
        if not categories:
            return list(self._last_other_uses)
        if self._last_other_by_category is None:  # grouped once per text, when first asked
            grouped: dict[str, list[Mention]] = {}
            for use in self._last_other_uses:
                grouped.setdefault(use.category, []).append(use)
            self._last_other_by_category = grouped
        by_category = self._last_other_by_category
        return [
            use for category in dict.fromkeys(categories) for use in by_category.get(category, ())
        ]

    def _form_of(self, written: str) -> tuple[Term, str, str]:
        """The (term, role, natural form) of a matched form as written."""
        return self._forms[context.normalized_form(written)]

    def _scan(self, text: str) -> None:
        if self._last_text is not text and self._last_text != text:
            self._last_other_uses = []
            self._last_other_by_category = None
            self._last_mentions = self._find_all(text)
            if self._group_of:
                self._last_mentions = self._as_groups(self._last_mentions)
                self._last_other_uses = self._as_groups(self._last_other_uses)
            self._last_text = text

    def _as_groups(self, mentions: list[Mention]) -> list[Mention]:
        """Mentions of a group's members as mentions of the group, each naming its member."""
        return [
            replace(m, term=group, member=m.term)
            if (group := self._group_of.get(m.term.id)) is not None
            else m
            for m in mentions
        ]

    def _other_use(
        self, text: str, match: re.Match[str], term: Term, natural: str, thing: bool = False
    ) -> None:
        if term.text[:1].isupper():
            start, end = match.span("m")
            role = "thing" if thing else ""
            self._last_other_uses.append(
                Mention(
                    start, end, term, text[start:end], natural, "adjective", fixed=True, role=role
                )
            )

    def _find_all(self, text: str) -> list[Mention]:
        candidates = []
        lower = context.lower_in_place(text)  # the collocation check reads it too
        for match in self._pattern.finditer(text):
            term, role, natural = self._form_of(match.group("m"))
            candidates.append((match, term, role, natural))
        if not candidates:
            return []
        mentions = []
        for match, term, role, natural in candidates:
            start, end = match.span("m")
            if term.names:
                if first_name_at(text, start, self._forms) and not names_a_thing_at(
                    text, start, end
                ):
                    mentions.append(word_mention(text, match, term, natural))
                continue  # "Emily" is a name written with a capital; "emily" is not
            if term.words:
                if (
                    gendered_word_at(text, start, end)
                    and not phrase_gates.in_fixed_phrase(text, start, end)
                    and not phrase_gates.interjection(text, start, end)
                ):
                    mentions.append(word_mention(text, match, term, natural))
                continue  # "he", "her", "mother": every use stands for a person
            if (
                in_collocation(text, start, end, self._grammar, lower)
                or phrase_gates.in_fixed_phrase(text, start, end)
                or name_gates.in_quoted_title(text, start, end)
                or phrase_gates.in_article_title(text, start, end)
                or phrase_gates.where_a_place_goes(text, start, end)
            ):
                self._other_use(text, match, term, natural)
                continue
            # A word written in lowercase follows no honorific, is no part of a name and
            # heads no title or capitals run: those gates all read a capital, so they are
            # asked only of a word that starts with one (a third of the bundled comments'
            # candidates do not).
            capital = not text[start].islower()
            if (capital and name_gates.after_honorific(text, start)) or (
                term.given_name and given_name_at(text, start, end, term)
            ):
                continue  # "Mr Christian", "Christian G. Fritz": a person's name
            name = (
                name_gates.name_kind(text, start, end, term, self.is_identity_word)
                if capital
                else ""
            )
            if name == "person" or (
                capital
                and name_gates.capitalised_mid_sentence(
                    text, start, end, term, self.is_identity_word
                )
            ):
                # "Christian Bale", "Jack Black": a person; "Young Guy", "Gay-man", "the
                # Old West": a lowercase term capitalised inside a sentence starts a name.
                continue
            if (
                name
                or address_gates.in_url(text, start)
                or address_gates.in_username(text, start)
                or (
                    capital
                    and (
                        name_gates.in_title(text, start, end, self.is_identity_word)
                        or name_gates.in_capitals_run(text, start, end)
                    )
                )
            ):
                self._other_use(text, match, term, natural)
                continue
            form = self._grammar.form(text, start, end, term, role)
            if form is None or (
                form in ("adjective", "noun")
                and role == "base"
                and not term.person_context
                and self._modifies_a_thing(text, end)
            ):
                # "Christian dogma", "gay jokes", "Holy Sikh shrines", "the 1984 Sikh riot":
                # the word describes a thing, not people (a term that needs people around it,
                # person_context, was checked by its form already). Such a word is marked
                # ("thing"): a swap may rewrite it with the mentions (`_coherence`).
                self._other_use(text, match, term, natural, thing=form is not None)
                continue
            if describes_no_person(text, start, end, term, form):
                self._other_use(text, match, term, natural)
                continue
            if phrase_gates.in_compound(text, start) and role != "plural":
                # "half-Chinese", "anti-Muslim" modify; a written plural stays one:
                # "non-Muslims shouldn't" -> "non-Buddhists shouldn't", not "non-Buddhist".
                form = "adjective"
            if term.person_context and phrase_gates.heads_a_compound(text, end, term):
                self._other_use(text, match, term, natural)
                continue  # "black-clad", "white-haired", "a Canadian-German co-production"
            # The match may be on the lowercased text: read what was written from the text.
            surface = text[start:end]
            suffix = text[match.start("poss") : match.end("poss")] if match.group("poss") else None
            possessive = read_possessive(suffix, surface)
            mentions.append(
                Mention(
                    start=start,
                    end=end + len(possessive),
                    term=term,
                    surface=surface,
                    natural=natural,
                    form=form,
                    possessive=possessive,
                    fixed=(context.normalized_form(surface) in term.fixed_ids)
                    or (
                        term.comparative
                        and not term.axis  # a list with axes keeps comparatives on their own
                    )
                    or (
                        form == "adjective"
                        and not term.gradable
                        and grammar_gates.gradable_context(text, start, end)
                    )
                    or self._swap_makes_collocation(text, start, end, term),
                )
            )
        return without_unlisted_compounds(text, mentions)

    def _modifies_a_thing(self, text: str, end: int) -> bool:
        """The next word is a noun (or an adjective before one) for no person or group:
        "Christian dogma", "a gay scene", "Muslim lands". A verb, a function word, a person
        or group noun or another identity word after the term keeps it a mention."""
        after = context.tokens_after(text, end, count=5)
        if after and context.normalize_token(after[0]) in ("and", "or"):
            # "a gay or even feminist tract": look through the coordination to the noun.
            rest = [t for t in after[1:] if context.normalize_token(t) not in _LINKING_ADVERBS]
            return (
                len(rest) >= 2
                and context.is_content_word(rest[0])
                and not rest[0][:1].isupper()
                and not self.is_identity_word(rest[0])
                and not self._grammar.is_person_word(rest[0])
                and context.is_content_word(rest[1])
                and not self._grammar.is_person_word(rest[1])
                and not context.looks_like_verb(rest[1])
            )
        if not after or not context.is_content_word(after[0]):
            return False
        word = after[0]
        if context.looks_like_verb(word) or self._grammar.is_person_word(word):
            return False
        if _NEGATED_VERB.search(word):
            return False  # "Being Jewish doesn't change that"
        if any(context.is_person_noun(part) for part in word.lower().split("-")[1:]):
            return False  # "a homosexual man-slut"
        if len(after) > 1 and context.is_person_noun(context.normalize_token(after[1])):
            return False  # a compound for people: "Jewish book peddlers"
        if word.lower().endswith("ing") and len(word) > 5:
            return False  # "a female staying silent": a participle, the term a noun
        if self.is_identity_word(word) or context.normalize_token(word) in GROUP_NOUNS:
            return False
        # "a Jewish Nobel laureate": a capitalised word after the term starts a name.
        return not (word[:1].isupper() and not context.is_sentence_initial(text, end + 1))

    def is_identity_word(self, token: str) -> bool:
        """True when `token` is a written form of some term (``"Americans"``, ``"male"``).

        Parameters
        ----------
        token
            One word.

        Returns
        -------
        bool
            Whether it is a form of a term of the list.
        """
        return self._grammar.is_identity_word(token)


# Compiled once: `_modifies_a_thing` asks of most candidates (re.search with a pattern
# string looks it up in re's cache, and its flag, at every call).
_NEGATED_VERB = re.compile(r"n['’]t$", re.IGNORECASE)
_LINKING_ADVERBS = frozenset("even also perhaps maybe possibly just more less".split())


@cache
def default_matcher() -> Matcher:
    """The matcher for the built-in dixon2018 list, built once per process."""
    return Matcher("dixon2018")


def find_mentions(text: str, categories: list[str] | None = None) -> list[Mention]:
    """Identity mentions of the dixon2018 terms in `text`.

    `Matcher.find` of one matcher of the built-in dixon2018 list, built once per process
    (so not for use from several threads at once; give each thread its own `Matcher`).

    Parameters
    ----------
    text
        The text to scan.
    categories
        Category names of dixon2018 (``"gender"``, ``"race"``, ``"religion"``, ``"age"``);
        None (default): all of them.

    Returns
    -------
    list of Mention
        The mentions, left to right.

    Raises
    ------
    TextfairError
        A category dixon2018 does not have.

    Examples
    --------
    >>> [(m.surface, m.term_id) for m in textfair.find_mentions("A gay man met an Asian woman.")]
    [('gay', 'gay'), ('Asian', 'asian')]
    """
    return default_matcher().find(text, categories)
