"""Seeds per category in words, the same on every surface (report.md, the page, the notes):
how many seeds name a category, the share that takes part in its rows (its recall), and why
the others were left out, each reason in plain words.

The reasons are `textfair.text._coherence.LEFT_OUT_REASONS` (and any a newer writer added:
report.json's ``data.seeds_left_out`` is read as it is, so an unknown reason is shown with
its name's words rather than dropped)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LEFT_OUT_WORDS", "SEEDS_INTRO", "SeedRow", "agree", "reason_words", "seed_rows"]

#: What the seeds-per-category table shows, in one sentence (report.md and the page).
SEEDS_INTRO = (
    "A seed takes part in a category's rows only where every mention can be rewritten with "
    "the whole text still coherent, to a term whose variant scores at --min-acceptability; "
    "the others are left out, by reason. Can be rewritten: the seeds that take part, and "
    "their share of the seeds naming the category (its recall)."
)

#: Why a seed that mentions a category takes no part in its rows, as a verb phrase after a
#: count ("25 name two of its terms").
LEFT_OUT_WORDS = {
    "several_terms": "name two of its terms",
    "fixed_form": 'use a fixed form ("older than")',
    "other_use": 'name it in a title or an institution ("Catholic Church")',
    "cue": 'hold a word of one identity alone ("synagogue")',
    "no_target": "have no other term that fits",
    # Issue 42's reference rules (text.coherence): a person named or referred to again.
    # Issue 56: only a gendered word's swap is stopped by a full name; a first name's swap
    # that renames a real person is written, flagged WORLD and counted apart.
    "full_name": 'name a real person in full ("Bill Nighy ... her"), whose pronouns a swap '
    "would contradict",
    "reference": 'refer to the person again where the swap cannot follow ("Joyce ... he")',
    # Issue 44: one person called by a nationality was someone in the news as often as not.
    "unknown_person": "call one person by a nationality, with nothing that shows a private "
    'person ("a Syrian refugee attacks"; "my Syrian neighbour" takes part): someone in the '
    "news as often as not",
    # Issue 56: no term that can name a minor is written into sexual text.
    "minor_in_sexual_text": "have sexual content, where no term that can name a minor is "
    'written ("teenage", "girl")',
    "minor_in_sexual_or_violent_text": "term and template pairs with sexual or violent words, "
    "never written with a term that can name a minor",
    "low_acceptability": "have no variant a strict reader would likely accept "
    "(all score below --min-acceptability)",
}


def reason_words(reason: str) -> str:
    """A reason in plain words (a reason this version does not know: its name's words)."""
    return LEFT_OUT_WORDS.get(reason, reason.replace("_", " "))


@dataclass(frozen=True)
class SeedRow:
    """One category's seeds: how many name it, how many take part (can be rewritten) and
    their share (None: not recorded), and the counts left out by reason, in plain words,
    largest first."""

    category: str
    mentioning: int
    taking_part: float | None
    left_out: tuple[tuple[int, str], ...]
    rewritable: int | None = None
    world: int = 0
    """Of those taking part, the seeds whose rewrites rest on a real, named person or work
    (WORLD, issue 56: written, flagged, counted apart)."""

    def rewritable_words(self) -> str:
        """ "112 (66%)": the seeds that take part, and their share of those naming it, as
        report.md and the page print them (the count the verdict says "can be
        rewritten"), with those flagged WORLD ("112 (66%), of which 12 rest on a real named
        person or work (WORLD)"); "" where neither was recorded."""
        share = "" if self.taking_part is None else f"{100 * self.taking_part:.0f}%"
        if self.rewritable is None:
            return share
        said = f"{self.rewritable} ({share})" if share else str(self.rewritable)
        if self.world:
            said += f", of which {self.world} rest on a real named person or work (WORLD)"
        return said

    def reasons(self) -> str:
        """ "25 name two of its terms; 21 hold a word of one identity alone (...)"; "none"."""
        return "; ".join(f"{count} {agree(count, words)}" for count, words in self.left_out) or (
            "none"
        )


def agree(count: int, words: str) -> str:
    """A reason's words after its count, in number: the phrases are written for many ("25
    name two of its terms"); one seed "names" them (issue 57: "1 name ...; 1 have ...")."""
    if count != 1:
        return words
    first, _, rest = words.partition(" ")
    if first == "term":  # "term and template pairs with ...": a noun phrase, not a verb
        return words.replace(" pairs ", " pair ", 1)
    verb = {"have": "has"}.get(first, first + "s")
    return f"{verb} {rest}" if rest else verb


def seed_rows(data: dict[str, Any]) -> list[SeedRow]:
    """The rows of report.json's ``data`` per category (empty for a report without them)."""
    left_out = data.get("seeds_left_out") or {}
    share = data.get("seeds_taking_part") or {}
    rewritable = data.get("seeds_rewritable") or {}
    world = data.get("seeds_world") or {}
    rows = []
    for category, count in (data.get("seeds_mentioning") or {}).items():
        reasons = sorted(
            ((int(n), reason_words(r)) for r, n in (left_out.get(category) or {}).items() if n),
            key=lambda item: -item[0],
        )
        taking = int(rewritable[category]) if category in rewritable else None
        rows.append(
            SeedRow(
                category,
                int(count),
                share.get(category),
                tuple(reasons),
                taking,
                int(world.get(category) or 0),
            )
        )
    return rows
