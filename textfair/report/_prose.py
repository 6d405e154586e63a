"""The audit report in sentences: the verdict, the notes under the findings, and the words
a table cell or a caption says about one finding.

`AuditReport.summary()` is the terminal's last line, report.md's and the page's verdict; the
reading notes keep a reader from misreading the findings table, and name the command-line
flags (--theta, --fail-above) that would change what was found. They are apart from the
report's data (`textfair.report.model`), which delegates to them, so the sentences can be
read and changed in one place; they know `AuditReport` only as a type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textfair.core.counts import agrees, counted
from textfair.core.rules import RuleSet
from textfair.discovery.acceptable import STRICT_ACCEPTABILITY
from textfair.report._causalwords import causal_verdict as _causal_verdict
from textfair.report._coverage import and_, coverage_verdict
from textfair.report._hints import no_rule_set, untested_reasons
from textfair.report._labelwords import gap_sentence
from textfair.report._numbers import difference, informative
from textfair.report._samples import SMALL_SAMPLE
from textfair.report.parts import Finding, LabelMetrics
from textfair.stats.testing import CORRECTION_NAMES

if TYPE_CHECKING:
    from textfair.report.model import AuditReport

__all__ = [
    "INTERVALS",
    "holds_words",
    "intervals_statement",
    "left_out_words",
    "reading_notes",
    "repr_line",
    "run_words",
    "strict_words",
    "summary",
    "world_words",
]

# What a finding's interval covers and how significance is read: the one statement every
# surface prints (terminal, report.md, the page) and the docs repeat. True to the statistics:
# discovery.groups gives each rule set a `confidence` interval of its own (bounded_mean, or
# Newcombe's in paper mode), and adjusts the p-values of all rule sets with `correction`.
INTERVALS = (
    "Each interval holds at {confidence}% for its own rule set{not_all}; "
    "a rule set is significant when its p-value, {adjusted}, is at most {alpha}."
)


def summary(report: AuditReport) -> str:
    """The verdict, in words: what `AuditReport.summary` documents, part by part."""
    parts = [_gate_verdict(report), coverage_verdict(report)]
    if report.templates is None:
        parts.append(section_summary(report))
    else:
        parts.append(f"On your texts: {section_summary(report, on_texts=True)}")
        parts.append(f"On templates: {section_summary(report.templates)}")
    return " ".join(part for part in parts if part)


def section_summary(report: AuditReport, on_texts: bool = False) -> str:
    """One section's verdict (`on_texts`: the corpus's beside templates, which says why it
    tested nothing where it did not)."""
    if on_texts and not report.findings and report.data.get("nothing_tested"):
        return f"nothing tested: {report.data['nothing_tested']}."
    parts = [_groups_verdict(report), _causal_verdict(report)]
    parts.append(_strict_verdict(report))
    parts.append(_labels_verdict(report))
    return " ".join(part for part in parts if part)


def _gate_verdict(report: AuditReport) -> str:
    gate = report.gate
    required = list(report.extra.get("require") or ())
    if gate is None and not required:
        return ""
    untested = report.untested(required)
    if untested and not any(c.tested for c in report.coverage()):
        return "FAIL: nothing was tested, so the gate cannot pass."
    failing = report.failing(gate) if gate is not None else ()
    if untested and not failing:
        return f"FAIL: {and_(list(untested))} not tested (--require)."
    if gate is None:
        return "PASS: every required category was tested."
    if failing:
        named = ", ".join(
            f"{report.label(f.rule_set)} {difference(f.difference, f.ci)} "
            f"({'favoured' if f.difference > 0 else 'disadvantaged'})"
            for f in failing[:3]
        )
        more = f" and {len(failing) - 3} more" if len(failing) > 3 else ""
        return (
            f"FAIL: {len(failing)} significant difference{'s' if len(failing) > 1 else ''} "
            f"larger than the gate of {gate.describe()}, either way (--fail-above {gate}): "
            f"{named}{more}."
        )
    return f"PASS: no significant difference larger than the gate of {gate.describe()}, either way."


def _groups_verdict(report: AuditReport) -> str:
    """The rule sets' sentences, by rules `tests/unit/report/test_verdict_rules.py`
    enumerates: no rule set (with why); none significant; disadvantaged only, favoured
    only, or both; each count in the right number."""
    model = report.model.id or "the model"
    if not report.settings.group:
        # `textfair causal`: no rule set was tested, so none is counted.
        return f"{model}: causal tests only."
    if not report.findings:
        return f"{model}: no rule set tested. {no_rule_set(report)}".rstrip()
    head = (
        f"{model}: {counted(len(report.findings), 'rule set')}, "
        f"{len(report.significant)} significant after correction"
    )
    # Named from the folded list (a table's nested bins are one finding), counted in full.
    shown = [f for f, _ in report.shown_findings() if f.significant]
    harmed = [f for f in shown if f.difference < 0]
    favoured = [f for f in shown if f.difference > 0]
    if not report.significant:
        sentences = [f"{head}; no significant difference between groups."]
    else:
        sentences = [f"{head}."]
    if not harmed:
        sentences.append(_none_harmed(report, favoured))
    label = report.model.favorable or "favourable"
    for name, found in (("Disadvantaged", harmed), ("Favoured", favoured)):
        if found:
            said = "; ".join(_in_words(report, f, label) for f in found[:2])
            more = f" (and {len(found) - 2} more)" if len(found) > 2 else ""
            sentences.append(f"{name}: {said}{more}.")
    return " ".join(sentences)


def _none_harmed(report: AuditReport, favoured: list[Finding]) -> str:
    """What the verdict says when no group is significantly disadvantaged: the group that
    fares worst, with what keeps it from a finding (unless its interval spans nearly
    everything: then it says nothing worth citing). Beside a favoured group it never says
    that no one fares worse: a favoured group is one the others fare worse beside."""
    inputs = report.inputs
    worse = [f for f in report.findings if f.difference < 0]
    worst = next((f for f in worse if informative(f.ci)), None)
    if favoured:
        them = "one" if len(favoured) == 1 else "ones"
        lead = (
            f"No group's {inputs} fare significantly worse on their own; {inputs} with the "
            f"other terms fare worse only beside the favoured {them} below."
        )
    else:
        lead = f"No group's {inputs} fare significantly worse."
    if not worse:
        return lead if favoured else f"No group's {inputs} fare worse."
    if worst is None:
        return (
            f"{lead} The {counted(len(worse), 'rule set')} that fare"
            f"{'s' if len(worse) == 1 else ''} worse rest{'s' if len(worse) == 1 else ''} "
            f"on too few {report.unit} (at most {max(f.n_r for f in worse)}) for an "
            "informative interval."
        )
    why = (
        f"its interval excludes 0, but its p-value adjusted with "
        f"{report.correction_name} over {counted(len(report.findings), 'test')} is "
        f"{worst.p_adjusted:.3g}"
        if worst.credible_bound != 0
        else "its interval holds 0"
    )
    label = report.model.favorable or "favourable"
    return (
        f"{lead} The most disadvantaged: {_in_words(report, worst, label)} "
        f"(not significant: {why})."
    )


def _in_words(report: AuditReport, finding: Finding, label: str) -> str:
    """ "texts that mention gay are judged non-toxic 32.1 points less often than the same
    texts with another sexual orientation term, -32.1 [-39.6, -22.4] points" (rows: "rows with
    sex ∈ Male get ..."). The words give the direction and the size; the numbers in
    brackets are the table's, signs kept (`numbers.difference`)."""
    rules = list(RuleSet(finding.rule_set))
    named = [report.label(RuleSet((rule,)))[1:-1].strip('"') for rule in rules]
    word = "less" if finding.difference < 0 else "more"
    size = f"{abs(100 * finding.difference):.1f} points {word} often than"
    if finding.difference == 0:
        size = "as often as"
    said = f", {difference(finding.difference, finding.ci)} points"
    if report.kind == "rows":
        return (
            f"rows with {' and '.join(named)} get {label} {size} the same rows with "
            f"other values{said}"
        )
    axes = " and ".join(dict.fromkeys(report.axis(rule) for rule in rules))
    other = f"another {axes} term" if len(rules) == 1 else f"other {axes} terms"
    return (
        f"texts that mention {' and '.join(named)} are judged {label} {size} the "
        f"same texts with {other}{said}"
    )


