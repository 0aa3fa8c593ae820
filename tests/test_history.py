import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from scorecard import exchange, services
from scorecard.models import Entry, Game, Household, Player, Roll
from scorecard.progress import load_progress
from scorecard.rules import Box
from tests.conftest import browser_of
from tests.factories import SOLO_GAME, GameFactory, bulk_finished_games, card_total, play


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def finished_game(owner, names=("Ann", "Bob"), **kwargs):
    game = GameFactory(owner=owner, names=list(names), **kwargs)
    return play(game, [turn for turn in SOLO_GAME for _ in names])


# --- The games page -----------------------------------------------------------------------------


def test_games_in_progress_come_first_then_the_newest(client_of, household):
    old = finished_game(household)
    new = finished_game(household)
    going = GameFactory(owner=household, names=["Cy"])
    page = text(client_of.get(reverse("games")))
    order = [page.index(g.public_id) for g in (going, new, old)]
    assert order == sorted(order)
    assert "in progress, turn 1 of 13" in page
    assert f"Ann</a> {card_total(SOLO_GAME)}" in page


def test_games_can_be_filtered_by_player_and_mode(client_of, household):
    anns = finished_game(household, names=("Ann",))
    triple = GameFactory(owner=household, names=["Bob"], mode=Game.Mode.TRIPLE)
    bob = Player.objects.get(name="Bob")
    page = text(client_of.get(reverse("games"), {"player": bob.public_id}))
    assert triple.public_id in page and anns.public_id not in page
    page = text(client_of.get(reverse("games"), {"mode": "standard"}))
    assert triple.public_id not in page
    fragment = text(
        client_of.get(reverse("games"), {"mode": "triple"}, headers={"HX-Request": "true"})
    )
    assert fragment.lstrip().startswith('<section id="games-table"')


def test_the_games_page_is_paginated(client_of, household):
    bulk_finished_games(household, ["Ann"], 45)
    page = text(client_of.get(reverse("games"), {"page": "3"}))
    assert "Page 3 of 3" in page and page.count('class="game-card"') == 5


def test_the_games_page_costs_the_same_queries_for_many_games(household, django_assert_num_queries):
    client = browser_of(household)
    bulk_finished_games(household, ["Ann", "Bob"], 3)
    with django_assert_num_queries(6) as few:
        client.get(reverse("games"))
    bulk_finished_games(household, ["Ann", "Bob"], 60, seed=1)
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(reverse("games"))


# --- The review ---------------------------------------------------------------------------------


def test_a_review_shows_the_card_every_turn_and_a_chart(client_of, household):
    game = finished_game(household)
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    assert "A tie: Ann and Bob" in page
    assert page.count("<tr> <td>") == 26
    assert "<svg" in page and "running total" in page
    assert f"Ann {card_total(SOLO_GAME)}</text>" in page


def test_a_review_costs_the_same_queries_however_long_the_game(
    household, django_assert_max_num_queries
):
    client = browser_of(household)
    short = GameFactory(owner=household, names=["A"])
    play(short, SOLO_GAME[:1])
    long = finished_game(household, names=("A", "B", "C"))
    with django_assert_max_num_queries(6) as counted:
        client.get(reverse("game-review", args=[short.public_id]))
    with django_assert_max_num_queries(len(counted.captured_queries)):
        client.get(reverse("game-review", args=[long.public_id]))


def test_a_digital_review_shows_every_roll_and_hold(client_of, household):
    game = GameFactory(owner=household, names=["Dee"])
    Game.objects.filter(pk=game.pk).update(digital=True)
    game.refresh_from_db()
    from scorecard import services

    services.roll_dice(game=game, version=0, turn=1)
    services.roll_dice(game=game, version=1, turn=1, hold=[0])
    services.record_box(game=game, version=2, turn=1, box=Box.CHANCE)
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    first, second = Roll.objects.order_by("number")
    assert 'title="roll 1"' in page and 'title="roll 2"' in page
    assert f'<span class="held">{second.dice[0]}</span>' in page


def test_another_households_review_is_not_found(household):
    game = finished_game(household)
    assert (
        browser_of(Household.objects.create())
        .get(reverse("game-review", args=[game.public_id]))
        .status_code
        == 404
    )


