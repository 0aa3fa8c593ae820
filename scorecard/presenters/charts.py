"""Small SVG charts drawn on the server: no JavaScript, crisp on a phone and on paper.

Here every position and label is worked out; the markup is the templates'
(`_line_chart.html`, `_histogram.html`). A line's colour is its series' class (`series-0`
to `series-7`), whose colour pages.css gives in light and in dark mode (the light palette's
red and blue were under 3:1 on a dark page, a tester); lines and text take `currentColor`
(a strict content security policy forbids inline styles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from django.utils.translation import pgettext

from scorecard.presenters.percentages import percent_said

SERIES_COLOURS = 8  # pages.css's `.series-0` to `.series-7`; a ninth player's is the first's


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


@dataclass(frozen=True)
class Mark:
    """A label at a point: a gridline's value, a turn's number, a bar's lowest score."""

    x: str
    y: str
    text: str


@dataclass(frozen=True)
class Gridline:
    y: str
    label_y: str  # its value sits just below the line, left of the plot
    text: str


@dataclass(frozen=True)
class Line:
    """One series drawn: its polyline's points, its colour's number, and its key below the
    plot."""

    points: str
    series: int
    key: Mark  # the name and last value, the name cut to fit its column
    swatch: Mark  # the coloured square before the key (no text)
    whole: str  # the key uncut when its name was cut (a pointer's tip), else ""


# Every label is 13 units high: a chart 360 units wide is drawn about 330 px wide on a
# phone, so its labels read at 12 px (at 9 and 10 units they were 8 and 9 px, too small to
# read at the table). Key rows are a line apart. Widths are guessed on the wide side (a name
# must not run into the next key): in em of a sans-serif face.
LABEL_SIZE = 13
LABEL_MIDDLE = round(LABEL_SIZE * 0.38)  # baseline below the line a label stands beside
KEY_LINE = 17
SWATCH = 17  # the square and the gap after it, before the key's text
SQUARE = 12
KEY_GAP = 4  # between a key's text and the next key's square
NARROW_LETTERS = frozenset(" .,;:'!|()[]ijlftrI")
WIDE_LETTERS = frozenset("MWmw@%")


def letter_width(letter: str) -> float:
    """A letter's width in em, rounded up from a sans-serif face's."""
    if letter in NARROW_LETTERS:
        return 0.4
    if letter in WIDE_LETTERS or ord(letter) >= 0x2E80:  # and CJK, each a square
        return 1.0
    return 0.72 if letter.isupper() else 0.62


def text_width(text: str, size: int = LABEL_SIZE) -> float:
    """About how wide `text` is drawn at `size`, never much less than a browser draws it."""
    return size * sum(letter_width(letter) for letter in text)


def cut_to_fit(name: str, after: str, room: float) -> str:
    """`name`, then `after`, in `room` units: the name cut with an ellipsis when too long."""
    if text_width(name + after) <= room:
        return name + after
    while name and text_width(name.rstrip() + "…" + after) > room:
        name = name[:-1]
    return name.rstrip() + "…" + after


def key_columns(texts: list[str], plot_w: float) -> int:
    """Four keys to a row when every one fits a quarter of the plot's width, else two
    (their names cut to fit a half): a long name ran into the next player's key."""
    return 4 if all(text_width(text) <= key_room(plot_w, 4) for text in texts) else 2


def key_room(plot_w: float, columns: int) -> float:
    """How wide a key's text may be, in a row of `columns` keys under the plot."""
    return plot_w / columns - SWATCH - KEY_GAP


@dataclass(frozen=True)
class LineChart:
    font_size: ClassVar[int] = LABEL_SIZE
    square: ClassVar[int] = SQUARE
    title: str
    width: int
    height: int
    left: int
    right_x: int  # where the gridlines end
    label_x: int  # where their values end, left of the plot
    gridlines: list[Gridline]
    turns: list[Mark]
    axis: Mark  # "turn" or "round", under the plot
    lines: list[Line]


