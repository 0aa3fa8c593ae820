"""Exact odds, counted."""

from fractions import Fraction

import pytest

from scorecard.engine import odds, rules


def test_the_yahtzee_odds_are_counted_exactly():
    chance = odds.yahtzee_in_one_turn()
    assert chance == Fraction(2_783_176, 60_466_176) == Fraction(347_897, 7_558_272)
    assert round(float(chance) * 100, 1) == 4.6 and round(1 / chance) == 22


def test_the_chance_of_a_roll_counts_its_arrangements():
    assert odds.chance_of((1, 2, 3, 4, 5)) == 120 / 6**5
    assert odds.chance_of((6, 6, 6, 6, 6)) == 1 / 6**5
    assert odds.chance_of(()) == 1
    assert sum(odds.chance_of(roll) for roll in rules.ALL_ROLLS) == pytest.approx(1, abs=1e-12)
