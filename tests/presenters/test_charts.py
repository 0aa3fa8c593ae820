"""Charts drawn on the server: round gridlines and labelled axes."""

import re
from itertools import pairwise

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scorecard.presenters import charts
from scorecard.presenters.charts import Series, histogram, line_chart, nice_scale


def drawn(template, chart):
    return render_to_string(template, {"chart": chart})


def test_gridlines_fall_on_round_numbers():
    assert nice_scale(748, 4) == (800, 200)
    assert nice_scale(254) == (300, 100)
    assert nice_scale(7) == (8, 2)
    assert nice_scale(12_000) == (15_000, 5000)
    assert nice_scale(40_000) == (40_000, 5000)


def test_the_running_totals_chart_labels_both_axes_with_round_values():
    chart = drawn(
        "_line_chart.html", line_chart([Series("Ann", list(range(0, 748, 57)))], title="Totals")
    )
    labels = [int(value) for value in re.findall(r">(\d+)</text>", chart)]
    assert {0, 200, 400, 600, 800} <= set(labels)
    assert 187 not in labels and 374 not in labels
    assert "turn</text>" in chart and ">10</text>" in chart  # turns along the bottom


def test_a_chart_of_each_player_s_own_turns_says_rounds_along_the_bottom():
    """The running totals count each player's turns (rounds, 1 to 13); the chance to win
    counts the game's entries: the two axes had one word for two scales."""
    series = [Series("Ann", [5, 10, 30]), Series("Bob", [4, 8, 20])]
    by_round = drawn("_line_chart.html", line_chart(series, title="t", per_round=True))
    assert "round</text>" in by_round and "turn</text>" not in by_round
    assert "turn</text>" in drawn("_line_chart.html", line_chart(series, title="t"))


def test_a_chart_of_every_entry_marks_the_rounds_along_the_bottom():
    """Found by a new user: the chance to win counted 10, 20 … 50 (entries) beside running
    totals counted in rounds. Now a mark falls after each round's last entry, named by
    the round, as every page counts them."""
    players, rounds = 4, 13
    series = [Series(name, [25] * (players * rounds + 1)) for name in "ABCD"]
    chart = line_chart(series, title="t", from_zero=False, entries_per_round=players)
    assert [mark.text for mark in chart.turns] == [str(r) for r in range(2, 14, 2)]
    last_round = chart.turns[-1]
    left = chart.left
    assert float(last_round.x) == pytest.approx(left + (360 - left - 8) * 12 / 13, abs=0.1)
    assert "round</text>" in drawn("_line_chart.html", chart)


def test_the_histogram_draws_empty_bands_between_the_filled_ones():
    chart = drawn("_histogram.html", histogram([(200, 3), (275, 1)], title="Finals", bin_size=25))
    assert chart.count("<rect") == 4 and "225–249: 0" in chart
    assert ">200–224</text>" in chart  # few bands: each labelled with its range


def test_a_histogram_says_its_bands_to_a_screen_reader():
    """Found by an accessibility tester: the image said only its title; its bars' tips are
    never read inside an image."""
    svg = drawn("_histogram.html", histogram([(200, 3), (275, 1)], title="Finals"))
    assert 'aria-label="Finals: 200–224: 3; 275–299: 1"' in svg


def test_a_lone_band_is_labelled_with_its_range_and_many_with_their_starts():
    assert ">75–99</text>" in drawn("_histogram.html", histogram([(75, 1)], title="t"))
    many = drawn("_histogram.html", histogram([(100, 1), (300, 2)], title="t"))
    assert ">100</text>" in many and "–124</text>" not in many
    # A start stands where its band's bar begins, as an axis is read, not under its middle
    # (a new user read "500" under a bar as a score of exactly 500, for a 502).
    chart = histogram([(100, 1), (300, 2)], title="t")
    assert chart is not None
    for bar in chart.bars:
        assert bar.label is None or float(bar.label.x) == float(bar.x) - 1


