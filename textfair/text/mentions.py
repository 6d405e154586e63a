"""One identity mention: where it is, which term, and how it was written.

`Mention` is the record the matcher returns and every later stage reads (the coherence
plan, the rewriter, the templates, the acceptability score, augmentation); it is apart from
`textfair.text.matcher` so that those stages, and the gates that fix a mention, need not
import the matcher to name it. How a mention's possessive is written (`POSSESSIVE`, the
suffix the matcher's pattern takes in) and read is here too, with the mention it ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textfair.terms import Term
from textfair.text._forms import Form

__all__ = ["POSSESSIVE", "Mention", "read_possessive", "word_mention"]

# Possessive: 's, or a bare apostrophe after a plural in s (a bare apostrophe after anything
# else is a closing quote, handled in `read_possessive`).
POSSESSIVE = r"(?P<poss>['’][sS](?![\w])|['’](?![\w]))?"


@dataclass(frozen=True)
class Mention:
    """One identity mention: where it is, which term, and how it was written.

    What `Matcher.find` and `find_mentions` return; `rewrite` takes mentions and their
    targets.

    Attributes
    ----------
    start, end : int
        The span of the whole mention in the text, including a possessive suffix.
    term : Term
        The term mentioned.
    surface : str
        The written term, without the possessive.
    natural : str
        The list's spelling of the form that matched (the rewriter compares the two to copy
        the writer's capitalisation).
    form : {"adjective", "noun", "plural", "collective", "related", "gendered"}
        The grammatical form the term is used in (``"collective"``: ``"the elderly"``).
    possessive : str
        The possessive suffix (``"'s"``, or ``"'"`` after a plural in s), or ``""``.
    fixed : bool
        Found but never rewritten: a fixed form (``"Roman Catholic"``), a comparative
        (``"older than 11"``) in a list that gives it no axis of its own, a term that is not
        gradable in a gradable context (``"too young"`` is rewritten only to other gradable
        terms, ``"too old"``; most others read wrong: ``"too elderly"``), a place where
        another term forms an idiom (``"a young friend"`` -> ``"an old friend"``), or a part
        of an identity the list does not have (``"Asian American"``). A text holding one is
        left out of that category's variants.
    role : str
        For a related word (``"Judaism"``, form ``"related"``): its role (``"faith"``), by
        which the rewriter finds the target's counterpart.
    member : Term or None
        For a term that is a group of terms (``"High income nationality"``): the member
        written here (``"American"``); None for any other term.

    Examples
    --------
    >>> mention = textfair.find_mentions("Muslims' rights")[0]
    >>> mention.surface, mention.possessive, mention.start, mention.end, mention.form
    ('Muslims', "'", 0, 8, 'plural')
    >>> mention.term_id, mention.category
    ('muslim', 'religion')
    """

    start: int
    end: int
    term: Term
    surface: str
    natural: str
    form: Form
    possessive: str = ""
    # Found but never rewritten: a comparative ("older than 11") in a list that gives it no
    # axis of its own, a term that is not `gradable` in a gradable context ("too young" is
    # rewritten only to other gradable terms, "too old"; most others read wrong: "too
    # elderly", "millennial enough"), or a place where another term forms an idiom ("a young
    # friend" -> "an old friend"). A text holding one is left out of that category's variants.
    fixed: bool = False
    role: str = ""
    """For a related word ("Judaism", form "related"): its role ("faith"), by which the
    rewriter finds the target's counterpart."""
    member: Term | None = None
    """For a group of terms ("High income nationality"): the member written ("American")."""

    @property
    def category(self) -> str:
        """The term's category."""
        return self.term.category

    @property
    def term_id(self) -> str:
        """The term's canonical id."""
        return self.term.id


def word_mention(text: str, match: re.Match[str], term: Term, natural: str) -> Mention:
    """A first name of a name group ("Emily", "Emily's"; the surname after it stays:
    "Emily Smith" -> "Michael Smith") or a gendered word ("he", "mother's"): a noun that
    stands for a person. `match` is the matcher's, its groups ``m`` (the form) and ``poss``
    (`POSSESSIVE`)."""
    start, end = match.span("m")
    surface = text[start:end]
    suffix = text[match.start("poss") : match.end("poss")] if match.group("poss") else None
    possessive = read_possessive(suffix, surface)
    return Mention(
        start=start,
        end=end + len(possessive),
        term=term,
        surface=surface,
        natural=natural,
        form="noun",
        possessive=possessive,
    )


def read_possessive(suffix: str | None, surface: str) -> str:
    """The possessive of a mention written `surface`, from the `suffix` matched after it
    (`POSSESSIVE`), or ""."""
    if not suffix:
        return ""
    if len(suffix) == 1 and not surface.lower().endswith("s"):
        return ""  # "'gay'": a closing quote, not a plural possessive
    return suffix
