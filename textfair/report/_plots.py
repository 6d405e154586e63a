"""The report's plots, drawn with matplotlib as inline SVG.

matplotlib is made for this, installs offline as an ordinary wheel, and writes SVG that a
page can hold inline: no script, no network, text kept as text (searchable, small). The
SVG is made deterministic (fixed id salt, no date), so a saved report renders byte for byte
the same again. Colours are the Okabe-Ito palette, safe for colour-blind readers. The
heatmaps, a number in each of hundreds of cells, are written by hand (`_heatmap`): 25 times
faster than matplotlib lays out that many texts.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")  # no display: figures are only ever written to SVG

import matplotlib.pyplot as plt
import numpy as np

from textfair.report._heatmap import heatmap
from textfair.report._labels import wrap_label

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

__all__ = ["before_after", "forest", "heatmap", "methods_tradeoff", "rates", "tradeoff"]

BLUE, ORANGE, VERMILLION, GREY = "#0072B2", "#E69F00", "#D55E00", "#6b6b6b"
_STYLE: dict[RcKeyType, Any] = {
    "svg.hashsalt": "textfair",
    "svg.fonttype": "none",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def _svg(figure: Figure, description: str) -> str:
    """The figure as an inline <svg> that says what it shows to a screen reader."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = buffer.getvalue()
    svg = text[text.index("<svg") :]
    label = description.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)


def forest(
    labels: Sequence[str],
    estimates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    significant: Sequence[bool],
    *,
    thresholds: Sequence[float | None] | None = None,
    description: str,
    outcome: str = "favourable",
) -> str:
    """Differences of the `outcome` rate (points) with their intervals (bars), top first;
    significant ones filled, the others hollow; the --fail-above gate either side: a line
    when one threshold holds for every row, else a tick on each gated row."""
    count = len(labels)
    # A row is as tall as its label's lines.
    heights = [_wrapped(label).count("\n") + 1 for label in labels]
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(7.5, 0.2 * sum(heights) + 0.12 * count + 1.0))
        # Centres, top row highest, each row given as many units as its label has lines.
        y = sum(heights) - (np.cumsum(heights) - np.asarray(heights) / 2)
        for row, estimate, (low, high), marked in zip(
            y, estimates, intervals, significant, strict=True
        ):
            colour = VERMILLION if marked else GREY
            axes.plot([100 * low, 100 * high], [row, row], color=colour, linewidth=1.6)
            axes.plot(
                100 * estimate,
                row,
                "o",
                color=colour,
                markerfacecolor=colour if marked else "white",
                markersize=5,
            )
        axes.axvline(0, color="black", linewidth=0.8)
        gated = [t for t in thresholds or () if t is not None]
        if gated and len(gated) == count and len(set(gated)) == 1:
            for side in (-1, 1):
                axes.axvline(100 * side * gated[0], color=ORANGE, linestyle="--", linewidth=1)
        elif gated and thresholds is not None:  # (`gated` comes from `thresholds`)
            for row, limit in zip(y, thresholds, strict=True):
                if limit is not None:
                    for side in (-1, 1):
                        axes.plot(100 * side * limit, row, "|", color=ORANGE, markersize=11)
        axes.set_yticks(y, [_wrapped(label) for label in labels])
        axes.set_xlabel(f"difference of the {outcome} rate, percentage points (interval)")
        return _svg(figure, description)


def before_after(
    labels: Sequence[str],
    before: Sequence[tuple[float, tuple[float, float], bool] | None],
    after: Sequence[tuple[float, tuple[float, float], bool] | None],
    *,
    description: str,
    outcome: str = "favourable",
) -> str:
    """Each rule set's signed difference of the `outcome` rate before (grey, above) and
    after (blue, below) with intervals, in points; significant ones filled. A side that was
    not tested is left out."""
    count = len(labels)
    heights = [_wrapped(label).count("\n") + 1 for label in labels]
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(7.5, 0.2 * sum(heights) + 0.3 * count + 1.2))
        y = sum(heights) - (np.cumsum(heights) - np.asarray(heights) / 2)
        for name, sides, offset, colour in (
            ("before", before, 0.18, GREY),
            ("after", after, -0.18, BLUE),
        ):
            first = True
            for row, side in zip(y, sides, strict=True):
                if side is None:
                    continue
                estimate, (low, high), marked = side
                axes.plot([100 * low, 100 * high], [row + offset] * 2, color=colour, lw=1.6)
                axes.plot(
                    100 * estimate,
                    row + offset,
                    "o",
                    color=colour,
                    markerfacecolor=colour if marked else "white",
                    markersize=5,
                    label=name if first else None,
                )
                first = False
        axes.axvline(0, color="black", linewidth=0.8)
        axes.set_yticks(y, [_wrapped(label) for label in labels])
        axes.set_xlabel(f"difference of the {outcome} rate, percentage points (interval)")
        axes.legend(loc="best", frameon=False)
        return _svg(figure, description)


