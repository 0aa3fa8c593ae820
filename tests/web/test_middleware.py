"""Requests with NUL characters are refused before any view sees them."""

from django.urls import reverse


def test_nul_characters_are_refused_at_the_door(client_of, game):
    for url in ["/games/%00/", f"/games/{game.public_id}/?player=%00", "/players/a%00b/"]:
        response = client_of.get(url)
        assert response.status_code == 400 and b"NUL" in response.content
    response = client_of.post(reverse("game-new"), {"name_1": "A\x00n"})
    assert response.status_code == 400


def test_a_body_larger_than_any_import_is_refused_before_it_is_read(client_of, settings):
    settings.MAX_REQUEST_BYTES = 1000
    response = client_of.generic(
        "POST", reverse("games-import"), b"x" * 10, CONTENT_LENGTH=str(50 * 1024 * 1024)
    )
    assert response.status_code == 413 and b"larger than" in response.content


def test_a_content_length_that_is_not_a_number_is_refused(client_of):
    response = client_of.generic("POST", reverse("games-import"), b"", CONTENT_LENGTH="-1")
    assert response.status_code == 413
