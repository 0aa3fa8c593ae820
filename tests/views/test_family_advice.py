"""Advice on the game page of a Yatzy game (its own strategy, not Yahtzee's), and none for
Maxi Yatzy, said plainly."""

import pytest
from django.urls import reverse

from scorecard.engine import win_chances
from scorecard.models import Game
from scorecard.presenters.advice import expected_as_shown, points_given_up
from tests.factories import GameFactory
from tests.helpers import text

pytestmark = pytest.mark.slow  # Yatzy's strategy and policy tables, once a session


def _game_of(family, household, names=("Ann", "Bob")):
    """A new game of another family (the factory makes Yahtzee games)."""
    game = GameFactory(owner=household, names=list(names))
    Game.objects.filter(pk=game.pk).update(family=family)
    game.refresh_from_db()
    return game


def test_a_yatzy_game_rates_its_own_boxes_with_yatzys_strategy(advised, household, yatzy_tables):
    game = _game_of("yatzy", household)
    page = text(advised.get(reverse("game", args=[game.public_id]), {"dice": "66645"}))
    ratings = yatzy_tables.rate_boxes({}, (6, 6, 6, 4, 5))
    best = max(ratings, key=ratings.get)
    assert page.count("★ best") == 1
    assert f"{best.label}, " in page and f"expected final {ratings[best]:.1f}, best" in page
    two_pairs = next(box for box in ratings if box.key == "two_pairs")
    # Said as shown under the box (the exact total was said, a tenth apart: a tester).
    loss = ratings[best] - ratings[two_pairs]
    shown = f"{expected_as_shown(ratings[two_pairs], loss):.1f}"
    said = f"Two pairs, 0 points, expected final {shown}, {points_given_up(loss)} less than"
    assert said in page and f"expected {shown}" in page
    assert "Advice is not ready" not in page


def test_a_yatzy_games_keep_advice_is_yatzys(advised, household, yatzy_tables):
    game = _game_of("yatzy", household)
    url = reverse("game", args=[game.public_id])
    page = text(advised.get(url, {"dice": "66612", "roll": "1"}))
    best_keep, best_value = yatzy_tables.rate_keeps({}, (6, 6, 6, 1, 2), 2)[0]
    assert "Dice to keep" in page and "2 rolls left" in page
    assert f'<li class="best"><span>Keep {" ".join(map(str, best_keep))}</span> ' in page
    assert f"{best_value:.1f}" in page


def test_a_yatzy_games_standings_show_each_players_chance_to_win(advised, household, yatzy_tables):
    game = _game_of("yatzy", household)
    page = text(advised.get(reverse("game", args=[game.public_id])))
    empty = win_chances.Position({}, house=game.house_rules)
    chances = win_chances.win_chances([empty, empty], game.joker_rule).chances
    assert '<th scope="col">Win</th>' in page
    assert page.count(f'<td class="win">{chances[0]:.0%}</td>') == 2


def test_maxi_yatzy_says_plainly_it_has_no_advice(advised, household, yatzy_tables):
    game = _game_of("maxi", household)
    page = text(advised.get(reverse("game", args=[game.public_id])))
    assert page.count("No advice for Maxi Yatzy") == 1  # once, not again under the links
    assert "expected final" not in page and 'class="win"' not in page
