"""Two phones tapping at once: the version counter lets exactly one change through."""

import threading

import pytest
from django.db import connection

from scorecard import services
from scorecard.models import Entry, Game
from scorecard.rules import Box
from tests.factories import GameFactory, HouseholdFactory

pytestmark = pytest.mark.django_db(transaction=True)


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