def rates(
    terms: Sequence[str],
    values: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    *,
    description: str,
) -> str:
    """Favourable rate per term, with intervals, lowest first."""
    order = np.argsort(values, kind="stable")
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(6.5, 0.28 * len(terms) + 0.9))
        for row, index in enumerate(order):
            low, high = intervals[index]
            axes.plot([100 * low, 100 * high], [row, row], color=BLUE, linewidth=1.6)
            axes.plot(100 * values[index], row, "o", color=BLUE, markersize=4)
        axes.set_yticks(range(len(terms)), [terms[i] for i in order])
        axes.set_xlabel("favourable rate, % (interval)")
        return _svg(figure, description)


def tradeoff(
    added: Sequence[int],
    scores: Sequence[float],
    accuracies: Sequence[float],
    *,
    chosen: int | None,
    description: str,
) -> str:
    """Each retraining step's target score against its held-out accuracy, labelled with the
    augmentation rows it added; the kept step circled."""
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(6, 3.6))
        axes.plot(
            [100 * a for a in accuracies],
            [100 * s for s in scores],
            "-o",
            color=BLUE,
            markersize=4,
        )
        for a, s, n in zip(accuracies, scores, added, strict=True):
            axes.annotate(str(n), (100 * a, 100 * s), textcoords="offset points", xytext=(4, 4))
        if chosen is not None:
            axes.plot(
                100 * accuracies[chosen],
                100 * scores[chosen],
                "o",
                markersize=12,
                markerfacecolor="none",
                markeredgecolor=VERMILLION,
            )
        axes.set_xlabel("held-out accuracy, %")
        axes.set_ylabel("target score, %")
        return _svg(figure, description)


def _wrapped(label: str, width: int = 44) -> str:
    """A long tick label over several lines, never cut (see `wrap_label`)."""
    return "\n".join(wrap_label(label, width))


def methods_tradeoff(
    names: Sequence[str],
    accuracies: Sequence[float],
    accuracy_intervals: Sequence[tuple[float, float]],
    worst: Sequence[float],
    worst_intervals: Sequence[tuple[float, float]],
    front: Sequence[str],
    *,
    description: str,
) -> str:
    """Each mitigation method as a point: held-out accuracy against its worst target's
    |difference|, both with intervals; the Pareto front joined and its points filled."""
    with plt.rc_context(_STYLE):
        figure, axes = plt.subplots(figsize=(6.5, 4.0))
        for name, a, (a_low, a_high), w, (w_low, w_high) in zip(
            names, accuracies, accuracy_intervals, worst, worst_intervals, strict=True
        ):
            on_front = name in front
            colour = VERMILLION if on_front else GREY
            axes.plot([100 * a_low, 100 * a_high], [100 * w, 100 * w], color=colour, lw=1)
            axes.plot([100 * a, 100 * a], [100 * w_low, 100 * w_high], color=colour, lw=1)
            axes.plot(
                100 * a,
                100 * w,
                "o",
                color=colour,
                markerfacecolor=colour if on_front else "white",
                markersize=6,
            )
            axes.annotate(name, (100 * a, 100 * w), textcoords="offset points", xytext=(5, 5))
        points = sorted(
            (100 * a, 100 * w)
            for name, a, w in zip(names, accuracies, worst, strict=True)
            if name in front
        )
        if len(points) > 1:
            axes.plot(*zip(*points, strict=True), color=VERMILLION, linestyle="--", lw=1)
        axes.set_xlabel("held-out accuracy, % (interval)")
        axes.set_ylabel("worst target |difference|, points (interval)")
        return _svg(figure, description)
