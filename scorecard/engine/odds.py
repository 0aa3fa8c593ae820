"""Exact odds by counting every outcome; no simulation. Pure Python, like `rules`."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache

from scorecard.engine import rules


def chance_of(outcome: tuple[int, ...]) -> float:
    """The chance that rolling `len(outcome)` dice shows exactly these faces, in any order:
    the arrangements of the multiset over every ordered outcome (the multinomial)."""
    arrangements = math.factorial(len(outcome))
    for count in Counter(outcome).values():
        arrangements //= math.factorial(count)
    outcomes: int = 6 ** len(outcome)
    return arrangements / outcomes


def _biggest_group(dice: rules.Dice) -> tuple[int, ...]:
    face, count = max(Counter(dice).items(), key=lambda item: (item[1], item[0]))
    return (face,) * count


@cache
def _chance_from(kept: tuple[int, ...], rolls_left: int) -> Fraction:
    """Chance of five alike when `kept` is held, the rest are rolled, and `rolls_left` remain."""
    rolled = rules.DICE_COUNT - len(kept)
    outcomes = list(itertools.product(rules.FACES, repeat=rolled))
    hits = Fraction(0)
    for outcome in outcomes:
        dice = tuple(sorted(kept + outcome))
        if rules.is_yahtzee(dice):
            hits += 1
        elif rolls_left > 1:
            hits += _chance_from(_biggest_group(dice), rolls_left - 1)
    return hits / len(outcomes)


def yahtzee_in_one_turn() -> Fraction:
    """A turn of three rolls that keeps the biggest group each time and rerolls the rest.

    Counts every possible reroll exactly: about 4.6%, roughly one turn in 22.
    """
    return _chance_from((), 3)


def _ways(outcome: tuple[int, ...]) -> int:
    """How many ordered rolls show this multiset of faces."""
    ways = math.factorial(len(outcome))
    for count in Counter(outcome).values():
        ways //= math.factorial(count)
    return ways


@cache
def _all_alike_from(kept: int, dice: int, rolls_left: int) -> Fraction:
    """Chance that all `dice` end alike when `kept` alike are held and the rest rolled, with
    `rolls_left` rolls to go. Every face is as good as another, so the kept dice are 1s."""
    rolled = dice - kept
    hits = Fraction(0)
    for outcome in itertools.combinations_with_replacement(rules.FACES, rolled):
        biggest = max(Counter((1,) * kept + outcome).values())
        if biggest == dice:
            hits += _ways(outcome)
        elif rolls_left > 1:
            hits += _ways(outcome) * _all_alike_from(biggest, dice, rolls_left - 1)
    return hits / Fraction(6**rolled)


def all_alike_in_one_turn(dice: int, rolls: int = 3) -> Fraction:
    """A turn that keeps the biggest group each time and rerolls the rest, for any number of
    dice: five dice give Yahtzee's (and Yatzy's) 4.6%, six dice Maxi Yatzy's."""
    return _all_alike_from(0, dice, rolls)
