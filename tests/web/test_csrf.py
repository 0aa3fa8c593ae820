"""The CSRF field: one masked token per answer, and none in the forms htmx posts when the
answer goes to htmx (web/csrf.py)."""

import re

from django.urls import reverse

from scorecard.engine.rules import Box
from tests.factories import SOLO_GAME, GameFactory, play
from tests.helpers import HTMX, game_url, post_box

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def forms(markup: str) -> list[str]:
    return re.findall(r"<form\b.*?</form>", markup, re.S)


def test_a_page_masks_its_token_once_for_all_its_forms(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    page = client_of.get(game_url(game), {"typed": "1"}).content.decode()
    tokens = TOKEN.findall(page)
    assert len(tokens) == page.count('method="post"') >= 2  # the typed points and undo
    assert len(set(tokens)) == 1


def test_the_page_s_token_is_accepted_and_sets_the_cookie(client_of, game):
    client_of.handler.enforce_csrf_checks = True
    page = client_of.get(game_url(game), {"typed": "1"})
    assert page.cookies["csrftoken"].value
    token = TOKEN.search(page.content.decode())
    assert token is not None
    data = {"version": 0, "turn": 1, "box": "fours", "dice": "44412", "card": 1}
    data["csrfmiddlewaretoken"] = token[1]
    assert client_of.post(game_url(game, "game-record"), data).status_code == 302


def test_an_answer_to_htmx_leaves_the_field_out_of_the_forms_htmx_posts_only(client_of, household):
    """The last record's answer holds the game over panel: its rematch form is posted by the
    browser itself and keeps the field; no form htmx posts has one."""
    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME[:-1])
    last_box, last_dice = SOLO_GAME[-1]
    answer = post_box(client_of, game, last_box, dice=last_dice, htmx=True).content.decode()
    posted_by_htmx = [form for form in forms(answer) if "hx-post=" in form]
    posted_by_the_browser = [form for form in forms(answer) if "hx-post=" not in form]
    assert "Play again" in answer and posted_by_the_browser  # a solo game's rematch
    assert all(TOKEN.search(form) for form in posted_by_the_browser)
    assert not any(TOKEN.search(form) for form in posted_by_htmx)
    opened = client_of.get(game_url(game), {"typed": "1"}, headers=HTMX).content.decode()
    assert 'hx-post="' in opened and "csrfmiddlewaretoken" not in opened


def test_htmx_s_header_carries_the_token_a_fragment_s_form_leaves_out(client_of, game):
    client_of.handler.enforce_csrf_checks = True
    client_of.get(game_url(game))
    cookie = client_of.cookies["csrftoken"].value
    data = {"version": 0, "turn": 1, "box": "fours", "dice": "44412", "card": 1}
    url = game_url(game, "game-record")
    assert client_of.post(url, data, headers=HTMX).status_code == 403
    answer = client_of.post(url, data, headers=HTMX | {"X-CSRFToken": cookie})
    assert answer.status_code == 200 and "Ann: Fours 12" in answer.content.decode()
    undo = reverse("game-undo", args=[game.public_id])
    undone = client_of.post(undo, {"version": 1}, headers=HTMX | {"X-CSRFToken": cookie})
    assert undone.status_code == 200 and "Ann’s turn" in undone.content.decode()
