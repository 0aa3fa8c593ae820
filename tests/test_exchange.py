"""The export format: a round trip, and every fault refused whole."""

import json
import re

import pytest

from scorecard import exchange, services
from scorecard.models import Entry, Game, Household, Player
from scorecard.rules import Box
from tests.conftest import finished_game, good_document
from tests.factories import SOLO_GAME, GameFactory, play


def test_export_then_import_reproduces_every_game_exactly(client_of, household):
    finished_game(household)
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.CHALLENGE)
    play(game, SOLO_GAME[:3])
    Entry.objects.filter(game=game, turn=2).update(corrected=game.created)
    from scorecard import services

    services.undo_last_entry(game=game, version=3)
    play(game, [SOLO_GAME[5]])
    digital = services.game_create(owner=household, names=["Dee"], digital=True)
    services.roll_dice(game=digital, version=0, turn=1)
    services.roll_dice(game=digital, version=1, turn=1, hold=[1, 2])
    services.record_box(game=digital, version=2, turn=1, box=Box.CHANCE)
    before = exchange.export_games(Game.objects.all())
    assert len(before["games"]) == 3 and len(before["games"][2]["rolls"]) == 2
    assert before["games"][1]["undone"][0]["box"] == SOLO_GAME[2][0].key
    Game.objects.all().delete()
    Player.objects.all().delete()
    Household.objects.all().delete()
    services.games_import(games=exchange.read_games(json.loads(json.dumps(before))))
    after = exchange.export_games(Game.objects.all())
    assert after == before


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d.update(format="other"), "the format is not"),
        (lambda d: d["games"][0].update(mode="speed"), "games[0].mode: unknown mode."),
        (lambda d: d["games"][0]["entries"][0].update(box="sevens"), "no box called 'sevens'"),
        (lambda d: d["games"][0]["entries"][0].update(points=4), "Ann's card 1: Turn 1 (Ones)"),
        (lambda d: d["games"][0]["entries"][3].update(turn=9), "turns run 1, 2, 3"),
        (lambda d: d["games"][0]["entries"][0].update(dice="7"), "A roll is five dice"),
        (lambda d: d["games"][0].update(players=[]), "a game has 1 to 8 players"),
        (lambda d: d["games"].append(dict(d["games"][0])), "the same game appears twice"),
        (lambda d: d["games"][0].update(created="yesterday"), "not an ISO 8601 time"),
        (lambda d: d["games"][0].pop("entries"), "'entries' is missing"),
    ],
)
def test_a_bad_import_is_refused_whole(household, spoil, message):
    document = good_document(household)
    finished_game(household, names=("Other",))
    spoil(document)
    with pytest.raises(services.Refusal, match=re.escape(message)):
        services.games_import(games=exchange.read_games(document))
    assert Game.objects.count() == 1


def test_importing_a_game_twice_is_refused(household):
    finished_game(household)
    document = exchange.export_games(Game.objects.all())
    with pytest.raises(services.Refusal, match="is already here"):
        services.games_import(games=exchange.read_games(document))
