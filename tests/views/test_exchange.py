"""Downloading exports and uploading imports."""

import html
import json
import re
from io import BytesIO, StringIO
from unittest import mock

import pytest
from django.urls import reverse

from scorecard.engine.rules import Box
from scorecard.history import exchange
from scorecard.models import Game
from tests.factories import HouseholdFactory, play
from tests.helpers import browser_of, finished_game, good_document, text


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
    assert response.status_code == 302 and response["Location"] == reverse("games")
    assert Game.objects.get().owner == household
    assert "Imported 1 game." in text(client_of.get(response["Location"]))


def test_an_upload_of_games_already_here_skips_them_and_says_how_many(client_of, household):
    document = good_document(household)
    for expected in ["Imported 1 game.", "Nothing new was imported."]:
        upload = StringIO(json.dumps(document))
        upload.name = "games.json"
        response = client_of.post(reverse("games-import"), {"file": upload}, follow=True)
        assert expected in text(response)
    assert "1 game in the file was here already: the copy here is kept as it is" in text(response)
    assert Game.objects.count() == 1


def test_a_household_without_games_is_offered_no_export_and_an_empty_file_says_so(client_of):
    """Found by a tester: a new phone offered "Export all", whose file of no games, imported
    elsewhere, said "Nothing new was imported." as if its games were there already."""
    page = text(client_of.get(reverse("games")))
    assert "Export all" not in page and "Import" in page
    document = exchange.export_games(Game.objects.none())
    upload = StringIO(json.dumps(document))
    upload.name = "games.json"
    response = client_of.post(reverse("games-import"), {"file": upload}, follow=True)
    assert "The file holds no games, so nothing was imported." in text(response)
    assert not Game.objects.exists()


def test_another_households_file_uploaded_twice_is_written_once(client_of, household):
    """A game whose id another household holds comes in as a copy with an id of its own;
    the same file uploaded again finds that copy, so the games and the statistics count the
    game once. The copy exported and taken back to the first household is skipped there."""
    finished_game(household)
    document = exchange.export_games(Game.objects.filter(owner=household))
    original = document["games"][0]["id"]
    other = browser_of(HouseholdFactory())
    for expected in ["Imported 1 game.", "Nothing new was imported."]:
        upload = StringIO(json.dumps(document))
        upload.name = "games.json"
        response = other.post(reverse("games-import"), {"file": upload}, follow=True)
        assert expected in text(response)
    copy = Game.objects.exclude(owner=household).get()
    assert copy.public_id != original and copy.imported_from == original
    copied = exchange.export_games(Game.objects.filter(pk=copy.pk))
    upload = StringIO(json.dumps(copied))
    upload.name = "games.json"
    response = client_of.post(reverse("games-import"), {"file": upload}, follow=True)
    assert "Nothing new was imported." in text(response)
    assert Game.objects.count() == 2


def test_an_import_is_said_once_and_never_by_the_address(client_of, household):
    """Found by a new user: the counts were in the address, so a reload said the import
    again, and any counts typed there were said as if imported."""
    for query in ["imported=x&skipped=1", "imported=1", "imported=5&skipped=2&bonuses=1"]:
        page = text(client_of.get(f"{reverse('games')}?{query}"))
        assert "Imported" not in page and "Nothing new" not in page
    upload = StringIO(json.dumps(good_document(household)))
    upload.name = "games.json"
    assert "Imported 1 game." in text(
        client_of.post(reverse("games-import"), {"file": upload}, follow=True)
    )
    assert "Imported" not in text(client_of.get(reverse("games")))  # a reload


def test_a_bad_upload_gets_a_message_and_imports_nothing(client_of):
    upload = StringIO("{not json")
    upload.name = "games.json"
    response = client_of.post(reverse("games-import"), {"file": upload})
    assert response.status_code == 400 and "Nothing was imported. This is not JSON" in text(
        response
    )
    assert client_of.post(reverse("games-import")).status_code == 400
    assert not Game.objects.exists()


