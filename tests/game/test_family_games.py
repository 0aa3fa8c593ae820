"""Yatzy and Maxi Yatzy games through the services: created with their house rules, filled,
corrected and undone by the game's own rules, totalled with the family's bonus."""

import pytest

from scorecard.engine import families
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.models import Game
from tests.factories import GameFactory, play, play_on

YATZY = services.HouseSettings(families.YATZY.key)
FORCED_YATZY = services.HouseSettings(families.YATZY.key, forced=True)
MAXI = services.HouseSettings(families.MAXI.key)

# A whole Yatzy card, by box key: 3 of each face in the upper boxes makes the 63.
YATZY_CARD = [
    ("ones", (1, 1, 1, 2, 3)),  # 3
    ("twos", (2, 2, 2, 1, 3)),  # 6
    ("threes", (3, 3, 3, 1, 2)),  # 9
    ("fours", (4, 4, 4, 1, 2)),  # 12
    ("fives", (5, 5, 5, 1, 2)),  # 15
    ("sixes", (6, 6, 6, 1, 2)),  # 18
    ("one_pair", (6, 6, 1, 2, 3)),  # 12
    ("two_pairs", (2, 2, 3, 3, 3)),  # 10
    ("three_of_a_kind", (4, 4, 4, 1, 2)),  # 12
    ("four_of_a_kind", (5, 5, 5, 5, 1)),  # 20
    ("small_straight", (1, 2, 3, 4, 5)),  # 15
    ("large_straight", (2, 3, 4, 5, 6)),  # 20
    ("full_house", (2, 2, 3, 3, 3)),  # 13
    ("chance", (6, 6, 5, 5, 4)),  # 26
    ("yatzy", (4, 4, 4, 4, 4)),  # 50
]


def solo(household, house, names=("Solo",)) -> Game:
    return GameFactory(owner=household, names=list(names), house=house)


def test_a_yatzy_game_keeps_its_family_switches_and_order(household):
    house = services.HouseSettings(
        "yatzy", frozenset({families.Switch.FOUR_ALIKE_TWO_PAIRS}), forced=True
    )
    game = solo(household, house)
    game.refresh_from_db()
    assert (game.family, game.switches, game.forced_order) == (
        "yatzy",
        "four_alike_two_pairs",
        True,
    )
    assert game.house_rules.family is families.YATZY
    assert game.house_rules.score(families.YATZY.box("two_pairs"), (5, 5, 5, 5, 1)) == 20


def test_a_non_yahtzee_game_drops_the_yahtzee_only_choices(household):
    game = services.game_create(
        owner=household,
        names=["Ann"],
        joker=services.rules.JokerRule.FREE,
        mode=Game.Mode.TRIPLE,
        house=YATZY,
    )
    assert (game.joker, game.mode, game.cards_per_player) == ("hasbro", "standard", 1)


def test_a_house_rule_the_family_lacks_is_refused(household):
    house = services.HouseSettings("yatzy", frozenset({families.Switch.SAVED_ROLLS}))
    with pytest.raises(services.Refusal, match="has no house rule"):
        solo(household, house)
    assert not Game.objects.exists()


def test_a_whole_yatzy_card_earns_the_bonus_of_50_and_adds_up(household):
    game = play(solo(household, YATZY), YATZY_CARD)
    progress = load_progress(game)
    totals = progress.seats[0].totals
    assert (totals.upper, totals.bonus, totals.lower, totals.total) == (63, 50, 178, 291)
    assert progress.total_turns == 15 and progress.is_finished and game.finished


def test_a_yatzy_box_scores_by_yatzy_rules(household):
    game = play(solo(household, YATZY), [("two_pairs", (5, 5, 5, 5, 1))])
    assert game.entries.get().points == 0  # four alike are not two pairs, unless the house says


def test_a_yahtzee_box_is_not_on_a_yatzy_card(household):
    game = solo(household, YATZY)
    with pytest.raises(services.Refusal, match="no box called ‘yahtzee’ on a Yatzy card"):
        services.record_box(game=game, version=0, turn=1, box="yahtzee", dice=(1, 1, 1, 1, 1))


def test_forced_order_takes_only_the_next_box(household):
    game = play(solo(household, FORCED_YATZY, names=("Ann", "Bob")), [("ones", (1, 1, 2, 3, 4))])
    with pytest.raises(services.Refusal, match="filled in order: Ones is next"):
        services.record_box(game=game, version=game.version, turn=2, box="chance", dice=(1,) * 5)
    play(game, [("ones", (1, 2, 3, 4, 5)), ("twos", (2, 2, 2, 2, 1))])
    assert [e.box for e in game.entries.all()] == ["ones", "ones", "twos"]


def test_an_earlier_box_of_a_forced_game_can_be_corrected(household):
    game = play(
        solo(household, FORCED_YATZY), [("ones", (1, 1, 2, 3, 4)), ("twos", (2, 3, 4, 5, 6))]
    )
    entry = game.entries.get(box="ones")
    services.correct_box(game=game, version=game.version, entry=entry, dice=(1, 1, 1, 3, 4))
    entry.refresh_from_db()
    assert entry.points == 3


def test_undo_takes_back_a_yatzy_box(household):
    game = play(solo(household, YATZY), YATZY_CARD[:2])
    undone = services.undo_last_entry(game=game, version=game.version)
    assert undone.entry.rules_box is families.YATZY.box("twos")
    assert undone.progress.seats[0].totals.upper == 3


def test_a_maxi_game_scores_six_dice_and_its_house_bonus(household):
    house = services.HouseSettings("maxi", bonus=families.UpperBonus(80, 50))
    game = solo(household, house)
    upper = [("ones", (1,) * 4 + (2, 3))] + [
        (key, (face,) * 4 + (1, 1))
        for face, key in enumerate(["twos", "threes", "fours", "fives", "sixes"], start=2)
    ]
    play(game, [*upper, ("villa", (3, 3, 3, 5, 5, 5))])
    totals = load_progress(game).seats[0].totals
    assert (totals.upper, totals.bonus, totals.lower) == (84, 50, 24)
    assert load_progress(game).total_turns == 20


def test_five_dice_are_refused_for_maxi_yatzy(household):
    game = solo(household, MAXI)
    with pytest.raises(services.Refusal, match="six dice"):
        services.record_box(game=game, version=0, turn=1, box="chance", dice=(1, 2, 3, 4, 5))


def test_a_rematch_keeps_the_game_and_its_house_rules(household):
    house = services.HouseSettings(
        "maxi", frozenset({families.Switch.SAVED_ROLLS}), families.UpperBonus(80, 50), True
    )
    rematch = services.game_rematch(game=play_on(solo(household, house)))
    assert rematch.house_rules == solo(household, house).house_rules


def test_standings_headings_follow_the_family():
    from scorecard.presenters.standings import headings

    yatzy = services.HouseSettings("yatzy").house_rules()
    names = [heading.short for heading in headings(yatzy)]
    assert names == ["Up", "Bon", "Low", "Total", "Pace"]
    assert "50 once the upper boxes reach 63" in headings(yatzy)[1].meaning
    maxi = services.HouseSettings("maxi", bonus=families.UpperBonus(80, 50)).house_rules()
    assert "50 once the upper boxes reach 80" in headings(maxi)[1].meaning
