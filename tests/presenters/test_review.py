"""A finished game looked back on: every decision rated against the optimal one."""

import pytest

from scorecard.engine import strategy
from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.presenters import review
from tests.factories import GameFactory, play


def test_an_optimal_choice_loses_nothing(strategy_tables, household):
    game = GameFactory(owner=household, names=["Ann"])
    rated = strategy.rate_boxes({}, (5, 5, 5, 5, 5))
    best = max(rated, key=rated.get)
    play(game, [(best, (5, 5, 5, 5, 5))])
    decision = review.decision_losses(load_progress(game), {})[0].decisions[0]
    assert decision.loss == pytest.approx(0, abs=1e-9) and decision.best == best.label


def test_digital_reviews_rate_the_holds_too(strategy_tables, household):
    import random

    game = services.game_create(owner=household, names=["Dee"], digital=True)
    rng = random.Random(9)
    services.roll_dice(game=game, version=0, turn=1, rng=rng)
    services.roll_dice(game=game, version=1, turn=1, hold=[0, 1], rng=rng)
    services.record_box(game=game, version=2, turn=1, box=Box.CHANCE)
    rolls = {1: list(game.rolls.order_by("number"))}
    keep, box = review.decision_losses(load_progress(game), rolls)[0].decisions
    assert (keep.kind, box.kind) == ("keep", "box")
    # A keep says it is one, and after which roll (a new user read a bare "2" as a box).
    held = " ".join(map(str, sorted(game.rolls.get(number=1).dice[:2])))
    assert keep.chosen == f"keeping {held}" and keep.after_roll == 1
    assert keep.best.startswith(("keeping ", "rerolling")) and box.after_roll == 0
