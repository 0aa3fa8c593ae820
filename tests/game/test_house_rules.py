"""A game knows the rules its table plays: the family, switches, bonus and order."""

from scorecard.engine import families, rules
from scorecard.models import Game


def test_a_game_made_before_families_plays_standard_yahtzee():
    assert Game().house_rules == rules.STANDARD


def test_a_yatzy_game_plays_its_switches_in_card_order():
    game = Game(family="yatzy", switches="five_alike_full_house,four_alike_two_pairs")
    game.forced_order = True
    house = game.house_rules
    assert house.family is families.YATZY and house.forced
    assert house.switches == {
        families.Switch.FIVE_ALIKE_FULL_HOUSE,
        families.Switch.FOUR_ALIKE_TWO_PAIRS,
    }
    assert house.score(families.YATZY.box("full_house"), "33333") == 15


def test_a_maxi_game_may_set_its_own_upper_bonus():
    game = Game(family="maxi", bonus_threshold=73, bonus_points=50, switches="saved_rolls")
    assert game.house_rules.upper_bonus == families.UpperBonus(73, 50)
    assert game.house_rules.saves_rolls
    assert Game(family="maxi").house_rules.upper_bonus == families.UpperBonus(84, 100)
