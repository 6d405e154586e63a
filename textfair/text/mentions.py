"""One identity mention: where it is, which term, and how it was written.

`Mention` is the record the matcher returns and every later stage reads (the coherence
plan, the rewriter, the templates, the acceptability score, augmentation); it is apart from
`textfair.text.matcher` so that those stages, and the gates that fix a mention, need not
import the matcher to name it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textfair.terms import Term
from textfair.text.forms import Form

__all__ = ["Mention"]


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
