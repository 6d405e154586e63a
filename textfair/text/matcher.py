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
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import replace
from functools import cache

from textfair.terms import Term, TermList, load_term_list, normalize_form
from textfair.terms.files import PRONOUNS
from textfair.text import context, gates
from textfair.text.forms import GROUP_NOUNS, FormReader
from textfair.text.mentions import Mention

__all__ = ["Matcher", "default_matcher", "find_mentions"]


# Possessive: 's, or a bare apostrophe after a plural in s (a bare apostrophe after anything
# else is a closing quote, handled in `_possessive`).
_POSSESSIVE = r"(?P<poss>['’][sS](?![\w])|['’](?![\w]))?"


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
        trie = context.trie_pattern(self._forms)
        self._last_text: str | None = None
        self._last_mentions: list[Mention] = []
        self._last_other_uses: list[Mention] = []
        self._last_other_by_category: dict[str, list[Mention]] | None = None
        source = r"(?<![\w])(?P<m>" + trie + r")" + _POSSESSIVE + r"(?![\w+])"
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

    def _other_use(self, text: str, match: re.Match, term: Term, natural: str) -> None:
        if term.text[:1].isupper():
            start, end = match.span("m")
            self._last_other_uses.append(
                Mention(start, end, term, text[start:end], natural, "adjective", fixed=True)
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
                if _first_name_at(text, start, self._forms) and not _names_a_thing_at(
                    text, start, end
                ):
                    mentions.append(_word_mention(text, match, term, natural))
                continue  # "Emily" is a name written with a capital; "emily" is not
            if term.words:
                if (
                    _gendered_word_at(text, start, end)
                    and not gates.in_fixed_phrase(text, start, end)
                    and not gates.interjection(text, start, end)
                ):
                    mentions.append(_word_mention(text, match, term, natural))
                continue  # "he", "her", "mother": every use stands for a person
            if (
                self._in_collocation(text, start, end, lower)
                or gates.in_fixed_phrase(text, start, end)
                or gates.in_quoted_title(text, start, end)
            ):
                self._other_use(text, match, term, natural)
                continue
            # A word written in lowercase follows no honorific, is no part of a name and
            # heads no title or capitals run: those gates all read a capital, so they are
            # asked only of a word that starts with one (a third of the bundled comments'
            # candidates do not).
            capital = not text[start].islower()
            if (capital and gates.after_honorific(text, start)) or (
                term.given_name and _given_name_at(text, start, end, term)
            ):
                continue  # "Mr Christian", "Christian G. Fritz": a person's name
            name = gates.name_kind(text, start, end, term, self.is_identity_word) if capital else ""
            if name == "person" or (
                capital
                and gates.capitalised_mid_sentence(text, start, end, term, self.is_identity_word)
            ):
                # "Christian Bale", "Jack Black": a person; "Young Guy", "Gay-man", "the
                # Old West": a lowercase term capitalised inside a sentence starts a name.
                continue
            if (
                name
                or gates.in_url(text, start)
                or gates.in_username(text, start)
                or (
                    capital
                    and (
                        self._in_title(text, start, end) or gates.in_capitals_run(text, start, end)
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
                # person_context, was checked by its form already).
                self._other_use(text, match, term, natural)
                continue
            if form == "adjective" and self._describes_no_person(text, start, end, term):
                self._other_use(text, match, term, natural)
                continue
            if gates.in_compound(text, start) and role != "plural":
                # "half-Chinese", "anti-Muslim" modify; a written plural stays one:
                # "non-Muslims shouldn't" -> "non-Buddhists shouldn't", not "non-Buddhist".
                form = "adjective"
            if term.person_context and gates.heads_a_compound(text, end, term):
                self._other_use(text, match, term, natural)
                continue  # "black-clad", "white-haired", "a Canadian-German co-production"
            # The match may be on the lowercased text: read what was written from the text.
            surface = text[start:end]
            suffix = text[match.start("poss") : match.end("poss")] if match.group("poss") else None
            possessive = _possessive(suffix, surface)
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
                        and gates.gradable_context(text, start, end)
                    )
                    or self._swap_makes_collocation(text, start, end, term),
                )
            )
        return _without_unlisted_compounds(text, mentions)

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

    def _describes_no_person(self, text: str, start: int, end: int, term: Term) -> bool:
        """An adjective that describes no person (issue 42): predicated of a thing ("it isn't
        cute", "that was gay"), a size grading a group or a fan ("a huge fan", "a big happy
        family"), or sympathy ("poor Phyllis", "the poor man")."""
        if gates.predicate_of_thing(text, start, end):
            return True
        if not term.person_context:
            return False
        size = context.normalized_form(text[start:end]) in gates.SIZE_WORDS
        if size and gates.grades_a_thing(text, end):
            return True
        return gates.sympathy_reading(text, start, end)

    def _swap_makes_collocation(self, text: str, start: int, end: int, term: Term) -> bool:
        """Some other term of the category would form a collocation here ("a young friend"
        -> "an old friend", "good young fun" -> "good old fun"): the mention has no
        rewrite that every term can take, so it is never rewritten."""
        by_neighbour = self._idiom_contexts().get(term.category)
        if not by_neighbour:
            return False  # no listed collocation has a term of this category
        # Plain words on each side: cheaper than tokenizing, and enough for a comparison.
        # The next word and the previous one index the collocations: the words after the
        # candidate are read only when one of them is listed (rarely). The words before
        # cost more to read (all of a window's): they are read for the key only where the
        # category has a collocation keyed by its word before (religion has none).
        following = gates.WORDS.search(text, end, end + 40)
        candidates = by_neighbour.get(("after", following.group().lower()), ()) if following else ()
        preceding: list[str] | None = None
        if term.category in self._idioms_keyed_before():
            preceding = _words_before(text, start)
            if preceding:
                candidates += by_neighbour.get(("before", preceding[-1].lower()), ())
        if not candidates:
            return False
        if preceding is None:
            preceding = _words_before(text, start)
        before = [w.lower() for w in preceding]
        after = [w.lower() for w in gates.WORDS.findall(text, end, end + 40)[:3]]
        return any(
            other != term.id
            and tuple(before[len(before) - len(left) :]) == left
            and tuple(after[: len(right)]) == right
            for other, left, right in candidates
        )

    @functools.cache  # noqa: B019 - one matcher per term list, kept for the process
    def _idiom_contexts(self) -> dict[str, dict[tuple[str, str], tuple]]:
        """Per category, the words around a term's form in each collocation, indexed by the
        word next to it: "old friend" gives (old, (), (friend,)) under ("after", "friend")
        for age, so "a young friend" is an idiom away."""
        found: dict[str, dict[tuple[str, str], list]] = {}
        for phrase in context.read_data_words("collocations.txt"):
            words = normalize_form(phrase).split()
            for size in (1, 2, 3):
                for k in range(len(words) - size + 1):
                    form = self._forms.get(" ".join(words[k : k + size]))
                    left, right = tuple(words[:k]), tuple(words[k + size :])
                    if form and (left or right):
                        key = ("after", right[0]) if right else ("before", left[-1])
                        entry = (form[0].id, left, right)
                        found.setdefault(form[0].category, {}).setdefault(key, []).append(entry)
        return {
            c: {key: tuple(dict.fromkeys(v)) for key, v in by_key.items()}
            for c, by_key in found.items()
        }

    @functools.cache  # noqa: B019 - one matcher per term list, kept for the process
    def _idioms_keyed_before(self) -> frozenset[str]:
        """The categories with a collocation indexed by the word before the term's form."""
        return frozenset(
            category
            for category, by_neighbour in self._idiom_contexts().items()
            if any(side == "before" for side, _ in by_neighbour)
        )

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

    def _in_collocation(self, text: str, start: int, end: int, lower: str | None = None) -> bool:
        """Inside a collocation ("black market", "old school"). A coordination of two
        identity words before a person noun is not one: "black and white film" is, "black
        and white audiences" is not. Only a window around the candidate is scanned: a
        collocation that holds it cannot reach further than the longest phrase. `lower`:
        the text lowercased, when that keeps every character's place (scanned instead)."""
        if _in_no_collocation(text[start:end]):
            return False
        reach = context.collocation_reach()
        window_end = min(len(text), end + reach)
        scanned, pattern = (
            (text, context.collocation_regex())
            if lower is None
            else (lower, context.collocation_regex(lowercase=True))
        )
        for match in pattern.finditer(scanned, max(0, start - reach), window_end):
            if not (match.start() <= start and end <= match.end()):
                continue
            if match.end() == window_end < len(text) and context.is_word(text[window_end]):
                continue  # the window cut a word: "(?![\w])" saw a false end
            words = re.split(r"[\s\-]+", text[match.start() : match.end()])
            if self.is_identity_word(words[0]) and self.is_identity_word(words[-1]):
                after = context.tokens_after(text, match.end(), count=1)
                if after and self._grammar.is_person_word(after[0]):
                    continue
            return True
        return False

    def _in_title(self, text: str, start: int, end: int) -> bool:
        """Inside a run of capitalised words with three or more that are not terms:
        a title or a name ("No Country For Old Men", "Wet Hot American Summer")."""
        if not gates.capitalised(text[start:end]):
            return False
        left = gates.CAPITALISED_RUN_BEFORE.search(text, max(0, start - 120), start)
        right = gates.CAPITALISED_RUN_AFTER.match(text, end)
        run_start = left.start() if left else start
        words = [
            word
            for part in (left, right)
            if part
            for word in part.group().split()
            if word[0].isupper()
        ]
        if words and context.is_sentence_initial(text, run_start):
            words = words[1:]  # a sentence's first word is capitalised anyway
        return sum(not self.is_identity_word(w) for w in words) >= 2


@functools.lru_cache(maxsize=4096)  # a corpus writes its few hundred forms again and again
def _in_no_collocation(surface: str) -> bool:
    """A candidate written `surface` lies inside no listed collocation, wherever it is: a
    collocation that holds it has each of its words (ASCII: the pattern's case-blind match
    is then plain lowercase; other text is scanned)."""
    return surface.isascii() and not context.collocation_words().issuperset(
        context.word_runs(surface)
    )


def _words_before(text: str, start: int) -> list[str]:
    """The last three words (letters only) in the 40 characters before `start`."""
    return gates.WORDS.findall(text, max(0, start - 40), start)[-3:]


# Compiled once: `_modifies_a_thing` asks of most candidates (re.search with a pattern
# string looks it up in re's cache, and its flag, at every call).
_NEGATED_VERB = re.compile(r"n['’]t$", re.IGNORECASE)
_LINKING_ADVERBS = frozenset("even also perhaps maybe possibly just more less".split())
_HYPHENATED_IDENTITY_HEADS = frozenset({"american", "canadian"})


def _without_unlisted_compounds(text: str, mentions: list[Mention]) -> list[Mention]:
    """Fix (find, but never rewrite) the parts of an identity the list does not have: "Asian
    American", "Italian Americans", "Iranian-Americans", "North American" (the list has
    "African American" as one term). Rewriting a part says something else ("Middle Eastern
    Middle Eastern", "Italian African Americans")."""
    fixed: set[int] = set()
    for i, (first, second) in enumerate(itertools.pairwise(mentions)):
        gap = text[first.end : second.start]
        if (
            first.category == second.category
            and gap in (" ", "-")
            and not first.possessive
            and second.term_id in _HYPHENATED_IDENTITY_HEADS
        ):
            fixed.update((i, i + 1))
    for i, mention in enumerate(mentions):
        if mention.term_id in _HYPHENATED_IDENTITY_HEADS and mention.start > 0:
            previous = gates.WORDS.findall(text, max(0, mention.start - 30), mention.start)
            gap = text[: mention.start].rstrip(" -")
            if (
                previous
                and previous[-1][:1].isupper()
                and gap.endswith(previous[-1])
                and not context.is_sentence_initial(text, len(gap) - len(previous[-1]))
            ):
                fixed.add(i)
    return [replace(m, fixed=True) if i in fixed else m for i, m in enumerate(mentions)]


_VERSE = re.compile(r"[A-Z][a-z]+\s+\d+\s*:\s*\d")
_PLACE_OR_SAINT = frozenset("st saint virgin mount mt lake fort port san santa".split())


def _first_name_at(text: str, start: int, forms: dict) -> bool:
    """A capitalised first name, not a surname after another first name ("James Taylor")."""
    if not text[start].isupper() or gates.in_url(text, start):
        return False
    if _VERSE.match(text, start):
        return False  # "Daniel 9:24", "John 3:16": a book of the Bible, not a person
    before = context.tokens_before(text, start, count=2)
    if before[-1:] == ["."] and len(before) == 2 and before[0].lower() in ("st", "mt"):
        return False  # "St. Mary of the Visitation"
    if before and before[-1].lower() in _PLACE_OR_SAINT:
        return False  # "Virgin Mary", "Lake Tahoe"
    before = before[-1:]
    if before and before[0][:1].isupper():
        found = forms.get(normalize_form(before[0]))
        if (found and found[0].names) or before[0] in context.first_names():
            return False
    return True


_SINGULAR_VERBS = frozenset(
    "is was has does says said thinks wants seems keeps isn't wasn't doesn't".split()
)


def _given_name_at(text: str, start: int, end: int, term: Term) -> bool:
    """A term that is also a first name used as one: before a middle initial ("Christian G.
    Fritz"), or a bare singular subject with no determiner ("Christian is always bleating":
    the noun needs one, "a Christian is")."""
    if gates.before_initial(text, end):
        return True
    if text[start:end] != term.text or not text[start].isupper():
        return False
    before = context.tokens_before(text, start, count=1)
    if before and (
        context.normalize_token(before[0]) in context.DETERMINERS or context.is_word(before[0])
    ):
        return False
    after = context.tokens_after(text, end, count=1)
    return bool(after) and context.plain_token(after[0]) in _SINGULAR_VERBS


_SURNAME_PREFIXES = frozenset("mc mac o van von de".split())


def _names_a_thing_at(text: str, start: int, end: int) -> bool:
    """A first name that is part of a surname ("mc Donald's"), of a named thing after
    "the" ("the Russell Tribunal", "THE JERRY SPRINGER SHOW"), of a title ("Sabrina the
    Teenage Witch", "the Book of Daniel", in capitals, or in quotes), or of a fixed
    phrase."""
    before = context.tokens_before(text, start, count=1)
    if before and context.normalize_token(before[0]) in _SURNAME_PREFIXES | {"the"}:
        return True
    if _JOINED_AFTER.match(text, end) or (start and text[start - 1] in _JOINED_BEFORE):
        return True  # "Todd-AO", "Dave1185", "Paul|" (a signature link), "User:Paul", "/Paul"
    if gates.in_username(text, start) or _in_short_quote(text, start, end):
        return True  # "User talk:Dan", "'Something about Mary'"
    if _TITLED_NAME.match(text, end):
        return True  # "Sabrina the Teenage Witch", "Alexander the Great": a title
    heading = _NAME_OF.search(text, max(0, start - 40), start)
    if (
        heading
        and heading.group(1) not in context.first_names()
        and not context.is_sentence_initial(text, heading.start(1))
    ):
        return True  # "the Book of Daniel", "Holy Name of Mary College": a title
    return (
        gates.in_capitals_run(text, start, end)
        or gates.in_quoted_title(text, start, end)
        or gates.in_fixed_phrase(text, start, end)
    )


_TITLED_NAME = re.compile(r"[ ]+the[ ]+[A-Z][a-z]")
# A name joined to more: a hyphen or a slash ("Todd-AO", "Gamaliel/Raul654"), digits
# ("Dave1185", "Dave 1185"), a wiki link's bar or brackets ("Paul|", "[[Paul]]"); or after a
# namespace or path ("User:Paul").
_JOINED_AFTER = re.compile(r"[-/]\w|[ _]?\d|\||\]\]")
_JOINED_BEFORE = frozenset("-:/|_[")
# A quotation of at most six words around a name, opening on a capital, with no sentence
# punctuation inside but at its end: a title ("'Something about Mary'", "\"Annie Hall\"",
# the new "Alexander." for a film).
_SHORT_QUOTE = re.compile(r"[\"“‘']([A-Z][^\"“”‘’'.!?;:,\n]{0,60})[.,!?]?[\"”’']")


def _in_short_quote(text: str, start: int, end: int) -> bool:
    """The name is inside a short quoted title (see _SHORT_QUOTE)."""
    for match in _SHORT_QUOTE.finditer(text, max(0, start - 62), min(len(text), end + 62)):
        if match.start(1) <= start and end <= match.end(1):
            after = match.end()
            # A closing mark followed by a letter is an apostrophe inside a word.
            return len(match.group(1).split()) <= 6 and not (
                after < len(text) and text[after].isalpha()
            )
    return False


_NAME_OF = re.compile(r"\b([A-Z][a-z]+)[ ]+of[ ]+$")


def _gendered_word_at(text: str, start: int, end: int) -> bool:
    """A gendered word that stands for a person. A noun capitalised inside a sentence is a
    name or a title ("Stephen King", "the Third Man", "The Lady from Shanghai", "than
    Prince"); pronouns are always words ("His message")."""
    if gates.in_url(text, start):
        return False
    word = text[start:end]
    if word.lower() in PRONOUNS or not word[:1].isupper() or word.isupper():
        return True
    return context.is_sentence_initial(text, start) and not (start > 0 and text[start - 1] == "-")


def _word_mention(text: str, match: re.Match, term: Term, natural: str) -> Mention:
    """A first name of a name group ("Emily", "Emily's"; the surname after it stays:
    "Emily Smith" -> "Michael Smith") or a gendered word ("he", "mother's"): a noun that
    stands for a person."""
    start, end = match.span("m")
    surface = text[start:end]
    suffix = text[match.start("poss") : match.end("poss")] if match.group("poss") else None
    possessive = _possessive(suffix, surface)
    return Mention(
        start=start,
        end=end + len(possessive),
        term=term,
        surface=surface,
        natural=natural,
        form="noun",
        possessive=possessive,
    )


def _possessive(suffix: str | None, surface: str) -> str:
    if not suffix:
        return ""
    if len(suffix) == 1 and not surface.lower().endswith("s"):
        return ""  # "'gay'": a closing quote, not a plural possessive
    return suffix


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
