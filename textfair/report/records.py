"""report.json, field by field: an AuditReport and each of its parts written as JSON and
read back (`AuditReport.to_dict` and `from_dict` are `report_record` and
`report_from_record`), and the format's version.

NaN (an AUC with one class, a gap with no negatives) is written as null and read back as NaN;
tuples are written as lists. Reports written before version 2 carry no "kind": rule sets
that name features are rows.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, fields
from typing import TYPE_CHECKING, Any

from textfair.core.rules import RuleSet
from textfair.discovery.acceptable import Strict
from textfair.discovery.keptpairs import PairsLeftOut
from textfair.discovery.results import CausalScore, Excess, GroupScore, PairShift
from textfair.errors import InputNote, TextfairError
from textfair.report._jsonvalues import _number, _pair_or_none, finite
from textfair.report._metricsrecords import metrics_record, read_metrics
from textfair.report.parts import (
    Counterfactual,
    Finding,
    Kind,
    ModelInfo,
    RunStats,
)

# Only a type here: the model calls these functions (to_dict, from_dict), and builds the
# report from the class it passes.
if TYPE_CHECKING:
    from textfair.report.model import AuditReport

# 2: "kind" and "report_version" written; rule sets read back through RuleSet.
# 3: causal tests, group scores and term pairs carry a placebo edit's rates ("excess").
# 4: each finding carries its signed "difference" (phi_r - phi_not_r) beside the unsigned
#    "score"; data["term_axes"] records the axis of terms whose category has several.
# 5: each finding and term pair carries the mean "acceptability" of its variants and its
#    "strict" result on the seeds whose variants all score at least config's
#    "strict_acceptability" (null without scores); versions 3 and 4 read with None.
#    Compatible later: the counterfactual may carry "term_pairs_left_out" (a category with
#    more term pairs than are kept in full); a report without it reads as none left out.
#    Each finding may carry "world" (of its seeds, those whose variants rest on a real,
#    named person or work: WORLD, issue 56); a report without it reads with None.
#    Compatible later: a paired finding's seed rows, "seeds" and "differences" (compare).
#    Compatible later: a text audit's causal score's seed rows, "seeds" and "seed_flips"
#    (0 or 1 per seed: compare); a report without them reads with None.
#    A later version that only adds what an older reader may ignore says so by writing
#    "compatible_with": the oldest version able to read it (see check_version).
REPORT_VERSION = 5


def report_record(report: AuditReport) -> dict[str, Any]:
    """report.json as a JSON-ready dict (NaN written as null): the keys
    `AuditReport.to_dict` documents."""
    return finite(
        {
            "report_version": report.report_version,
            "kind": report.kind,
            "textfair_version": report.textfair_version,
            "command": report.command,
            "seed": report.seed,
            "model": {**asdict(report.model), "labels": list(report.model.labels)},
            "data": report.data,
            "config": report.config,
            "rule_sets_tested": len(report.findings),
            "findings": [finding_record(f, report.kind) for f in report.findings],
            "counterfactual": counterfactual_record(report.counterfactual),
            "metrics": metrics_record(report.metrics),
            "run": asdict(report.run),
            **report.extra,
            **({"templates": report_record(report.templates)} if report.templates else {}),
        }
    )


def report_from_record(cls: type[AuditReport], record: object) -> AuditReport:
    """A report of class `cls` read from what `report_record` wrote (or report.json); a
    one-line error otherwise: `AuditReport.from_dict`.

    Parameters
    ----------
    cls
        `AuditReport`.
    record
        The dict `report_record` returned, or the object a report.json holds. Keys a
        newer writer added are kept in `extra`.

    Raises
    ------
    TextfairError
        `record` is not a dict with ``findings`` and ``model``, or it is incomplete or
        malformed.
    """
    if not isinstance(record, dict) or "findings" not in record or "model" not in record:
        raise TextfairError(
            f"a {type(record).__name__} is not an audit report; expected the object in "
            "a report.json written by textfair audit"
        )
    check_version(record, REPORT_VERSION)
    try:
        kind = record.get("kind") or kind_of_version_1(record)
        read_keys = {f.name for f in fields(cls)} | {"rule_sets_tested", "compatible_with"}
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
            findings=tuple(read_finding(f, kind) for f in record["findings"]),
            counterfactual=read_counterfactual(record.get("counterfactual")),
            metrics=read_metrics(record.get("metrics")),
            run=RunStats(**record["run"]),
            seed=int(record.get("seed", 0)),
            command=record.get("command", ""),
            textfair_version=record.get("textfair_version", ""),
            report_version=int(record.get("report_version", 1)),
            extra={k: v for k, v in record.items() if k not in read_keys},
            templates=(
                report_from_record(cls, record["templates"]) if record.get("templates") else None
            ),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise TextfairError(
            f"the report is incomplete or malformed ({type(err).__name__}: {err}); "
            "expected a report.json written by textfair audit"
        ) from None


def kind_of_version_1(record: dict) -> Kind:
    """Reports written before version 2 say nothing of their kind: rows name features."""
    for finding in record["findings"]:
        return "rows" if "feature" in finding["rule_set"][0] else "text"
    return "rows" if "label_column" in (record.get("data") or {}) else "text"


def finding_record(finding: Finding, kind: Kind) -> dict[str, Any]:
    return {
        "rule_set": RuleSet(finding.rule_set).to_records(kind),
        "phi_r": finding.phi_r,
        "phi_not_r": finding.phi_not_r,
        # Signed, as every view prints it and as `ci` bounds it (version 4); `score` is
        # TestSGD's |difference|.
        "difference": finding.difference,
        "score": finding.score,
        "margin": finding.margin,
        "ci": list(finding.ci),
        "credible_bound": finding.credible_bound,
        "p_value": finding.p_value,
        "p_adjusted": finding.p_adjusted,
        "significant": finding.significant,
        "n_r": finding.n_r,
        "n_not_r": finding.n_not_r,
        "support": finding.support,
        "examples": finding.examples,
        # Version 5: how much the finding rests on text a strict reader would reject.
        "acceptability": finding.acceptability,
        "strict": strict_record(finding.strict),
        # Compatible with 5: of its seeds, those whose variants rest on a real, named
        # person or work (WORLD, counted apart); null where the domain flags none.
        "world": finding.world,
        # Paired mode: each seed read and its difference (`textfair.compare`), exact.
        **({"seeds": list(finding.seeds)} if finding.seeds else {}),
        **({"differences": list(finding.differences)} if finding.seeds else {}),
    }


def strict_record(strict: Strict | None) -> dict | None:
    """A `Strict` result as report.json writes it (null: the domain scores no variant)."""
    return None if strict is None else {**asdict(strict), "ci": list(strict.ci)}


def read_strict(record: dict | None) -> Strict | None:
    """A `Strict` result as written; None for reports before version 5."""
    if record is None:
        return None
    return Strict(
        level=_number(record["level"]),
        estimate=_number(record["estimate"]),
        ci=(_number(record["ci"][0]), _number(record["ci"][1])),
        n=int(record["n"]),
        p_value=_number(record.get("p_value")),
    )


def read_finding(record: dict, kind: Kind) -> Finding:
    """A finding as `finding_record` wrote it, of any version: the signed ``difference``
    (version 4) is phi_r - phi_not_r, so a report of version 3, without it, reads the same;
    one before version 5 has no ``acceptability`` or ``strict`` (None)."""
    return Finding(
        rule_set=RuleSet.from_records(record["rule_set"], kind),
        phi_r=_number(record["phi_r"]),
        phi_not_r=_number(record["phi_not_r"]),
        score=_number(record["score"]),
        margin=_number(record["margin"]),
        ci=tuple(_number(x) for x in record["ci"]),
        p_value=_number(record["p_value"]),
        n_r=int(record["n_r"]),
        n_not_r=int(record["n_not_r"]),
        support=_number(record["support"]),
        p_adjusted=_number(record["p_adjusted"]),
        significant=bool(record["significant"]),
        examples=list(record.get("examples", [])),
        acceptability=_number_or_none(record.get("acceptability")),
        strict=read_strict(record.get("strict")),
        world=None if record.get("world") is None else int(record["world"]),
        seeds=tuple(int(x) for x in record.get("seeds", ())),
        differences=tuple(_number(x) for x in record.get("differences", ())),
    )


def _number_or_none(value: Any) -> float | None:
    return None if value is None else float(value)


def _ints_or_none(values: Any) -> tuple[int, ...] | None:
    return None if values is None else tuple(int(x) for x in values)


def _known(result: type, record: dict) -> dict:
    """The keys of `record` that `result` (a dataclass) has: a key a later compatible version
    adds (as ``seeds_per_term`` was added to group scores) is ignored, not a TypeError."""
    names = {f.name for f in fields(result)}
    return {key: value for key, value in record.items() if key in names}


def check_version(record: dict, readable: int) -> None:
    """Refuse, in one line, a report written by a newer textfair than this one reads
    (`readable`: this code's REPORT_VERSION); read it with a note where the writer says the
    change is compatible (its "compatible_with" is at most `readable`)."""
    try:
        version = int(record.get("report_version", 1))
        compatible = int(record.get("compatible_with", version))
    except (TypeError, ValueError):
        raise TextfairError(
            f"report_version is {record.get('report_version')!r}; expected a whole number, "
            "as textfair audit writes it"
        ) from None
    if version <= readable:
        return
    if compatible <= readable:
        warnings.warn(
            f"the report is version {version}, newer than the {readable} this textfair "
            f"reads; its writer says version {compatible} readers can read it, so it is "
            "read without what is new (upgrade textfair to see everything)",
            InputNote,
            # The code that called AuditReport.read: past this function,
            # report_from_record, files.read_report and the method.
            stacklevel=5,
        )
        return
    raise TextfairError(
        f"the report is version {version}, newer than the {readable} this textfair reads; "
        "upgrade textfair (pip install --upgrade textfair) to read it"
    )


def counterfactual_record(result: Counterfactual | None) -> dict | None:
    if result is None:
        return None
    return {
        "causal": [
            {
                "categories": list(c.categories),
                "flip_rate": c.score,
                "ci": list(c.ci),
                "flips": c.flips,
                "n": c.n,
                "edited": c.edited,
                "excess": _excess_record(c.excess),
                # Text audits: each seed sampled and whether it flipped (`textfair.compare`).
                **({"seeds": list(c.seeds)} if c.seeds is not None else {}),
                **({"seed_flips": list(c.seed_flips)} if c.seed_flips is not None else {}),
            }
            for c in result.causal
        ],
        "group": [{**asdict(g), "strict": strict_record(g.strict)} for g in result.group],
        "term_pairs": [{**asdict(p), "strict": strict_record(p.strict)} for p in result.term_pairs],
        "tests_run": result.tests_run,
        "tests_without_pruning": result.tests_without_pruning,
        "pruned": [list(c) for c in result.pruned],
        # Only where a category's pairs were not all kept: a report of a list whose pairs
        # all fit is the same as before the key existed.
        **(
            {"term_pairs_left_out": [asdict(c) for c in result.term_pairs_left_out]}
            if result.term_pairs_left_out
            else {}
        ),
    }


def read_counterfactual(record: dict | None) -> Counterfactual | None:
    if record is None:
        return None
    return Counterfactual(
        causal=tuple(
            CausalScore(
                tuple(c["categories"]),
                _number(c["flip_rate"]),
                tuple(_number(x) for x in c["ci"]),
                int(c["flips"]),
                int(c["n"]),
                _read_excess(c.get("excess")),
                None if c.get("edited") is None else int(c["edited"]),
                seeds=_ints_or_none(c.get("seeds")),
                seed_flips=_ints_or_none(c.get("seed_flips")),
            )
            for c in record["causal"]
        ),
        group=tuple(
            GroupScore(
                **{
                    **_known(GroupScore, g),
                    "excess": _read_excess(g.get("excess")),
                    "strict": read_strict(g.get("strict")),
                }
            )
            for g in record["group"]
        ),
        term_pairs=tuple(
            PairShift(
                **{
                    **_known(PairShift, p),
                    "flip_ci": tuple(_number(x) for x in p["flip_ci"]),
                    "shift_ci": tuple(_number(x) for x in p["shift_ci"]),
                    "excess": _read_excess(p.get("excess")),
                    "excess_shift_ci": _pair_or_none(p.get("excess_shift_ci")),
                    "strict": read_strict(p.get("strict")),
                }
            )
            for p in record["term_pairs"]
        ),
        tests_run=int(record["tests_run"]),
        tests_without_pruning=int(record["tests_without_pruning"]),
        pruned=tuple(tuple(c) for c in record.get("pruned", [])),
        term_pairs_left_out=tuple(PairsLeftOut(**c) for c in record.get("term_pairs_left_out", [])),
    )


def _excess_record(excess: Excess | None) -> dict | None:
    return None if excess is None else {**asdict(excess), "ci": list(excess.ci)}


def _read_excess(record: dict | None) -> Excess | None:
    """An `Excess` as written; None for reports before version 3 (no placebo edits)."""
    if record is None:
        return None
    return Excess(
        **{
            **record,
            "ci": tuple(_number(x) for x in record["ci"]),
            "p_value": _number(record["p_value"]),
            "p_adjusted": _number(record["p_adjusted"]),
        }
    )