def line_chart(
    series: list[Series],
    *,
    title: str,
    width=360,
    height=236,
    percent=False,
    from_zero=True,
    per_round=False,
    entries_per_round=0,
) -> LineChart:
    """One line per series, x = turn (each player's own turns, i.e. rounds, with
    `per_round`), y = points (or with `percent`, percentages); each line starts from 0
    before the first turn, or with `from_zero` off, from its first value. With
    `entries_per_round` (the players) a point is each entry of the game, and the bottom
    counts rounds, as every page does."""
    # Below the plot, each a label's height and a little more down: the marks, the axis's name.
    marks_at, axis_at = LABEL_SIZE + 2, 2 * LABEL_SIZE + 5
    right, top, bottom = 8, 10, axis_at + LABEL_SIZE + 2
    longest = max((len(s.values) - (not from_zero) for s in series), default=0) or 1
    peak, step = nice_scale(max((max(s.values, default=0) for s in series), default=0) or 1, 4)
    ticks = range(0, peak + 1, step)

    def value_said(value: int) -> str:  # as the page's language writes it ("50 %" in German)
        return percent_said(value / 100) if percent else str(value)

    # Room for the values, the same in every language (a space before "%" or not): the
    # chart is drawn alike for all.
    widest = max(text_width(f"{tick} %" if percent else str(tick)) for tick in ticks)
    left = 8 + round(widest)
    per_mark = entries_per_round or 1  # points between two marks along the bottom
    marked = -(-longest // per_mark)
    turn_step = next(n for n in (1, 2, 5, 10, 20, 50, 100) if marked <= n * 8)
    plot_w = width - left - right
    texts = [(s.label, f" {value_said(s.values[-1] if s.values else 0)}") for s in series]
    columns = key_columns([name + value for name, value in texts], plot_w)
    rows = -(-len(series) // columns) or 1
    height += KEY_LINE * (rows - 1)  # the plot keeps its height above a longer key
    plot_h = height - top - bottom - KEY_LINE * rows

    def x(i: int) -> float:
        return left + plot_w * i / longest

    def y(v: int) -> float:
        return top + plot_h * (1 - v / peak)

    gridlines = [
        Gridline(f"{y(tick):.1f}", f"{y(tick) + LABEL_MIDDLE:.1f}", value_said(tick))
        for tick in ticks
    ]
    turns = [
        Mark(f"{x(turn * per_mark):.1f}", f"{top + plot_h + marks_at:.0f}", str(turn))
        for turn in range(turn_step, longest // per_mark + 1, turn_step)
    ]
    lines = []
    for index, (line, (name, value)) in enumerate(zip(series, texts, strict=True)):
        values = [0, *line.values] if from_zero else line.values
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        key_x = left + (index % columns) * (plot_w / columns)
        key_y = height - 2 - KEY_LINE * (rows - index // columns)
        text = cut_to_fit(name, value, key_room(plot_w, columns))
        key = Mark(f"{key_x + SWATCH:.0f}", str(key_y + 1), text)
        swatch = Mark(f"{key_x:.0f}", str(key_y + 2 - SQUARE), "")  # its foot at the text's
        whole = name + value if text != name + value else ""
        lines.append(Line(points, index % SERIES_COLOURS, key, swatch, whole))
    by_round = per_round or entries_per_round > 0
    said = pgettext("chart axis", "round") if by_round else pgettext("chart axis", "turn")
    axis = Mark(f"{left + plot_w / 2:.0f}", str(top + plot_h + axis_at), said)
    edges = (left, width - right, left - 4)
    return LineChart(title, width, height, *edges, gridlines, turns, axis, lines)


@dataclass(frozen=True)
class Bar:
    x: str
    y: str
    width: str
    height: str
    tip: str  # "225–249: 3", said on hover and by a screen reader
    label: Mark | None  # the band's lowest score under it (every other one when crowded)
    count: Mark | None  # how many, over the bar (none over an empty band)


@dataclass(frozen=True)
class Histogram:
    title: str
    width: int
    height: int
    bars: list[Bar]

    @property
    def said(self) -> str:
        """The chart as a screen reader says it: its title, then each band that holds a
        score and how many ("Final scores of Ann: 250–274: 1; 275–299: 2"). An image's
        parts are not read, so its bars' own tips were never heard (found by a tester)."""
        held = [bar.tip for bar in self.bars if not bar.tip.endswith(": 0")]
        return f"{self.title}: {'; '.join(held)}"


# Up to this many bands, each is labelled with its whole range ("75–99"): a lone bar
# labelled 75 read as a score of 75.
WHOLE_BANDS = 4


def histogram(
    bands: list[tuple[int, int]], *, title: str, bin_size=25, width=360, height=180
) -> Histogram | None:
    """How many final scores fell in each band of `bin_size` points: (lowest score, count)
    pairs, in order; empty bands between them are drawn empty, and a bar says its count over
    it (a scale with the tallest's count alone left the others to be guessed, a tester).
    None without a band."""
    if not bands:
        return None
    low = bands[0][0]
    bins = [0] * ((bands[-1][0] - low) // bin_size + 1)
    for start, count in bands:
        bins[(start - low) // bin_size] = count
    # The first start is centred on the plot's left edge: the margin holds its half whole
    # (its first digit was cut off, a tester).
    left = max(8, math.ceil(text_width(str(low)) / 2) + 1)
    right, top, bottom = 8, LABEL_SIZE + 5, 30
    tallest = max(bins)
    plot_w, plot_h = width - left - right, height - top - bottom
    bar_w = plot_w / len(bins)
    # Every band's start, every other's or fewer: each with half a label's height of space
    # before the next (twelve bands' starts stood edge to edge, a tester).
    widest = text_width(str(low + (len(bins) - 1) * bin_size)) + LABEL_SIZE / 2
    stride = math.ceil(widest / bar_w)
    bars = []
    for index, count in enumerate(bins):
        bar_h = plot_h * count / tallest
        bx = left + index * bar_w
        start = low + index * bin_size
        label = None
        if len(bins) <= WHOLE_BANDS:
            said = f"{start}–{start + bin_size - 1}"
            label = Mark(f"{bx + bar_w / 2:.1f}", str(height - 12), said)
        elif index % stride == 0:
            # At the band's left edge, where its scores begin, as an axis is read: under the
            # bar's middle, "500" read as exactly 500 for a 502 (a new user).
            label = Mark(f"{bx:.1f}", str(height - 12), str(start))
        tip = f"{start}–{start + bin_size - 1}: {count}"
        y_top, bar_width = f"{top + plot_h - bar_h:.1f}", f"{bar_w - 2:.1f}"
        shown = Mark(f"{bx + bar_w / 2:.1f}", f"{top + plot_h - bar_h - 4:.1f}", str(count))
        counted = shown if count else None
        bars.append(Bar(f"{bx + 1:.1f}", y_top, bar_width, f"{bar_h:.1f}", tip, label, counted))
    return Histogram(title, width, height, bars)
