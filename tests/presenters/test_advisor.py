"""Advice asked of the engine: holds, keeps, and a server without its tables."""

import pytest
from django.urls import reverse

from scorecard.engine import rules, strategy, tables
from scorecard.game.progress import load_progress
from scorecard.presenters import advice, advisor
from tests.factories import GameFactory


def test_best_hold_maps_the_best_keep_onto_table_positions(strategy_tables, household):
    game = GameFactory(owner=household, names=["A"])
    card = load_progress(game).seats[0].cards[0]
    held = advisor.best_hold(card, [6, 1, 6, 2, 6], 2, game)
    assert held == [True, False, True, False, True]


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
def test_keep_advice_lists_the_strategys_best_keeps_with_their_losses(
    strategy_tables, joker, household
):
    from scorecard.game.progress import CardProgress

    card = CardProgress(1)
    game = GameFactory(owner=household, names=["A"], joker=joker)
    ranked = strategy_tables.rate_keeps({}, (5, 5, 5, 5, 5), 1, joker)
    keeps = advisor.rate_keeps(card, (5, 5, 5, 5, 5), 1, game)
    assert [k.keep for k in keeps] == [keep for keep, _ in ranked[: advisor.KEEPS_SHOWN]]
    assert keeps[0].is_best and keeps[0].label == "Keep all five"
    assert all(k.loss == pytest.approx(ranked[0][1] - k.expected) for k in keeps)
    assert [k.loss for k in keeps] == sorted(k.loss for k in keeps)


def test_keeping_all_five_on_the_first_roll_is_worth_the_best_box_now(strategy_tables, household):
    """Keeping every die stops the turn, whatever rolls are left: its value is the best box
    for the dice. (Valued as a roll skipped, still free to reroll later, it stood above the
    best box: "Keep all five 245.5" beside "Chance 24, expected 245.0", a tester.)"""
    from scorecard.game.progress import CardProgress

    game = GameFactory(owner=household, names=["A"])
    dice = (6, 6, 6, 3, 4)
    keeps = advisor.ranked_keeps(CardProgress(1), dice, 2, game)
    all_five = next(value for keep, value in keeps if len(keep) == 5)
    best_box = max(box.expected for box in advisor.rate_boxes(CardProgress(1), dice, game).values())
    assert all_five == pytest.approx(best_box)
    assert keeps[0][1] > all_five  # rerolling the 3 and the 4 is better
    assert advice.keep_button_label(dice) == "Keep all five"
