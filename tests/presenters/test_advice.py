"""Advice as the page says it."""

from scorecard.presenters import advice


def test_a_chance_is_never_shown_as_a_certainty_or_an_impossibility_it_is_not():
    assert [advice.percent(c) for c in (0, 0.0001, 0.0123, 0.99999, 1)] == [
        "0.0%", "<0.1%", "1.2%", ">99.9%", "100.0%"
    ]  # fmt: skip
    assert [advice.percent(c, digits=0) for c in (0, 0.001, 0.37, 0.999, 1)] == [
        "0%", "<1%", "37%", ">99%", "100%"
    ]  # fmt: skip
