"""The report in a notebook: the findings as a pandas DataFrame, and the views Jupyter shows
for a report left at the end of a cell (`_repr_markdown_`, `_repr_html_`).

Apart from the report's data (`textfair.report.model`), whose methods delegate here: the
views call the renderers and pandas, which the data never imports.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from textfair.report._hints import untested_reasons
from textfair.report.markdown import render_markdown

if TYPE_CHECKING:
    import pandas as pd

    from textfair.report.model import AuditReport

__all__ = ["findings_frame", "html_view", "markdown_view"]


def findings_frame(report: AuditReport) -> pd.DataFrame:
    r"""The findings as a pandas DataFrame, most credible first, in the words of the
    model's labels: the columns `AuditReport.findings_frame` documents."""
    import pandas as pd

    label = report.model.favorable or "favourable"
    own = "rows" if report.kind == "rows" else "texts"
    sections = [(own, report)] + ([("templates", report.templates)] if report.templates else [])
    columns = [
        "section", "rule_set", f"{label}_rate_with", f"{label}_rate_without",
        "difference_points", "ci_low_points", "ci_high_points", "credible_bound_points",
        "p_adjusted", "significant", "seeds", "support", "acceptability",
        "strict_difference_points", "strict_ci_low_points", "strict_ci_high_points",
        "strict_seeds", "holds_strictly", "world_seeds",
    ]  # fmt: skip
    frame = pd.DataFrame(
        [
            {
                # Where the finding comes from: the corpus ("texts", "rows") or templates,
                # each section corrected on its own, never pooled.
                "section": name,
                "rule_set": section.label(f.rule_set),
                # Rates are fractions (0.486); every difference is in percentage points,
                # as every other surface prints it, and its columns say so.
                f"{label}_rate_with": f.phi_r,
                f"{label}_rate_without": f.phi_not_r,
                "difference_points": _points(f.difference),
                "ci_low_points": _points(f.ci[0]),
                "ci_high_points": _points(f.ci[1]),
                "credible_bound_points": _points(f.credible_bound),
                "p_adjusted": f.p_adjusted,
                "significant": f.significant,
                "seeds": f.n_r,
                "support": f.support,
                # How much it rests on doubtful text (None without scores).
                "acceptability": f.acceptability,
                "strict_difference_points": _points(f.strict.estimate) if f.strict else None,
                "strict_ci_low_points": _points(f.strict.ci[0]) if f.strict else None,
                "strict_ci_high_points": _points(f.strict.ci[1]) if f.strict else None,
                "strict_seeds": f.strict.n if f.strict else None,
                "holds_strictly": section.holds_strictly(f),
                # Of its seeds, those resting on a real, named person or work (WORLD).
                "world_seeds": f.world,
            }
            for name, section in sections
            for f in section.findings
        ],
        columns=columns,  # kept when there is no finding
    )
    # Why a frame is short or empty travels with it: the categories no rule set tested
    # and the reading notes (what the terminal prints under its table), per section.
    frame.attrs["untested"] = {name: untested_reasons(section) for name, section in sections}
    frame.attrs["notes"] = {name: section.reading_notes() for name, section in sections}
    return frame


def _points(fraction: float) -> float:
    """A difference in percentage points (a fraction times 100), unrounded."""
    return 100 * fraction


def markdown_view(report: AuditReport) -> str:
    """What Jupyter shows of a report as Markdown: report.md."""
    return render_markdown(report)


def html_view(report: AuditReport) -> str:
    """What Jupyter shows of a report as HTML: the verdict, then the ten most credible
    findings of `findings_frame`."""
    table = findings_frame(report).head(10).to_html(index=False, float_format="{:.3f}".format)
    return f"<p>{html.escape(report.summary())}</p>{table}"