def _strict_verdict(report: AuditReport) -> str:
    """Whether the significant findings hold on the seeds whose variants a strict reader
    would accept, with their variants' mean acceptability; those that do not are named
    with why. Empty when no significant finding was scored for acceptability."""
    scored = [f for f, _ in report.shown_findings() if f.significant and f.strict is not None]
    if not scored:
        return ""
    level = f"{report.strict_level or STRICT_ACCEPTABILITY:g}"
    mean = [f.acceptability for f in scored if f.acceptability is not None]
    acceptability = (
        f"; their variants' mean acceptability {sum(mean) / len(mean):.2f}" if mean else ""
    )
    doubtful = report.doubtful(scored)
    if not doubtful:
        every = "it holds" if len(scored) == 1 else f"all {len(scored)} hold"
        return (
            f"Checked on the {report.unit} whose variants a strict reader would accept "
            f"(all scoring at least {level}), {every}{acceptability}."
        )
    # Named without the why (the notes under the table give it): the verdict stays short.
    named = ", ".join(report.label(f.rule_set) for f in doubtful[:3])
    more = f" and {len(doubtful) - 3} more" if len(doubtful) > 3 else ""
    none = all(f.strict is not None and f.strict.n == 0 for f in doubtful)
    why = f" (none of their {report.unit} has every variant at that level)" if none else ""
    return (
        f"{len(doubtful)} of {counted(len(scored), 'significant finding')} "
        f"{agrees(len(doubtful), 'does', 'do')} not hold on the "
        f"{report.unit} whose variants a strict reader would accept (all scoring at least "
        f"{level}{acceptability}), so they rest partly on doubtful text: {named}{more}{why}."
    )


