"""A link token or a browser's key never reaches a log line, on whatever address it is sent."""

import io
import logging

import pytest
from django.test import Client

from scorecard.access import sharing
from scorecard.models import Browser, LinkRole, new_public_id
from scorecard.web.log_privacy import redact
from tests.helpers import gunicorn_access_line

TOKEN = "q3Xv9_kP2-LmN8rT5wYz1BcD4eFgH6jQ"  # as models.new_link_token makes them: 32 characters


@pytest.mark.parametrize(
    "path",
    [
        f"/games/{TOKEN}/",
        f"/games/{TOKEN}/record/",
        f"/games/{TOKEN}/export.csv",
        f"/games/{TOKEN}x/",  # a token with something stuck to its end
        f"/games/\u200b{TOKEN}/",  # or to its start (a zero-width space copied with it)
        f"/games/%E2%80%8B{TOKEN}/",
        f"/players/{TOKEN}/",
        f"/games/?player={TOKEN}",
        f"/score/{TOKEN[:12]}/",  # a link's own address hides even a token cut short
    ],
)
def test_a_token_shaped_path_segment_is_hidden_on_every_address(path):
    redacted = redact(f'"GET {path} HTTP/1.1" 404')
    assert TOKEN[:12] not in redacted and "[token]" in redacted


def test_game_and_player_ids_stay_readable_they_are_no_secret():
    """A public id is found only together with a browser of its household."""
    game, player = new_public_id(), new_public_id()
    line = f"GET /games/{game}/review/ and /players/{player}/ and /games/{game}/export.json"
    assert redact(line) == line


def test_static_files_and_a_traceback_keep_their_names():
    line = (
        'GET /static/css/site.4f0d2a9c61b7.css; File "/usr/lib/python3/dist-packages/django/'
        'core/handlers/exception.py", line 55, in convert_exception_to_response'
    )
    assert redact(line) == line


@pytest.fixture
def django_console():
    """What Django's console handler writes, as text."""
    handler = next(h for h in logging.getLogger("django").handlers if h.name == "console")
    written = io.StringIO()
    before = handler.setStream(written)
    yield written
    handler.setStream(before)


def test_a_share_token_sent_to_a_household_address_is_not_in_the_not_found_warning(
    game, django_console
):
    token = sharing.link_renew(game=game, role=LinkRole.SCORE).token
    assert Client().get(f"/games/{token}/").status_code == 404
    assert "Not Found: /games/[token]/" in django_console.getvalue()
    assert token not in django_console.getvalue()


def test_a_browser_key_in_an_address_is_not_in_the_not_found_warning(household, django_console):
    key = Browser.objects.create(household=household, name="Phone").key
    assert Client().get(f"/join/x/{key}/").status_code == 404
    assert Client().get(f"/games/{key}/sheet/").status_code == 404
    assert django_console.getvalue().splitlines() == [
        "Not Found: /join/[token]/[token]/",
        "Not Found: /games/[token]/sheet/",
    ]


def test_gunicorns_access_log_hides_a_token_on_a_household_address():
    line = gunicorn_access_line(f"/games/{TOKEN}/?live=1")
    assert TOKEN not in line
    assert '"GET /games/[token]/" 200' in line


def test_an_access_log_line_in_any_format_hides_the_token_wherever_it_prints_it():
    headers = {"Referer": f"https://example.org/games/{TOKEN}/", "User-Agent": "Phone"}
    every_place = "%(r)s %(U)s %(q)s %(f)s %({referer}i)s %({raw_uri}e)s %({path_info}e)s %(a)s"
    line = gunicorn_access_line(f"/games/?player={TOKEN}", headers, every_place)
    assert TOKEN not in line
    assert line.count("[token]") == 5 and "Phone" in line


def test_an_access_log_line_redacts_the_values_it_prints_not_every_header(monkeypatch):
    """A request carries some 40 values (every header both ways, as `{name}i` and `{name}o`)
    and the line prints 7: redacting them all cost gunicorn's workers 4 times the line
    itself on every request (about 75 µs against 22)."""
    from scorecard.web import log_privacy

    redacted = []
    monkeypatch.setattr(log_privacy, "redact", lambda text: redacted.append(text) or text)
    names = ["Cookie", "Referer", "Origin", "User-Agent", "X-CSRFToken", "Idempotency-Key"]
    gunicorn_access_line("/games/", dict.fromkeys(names, "x" * 40))
    assert 0 < len(redacted) <= 7