# --- Player pages -------------------------------------------------------------------------------


def test_a_player_page_adds_up_the_engines_totals(client_of, household):
    finished_game(household, names=("Ann",))
    finished_game(household, names=("Ann", "Bob"))
    finished_game(household, names=("Cy", "Ann"))
    GameFactory(owner=household, names=["Ann"])  # unfinished: not counted
    ann = Player.objects.get(name="Ann")
    page = text(client_of.get(reverse("player", args=[ann.public_id])))
    total = card_total(SOLO_GAME)
    assert "<dt>Games finished</dt><dd>3</dd>" in page
    assert f"<dt>Personal best</dt><dd>{total}</dd>" in page
    assert "<dt>Wins</dt><dd>3</dd>" in page  # ties share the win
    assert "<dt>Upper bonus earned</dt><dd>100% of cards</dd>" in page
    assert "<dt>Yahtzees</dt><dd>3</dd>" in page
    assert "<svg" in page


def test_a_player_page_over_a_thousand_games_is_a_few_queries(
    household, django_assert_max_num_queries
):
    games = bulk_finished_games(household, ["Ann", "Bob"], 1000)
    ann = Player.objects.get(name="Ann")
    client = browser_of(household)
    with django_assert_max_num_queries(7):
        response = client.get(reverse("player", args=[ann.public_id]))
    page = text(response)
    assert "<dt>Games finished</dt><dd>1000</dd>" in page
    progress = load_progress(games[0])
    assert progress.is_finished and progress.seats[0].totals.total > 0


def test_player_statistics_match_the_engine(household):
    from scorecard.statistics import player_stats

    games = bulk_finished_games(household, ["Ann", "Bob"], 20, seed=5)
    ann = Player.objects.get(name="Ann")
    stats = player_stats(ann)
    totals = [load_progress(g).seats[0].totals.total for g in games]
    others = [load_progress(g).seats[1].totals.total for g in games]
    assert sorted(stats.finals) == sorted(totals)
    assert stats.wins == sum(a >= b for a, b in zip(totals, others, strict=True))
    assert stats.best == max(totals) and stats.worst == min(totals)


def test_a_strangers_player_page_is_not_found(household):
    finished_game(household)
    ann = Player.objects.get(name="Ann")
    assert (
        browser_of(Household.objects.create())
        .get(reverse("player", args=[ann.public_id]))
        .status_code
        == 404
    )


def test_high_scores_list_finished_digital_games(client_of, household):
    game = finished_game(household, names=("Dee",))
    Game.objects.filter(pk=game.pk).update(digital=True)
    page = text(client_of.get(reverse("high-scores")))
    assert f"Dee</a> <strong>{card_total(SOLO_GAME)}</strong>" in page


# --- Export and import --------------------------------------------------------------------------


def test_export_then_import_reproduces_every_game_exactly(client_of, household):
    finished_game(household)
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.CHALLENGE)
    play(game, SOLO_GAME[:3])
    Entry.objects.filter(game=game, turn=2).update(corrected=game.created)
    from scorecard import services

    services.undo_last_entry(game=game, version=3)
    play(game, [SOLO_GAME[5]])
    digital = services.game_create(owner=household, names=["Dee"], digital=True)
    services.roll_dice(game=digital, version=0, turn=1)
    services.roll_dice(game=digital, version=1, turn=1, hold=[1, 2])
    services.record_box(game=digital, version=2, turn=1, box=Box.CHANCE)
    before = exchange.export_games(Game.objects.all())
    assert len(before["games"]) == 3 and len(before["games"][2]["rolls"]) == 2
    assert before["games"][1]["undone"][0]["box"] == SOLO_GAME[2][0].key
    Game.objects.all().delete()
    Player.objects.all().delete()
    Household.objects.all().delete()
    services.games_import(games=exchange.read_games(json.loads(json.dumps(before))))
    after = exchange.export_games(Game.objects.all())
    assert after == before


def test_exports_download_as_json_and_csv(client_of, household):
    game = finished_game(household)
    response = client_of.get(reverse("game-export", args=[game.public_id, "json"]))
    assert response["Content-Disposition"].endswith('.json"')
    assert json.loads(response.content)["games"][0]["id"] == game.public_id
    rows = client_of.get(reverse("games-export", args=["csv"])).content.decode().splitlines()
    assert rows[0].startswith("game,game_created,mode") and len(rows) == 27
    assert client_of.get(reverse("games-export", args=["xml"])).status_code == 404


