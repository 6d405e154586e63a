"""Which categories an audit tested, where, and why not: what the verdict says first.

A category is *tested* in a section (your texts, templates) when at least one rule set of
it was scored there. On a corpus a category can go untested because few texts name it, or
because the texts that name it cannot be rewritten coherently (`seeds_left_out` says why
by reason); the templates test every category whose terms suit a template. A verdict never
reads as a clearance of a category that was not tested, and a gate never passes on nothing
(`AuditReport.untested`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textfair.report.model import AuditReport

__all__ = ["CategoryCoverage", "and_", "corpus_words", "coverage", "coverage_verdict"]


@dataclass(frozen=True)
class CategoryCoverage:
    """Where one category was tested.

    Attributes
    ----------
    category : str
        The category (TestSGD's: gender, race, religion, age, or a list's own).
    naming : int or None
        Texts (rows) of the corpus that name it; None where the report does not say.
    rewritable : int or None
        Of those, the texts that take part in its rows (can be rewritten coherently).
    on_texts : int
        Rule sets of the category scored on the corpus (a pair counts for both categories).
    on_templates : int or None
        Rule sets scored on templates; None when no templates ran.
    """

    category: str
    naming: int | None
    rewritable: int | None
    on_texts: int
    on_templates: int | None

    @property
    def tested(self) -> bool:
        """Whether any rule set of the category was scored, in either section."""
        return self.on_texts > 0 or bool(self.on_templates)

    @property
    def where(self) -> str:
        """ "texts and templates", "templates", "texts" or "nowhere"."""
        if self.on_texts and self.on_templates:
            return "texts and templates"
        if self.on_templates:
            return "templates"
        return "texts" if self.on_texts else "nowhere"

    def corpus_words(self, unit: str = "texts") -> str:
        """What the corpus holds of the category: "347 texts name it, 52 can be
        rewritten"; "" where the report does not say."""
        if self.naming is None:
            return ""
        said = f"{self.naming:,} {unit} name it" if self.naming != 1 else f"1 {unit[:-1]} names it"
        if self.rewritable is not None and self.naming:
            said += f", {self.rewritable:,} can be rewritten"
        return said


def coverage(report: AuditReport) -> tuple[CategoryCoverage, ...]:
    """Per audited category, where it was tested (see `CategoryCoverage`)."""
    categories = list(report.config.get("categories") or [])
    on_texts = _rule_sets_per_category(report, categories)
    on_templates = (
        _rule_sets_per_category(report.templates, categories)
        if report.templates is not None
        else None
    )
    naming = report.data.get("seeds_mentioning") or {}
    rewritable = report.data.get("seeds_rewritable") or {}
    return tuple(
        CategoryCoverage(
            category=c,
            naming=int(naming[c]) if c in naming else None,
            rewritable=int(rewritable[c]) if c in rewritable else None,
            on_texts=on_texts[c],
            on_templates=on_templates[c] if on_templates is not None else None,
        )
        for c in categories
    )


def _rule_sets_per_category(report: AuditReport, categories: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(categories, 0)
    for finding in report.findings:
        for category in {rule.category for rule in finding.rule_set}:
            if category in counts:
                counts[category] += 1
    return counts


def coverage_verdict(report: AuditReport) -> str:
    """The verdict's first sentence for texts: which categories were tested on the texts,
    which only on templates, which not at all, with what the corpus holds of each one not
    tested on it ("religion: 347 texts name it, 52 can be rewritten")."""
    if report.kind != "text" or not report.settings.group:
        return ""  # rows name their columns; a causal-only run tests no rule set
    covered = report.coverage()
    if not covered:
        return ""
    groups: dict[str, list[str]] = {}
    for c in covered:
        groups.setdefault(c.where, []).append(c.category)
    said = []
    for where, words in (
        ("texts and templates", "on your texts and on templates"),
        ("texts", "on your texts" + (" only" if report.templates is not None else "")),
        ("templates", "only on templates"),
        ("nowhere", "not at all"),
    ):
        names = groups.get(where)
        if not names:
            continue
        why = [
            f"{c.category}: {c.corpus_words()}"
            for c in covered
            if c.where in ("templates", "nowhere") and c.category in names and c.corpus_words()
        ]
        reason = f" ({'; '.join(why)})" if why else ""
        said.append(f"{and_(names)} {words}{reason}")
    return f"Tested: {'; '.join(said)}."


def and_(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def corpus_words(report: AuditReport) -> str:
    """What a section rests on, in the words every surface's first line uses (the
    terminal's section heading, report.md's and the page's header): "1,492 texts: 366
    name an identity term, 172 can be rewritten" (report.json's ``rows``,
    ``naming_rows`` and ``mentioning_rows``), "576 seeds from 153 templates (toxicity)",
    or "1,000 rows"."""
    data = report.data
    rows = int(data.get("rows") or 0)
    if "templates" in data:
        return (
            f"{rows:,} seeds from {int(data.get('template_count') or 0):,} templates "
            f"({data['templates']})"
        )
    if report.kind == "rows":
        return f"{rows:,} rows"
    # The words of the verdict's per-category counts ("64 texts name it, 11 can be
    # rewritten"). Reports before naming_rows hold only mentioning_rows, which surfaces
    # called "mentioning" though it counts the texts that can be rewritten.
    counts = []
    if "naming_rows" in data:
        counts.append(f"{int(data['naming_rows']):,} name an identity term")
    if "mentioning_rows" in data:
        counts.append(f"{int(data['mentioning_rows']):,} can be rewritten")
    return f"{rows:,} texts" + (f": {', '.join(counts)}" if counts else "")
