"""Maxi Yatzy's saved rolls on the game page: at a table the turn says how many rolls it used
(a count the player does not have is refused in place, nothing written); in the digital game
the server counts them; the standings and the turn show each player's saved rolls."""

import random
import re

import pytest
from django.urls import reverse

from scorecard.engine import families
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.history import exchange
from scorecard.models import Entry, Game, Player, Roll, UndoneEntry
from tests.factories import GameFactory
from tests.helpers import HTMX, game_url, post_roll, text

SAVING = services.HouseSettings("maxi", frozenset({families.Switch.SAVED_ROLLS}))


@pytest.fixture
def maxi(household):
    """A two-player Maxi Yatzy game at a table, with saved rolls on."""
    return GameFactory(owner=household, names=["Ann", "Bob"], house=SAVING)


def record(client, game, box, dice, rolls=None, htmx=False, **extra):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "box": box, "dice": dice}
    data |= {"rolls": rolls} if rolls is not None else {}
    return client.post(game_url(game, "game-record"), data | extra, headers=HTMX if htmx else {})


def saved_cells(page):
    return re.findall(r'<td class="saved">(\d+)</td>', page)


def rolls_offered(page):
    """The counts the box buttons' rolls choice offers (the typed points' form has its own)."""
    buttons = page.split('class="options"', 1)[1].split("</form>", 1)[0]
    return re.findall(r'name="rolls" value="(\d+)"', buttons)


def test_a_table_turn_asks_how_many_rolls_it_used_and_the_card_shows_what_is_saved(client_of, maxi):
    page = text(client_of.get(game_url(maxi) + "?dice=333555"))
    assert "<legend>Rolls used</legend>" in page
    assert rolls_offered(page) == ["1", "2", "3"]
    assert 'value="3" checked' in page  # a whole turn unless the player says otherwise
    assert "Saved rolls: 0" in page and saved_cells(page) == ["0", "0"]
    assert "Saved rolls" in page  # the standings' column and its meaning

    assert record(client_of, maxi, "villa", "333555", rolls="1").status_code == 302
    assert Entry.objects.get().rolls_used == 1
    page = text(client_of.get(game_url(maxi)))
    assert saved_cells(page) == ["2", "0"]  # Ann saved two; it is Bob's turn
    assert "Saved rolls: 0" in page

    record(client_of, maxi, "chance", "123456")  # Bob says nothing: a whole turn
    page = text(client_of.get(game_url(maxi) + "?dice=666666"))
    assert "Saved rolls: 2" in page
    assert rolls_offered(page) == ["1", "2", "3", "4", "5"]
    assert record(client_of, maxi, "maxi_yatzy", "666666", rolls="5").status_code == 302
    assert load_progress(maxi).seats[0].saved_rolls == 0


@pytest.mark.parametrize(
    ("rolls", "message"),
    [
        ("4", "This turn may use 1 to 3 rolls; got 4."),
        ("0", "This turn may use 1 to 3 rolls; got 0."),
        ("two", "Rolls used must be a whole number"),
    ],
)
def test_a_count_of_rolls_the_player_does_not_have_is_refused_in_place(
    client_of, maxi, rolls, message
):
    response = record(client_of, maxi, "villa", "333555", rolls=rolls, htmx=True)
    assert response.status_code == 400
    assert message in text(response) and 'role="alert"' in text(response)
    assert not Entry.objects.exists()
    maxi.refresh_from_db()
    assert maxi.version == 0


def test_saved_rolls_let_a_later_turn_say_more_but_never_more_than_saved(client_of, maxi):
    record(client_of, maxi, "villa", "333555", rolls="2")  # Ann saves one
    record(client_of, maxi, "chance", "123456")
    response = record(client_of, maxi, "chance", "123456", rolls="5", htmx=True)
    assert response.status_code == 400
    assert "This turn may use 1 to 4 rolls; got 5." in text(response)
    assert Entry.objects.count() == 2


def test_undo_gives_back_the_rolls_the_turn_had_saved(client_of, maxi):
    record(client_of, maxi, "villa", "333555", rolls="1")
    assert saved_cells(text(client_of.get(game_url(maxi)))) == ["2", "0"]
    maxi.refresh_from_db()
    client_of.post(game_url(maxi, "game-undo"), {"version": maxi.version})
    page = text(client_of.get(game_url(maxi)))
    assert saved_cells(page) == ["0", "0"] and "Saved rolls: 0" in page
    assert UndoneEntry.objects.get().rolls_used == 1  # kept for the review and the export


