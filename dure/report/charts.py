"""Small inline SVG charts: horizontal bars, stacked bars and histograms, drawn in Python.

No plotting library and no script: each chart is one ``<svg>`` element with a ``<title>`` (read by screen
readers), axis labels, and each value in a ``<title>`` tooltip on its bar. Charts scale with the page
(``viewBox``); the text is escaped here, so callers pass plain strings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

#: Okabe-Ito colours, distinguishable with the common colour-vision deficiencies.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000")
WIDTH = 720
ROW = 22  # height of one bar row
CHAR = 7.0  # approximate width of one character at the chart font size
MAX_LABEL = 44  # characters of a bar label shown before it is cut (the tooltip has it whole)


def _number(value: float) -> str:
    return f"{value:.3g}" if not float(value).is_integer() else f"{int(value)}"


def _label(text: str) -> str:
    return escape(text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…")


def _open(title: str, height: float) -> list[str]:
    return [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" viewBox="0 0 {WIDTH} {height:.0f}" '
        f'width="{WIDTH}" height="{height:.0f}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<text x="{WIDTH / 2:.0f}" y="16" class="chart-title" text-anchor="middle">{escape(title)}</text>',
    ]


def _scale_max(values: Sequence[float]) -> float:
    top = max(values, default=0.0)
    return top if top > 0 else 1.0


def ticks(top: float, most: int = 4) -> list[float]:
    """Round tick values from 0 to at least ``top``: steps of 1, 2, 2.5 or 5 times a power of ten."""
    top = top if top > 0 else 1.0
    power = 10.0 ** math.floor(math.log10(top / most))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power * most >= top)
    count = math.ceil(round(top / step, 9))
    return [round(step * i, 9) for i in range(count + 1)]


def bar_chart(
    items: Sequence[tuple[str, float]],
    title: str,
    *,
    x_label: str,
    percent: bool = False,
    limit: float | None = None,
) -> str:
    """Horizontal bars, one per ``(label, value)``, in the order given; ``percent`` shows values as %."""
    shown = [(label, value * 100 if percent else value) for label, value in items]
    scale = limit * 100 if (limit is not None and percent) else limit
    return stacked_bar_chart(
        [label for label, _ in shown],
        [("", [value for _, value in shown])],
        title,
        x_label=x_label + (" (%)" if percent else ""),
        limit=scale,
        unit="%" if percent else "",
    )


def stacked_bar_chart(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float]]],
    title: str,
    *,
    x_label: str,
    limit: float | None = None,
    unit: str = "",
) -> str:
    """One horizontal bar per category, split into the named series (a legend when there are several)."""
    totals = [sum(values[i] for _, values in series) for i in range(len(categories))]
    marks = ticks(limit if limit is not None else _scale_max(totals))
    top = marks[-1]
    label_width = min(max((len(c) for c in categories), default=4), MAX_LABEL) * CHAR + 12
    legend = [name for name, _ in series if name]
    chart_top = 28 + (20 if legend else 0)
    plot_width = WIDTH - label_width - 60
    height = chart_top + ROW * len(categories) + 44
    parts = _open(title, height)
    if legend:
        x = label_width
        for position, name in enumerate(legend):
            colour = PALETTE[position % len(PALETTE)]
            parts.append(f'<rect x="{x:.0f}" y="26" width="10" height="10" fill="{colour}"/>')
            parts.append(f'<text x="{x + 14:.0f}" y="35" class="legend">{escape(name)}</text>')
            x += 24 + len(name) * CHAR
    for row, category in enumerate(categories):
        y = chart_top + row * ROW
        parts.append(
            f'<text x="{label_width - 6:.0f}" y="{y + 15}" text-anchor="end" class="label">'
            f"<title>{escape(category)}</title>{_label(category)}</text>"
        )
        x = label_width
        for position, (name, values) in enumerate(series):
            width = plot_width * values[row] / top
            if values[row] <= 0:
                continue
            tip = f"{category}{' / ' + name if name else ''}: {_number(values[row])}{unit}"
            colour = PALETTE[position % len(PALETTE)]
            parts.append(
                f'<rect x="{x:.1f}" y="{y + 3}" width="{max(width, 1):.1f}" height="{ROW - 6}" '
                f'fill="{colour}"><title>{escape(tip)}</title></rect>'
            )
            x += width
        parts.append(f'<text x="{x + 4:.1f}" y="{y + 15}" class="value">{_number(totals[row])}{unit}</text>')
    axis_y = chart_top + ROW * len(categories) + 4
    parts.extend(_x_axis(label_width, plot_width, axis_y, marks, x_label))
    parts.append("</svg>")
    return "\n".join(parts)


def _x_axis(left: float, width: float, y: float, marks: Sequence[float], label: str) -> list[str]:
    parts = [f'<line x1="{left:.0f}" y1="{y:.0f}" x2="{left + width:.0f}" y2="{y:.0f}" class="axis"/>']
    for value in marks:
        x = left + width * value / marks[-1]
        parts.append(
            f'<text x="{x:.0f}" y="{y + 14:.0f}" text-anchor="middle" class="tick">{_number(value)}</text>'
        )
    parts.append(
        f'<text x="{left + width / 2:.0f}" y="{y + 32:.0f}" text-anchor="middle" class="axis-label">'
        f"{escape(label)}</text>"
    )
    return parts


def bins_of(
    values: Sequence[float], bins: int, bounds: tuple[float, float] | None = None
) -> list[tuple[str, int]]:
    """``(range label, count)`` per bin: one per value for small whole numbers, else ``bins`` equal ones
    (over ``bounds`` when given, e.g. scores over [0, 1])."""
    if not values:
        return []
    low, high = bounds if bounds is not None else (min(values), max(values))
    if bounds is None and all(float(v).is_integer() for v in values) and high - low < bins * 2:
        counts = {int(v): 0 for v in range(int(low), int(high) + 1)}
        for value in values:
            counts[int(value)] += 1
        return [(str(key), count) for key, count in sorted(counts.items())]
    width = (high - low) / bins or 1.0
    if bounds is None and all(float(v).is_integer() for v in values):
        width = math.ceil(width)
    counted = [0] * bins
    for value in values:
        counted[max(min(int((value - low) / width), bins - 1), 0)] += 1
    edges = [(low + i * width, low + (i + 1) * width) for i in range(bins)]
    return [(f"{_number(a)}\u2013{_number(b)}", n) for (a, b), n in zip(edges, counted, strict=True)]


def histogram(
    values: Sequence[float],
    title: str,
    *,
    x_label: str,
    y_label: str = "tasks",
    bins: int = 10,
    bounds: tuple[float, float] | None = None,
) -> str:
    """Vertical bars counting ``values`` per bin (see :func:`bins_of`), with the count axis labelled."""
    counted = bins_of(values, bins, bounds)
    marks = ticks(_scale_max([float(n) for _, n in counted]))
    top = marks[-1]
    left, plot_top, plot_height = 48, 30, 150
    plot_width = WIDTH - left - 16
    slot = plot_width / max(len(counted), 1)
    height = plot_top + plot_height + 52
    parts = _open(title, height)
    base = plot_top + plot_height
    parts.append(f'<line x1="{left}" y1="{base}" x2="{left + plot_width}" y2="{base}" class="axis"/>')
    parts.append(f'<line x1="{left}" y1="{plot_top}" x2="{left}" y2="{base}" class="axis"/>')
    for value in marks:
        y = base - plot_height * value / top
        parts.append(
            f'<text x="{left - 4}" y="{y + 4:.0f}" text-anchor="end" class="tick">{_number(value)}</text>'
        )
    for position, (label, count) in enumerate(counted):
        bar = plot_height * count / top
        x = left + position * slot
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{base - bar:.1f}" width="{max(slot - 2, 1):.1f}" height="{bar:.1f}" '
            f'fill="{PALETTE[0]}"><title>{escape(f"{x_label} {label}: {count}")}</title></rect>'
        )
        if len(counted) <= 24 or position % math.ceil(len(counted) / 24) == 0:
            parts.append(
                f'<text x="{x + slot / 2:.1f}" y="{base + 14}" text-anchor="middle" class="tick">'
                f"{escape(label)}</text>"
            )
    parts.append(
        f'<text x="{left + plot_width / 2:.0f}" y="{base + 34}" text-anchor="middle" class="axis-label">'
        f"{escape(x_label)}</text>"
    )
    parts.append(
        f'<text x="12" y="{plot_top + plot_height / 2:.0f}" text-anchor="middle" class="axis-label" '
        f'transform="rotate(-90 12 {plot_top + plot_height / 2:.0f})">{escape(y_label)}</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts)
