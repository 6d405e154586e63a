"""Score the matcher and the rewriter against hand-labelled real text.

Two kinds of gold records (JSON lines, see ``tests/data/README.md``):

* **mentions** — a sentence and every occurrence ("candidate") of a written form of a term,
  each labelled ``mention: true/false`` with its category and term. A candidate counts as
  found when a mention the matcher returns covers it ("Catholic" inside "Roman Catholic").
* **variants** — a seed text, a category and a target term, the variant textfair wrote for
  them, and whether a reader accepts it (grammatical, a real identity mention, no two terms
  merged) with the reason when not. The variant is generated again with the current code:
  the label applies only while the text is the same; a variant no longer generated (the seed
  now leaves that category's rows) or generated differently is counted apart, never scored.
* **gender swaps** — a sentence and, written by hand, the sentence with every gendered word
  (he/she, him/her, his/her/hers, man/woman, ...) turned to the other gender. The rewrite is
  the pronoun category's: each mention of the `pronouns` list written as the other term.

The rules are measured here, so every domain is built with ``min_acceptability=0``: the
acceptability score's threshold is measured on its own gold set (``acceptability_fit``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from textfair.core.rules import Rule
from textfair.terms import Term
from textfair.text.domain import TextDomain
from textfair.text.matcher import Matcher
from textfair.text.sentences import split_sentences

__all__ = [
    "LongformScores",
    "MentionScores",
    "SwapScores",
    "VariantScores",
    "score_longform",
    "score_longform_sentences",
    "score_mentions",
    "score_swaps",
    "score_variants",
    "swap_genders",
    "target_for",
]


@dataclass(frozen=True)
class MentionScores:
    """Precision and recall of mention detection over labelled candidates."""

    sentences: int
    candidates: int
    true_positives: int
    false_positives: int
    false_negatives: int

    @property
    def precision(self) -> float:
        found = self.true_positives + self.false_positives
        return self.true_positives / found if found else 1.0

    @property
    def recall(self) -> float:
        labelled = self.true_positives + self.false_negatives
        return self.true_positives / labelled if labelled else 1.0


@dataclass(frozen=True)
class VariantScores:
    """Labelled variants the code still writes word for word, and how many read well."""

    labelled: int
    still_generated: int
    acceptable: int
    no_longer_generated: int
    no_longer_generated_acceptable: int
    generated_differently: int

    @property
    def acceptability(self) -> float:
        return self.acceptable / self.still_generated if self.still_generated else 1.0


def score_mentions(records: Iterable[Mapping], matcher: Matcher) -> MentionScores:
    """Compare the matcher's mentions with the labelled candidates of each record."""
    sentences = candidates = tp = fp = fn = 0
    for record in records:
        sentences += 1
        spans = [(m.start, m.start + len(m.surface)) for m in matcher.find(record["text"])]
        for candidate in record["candidates"]:
            candidates += 1
            found = any(a <= candidate["start"] and candidate["end"] <= b for a, b in spans)
            tp += found and candidate["mention"]
            fp += found and not candidate["mention"]
            fn += (not found) and candidate["mention"]
    return MentionScores(sentences, candidates, tp, fp, fn)


def rewrite_status(
    record: Mapping, terms: str | None = None, min_acceptability: float = 0.0
) -> str:
    """What the current rules do with a labelled (seed, category, target) unit: ``"blocked"``
    (the seed leaves the category's rows or may no longer become the target), ``"changed"``
    (it is written differently now: the label no longer applies) or ``"same"``; the score's
    threshold is `min_acceptability` (0: the rules alone)."""
    terms = terms or record.get("terms") or "dixon2018"
    category, target = record["category"], record["target"]
    domain = TextDomain(
        [record["text"]], terms, [category], min_acceptability=min_acceptability, workers=1
    )
    if target not in domain.targets_for(0, category):
        return "blocked"
    variant = domain.rewrite(0, (Rule(category, target),))
    if variant is None:
        return "blocked"
    return "same" if variant.text == record["variant"] else "changed"