def _labels_verdict(report: AuditReport) -> str:
    """The label metrics' sentence: the AUCs significantly below the overall AUC, signed
    with their intervals (empty when none is; see report.labelwords.gap_sentence)."""
    return gap_sentence(report.metrics) if isinstance(report.metrics, LabelMetrics) else ""


def reading_notes(report: AuditReport, top: int | None = None) -> list[str]:
    """Sentences that keep a reader from misreading the findings table (of the `top`
    shown): why an interval that excludes 0 can be not significant, and which findings
    rest on few seeds."""
    notes = []
    shown = report.shown_findings()
    if len(shown) < len(report.findings):
        notes.append(
            f"{len(report.findings) - len(shown)} of {len(report.findings)} rule sets "
            f"{agrees(len(report.findings) - len(shown), 'is', 'are')} "
            "folded into a more credible one with the same direction that differs only "
            "by a run of bins of one feature, nested in its own and sharing an end "
            "('+N nested'); report.json lists every rule set."
        )
    excluding = [f for f in report.findings if f.credible_bound != 0 and not f.significant]
    if excluding and report.settings.correction in CORRECTION_NAMES:
        notes.append(
            f"{len(excluding)} of {counted(len(report.findings), 'rule set')} "
            f"{agrees(len(excluding), 'has', 'have')} an interval that excludes 0 but "
            f"{agrees(len(excluding), 'is', 'are')} not significant after "
            f"{report.correction_name} over {counted(len(report.findings), 'test')}: see "
            "what an interval covers, above."
        )
    # Why a category (or every one) has no rule set: one sentence each, as the verdict
    # and `findings_frame().attrs["untested"]` give it.
    notes += list(dict.fromkeys(untested_reasons(report).values()))
    few = [
        c
        for c in (report.counterfactual.causal if report.counterfactual else ())
        if c.n < SMALL_SAMPLE
    ]
    if few:
        notes.append(
            f"{counted(len(few), 'causal test')} {agrees(len(few), 'rests', 'rest')} on "
            f"fewer than {SMALL_SAMPLE} {report.inputs}: "
            f"{agrees(len(few), 'its flip-rate interval is', 'their flip-rate intervals are')} "
            "wide."
        )
    listed = [f for f, _ in report.listed_findings(top)]
    doubtful = report.doubtful(listed)
    if doubtful:
        notes.append(
            f"{counted(len(doubtful), 'rule set')} shown (marked ?) "
            f"{agrees(len(doubtful), 'does', 'do')} not hold on the {report.unit} "
            "whose variants a strict reader would accept (all scoring at least "
            f"{report.strict_level or STRICT_ACCEPTABILITY:g}): "
            f"{agrees(len(doubtful), 'it rests', 'they rest')} partly on text "
            "that may no longer say what its seed said; "
            + "; ".join(
                f"{report.label(f.rule_set)} {strict_words(report, f)}" for f in doubtful[:3]
            )
            + (f" (and {len(doubtful) - 3} more)" if len(doubtful) > 3 else "")
            + "."
        )
    small = [f for f in listed if report.small(f)]
    if small:
        notes.append(
            f"{counted(len(small), 'rule set')} shown {agrees(len(small), 'rests', 'rest')} "
            f"on fewer than {SMALL_SAMPLE} {report.unit} (marked !): "
            + agrees(
                len(small),
                "its interval is wide and its difference unreliable; audit more data in "
                "which it occurs.",
                "their intervals are wide and their differences unreliable; audit more data "
                "in which they occur.",
            )
        )
    world = world_words(report, listed)
    return [*notes, world] if world else notes


def world_words(report: AuditReport, findings: list[Finding]) -> str:
    """Which of `findings` rest partly on variants about a real, named person or work,
    counted apart (WORLD, issue 56): "Counted apart: {name_gender: female name}: 40 seeds,
    of which 12 rest on a real named person or work (WORLD); ...". Empty where none does."""
    flagged = [f for f in findings if f.world]
    if not flagged:
        return ""
    each = "; ".join(
        f"{report.label(f.rule_set)}: {counted(f.n_r, report.unit[:-1])}, of which "
        f"{f.world:,} {agrees(f.world or 0, 'rests', 'rest')} on a real named person or "
        "work (WORLD)"
        for f in flagged[:3]
    )
    more = f" (and {len(flagged) - 3} more rule sets)" if len(flagged) > 3 else ""
    return (
        f"Counted apart: {each}{more}. Their variants rename a person named in full, a "
        "character of a film or a first name the text does not show to be a private "
        "person's: coherent, perhaps false about that person, and still a valid test of "
        "whether the decision depends on the name."
    )