def test_a_correction_keeps_the_rolls_the_turn_used(client_of, maxi):
    record(client_of, maxi, "chance", "123456", rolls="1")
    maxi.refresh_from_db()
    url = game_url(maxi, "game-correct", turn=1)
    assert client_of.post(url, {"version": maxi.version, "dice": "666666"}).status_code == 302
    assert Entry.objects.get().points == 36
    assert load_progress(maxi).seats[0].saved_rolls == 2


def test_a_correction_fixes_the_rolls_a_turn_said_it_used(client_of, maxi):
    """Found by a tester: a turn written with 1 roll used (a slip: it used 3) gave its
    player two saved rolls, and only an undo of every later turn could take them back."""
    record(client_of, maxi, "ones", "111123", rolls="1")  # Ann: said 1, saves 2
    record(client_of, maxi, "ones", "111123")  # Bob
    client_of.get(game_url(maxi))  # the records' notes, said
    url = game_url(maxi, "game-correct", turn=1)
    page = text(client_of.get(url))
    assert "<legend>Rolls used</legend>" in page
    assert re.findall(r'name="rolls" value="(\d+)"( checked)?', page) == [
        ("1", " checked"),
        ("2", ""),
        ("3", ""),
    ]
    maxi.refresh_from_db()
    response = client_of.post(url, {"version": maxi.version, "rolls": "3"}, follow=True)
    assert "Corrected: Ann’s Ones, now 4. Rolls used: 3." in text(response)
    assert Entry.objects.get(turn=1).rolls_used == 3 and Entry.objects.get(turn=1).points == 4
    assert load_progress(maxi).seats[0].saved_rolls == 0


def test_a_rolls_correction_that_would_leave_a_later_turn_short_is_refused(client_of, maxi):
    record(client_of, maxi, "ones", "111123", rolls="1")  # Ann saves 2
    record(client_of, maxi, "ones", "111123")
    record(client_of, maxi, "twos", "222211", rolls="5")  # Ann spends them
    record(client_of, maxi, "twos", "222211")
    maxi.refresh_from_db()
    version = maxi.version
    url = game_url(maxi, "game-correct", turn=1)
    response = client_of.post(url, {"version": version, "rolls": "3"})
    assert response.status_code == 400
    assert (
        "With 3 rolls here, the turn of round 2 would have used 5 rolls, more than were saved "
        "for it: correct that one first."
    ) in text(response)
    response = client_of.post(url, {"version": version, "rolls": "4"})
    assert "This turn had 3 rolls at most, with the ones saved before it." in text(response)
    assert [e.rolls_used for e in Entry.objects.order_by("turn")] == [1, 3, 5, 3]
    maxi.refresh_from_db()
    assert maxi.version == version  # nothing written


def test_a_game_without_saved_rolls_refuses_a_rolls_correction(client_of, household):
    game = GameFactory(owner=household, names=["Ann"], house=services.HouseSettings("maxi"))
    record(client_of, game, "ones", "111123")
    assert "Rolls used" not in text(client_of.get(game_url(game, "game-correct", turn=1)))
    response = client_of.post(game_url(game, "game-correct", turn=1), {"version": 1, "rolls": "2"})
    assert response.status_code == 400 and "saves no rolls" in text(response)


def test_a_zero_asked_again_keeps_the_rolls_said(client_of, maxi):
    response = record(client_of, maxi, "maxi_yatzy", "123456", rolls="2", confirm="")
    page = text(response)
    assert "Score 0 in Maxi Yatzy?" in page
    assert '<input type="hidden" name="rolls" value="2">' in page
    record(client_of, maxi, "maxi_yatzy", "123456", rolls="2", confirm="zero")
    assert Entry.objects.get().rolls_used == 2


def test_typed_points_say_their_rolls_too(client_of, maxi):
    page = text(client_of.get(game_url(maxi) + "?typed=1", headers=HTMX))
    assert re.findall(r'name="rolls" value="(\d+)"', page) == ["1", "2", "3"]
    data = {"version": 0, "turn": 1, "box": "chance", "points": "30", "rolls": "1"}
    assert client_of.post(game_url(maxi, "game-record"), data).status_code == 302
    assert Entry.objects.get().rolls_used == 1


