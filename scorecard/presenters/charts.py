"""Small SVG charts drawn on the server: no JavaScript, crisp on a phone and on paper.

Colours are presentation attributes (a strict content security policy forbids inline
styles); lines and text take `currentColor` so dark mode follows the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

PALETTE = ["#0b5fce", "#c2410c", "#15803d", "#9333ea", "#be123c", "#0e7490", "#a16207", "#4d7c0f"]


@dataclass(frozen=True)
class Series:
    label: str
    values: list[int]


NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)


def nice_scale(value: int, most_ticks: int = 5) -> tuple[int, int]:
    """A round top at or above `value`, and the round step between at most `most_ticks`
    gridlines up to it: 748 gives (800, 200), not ticks at 187, 374, 561."""
    for step in NICE_STEPS:
        if value <= step * most_ticks:
            return max(step, -(-value // step) * step), step
    step = NICE_STEPS[-1]
    return -(-value // step) * step, step


def line_chart(
    series: list[Series], *, title: str, width=360, height=220, unit="", from_zero=True
) -> SafeString:
    """One line per series, x = turn, y = points (or `unit`); each line starts from 0 before
    the first turn, or with `from_zero` off, from its first value."""
    left, right, top, bottom = 36, 8, 10, 46
    longest = max((len(s.values) - (not from_zero) for s in series), default=0) or 1
    peak, step = nice_scale(max((max(s.values, default=0) for s in series), default=0) or 1, 4)
    turn_step = next(n for n in (1, 2, 5, 10, 20, 50, 100) if longest <= n * 8)
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + plot_w * i / longest

    def y(v: int) -> float:
        return top + plot_h * (1 - v / peak)

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for tick in range(0, peak + 1, step):
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="currentColor" stroke-opacity="0.15"/>'
            f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="10" '
            f'fill="currentColor">{tick}{unit}</text>'
        )
    for turn in range(turn_step, longest + 1, turn_step):
        parts.append(
            f'<text x="{x(turn):.1f}" y="{top + plot_h + 10:.0f}" text-anchor="middle" '
            f'font-size="9" fill="currentColor">{turn}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.0f}" y="{height - 24}" text-anchor="middle" '
        f'font-size="10" fill="currentColor">turn</text>'
    )
    for index, line in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        values = [0, *line.values] if from_zero else line.values
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round"/>'
        )
        key_x = left + (index % 4) * (plot_w / 4)
        key_y = height - 14 + (index // 4) * 12
        parts.append(
            f'<rect x="{key_x:.0f}" y="{key_y - 8}" width="10" height="10" fill="{colour}"/>'
            f'<text x="{key_x + 14:.0f}" y="{key_y + 1}" font-size="10" fill="currentColor">'
            f"{escape(line.label[:14])} {line.values[-1] if line.values else 0}{unit}</text>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every interpolated text is escaped above


def histogram(
    bands: list[tuple[int, int]], *, title: str, bin_size=25, width=360, height=180
) -> SafeString:
    """How many final scores fell in each band of `bin_size` points: (lowest score, count)
    pairs, in order; empty bands between them are drawn empty."""
    left, right, top, bottom = 30, 8, 10, 30
    if not bands:
        return mark_safe("")
    low = bands[0][0]
    bins = [0] * ((bands[-1][0] - low) // bin_size + 1)
    for start, count in bands:
        bins[(start - low) // bin_size] = count
    tallest = max(bins)
    plot_w, plot_h = width - left - right, height - top - bottom
    bar_w = plot_w / len(bins)
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for index, count in enumerate(bins):
        bar_h = plot_h * count / tallest
        bx = left + index * bar_w
        parts.append(
            f'<rect x="{bx + 1:.1f}" y="{top + plot_h - bar_h:.1f}" width="{bar_w - 2:.1f}" '
            f'height="{bar_h:.1f}" fill="{PALETTE[0]}"><title>{low + index * bin_size}–'
            f"{low + (index + 1) * bin_size - 1}: {count}</title></rect>"
        )
        if len(bins) <= 12 or index % 2 == 0:
            parts.append(
                f'<text x="{bx + bar_w / 2:.1f}" y="{height - 14}" text-anchor="middle" '
                f'font-size="9" fill="currentColor">{low + index * bin_size}</text>'
            )
    parts.append(
        f'<text x="{left - 4}" y="{top + 8}" text-anchor="end" font-size="10" '
        f'fill="currentColor">{tallest}</text></svg>'
    )
    return mark_safe("".join(parts))  # numbers and escaped text only
