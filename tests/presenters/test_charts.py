"""Charts drawn on the server: round gridlines and labelled axes."""

import re

from django.template.loader import render_to_string

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


def test_the_histogram_draws_empty_bands_between_the_filled_ones():
    chart = drawn("_histogram.html", histogram([(200, 3), (275, 1)], title="Finals", bin_size=25))
    assert chart.count("<rect") == 4 and "225–249: 0" in chart


def test_a_chart_says_its_title_and_names_escaped():
    chart = line_chart([Series("<b>Ann</b>", [12, 30])], title="Ann & Bob's totals")
    assert chart.title == "Ann & Bob's totals"  # data: the template escapes it
    svg = drawn("_line_chart.html", chart)
    assert 'aria-label="Ann &amp; Bob&#x27;s totals"' in svg
    assert "&lt;b&gt;Ann&lt;/b&gt; 30</text>" in svg and "<b>" not in svg
