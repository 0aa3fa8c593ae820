import re

import pytest
from django.test import Client
from django.urls import reverse

from scorecard import rules
from scorecard.models import Entry, Game, Player
from scorecard.progress import load_progress
from scorecard.rules import Box
from tests.conftest import browser_of
from tests.factories import SOLO_GAME, GameFactory, HouseholdFactory, card_total, play

HTMX = {"HX-Request": "true"}


def game_url(game, name="game", **kwargs):
    return reverse(name, kwargs={"public_id": game.public_id, **kwargs})


def post_box(client, game, box, dice=None, points=None, htmx=False, **extra):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "box": box.key}
    data |= {"card": 1, **extra}
    if dice is not None:
        data["dice"] = "".join(map(str, dice))
    if points is not None:
        data["points"] = points
    return client.post(game_url(game, "game-record"), data, headers=HTMX if htmx else {})


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


# --- New game -----------------------------------------------------------------------------


def test_a_new_game_is_created_with_players_in_seating_order(db):
    client = Client()
    response = client.post(
        reverse("game-new"),
        {
            "name_1": "Ann",
            "name_2": " Bob  ",
            "name_4": "Cy",
            "joker": "any_lower",
            "mode": "standard",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game_url(game)
    assert [s.player.name for s in game.seats.order_by("position")] == ["Ann", "Bob", "Cy"]
    assert game.joker_rule is rules.JokerRule.ANY_LOWER
    assert client.get(game_url(game)).status_code == 200  # the cookie names its household


def test_known_names_are_reused_and_suggested(client_of, household):
    GameFactory(owner=household, names=["Ann"])
    client_of.post(reverse("game-new"), {"name_1": "ann", "joker": "hasbro", "mode": "standard"})
    assert Player.objects.filter(owner=household).count() == 1
    assert '<option value="Ann">' in client_of.get(reverse("game-new")).content.decode()


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({}, "1 to 8 players; got 0"),
        ({"name_1": "Ann", "name_2": "ANN"}, "same name"),
        ({"name_1": "x" * 41}, "at most 40 characters"),
    ],
)
def test_a_new_game_with_bad_names_is_refused_in_place(db, names, message):
    response = Client().post(reverse("game-new"), {**names, "joker": "hasbro", "mode": "standard"})
    assert response.status_code == 400
    assert message in text(response)
    assert not Game.objects.exists()


def test_an_unknown_rule_or_mode_is_refused(db):
    response = Client().post(reverse("game-new"), {"name_1": "A", "joker": "x", "mode": "y"})
    assert response.status_code == 400 and not Game.objects.exists()


def test_players_can_be_moved_up_before_the_game_starts(db):
    data = {"name_1": "Ann", "name_2": "Bob", "move_up": "2", "joker": "hasbro", "mode": "standard"}
    response = Client().post(reverse("game-new"), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.index('value="Bob"') < page.index('value="Ann"')
    assert not Game.objects.exists()


def test_a_random_start_rotates_the_seating(household):
    import random

    from scorecard import services

    game = services.game_create(
        owner=household, names=["A", "B", "C"], random_start=True, rng=random.Random(2)
    )
    order = [s.player.name for s in game.seats.all()]
    assert sorted(order) == ["A", "B", "C"]
    assert "".join(order) in "ABCABC"


# --- Privacy ------------------------------------------------------------------------------


def test_a_game_is_not_found_by_another_household(game):
    assert Client().get(game_url(game)).status_code == 404
    stranger = Client()
    stranger.post(reverse("game-new"), {"name_1": "Eve", "joker": "hasbro", "mode": "standard"})
    assert stranger.get(game_url(game)).status_code == 404
    assert stranger.post(game_url(game, "game-undo"), {"version": 0}).status_code == 404


def test_a_forged_household_cookie_is_ignored(game):
    client = Client()
    client.cookies["household"] = game.owner.public_id  # unsigned
    assert client.get(game_url(game)).status_code == 404


def test_changes_need_the_csrf_token(client_of, game):
    client_of.handler.enforce_csrf_checks = True
    response = client_of.post(game_url(game, "game-undo"), {"version": 0})
    assert response.status_code == 403


def test_pages_send_a_content_security_policy(client_of, game):
    policy = client_of.get(game_url(game))["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self' 'nonce-" in policy


# --- The turn -----------------------------------------------------------------------------


def test_dice_show_every_open_box_with_its_value(client_of, game):
    response = client_of.get(game_url(game), {"dice": "44425"})
    page = text(response)
    assert response.status_code == 200
    assert "Ann’s turn" in page
    assert 'aria-label="Fours, 12 points"' in page
    assert 'aria-label="3 of a kind, 19 points"' in page


def test_the_face_pad_adds_and_removes_dice(client_of, game):
    page = text(client_of.get(game_url(game), {"dice": "444", "add": "2"}))
    assert 'value="4442"' in page
    page = text(client_of.get(game_url(game), {"dice": "4442", "back": "1"}))
    assert 'value="444"' in page
    page = text(client_of.get(game_url(game), {"dice": "4442", "add": "5"}, headers=HTMX))
    assert page.lstrip().startswith('<section id="turn"')
    assert 'aria-label="Fours, 12 points"' in page


@pytest.mark.parametrize(
    ("dice", "message"), [("4442x", "five digits"), ("444257", "got 6"), ("44470", "1 to 6")]
)
def test_bad_dice_get_a_message_in_place(client_of, game, dice, message):
    response = client_of.get(game_url(game), {"dice": dice})
    assert response.status_code == 400
    assert message in text(response)


def test_a_forbidden_box_is_disabled_with_the_reason(client_of, game):
    play(game, [(Box.YAHTZEE, (2,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6))])
    page = text(client_of.get(game_url(game), {"dice": "44444"}))
    assert "Fours is open, so this Yahtzee must go there." in page
    assert re.search(r'value="full_house"[^>]*disabled', page)


def test_recording_a_box_without_javascript_redirects(client_of, game):
    response = post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 2, 5))
    assert response.status_code == 302 and response["Location"] == game_url(game)
    entry = Entry.objects.get()
    assert (entry.box, entry.points, entry.dice, entry.turn) == ("fours", 12, "24445", 1)
    assert "Bob’s turn" in text(client_of.get(game_url(game)))


