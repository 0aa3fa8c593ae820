"""Exact odds, counted."""

from fractions import Fraction

from scorecard.engine import odds


def test_the_yahtzee_odds_are_counted_exactly():
    chance = odds.yahtzee_in_one_turn()
    assert chance == Fraction(2_783_176, 60_466_176) == Fraction(347_897, 7_558_272)
    assert round(float(chance) * 100, 1) == 4.6 and round(1 / chance) == 22