@pytest.mark.parametrize(
    "house",
    [services.STANDARD_HOUSE, services.HouseSettings("yatzy"), services.HouseSettings("maxi")],
)
def test_without_saved_rolls_nothing_asks_or_shows_them(client_of, household, house):
    game = GameFactory(owner=household, names=["Ann"], house=house)
    dice = "333555" if house.family == "maxi" else "33355"
    page = text(client_of.get(game_url(game) + f"?dice={dice}&typed=1"))
    assert "Rolls used" not in page and "Saved rolls" not in page and 'name="rolls"' not in page
    assert record(client_of, game, "chance", dice).status_code == 302
    assert Entry.objects.get().rolls_used == 3


# --- The digital game ---------------------------------------------------------------------------


@pytest.fixture
def digital_maxi(household, monkeypatch):
    monkeypatch.setattr(services, "dice_source", random.Random(7))
    return services.game_create(owner=household, names=["Ann", "Bob"], digital=True, house=SAVING)


def score(client, game, box, **extra):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "box": box}
    return client.post(game_url(game, "game-record"), data | {"confirm": "zero"} | extra)


def test_the_digital_game_counts_the_rolls_made_and_a_later_turn_rolls_the_saved_ones(
    client_of, digital_maxi
):
    game = digital_maxi
    post_roll(client_of, game)
    page = text(client_of.get(game_url(game)))
    assert "Roll 1 of 3" in page and "(2 left)" in page and "Saved rolls: 0" in page
    assert 'name="rolls"' not in page  # the server counts them
    assert len(Roll.objects.get().dice) == 6
    assert score(client_of, game, "chance").status_code == 302
    assert Entry.objects.get().rolls_used == 1
    post_roll(client_of, game)  # Bob uses his three
    post_roll(client_of, game)
    post_roll(client_of, game)
    score(client_of, game, "chance")
    page = text(client_of.get(game_url(game)))
    assert saved_cells(page) == ["2", "0"] and "Saved rolls: 2" in page
    for number in range(1, 6):
        assert post_roll(client_of, game).status_code == 302
        page = text(client_of.get(game_url(game)))
        assert f"Roll {number} of 5" in page
        # A roll past the third spends a saved one as it is made (a new user saw "Saved
        # rolls: 2" beside Roll 4), in the turn and in the standings.
        saved = 2 - max(0, number - 3)
        assert f"Saved rolls: {saved}" in page and saved_cells(page) == [str(saved), "0"]
    response = post_roll(client_of, game)
    assert response.status_code == 400
    assert "5 rolls this turn, the saved ones too, are used: choose a box now." in text(response)
    assert Roll.objects.filter(turn=3).count() == 5
    score(client_of, game, "villa")
    assert Entry.objects.get(turn=3).rolls_used == 5
    assert load_progress(game).seats[0].saved_rolls == 0


def test_a_roll_that_spends_a_saved_one_says_so_in_the_standings_at_once(client_of, digital_maxi):
    """Found by a tester: the turn said "Saved rolls: 0" after a 5th roll while the
    standings' Saved column said 2 until the box was scored (the roll's answer was the turn
    alone)."""
    game = digital_maxi
    post_roll(client_of, game)
    score(client_of, game, "chance")  # Ann saves two
    for _ in range(3):
        post_roll(client_of, game)
    score(client_of, game, "chance")
    for number in range(1, 6):
        answer = text(post_roll(client_of, game, headers=HTMX))
        saved = 2 - max(0, number - 3)
        assert f"Saved rolls: {saved}" in answer
        assert 'id="standings-rows" hx-swap-oob="true"' in answer
        assert saved_cells(answer) == [str(saved), "0"]


def test_a_digital_game_refuses_a_rolls_count_sent_with_the_box(client_of, digital_maxi):
    post_roll(client_of, digital_maxi)
    response = score(client_of, digital_maxi, "chance", rolls="1")
    assert response.status_code == 400
    assert "the server counts the rolls" in text(response) and not Entry.objects.exists()


