"""Advice built on the optimal strategy: holds and the rating of past decisions."""

import pytest
from django.urls import reverse

from scorecard import advice
from scorecard.engine import rules, strategy, tables
from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.game.progress import load_progress
from tests.factories import GameFactory, play


def test_best_hold_maps_the_best_keep_onto_table_positions(strategy_tables, household):
    game = GameFactory(owner=household, names=["A"])
    card = load_progress(game).seats[0].cards[0]
    held = advice.best_hold(card, [6, 1, 6, 2, 6], 2, game.joker_rule)
    assert held == [True, False, True, False, True]


def test_an_optimal_choice_loses_nothing(strategy_tables, household):
    game = GameFactory(owner=household, names=["Ann"])
    rated = strategy.rate_boxes({}, (5, 5, 5, 5, 5))
    best = max(rated, key=rated.get)
    play(game, [(best, (5, 5, 5, 5, 5))])
    decision = advice.decision_losses(load_progress(game), {})[0].decisions[0]
    assert decision.loss == pytest.approx(0, abs=1e-9) and decision.best == best.label


def test_digital_reviews_rate_the_holds_too(strategy_tables, household):
    import random

    game = services.game_create(owner=household, names=["Dee"], digital=True)
    rng = random.Random(9)
    services.roll_dice(game=game, version=0, turn=1, rng=rng)
    services.roll_dice(game=game, version=1, turn=1, hold=[0, 1], rng=rng)
    services.record_box(game=game, version=2, turn=1, box=Box.CHANCE)
    rolls = {1: list(game.rolls.order_by("number"))}
    kinds = [d.kind for d in advice.decision_losses(load_progress(game), rolls)[0].decisions]
    assert kinds == ["keep", "box"]


def test_a_request_that_finds_no_table_says_advice_is_not_ready_and_builds_nothing(
    client_of, game, tmp_path, monkeypatch
):
    monkeypatch.setattr(tables, "FOLDER", tmp_path)
    monkeypatch.setattr(strategy, "_loaded", {})
    client_of.cookies["advice"] = "on"
    page = client_of.get(reverse("game", args=[game.public_id]), {"dice": "44425"})
    assert page.status_code == 200 and "Advice is not ready yet" in page.content.decode()
    assert "expected final" not in page.content.decode()
    assert strategy._loaded == {} and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("joker", [rules.JokerRule.HASBRO, rules.JokerRule.NONE])
def test_keep_advice_lists_the_strategys_best_keeps_with_their_losses(strategy_tables, joker):
    from scorecard.game.progress import CardProgress

    card = CardProgress(1)
    ranked = strategy_tables.rate_keeps({}, (5, 5, 5, 5, 5), 1, joker)
    keeps = advice.rate_keeps(card, (5, 5, 5, 5, 5), 1, joker)
    assert [k.keep for k in keeps] == [keep for keep, _ in ranked[: advice.KEEPS_SHOWN]]
    assert keeps[0].is_best and keeps[0].label == "Keep all five: score now"
    assert all(k.loss == pytest.approx(ranked[0][1] - k.expected) for k in keeps)
    assert [k.loss for k in keeps] == sorted(k.loss for k in keeps)


def test_a_chance_is_never_shown_as_a_certainty_or_an_impossibility_it_is_not():
    assert [advice.percent(c) for c in (0, 0.0001, 0.0123, 0.99999, 1)] == [
        "0.0%", "<0.1%", "1.2%", ">99.9%", "100.0%"
    ]  # fmt: skip
    assert [advice.percent(c, digits=0) for c in (0, 0.001, 0.37, 0.999, 1)] == [
        "0%", "<1%", "37%", ">99%", "100%"
    ]  # fmt: skip
