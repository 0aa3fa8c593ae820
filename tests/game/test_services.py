"""Services: every change to a game, its guards, two phones at once, and the server's dice."""

import random
import threading
from statistics import fmean

import pytest
from django.db import connection

from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.models import Entry, Game
from tests.factories import GameFactory, HouseholdFactory, play


def test_a_random_start_rotates_the_seating(household):
    import random

    from scorecard.game import services

    game = services.game_create(
        owner=household, names=["A", "B", "C"], random_start=True, rng=random.Random(2)
    )
    order = [s.player.name for s in game.seats.all()]
    assert sorted(order) == ["A", "B", "C"]
    assert "".join(order) in "ABCABC"


CRITICAL_5_DOF_P001 = 20.515  # chi-square, 5 degrees of freedom, p = 0.001


def chi_square(faces) -> float:
    expected = len(faces) / 6
    return sum((faces.count(face) - expected) ** 2 / expected for face in range(1, 7))


def test_server_dice_are_fair_by_chi_square():
    rng = random.Random(20261130)
    faces = [f for _ in range(12_000) for f in services.roll_faces(rng, None, ())]
    assert chi_square(faces) < CRITICAL_5_DOF_P001
    assert fmean(faces) == pytest.approx(3.5, abs=0.03)


def test_a_biased_die_would_fail_the_chi_square_test():
    class LoadedDie(random.Random):
        def randint(self, low, high):
            face = super().randint(low, high)
            return 6 if face == 1 and self.random() < 0.1 else face

    faces = [f for _ in range(12_000) for f in services.roll_faces(LoadedDie(3), None, ())]
    assert chi_square(faces) > CRITICAL_5_DOF_P001


def test_the_server_uses_the_operating_systems_random_source():
    assert isinstance(services.dice_source, random.SystemRandom)


def run_together(*calls):
    results, barrier = [None] * len(calls), threading.Barrier(len(calls))

    def run(index, call):
        barrier.wait()
        try:
            results[index] = call()
        except Exception as error:  # the outcome is the assertion's business
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_different_entries_at_once_record_one_and_refuse_the_other():
    game = GameFactory(owner=HouseholdFactory(), names=["Ann", "Bob"])

    def entry(box):
        return lambda: services.record_box(
            game=Game.objects.get(pk=game.pk), version=0, turn=1, box=box, dice=(1, 2, 3, 4, 6)
        )

    outcomes = run_together(entry(Box.CHANCE), entry(Box.SMALL_STRAIGHT))
    assert sorted(type(o).__name__ for o in outcomes) == ["GameChanged", "Recorded"]
    assert Entry.objects.count() == 1
    assert Game.objects.get(pk=game.pk).version == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_entry_twice_at_once_is_recorded_once():
    game = GameFactory(owner=HouseholdFactory(), names=["Ann"])

    def tap():
        return services.record_box(
            game=Game.objects.get(pk=game.pk), version=0, turn=1, box=Box.CHANCE, points=20
        )

    outcomes = run_together(tap, tap)
    assert all(isinstance(outcome, tuple) for outcome in outcomes), outcomes
    assert sorted(outcome.is_new for outcome in outcomes) == [False, True]
    assert Entry.objects.count() == 1


def test_a_game_needs_a_known_mode(household):
    with pytest.raises(services.Refusal, match="no game mode called 'speed'"):
        services.game_create(owner=household, names=["Ann"], mode="speed")


def test_a_name_is_at_most_forty_characters(household):
    with pytest.raises(services.Refusal, match="at most 40 characters"):
        services.game_create(owner=household, names=["x" * 41])


def test_a_repeat_with_other_dice_is_a_stale_screen_not_a_repeat(game):
    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))])
    with pytest.raises(services.GameChanged):
        services.record_box(game=game, version=0, turn=1, box=Box.CHANCE, dice=(6, 6, 6, 6, 6))
    with pytest.raises(services.GameChanged):
        services.record_box(game=game, version=0, turn=1, box=Box.CHANCE, points=16)
    assert Entry.objects.count() == 1


def test_a_typed_entry_sent_twice_is_recorded_once(game):
    first = services.record_box(game=game, version=0, turn=1, box=Box.ONES, points=3)
    again = services.record_box(game=game, version=0, turn=1, box=Box.ONES, points=3)
    assert first.is_new and not again.is_new and first.entry.pk == again.entry.pk


def test_a_typed_repeat_with_other_points_is_a_stale_screen_not_a_repeat(game):
    """A double tap is the same box with the same points; other points from the same old
    screen are a different entry, refused as stale, never taken for the first one."""
    services.record_box(game=game, version=0, turn=1, box=Box.ONES, points=3)
    with pytest.raises(services.GameChanged):
        services.record_box(game=game, version=0, turn=1, box=Box.ONES, points=2)
    assert list(Entry.objects.values_list("turn", "box", "points")) == [(1, "ones", 3)]


def test_a_finished_game_has_one_rematch_which_its_share_links_follow(db):
    """A second rematch that got past the view's look (two taps at once) is the first one;
    the new game gets links of the kinds the finished game had, and the finished game's
    version moves so the phones following it redraw."""
    from scorecard.models import GameLink
    from tests.factories import SOLO_GAME

    game = GameFactory(names=["Ann"])
    play(game, SOLO_GAME)
    GameLink.objects.create(game=game, role=GameLink.Role.WATCH)
    version = Game.objects.get(pk=game.pk).version
    made = services.game_rematch(game=game)
    assert services.game_rematch(game=game) == made == services.rematch_made(game)
    assert Game.objects.count() == 2
    assert list(made.links.values_list("role", flat=True)) == ["watch"]
    assert made.links.get().token != game.links.get().token
    assert Game.objects.get(pk=game.pk).version == version + 1
