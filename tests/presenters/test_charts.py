"""Charts drawn on the server: round gridlines and labelled axes."""

import re

from django.template.loader import render_to_string
from django.utils import translation

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


def test_the_histogram_draws_empty_bands_between_the_filled_ones():
    chart = drawn("_histogram.html", histogram([(200, 3), (275, 1)], title="Finals", bin_size=25))
    assert chart.count("<rect") == 4 and "225–249: 0" in chart
    assert ">200–224</text>" in chart  # few bands: each labelled with its range


def test_a_lone_band_is_labelled_with_its_range_and_many_with_their_starts():
    assert ">75–99</text>" in drawn("_histogram.html", histogram([(75, 1)], title="t"))
    many = drawn("_histogram.html", histogram([(100, 1), (300, 2)], title="t"))
    assert ">100</text>" in many and "–124</text>" not in many


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