def test_a_chart_says_its_title_and_names_escaped():
    chart = line_chart([Series("<b>Ann</b>", [12, 30])], title="Ann & Bob's totals")
    assert chart.title == "Ann & Bob's totals"  # data: the template escapes it
    svg = drawn("_line_chart.html", chart)
    assert 'aria-label="Ann &amp; Bob&#39;s totals"' in svg
    assert "&lt;b&gt;Ann&lt;/b&gt; 30</text>" in svg and "<b>" not in svg


NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _coordinates(svg):
    """Every value a browser reads as a number: positions, sizes, the view box, the lines."""
    found = re.findall(r'\b(?:x|y|x1|x2|y1|y2|width|height)="([^"]*)"', svg)
    for box in re.findall(r'viewBox="([^"]*)"', svg):
        found += box.split()
    for points in re.findall(r'points="([^"]*)"', svg):
        found += [value for point in points.split() for value in point.split(",")]
    return found


def test_charts_draw_the_same_in_swedish_and_german_with_their_words_translated():
    series = [Series("Ann", [0, 12, 30, 57]), Series("Bob", [0, 25, 26, 48])]
    with translation.override("en"):
        english = drawn("_line_chart.html", line_chart(series, title="t"))
        bars = drawn("_histogram.html", histogram([(200, 3), (275, 1)], title="t"))
    for language, turn in [("sv", "tur"), ("de", "Zug")]:
        with translation.override(language):
            line = drawn("_line_chart.html", line_chart(series, title="t"))
            assert _coordinates(line) == _coordinates(english)
            assert all(NUMBER.fullmatch(value) for value in _coordinates(line))
            assert f">{turn}</text>" in line
            histogram_svg = drawn("_histogram.html", histogram([(200, 3), (275, 1)], title="t"))
            assert _coordinates(histogram_svg) == _coordinates(bars)


LONG_NAME = "Bartholomew Maximilian Featherstonehaugh"


def _keys_overlapping(chart):
    """Pairs of keys whose texts would be drawn over each other: on one row (less than a
    line apart) with their guessed widths crossing, or a key past the chart's right edge."""
    keys = [(float(line.swatch.x), float(line.key.x), float(line.key.y), line.key.text)
            for line in chart.lines]  # fmt: skip
    crossing = []
    for index, (swatch, text_x, text_y, text) in enumerate(keys):
        end = text_x + charts.text_width(text)
        assert end <= chart.width - 8, text
        for other_swatch, _x, other_y, other in keys[index + 1 :]:
            same_row = abs(other_y - text_y) < charts.KEY_LINE
            if same_row and swatch < other_swatch < end + charts.KEY_GAP - 1:
                crossing.append((text, other))
    return crossing


@pytest.mark.parametrize(
    "names",
    [
        ["Zoë", LONG_NAME],
        [LONG_NAME, "Zoë", "Ann", "Bob"],
        ["Zoë", LONG_NAME, "Ann", "Bob"],
        ["Ann", "Bob", "Cy", LONG_NAME, "Dee", "Eve", LONG_NAME.upper(), "WWWWWWWWWWWWWWW"],
    ],
)
def test_keys_of_players_with_long_names_are_never_drawn_over_each_other(names):
    """A new user's game: "Bartholomew Ma 264" was drawn over "Zoë 281"."""
    series = [Series(name, [100, 264 + index]) for index, name in enumerate(names)]
    chart = line_chart(series, title="t")
    assert _keys_overlapping(chart) == []
    assert all(line.key.text.endswith(f" {264 + i}") for i, line in enumerate(chart.lines))


@given(
    names=st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=8),
    finals=st.lists(st.integers(0, 1575), min_size=8, max_size=8),
    percent=st.booleans(),
)
def test_no_two_keys_cross_whatever_the_names_and_finals(names, finals, percent):
    series = [Series(name, [finals[i]]) for i, name in enumerate(names)]
    chart = line_chart(series, title="t", percent=percent)
    assert _keys_overlapping(chart) == []
    rows = sorted({line.key.y for line in chart.lines}, key=float)
    assert all(float(b) - float(a) >= charts.KEY_LINE for a, b in pairwise(rows))
    assert float(chart.turns[0].y) < float(chart.axis.y) < min(float(r) for r in rows) - 8


