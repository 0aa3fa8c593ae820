"""The numbers on the rules page, every one asked of `rules` and `odds` when the page is built.

The page's prose is in the template; the examples' short descriptions are here, translated
(`gettext_lazy`: said in the language of the page that shows them). Nothing here hard-codes a
score the engine could disagree with.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scorecard.engine import families, odds, rules
from scorecard.engine.rules import Box


@dataclass(frozen=True)
class Example:
    box: Box
    how: str | Promise
    dice: rules.Dice

    @property
    def points(self) -> int:
        return rules.score(self.box, self.dice)

    @property
    def shown(self) -> str:
        return " ".join(map(str, self.dice))


EXAMPLES = [
    Example(Box.ONES, _("Only the 1s count"), (1, 1, 4, 5, 1)),
    Example(Box.FIVES, _("Only the 5s count"), (5, 5, 2, 5, 6)),
    Example(Box.SIXES, _("Only the 6s count"), (6, 6, 6, 2, 1)),
    Example(Box.THREE_OF_A_KIND, _("Three or more alike: every die counts"), (4, 4, 4, 2, 5)),
    Example(Box.FOUR_OF_A_KIND, _("Four or more alike: every die counts"), (3, 3, 3, 3, 6)),
    Example(Box.FULL_HOUSE, _("A pair and a triple of another face"), (2, 2, 5, 5, 5)),
    Example(Box.SMALL_STRAIGHT, _("Four faces in a row"), (1, 3, 4, 5, 6)),
    Example(Box.LARGE_STRAIGHT, _("Five faces in a row"), (1, 2, 3, 4, 5)),
    Example(Box.YAHTZEE, _("All five the same"), (4, 4, 4, 4, 4)),
    Example(Box.CHANCE, _("Anything: every die counts"), (1, 3, 4, 6, 6)),
]


@dataclass(frozen=True)
class Dispute:
    """A roll tables argue about, and what it scores in the boxes in question."""

    dice: rules.Dice
    verdict: str | Promise
    boxes: tuple[Box, ...]

    @property
    def shown(self) -> str:
        return " ".join(map(str, self.dice))

    @property
    def scores(self) -> list[tuple[Box, int]]:
        return [(box, rules.score(box, self.dice)) for box in self.boxes]


DISPUTES = [
    Dispute(
        (1, 2, 3, 4, 4),
        _(
            "The doubled 4 does not spoil the run: four in a row is there, "
            "so it is a small straight."
        ),
        (Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT),
    ),
    Dispute(
        (2, 3, 4, 5, 6),
        _("Five in a row holds four in a row, so it may fill either straight."),
        (Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT),
    ),
    Dispute(
        (4, 4, 4, 4, 5),
        _("Four alike and a stray die is not three plus two: no full house."),
        (Box.FULL_HOUSE, Box.FOUR_OF_A_KIND),
    ),
    Dispute(
        (3, 3, 3, 3, 3),
        _(
            "On an ordinary turn five alike is a Yahtzee, and also three and four of a kind; "
            "it becomes a full house or a straight only as a joker (below)."
        ),
        (Box.YAHTZEE, Box.THREES, Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.FULL_HOUSE),
    ),
]


@dataclass(frozen=True)
class WorkedExample:
    """Five 6s late in a game with 50 in the Yahtzee box and the early steps used up."""

    filled: dict
    dice: rules.Dice = (6, 6, 6, 6, 6)

    @property
    def choices(self) -> dict[Box, int]:
        return rules.options(self.filled, self.dice, rules.JokerRule.HASBRO)

    @property
    def best(self) -> tuple[Box, int]:
        return max(self.choices.items(), key=lambda item: item[1])

    @property
    def bonus(self) -> int:
        return rules.yahtzee_bonus(self.filled, self.dice, rules.JokerRule.HASBRO)

    @property
    def sixes(self) -> int:
        return self.filled[Box.SIXES]

    @property
    def turn_total(self) -> int:
        return self.best[1] + self.bonus


WORKED = WorkedExample(
    {
        Box.YAHTZEE: 50,
        Box.SIXES: 18,
        Box.THREE_OF_A_KIND: 22,
        Box.FOUR_OF_A_KIND: 17,
        Box.FULL_HOUSE: 25,
        Box.SMALL_STRAIGHT: 30,
    }
)


@cache
def yahtzee_odds() -> Fraction:
    return odds.yahtzee_in_one_turn()


def optimal_game():
    """What the optimal solitaire player's game looks like under the standard rule (mean,
    standard deviation, bonus and Yahtzee chances, percentiles: `distribution.GameFigures`),
    when this server has built the tables (the page never builds one)."""
    from scorecard.engine import distribution  # numpy: only asked for when the page is built

    joker = rules.JokerRule.HASBRO
    return distribution.figures(joker) if distribution.is_ready(joker) else None


def page_context() -> dict:
    chance = yahtzee_odds()
    upper_line = [rules.pace_par(box) for box in rules.UPPER_BOXES]
    ordered_rolls = itertools.product(rules.FACES, repeat=rules.DICE_COUNT)
    chance_total = sum(rules.score(Box.CHANCE, roll) for roll in ordered_rolls)
    average_roll = Fraction(chance_total, len(rules.FACES) ** rules.DICE_COUNT)
    best = {box: box.max_points for box in Box}
    return {
        "yahtzee": {"family": families.YAHTZEE},
        "examples": EXAMPLES,
        "disputes": DISPUTES,
        "worked": WORKED,
        "joker_rules": list(rules.JokerRule),
        "turns": rules.BOXES_PER_CARD,
        "triple_cards": rules.TRIPLE_CARDS,
        "triple_turns": rules.turns_per_player(rules.TRIPLE_CARDS),
        "triple_multipliers": ", ".join(
            f"×{rules.card_multiplier(card)}" for card in range(1, rules.TRIPLE_CARDS + 1)
        ),
        "optimal": optimal_game(),
        "upper_line": upper_line,
        "upper_line_sum": sum(upper_line),
        "threshold": rules.UPPER_BONUS_THRESHOLD,
        "upper_bonus": rules.UPPER_BONUS,
        "extra_bonus": rules.EXTRA_YAHTZEE_BONUS,
        "yahtzee_points": rules.YAHTZEE_POINTS,
        "full_house": rules.FULL_HOUSE_POINTS,
        "small_straight": rules.SMALL_STRAIGHT_POINTS,
        "large_straight": rules.LARGE_STRAIGHT_POINTS,
        "maximum": rules.maximum_score(),
        "max_upper": rules.totals({b: best[b] for b in rules.UPPER_BOXES}).upper_total,
        "max_lower": rules.totals({b: best[b] for b in rules.LOWER_BOXES}).lower,
        "max_extra": rules.BOXES_PER_CARD - 1,
        "odds": chance,
        "odds_one_in": round(1 / chance),
        "average_roll": float(average_roll),
        "ones_max": Box.ONES.max_points,
        "pace_four_fives": rules.totals({Box.FIVES: 20}).pace,
        "pace_two_sixes": rules.totals({Box.SIXES: 12}).pace,
        "sixes_pace": rules.pace_par(Box.SIXES),
        "ones_pace": rules.pace_par(Box.ONES),
    } | family_context()


# --- Yatzy and Maxi Yatzy ----------------------------------------------------------------------


@dataclass(frozen=True)
class FamilyExample:
    """A roll in one box of another family's card, scored by that family's rules."""

    house: rules.HouseRules[Any]
    key: str
    how: str | Promise
    dice: rules.Dice

    @property
    def box(self) -> families.CardBox:
        return self.house.family.box(self.key)

    @property
    def points(self) -> int:
        return self.house.score(self.box, self.dice)

    @property
    def shown(self) -> str:
        return " ".join(map(str, self.dice))


YATZY = rules.HouseRules(families.YATZY)
MAXI = rules.HouseRules(families.MAXI)


def _examples(house: rules.HouseRules[Any], rows: list[tuple[str, Promise, str]]) -> list:
    return [FamilyExample(house, key, how, tuple(map(int, dice))) for key, how, dice in rows]


YATZY_EXAMPLES = _examples(
    YATZY,
    [
        ("fours", _("Only the 4s count"), "44125"),
        ("one_pair", _("The highest pair: two dice"), "66441"),
        ("two_pairs", _("Two pairs of different faces: four dice"), "22333"),
        ("three_of_a_kind", _("Three alike: only those three"), "44425"),
        ("four_of_a_kind", _("Four alike: only those four"), "33336"),
        ("small_straight", _("Exactly 1 2 3 4 5"), "12345"),
        ("large_straight", _("Exactly 2 3 4 5 6"), "23456"),
        ("full_house", _("Three of one face and two of another: every die"), "22555"),
        ("chance", _("Anything: every die"), "13466"),
        ("yatzy", _("All five the same"), "44444"),
    ],
)

MAXI_EXAMPLES = _examples(
    MAXI,
    [
        ("three_pairs", _("Three pairs of different faces"), "665544"),
        ("five_of_a_kind", _("Five alike: only those five"), "222226"),
        ("full_straight", _("Every face once"), "123456"),
        ("full_house", _("The best three and two of another face"), "666551"),
        ("villa", _("Two threes of different faces: every die"), "222555"),
        ("tower", _("Four alike and a pair of another face: every die"), "333366"),
        ("chance", _("Anything: all six dice"), "134566"),
        ("maxi_yatzy", _("All six the same"), "555555"),
    ],
)


@dataclass(frozen=True)
class SwitchedRoll:
    """A roll whose score in a box a Yatzy house switch changes."""

    key: str
    dice: rules.Dice
    switch: families.Switch

    @property
    def box(self) -> families.FamilyBox:
        return families.YATZY.box(self.key)

    @property
    def shown(self) -> str:
        return " ".join(map(str, self.dice))

    @property
    def plain(self) -> int:
        return YATZY.score(self.box, self.dice)

    @property
    def switched(self) -> int:
        house = rules.HouseRules(families.YATZY, frozenset({self.switch}))
        return house.score(self.box, self.dice)


YATZY_SWITCHED = [
    SwitchedRoll("full_house", (3, 3, 3, 3, 3), families.Switch.FIVE_ALIKE_FULL_HOUSE),
    SwitchedRoll("two_pairs", (1, 5, 5, 5, 5), families.Switch.FOUR_ALIKE_TWO_PAIRS),
]


@cache
def all_alike_odds(dice: int) -> Fraction:
    return odds.all_alike_in_one_turn(dice)


def _family_facts(house: rules.HouseRules[Any]) -> dict:
    family = house.family
    chance = all_alike_odds(family.dice_count)
    return {
        "family": family,
        "turns": len(family.boxes),
        "bonus": house.upper_bonus,
        "par": [house.pace_par(box) for box in family.upper_boxes],
        "maximum": house.maximum_score(),
        "odds": chance,
        "odds_one_in": round(1 / chance),
    }


def family_context() -> dict:
    """The Yatzy and Maxi Yatzy sections' numbers, every one the engine's."""
    return {
        "yatzy": _family_facts(YATZY) | {"examples": YATZY_EXAMPLES},
        "maxi": _family_facts(MAXI) | {"examples": MAXI_EXAMPLES},
        "yatzy_switched": YATZY_SWITCHED,
        "yatzy_short_run": FamilyExample(YATZY, "small_straight", "", (1, 2, 3, 4, 6)),
        "saved_rolls": families.Switch.SAVED_ROLLS,
    }


def sheet_facts() -> dict:
    """The numbers printed under every score sheet."""
    return {
        "upper_bonus": rules.UPPER_BONUS,
        "threshold": rules.UPPER_BONUS_THRESHOLD,
        "extra_bonus": rules.EXTRA_YAHTZEE_BONUS,
        "yahtzee_points": rules.YAHTZEE_POINTS,
    }
