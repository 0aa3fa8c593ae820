"""Charts drawn on the server: round gridlines and labelled axes."""

import re

from scorecard.presenters.charts import Series, histogram, line_chart, nice_scale


def test_gridlines_fall_on_round_numbers():
    assert nice_scale(748, 4) == (800, 200)
    assert nice_scale(254) == (300, 100)
    assert nice_scale(7) == (8, 2)
    assert nice_scale(12_000) == (15_000, 5000)
    assert nice_scale(40_000) == (40_000, 5000)


def test_the_running_totals_chart_labels_both_axes_with_round_values():
    chart = line_chart([Series("Ann", list(range(0, 748, 57)))], title="Totals")
    labels = [int(value) for value in re.findall(r">(\d+)</text>", chart)]
    assert {0, 200, 400, 600, 800} <= set(labels)
    assert 187 not in labels and 374 not in labels
    assert "turn</text>" in chart and ">10</text>" in chart  # turns along the bottom


def test_the_histogram_draws_empty_bands_between_the_filled_ones():
    chart = histogram([(200, 3), (275, 1)], title="Finals", bin_size=25)
    assert chart.count("<rect") == 4 and "225–249: 0" in chart
