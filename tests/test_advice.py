import re

import pytest
from django.urls import reverse

from scorecard import advice, services, strategy
from scorecard.models import Game
from scorecard.progress import load_progress
from scorecard.rules import Box
from tests.factories import SOLO_GAME, GameFactory, play


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def advised(client_of, strategy_tables):
    client_of.cookies["advice"] = "on"
    return client_of


def test_advice_is_off_by_default_and_switched_per_browser(client_of, game):
    page = text(client_of.get(reverse("game", args=[game.public_id]), {"dice": "44425"}))
    assert "Advice: off" in page and "expected" not in page
    url = reverse("game", args=[game.public_id]) + "?dice=44425"
    response = client_of.post(reverse("advice"), {"advice": "on", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert client_of.cookies["advice"].value == "on"
    response = client_of.post(reverse("advice"), {"advice": "off", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_advice_rates_every_legal_box_and_marks_the_best(advised, game):
    page = text(advised.get(reverse("game", args=[game.public_id]), {"dice": "66645"}))
    ratings = strategy.rate_boxes({}, (6, 6, 6, 4, 5))
    best = max(ratings, key=ratings.get)
    assert page.count("★ best") == 1
    assert f"{best.label}, " in page and f"expected final {ratings[best]:.1f}, best" in page
    worst = min(ratings, key=ratings.get)
    assert f"−{ratings[best] - ratings[worst]:.1f}" in page
    assert "maximises your own score" in page


def test_triple_yahtzee_gets_no_advice(advised, household):
    game = GameFactory(owner=household, names=["Tri"], mode=Game.Mode.TRIPLE)
    page = text(advised.get(reverse("game", args=[game.public_id]), {"dice": "66645"}))
    assert "No advice for Triple Yahtzee" in page and "★ best" not in page


def test_digital_game_marks_the_dice_to_keep(advised, household, monkeypatch):
    import random

    monkeypatch.setattr(services, "dice_source", random.Random(4))
    game = services.game_create(owner=household, names=["Dee"], digital=True)
    services.roll_dice(game=game, version=0, turn=1)
    page = text(advised.get(reverse("game", args=[game.public_id])))
    progress = load_progress(game)
    held = advice.best_hold(progress.seats[0].cards[0], progress.table_dice, 2, game.joker_rule)
    assert page.count('class="hold advised"') == sum(held) > 0
    assert "marks the dice to keep" in page


def test_best_hold_maps_the_best_keep_onto_table_positions(strategy_tables, household):
    game = GameFactory(owner=household, names=["A"])
    card = load_progress(game).seats[0].cards[0]
    held = advice.best_hold(card, [6, 1, 6, 2, 6], 2, game.joker_rule)
    assert held == [True, False, True, False, True]


def test_the_review_rates_each_decision(advised, household):
    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME)
    advised.cookies["advice"] = "off"
    page = text(advised.get(reverse("game-review", args=[game.public_id])))
    assert "Rate every decision" in page
    page = text(advised.get(reverse("game-review", args=[game.public_id]), {"advice": "1"}))
    advised.cookies["advice"] = "on"
    with_cookie = text(advised.get(reverse("game-review", args=[game.public_id])))
    losses = advice.decision_losses(load_progress(game), {})
    assert len(losses[0].decisions) == 13
    assert f"Ann: {losses[0].total:.1f} points lost in 13 decisions" in page
    assert f"Ann: {losses[0].total:.1f} points lost in 13 decisions" in with_cookie
    assert all(decision.loss >= -1e-9 for decision in losses[0].decisions)


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