def test_recording_with_htmx_updates_turn_standings_and_boxes(client_of, game):
    response = post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 2, 5), htmx=True)
    page = text(response)
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="turn"')
    assert '<tbody id="standings-rows" hx-swap-oob="true">' in page
    assert 'id="c0-fours" hx-swap-oob="true"><a href=' in page
    assert '<td id="c0-total" hx-swap-oob="true">12</td>' in page
    assert '<section id="boxes"' not in page  # the other cells did not change
    assert "Bob’s turn" in page
    assert "<html" not in page


def test_a_zero_asks_for_confirmation_first(client_of, game):
    response = post_box(client_of, game, Box.YAHTZEE, dice=(1, 2, 3, 4, 6), htmx=True)
    assert response.status_code == 200
    assert "Score 0 in Yahtzee?" in text(response)
    assert 'name="version" value="0"' in text(response)
    assert not Entry.objects.exists()
    game.refresh_from_db()
    assert game.version == 0
    post_box(client_of, game, Box.YAHTZEE, dice=(1, 2, 3, 4, 6), confirm="zero")
    assert Entry.objects.get().points == 0


def test_typed_points_are_recorded_and_checked(client_of, game):
    response = post_box(client_of, game, Box.THREES, points=10, htmx=True)
    assert response.status_code == 400
    assert "Threes cannot score 10" in text(response)
    assert post_box(client_of, game, Box.THREES, points=9).status_code == 302
    assert Entry.objects.get().points == 9


def test_an_extra_yahtzee_counts_its_bonus(client_of, game):
    play(game, [(Box.YAHTZEE, (3,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6))])
    post_box(client_of, game, Box.THREES, dice=(3,) * 5)
    entry = Entry.objects.get(turn=3)
    assert entry.yahtzee_bonus and entry.points == 15
    totals = load_progress(game).seats[0].totals
    assert (totals.yahtzee_bonus, totals.total) == (100, 50 + 15 + 100)


FOURS_FILLED = [(Box.FOURS, (4, 4, 1, 2, 3)), (Box.CHANCE, (1, 2, 3, 4, 6))]
YAHTZEE_FILLED = [(Box.YAHTZEE, (2,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6))]


@pytest.mark.parametrize(
    ("setup", "box", "dice", "points", "message"),
    [
        (FOURS_FILLED, Box.FOURS, (4, 4, 4, 1, 1), None, "already filled"),
        (YAHTZEE_FILLED, Box.CHANCE, (4,) * 5, None, "Fours is open"),
        ([], Box.FULL_HOUSE, None, 20, "0 or 25"),
        ([], Box.FULL_HOUSE, None, "abc", "whole number"),
        ([], Box.FULL_HOUSE, None, None, "dice or the points"),
    ],
)  # fmt: skip
def test_refused_entries_get_a_4xx_and_change_nothing(
    client_of, game, setup, box, dice, points, message
):
    play(game, setup)
    game.refresh_from_db()
    before = (game.version, list(Entry.objects.values_list("pk", "points")))
    response = post_box(client_of, game, box, dice=dice, points=points, htmx=True)
    assert response.status_code == 400
    assert message in text(response)
    assert '<section id="standings" hx-swap-oob="true"' in text(response)
    game.refresh_from_db()
    assert (game.version, list(Entry.objects.values_list("pk", "points"))) == before


