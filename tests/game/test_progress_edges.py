"""A game's state at its edges: whose turn it is at the end of a round and of the game,
places shared on a tie, the server's dice of a turn, and many games read at once."""

import random

from scorecard.engine import rules
from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.game.progress import CardProgress, EntryRow, load_many, load_progress
from scorecard.models import Game
from tests.factories import SOLO_GAME, GameFactory, play

STRAIGHT = (1, 2, 3, 4, 6)


def filled(turn, box, points, *, card=1, bonus=False, dice=""):
    return EntryRow(turn, 1, turn, card, box.key, points, dice, bonus)


def record(game, box, **kwargs):
    game.refresh_from_db()
    turn = game.entries.count() + 1
    return services.record_box(game=game, version=game.version, turn=turn, box=box, **kwargs)


def roll(game, hold=()):
    game.refresh_from_db()
    turn = game.entries.count() + 1
    return services.roll_dice(
        game=game, version=game.version, turn=turn, hold=hold, rng=random.Random(7)
    )


def test_a_filled_box_gives_its_dice_in_order_or_none_when_typed():
    assert filled(1, Box.CHANCE, 16, dice="12346").dice_tuple == (1, 2, 3, 4, 6)
    assert filled(1, Box.CHANCE, 16).dice_tuple is None


def test_a_filled_box_is_a_rules_entry_with_its_bonus():
    extra = filled(2, Box.FOURS, 20, dice="44444", bonus=True)
    assert extra.as_rules_entry() == rules.Entry(Box.FOURS, 20, (4, 4, 4, 4, 4), 100)
    assert filled(1, Box.ONES, 3).as_rules_entry() == rules.Entry(Box.ONES, 3, None, 0)


def test_a_card_counts_by_its_number_and_is_full_after_thirteen_boxes():
    card = CardProgress(3)
    assert card.multiplier == 3
    for turn, box in enumerate(list(Box)[:-1], start=1):
        card.add(filled(turn, box, 0 if box.is_lower else box.upper_face))
    assert not card.is_full and card.open_boxes() == [Box.CHANCE]
    card.add(filled(13, Box.CHANCE, 20))
    assert card.is_full and card.open_boxes() == []


def test_a_removed_extra_yahtzee_takes_its_bonus_with_it():
    card = CardProgress(1)
    yahtzee, extra = filled(1, Box.YAHTZEE, 50), filled(2, Box.FIVES, 25, bonus=True)
    card.add(yahtzee)
    card.add(extra)
    assert card.totals.yahtzee_bonus == 100
    card.remove(extra)
    assert card.extra_yahtzees == 0 and card.totals.yahtzee_bonus == 0
    assert card.entries == [yahtzee] and card.filled == {Box.YAHTZEE: 50}


def test_a_triple_game_has_three_cards_a_seat_and_thirty_nine_turns_a_player(household):
    game = GameFactory(owner=household, names=["Ann", "Bob"], mode=Game.Mode.TRIPLE)
    record(game, Box.CHANCE, points=20, card=2)
    progress = load_progress(game)
    assert progress.total_turns == 78
    ann = progress.seats[0]
    assert [card.number for card in ann.cards] == [1, 2, 3]
    assert ann.cards[1].filled == {Box.CHANCE: 20} and ann.totals.total == 40
    assert ann.player.name == "Ann"


def test_a_full_card_is_no_longer_open(household):
    game = GameFactory(owner=household, names=["Tri"], mode=Game.Mode.TRIPLE)
    for box, dice in SOLO_GAME:
        record(game, box, dice=dice, card=2)
    seat = load_progress(game).seats[0]
    assert [card.number for card in seat.open_cards()] == [1, 3]


def test_the_turn_comes_back_to_the_first_player_after_a_round(household):
    game = GameFactory(owner=household, names=["Ann", "Bob", "Cy"])
    play(game, [(Box.CHANCE, STRAIGHT)] * 3)
    progress = load_progress(game)
    assert progress.next_turn == 4 and progress.current.player.name == "Ann"
    play(game, [(Box.ONES, STRAIGHT)])
    assert load_progress(game).current.player.name == "Bob"


