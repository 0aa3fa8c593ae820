"""A game's state read once, and kept up to date by the services that change it."""

import dataclasses

from scorecard.engine import rules
from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.game.progress import CardProgress, EntryRow, latest_fix, load_progress
from scorecard.history import exchange
from scorecard.models import ENTRY_FIELDS, Entry, Game, UndoneEntry
from tests.factories import GameFactory, play


def filled(turn, box, points, *, card=1, seat_id=1, bonus=False, dice=""):
    return EntryRow(turn, seat_id, turn, card, box.key, points, dice, bonus)


def test_a_card_keeps_what_it_derives_up_to_date_as_entries_come_and_go():
    card = CardProgress(1)
    fours, yahtzee = filled(1, Box.FOURS, 16), filled(2, Box.YAHTZEE, 50)
    card.add(fours)
    card.add(yahtzee)
    assert card.filled == {Box.FOURS: 16, Box.YAHTZEE: 50}
    assert card.totals == rules.totals({Box.FOURS: 16, Box.YAHTZEE: 50})
    extra = filled(3, Box.CHANCE, 25, bonus=True)
    card.add(extra)
    assert card.extra_yahtzees == 1 and card.totals.total == 16 + 50 + 25 + 100
    card.remove(extra)
    assert card.by_box == {Box.FOURS: fours, Box.YAHTZEE: yahtzee}
    assert card.totals.total == 66 and Box.CHANCE in card.open_boxes()


def test_a_game_is_read_in_two_queries(game, django_assert_num_queries):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2)), (Box.CHANCE, (6, 6, 6, 5, 5))])
    fresh = Game.objects.get(pk=game.pk)
    with django_assert_num_queries(2):
        progress = load_progress(fresh)
    assert [entry.turn for entry in progress.entries] == [1, 2]
    assert progress.entries[0].seat.player.name == "Ann"
    assert progress.entries[0].created is None  # times are read only when asked for


def test_times_are_read_when_asked_for(game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    progress = load_progress(game, with_times=True)
    assert progress.entries[0].created is not None


def test_the_current_seat_moves_round_the_table_and_the_game_ends(household):
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    progress = load_progress(game)
    assert progress.current.player.name == "Ann" and progress.total_turns == 26
    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))])
    assert load_progress(game).current.player.name == "Bob"


def test_a_recorded_entry_is_added_to_the_state_the_service_read(game):
    recorded = services.record_box(game=game, version=0, turn=1, box=Box.FOURS, dice=(4,) * 5)
    fresh = load_progress(Game.objects.get(pk=game.pk))
    assert recorded.progress.current.player.name == fresh.current.player.name == "Bob"
    assert recorded.progress.standings()[0][1] == fresh.standings()[0][1]
    assert recorded.progress.game.version == fresh.game.version == 1


def test_undo_reads_the_rolls_of_the_turn_it_reopens(digital):
    services.roll_dice(game=digital, version=0, turn=1)
    services.record_box(game=digital, version=1, turn=1, box=Box.CHANCE)
    progress, undone = services.undo_last_entry(game=digital, version=2)
    assert undone.turn == 1 and progress.next_turn == 1
    assert len(progress.rolls) == 1 and progress.turn_dice is not None


def test_triple_yahtzee_counts_its_cards_by_their_multiplier(household):
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    for card, dice in [(1, (1, 2, 3, 4, 6)), (3, (6, 6, 6, 6, 5))]:
        game.refresh_from_db()
        services.record_box(
            game=game, version=game.version, turn=game.entries.count() + 1,
            box=Box.CHANCE, card=card, dice=dice,
        )  # fmt: skip
    seat = load_progress(game).seats[0]
    assert seat.totals.total == 16 * 1 + 29 * 3


def test_a_filled_box_has_one_list_of_fields_from_the_table_to_the_export(game):
    """The stored rows, the rows a game's state holds and an export all name the same
    fields of a filled box, taken from one list."""
    assert ("pk", "seat_id", *ENTRY_FIELDS) == EntryRow.COLUMNS
    names = [field.name for field in dataclasses.fields(EntryRow)]
    assert names[: len(EntryRow.COLUMNS)] == list(EntryRow.COLUMNS)
    for model in (Entry, UndoneEntry):
        assert all(model._meta.get_field(name).concrete for name in ENTRY_FIELDS)
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    services.undo_last_entry(game=game, version=1)
    (exported,) = exchange.export_games(Game.objects.all())["games"]
    assert exported["undone"][0].keys() == {*ENTRY_FIELDS, "seat", "recorded", "undone"}


def test_the_latest_fix_is_the_last_correction_or_undo_unless_a_roll_came_after(household):
    game = services.game_create(owner=household, names=["Dee"], digital=True)
    assert latest_fix(game) is None
    services.roll_dice(game=game, version=0, turn=1)
    services.record_box(game=game, version=1, turn=1, box=Box.CHANCE)
    services.undo_last_entry(game=game, version=2)
    assert isinstance(fix := latest_fix(game), UndoneEntry) and fix.box == "chance"
    services.roll_dice(game=game, version=3, turn=1, hold=[1])
    assert latest_fix(game) is None
