"""The audit report as typed objects: what every consumer of an audit reads.

`AuditReport` holds the findings (`Finding`: a rule set, its rates, score, interval and
significance), the counterfactual results (`Counterfactual`: causal scores, group scores, term
pairs), the label metrics (`LabelMetrics` for text, `TableMetrics` for rows) and the run's
statistics. Renderers, augmentation, mitigation, the CLI and notebooks read these objects;
`to_dict()` writes report.json (the contract in the README) and `from_dict()` reads it back,
so `AuditReport.from_dict(report.to_dict()) == report`.

This module holds the report's data and what is read off it (which findings are significant,
small, doubtful or shown, the names of its labels and rule sets). Its sentences
(`summary`, the reading notes: `textfair.report._prose`), report.json (`records`), its files
(`files`) and its notebook views (`notebook`) are apart, and the methods here that return
them delegate there; the renderers, which know `AuditReport` only as a type, are reached
only through `files` and `notebook`, imported when called.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textfair.core.rules import Rule, RuleSet
from textfair.discovery.acceptable import Strict, holds_strictly
from textfair.report import _prose as prose
from textfair.report import records
from textfair.report._coverage import CategoryCoverage, coverage
from textfair.report._folding import fold_nested
from textfair.report._samples import SMALL_SAMPLE
from textfair.report.gate import Gate
from textfair.report.parts import (
    Counterfactual,
    Finding,
    Kind,
    LabelMetrics,
    ModelInfo,
    RunStats,
    TableMetrics,
)
from textfair.report.records import REPORT_VERSION
from textfair.settings import AuditConfig
from textfair.stats.testing import CORRECTION_NAMES

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AuditReport",
    "CategoryCoverage",
    "Counterfactual",
    "Finding",
    "LabelMetrics",
    "ModelInfo",
    "RunStats",
    "TableMetrics",
]


@dataclass(frozen=True)
class AuditReport:
    r"""One audit: the model, the data, the settings, and everything found.

    What `textfair.audit` and `textfair.audit_table` return and what report.json holds
    (``to_dict`` / ``from_dict`` / ``read``); every renderer, the augmentation, the
    mitigation, the CLI and a notebook read this object.

    Attributes
    ----------
    kind : {"text", "rows"}
        A text audit or a table audit.
    model : ModelInfo
        The model's id, fingerprint, labels and favourable label.
    data : dict
        The data's path, columns, row counts and, per category, the seeds that take part.
    config : dict
        The settings the audit ran with (see `textfair.audit`).
    findings : tuple of Finding
        Every rule set scored, most credible first: the favourable rates with and without
        it ($\varphi_R$, $\varphi_{\neg R}$), the signed difference, its
        interval, the adjusted p-value and whether it is significant.
    counterfactual : Counterfactual or None
        The causal tests: causal scores, group scores and term pairs, each beside a
        placebo edit; None when they did not run.
    metrics : LabelMetrics, TableMetrics or None
        Label-based metrics (subgroup/BPSN/BNSP AUC for texts, AIF360's group metrics for
        rows); None without labels.
    run : RunStats
        Model queries, cache hits and seconds.
    templates : AuditReport or None
        The same audit on templated seeds (`textfair.auditing.templates`), reported apart
        from the corpus's findings and never pooled with them; None when no templates ran.
    seed, command, textfair_version, report_version
        How to run it again.

    Examples
    --------
    >>> report = textfair.audit("toxicity-cnn-lstm", seed=0)  # doctest: +SKIP
    >>> report.summary()            # the verdict in words  # doctest: +SKIP
    >>> report.findings_frame()     # a DataFrame, most credible first  # doctest: +SKIP
    >>> report.save("report/")      # report.json, .md and .html  # doctest: +SKIP
    """

    kind: Kind
    model: ModelInfo
    data: dict[str, Any]
    config: dict[str, Any]
    findings: tuple[Finding, ...]
    counterfactual: Counterfactual | None
    metrics: LabelMetrics | TableMetrics | None
    run: RunStats
    seed: int = 0
    command: str = ""
    textfair_version: str = ""
    report_version: int = REPORT_VERSION
    extra: dict[str, Any] = field(default_factory=dict)  # keys a newer writer added
    templates: AuditReport | None = None

    @property
    def significant(self) -> tuple[Finding, ...]:
        r"""The findings significant after the correction for testing many rule sets.

        A tuple of `Finding`, most credible first, as in `findings`.

        Notes
        -----
        A finding is significant when its adjusted p-value is at most
        $\alpha = 1 - \text{confidence}$ (0.05 by default), the p-values adjusted over
        every rule set tested with the audit's ``correction`` (Holm's by default,
        Benjamini-Hochberg's, or none).
        """
        return tuple(f for f in self.findings if f.significant)

    @property
    def unit(self) -> str:
        """What one observation of the audit is: "seeds" (texts rewritten) or "rows"."""
        return "rows" if self.kind == "rows" else "seeds"

    @property
    def inputs(self) -> str:
        """What the model is asked about, and what a causal test counts: "texts" or "rows"."""
        return "rows" if self.kind == "rows" else "texts"

    def small(self, finding: Finding) -> bool:
        """Whether a finding rests on fewer than SMALL_SAMPLE seeds (rows)."""
        return finding.n_r < SMALL_SAMPLE

    def holds_strictly(self, finding: Finding) -> bool | None:
        """Whether a finding holds on its high-scoring seeds (those whose variants all score
        at least ``config["strict_acceptability"]``): its strict interval excludes 0 on the
        side its own does, from at least SMALL_SAMPLE seeds. None when its own interval
        holds 0 (nothing to hold) or its variants were not scored (table rows, reports
        before version 5); see :mod:`textfair.discovery.acceptable`."""
        return self.holds_on(finding.ci, finding.strict)

    def holds_on(self, ci: tuple[float, float], strict: Strict | None) -> bool | None:
        """`holds_strictly` for any result with an interval `ci` and a strict result (a
        term pair's shift), at the report's SMALL_SAMPLE."""
        return holds_strictly(ci, strict, SMALL_SAMPLE)

    def doubtful(self, findings: Sequence[Finding] | None = None) -> tuple[Finding, ...]:
        """The findings (of `findings`, default all) whose interval excludes 0 but that do
        not hold on their high-scoring seeds: what the views flag."""
        chosen = self.findings if findings is None else findings
        return tuple(f for f in chosen if self.holds_strictly(f) is False)

    @property
    def strict_level(self) -> float | None:
        """The level a variant scores for its seed to be high-scoring, as recorded (None
        before version 5 and for table rows)."""
        level = self.config.get("strict_acceptability")
        if level is not None:
            return float(level)
        return next((f.strict.level for f in self.findings if f.strict is not None), None)

    def holds_words(self, finding: Finding) -> str:
        """Whether a finding holds on its high-scoring seeds, in plain words for a table
        cell: "yes", "no: too few seeds", "no: interval holds 0", "no: other direction", or
        "–" where there is nothing to hold (its own interval holds 0) or no score."""
        return prose.holds_words(self, finding)

    def strict_words(self, finding: Finding) -> str:
        """Why a flagged finding does not hold on its high-scoring seeds, in plain words:
        "on the 12 seeds whose variants all score at least 0.7, too few to tell" or "on
        the 64 seeds whose variants all score at least 0.7, -1.2 [-6.0, +3.6] points:
        its interval holds 0". Empty for a finding without a strict result."""
        return prose.strict_words(self, finding)

    def shown_findings(self) -> list[tuple[Finding, int]]:
        """The findings the views show, most credible first, each with how many rule sets
        were folded into it: for a table, runs of bins of one feature nested in a more
        credible rule set's (see :mod:`textfair.report._folding`); for texts, all of them."""
        return list(self._folded)

    def listed_findings(self, top: int | None = None) -> list[tuple[Finding, int]]:
        """The findings a table of `top` rows lists, as `shown_findings` gives them: the
        `top` most credible, then every significant one beyond them, so that no table
        hides a finding (None: all). `left_out_words` says how many the rest are."""
        shown = self.shown_findings()
        if top is None:
            return shown
        return shown[:top] + [(f, n) for f, n in shown[top:] if f.significant]

    def left_out_words(self, top: int | None) -> str:
        """The line under a findings table of `top` rows that says how many rule sets it
        left out and where the rest are ("8 more rule sets, none significant, are in
        report.json and on the page (report.html)."); empty when it lists them all."""
        return prose.left_out_words(self, top)

    @property
    def run_words(self) -> str:
        """What the section cost the model, in words whose counts add up: "3,047 model
        queries for 19,597 texts requested: 3,047 distinct, 16,550 repeats answered from
        memory" (the terminal's and report.md's run line)."""
        return prose.run_words(self)

    @cached_property
    def _folded(self) -> tuple[tuple[Finding, int], ...]:
        # Folded once per report: the verdict, the notes and every view read it.
        return tuple(fold_nested(self.findings, self.kind))

    def shown_label(self, finding: Finding, folded: int = 0) -> str:
        """A rule set as the views show it, with how many nested runs were folded into it."""
        label = self.label(finding.rule_set)
        return f"{label} (+{folded} nested)" if folded else label

    def reading_notes(self, top: int | None = None) -> list[str]:
        """Sentences that keep a reader from misreading the findings table (of the `top`
        shown): why an interval that excludes 0 can be not significant, and which findings
        rest on few seeds."""
        return prose.reading_notes(self, top)

    def failing(self, threshold: float | str | Gate) -> tuple[Finding, ...]:
        r"""Significant findings whose score is above their threshold (what --fail-above
        gates), on the texts and then on templates.

        Parameters
        ----------
        threshold
            One number for all, a spec (``"gender=0.05,race=0.1"``) or a
            :class:`~textfair.report.gate.Gate`; see `Gate.parse`.

        Returns
        -------
        tuple of Finding
            The failing findings, most credible first.

        Raises
        ------
        TextfairError
            A `threshold` that is not a valid gate.

        Notes
        -----
        A finding of rule set $R$ fails when it is significant and
        $|\varphi_R - \varphi_{\neg R}| > t(R)$, with $t(R)$ the strictest
        threshold that names a rule of $R$ (see `Gate`).

        Examples
        --------
        >>> report.failing("gender=0.05,0.1")  # doctest: +SKIP
        """
        gate = Gate.parse(threshold)
        found = tuple(gate.failing(self.findings))
        if self.templates is not None:  # the gate reads both sections
            found += tuple(gate.failing(self.templates.findings))
        return found

    @property
    def outcome(self) -> str:
        """The favourable label in the user's words ("non-toxic"), for headings; a label
        that is not a word ("4,5", ">50K", "toxic<0.5") is named "favourable (>50K)"."""
        label = str(self.model.favorable or "")
        if re.fullmatch(r"[^\W\d][\w -]*", label):
            return label
        return f"favourable ({label})" if label else "favourable"

    @property
    def correction_name(self) -> str:
        """ "Holm's correction", "the Benjamini-Hochberg correction" or "no correction"."""
        return CORRECTION_NAMES.get(self.settings.correction, "no correction")

    @cached_property
    def settings(self) -> AuditConfig:
        """The audit's settings, read back from `config` (old reports too): one object, so
        a setting a report leaves out takes the one default `AuditConfig` gives it."""
        return AuditConfig.from_dict(self.config)

    @property
    def intervals_statement(self) -> str:
        """What a finding's interval covers and how significance is read, in one sentence
        (`INTERVALS` with this audit's confidence, correction and number of tests): the
        terminal, report.md and the page print it under the findings."""
        return prose.intervals_statement(self)

    def decision_name(self, favorable: bool) -> str:
        """A decision in the model's words: "non-toxic" or "toxic" ("not non-toxic" when the
        model has several other labels)."""
        others = [label for label in self.model.labels if label != self.model.favorable]
        if favorable:
            return self.outcome
        return others[0] if len(others) == 1 else f"not {self.outcome}"

    @property
    def gate(self) -> Gate | None:
        """The gate the audit ran with (--fail-above), if any."""
        return Gate.from_json(self.extra.get("fail_above"))

    def finding(self, rule_set: RuleSet) -> Finding | None:
        """The finding of a rule set, if it was tested."""
        return next((f for f in self.findings if f.rule_set == rule_set), None)

    def label(self, rule_set: RuleSet) -> str:
        """A rule set as people read it in this report's domain.

        Parameters
        ----------
        rule_set
            A finding's ``rule_set``.

        Returns
        -------
        str
            ``{"gay", "taoist"}`` for texts, ``{sex ∈ Female, race ∈ Black}`` for rows.
        """
        return RuleSet(rule_set).label(self.kind)

    def to_dict(self) -> dict[str, Any]:
        """report.json as a JSON-ready dict (NaN written as null).

        Returns
        -------
        dict
            ``report_version``, ``kind``, ``textfair_version``, ``command``, ``seed``,
            ``model``, ``data``, ``config``, ``rule_sets_tested``, ``findings``,
            ``counterfactual``, ``metrics`` and ``run``, then the keys of `extra`.
            ``AuditReport.from_dict(report.to_dict()) == report``.
        """
        return records.report_record(self)

    @classmethod
    def from_dict(cls, record: object) -> AuditReport:
        """Read a report written by `to_dict` (or report.json); one-line error otherwise.

        Parameters
        ----------
        record
            The dict `to_dict` returned, or the object a report.json holds. Keys a newer
            writer added are kept in `extra`.

        Returns
        -------
        AuditReport
            The report.

        Raises
        ------
        TextfairError
            `record` is not a dict with ``findings`` and ``model``, or it is incomplete or
            malformed.

        Examples
        --------
        >>> AuditReport.from_dict(report.to_dict()) == report  # doctest: +SKIP
        True
        """
        return records.report_from_record(cls, record)

    @classmethod
    def read(cls, path: str | Path) -> AuditReport:
        """Read a report.json; a one-line error when it is missing or not an audit report.

        Parameters
        ----------
        path
            The report.json file.

        Returns
        -------
        AuditReport
            The report (without flipped pairs, which report.json does not hold).

        Raises
        ------
        TextfairError
            The file is missing or not JSON, or it is not an audit report; the message
            starts with the path.

        Examples
        --------
        >>> report = textfair.AuditReport.read("report/report.json")  # doctest: +SKIP
        """
        from textfair.report.files import read_report

        return read_report(cls, path)

    def findings_frame(self) -> pd.DataFrame:
        r"""The findings as a pandas DataFrame, most credible first, in the words of the
        model's labels.

        Returns
        -------
        pandas.DataFrame
            One row per finding, the corpus's then the templates': ``section`` (``texts``
            or ``rows``, or ``templates``), ``rule_set`` (as `label` writes it), the rate of the
            favourable label with and without the rule set, as fractions (e.g.
            ``non-toxic_rate_with``, ``non-toxic_rate_without``); their signed difference
            in percentage points, as every other surface prints it
            (``difference_points``), its interval (``ci_low_points``, ``ci_high_points``)
            and ``credible_bound_points`` (the end of the interval nearest zero; 0 when it
            holds 0); ``p_adjusted``, ``significant``, ``seeds`` (on the rule set's side)
            and ``support``; then how much it rests on doubtful text: ``acceptability``
            (its variants' mean score), ``strict_difference_points``,
            ``strict_ci_low_points``, ``strict_ci_high_points`` and ``strict_seeds`` (on
            the seeds whose variants all score at least ``config["strict_acceptability"]``),
            ``holds_strictly`` (see `holds_strictly`); None where nothing was scored; and
            ``world_seeds``, of its seeds those whose variants rest on a real, named
            person or work (WORLD, counted apart; None for table rows).
            An empty frame keeps these columns. Why a frame is short or empty travels in
            its ``attrs``: ``attrs["untested"]``, per section, each category no rule set
            tested with why (what `summary` and the reading notes say), and
            ``attrs["notes"]``, per section, its `reading_notes`.
            report.json keeps the paper's names and fractions: ``phi_r``, ``phi_not_r``,
            and ``score``, the absolute difference, beside the signed ``difference``.

        Notes
        -----
        For a rule set $R$, ``difference_points`` is
        $100\,(\varphi_R - \varphi_{\neg R})$: negative when the rule set's texts (rows) get
        the favourable label less often.

        Examples
        --------
        >>> report.findings_frame().head()  # doctest: +SKIP
        """
        from textfair.report._notebook import findings_frame

        return findings_frame(self)

    def flipped_pairs_frame(self) -> pd.DataFrame:
        """Every identity swap of the term-pair tests (each seed rewritten to every other
        term of its axis; not the causal table's one swap per text) that flipped the model's
        decision, as a DataFrame (what `textfair audit --pairs FILE` writes).

        Returns
        -------
        pandas.DataFrame
            One row per flipped pair: ``category``, ``axis`` (the terms' axis, as
            `term_axis` names it), ``from``, ``to``, the ``text`` and its
            ``counterfactual``, the ``decision`` of each in the model's words
            (``counterfactual_decision``), the favourable label's probability of each
            (``p_<label>``, ``counterfactual_p_<label>``), and whether the seed's placebo
            edit flipped too (``placebo_flipped``: a flip that a neutral edit also causes is
            not evidence about the identity). Empty without causal tests. Held in memory
            only: a report read back from report.json has none.

        Examples
        --------
        >>> report.flipped_pairs_frame()  # doctest: +SKIP
        """
        from textfair.report.pairs import flipped_pairs_frame

        return flipped_pairs_frame(self)

    def summary(self) -> str:
        """The verdict, in words.

        The gate's pass or fail when the audit had one; the groups the model disadvantages,
        then those it favours, each as how much less (or more) often their texts get the
        favourable label than the same texts with another term, with the interval; or that
        no difference between groups is significant. When no group is significantly
        disadvantaged, the most disadvantaged one is named, with why it is not a finding.
        Then what the causal tests found beyond a placebo edit; whether the significant
        findings hold on the seeds whose variants a strict reader would accept (their
        variants' mean acceptability, and those that do not, named); and, with true labels,
        the AUCs significantly below the overall AUC. The same sentence is the
        terminal's last line, report.md's and the page's verdict.

        Returns
        -------
        str
            The verdict.

        Examples
        --------
        >>> print(report.summary())  # doctest: +SKIP
        """
        return prose.summary(self)

    def coverage(self) -> tuple[CategoryCoverage, ...]:
        """Per audited category, where it was tested: the rule sets scored on the corpus
        and on templates, and what the corpus holds of it (texts naming it, texts that can
        be rewritten). See `CategoryCoverage`.

        Returns
        -------
        tuple of CategoryCoverage
            In the order of ``config["categories"]``.
        """
        return coverage(self)

    def untested(self, required: Sequence[str] = ()) -> tuple[str, ...]:
        """The categories the gate counts as untested: every audited category when no rule
        set was scored in either section (a gate never passes on nothing), else those of
        `required` that no rule set tested in either section.

        Parameters
        ----------
        required
            Categories that must be tested (``--require religion,race``).

        Returns
        -------
        tuple of str
            Empty when the gate can be judged.
        """
        covered = self.coverage()
        if not any(c.tested for c in covered):
            return tuple(c.category for c in covered) or ("any category",)
        tested = {c.category for c in covered if c.tested}
        return tuple(name for name in required if name not in tested)

    def axis(self, rule: Rule) -> str:
        """The axis a text rule's term lies on ("sexual orientation" for gay), as the term
        list records it (report.json's ``data.term_axes``); its category's name otherwise."""
        return self.term_axis(rule.category, str(rule.value))

    def term_axis(self, category: str, term: str) -> str:
        """The axis `term` of `category` lies on, the label its rows take in every table,
        chart and CSV (a swap stays on its axis: "gay -> bisexual" is a sexual orientation
        swap, though TestSGD's category is gender); the category's name when it has one."""
        axes = self.data.get("term_axes") or {}
        return str((axes.get(category) or {}).get(term) or category)

    def __repr__(self) -> str:
        """One line: what was audited and the verdict's head (`summary()` is the verdict)."""
        return prose.repr_line(self)

    def save(self, directory: str | Path, *, overwrite: bool = False, top: int = 10) -> Path:
        """Write report.json, report.md and report.html into `directory` as one set, as
        `textfair audit --out` does: staged beside it, so an interrupted write leaves the
        complete old set or the complete new one (see `textfair.report.files.write_report`).

        Parameters
        ----------
        directory
            Where to write; a new or empty directory, or one that holds an earlier report.
        overwrite
            Replace an earlier report there; without it, one is an error.
        top
            How many findings report.md shows.

        Returns
        -------
        pathlib.Path
            The directory.

        Raises
        ------
        TextfairError
            `directory` is a file, holds an earlier report and `overwrite` is off, or holds
            files textfair did not write (refused even with `overwrite`, since the directory
            is replaced as a whole).

        Examples
        --------
        >>> report.save("report/")  # doctest: +SKIP
        PosixPath('report')
        """
        from textfair.report.files import write_report

        write_report(self, directory, top, overwrite=overwrite)
        return Path(directory)

    def to_html(self, path: str | Path | None = None, *, overwrite: bool = False) -> str:
        """The report page: one self-contained HTML file, the same bytes as report.html.

        Parameters
        ----------
        path
            Where to write the page too; None (default): only return it.
        overwrite
            Replace an existing file at `path`; without it, one is an error.

        Returns
        -------
        str
            The page.

        Raises
        ------
        TextfairError
            `path` exists and `overwrite` is off.

        Examples
        --------
        >>> page = report.to_html("audit.html")  # doctest: +SKIP
        """
        from textfair.report.files import write_page

        return write_page(self, path, overwrite=overwrite)

    def _repr_markdown_(self) -> str:
        from textfair.report._notebook import markdown_view

        return markdown_view(self)

    def _repr_html_(self) -> str:
        from textfair.report._notebook import html_view

        return html_view(self)
