"""Results: a finished game's figures are kept when its state changes, never when read."""

import dataclasses
import io
from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone

from scorecard.engine.rules import Box
from scorecard.game import results, services
from scorecard.history import exchange
from scorecard.history.statistics import player_stats
from scorecard.models import Entry, Game, Player, PlayerBoxTotal, PlayerFigures, Seat
from tests.factories import GameFactory, bulk_finished_games, play
from tests.helpers import SOLO_GAME, finished_game


def unsettled() -> int:
    return Seat.objects.filter(game__finished__isnull=False, final_total=None).count()


def figures_of_everyone() -> dict:
    """Every player's figures and box totals as kept, to compare with a fresh count."""
    figures = {
        row["player_id"]: row
        for row in PlayerFigures.objects.values("player_id", *PlayerFigures.COUNTS, "bands")
    }
    boxes = set(
        PlayerBoxTotal.objects.filter(cards__gt=0).values_list("player", "box", "points", "cards")
    )
    return {"figures": figures, "boxes": boxes}


def figures_settled_afresh() -> dict:
    """The same figures counted from nothing: every result forgotten, then settled again by
    the command an upgrade runs."""
    PlayerFigures.objects.all().delete()
    PlayerBoxTotal.objects.all().delete()
    Seat.objects.update(**dict.fromkeys(results.SETTLED_FIELDS))
    call_command("settle_results", stdout=io.StringIO())
    return figures_of_everyone()


def stats_by_name() -> dict:
    """What each player's page shows, by name (an import may give players new rows)."""
    shown = {}
    for player in Player.objects.all():
        stats = player_stats(player)
        fields = [field.name for field in dataclasses.fields(stats) if field.name != "player"]
        shown[player.name] = {name: getattr(stats, name) for name in fields}
    return shown


def test_the_last_box_settles_the_game_at_once(household):
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    turns = [turn for turn in SOLO_GAME for _ in range(2)]
    play(game, turns[:-1])
    assert not Seat.objects.exclude(final_total=None).exists()  # not before it ends
    play(game, turns[-1:])
    assert unsettled() == 0
    ann = Player.objects.get(name="Ann")
    assert PlayerFigures.objects.get(player=ann).games == 1
    assert player_stats(ann).games == 1


def test_correcting_a_finished_game_settles_it_again_with_the_new_points(household):
    game = finished_game(household, names=("Ann",))
    ann = Player.objects.get(name="Ann")
    before = player_stats(ann).best
    chance = Entry.objects.get(game=game, box=Box.CHANCE.key)
    services.correct_box(game=game, version=game.version, entry=chance, dice=(1, 1, 2, 2, 3))
    assert unsettled() == 0
    assert player_stats(ann).best == before - (26 - 9)
    assert figures_of_everyone() == figures_settled_afresh()


def test_an_undo_takes_a_finished_games_results_back_and_the_last_box_settles_them_again(
    household,
):
    game = finished_game(household)
    ann = Player.objects.get(name="Ann")
    first = figures_of_everyone()
    _, undone = services.undo_last_entry(game=game, version=game.version)
    assert player_stats(ann).games == 0
    assert not Seat.objects.exclude(final_total=None).exists()
    services.record_box(
        game=game, version=game.version, turn=26, box=undone.rules_box, dice=undone.dice_tuple
    )
    assert figures_of_everyone() == first == figures_settled_afresh()


def test_an_import_settles_the_games_it_writes(household):
    finished_game(household)
    finished_game(household, names=("Ann",))
    document = exchange.export_games(Game.objects.all())
    before = stats_by_name()
    Game.objects.all().delete()
    Player.objects.all().delete()  # and with them their figures
    services.games_import(games=exchange.read_games(document))
    assert unsettled() == 0
    assert stats_by_name() == before
    assert before["Ann"]["games"] == 2
    assert figures_of_everyone() == figures_settled_afresh()


def test_pruning_a_settled_game_takes_its_results_back(household):
    """A game with no box filled is only ever finished by an older import; pruned, it
    leaves its player's figures as if it had never been."""
    game = GameFactory(owner=household, names=["Ann"])
    Game.objects.filter(pk=game.pk).update(
        finished=timezone.now(), created=timezone.now() - timedelta(days=60)
    )
    call_command("settle_results", stdout=io.StringIO())
    ann = Player.objects.get(name="Ann")
    assert PlayerFigures.objects.get(player=ann).games == 1
    finished_game(household, names=("Ann",))
    services.games_prune(started_before=timezone.now() - timedelta(days=30))
    assert not Game.objects.filter(pk=game.pk).exists()
    assert PlayerFigures.objects.get(player=ann).games == 1
    assert figures_of_everyone() == figures_settled_afresh()