def score_variants(records: Iterable[Mapping], terms: str = "dixon2018") -> VariantScores:
    """Write each labelled (seed, category, target) variant again, as the audit does."""
    labelled = same = acceptable = gone = gone_acceptable = changed = 0
    for record in records:
        labelled += 1
        status = rewrite_status(record, terms)
        if status == "blocked":
            gone += 1
            gone_acceptable += bool(record["acceptable"])
        elif status == "changed":
            changed += 1
        else:
            same += 1
            acceptable += bool(record["acceptable"])
    return VariantScores(labelled, same, acceptable, gone, gone_acceptable, changed)


@dataclass(frozen=True)
class SwapScores:
    """Exact-match accuracy of gender swaps against hand-written rewrites."""

    sentences: int
    correct: int
    misses: tuple[tuple[str, str, str], ...]
    """(text, expected, written) for every sentence rewritten differently."""

    @property
    def accuracy(self) -> float:
        return self.correct / self.sentences if self.sentences else 1.0


def swap_genders(text: str, matcher: Matcher) -> str:
    """`text` with every gendered word of the pronoun category written as the other gender
    (the rewrite a pronoun audit asks for, also for texts holding both genders)."""
    from textfair.text.rewrite import Rewriter

    terms = {term.gender: term for term in matcher.term_list.terms() if term.words}
    mentions = [m for m in matcher.find(text) if m.term.words]
    # Keyed like `terms` (a Term's gender may be None); the pronoun words all have one.
    other: dict[str | None, Term] = {"male": terms["female"], "female": terms["male"]}
    targets = {i: other[m.term.gender] for i, m in enumerate(mentions)}
    return Rewriter(text, mentions).apply(targets, with_edits=False).text


def score_swaps(records: Iterable[Mapping], matcher: Matcher | None = None) -> SwapScores:
    """Rewrite each record's `text` with `swap_genders` and compare with its `expected`."""
    matcher = matcher or Matcher("pronouns")
    correct, misses, total = 0, [], 0
    for record in records:
        total += 1
        written = swap_genders(record["text"], matcher)
        if written == record["expected"]:
            correct += 1
        else:
            misses.append((record["text"], record["expected"], written))
    return SwapScores(total, correct, tuple(misses))


#: Why a labelled variant is wrong (the rubric of `tests/data/README.md`).
CLASSES = ("UNGRAMMATICAL", "NOT_IDENTITY", "MERGED", "MEANING")


def target_for(domain: TextDomain, index: int, category: str, salt: str = "") -> str | None:
    """A target term for seed `index`, drawn by a hash of the seed's text and `salt` among
    the terms its plan lets it become: the same seed always gets the same target, whatever
    the run (a reader's sample and the gold set are reproducible)."""
    import zlib

    options = domain.targets_for(index, category)
    if not options:
        return None
    return options[zlib.crc32(f"{salt}\0{domain.texts[index]}".encode()) % len(options)]


@dataclass(frozen=True)
class LongformScores:
    """The long-form gold set scored against what the code writes now, per split."""

    units: int
    """(seed, category) pairs drawn, each a seed that took part in the category's rows
    when the set was drawn."""
    taking_part: int
    """Units still taking part in the category's rows now (the recall of the set)."""
    labelled: int
    """Units whose variant, as written now, carries a reader's label."""
    acceptable: int
    wrong: dict[str, int]
    """Unacceptable labelled variants per class of the rubric."""
    unlabelled: tuple[Mapping, ...]
    """Units taking part whose variant as written now has no label yet (to be read)."""

    @property
    def acceptability(self) -> float:
        return self.acceptable / self.labelled if self.labelled else 1.0

    @property
    def recall(self) -> float:
        return self.taking_part / self.units if self.units else 1.0


