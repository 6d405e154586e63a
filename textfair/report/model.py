"""The audit report as typed objects: what every consumer of an audit reads.

`AuditReport` holds the findings (`Finding`: a rule set, its rates, score, interval and
significance), the counterfactual results (`Counterfactual`: causal scores, group scores, term
pairs), the label metrics (`LabelMetrics` for text, `TableMetrics` for rows) and the run's
statistics. Renderers, augmentation, mitigation, the CLI and notebooks read these objects;
`to_dict()` writes report.json (the contract in the README) and `from_dict()` reads it back,
so `AuditReport.from_dict(report.to_dict()) == report`.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from textfair.core.rules import Rule, RuleSet
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY, Strict, holds_strictly
from textfair.discovery.results import CausalScore, Excess
from textfair.errors import TextfairError
from textfair.io import read_json
from textfair.report import records
from textfair.report.folding import fold_nested
from textfair.report.gate import Gate
from textfair.report.numbers import difference, informative
from textfair.report.parts import (
    Counterfactual,
    Finding,
    Kind,
    LabelMetrics,
    ModelInfo,
    RunStats,
    TableMetrics,
)
from textfair.report.seedwords import reason_words
from textfair.settings import AuditConfig
from textfair.stats.testing import CORRECTION_NAMES

__all__ = [
    "REPORT_VERSION",
    "AuditReport",
    "Counterfactual",
    "Finding",
    "LabelMetrics",
    "ModelInfo",
    "RunStats",
    "TableMetrics",
]

# 2: "kind" and "report_version" written; rule sets read back through RuleSet.
# 3: causal tests, group scores and term pairs carry a placebo edit's rates ("excess").
# 4: each finding carries its signed "difference" (phi_r - phi_not_r) beside the unsigned
#    "score"; data["term_axes"] records the axis of terms whose category has several.
# 5: each finding and term pair carries the mean "acceptability" of its variants and its
#    "strict" result on the seeds whose variants all score at least config's
#    "strict_acceptability" (null without scores); versions 3 and 4 read with None.
#    Compatible later: the counterfactual may carry "term_pairs_left_out" (a category with
#    more term pairs than are kept in full); a report without it reads as none left out.
#    A later version that only adds what an older reader may ignore says so by writing
#    "compatible_with": the oldest version able to read it (see records.check_version).
REPORT_VERSION = 5

# Below this many seeds (rows for tables) on the rule set's side, a finding is flagged: its
# interval is wide and its point estimate moves with every seed (an interval from 20 seeds of
# a 10-point difference spans about ±20 points).
SMALL_SAMPLE = 30


# What a finding's interval covers and how significance is read: the one statement every
# surface prints (terminal, report.md, the page) and the docs repeat. True to the statistics:
# discovery.groups gives each rule set a `confidence` interval of its own (bounded_mean, or
# Newcombe's in paper mode), and adjusts the p-values of all rule sets with `correction`.
INTERVALS = (
    "Each interval holds at {confidence}% for its own rule set, not for all {tests} at once; "
    "a rule set is significant when its p-value, {adjusted}, is at most {alpha}."
)


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

    def doubtful(self, findings=None) -> tuple[Finding, ...]:
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
        holds = self.holds_strictly(finding)
        if holds is None or finding.strict is None:
            return "–"
        if holds:
            return "yes"
        if finding.strict.n < SMALL_SAMPLE:
            return f"no: too few {self.unit}"
        low, high = finding.strict.ci
        return "no: interval holds 0" if low <= 0 <= high else "no: other direction"

    def strict_words(self, finding: Finding) -> str:
        """Why a flagged finding does not hold on its high-scoring seeds, in plain words:
        "on the 12 seeds whose variants all score at least 0.7, too few to tell" or "on
        the 64 seeds whose variants all score at least 0.7, -1.2 [-6.0, +3.6] points:
        its interval holds 0". Empty for a finding without a strict result."""
        strict = finding.strict
        if strict is None:
            return ""
        if strict.n == 0:
            return f"(none of its {self.unit} has every variant scoring at least {strict.level:g})"
        on = f"on the {strict.n} {self.unit} whose variants all score at least {strict.level:g}"
        if strict.n < SMALL_SAMPLE:
            return f"{on}, too few (under {SMALL_SAMPLE}) to tell"
        said = f"{on}, {difference(strict.estimate, strict.ci)} points"
        if strict.ci[0] <= 0 <= strict.ci[1]:
            return f"{said}: its interval holds 0"
        return f"{said}: the other direction"

    def shown_findings(self) -> list[tuple[Finding, int]]:
        """The findings the views show, most credible first, each with how many rule sets
        were folded into it: for a table, runs of bins of one feature nested in a more
        credible rule set's (see :mod:`textfair.report.folding`); for texts, all of them."""
        return list(self._folded)

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
        notes = []
        shown = self.shown_findings()
        if len(shown) < len(self.findings):
            notes.append(
                f"{len(self.findings) - len(shown)} of {len(self.findings)} rule sets are "
                "folded into a more credible one with the same direction that differs only "
                "by a run of bins of one feature, nested in its own and sharing an end "
                "('+N nested'); report.json lists every rule set."
            )
        excluding = [f for f in self.findings if f.credible_bound != 0 and not f.significant]
        if excluding and self.settings.correction in CORRECTION_NAMES:
            notes.append(
                f"{len(excluding)} of {len(self.findings)} rule sets have an interval that "
                f"excludes 0 but are not significant after {self.correction_name} over "
                f"{len(self.findings)} tests: see what an interval covers, above."
            )
        if not self.findings and self.settings.group:
            mentioning = self.data.get("mentioning_rows")
            held = f" ({mentioning} {self.inputs} hold a term)" if mentioning is not None else ""
            most = self.data.get("most_seeds_per_term") or {}
            notes.append(
                f"No rule set reached the support --theta {self.settings.theta:g}{held}: "
                + (
                    self._what_would_help(max(most, key=most.__getitem__), alone=False)
                    if most
                    else "lower --theta or audit more data in which the terms occur."
                )
            )
        mentioning = self.data.get("seeds_mentioning") or {}
        covered = {rule.category for f in self.findings for rule in RuleSet(f.rule_set)}
        missing = [c for c in mentioning if c not in covered]
        if self.findings and missing:
            rows = self.data.get("rows", "?")
            notes += [
                f"No rule set for {c} ({mentioning[c]} of {rows} {self.inputs} mention it): "
                f"none of its terms reaches the support --theta {self.settings.theta:g} "
                f"(theta= in Python); {self._what_would_help(c)}"
                for c in missing
            ]
        few = [
            c
            for c in (self.counterfactual.causal if self.counterfactual else ())
            if c.n < SMALL_SAMPLE
        ]
        if few:
            notes.append(
                f"{len(few)} causal tests rest on fewer than {SMALL_SAMPLE} {self.inputs}: "
                "their flip-rate intervals are wide."
            )
        doubtful = self.doubtful(self.findings[:top])
        if doubtful:
            notes.append(
                f"{len(doubtful)} rule sets shown (marked ?) do not hold on the {self.unit} "
                "whose variants a strict reader would accept (all scoring at least "
                f"{self.strict_level or STRICT_ACCEPTABILITY:g}): they rest partly on text "
                "that may no longer say what its seed said; "
                + "; ".join(
                    f"{self.label(f.rule_set)} {self.strict_words(f)}" for f in doubtful[:3]
                )
                + (f" (and {len(doubtful) - 3} more)" if len(doubtful) > 3 else "")
                + "."
            )
        small = [f for f in self.findings[:top] if self.small(f)]
        if small:
            notes.append(
                f"{len(small)} rule sets shown rest on fewer than {SMALL_SAMPLE} {self.unit} "
                "(marked !): their intervals are wide and their differences unreliable; audit "
                "more data in which they occur."
            )
        return notes

    def _what_would_help(self, category: str, alone: bool = True) -> str:
        """What would give `category` a rule set (`alone`: the sentence is about it; else
        about every category, this one holding the term of largest support): the --theta at
        which its term of largest support becomes one (that support, rounded down to two
        significant digits), or why no --theta can (no text that mentions it can be
        rewritten, and why)."""
        most = (self.data.get("most_seeds_per_term") or {}).get(category)
        rows = self.data.get("rows")
        if most is None or not rows:
            return "lower --theta, or audit more data that mentions it."
        if most == 0 and alone and not (self.data.get("seeds_mentioning") or {}).get(category):
            return f"no {self.inputs[:-1]} mentions it; audit data that does."
        if most == 0:
            left_out = (self.data.get("seeds_left_out") or {}).get(category) or {}
            reasons = ", ".join(
                f"{count} {reason_words(reason)}"
                for reason, count in left_out.items()
                if count and alone
            )
            return (
                f"lowering --theta cannot help: none of the {self.inputs} that "
                + ("mention it" if alone else "hold a term")
                + " can be rewritten to another term and still hang together"
                + (f" ({reasons})" if reasons else "")
                + "; audit more data that mentions "
                + ("it." if alone else "the terms.")
            )
        support = most / rows
        digits = max(1 - math.floor(math.log10(support)), 0)
        theta = math.floor(support * 10**digits) / 10**digits
        whose = "its terms" if alone else "the terms"
        if theta >= self.settings.theta:
            return (
                f"{whose} reach it in {most} {self.inputs}, none of which could be compared "
                "with another term."
            )
        few = f", on few {self.inputs}" if most < SMALL_SAMPLE else ""
        return (
            f"{whose} can each be written into at most {most} {self.inputs} "
            + ("(" if alone else f"({category}; ")
            + f"support {support:.3g}): --theta {theta:g} or below gives "
            + ("it" if alone else f"{category}")
            + f" a rule set{few}; or audit more data that mentions "
            + ("it." if alone else "the terms.")
        )

    def failing(self, threshold) -> tuple[Finding, ...]:
        r"""Significant findings whose score is above their threshold (what --fail-above
        gates).

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
        return tuple(Gate.parse(threshold).failing(self.findings))

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
        confidence = self.settings.confidence
        tests = len(self.findings)
        adjusted = (
            f"adjusted with {self.correction_name} over all {tests}"
            if self.settings.correction in CORRECTION_NAMES
            else f"not adjusted for the {tests} tests"
        )
        return INTERVALS.format(
            confidence=f"{100 * confidence:g}",
            tests=tests,
            adjusted=adjusted,
            alpha=f"{1 - confidence:.3g}",
        )

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

    # --- report.json ---------------------------------------------------------------------

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
        return records.finite(
            {
                "report_version": self.report_version,
                "kind": self.kind,
                "textfair_version": self.textfair_version,
                "command": self.command,
                "seed": self.seed,
                "model": {**asdict(self.model), "labels": list(self.model.labels)},
                "data": self.data,
                "config": self.config,
                "rule_sets_tested": len(self.findings),
                "findings": [records.finding_record(f, self.kind) for f in self.findings],
                "counterfactual": records.counterfactual_record(self.counterfactual),
                "metrics": records.metrics_record(self.metrics),
                "run": asdict(self.run),
                **self.extra,
            }
        )

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
        if not isinstance(record, dict) or "findings" not in record or "model" not in record:
            raise TextfairError(
                f"a {type(record).__name__} is not an audit report; expected the object in "
                "a report.json written by textfair audit"
            )
        records.check_version(record, REPORT_VERSION)
        try:
            kind = record.get("kind") or records.kind_of_version_1(record)
            known = {f.name for f in fields(cls)} | {"rule_sets_tested", "compatible_with"}
            model = record["model"]
            return cls(
                kind=kind,
                model=ModelInfo(
                    model.get("id", ""),
                    model.get("fingerprint"),
                    tuple(model["labels"]),
                    model["favorable"],
                ),
                data=dict(record.get("data") or {}),
                config=dict(record.get("config") or {}),
                findings=tuple(records.read_finding(f, kind) for f in record["findings"]),
                counterfactual=records.read_counterfactual(record.get("counterfactual")),
                metrics=records.read_metrics(record.get("metrics")),
                run=RunStats(**record["run"]),
                seed=int(record.get("seed", 0)),
                command=record.get("command", ""),
                textfair_version=record.get("textfair_version", ""),
                report_version=int(record.get("report_version", 1)),
                extra={k: v for k, v in record.items() if k not in known},
            )
        except (KeyError, TypeError, ValueError) as err:
            raise TextfairError(
                f"the report is incomplete or malformed ({type(err).__name__}: {err}); "
                "expected a report.json written by textfair audit"
            ) from None

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
        record = read_json(path, "the report.json of an audit")
        try:
            return cls.from_dict(record)
        except TextfairError as err:
            raise TextfairError(f"{path}: {err}") from None

    # --- notebooks -----------------------------------------------------------------------

    def findings_frame(self):
        r"""The findings as a pandas DataFrame, most credible first, in the words of the
        model's labels.

        Returns
        -------
        pandas.DataFrame
            One row per finding: ``rule_set`` (as `label` writes it), the rate of the
            favourable label with and without the rule set (e.g. ``non-toxic_rate_with``,
            ``non-toxic_rate_without``), their signed ``difference`` and its interval
            (``ci_low``, ``ci_high``), ``credible_bound`` (the end of the interval nearest
            zero; 0 when it holds 0), ``p_adjusted``, ``significant``, ``seeds`` (on the
            rule set's side) and ``support``; then how much it rests on doubtful text:
            ``acceptability`` (its variants' mean score), ``strict_difference``,
            ``strict_ci_low``, ``strict_ci_high`` and ``strict_seeds`` (on the seeds whose
            variants all score at least ``config["strict_acceptability"]``), and
            ``holds_strictly`` (see `holds_strictly`); None where nothing was scored.
            report.json keeps the paper's names: ``phi_r``, ``phi_not_r``, and ``score``,
            the absolute difference, beside the signed ``difference``.

        Notes
        -----
        For a rule set $R$, the ``difference`` is
        $\varphi_R - \varphi_{\neg R}$: negative when the rule set's texts (rows) get
        the favourable label less often.

        Examples
        --------
        >>> report.findings_frame().head()  # doctest: +SKIP
        """
        import pandas as pd

        label = self.model.favorable or "favourable"
        return pd.DataFrame(
            [
                {
                    "rule_set": self.label(f.rule_set),
                    f"{label}_rate_with": f.phi_r,
                    f"{label}_rate_without": f.phi_not_r,
                    "difference": f.difference,
                    "ci_low": f.ci[0],
                    "ci_high": f.ci[1],
                    "credible_bound": f.credible_bound,
                    "p_adjusted": f.p_adjusted,
                    "significant": f.significant,
                    "seeds": f.n_r,
                    "support": f.support,
                    # How much it rests on doubtful text (None without scores).
                    "acceptability": f.acceptability,
                    "strict_difference": f.strict.estimate if f.strict else None,
                    "strict_ci_low": f.strict.ci[0] if f.strict else None,
                    "strict_ci_high": f.strict.ci[1] if f.strict else None,
                    "strict_seeds": f.strict.n if f.strict else None,
                    "holds_strictly": self.holds_strictly(f),
                }
                for f in self.findings
            ]
        )

    def flipped_pairs_frame(self):
        """Every identity swap of the causal tests that flipped the model's decision, as a
        DataFrame (what `textfair audit --pairs FILE` writes).

        Returns
        -------
        pandas.DataFrame
            One row per flipped pair: ``category``, ``from``, ``to``, the ``text`` and its
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
        parts = [self._gate_verdict(), self._groups_verdict(), self._causal_verdict()]
        parts.append(self._strict_verdict())
        parts.append(self._labels_verdict())
        return " ".join(part for part in parts if part)

    def _labels_verdict(self) -> str:
        """The label metrics' sentence: the AUCs significantly below the overall AUC, signed
        with their intervals (empty when none is; see report.labelwords.gap_sentence)."""
        from textfair.report.labelwords import gap_sentence

        return gap_sentence(self.metrics) if isinstance(self.metrics, LabelMetrics) else ""

    def _gate_verdict(self) -> str:
        gate = self.gate
        if gate is None:
            return ""
        failing = gate.failing(self.findings)
        if failing:
            named = ", ".join(
                f"{self.label(f.rule_set)} {difference(f.difference, f.ci)} "
                f"({'favoured' if f.difference > 0 else 'disadvantaged'})"
                for f in failing[:3]
            )
            more = f" and {len(failing) - 3} more" if len(failing) > 3 else ""
            return (
                f"FAIL: {len(failing)} significant difference{'s' if len(failing) > 1 else ''} "
                f"larger than the gate of {gate.describe()}, either way (--fail-above {gate}): "
                f"{named}{more}."
            )
        return (
            "PASS: no significant difference larger than the gate of "
            f"{gate.describe()}, either way."
        )

    def _groups_verdict(self) -> str:
        if not self.settings.group:
            # `textfair causal`: no rule set was tested, so none is counted.
            return f"{self.model.id or 'the model'}: causal tests only."
        head = (
            f"{self.model.id or 'the model'}: {len(self.findings)} rule sets, "
            f"{len(self.significant)} significant after correction"
        )
        label = self.model.favorable or "favourable"
        if not self.findings:
            return f"{head}."
        # Named from the folded list (a table's nested bins are one finding), counted in full.
        shown = [f for f, _ in self.shown_findings() if f.significant]
        harmed = [f for f in shown if f.difference < 0]
        favoured = [f for f in shown if f.difference > 0]
        if not self.significant:
            sentences = [f"{head}; no significant difference between groups."]
        else:
            sentences = [f"{head}."]
        if not harmed:
            # The group that fares worst is still named, with what keeps it from a finding,
            # unless its interval spans nearly everything: then it says nothing worth citing.
            worse = [f for f in self.findings if f.difference < 0]
            worst = next((f for f in worse if informative(f.ci)), None)
            if not worse:
                sentences.append("No group's texts fare worse.")
            elif worst is None:
                sentences.append(
                    f"No group's {self.inputs} fare significantly worse; the {len(worse)} that "
                    f"fare worse rest on too few {self.unit} (at most "
                    f"{max(f.n_r for f in worse)}) for an informative interval."
                )
            else:
                why = (
                    f"its interval excludes 0, but its p-value adjusted with "
                    f"{self.correction_name} over {len(self.findings)} tests is "
                    f"{worst.p_adjusted:.3g}"
                    if worst.credible_bound != 0
                    else "its interval holds 0"
                )
                sentences.append(
                    "No group's texts fare significantly worse. The most disadvantaged: "
                    f"{self._in_words(worst, label)} (not significant: {why})."
                )
        for name, found in (("Disadvantaged", harmed), ("Favoured", favoured)):
            if found:
                said = "; ".join(self._in_words(f, label) for f in found[:2])
                more = f" (and {len(found) - 2} more)" if len(found) > 2 else ""
                sentences.append(f"{name}: {said}{more}.")
        return " ".join(sentences)

    def _strict_verdict(self) -> str:
        """Whether the significant findings hold on the seeds whose variants a strict reader
        would accept, with their variants' mean acceptability; those that do not are named
        with why. Empty when no significant finding was scored for acceptability."""
        scored = [f for f, _ in self.shown_findings() if f.significant and f.strict is not None]
        if not scored:
            return ""
        level = f"{self.strict_level or STRICT_ACCEPTABILITY:g}"
        mean = [f.acceptability for f in scored if f.acceptability is not None]
        acceptability = (
            f"; their variants' mean acceptability {sum(mean) / len(mean):.2f}" if mean else ""
        )
        doubtful = self.doubtful(scored)
        if not doubtful:
            every = "it holds" if len(scored) == 1 else f"all {len(scored)} hold"
            return (
                f"Checked on the {self.unit} whose variants a strict reader would accept "
                f"(all scoring at least {level}), {every}{acceptability}."
            )
        # Named without the why (the notes under the table give it): the verdict stays short.
        named = ", ".join(self.label(f.rule_set) for f in doubtful[:3])
        more = f" and {len(doubtful) - 3} more" if len(doubtful) > 3 else ""
        none = all(f.strict is not None and f.strict.n == 0 for f in doubtful)
        why = f" (none of their {self.unit} has every variant at that level)" if none else ""
        return (
            f"{len(doubtful)} of {len(scored)} significant findings do not hold on the "
            f"{self.unit} whose variants a strict reader would accept (all scoring at least "
            f"{level}{acceptability}), so they rest partly on doubtful text: {named}{more}{why}."
        )

    def _in_words(self, finding: Finding, label: str) -> str:
        """ "texts that mention gay are judged non-toxic 32.1 points less often than the same
        texts with another sexual orientation term, -32.1 [-39.6, -22.4] points" (rows: "rows with
        sex ∈ Male get ..."). The words give the direction and the size; the numbers in
        brackets are the table's, signs kept (`numbers.difference`)."""
        rules = list(RuleSet(finding.rule_set))
        named = [self.label(RuleSet((rule,)))[1:-1].strip('"') for rule in rules]
        word = "less" if finding.difference < 0 else "more"
        size = f"{abs(100 * finding.difference):.1f} points {word} often than"
        if finding.difference == 0:
            size = "as often as"
        said = f", {difference(finding.difference, finding.ci)} points"
        if self.kind == "rows":
            return (
                f"rows with {' and '.join(named)} get {label} {size} the same rows with "
                f"other values{said}"
            )
        axes = " and ".join(dict.fromkeys(self.axis(rule) for rule in rules))
        other = f"another {axes} term" if len(rules) == 1 else f"other {axes} terms"
        return (
            f"texts that mention {' and '.join(named)} are judged {label} {size} the "
            f"same texts with {other}{said}"
        )

    def axis(self, rule: Rule) -> str:
        """The axis a text rule's term lies on ("sexual orientation" for gay), as the term
        list records it (report.json's ``data.term_axes``); its category's name otherwise."""
        axes = self.data.get("term_axes") or {}
        return str((axes.get(rule.category) or {}).get(rule.value) or rule.category)

    def _causal_verdict(self) -> str:
        """The causal tests in a sentence, on the excess over the placebo edit: the category
        sets whose identity swaps flip decisions significantly more often, or that none do
        (with the largest excess measured). Empty without placebo edits."""
        tests = (
            [c for c in self.counterfactual.causal if c.excess and c.excess.n]
            if (self.counterfactual)
            else []
        )
        if not tests:
            return ""

        def excess(test: CausalScore) -> Excess:
            assert test.excess is not None  # `tests` holds only those with one
            return test.excess

        def said(test: CausalScore) -> str:
            e = excess(test)
            return (
                f"{' + '.join(test.categories)}, {100 * e.identity_rate:.1f}% of swaps vs "
                f"{100 * e.placebo_rate:.1f}% of placebo edits flip the decision, "
                f"{difference(e.excess, e.ci)} points"
            )

        found = [c for c in tests if excess(c).significant]
        if found:
            # A set that holds a found set adds little to it: the smallest sets are named.
            smallest = [
                c for c in found if not any(set(o.categories) < set(c.categories) for o in found)
            ]
            smallest.sort(key=lambda c: -excess(c).ci[0])
            more = len(found) - len(smallest)
            return (
                "Causal: identity swaps flip decisions significantly more often than a "
                "placebo edit for "
                + "; ".join(said(c) for c in smallest)
                + (
                    f" (and {more} larger {'set' if more == 1 else 'sets'} holding one)"
                    if more
                    else ""
                )
                + "."
            )
        head = (
            "Causal: no identity swap flips decisions significantly more often than a placebo edit"
        )
        # An excess whose interval spans nearly everything (a few texts with both edits)
        # says nothing: the largest is named among those that say something.
        told = [c for c in tests if informative(excess(c).ci)]
        vague = [excess(c).n for c in tests if c not in told]
        seen = (
            f"{len(vague)} of {len(tests)} category sets rest on too few {self.inputs} with "
            f"both edits (at most {max(vague, default=0)}) for an informative interval"
        )
        if not told:
            return f"{head}; {seen}."
        largest = max(told, key=lambda c: excess(c).excess)
        return f"{head}; largest excess: {said(largest)}" + (f"; {seen}." if vague else ".")

    def __repr__(self) -> str:
        """One line: what was audited and the verdict's head (`print(report)` in a notebook
        is not the whole report; `summary()`, `findings_frame()` and `save()` are)."""
        head = self._groups_verdict().split(". ")[0].split(": ", 1)[-1]
        if len(head) > 240:
            head = head[:239] + "…"
        return f"<AuditReport {self.kind} of {self.model.id or 'a model'}: {head}>"

    def save(self, directory: str | Path, *, overwrite: bool = False, top: int = 10) -> Path:
        """Write report.json, report.md and report.html into `directory` as one set, as
        `textfair audit --out` does.

        The files are staged in a directory beside it that then takes its place in one
        step, so an interrupted write leaves the complete old set or the complete new one.

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
        from textfair.report.render import write_report

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
        import json

        from textfair.io import atomic_writer
        from textfair.report.html import render_html

        # From the JSON form, as write_report renders it: the same bytes as report.html.
        page = render_html(AuditReport.from_dict(json.loads(json.dumps(self.to_dict()))))
        if path is not None:
            if Path(path).exists() and not overwrite:
                raise TextfairError.bad("path", f"{path} exists; pass overwrite=True to replace it")
            with atomic_writer(path, replace=overwrite) as handle:
                handle.write(page)
        return page

    def _repr_markdown_(self) -> str:
        from textfair.report.render import render_markdown

        return render_markdown(self)

    def _repr_html_(self) -> str:
        import html

        table = self.findings_frame().head(10).to_html(index=False, float_format="{:.3f}".format)
        return f"<p>{html.escape(self.summary())}</p>{table}"
