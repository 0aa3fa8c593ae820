"""Statistics over many games, checked against the rules engine."""

import pytest

from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.game.results import waiting_games
from scorecard.history.statistics import BAND, player_stats, running_totals
from scorecard.models import Game, Player, PlayerBoxTotal
from tests.factories import bulk_finished_games


def test_player_statistics_match_the_engine(household):
    games = bulk_finished_games(household, ["Ann", "Bob"], 20, seed=5)
    ann = Player.objects.get(name="Ann")
    stats = player_stats(ann)
    totals = [load_progress(g).seats[0].totals.total for g in games]
    others = [load_progress(g).seats[1].totals.total for g in games]
    assert stats.games == stats.scored_games == 20
    assert stats.average == pytest.approx(sum(totals) / 20)
    assert stats.wins == sum(a >= b for a, b in zip(totals, others, strict=True))
    assert stats.best == max(totals) and stats.worst == min(totals)
    assert sum(count for _, count in stats.bands) == 20
    assert all(low % BAND == 0 for low, _ in stats.bands)
    chance = [load_progress(g).seats[0].cards[0].filled[Box.CHANCE] for g in games]
    assert dict(stats.box_averages)[Box.CHANCE] == pytest.approx(sum(chance) / 20)


def test_a_game_played_alone_is_no_win(household):
    bulk_finished_games(household, ["Solo"], 3)
    stats = player_stats(Player.objects.get(name="Solo"))
    assert stats.games == 3 and stats.wins == 0


def test_statistics_are_taken_back_when_a_game_reopens_and_kept_again_when_it_ends(household):
    (game,) = bulk_finished_games(household, ["Ann", "Bob"], 1, seed=2)
    ann = Player.objects.get(name="Ann")
    first = player_stats(ann)
    assert not waiting_games().exists()  # settled as it finished
    before = PlayerBoxTotal.objects.get(player=ann, box="chance")
    game.refresh_from_db()
    _, undone = services.undo_last_entry(game=game, version=game.version)
    assert player_stats(ann).games == 0
    assert PlayerBoxTotal.objects.get(player=ann, box="chance").cards == before.cards - 1
    game.refresh_from_db()
    last = load_progress(game).current
    assert last.player.name == "Bob"
    services.record_box(
        game=game, version=game.version, turn=26, box=undone.rules_box, dice=undone.dice_tuple
    )
    assert player_stats(ann) == first


def test_running_totals_count_triple_cards_by_their_multiplier(household):
    game = services.game_create(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    for turn, card in enumerate((1, 2), start=1):
        services.record_box(
            game=game, version=turn - 1, turn=turn, box=Box.CHANCE, card=card, dice=(6,) * 5
        )
    (series,) = running_totals(load_progress(game))
    assert series.values == [30, 30 + 2 * 30]


def test_games_played_are_counted_from_the_figures_as_every_seat_would_be(household):
    """The players list counts settled games from the running figures and only the seats not
    settled one by one: the same numbers as counting every seat, through finishing,
    correcting, reopening, waiting for `settle_results` and pruning."""
    from django.db.models import Count
    from django.utils import timezone

    from scorecard.game import results
    from scorecard.history.statistics import players_with_games_played
    from scorecard.models import Seat
    from tests.factories import GameFactory, play_on

    def counted() -> dict[str, int]:
        by_seat = household.players.annotate(sat=Count("seats"))
        assert {p.name: p.played for p in players_with_games_played(household)} == {
            p.name: p.sat for p in by_seat
        }
        return {p.name: p.sat for p in by_seat}

    yatzy = services.HouseSettings("yatzy")
    maxi = services.HouseSettings("maxi")
    bulk_finished_games(household, ["Ann", "Bob"], 3, seed=1)
    bulk_finished_games(household, ["Ann", "Cy"], 2, seed=2, settle=False)  # after an upgrade
    play_on(GameFactory(owner=household, names=["Ann", "Bob"], house=yatzy), seed=3)
    play_on(GameFactory(owner=household, names=["Cy", "Ann"], house=maxi), seed=4)
    play_on(GameFactory(owner=household, names=["Bob"], mode=Game.Mode.TRIPLE), turns=4)
    reopened = play_on(GameFactory(owner=household, names=["Di", "Ann"]), seed=5)
    GameFactory(owner=household, names=["Ann", "Eve"])  # no box filled: pruned below
    assert counted() == {"Ann": 9, "Bob": 5, "Cy": 3, "Di": 1, "Eve": 1}
    first = reopened.entries.get(turn=1)  # Di's ones
    services.correct_box(game=reopened, version=reopened.version, entry=first, dice=(1, 1, 1, 2, 3))
    counted()
    reopened.refresh_from_db()
    services.undo_last_entry(game=reopened, version=reopened.version, confirmed=True)
    counted()
    list(results.settle_waiting())
    assert not results.waiting_games().exists()
    counted()
    services.games_prune(started_before=timezone.now())
    assert counted() == {"Ann": 8, "Bob": 5, "Cy": 3, "Di": 1, "Eve": 0}
    assert Seat.objects.filter(scored__isnull=True).count() == 3  # the games going