def test_percentages_are_written_as_the_page_s_language_writes_them():
    """Found by a tester: a German chance-to-win chart said "50%" beside "47,9 Punkte"."""
    series = [Series("Åsa", [50, 0]), Series("Bo", [50, 100])]
    with translation.override("de"):
        chart = line_chart(series, title="t", percent=True, from_zero=False)
    percents = [grid.text.replace("\N{NO-BREAK SPACE}", " ") for grid in chart.gridlines]
    assert percents == ["0 %", "25 %", "50 %", "75 %", "100 %"]
    assert [line.key.text for line in chart.lines] == [
        "Åsa 0\N{NO-BREAK SPACE}%",
        "Bo 100\N{NO-BREAK SPACE}%",
    ]
    assert line_chart(series, title="t", percent=True).gridlines[-1].text == "100%"


def test_a_name_cut_to_fit_its_key_is_whole_in_the_key_s_title():
    chart = line_chart([Series(LONG_NAME, [264]), Series("Zoë", [281])], title="t")
    cut, short = chart.lines
    assert cut.key.text.endswith("… 264") and cut.key.text.startswith("Bartholomew")
    assert cut.whole == f"{LONG_NAME} 264" and short.whole == ""
    svg = drawn("_line_chart.html", chart)
    assert f"<title>{LONG_NAME} 264</title>{cut.key.text}</text>" in svg
    assert ">Zoë 281</text>" in svg


def test_short_names_keep_four_keys_to_a_row_and_the_chart_its_height():
    chart = line_chart([Series(name, [250]) for name in ["Ann", "Bob", "Cy", "Dee"]], title="t")
    assert chart.height == 236 and len({line.key.y for line in chart.lines}) == 1


def test_labels_are_drawn_large_enough_to_read_on_a_phone():
    """A chart 360 units wide is drawn about 330 px wide on a 360 px phone: labels of 9 and
    10 units read at 8 and 9 px (a tester). At 13 they read at 12 px; the values left of
    the plot get the room they need."""
    chart = line_chart([Series("Ann", [40, 100])], title="t", percent=True)
    svg = drawn("_line_chart.html", chart)
    assert re.findall(r'font-size="(\d+)"', svg) == ["13"]  # once, on the chart
    widest = max(charts.text_width(grid.text) for grid in chart.gridlines)
    assert chart.label_x - widest >= 0 and chart.label_x < chart.left


def test_each_bar_of_a_histogram_says_its_count_over_it():
    """Found by a tester: the scale said the tallest bar's count alone ("3"), and the bars
    of 1 were left to be guessed."""
    chart = histogram([(100, 3), (125, 1), (175, 1)], title="t")
    assert [bar.count.text if bar.count else None for bar in chart.bars] == ["3", "1", None, "1"]
    tallest = chart.bars[0]
    assert 0 < float(tallest.count.y) < float(tallest.y)  # above the bar, inside the chart
    svg = drawn("_histogram.html", chart)
    bands = ["100–124", "3", "125–149", "1", "150–174", "175–199", "1"]
    assert re.findall(r">([^<]+)</text>", svg) == bands


def test_a_histograms_starts_are_whole_and_stand_apart():
    """Found by a tester (scores of 250 to 527): the first start's "2" was cut off at the
    chart's left edge, and twelve starts stood edge to edge."""
    chart = histogram([(250, 9), (275, 9), (525, 1)], title="t")
    labels = [bar.label for bar in chart.bars if bar.label]
    first = labels[0]
    assert first.text == "250" and float(first.x) - charts.text_width("250") / 2 >= 0
    assert [label.text for label in labels] == [str(start) for start in range(250, 526, 50)]
    for one, next_one in pairwise(labels):
        room = float(next_one.x) - float(one.x)
        assert room >= (charts.text_width(one.text) + charts.text_width(next_one.text)) / 2 + 6
    few = histogram([(100, 1), (300, 2)], title="t")  # nine bands: each start has room
    assert len([bar for bar in few.bars if bar.label]) == 9
