"""Downloading exports and uploading imports."""

import json
from io import StringIO

from django.urls import reverse

from scorecard.models import Game
from tests.helpers import finished_game, good_document, text


def body(response) -> str:
    return b"".join(response.streaming_content).decode()


def test_exports_download_as_json_and_csv(client_of, household):
    game = finished_game(household)
    response = client_of.get(reverse("game-export", args=[game.public_id, "json"]))
    assert response["Content-Disposition"].endswith('.json"')
    assert response["Cache-Control"] == "private, no-store"
    assert json.loads(body(response))["games"][0]["id"] == game.public_id
    rows = body(client_of.get(reverse("games-export", args=["csv"]))).splitlines()
    assert rows[0].startswith("game,game_created,mode") and len(rows) == 27
    assert client_of.get(reverse("games-export", args=["xml"])).status_code == 404


def test_upload_imports_into_the_browsers_household(client_of, household):
    document = good_document(household)
    upload = StringIO(json.dumps(document))
    upload.name = "games.json"
    response = client_of.post(reverse("games-import"), {"file": upload})
    assert response.status_code == 302 and "imported=1" in response["Location"]
    assert Game.objects.get().owner == household


def test_a_bad_upload_gets_a_message_and_imports_nothing(client_of):
    upload = StringIO("{not json")
    upload.name = "games.json"
    response = client_of.post(reverse("games-import"), {"file": upload})
    assert response.status_code == 400 and "Nothing was imported. This is not JSON" in text(
        response
    )
    assert client_of.post(reverse("games-import")).status_code == 400
    assert not Game.objects.exists()


def test_hostile_uploads_are_refused_in_place(client_of):
    for body, message in [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (
            '{"format": "yahtzee-scorecard/games", "version": 1, "games": [1]}',
            "games[0]: expected an object.",
        ),
        ("[]", "file: expected an object."),
    ]:
        upload = StringIO(body)
        upload.name = "games.json"
        response = client_of.post(reverse("games-import"), {"file": upload})
        assert response.status_code == 400 and message in text(response), message


def test_an_uploaded_game_whose_id_starts_with_a_minus_downloads_as_text(client_of, household):
    document = good_document(household)
    document["games"][0]["id"] = "-2-3"
    upload = StringIO(json.dumps(document))
    upload.name = "games.json"
    assert client_of.post(reverse("games-import"), {"file": upload}).status_code == 302
    rows = body(client_of.get(reverse("games-export", args=["csv"]))).splitlines()
    assert all(row.startswith("'-2-3,") for row in rows[1:])
