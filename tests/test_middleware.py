"""Requests with NUL characters are refused before any view sees them."""

from django.urls import reverse


def test_nul_characters_are_refused_at_the_door(client_of, game):
    for url in ["/games/%00/", f"/games/{game.public_id}/?player=%00", "/players/a%00b/"]:
        response = client_of.get(url)
        assert response.status_code == 400 and b"NUL" in response.content
    response = client_of.post(reverse("game-new"), {"name_1": "A\x00n"})
    assert response.status_code == 400
