"""Statistics over many games, checked against the rules engine."""

from scorecard import services
from scorecard.models import Game, Player
from scorecard.progress import load_progress
from scorecard.rules import Box
from scorecard.statistics import player_stats, running_totals
from tests.factories import bulk_finished_games


def test_player_statistics_match_the_engine(household):
    games = bulk_finished_games(household, ["Ann", "Bob"], 20, seed=5)
    ann = Player.objects.get(name="Ann")
    stats = player_stats(ann)
    totals = [load_progress(g).seats[0].totals.total for g in games]
    others = [load_progress(g).seats[1].totals.total for g in games]
    assert sorted(stats.finals) == sorted(totals)
    assert stats.wins == sum(a >= b for a, b in zip(totals, others, strict=True))
    assert stats.best == max(totals) and stats.worst == min(totals)


def test_running_totals_count_triple_cards_by_their_multiplier(household):
    game = services.game_create(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    for turn, card in enumerate((1, 2), start=1):
        services.record_box(
            game=game, version=turn - 1, turn=turn, box=Box.CHANCE, card=card, dice=(6,) * 5
        )
    (series,) = running_totals(load_progress(game))
    assert series.values == [30, 30 + 2 * 30]