def good_document(household):
    finished_game(household)
    document = exchange.export_games(Game.objects.all())
    Game.objects.all().delete()
    return document


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d.update(format="other"), "the format is not"),
        (lambda d: d["games"][0].update(mode="speed"), "games[0].mode: unknown mode."),
        (lambda d: d["games"][0]["entries"][0].update(box="sevens"), "no box called 'sevens'"),
        (lambda d: d["games"][0]["entries"][0].update(points=4), "Ann's card 1: Turn 1 (Ones)"),
        (lambda d: d["games"][0]["entries"][3].update(turn=9), "turns run 1, 2, 3"),
        (lambda d: d["games"][0]["entries"][0].update(dice="7"), "A roll is five dice"),
        (lambda d: d["games"][0].update(players=[]), "a game has 1 to 8 players"),
        (lambda d: d["games"].append(dict(d["games"][0])), "the same game appears twice"),
        (lambda d: d["games"][0].update(created="yesterday"), "not an ISO 8601 time"),
        (lambda d: d["games"][0].pop("entries"), "'entries' is missing"),
    ],
)
def test_a_bad_import_is_refused_whole(household, spoil, message):
    document = good_document(household)
    finished_game(household, names=("Other",))
    spoil(document)
    with pytest.raises(services.Refusal, match=re.escape(message)):
        services.games_import(games=exchange.read_games(document))
    assert Game.objects.count() == 1


def test_importing_a_game_twice_is_refused(household):
    finished_game(household)
    document = exchange.export_games(Game.objects.all())
    with pytest.raises(services.Refusal, match="is already here"):
        services.games_import(games=exchange.read_games(document))


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


def test_export_and_import_commands_round_trip_through_files(household, tmp_path, capsys):
    finished_game(household)
    path = tmp_path / "backup.json"
    call_command("export_games", str(path))
    before = json.loads(path.read_text())
    Game.objects.all().delete()
    call_command("import_games", str(path))
    assert "Imported 1 games." in capsys.readouterr().out
    assert exchange.export_games(Game.objects.all()) == before


def test_export_and_import_commands_use_standard_streams(household, monkeypatch, capsys):
    finished_game(household)
    call_command("export_games", "-")
    text_out = capsys.readouterr().out
    Game.objects.all().delete()
    monkeypatch.setattr("sys.stdin", StringIO(text_out))
    call_command("import_games", "-")
    assert Game.objects.count() == 1
    monkeypatch.setattr("sys.stdin", StringIO(text_out))
    with pytest.raises(CommandError, match="Nothing was imported.*already here"):
        call_command("import_games", "-")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_games", "/nonexistent/file.json")


def test_the_players_page_lists_the_households_players(client_of, household):
    finished_game(household)
    page = text(client_of.get(reverse("players")))
    assert "Ann</a> <small>1 game</small>" in page and "Bob" in page
    assert "No players yet" in text(browser_of(Household.objects.create()).get(reverse("players")))


def test_a_review_keeps_the_entries_that_were_undone(client_of, household):
    from scorecard import services

    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME[:2])
    services.undo_last_entry(game=game, version=2)
    play(game, [SOLO_GAME[3]])
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    rows = re.findall(
        r'<tr( class="undone")?> <td>(\d+)</td> <th scope="row">Ann</th> <td>(\w+)', page
    )
    assert rows == [("", "1", "Ones"), (' class="undone"', "2", "Twos"), ("", "2", "Fours")]
    assert "<del>6</del> <small>undone" in page


def test_hostile_uploads_are_refused_in_place(client_of):
    for body, message in [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (
            '{"format": "yahtzee-scorecard/games", "version": 1, "games": [1]}',
            "games[0]: expected an object.",
        ),
        ("[]", "expected a JSON object"),
    ]:
        upload = StringIO(body)
        upload.name = "games.json"
        response = client_of.post(reverse("games-import"), {"file": upload})
        assert response.status_code == 400 and message in text(response), message