def test_a_finished_game_has_no_current_player(household):
    game = GameFactory(owner=household, names=["Solo"])
    play(game, SOLO_GAME[:-1])
    progress = load_progress(game)
    assert not progress.is_finished and progress.current.player.name == "Solo"
    play(game, SOLO_GAME[-1:])
    progress = load_progress(game)
    assert progress.is_finished and progress.current is None
    assert progress.next_turn == 14


def test_an_entry_added_and_removed_moves_the_turn_and_the_card(game):
    progress = load_progress(game)
    bob = progress.seats[1]
    entry = EntryRow(99, bob.seat.pk, 1, 1, "chance", 16, "12346", False)
    progress.add(entry)
    assert entry.seat == bob.seat
    assert bob.cards[0].filled == {Box.CHANCE: 16} and progress.next_turn == 2
    assert progress.seat_of(entry) is bob
    assert progress.remove_last() is entry
    assert bob.cards[0].filled == {} and progress.entries == []


def test_places_are_shared_on_a_tie_and_the_next_place_skips(household):
    game = GameFactory(owner=household, names=["Ann", "Bob", "Cy"])
    play(game, [(Box.CHANCE, (6, 6, 6, 1, 1)), (Box.CHANCE, (6, 6, 6, 1, 1)), (Box.ONES, STRAIGHT)])
    ranking = load_progress(game).ranking()
    assert [(place, seat.player.name, totals.total) for place, seat, totals in ranking] == [
        (1, "Ann", 20),
        (1, "Bob", 20),
        (3, "Cy", 1),
    ]
    assert [seat.player.name for seat in load_progress(game).winners()] == ["Ann", "Bob"]


def test_the_best_total_comes_first_wherever_it_sits(household):
    game = GameFactory(owner=household, names=["Ann", "Bob", "Cy"])
    play(game, [(Box.ONES, STRAIGHT), (Box.CHANCE, STRAIGHT), (Box.CHANCE, (6, 6, 6, 6, 5))])
    progress = load_progress(game)
    ranking = [(place, seat.player.name) for place, seat, _ in progress.ranking()]
    assert ranking == [(1, "Cy"), (2, "Bob"), (3, "Ann")]
    assert [seat.player.name for seat in progress.winners()] == ["Cy"]
    assert [totals.total for _, totals in progress.standings()] == [1, 16, 29]


def test_only_challenge_yahtzee_shares_a_roll_a_round(household):
    standard = GameFactory(owner=household, names=["Ann", "Bob"])
    play(standard, [(Box.CHANCE, STRAIGHT)])
    assert load_progress(standard).round_dice is None


def test_a_challenge_round_shares_the_first_dice_entered_until_it_ends(household):
    game = GameFactory(owner=household, names=["Ann", "Bob"], mode=Game.Mode.CHALLENGE)
    assert load_progress(game).round_dice is None
    record(game, Box.CHANCE, points=20)  # typed: no dice to share yet
    assert load_progress(game).round_dice is None
    record(game, Box.CHANCE, dice=STRAIGHT)
    assert load_progress(game).round_dice is None  # a new round
    record(game, Box.ONES, dice=(6, 1, 1, 2, 3))
    progress = load_progress(game)
    assert progress.round_dice == (1, 1, 2, 3, 6) and progress.turn_dice == (1, 1, 2, 3, 6)


def test_the_servers_dice_of_a_turn_are_its_last_roll(digital):
    progress = load_progress(digital)
    assert progress.table_dice is None and progress.table == [] and progress.turn_dice is None
    assert progress.may_roll and progress.rolls_left == 3
    first = roll(digital).table_dice
    second = roll(digital, hold=[1])
    assert second.table_dice[1] == first[1]
    assert second.table == [(face, i == 1) for i, face in enumerate(second.table_dice)]
    assert second.turn_dice == tuple(sorted(second.table_dice))
    assert second.rolls_left == 1 and second.may_roll
    third = roll(digital)
    assert third.rolls_left == 0 and not third.may_roll
    assert load_progress(digital).table_dice == third.table_dice