def test_malformed_fields_are_refused(client_of, game):
    url = game_url(game, "game-record")
    assert (
        client_of.post(url, {"version": "x", "turn": 1, "box": "ones", "points": 1}).status_code
        == 400
    )
    assert (
        client_of.post(url, {"version": 0, "turn": 1, "box": "sevens", "points": 1}).status_code
        == 400
    )
    assert (
        client_of.post(
            url, {"version": 0, "turn": 1, "box": "ones", "points": 1, "card": 2}
        ).status_code
        == 400
    )
    assert client_of.get(url).status_code == 405
    assert not Entry.objects.exists()


def test_a_double_tap_is_recorded_once(client_of, game):
    data = {"version": 0, "turn": 1, "box": "fours", "dice": "44425", "card": 1}
    url = game_url(game, "game-record")
    first = client_of.post(url, data, headers=HTMX)
    second = client_of.post(url, data, headers=HTMX)
    assert first.status_code == second.status_code == 200
    assert "already recorded" in text(second)
    assert Entry.objects.count() == 1


def test_a_stale_screen_is_refused_with_409(client_of, game):
    url = game_url(game, "game-record")
    client_of.post(url, {"version": 0, "turn": 1, "box": "fours", "dice": "44425"})
    response = client_of.post(url, {"version": 0, "turn": 1, "box": "chance", "dice": "44425"})
    assert response.status_code == 409
    assert "changed since this screen" in text(response)
    assert Entry.objects.count() == 1


def test_recording_costs_the_same_queries_however_big_the_game(
    household, django_assert_max_num_queries
):
    def queries_for(names, turns):
        game = GameFactory(owner=household, names=names)
        play(game, turns)
        client = browser_of(household)
        with django_assert_max_num_queries(12) as captured:
            assert (
                post_box(client, game, Box.CHANCE, dice=(1, 2, 3, 4, 6), htmx=True).status_code
                == 200
            )
        return len(captured.captured_queries)

    small = queries_for(["A", "B"], [])
    uppers = [(box, (box.face,) * 3 + (1, 2)) for box in rules.UPPER_BOXES]
    big = queries_for([f"P{i}" for i in range(8)], [t for t in uppers for _ in range(8)])
    assert small == big


# --- Undo and correction --------------------------------------------------------------------


def test_undo_takes_back_entries_one_after_another(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3)), (Box.CHANCE, (1, 2, 3, 4, 6))])
    for expected_left in (1, 0):
        game.refresh_from_db()
        response = client_of.post(
            game_url(game, "game-undo"), {"version": game.version}, headers=HTMX
        )
        assert response.status_code == 200 and "Undone:" in text(response)
        assert Entry.objects.count() == expected_left
    game.refresh_from_db()
    response = client_of.post(game_url(game, "game-undo"), {"version": game.version})
    assert response.status_code == 400 and "Nothing to undo" in text(response)