def test_an_export_cut_short_is_said_to_be_cut_short(client_of, game):
    """Found by a new user: a file cut off in the middle was only "not JSON (line 2,
    column 2728)", which does not say what went wrong or what to do."""
    from tests.factories import SOLO_GAME, play

    play(game, SOLO_GAME[:2])
    answer = client_of.get(reverse("games-export", args=["json"]))
    whole = b"".join(answer.streaming_content).decode()
    for cut in range(40, len(whole) - 1, 7):  # in a word, a number, a string, between
        upload = StringIO(whole[:cut])
        upload.name = "games.json"
        response = client_of.post(reverse("games-import"), {"file": upload})
        assert response.status_code == 400
        assert "This file stops before its end (line " in text(response), whole[:cut][-30:]
        assert "Export the games again." in text(response)
    assert Game.objects.count() == 1
    upload = StringIO(whole.replace("true", "tru e", 1) if "true" in whole else "{x}")
    upload.name = "games.json"
    refused = text(client_of.post(reverse("games-import"), {"file": upload}))
    assert "This is not JSON (line" in refused  # a fault inside a whole file is one


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_an_empty_file_is_said_to_be_empty(client_of, content):
    """Found by a tester: a file of 0 bytes "stops before its end (line 1, column 1): it
    was not saved or sent whole"."""
    upload = StringIO(content)
    upload.name = "games.json"
    response = client_of.post(reverse("games-import"), {"file": upload})
    assert response.status_code == 400
    assert "Nothing was imported. This file is empty." in text(response)
    assert not Game.objects.exists()


def test_a_csv_export_chosen_by_mistake_is_named_as_such(client_of, game):
    """Its header row is ours: the refusal says which file to take, not "not JSON"."""
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    exported = b"".join(client_of.get(reverse("games-export", args=["csv"])).streaming_content)
    for body in (exported, b"\xef\xbb\xbf" + exported):  # as a spreadsheet may save it
        upload = BytesIO(body)
        upload.name = "games.csv"
        response = client_of.post(reverse("games-import"), {"file": upload})
        page = text(response)
        assert response.status_code == 400 and "This is a CSV export" in page
        assert "Export all (JSON)" in page and "not JSON" not in page
    assert Game.objects.count() == 1


def test_hostile_uploads_are_refused_in_place(client_of):
    for body, message in [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (
            '{"format": "yahtzee-scorecard/games", "version": 1, "games": [1]}',
            "Game 1: expected an object. (in the file: games[0])",
        ),
        ("[]", "This file is not an export of this score card’s games."),
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


def _said_in_place(response) -> str:
    """The refusal the import page shows in place, as a person reads it."""
    found = re.search(
        r'<p class="error" role="alert"[^>]*>(.*?)</p>', response.content.decode(), re.S
    )
    assert found, "no refusal shown"
    return html.unescape(found.group(1))


def _upload(client, body: str, language: str):
    upload = StringIO(body)
    upload.name = "games.json"
    headers = {"Accept-Language": language}
    return client.post(reverse("games-import"), {"file": upload}, headers=headers)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "sv",
            [
                "Ingenting importerades. Spel 1, protokollet för Ann: Ettor: tärningarna är "
                "värda 3, men protokollet säger 4.",
                "Ingenting importerades. Spel 1, ”family”: Det finns inget spel som heter "
                "”poker”. (i filen: games[0].family)",
                "Ingenting importerades. Spel 1, ”players”: ett spel har 1 till 8 spelare. (i "
                "filen: games[0].players)",
                "Ingenting importerades. Den här exporten gjordes av en annan version av "
                "protokollet: bara version 1 kan läsas.",
                "Ingenting importerades. Det här är inte JSON (rad 1, kolumn 2).",
            ],
        ),
        (
            "de",
            [
                "Nichts wurde importiert. Spiel 1, Block von Ann: Einser: die Würfel sind 3 "
                "wert, aber auf dem Block steht 4.",
                "Nichts wurde importiert. Spiel 1, „family“: Es gibt kein Spiel namens „poker“. "
                "(in der Datei: games[0].family)",
                "Nichts wurde importiert. Spiel 1, „players“: ein Spiel hat 1 bis 8 Spieler. (in "
                "der Datei: games[0].players)",
                "Nichts wurde importiert. Dieser Export stammt aus einer anderen Version des "
                "Blocks: nur Version 1 kann gelesen werden.",
                "Nichts wurde importiert. Das ist kein JSON (Zeile 1, Spalte 2).",
            ],
        ),
    ],
)
def test_a_bad_upload_is_refused_in_place_in_the_phone_s_language(
    client_of, household, language, expected
):
    """Each kind of fault: a card the rules refuse (the engine's words, the box by its pad
    name), a name the engine does not know, a count, the file as a whole, and not JSON."""
    document = good_document(household)
    spoiled = []
    for spoil in [
        lambda d: d["games"][0]["entries"][0].update(points=4),
        lambda d: d["games"][0].update(family="poker"),
        lambda d: d["games"][0].update(players=[]),
        lambda d: d.update(version=2),
    ]:
        copy = json.loads(json.dumps(document))
        spoil(copy)
        spoiled.append(json.dumps(copy))
    answers = [_upload(client_of, body, language) for body in [*spoiled, "{not json"]]
    assert [answer.status_code for answer in answers] == [400] * 5
    assert [_said_in_place(answer) for answer in answers] == expected
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("language", "choose", "too_large"),
    [
        ("sv", "Välj en JSON-export att importera.", "Filen är större än 1 MB"),
        ("de", "Wähle einen JSON-Export zum Importieren.", "Die Datei ist größer als 1 MB"),
    ],
)
def test_no_file_and_a_file_too_large_are_refused_in_the_phone_s_language(
    client_of, language, choose, too_large
):
    headers = {"Accept-Language": language}
    answer = client_of.post(reverse("games-import"), headers=headers)
    assert answer.status_code == 400 and choose in _said_in_place(answer)
    upload = StringIO("x" * (1024 * 1024 + 1))
    upload.name = "games.json"
    with mock.patch.object(exchange, "MAX_IMPORT_BYTES", 1024 * 1024):
        answer = client_of.post(reverse("games-import"), {"file": upload}, headers=headers)
    assert answer.status_code == 400 and too_large in _said_in_place(answer)
    assert not Game.objects.exists()