def run_words(report: AuditReport) -> str:
    """What a section cost the model, in the words the terminal and report.md both use, so
    that the counts add up: "3,047 model queries for 19,597 texts requested: 3,047
    distinct, 16,550 repeats answered from memory". A rerun over a cache file says how
    many distinct inputs the file answered (a rerun asks the model nothing: "0 model
    queries ... 3,047 distinct, all answered from an earlier run's cache")."""
    run = report.run
    # Each distinct input is forwarded to the model or read from the cache file, once.
    earlier = max(run.unique_inputs - run.model_queries, 0)
    from_file = ""
    if earlier:
        many = "all" if earlier == run.unique_inputs else f"{earlier:,} of them"
        from_file = f" ({many} answered from an earlier run's cache)"
    return (
        f"{run.queries()} for {run.requested:,} {report.inputs} requested: "
        f"{run.unique_inputs:,} distinct{from_file}, {run.cache_hits:,} repeats answered "
        "from memory"
    )


def left_out_words(report: AuditReport, top: int | None) -> str:
    """What `AuditReport.left_out_words` documents: the rule sets a table of `top` rows
    left out (every one not significant, since every significant one is listed)."""
    left = len(report.shown_findings()) - len(report.listed_findings(top))
    if not left:
        return ""
    are = "is" if left == 1 else "are"
    # Where every rule set is: report.json, and the page's table (all of them, folded).
    return (
        f"{counted(left, 'more rule set')}, none significant, {are} in report.json and on "
        "the page (report.html)."
    )


def holds_words(report: AuditReport, finding: Finding) -> str:
    """Whether a finding holds on its high-scoring seeds, in plain words for a table
    cell: "yes", "no: too few seeds", "no: interval holds 0", "no: other direction", or
    "–" where there is nothing to hold (its own interval holds 0) or no score."""
    holds = report.holds_strictly(finding)
    if holds is None or finding.strict is None:
        return "–"
    if holds:
        return "yes"
    if finding.strict.n < SMALL_SAMPLE:
        return f"no: too few {report.unit}"
    low, high = finding.strict.ci
    return "no: interval holds 0" if low <= 0 <= high else "no: other direction"


def strict_words(report: AuditReport, finding: Finding) -> str:
    """Why a flagged finding does not hold on its high-scoring seeds, in plain words:
    "on the 12 seeds whose variants all score at least 0.7, too few to tell" or "on
    the 64 seeds whose variants all score at least 0.7, -1.2 [-6.0, +3.6] points:
    its interval holds 0". Empty for a finding without a strict result."""
    strict = finding.strict
    if strict is None:
        return ""
    if strict.n == 0:
        return f"(none of its {report.unit} has every variant scoring at least {strict.level:g})"
    on = f"on the {strict.n} {report.unit} whose variants all score at least {strict.level:g}"
    if strict.n < SMALL_SAMPLE:
        return f"{on}, too few (under {SMALL_SAMPLE}) to tell"
    said = f"{on}, {difference(strict.estimate, strict.ci)} points"
    if strict.ci[0] <= 0 <= strict.ci[1]:
        return f"{said}: its interval holds 0"
    return f"{said}: the other direction"


def intervals_statement(report: AuditReport) -> str:
    """What a finding's interval covers and how significance is read, in one sentence
    (`INTERVALS` with this audit's confidence, correction and number of tests): the
    terminal, report.md and the page print it under the findings."""
    confidence = report.settings.confidence
    tests = len(report.findings)
    over = f"all {tests}" if tests > 1 else counted(tests, "test")
    adjusted = (
        f"adjusted with {report.correction_name} over {over}"
        if report.settings.correction in CORRECTION_NAMES
        else f"not adjusted for the {counted(tests, 'test')}"
    )
    return INTERVALS.format(
        confidence=f"{100 * confidence:g}",
        not_all=f", not for all {tests} at once" if tests > 1 else "",
        adjusted=adjusted,
        alpha=f"{1 - confidence:.3g}",
    )


def repr_line(report: AuditReport) -> str:
    """One line: what was audited and the verdict's head (`print(report)` in a notebook
    is not the whole report; `summary()`, `findings_frame()` and `save()` are)."""
    head = _groups_verdict(report).split(". ")[0].split(": ", 1)[-1]
    if len(head) > 240:
        head = head[:239] + "…"
    return f"<AuditReport {report.kind} of {report.model.id or 'a model'}: {head}>"
