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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from textfair.discovery.rulesets import Rule
from textfair.text.domain import TextDomain
from textfair.text.matcher import Matcher

__all__ = [
    "MentionScores",
    "SwapScores",
    "VariantScores",
    "score_mentions",
    "score_swaps",
    "score_variants",
    "swap_genders",
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


def score_variants(records: Iterable[Mapping], terms: str = "dixon2018") -> VariantScores:
    """Write each labelled (seed, category, target) variant again, as the audit does."""
    labelled = same = acceptable = gone = gone_acceptable = changed = 0
    for record in records:
        labelled += 1
        domain = TextDomain([record["text"]], terms, [record["category"]])
        variant = domain.rewrite(0, (Rule(record["category"], record["target"]),))
        if variant is None:
            gone += 1
            gone_acceptable += bool(record["acceptable"])
        elif variant.text != record["variant"]:
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
    other = {"male": terms["female"], "female": terms["male"]}
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
