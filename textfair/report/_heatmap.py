"""The report's heatmaps, written as SVG by hand.

A term-pair matrix has one number per cell: drawn with matplotlib, each of a 25-term
category's 625 cells is a `Text` artist laid out twice (once for the tight bounding box,
once to write it), 1.6 s and 260 kB a figure; a page held four such figures. The grid is
simple enough to write directly: a rectangle and a number per cell, the terms along both
edges, a colour bar with its unit. It keeps what the matplotlib figure had: the colour
maps (PuOr for signed values, cividis for rates), light text on a dark cell, blank NaN
cells, percent on the cells and on the bar's ticks; and it is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from html import escape

import numpy as np
from matplotlib import colormaps
from matplotlib.font_manager import findfont, get_font
from matplotlib.ticker import MaxNLocator

__all__ = ["heatmap"]

# Sizes in points, as matplotlib's figures (9 pt text, 7 pt in the cells).
CELL_WIDTH, CELL_HEIGHT = 39.6, 25.2  # 0.55 by 0.35 inches
LABEL_SIZE, CELL_SIZE = 9.0, 7.0
BAR_WIDTH, BAR_GAP, BAR_STEPS = 11.0, 14.0, 64
MARGIN = 4.0
FONT = "'DejaVu Sans', 'Bitstream Vera Sans', Arial, sans-serif"


@cache
def _text_width(text: str, size: float) -> float:
    """The width of `text` in points at `size`, in the font matplotlib ships (DejaVu Sans):
    the margins are sized to the labels, never cut."""
    font = get_font(findfont("DejaVu Sans"))
    font.set_size(size, 72)
    font.set_text(text, 0.0)
    width, _ = font.get_width_height()
    return width / 64.0


def _colour(rgba: Sequence[float]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(255 * c) for c in rgba[:3]))


def _number(value: float) -> str:
    """An integer in percent, minus sign as matplotlib writes it."""
    text = f"{value:.0f}"
    return "0" if text == "-0" else text.replace("-", "\u2212")


def _f(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def heatmap(
    rows: Sequence[str],
    columns: Sequence[str],
    values: np.ndarray,
    *,
    unit: str,
    description: str,
    diverging: bool = True,
) -> str:
    """A matrix of values (NaN left blank), each cell written in percent, as an inline <svg>
    that says what it shows to a screen reader. The colour scale runs over ±max|value| for
    a diverging map, from 0 to the maximum otherwise."""
    finite = values[np.isfinite(values)]
    reach = float(np.max(np.abs(finite))) if finite.size else 1.0
    reach = reach or 1.0
    low = -reach if diverging else 0.0
    cmap = colormaps["PuOr" if diverging else "cividis"]

    def shade(value: float) -> tuple[float, ...]:
        return tuple(cmap((value - low) / (reach - low)))

    left = max((_text_width(r, LABEL_SIZE) for r in rows), default=0.0) + 2 * MARGIN
    top = MARGIN + CELL_SIZE
    grid_width, grid_height = CELL_WIDTH * len(columns), CELL_HEIGHT * len(rows)
    # Column labels at 45 degrees, ending under their cell.
    drop = max((_text_width(c, LABEL_SIZE) for c in columns), default=0.0) / math.sqrt(2)
    bottom = drop + LABEL_SIZE + 2 * MARGIN
    bar_x = left + grid_width + BAR_GAP
    # About one tick per 14 points of the bar (80% of the grid's height), 2 to 6 of them.
    nbins = max(2, min(6, int(0.8 * grid_height / 14)))
    ticks_percent = MaxNLocator(nbins=nbins).tick_values(100 * low, 100 * reach)
    ticks = [t for t in ticks_percent if 100 * low - 1e-9 <= t <= 100 * reach + 1e-9]
    tick_width = max((_text_width(_number(t), LABEL_SIZE) for t in ticks), default=0.0)
    width = bar_x + BAR_WIDTH + 4 + tick_width + 6 + LABEL_SIZE + 2 * MARGIN
    # The bar's unit is written along it, centred on the grid: tall enough for it whole.
    height = max(top + grid_height + bottom, _text_width(unit, LABEL_SIZE) + 2 * MARGIN)

    label = escape(description, quote=True)
    out = [
        f'<svg role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{_f(width)}pt" height="{_f(height)}pt" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT}">',
        f'<rect width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>',
    ]
    for i, row in enumerate(rows):
        y = top + i * CELL_HEIGHT
        out.append(
            f'<text x="{_f(left - MARGIN)}" y="{_f(y + CELL_HEIGHT / 2)}" '
            f'font-size="{LABEL_SIZE:g}" text-anchor="end" dominant-baseline="central">'
            f"{escape(row)}</text>"
        )
        for j, value in enumerate(values[i]):
            if not math.isfinite(value):
                continue  # blank: no text names the row's term alone
            x = left + j * CELL_WIDTH
            red, green, blue, _ = rgba = shade(float(value))
            # Light text on a dark cell, dark on a light one: readable on every colour.
            light = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
            out.append(
                f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(CELL_WIDTH)}" '
                f'height="{_f(CELL_HEIGHT)}" fill="{_colour(rgba)}"/>'
                f'<text x="{_f(x + CELL_WIDTH / 2)}" y="{_f(y + CELL_HEIGHT / 2)}" '
                f'font-size="{CELL_SIZE:g}" text-anchor="middle" dominant-baseline="central" '
                f'fill="{"#ffffff" if light else "#000000"}">{_number(100 * value)}</text>'
            )
    out.append(
        f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(grid_width)}" '
        f'height="{_f(grid_height)}" fill="none" stroke="#000000" stroke-width="0.8"/>'
    )
    for j, column in enumerate(columns):
        x, y = left + (j + 0.5) * CELL_WIDTH, top + grid_height + MARGIN + LABEL_SIZE / 2
        out.append(
            f'<text transform="translate({_f(x)} {_f(y)}) rotate(-45)" '
            f'font-size="{LABEL_SIZE:g}" text-anchor="end">{escape(column)}</text>'
        )
    out += _colour_bar(bar_x, top, grid_height, low, reach, ticks, shade, unit)
    out.append("</svg>")
    return "".join(out)


def _colour_bar(
    x: float,
    top: float,
    grid_height: float,
    low: float,
    reach: float,
    ticks: Sequence[float],
    shade: Callable[[float], tuple[float, ...]],
    unit: str,
) -> list[str]:
    """The colour scale beside the grid, 80% of its height, ticked in percent."""
    height = 0.8 * grid_height
    y0 = top + 0.1 * grid_height
    step = height / BAR_STEPS
    out = []
    for k in range(BAR_STEPS):
        value = reach - (k + 0.5) * (reach - low) / BAR_STEPS
        out.append(
            f'<rect x="{_f(x)}" y="{_f(y0 + k * step)}" width="{_f(BAR_WIDTH)}" '
            f'height="{_f(step + 0.3)}" fill="{_colour(shade(value))}"/>'
        )
    out.append(
        f'<rect x="{_f(x)}" y="{_f(y0)}" width="{_f(BAR_WIDTH)}" height="{_f(height)}" '
        f'fill="none" stroke="#000000" stroke-width="0.8"/>'
    )
    for tick in ticks:
        y = y0 + (100 * reach - tick) / (100 * (reach - low)) * height
        out.append(
            f'<line x1="{_f(x + BAR_WIDTH)}" y1="{_f(y)}" x2="{_f(x + BAR_WIDTH + 3)}" '
            f'y2="{_f(y)}" stroke="#000000" stroke-width="0.8"/>'
            f'<text x="{_f(x + BAR_WIDTH + 5)}" y="{_f(y)}" font-size="{LABEL_SIZE:g}" '
            f'dominant-baseline="central">{_number(tick)}</text>'
        )
    widest = max((_text_width(_number(t), LABEL_SIZE) for t in ticks), default=0.0)
    label_x = x + BAR_WIDTH + 5 + widest + 6
    # Centred on the bar, moved down as far as the label needs to start inside the figure.
    middle = max(y0 + height / 2, _text_width(unit, LABEL_SIZE) / 2 + MARGIN)
    out.append(
        f'<text transform="translate({_f(label_x + LABEL_SIZE)} {_f(middle)}) rotate(90)" '
        f'font-size="{LABEL_SIZE:g}" text-anchor="middle">{escape(unit)}</text>'
    )
    return out
