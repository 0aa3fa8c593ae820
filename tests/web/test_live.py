"""A live poll of an unchanged game is answered at the door: 304, one query, nothing else."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from scorecard.access import sharing
from scorecard.engine.rules import Box
from scorecard.models import LinkRole
from scorecard.web.live import AnswerUnchangedPolls
from tests.factories import play
from tests.helpers import browser_of

POLL = {"HX-Request": "true"}


def the_rest_of_the_stack(request):
    pytest.fail("an unchanged poll went past the door")


def test_an_unchanged_poll_is_answered_before_the_session_csrf_and_household_middleware(game):
    owner = browser_of(game.owner)
    request = RequestFactory().get(
        reverse("game", args=[game.public_id]),
        {"live": "1"},
        headers=POLL | {"If-None-Match": f'"{game.version}"'},
    )
    request.COOKIES = {name: m.value for name, m in owner.cookies.items()}
    answer = AnswerUnchangedPolls(the_rest_of_the_stack)(request)
    assert answer.status_code == 304 and answer.content == b""
    assert answer["Cache-Control"] == "private" and answer["ETag"] == f'"{game.version}"'


@pytest.mark.parametrize(
    ("ask", "why"),
    [
        ({"If-None-Match": '"7"'}, "another version than the game's"),
        ({}, "no version named"),
    ],
)
def test_a_poll_that_is_not_of_an_unchanged_game_goes_on_to_the_view(game, ask, why):
    owner = browser_of(game.owner)
    request = RequestFactory().get(
        reverse("game", args=[game.public_id]), {"live": "1"}, headers=POLL | ask
    )
    request.COOKIES = {name: m.value for name, m in owner.cookies.items()}
    assert AnswerUnchangedPolls(lambda request: "the view")(request) == "the view", why


def test_a_stranger_polling_a_game_of_another_household_gets_the_view_s_404(game):
    headers = POLL | {"If-None-Match": f'"{game.version}"'}
    url = reverse("game", args=[game.public_id])
    assert Client().get(url, {"live": "1"}, headers=headers).status_code == 404


def test_a_watch_link_s_unchanged_poll_keeps_its_link_private(game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    watch = sharing.link_renew(game=game, role=LinkRole.WATCH)
    game.refresh_from_db()
    headers = POLL | {"If-None-Match": f'"{game.version}"'}
    answer = Client().get(f"/watch/{watch.token}/", {"live": "1"}, headers=headers)
    assert answer.status_code == 304
    assert answer["Cache-Control"] == "private, no-store"
    assert answer["Referrer-Policy"] == "same-origin"
    assert answer["X-Robots-Tag"] == "noindex, nofollow"
