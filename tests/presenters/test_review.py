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
    assert keep.best.startswith(("keeping ", "rerolling")) and box.after_roll == 2


def test_a_box_filled_with_rolls_left_is_rated_against_rolling_again(strategy_tables, household):
    """Found by a new user: a player who scored every first roll lost only what the box
    choice on those dice lost, as if rolling on had not been a choice."""
    import random

    game = services.game_create(owner=household, names=["Dee"], digital=True)
    services.roll_dice(game=game, version=0, turn=1, rng=random.Random(9))
    services.record_box(game=game, version=1, turn=1, box=Box.CHANCE)
    rolls = {1: list(game.rolls.order_by("number"))}
    (box,) = review.decision_losses(load_progress(game), rolls)[0].decisions
    dice = tuple(game.rolls.get().faces)
    keep, rolled_on = strategy.rate_keeps({}, dice, 2)[0]
    boxes = strategy.rate_boxes({}, dice)
    assert keep != tuple(sorted(dice))  # rolling on is better than any box here
    assert box.loss == pytest.approx(rolled_on - boxes[Box.CHANCE])
    assert box.loss > max(boxes.values()) - boxes[Box.CHANCE] + 1
    said = " ".join(map(str, keep))
    assert box.best == (f"roll again, keeping {said}" if keep else "roll again, rerolling all five")
    assert box.after_roll == 1 and box.chosen == "Chance"


def test_a_yatzy_game_s_decisions_are_rated_by_yatzy_s_own_strategy(yatzy_tables, household):
    """Found by a new user: rating a Yatzy game's decisions asked Yahtzee's strategy about
    Yatzy's boxes, and the review answered 500."""
    import random

    from scorecard.engine import families

    house = services.HouseSettings(families.YATZY.key)
    game = services.game_create(owner=household, names=["Dee"], digital=True, house=house)
    rng = random.Random(3)
    services.roll_dice(game=game, version=0, turn=1, rng=rng)
    services.roll_dice(game=game, version=1, turn=1, hold=[0, 1], rng=rng)
    first = game.rolls.get(number=2).dice
    rated = yatzy_tables.rate_boxes({}, tuple(int(face) for face in first))
    best = max(rated, key=rated.__getitem__)
    services.record_box(game=game, version=2, turn=1, box=best)
    rolls = {1: list(game.rolls.order_by("number"))}
    keep, box = review.decision_losses(load_progress(game), rolls)[0].decisions
    assert keep.kind == "keep" and keep.loss >= -1e-9
    ranked = yatzy_tables.rate_keeps({}, tuple(game.rolls.get(number=1).faces), 2)
    held = tuple(sorted(game.rolls.get(number=1).faces[:2]))
    assert keep.loss == pytest.approx(ranked[0][1] - dict(ranked)[held])
    # The best box, filled with a roll left: rated against rolling again too.
    rolled_on, value = yatzy_tables.rate_keeps({}, tuple(int(face) for face in first), 1)[0]
    if rolled_on == tuple(sorted(int(face) for face in first)):
        assert box.loss == pytest.approx(0, abs=1e-9) and box.best == best.label
    else:
        assert box.loss == pytest.approx(value - rated[best]) and box.loss > 0
        assert box.best.startswith("roll again, ")