def score_longform(records: Iterable[Mapping], split: str | None = None) -> LongformScores:
    """Score the long-form gold set (`tests/data/variant_gold_longform.jsonl`).

    A unit is a (seed, category) drawn with a target term. It is written again as the audit
    writes it; when the unit's first target is no longer one the seed may become (its axis,
    a clash), a target is drawn again by `target_for`. A reader's label counts when some
    record of the unit holds that very variant with a label (`acceptable` true or false; null:
    not read yet); otherwise the unit is `unlabelled`.
    """
    units: dict[tuple, list[Mapping]] = {}
    for record in records:
        if split is None or record["split"] == split:
            units.setdefault((record["source"], record["doc_id"], record["category"]), []).append(
                record
            )
    taking_part = 0
    read: list[tuple[Mapping | None, Mapping]] = []  # (the label, or None; the unit as now)
    for group in units.values():
        first = group[0]
        domain = TextDomain(
            [first["text"]],
            first.get("terms", "dixon2018"),
            [first["category"]],
            min_acceptability=0,
        )
        if not domain.category_mask(first["category"])[0]:
            continue
        taking_part += 1
        target = first["target"]
        if target not in domain.targets_for(0, first["category"]):
            target = target_for(domain, 0, first["category"], "gold")
        variant = domain.rewrite_with_edits(0, (Rule(first["category"], target),))
        if variant is None:
            continue
        label = next(
            (r for r in group if r["variant"] == variant.text and r["acceptable"] is not None),
            None,
        )
        read.append((label, {**first, "target": target, "variant": variant.text}))
    return _tally(len(units), taking_part, read)


def score_longform_sentences(
    units: Iterable[Mapping], readings: Iterable[Mapping], split: str | None = None
) -> LongformScores:
    """Score the long-form gold set audited sentence by sentence (``--unit sentence``).

    `units` are the records of `variant_gold_longform.jsonl`; `readings` those of
    `variant_gold_longform_sentences.jsonl`: one sentence of a unit, its variant as then
    written and a reader's label. A unit takes part when one of its document's sentences
    takes part in the category's rows; a reading counts while its sentence still takes part
    and is rewritten to the very variant that was read.
    """
    read: dict[str, list[Mapping]] = {}
    for reading in readings:
        read.setdefault(reading["unit"], []).append(reading)
    drawn: dict[tuple, Mapping] = {}
    for record in units:
        if split is None or record["split"] == split:
            drawn.setdefault((record["source"], record["doc_id"], record["category"]), record)
    taking_part = 0
    found: list[tuple[Mapping | None, Mapping]] = []
    for first in drawn.values():
        category = first["category"]
        sentences = split_sentences(first["text"])
        domain = TextDomain(
            sentences, first.get("terms", "dixon2018"), [category], min_acceptability=0
        )
        if not domain.category_mask(category).any():
            continue
        taking_part += 1
        label = None
        for reading in read.get(first["id"], ()):
            index = reading["sentence"]
            if index >= len(sentences) or not domain.category_mask(category)[index]:
                continue
            variant = domain.rewrite_with_edits(index, (Rule(category, reading["target"]),))
            if variant is not None and variant.text == reading["variant"]:
                label = reading
        found.append((label, first))
    return _tally(len(drawn), taking_part, found)


def _tally(
    units: int, taking_part: int, read: list[tuple[Mapping | None, Mapping]]
) -> LongformScores:
    """Scores of the units taking part: (a reader's label or None, the unit as written now)."""
    wrong = dict.fromkeys(CLASSES, 0)
    labels = [label for label, _ in read if label is not None]
    for label in labels:
        if not label["acceptable"]:
            wrong[label["class"]] = wrong.get(label["class"], 0) + 1
    return LongformScores(
        units,
        taking_part,
        len(labels),
        sum(bool(label["acceptable"]) for label in labels),
        wrong,
        tuple(unit for label, unit in read if label is None),
    )
