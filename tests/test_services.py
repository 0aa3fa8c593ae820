"""Service guards that the forms never reach, for callers such as import and later APIs."""

import pytest

from scorecard import services
from scorecard.models import Entry
from scorecard.rules import Box
from tests.factories import play


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
