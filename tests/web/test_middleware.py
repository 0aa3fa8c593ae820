"""Requests with NUL characters are refused before any view sees them."""

from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.translation import get_language_from_request

from scorecard.web import middleware


def test_nul_characters_are_refused_at_the_door(client_of, game):
    for url in ["/games/%00/", f"/games/{game.public_id}/?player=%00", "/players/a%00b/"]:
        response = client_of.get(url)
        assert response.status_code == 400 and b"NUL" in response.content
    response = client_of.post(reverse("game-new"), {"name_1": "A\x00n"})
    assert response.status_code == 400


def test_a_body_larger_than_any_import_is_refused_before_it_is_read(client_of, settings):
    settings.MAX_REQUEST_BYTES = 1000
    response = client_of.generic(
        "POST", reverse("game-new"), b"x" * 10, CONTENT_LENGTH=str(50 * 1024 * 1024)
    )
    assert response.status_code == 413 and b"larger than" in response.content


def test_a_file_too_large_posted_by_the_import_page_gets_the_page_back_with_why(
    client_of, settings
):
    """Found by a new user: a 60 MB file got a bare line of text, which a phone drew as a
    980 px page with no way back."""
    settings.MAX_REQUEST_BYTES = 1000
    for language, said in (
        ("en", "Nothing was imported. The file is larger than 20 MB"),
        ("sv", "20"),
    ):
        response = client_of.generic(
            "POST",
            reverse("games-import"),
            b"x" * 10,
            CONTENT_LENGTH=str(50 * 1024 * 1024),
            HTTP_ACCEPT_LANGUAGE=language,
        )
        page = response.content.decode()
        assert response.status_code == 413 and response["Content-Language"] == language
        assert 'name="viewport"' in page and 'type="file"' in page and said in page
        assert 'class="error" role="alert"' in page
    htmx = client_of.generic(
        "POST",
        reverse("games-import"),
        b"",
        CONTENT_LENGTH=str(50 * 1024 * 1024),
        HTTP_HX_REQUEST="true",
    )
    assert htmx.status_code == 413 and htmx["Content-Type"].startswith("text/plain")


def test_a_content_length_that_is_not_a_number_is_refused(client_of):
    response = client_of.generic("POST", reverse("games-import"), b"", CONTENT_LENGTH="-1")
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("language", "too_large", "nul"),
    [
        (
            "sv",
            "Den här förfrågan är större än 1 MB, det mesta som tas emot här.",
            "Den här förfrågan innehåller ett NUL-tecken, som inget formulär här skickar.",
        ),
        (
            "de",
            "Diese Anfrage ist größer als 1 MB, das Höchste, was hier ankommen darf.",
            "Diese Anfrage enthält ein NUL-Zeichen, das kein Formular hier sendet.",
        ),
    ],
)
def test_the_door_refuses_in_the_phone_s_language(client_of, settings, language, too_large, nul):
    """The door runs before the language is chosen, yet says its refusals in it."""
    settings.MAX_REQUEST_BYTES = 1024 * 1024
    headers = {"Accept-Language": f"{language},en;q=0.5"}
    large = client_of.generic(
        "POST", reverse("game-new"), b"", CONTENT_LENGTH=str(2 * 1024 * 1024), headers=headers
    )
    assert (large.status_code, large.content.decode()) == (413, too_large)
    with_nul = client_of.get("/players/a%00b/", headers=headers)
    assert (with_nul.status_code, with_nul.content.decode()) == (400, nul)
    for answer in (large, with_nul):
        assert answer["Content-Language"] == language
        assert {"accept-language", "cookie"} <= {
            part.strip().lower() for part in answer["Vary"].split(",")
        }


def test_the_door_follows_the_language_switch_over_the_browser_s_language(client_of):
    client_of.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    answer = client_of.get("/games/%00/", headers={"Accept-Language": "sv"})
    assert answer.status_code == 400 and "NUL-Zeichen" in answer.content.decode()


def test_a_request_the_door_lets_through_never_reads_its_language_there(client_of):
    """The language is read only when refusing: the checks every request passes stay cheap."""
    reading = mock.patch.object(
        middleware, "get_language_from_request", wraps=get_language_from_request
    )
    with reading as read:
        assert client_of.get(reverse("home")).status_code == 200
        assert read.call_count == 0
        client_of.get("/games/%00/")
        assert read.call_count == 1