def test_undo_from_a_stale_screen_is_refused(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    response = client_of.post(game_url(game, "game-undo"), {"version": 0})
    assert response.status_code == 409 and Entry.objects.count() == 1


def test_undo_without_javascript_redirects(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    response = client_of.post(game_url(game, "game-undo"), {"version": 1})
    assert response.status_code == 302 and not Entry.objects.exists()


def test_a_box_can_be_corrected(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    url = reverse("game-correct", kwargs={"public_id": game.public_id, "turn": 1})
    assert "Correct Ann’s Fours" in text(client_of.get(url))
    response = client_of.post(url, {"version": 1, "dice": "44445"})
    assert response.status_code == 302
    entry = Entry.objects.get()
    assert (entry.points, entry.dice) == (16, "44445") and entry.corrected
    client_of.post(url, {"version": 2, "points": "8"})
    entry.refresh_from_db()
    assert (entry.points, entry.dice) == (8, "")


def test_a_correction_that_breaks_the_card_is_refused(client_of, game):
    play(
        game,
        [(Box.YAHTZEE, (2,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6)), (Box.TWOS, (2,) * 5)],
    )
    url = reverse("game-correct", kwargs={"public_id": game.public_id, "turn": 1})
    response = client_of.post(url, {"version": 3, "points": "0"})
    assert response.status_code == 400
    assert "would break a later box" in text(response) and "Turn 2 (Twos)" in text(response)
    assert Entry.objects.get(turn=1).points == 50
    response = client_of.post(url, {"version": 3, "points": "12"})
    assert response.status_code == 400 and "Yahtzee cannot score 12" in text(response)
    assert client_of.post(url, {"version": 0, "points": "50"}).status_code == 409


def test_correcting_an_unknown_turn_is_not_found(client_of, game):
    url = reverse("game-correct", kwargs={"public_id": game.public_id, "turn": 9})
    assert client_of.get(url).status_code == 404


# --- Game over ------------------------------------------------------------------------------

SOLO_TOTAL = card_total(SOLO_GAME)


def test_a_finished_game_shows_the_winner_and_refuses_more_turns(client_of, household):
    game = GameFactory(owner=household, names=["Solo"])
    play(game, SOLO_GAME)
    assert game.finished is not None
    page = text(client_of.get(game_url(game)))
    assert f"Solo wins with {SOLO_TOTAL}." in page
    response = post_box(client_of, game, Box.CHANCE, dice=(1, 2, 3, 4, 6))
    assert response.status_code == 400 and "This game is over" in text(response)


def test_ties_are_shown_as_ties(client_of, game):
    play(game, [turn for turn in SOLO_GAME for _ in range(2)])
    assert "A tie: Ann and Bob share first place" in text(client_of.get(game_url(game)))


def test_undo_reopens_a_finished_game(client_of, household):
    game = GameFactory(owner=household, names=["Solo"])
    play(game, SOLO_GAME)
    client_of.post(game_url(game, "game-undo"), {"version": game.version})
    game.refresh_from_db()
    assert game.finished is None
    assert "Solo’s turn" in text(client_of.get(game_url(game)))


def test_a_rematch_has_the_same_players_rule_and_mode(client_of, household):
    game = GameFactory(owner=household, names=["Ann", "Bob"], joker=rules.JokerRule.FREE)
    response = client_of.post(game_url(game, "game-rematch"))
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == game_url(rematch)
    assert [s.player_id for s in rematch.seats.all()] == [s.player_id for s in game.seats.all()]
    assert rematch.joker == "free"


def test_an_unfinished_game_resumes_where_it_was(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))] * 1 + [(Box.CHANCE, (1, 2, 3, 4, 6))])
    page = text(client_of.get(game_url(game)))
    assert "Ann’s turn <small>3 of 26</small>" in page
    home = text(client_of.get(reverse("home")))
    assert game_url(game) in home


# --- Triple and Challenge -----------------------------------------------------------------


def test_triple_yahtzee_has_three_cards_counted_one_two_three(client_of, household):
    game = GameFactory(owner=household, names=["Tri"], mode=Game.Mode.TRIPLE)
    assert load_progress(game).total_turns == 39
    page = text(client_of.get(game_url(game), {"card": "3", "dice": "66666"}))
    assert "Card ×3" in page and "on card ×3" in page
    post_box(client_of, game, Box.YAHTZEE, dice=(6,) * 5, card=3)
    post_box(client_of, game, Box.SIXES, dice=(6, 6, 1, 2, 3), card=1)
    seat = load_progress(game).seats[0]
    assert seat.totals.total == 3 * 50 + 12
    assert seat.totals.lower == 150


def test_challenge_rounds_share_one_roll(client_of, game):
    game.mode = Game.Mode.CHALLENGE
    game.save()
    post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 2, 5))
    page = text(client_of.get(game_url(game)))
    assert "This round’s roll" in page and 'aria-label="Fours, 12 points"' in page
    response = post_box(client_of, game, Box.CHANCE, dice=(1, 1, 1, 1, 2))
    assert response.status_code == 400 and "shared roll, 2 4 4 4 5" in text(response)
    post_box(client_of, game, Box.CHANCE, dice=(2, 4, 4, 4, 5))
    assert "Dice" in text(client_of.get(game_url(game)))  # a new round asks for a new roll
    assert load_progress(game).round_dice is None


def test_the_home_page_lists_nothing_for_a_new_visitor(db):
    response = Client().get(reverse("home"))
    assert response.status_code == 200 and "Games in progress" not in text(response)


def test_every_household_gets_its_own_cookie_once(db):
    client = Client()
    client.post(reverse("game-new"), {"name_1": "Ann", "joker": "hasbro", "mode": "standard"})
    cookie = client.cookies["household"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    client.post(reverse("game-new"), {"name_1": "Bob", "joker": "hasbro", "mode": "standard"})
    assert {g.owner_id for g in Game.objects.all()} == {
        HouseholdFactory._meta.model.objects.get().pk
    }