def test_a_recorded_box_leaves_the_next_turn_with_no_dice_on_the_table(digital):
    roll(digital)
    progress = record(digital, Box.CHANCE).progress
    assert progress.rolls == [] and progress.table_dice is None and progress.rolls_left == 3


def test_a_table_game_and_a_finished_game_roll_nothing(game, household):
    assert not load_progress(game).may_roll
    solo = services.game_create(owner=household, names=["Dee"], digital=True)
    for _ in range(13):
        roll(solo)
        progress = load_progress(solo)
        record(solo, progress.current.open_cards()[0].open_boxes()[0])
    progress = load_progress(solo)
    assert progress.rolls == [] and not progress.may_roll


def test_a_challenge_round_with_its_roll_shared_rolls_no_more(household):
    game = services.game_create(
        owner=household, names=["Ann", "Bob"], digital=True, mode=Game.Mode.CHALLENGE
    )
    shared = roll(game).turn_dice
    record(game, Box.CHANCE)
    progress = load_progress(game)
    assert not progress.may_roll and progress.turn_dice == shared


def test_many_games_are_read_at_once_each_with_its_seats_and_entries(household):
    first = GameFactory(owner=household, names=["Ann", "Bob"])
    second = GameFactory(owner=household, names=["Cy"])
    play(first, [(Box.CHANCE, STRAIGHT), (Box.ONES, STRAIGHT)])
    play(second, [(Box.FOURS, (4, 4, 4, 1, 2))])
    empty = GameFactory(owner=household, names=["Dee"])
    loaded = load_many([first, second, empty])
    assert [p.game for p in loaded] == [first, second, empty]
    assert [[s.player.name for s in p.seats] for p in loaded] == [["Ann", "Bob"], ["Cy"], ["Dee"]]
    assert [[e.box for e in p.entries] for p in loaded] == [["chance", "ones"], ["fours"], []]
    assert loaded[0].entries[1].seat.player.name == "Bob"
    assert loaded[0].entries[0].created is None  # lists and settling read no times
    assert loaded[1].seats[0].totals.total == 12


def test_seats_come_in_seating_order_with_their_players(household):
    game = GameFactory(owner=household, names=["Ann", "Bob", "Cy"])
    progress = load_progress(Game.objects.get(pk=game.pk))
    assert [seat.player.name for seat in progress.seats] == ["Ann", "Bob", "Cy"]


def test_in_a_triple_game_a_box_comes_and_goes_on_its_own_card(household):
    game = GameFactory(owner=household, names=["Tri"], mode=Game.Mode.TRIPLE)
    cards = record(game, Box.CHANCE, dice=STRAIGHT, card=1).progress.seats[0].cards
    assert [card.filled for card in cards] == [{Box.CHANCE: 16}, {}, {}]
    undone = services.undo_last_entry(game=game, version=1)
    assert [card.filled for card in undone.progress.seats[0].cards] == [{}, {}, {}]


def test_the_rolls_read_belong_to_their_game(digital):
    roll(digital)
    assert [r.game for r in load_progress(digital).rolls] == [digital]


def test_many_games_are_read_in_two_queries(household, django_assert_num_queries):
    games = [GameFactory(owner=household, names=["Ann", "Bob"]) for _ in range(3)]
    for game in games:
        play(game, [(Box.CHANCE, STRAIGHT)])
    with django_assert_num_queries(2):
        loaded = load_many(games)
        names = [[s.player.name for s in p.seats] for p in loaded]
        players = [p.entries[0].seat.player.name for p in loaded]
    assert names == [["Ann", "Bob"]] * 3 and players == ["Ann"] * 3
