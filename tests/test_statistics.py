"""Statistics over many games, checked against the rules engine."""

from scorecard.models import Player
from scorecard.progress import load_progress
from tests.factories import bulk_finished_games


def test_player_statistics_match_the_engine(household):
    from scorecard.statistics import player_stats

    games = bulk_finished_games(household, ["Ann", "Bob"], 20, seed=5)
    ann = Player.objects.get(name="Ann")
    stats = player_stats(ann)
    totals = [load_progress(g).seats[0].totals.total for g in games]
    others = [load_progress(g).seats[1].totals.total for g in games]
    assert sorted(stats.finals) == sorted(totals)
    assert stats.wins == sum(a >= b for a, b in zip(totals, others, strict=True))
    assert stats.best == max(totals) and stats.worst == min(totals)
