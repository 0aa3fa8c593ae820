"""Advice as the page says it."""

from decimal import Decimal

import pytest
from django.utils import translation
from hypothesis import assume, given
from hypothesis import strategies as st

from scorecard.engine.rules import Box
from scorecard.presenters import advice


def test_a_chance_is_never_shown_as_a_certainty_or_an_impossibility_it_is_not():
    assert [advice.percent(c) for c in (0, 0.0001, 0.0123, 0.99999, 1)] == [
        "0.0%", "<0.1%", "1.2%", ">99.9%", "100.0%"
    ]  # fmt: skip
    assert [advice.percent(c, digits=0) for c in (0, 0.001, 0.37, 0.999, 1)] == [
        "0%", "<1%", "37%", ">99%", "100%"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("points", "english", "german"),
    [(6.44, "6.4", "6,4"), (0.05, "0.1", "0,1"), (0.03, "0.03", "0,03"), (0.001, "<0.01", "<0,01")],
)
def test_a_loss_never_reads_as_nothing_given_up(points, english, german):
    """A choice that is not the best gives something up: a loss under a twentieth of a
    point is written to the hundredth, never as 0.0."""
    assert advice.points_given_up(points) == english
    with translation.override("de"):
        assert advice.points_given_up(points) == german


@pytest.mark.parametrize("loss", [28.26, 28.25, 3.96, 0.049])
def test_the_coach_gives_the_loss_the_ratings_show(loss):
    """Found by a new user: the box's rating read −28.3 while the coach said the same box
    gave up 28.2 (one rounded, the other cut)."""
    note = str(advice.CoachNote(box=Box.FOURS, loss=loss, best=Box.CHANCE))
    assert f"gives up {advice.points_given_up(loss)} points" in note
    hold = advice.HoldCoachNote((5,), (6, 6), loss, [0], [1, 2])
    assert f"gives up {advice.points_given_up(loss)} points" in str(hold)


@pytest.mark.parametrize(
    ("chances", "shown"),
    [
        ((0.635, 0.183, 0.182), ["64%", "18%", "18%"]),  # rounded alone: 63 + 18 + 18 = 99
        # Equal chances alike (a tester read 34%, 33%, 33% as an edge for the first).
        ((1 / 3, 1 / 3, 1 / 3), ["33%", "33%", "33%"]),
        ((0.125, 0.125, 0.75), ["13%", "13%", "75%"]),
        ((0.4, 0.3, 0.3), ["40%", "30%", "30%"]),
        ((0.996, 0.003, 0.001), [">99%", "<1%", "<1%"]),
        ((1, 0, 0), ["100%", "0%", "0%"]),
        # A player who has won already, in exact chances' rounding error (a tester).
        ((0.9999999999999998, 2.2e-16), ["100%", "0%"]),
    ],
)
def test_the_win_column_adds_up_to_100_and_never_rounds_to_a_certainty(chances, shown):
    """Found by a new user: three players' chances read 63%, 18%, 18%. Equal chances show
    alike, where the column then adds up to 99 or 101."""
    assert advice.shares_in_percent(chances) == shown
    with translation.override("fr"):
        assert advice.shares_in_percent((0.635, 0.183, 0.182))[0] == "64\u00a0%"  # never broken


@given(
    best=st.floats(min_value=0, max_value=1600, allow_nan=False),
    loss=st.floats(min_value=0, max_value=80, allow_nan=False),
)
def test_a_ratings_printed_figures_add_up(best, loss):
    """Found by a player doing the sums: best 250.2, Threes 224.9 and "−25.2" beside it
    (each rounded alone from 250.16 and 224.94). The printed best less the printed expected
    total is the printed loss."""
    assume(loss <= best)  # no choice is expected to end below 0
    rating = advice.BoxAdvice(best - loss, loss)
    top = advice.BoxAdvice(best, 0.0)
    printed_loss = advice.points_given_up(loss)
    shown = rating.shown_expected
    assert abs(float(shown) - (best - loss)) <= 0.1 + 1e-9  # two roundings at most
    if rating.is_best:
        assert shown == top.shown_expected
    elif not printed_loss.startswith("<"):
        assert top.shown_expected - shown == Decimal(printed_loss)


def test_the_rating_of_the_found_case_reads_as_its_sum():
    assert advice.BoxAdvice(250.16, 0).shown_expected == Decimal("250.2")
    threes = advice.BoxAdvice(224.94, 250.16 - 224.94)
    assert advice.points_given_up(threes.loss) == "25.2"
    assert threes.shown_expected == Decimal("225.0")


def test_a_rating_level_with_the_best_but_for_a_float_s_last_bit_prints_as_the_best():
    """Found by hypothesis: best 0.25 (printed 0.3) and a box 2e-16 below it printed 0.2."""
    level = advice.BoxAdvice(0.25 - 2.220446049250313e-16, 2.220446049250313e-16)
    assert level.shown_expected == advice.BoxAdvice(0.25, 0.0).shown_expected == Decimal("0.3")


def test_a_settled_chance_is_said_as_certain_within_rounding_error():
    assert advice.percent(0.9999999999999998) == "100.0%"
    assert advice.percent(1e-17) == "0.0%"
    assert advice.percent(0.9996) == ">99.9%"  # not settled: never rounded to a certainty