@pytest.mark.parametrize(
    ("house", "count"), [(services.HouseSettings("yatzy"), 5), (services.HouseSettings("maxi"), 6)]
)
def test_the_digital_game_rolls_each_familys_dice(client_of, household, seeded, house, count):
    game = services.game_create(owner=household, names=["Ann"], digital=True, house=house)
    post_roll(client_of, game)
    post_roll(client_of, game, hold=["0", str(count - 1)])
    first, second = Roll.objects.order_by("number")
    assert len(second.dice) == count and second.held == "1" + "0" * (count - 2) + "1"
    assert (second.dice[0], second.dice[-1]) == (first.dice[0], first.dice[-1])
    page = text(client_of.get(game_url(game)))
    assert f"1 to {count} hold a die" in page and "Roll 2 of 3" in page
    assert page.count('name="hold"') == count
    post_roll(client_of, game)
    assert post_roll(client_of, game).status_code == 400  # three rolls, no saved ones
    assert score(client_of, game, "chance").status_code == 302
    entry = Entry.objects.get()
    assert entry.points == sum(map(int, Roll.objects.get(number=3).dice))
    assert entry.rolls_used == 3 and len(entry.dice) == count


# --- Export and import --------------------------------------------------------------------------


def test_a_maxi_yatzy_games_export_is_named_for_its_rules(client_of, maxi):
    answer = client_of.get(reverse("game-export", args=[maxi.public_id, "json"]))
    day = f"{maxi.created:%Y-%m-%d}"
    assert (
        answer["Content-Disposition"]
        == f'attachment; filename="maxi-{day}-{maxi.public_id[:6]}.json"'
    )


def test_export_and_import_carry_the_rolls_used(client_of, household, maxi):
    record(client_of, maxi, "villa", "333555", rolls="1")
    document = exchange.export_games(Game.objects.all())
    assert document["games"][0]["entries"][0]["rolls_used"] == 1
    Game.objects.all().delete()
    Player.objects.all().delete()
    services.games_import(games=exchange.read_games(document), owner=household)
    assert Entry.objects.get().rolls_used == 1
    assert load_progress(Game.objects.get()).seats[0].saved_rolls == 2


def test_an_older_file_without_rolls_imports_each_turn_as_three(client_of, household, maxi):
    record(client_of, maxi, "villa", "333555")
    document = exchange.export_games(Game.objects.all())
    del document["games"][0]["entries"][0]["rolls_used"]
    Game.objects.all().delete()
    services.games_import(games=exchange.read_games(document), owner=household)
    assert Entry.objects.get().rolls_used == 3


def test_a_file_whose_turn_used_rolls_not_saved_is_refused(client_of, household, maxi):
    record(client_of, maxi, "villa", "333555")
    document = exchange.export_games(Game.objects.all())
    document["games"][0]["entries"][0]["rolls_used"] = 4
    with pytest.raises(exchange.ImportRefused, match="Ann’s rolls: This turn may use 1 to 3"):
        exchange.read_games(document)


def test_an_undone_turn_comes_back_with_the_rolls_it_used(client_of, maxi):
    """The undo's one-tap promise: the turn comes back as it was entered, the rolls it used
    included, so tapping the box again uses the rolls again (a whole turn would hand back
    rolls that were spent)."""
    record(client_of, maxi, "villa", "333555", rolls="1")  # Ann saves two
    record(client_of, maxi, "chance", "123456")
    record(client_of, maxi, "chance", "555551", rolls="5")  # Ann spends them
    assert load_progress(maxi).seats[0].saved_rolls == 0
    maxi.refresh_from_db()
    undone = client_of.post(game_url(maxi, "game-undo"), {"version": maxi.version}, headers=HTMX)
    page = text(undone)
    assert undone.status_code == 200 and 'name="dice" value="155555"' in page
    assert 'name="rolls" value="5" checked' in page and "Saved rolls: 2" in page
    maxi.refresh_from_db()
    record(client_of, maxi, "chance", "155555", rolls="5")
    assert load_progress(maxi).seats[0].saved_rolls == 0
    maxi.refresh_from_db()
    plain = client_of.post(game_url(maxi, "game-undo"), {"version": maxi.version})
    assert plain["Location"] == game_url(maxi) + "?dice=155555&roll=3&rolls=5"
    page = text(client_of.get(plain["Location"]))
    assert 'name="rolls" value="5" checked' in page