def test_an_older_files_typed_five_alike_gets_the_bonus_it_earned_and_the_page_says_so(
    client_of, household
):
    """Before typed points that only five alike make earned their extra-Yahtzee bonus by
    themselves, a file could hold Fives 25 after a 50 without the 100: it was refused, so a
    backup of such a game could not come back."""
    from scorecard.game import services
    from scorecard.models import Entry

    game = services.game_create(owner=household, names=["Ann"])
    services.record_box(game=game, version=0, turn=1, box=Box.YAHTZEE, dice=(5,) * 5)
    services.record_box(game=game, version=1, turn=2, box=Box.FIVES, points=25)
    document = exchange.export_games(Game.objects.all())
    typed = document["games"][0]["entries"][1]
    assert (typed["box"], typed["dice"], typed["yahtzee_bonus"]) == ("fives", "", True)
    typed["yahtzee_bonus"] = False  # as an older version wrote it
    Game.objects.all().delete()
    upload = StringIO(json.dumps(document))
    upload.name = "games.json"
    response = client_of.post(reverse("games-import"), {"file": upload}, follow=True)
    assert "Imported 1 game." in text(response)
    said = "Typed points that only five alike make earn the extra-Yahtzee bonus: the file had "
    assert said + "left out 1, which is now given." in text(response)
    assert Entry.objects.get(box="fives").yahtzee_bonus is True


def test_more_games_than_an_import_takes_are_exported_in_files_it_takes(
    client_of, household, monkeypatch
):
    """Found by a new user: a household with more than 1,000 games exported them in one
    file, which the import refused ("at most 1,000 games a file; split it"), with nothing
    to split it with. The games page then offers the export in files of 1,000."""
    monkeypatch.setattr(exchange, "MAX_GAMES", 2)
    for name in ("Ann", "Bob", "Cy"):
        finished_game(household, names=(name,))
    page = text(client_of.get(reverse("games")))
    assert "Export games 1–2 (JSON)" in page and "Export games 3–3 (JSON)" in page
    assert "Export all (JSON)" not in page and "Export all (CSV)" in page
    whole = json.loads(body(client_of.get(reverse("games-export", args=["json"]))))
    with pytest.raises(exchange.ImportRefused, match="^File: at most 2 games a file. With more"):
        exchange.read_games(whole, max_games=2)
    other = browser_of(HouseholdFactory())
    for part, names in ((1, ["Ann", "Bob"]), (2, ["Cy"])):
        download = client_of.get(f"{reverse('games-export', args=['json'])}?part={part}")
        assert download["Content-Disposition"].endswith(f'yahtzee-games-part-{part}.json"')
        document = json.loads(body(download))
        assert [game["players"][0]["name"] for game in document["games"]] == names
        upload = StringIO(json.dumps(document))
        upload.name = "part.json"
        said = text(other.post(reverse("games-import"), {"file": upload}, follow=True))
        assert f"Imported {len(names)} game" in said
    assert Game.objects.exclude(owner=household).count() == 3
    for part in ("3", "0", "x", "-1", "9999999"):
        url = f"{reverse('games-export', args=['json'])}?part={part}"
        assert client_of.get(url).status_code == 404, part
    monkeypatch.setattr(exchange, "MAX_GAMES", 3)
    assert "Export all (JSON)" in text(client_of.get(reverse("games")))