def test_the_command_settles_what_an_upgrade_left_in_batches_and_says_how_far_it_is(household):
    bulk_finished_games(household, ["Ann", "Bob"], 7, settle=False)
    assert unsettled() == 14
    out = io.StringIO()
    call_command("settle_results", batch_size=3, stdout=out)
    assert unsettled() == 0
    lines = out.getvalue().splitlines()
    assert lines[:3] == [
        "Settled 3 of 7 finished games.",
        "Settled 6 of 7 finished games.",
        "Settled 7 of 7 finished games.",
    ]
    assert player_stats(Player.objects.get(name="Ann")).games == 7
    out = io.StringIO()
    call_command("settle_results", stdout=out)
    assert out.getvalue() == "Every finished game is settled.\n"


def test_an_upgrade_counts_the_yatzys_its_settled_games_scored(household):
    """Yatzy seats were settled with no Yatzy counted: the migration counts them, on the seat
    and in its player's figures for Yatzy."""
    from importlib import import_module

    from django.apps import apps

    from tests.game.test_family_games import YATZY, YATZY_CARD, solo

    migration = import_module("scorecard.migrations.0016_all_alike_counted_in_every_family")
    game = play(solo(household, YATZY), YATZY_CARD)
    player = game.seats.get().player
    Seat.objects.filter(game=game).update(yahtzees=0)  # as an older version settled it
    PlayerFigures.objects.filter(player=player).update(yahtzees=0)
    migration.count_all_alike(apps, None)
    assert Seat.objects.get(game=game).yahtzees == 1
    assert PlayerFigures.objects.get(player=player, family="yatzy").yahtzees == 1


def test_an_upgrade_gives_typed_five_alike_the_bonus_and_settles_their_games_again(household):
    """Before typed points only five alike make earned the extra-Yahtzee bonus by
    themselves, a finished game could hold Fives 25 after a 50 without the 100, settled
    without it: the migration gives the bonus, and `settle_results` counts the game afresh,
    its winner too (Ann's 100 puts her ahead of Bob)."""
    from importlib import import_module

    from django.apps import apps

    from scorecard.game.progress import load_progress

    migration = import_module("scorecard.migrations.0017_typed_five_alike_earn_their_bonus")
    game = services.game_create(owner=household, names=["Ann", "Bob"])
    same = [(Box.YAHTZEE, (5,) * 5), *SOLO_GAME[:4], *SOLO_GAME[5:11]]
    ann = [*same, (Box.FIVES, 25), (Box.CHANCE, (1, 1, 1, 1, 2))]  # 25 typed
    bob = [*same, (Box.FIVES, (5, 5, 5, 1, 2)), (Box.CHANCE, (6, 6, 6, 6, 5))]  # 13 more
    turns = [turn for pair in zip(ann, bob, strict=True) for turn in pair]
    for version, (box, said) in enumerate(turns):
        points, dice = (said, None) if isinstance(said, int) else (None, said)
        services.record_box(game=game, version=version, turn=version + 1, box=box, dice=dice,
                            points=points)  # fmt: skip
    typed = Entry.objects.get(seat__position=0, box="fives")
    assert typed.yahtzee_bonus
    results.unsettle(load_progress(game))  # as an older version recorded and settled it
    Entry.objects.filter(pk=typed.pk).update(yahtzee_bonus=False)
    results.settle_games([Game.objects.get(pk=game.pk)])
    assert list(Seat.objects.filter(game=game).values_list("won", flat=True)) == [False, True]
    migration.give_earned_bonuses(apps, None)
    assert unsettled() == 2 and Entry.objects.get(pk=typed.pk).yahtzee_bonus
    PlayerFigures.objects.update(contests=0)  # the next migration's new field, then its count
    import_module("scorecard.migrations.0018_games_with_others").count_games_with_others(apps, None)
    call_command("settle_results", stdout=io.StringIO())
    seats = Seat.objects.filter(game=game).order_by("position")
    assert [(seat.won, seat.extra_yahtzees) for seat in seats] == [(True, 1), (False, 0)]
    assert figures_of_everyone() == figures_settled_afresh()


def test_an_upgrade_counts_each_players_games_with_others(household):
    """Wins are counted out of the games with others: the migration counts those already
    settled, and a seat of a game alone, settled as not won, becomes neither."""
    from importlib import import_module

    from django.apps import apps

    migration = import_module("scorecard.migrations.0018_games_with_others")
    finished_game(household, names=("Ann",))
    finished_game(household, names=("Ann", "Bob"))
    Seat.objects.filter(won=None).update(won=False)  # as an older version settled them
    PlayerFigures.objects.update(contests=0)
    migration.count_games_with_others(apps, None)
    alone = Seat.objects.get(game__seats__player__name="Ann", player__name="Ann", won=None)
    assert alone.game.seats.count() == 1
    contests = dict(PlayerFigures.objects.values_list("player__name", "contests"))
    assert contests == {"Ann": 1, "Bob": 1}
    assert figures_of_everyone() == figures_settled_afresh()
