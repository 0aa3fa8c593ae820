"""The turn panel's presenter: only what the response shows, built from the loaded game."""

from django.urls import reverse

from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.presenters.turn_panel import build_turn_panel
from tests.factories import play


def test_a_table_turn_without_dice_shows_the_pad_and_no_choices(game):
    panel = build_turn_panel(load_progress(game), {})
    assert panel.current.player.name == "Ann" and panel.dice_entry is not None
    assert panel.choices == [] and panel.dice is None


def test_entered_dice_give_every_open_box_with_its_value(game):
    panel = build_turn_panel(load_progress(game), {"dice": "44425"})
    values = {choice.box: choice.option.points for choice in panel.choices}
    assert values[Box.FOURS] == 12 and values[Box.THREE_OF_A_KIND] == 19
    assert all(choice.rating is None for choice in panel.choices)  # advice is off


def test_a_digital_turn_builds_no_dice_pad(digital):
    services.roll_dice(game=digital, version=0, turn=1)
    panel = build_turn_panel(load_progress(digital), {"dice": "11111"})
    assert panel.dice_entry is None
    assert panel.dice == tuple(sorted(panel.progress.table_dice))
    assert len(panel.table) == 5 and len(panel.choices) == 13


def test_a_finished_game_has_no_current_player(household):
    game = services.game_create(owner=household, names=["Solo"])
    from tests.factories import SOLO_GAME

    play(game, SOLO_GAME)
    panel = build_turn_panel(load_progress(game), {})
    assert panel.current is None and panel.card is None and panel.choices == []


def test_the_panel_links_to_the_owners_addresses(game):
    panel = build_turn_panel(load_progress(game), {})
    assert panel.links.record == reverse("game-record", args=[game.public_id])


def test_a_digital_last_turn_marks_the_dice_that_win_most_often(household, policy_tables, seeded):
    """Both players roll once a turn and take the first open box; on Bob's very last turn
    the ★ marks follow `strategy.rate_keeps_to_win`, not the keep for points."""
    from scorecard.engine import strategy

    game = services.game_create(owner=household, names=["Ann", "Bob"], digital=True)
    for turn in range(1, 26):
        game.refresh_from_db()
        progress = services.roll_dice(game=game, version=game.version, turn=turn)
        box = progress.current.cards[0].open_boxes()[0]
        game.refresh_from_db()
        services.record_box(game=game, version=game.version, turn=turn, box=box, card=1)
    game.refresh_from_db()
    services.roll_dice(game=game, version=game.version, turn=26)
    progress = load_progress(game)
    panel = build_turn_panel(progress, {}, advice_setting="on")
    assert panel.play_to_win is not None and panel.last_turn_note
    card, rival = progress.current.cards[0], progress.seats[0].totals.total
    ranked = strategy.rate_keeps_to_win(
        card.filled, progress.table_dice, 2, game.joker_rule, card.extra_yahtzees, [rival]
    )
    held = sorted(die.face for die in panel.table if die.advised)
    assert tuple(held) == ranked[0][0] == panel.play_to_win.to_win[0]


def test_the_panel_chooses_its_mode_from_the_game_and_who_looks(game, digital):
    from scorecard.access.links import GameLinks, Role
    from scorecard.presenters.turn_panel import Mode

    progress = load_progress(game)
    assert build_turn_panel(progress, {}).mode == Mode.DICE_PAD
    watcher = GameLinks("token", Role.WATCHER)
    watching = build_turn_panel(progress, {"dice": "44425"}, links=watcher)
    assert watching.mode == Mode.WATCHING and watching.dice_entry.text == ""
    assert build_turn_panel(load_progress(digital), {}).mode == Mode.ROLLING


def test_the_typed_points_form_waits_for_its_box_to_open(game):
    progress = load_progress(game)
    assert build_turn_panel(progress, {}).typed_on_demand
    opened = build_turn_panel(progress, {"typed": "1"})
    assert opened.typed_open and not opened.typed_on_demand


def test_advice_is_rated_only_for_a_browser_that_chose_it_always(game, strategy_tables):
    from scorecard.engine import rules

    strategy_tables.load(rules.JokerRule.HASBRO)
    progress = load_progress(game)
    coached = build_turn_panel(progress, {"dice": "44425"}, advice_setting="coach-2")
    assert not coached.wants_advice and coached.advice_setting == "coach-2"
    always = build_turn_panel(progress, {"dice": "44425"}, advice_setting="on")
    assert always.wants_advice and always.choices[0].rating is not None
