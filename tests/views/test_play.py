"""Playing a table game: the turn, recording, undo, corrections, game over, advice."""

import html
import re

import pytest
from django.urls import reverse

from scorecard.engine import rules, strategy
from scorecard.engine.rules import Box
from scorecard.game.progress import load_progress
from scorecard.models import Entry, Game
from tests.factories import SOLO_GAME, EntryFactory, GameFactory, card_total, play, play_on
from tests.helpers import HTMX, browser_of, finished_game, game_url, post_box, text


def test_changes_need_the_csrf_token(client_of, game):
    client_of.handler.enforce_csrf_checks = True
    response = client_of.post(game_url(game, "game-undo"), {"version": 0})
    assert response.status_code == 403


def test_pages_send_a_content_security_policy(client_of, game):
    policy = client_of.get(game_url(game))["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "style-src 'self';" in policy
    # Every script is a file of our own: no inline script needs a nonce.
    assert "script-src 'self';" in policy and "unsafe" not in policy


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


def test_a_face_tapped_on_a_full_pad_adds_nothing_and_says_why(client_of, game):
    page = text(client_of.get(game_url(game), {"dice": "44425", "add": "6"}, headers=HTMX))
    assert 'value="44425"' in page and 'aria-label="Fours, 12 points"' in page
    assert "The five dice are in: ⌫ removes the last one, Clear removes them all." in page
    page = text(client_of.get(game_url(game), {"dice": "4442", "add": "6"}, headers=HTMX))
    assert 'value="44426"' in page and "dice are in" not in page


@pytest.mark.parametrize(
    ("dice", "message"),
    [("4442x", "five digits"), ("444256", "got 6"), ("444257", "got 7"), ("44470", "1 to 6")],
)
def test_bad_dice_get_a_message_in_place(client_of, game, dice, message):
    response = client_of.get(game_url(game), {"dice": dice})
    assert response.status_code == 400
    assert message in text(response)


def test_the_pad_s_answer_writes_its_dice_into_the_address_for_this_turn(client_of, game):
    """A reload or Back shows the dice again; the turn keeps them from a later one."""
    answer = client_of.get(game_url(game), {"dice": "44425", "roll": "2"}, headers=HTMX)
    assert answer["HX-Replace-Url"] == f"{game_url(game)}?dice=44425&roll=2&turn=1"
    cleared = client_of.get(game_url(game), {"dice": ""}, headers=HTMX)
    assert cleared["HX-Replace-Url"] == game_url(game)
    here = HTMX | {"HX-Current-URL": f"http://testserver{game_url(game)}"}
    unchanged = client_of.get(game_url(game), {"dice": ""}, headers=here)
    assert "HX-Replace-Url" not in unchanged  # written only where the address changes
    refused = client_of.get(game_url(game), {"dice": "44427", "show": "1"}, headers=HTMX)
    assert refused.status_code == 400 and "HX-Replace-Url" not in refused
    assert 'value="44425"' in text(client_of.get(game_url(game), {"dice": "44425", "turn": 1}))
    # A box recorded takes the dice out of the address: they were the turn before's.
    recorded = post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 2, 5), htmx=True)
    assert recorded["HX-Replace-Url"] == game_url(game)
    undone = client_of.post(game_url(game, "game-undo"), {"version": 1}, headers=HTMX)
    assert undone["HX-Replace-Url"] == f"{game_url(game)}?dice=24445&roll=3&turn=1"
    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))])
    later = text(client_of.get(game_url(game), {"dice": "44425", "turn": 1}))  # now 2
    assert 'value="44425"' not in later and "Fours, 12 points" not in later
    # ... and says why: that turn is on the card (Back without scripts said "another phone?").
    assert "That turn is on the card already (Ann: Chance 16), so the dice entered" in later


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
    assert (
        '<tr id="r3" class="box" hx-swap-oob="true"><th scope="row">Fours</th><td><a id="t1" href='
        in page
    )
    assert (
        '<tr id="r18" class="sum" hx-swap-oob="true"><th scope="row">Grand total</th><td>12</td>'
        in page
    )
    assert "Bob’s turn" in page
    assert "<html" not in page
    later = text(post_box(client_of, game, Box.CHANCE, dice=(1, 2, 3, 4, 6), htmx=True))
    assert (
        '<tr id="r15" class="box" hx-swap-oob="true">'
        '<th scope="row">Chance</th><td></td><td><a id="t2" href=' in later
    )
    assert '<section id="boxes"' not in later  # the other cells did not change


def test_the_grid_says_how_to_correct_a_box_once_one_is_filled(client_of, game):
    """An empty card has no box to tap: the hint comes with the first entry's answer (the
    whole grid, out of band), and goes when that entry is undone."""
    hint = "Tap a filled box to correct it."
    assert hint not in text(client_of.get(game_url(game)))
    first = text(post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 2, 5), htmx=True))
    assert '<section id="boxes" hx-swap-oob="true"' in first and hint in first
    assert hint in text(client_of.get(game_url(game)))
    undone = text(client_of.post(game_url(game, "game-undo"), {"version": 1}, headers=HTMX))
    assert '<section id="boxes" hx-swap-oob="true"' in undone and hint not in undone
    assert hint not in text(client_of.get(game_url(game)))


def test_a_game_page_goes_without_the_how_to_score_column_the_sheets_keep(client_of, game):
    """A phone never showed it on the game page; the printed sheets and the review keep it."""
    play(game, [(Box.FOURS, (4, 4, 4, 2, 5))])
    page = text(client_of.get(game_url(game)))
    assert "How to score" not in page and 'class="hint">Sum of the 4s' not in page
    assert "<colgroup>" not in page and re.search(r"Fours</th><td[^>]*><a id=\"t\d+\" href=", page)
    for address in (game_url(game, "game-sheet"), reverse("sheet")):
        sheet = text(client_of.get(address))
        assert "How to score" in sheet and '<td class="hint">Sum of the 4s</td>' in sheet


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
    # The refused points come back in their open form, as typed, to be put right.
    assert '<details id="typed" class="typed" open>' in text(response)
    assert '<option value="threes" selected>' in text(response)
    # The focus back on it, marked and described by the refusal (an accessibility tester).
    assert 'value="10" required autofocus aria-invalid="true" aria-describedby="turn-error">' in (
        text(response)
    )
    assert '<p class="error" role="alert" id="turn-error">Threes cannot score 10' in text(response)
    assert post_box(client_of, game, Box.THREES, points=9).status_code == 302
    assert Entry.objects.get().points == 9


def test_an_extra_yahtzee_counts_its_bonus(client_of, game):
    play(game, [(Box.YAHTZEE, (3,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6))])
    post_box(client_of, game, Box.THREES, dice=(3,) * 5)
    entry = Entry.objects.get(turn=3)
    assert entry.yahtzee_bonus and entry.points == 15
    totals = load_progress(game).seats[0].totals
    assert (totals.yahtzee_bonus, totals.total) == (100, 50 + 15 + 100)


def test_typed_points_only_five_alike_make_earn_the_extra_yahtzee_bonus(client_of, game):
    """Found by a new user: Fives 25 typed without the tick went in without its 100, though
    only five 5s make it."""
    play(game, [(Box.YAHTZEE, (3,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6))])
    assert post_box(client_of, game, Box.FIVES, points=25).status_code == 302
    entry = Entry.objects.get(turn=3)
    assert (entry.points, entry.yahtzee_bonus) == (25, True)


def test_a_correction_by_points_says_whether_it_was_an_extra_yahtzee(client_of, game):
    """Found by new users: an extra Yahtzee's Fours 20 corrected to 16 was refused ("no five
    alike may score 16"), then refused again for the tick the page had left on."""
    play(game, [(Box.YAHTZEE, (3,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6)), (Box.FOURS, (4,) * 5)])
    url = reverse("game-correct", args=[game.public_id, 3])
    tick = '<input type="checkbox" name="extra_yahtzee" checked>'
    assert tick in text(client_of.get(url))  # as it is now
    # Left ticked: 16 in Fours is no five alike, so the tick claims nothing.
    first = client_of.post(url, {"version": 3, "points": "16", "extra_yahtzee": "on"})
    assert "Corrected: Ann’s Fours, now 16." in text(client_of.get(first["Location"]))
    entry = Entry.objects.get(turn=3)
    assert (entry.points, entry.yahtzee_bonus) == (16, False)
    again = client_of.post(url, {"version": 4, "points": "20"})
    assert Entry.objects.get(turn=3).yahtzee_bonus  # only five 4s make 20: ticked or not
    said = "Corrected: Ann’s Fours, now 20. With the 100 extra-Yahtzee bonus."
    assert said in text(client_of.get(again["Location"]))
    # Before the 50 is in, five alike earn nothing: no tick to offer.
    first = text(client_of.get(reverse("game-correct", args=[game.public_id, 1])))
    assert 'name="extra_yahtzee"' not in first


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
    assert "Last on the card: Ann, Fours 12." in text(response)
    assert Entry.objects.count() == 1


def test_a_tap_refused_for_another_phones_correction_names_the_correction(client_of, game):
    """A tester's Chance, tapped on a screen shown before another phone corrected Ann's
    Fours, was refused naming Ann's Fours as last written, not the correction."""
    url = game_url(game, "game-record")
    client_of.post(url, {"version": 0, "turn": 1, "box": "fours", "dice": "44425"})
    correct = reverse("game-correct", args=[game.public_id, 1])
    client_of.post(correct, {"version": 1, "dice": "44445"})
    stale = {"version": 1, "turn": 2, "box": "chance", "dice": "12346"}
    response = client_of.post(url, stale, headers=HTMX)
    assert response.status_code == 409
    assert (
        "changed since this screen was shown; here it is as it is now. Corrected: Ann’s "
        "Fours, now 16." in text(response)
    )
    assert "Last on the card" not in text(response)
    assert Entry.objects.count() == 1


def test_a_tap_refused_for_another_phones_undo_names_the_undo(client_of, game):
    url = game_url(game, "game-record")
    client_of.post(url, {"version": 0, "turn": 1, "box": "fours", "dice": "44425"})
    client_of.post(game_url(game, "game-undo"), {"version": 1})
    stale = {"version": 1, "turn": 2, "box": "chance", "dice": "12346"}
    response = client_of.post(url, stale, headers=HTMX)
    assert response.status_code == 409
    assert "as it is now. Undone: Ann’s Fours (12)." in text(response)
    assert not Entry.objects.exists()


def test_a_stale_screen_of_triple_yahtzee_names_the_card_last_written_on(client_of, household):
    game = GameFactory(owner=household, names=["Tri"], mode=Game.Mode.TRIPLE)
    url = game_url(game, "game-record")
    client_of.post(url, {"version": 0, "turn": 1, "box": "sixes", "dice": "66612", "card": 3})
    stale = {"version": 0, "turn": 1, "box": "chance", "dice": "66612", "card": 1}
    response = client_of.post(url, stale, headers=HTMX)
    assert response.status_code == 409
    assert "Last on the card: Tri, Sixes 18 on card ×3." in text(response)


MAX_QUERIES_PER_RECORD = 6  # the game with its seats, BEGIN, entries, claim, insert, COMMIT


def test_recording_reads_the_game_once_however_big_the_game(
    household, django_assert_max_num_queries
):
    def queries_for(names, turns):
        game = GameFactory(owner=household, names=names)
        play(game, turns)
        client = browser_of(household)
        game.refresh_from_db()
        data = {"version": game.version, "turn": len(turns) + 1, "box": "chance", "dice": "12346"}
        with django_assert_max_num_queries(MAX_QUERIES_PER_RECORD) as captured:
            response = client.post(game_url(game, "game-record"), data, headers=HTMX)
        assert response.status_code == 200
        assert Entry.objects.filter(game=game, box="chance").exists()
        return len(captured.captured_queries)

    small = queries_for(["A", "B"], [])
    uppers = [(box, (box.face,) * 3 + (1, 2)) for box in rules.UPPER_BOXES]
    big = queries_for([f"P{i}" for i in range(8)], [t for t in uppers for _ in range(8)])
    assert small == big


# A phone's tap carries a key (outbox.js) so that a tap sent again is written once: the key
# stored with the tap's outcome, last, by an insert that writes nothing on a key seen before
# (so it needs no savepoint). The record runs inside the key's transaction without a
# savepoint of its own (`services._one_change`).
TAP_KEY_QUERIES = 1


@pytest.mark.parametrize("names", [["A", "B"], [f"P{i}" for i in range(8)]])
def test_a_tap_with_its_key_reads_the_game_once(household, names, django_assert_num_queries):
    game = GameFactory(owner=household, names=names)
    client = browser_of(household)
    data = {"version": 0, "turn": 1, "box": "chance", "dice": "12346"}
    headers = {**HTMX, "Idempotency-Key": "a-tap-of-this-phone-1"}
    with django_assert_num_queries(MAX_QUERIES_PER_RECORD + TAP_KEY_QUERIES) as captured:
        response = client.post(game_url(game, "game-record"), data, headers=headers)
    assert response.status_code == 200 and Entry.objects.filter(game=game).count() == 1
    reads = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    reads_of_the_game = [sql for sql in reads if '"scorecard_game"."version"' in sql]
    assert len(reads_of_the_game) == 1


SETTLING_QUERIES = 5  # the seats' results, then each of box totals and figures read, written


def test_the_last_box_settles_the_game_in_a_fixed_few_more_queries(
    household, django_assert_max_num_queries
):
    def queries_for(names):
        game = GameFactory(owner=household, names=names)
        turns = [turn for turn in SOLO_GAME for _ in names]
        play(game, turns[:-1])
        client = browser_of(household)
        data = {"version": len(turns) - 1, "turn": len(turns), "box": "chance", "dice": "66554"}
        with django_assert_max_num_queries(MAX_QUERIES_PER_RECORD + SETTLING_QUERIES) as captured:
            response = client.post(game_url(game, "game-record"), data, headers=HTMX)
        assert response.status_code == 200
        assert not game.seats.filter(final_total=None).exists()  # settled as it ended
        return len(captured.captured_queries)

    assert queries_for(["A", "B"]) == queries_for([f"P{i}" for i in range(8)])


def test_the_game_page_and_undo_read_the_game_once(
    client_of, household, django_assert_max_num_queries
):
    game = GameFactory(owner=household, names=[f"P{i}" for i in range(8)])
    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))] * 8)
    with django_assert_max_num_queries(2):
        page = client_of.get(game_url(game))
    assert page.status_code == 200
    with django_assert_max_num_queries(MAX_QUERIES_PER_RECORD + 1):
        undone = client_of.post(game_url(game, "game-undo"), {"version": 8}, headers=HTMX)
    assert undone.status_code == 200 and Entry.objects.count() == 7


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


def test_an_undo_that_would_lose_the_next_player_s_rolls_asks_first_without_scripts(
    client_of, household
):
    from scorecard.game import services

    game = services.game_create(owner=household, names=["Eve", "Fay"], digital=True)
    services.roll_dice(game=game, version=0, turn=1)
    services.record_box(game=game, version=1, turn=1, box=Box.CHANCE)
    services.roll_dice(game=game, version=2, turn=2)  # Fay's
    asked = client_of.post(game_url(game, "game-undo"), {"version": 3})
    assert asked.status_code == 200 and Entry.objects.count() == 1
    said = text(asked)
    assert "Undo Eve’s Chance (" in said and "Fay has rolled this turn" in said
    assert 'name="confirm" value="undo"' in said and "Undo last entry" not in said
    done = client_of.post(game_url(game, "game-undo"), {"version": 3, "confirm": "undo"})
    assert done.status_code == 302 and not Entry.objects.exists()
    assert list(game.rolls.values_list("turn", flat=True)) == [1]


def test_a_box_can_be_corrected(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    url = reverse("game-correct", args=[game.public_id, 1])
    assert "Correct Ann’s Fours" in text(client_of.get(url))
    response = client_of.post(url, {"version": 1, "dice": "44445"})
    assert response.status_code == 302
    entry = Entry.objects.get()
    assert (entry.points, entry.dice) == (16, "44445") and entry.corrected
    said = "Corrected: Ann’s Fours, now 16."
    assert said in text(client_of.get(response["Location"]))  # said on the card, once
    assert said not in text(client_of.get(response["Location"]))
    client_of.post(url, {"version": 2, "points": "8"})
    entry.refresh_from_db()
    assert (entry.points, entry.dice) == (8, "")


def test_a_box_written_in_the_wrong_box_is_moved_on_its_correction_page(client_of, game):
    """Ann's three 3s went in Ones by mistake a round ago: the page offers the boxes still
    open on her card, and the move takes the dice along and says where they went."""
    play(game, [(Box.ONES, (3, 3, 3, 1, 2)), (Box.FIVES, (5, 1, 2, 3, 4)),
                (Box.SIXES, (6, 6, 1, 2, 3))])  # fmt: skip
    url = reverse("game-correct", args=[game.public_id, 1])
    page = text(client_of.get(url))
    assert '<label for="correct-box">The box</label>' in page
    assert '<option value="ones" selected>Ones (1)</option>' in page
    assert '<option value="threes">Threes (9)</option>' in page and 'value="sixes"' not in page
    assert '<option value="full_house">Full house (0)</option>' in page
    assert 'max="50"' in page  # typed points fit any box it may move to
    assert '<small id="points-hint">Ones scores 0 to 5.</small>' in page
    for chosen, hint in [("threes", "Threes scores 0, 3, 6, ... 15."), ("x", "Ones")]:
        hinted = text(client_of.get(url, {"box": chosen}, headers=HTMX))  # the choice changed
        assert f'<small id="points-hint">{hint}' in hinted
    response = client_of.post(url, {"version": 3, "box": "threes", "dice": "", "points": ""})
    assert response.status_code == 302
    assert "Moved: Ann’s Ones to Threes, now 9." in text(client_of.get(response["Location"]))
    assert Entry.objects.values_list("box", "points", "dice").get(turn=1) == ("threes", 9, "12333")
    refused = client_of.post(url, {"version": 4, "box": "sixes"})
    assert refused.status_code == 400
    assert "Sixes is already filled on this card: choose an open box." in text(refused)
    assert '<option value="sixes"' not in text(refused)
    # The box sent is not open, so the box's own stays chosen and the hint is its own (a
    # tester saw "Ones (3)" chosen over "Twos scores 0, 2, 4, ... 10").
    assert '<option value="threes" selected>' in text(refused)
    assert '<small id="points-hint">Threes scores 0, 3, 6, ... 15.</small>' in text(refused)
    assert Entry.objects.get(turn=1).box == "threes"


def test_a_triple_box_on_the_wrong_card_is_moved_to_another_card(client_of, household):
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    play(game, [(Box.FOURS, (4, 4, 4, 2, 5))])
    url = reverse("game-correct", args=[game.public_id, 1])
    page = text(client_of.get(url))
    assert '<option value="1:fours" selected>Fours on card ×1 (12)</option>' in page
    assert '<option value="3:fours">Fours on card ×3 (12)</option>' in page
    assert '<option value="2:chance">Chance on card ×2 (19)</option>' in page
    hinted = text(client_of.get(url, {"box": "2:chance"}))
    assert '<small id="points-hint">Chance scores 5 to 30.</small>' in hinted
    response = client_of.post(url, {"version": 1, "box": "3:fours"})
    assert response.status_code == 302
    said = "Moved: Ann’s Fours on card ×1 to Fours on card ×3, now 12."
    assert said in text(client_of.get(response["Location"]))
    assert Entry.objects.values_list("card", "box", "points").get() == (3, "fours", 12)
    assert load_progress(game).seats[0].totals.total == 36
    for bad in ("x:fours", "9:fours", "3:", ":"):
        refused = client_of.post(url, {"version": 2, "box": bad})
        assert refused.status_code == 400, bad
    assert Entry.objects.values_list("card", "box").get() == (3, "fours")


def _joker_full_house_of_any_lower(household) -> Game:
    """Ann's Yahtzee 50 and her upper boxes, then 22222 as a joker's full house (25), under
    "any lower box": a scratched Yahtzee box gives five alike no joker at all."""
    game = GameFactory(owner=household, names=["Ann"], joker=rules.JokerRule.ANY_LOWER)
    uppers = [(box, (box.face,) * 3 + ((1, 2) if box.face > 2 else (3, 4)))
              for box in rules.UPPER_BOXES]  # fmt: skip
    return play(game, [(Box.YAHTZEE, (2,) * 5), *uppers, (Box.FULL_HOUSE, (2,) * 5)])


def test_a_correction_that_breaks_the_card_is_refused(client_of, household):
    game = _joker_full_house_of_any_lower(household)
    url = reverse("game-correct", args=[game.public_id, 1])
    response = client_of.post(url, {"version": 8, "points": "0"})
    assert response.status_code == 400
    assert "would break a later box" in text(response) and "Full house: " in text(response)
    assert Entry.objects.get(turn=1).points == 50
    response = client_of.post(url, {"version": 8, "points": "12"})
    assert response.status_code == 400 and "Yahtzee cannot score 12" in text(response)
    assert client_of.post(url, {"version": 0, "points": "50"}).status_code == 409


def test_a_refused_correction_comes_back_as_it_was_typed(client_of, household):
    game = _joker_full_house_of_any_lower(household)
    url = reverse("game-correct", args=[game.public_id, 1])
    response = client_of.post(url, {"version": 8, "dice": "12345"})
    assert response.status_code == 400 and "would break a later box" in text(response)
    assert 'value="12345"' in text(response)  # to fix, not to type again
    # The field refused is marked so for a screen reader (a helper found it unmarked).
    dice_field = re.search(r'<input id="correct-dice"[^>]*>', text(response)).group(0)
    assert 'aria-invalid="true"' in dice_field
    assert "aria-invalid" not in re.search(
        r'<input id="correct-points"[^>]*>', text(response)
    ).group(0)
    assert Entry.objects.get(turn=1).dice == "22222"


def test_a_yahtzee_box_corrected_to_0_says_the_later_bonus_it_takes(client_of, game):
    """Found by a new user: a mistaken 50 could not be put right once a later five alike had
    its 100. The correction takes that 100 away, and says so, once the 0 is said yes to
    (a box corrected to 0 is asked about first, as a zero recorded is)."""
    play(game, [(Box.YAHTZEE, (2,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6)), (Box.TWOS, (2,) * 5)])
    url = reverse("game-correct", args=[game.public_id, 1])
    asked = client_of.post(url, {"version": 3, "points": "0"})
    assert asked.status_code == 200 and "Score 0 in Yahtzee?" in text(asked)
    # Said before it is saved (a helper learnt of the bonus only after).
    assert "It takes the +100 of the later extra Yahtzee with it." in text(asked)
    assert Entry.objects.get(turn=1).points == 50
    assert game.entries.filter(corrected=None).count() == 3
    response = client_of.post(url, {"version": 3, "points": "0", "confirm": "zero"})
    assert response.status_code == 302
    said = text(client_of.get(response["Location"]))
    assert "Corrected: Ann’s Yahtzee, now 0. Twos (round 2) no longer has a 100" in said
    assert Entry.objects.get(turn=3).yahtzee_bonus is False
    assert load_progress(game).seats[0].totals.total == 0 + 10


def test_dice_with_points_they_do_not_make_are_refused_not_silently_dropped(client_of, game):
    play(game, [(Box.SIXES, (6, 6, 6, 1, 2))])
    url = reverse("game-correct", args=[game.public_id, 1])
    response = client_of.post(url, {"version": 1, "dice": "12345", "points": "18"})
    assert response.status_code == 400
    assert "The dice 12345 make 0 in Sixes, not 18" in text(response)
    assert (Entry.objects.get().points, Entry.objects.get().dice) == (18, "12666")
    both = client_of.post(url, {"version": 1, "dice": "66613", "points": "18"})
    assert both.status_code == 302 and Entry.objects.get().dice == "13666"


def test_saving_a_box_as_it_is_changes_nothing_and_marks_no_correction(client_of, game):
    play(game, [(Box.SIXES, (6, 6, 6, 1, 2))])
    url = reverse("game-correct", args=[game.public_id, 1])
    assert client_of.post(url, {"version": 1, "dice": "21666"}).status_code == 302
    game.refresh_from_db()
    assert game.version == 1 and Entry.objects.get().corrected is None


def test_a_maxi_box_worth_100_can_be_typed_into_its_correction(client_of, household):
    from scorecard.game import services

    maxi = GameFactory(owner=household, names=["Ann"], house=services.HouseSettings("maxi"))
    play(maxi, [("maxi_yatzy", (6,) * 6)])
    page = text(client_of.get(reverse("game-correct", args=[maxi.public_id, 1])))
    assert 'max="100"' in page


def test_negative_points_in_a_correction_are_refused_saying_what_is_allowed(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    url = reverse("game-correct", args=[game.public_id, 1])
    response = client_of.post(url, {"version": 1, "points": "-1"})
    assert response.status_code == 400
    assert "Points must be a whole number, 0 or more." in text(response)
    assert Entry.objects.get().points == 8


def test_correcting_a_box_another_phone_undid_says_so_and_changes_nothing(client_of, game):
    """Found by a family on four phones: a score link's correction of a box the owner had
    just undone answered "Link no longer works … ask the table for a new one" (a 404)."""
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3)), (Box.FIVES, (5, 5, 1, 2, 3))])
    url = reverse("game-correct", args=[game.public_id, 2])
    assert client_of.get(url).status_code == 200
    client_of.post(reverse("game-undo", args=[game.public_id]), {"version": 2}, follow=True)
    response = client_of.post(url, {"version": 3, "points": "15"}, follow=True)
    assert response.redirect_chain == [(game_url(game), 302)]
    said = "That box is not filled on the card now (another phone may have undone it), so "
    assert said + "nothing was changed." in text(response)
    assert list(Entry.objects.values_list("box", "points")) == [("fours", 8)]
    assert client_of.get(reverse("game-correct", args=[game.public_id, 9])).status_code == 302


def _correction_form(client, game, turn: int) -> dict[str, str]:
    page = client.get(reverse("game-correct", args=[game.public_id, turn])).content.decode()
    return dict(re.findall(r'<input type="hidden" name="(version|was)" value="([^"]*)"', page))


def test_a_correction_goes_through_when_another_turn_was_recorded_meanwhile(client_of, game):
    """Found by a family on four phones: a correction of Ann's Fours was refused because
    Bob's turn was recorded on another phone while its page was open; the box was as shown."""
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    form = _correction_form(client_of, game, 1)
    post_box(client_of, game, Box.SIXES, (6, 6, 1, 2, 3))  # Bob's turn, meanwhile
    url = reverse("game-correct", args=[game.public_id, 1])
    response = client_of.post(url, form | {"points": "12"})
    assert response.status_code == 302
    assert list(Entry.objects.order_by("turn").values_list("points", flat=True)) == [12, 12]


def test_a_correction_of_a_box_changed_meanwhile_is_refused(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    form = _correction_form(client_of, game, 1)
    url = reverse("game-correct", args=[game.public_id, 1])
    assert (
        client_of.post(url, _correction_form(client_of, game, 1) | {"points": "16"}).status_code
        == 302
    )
    response = client_of.post(url, form | {"points": "12"})  # the page shown before the 16
    assert response.status_code == 409
    assert "Not corrected: the card changed since this page was shown." in text(response)
    assert Entry.objects.get().points == 16


def test_an_undo_refused_for_a_changed_card_says_it_was_not_undone(client_of, game):
    """Found by a family on four phones: a stale phone's undo was told "Not recorded"."""
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3)), (Box.FIVES, (5, 5, 1, 2, 3))])
    response = client_of.post(reverse("game-undo", args=[game.public_id]), {"version": 1})
    assert response.status_code == 409
    assert "Not undone: the card changed since this screen was shown" in text(response)
    assert Entry.objects.count() == 2


SOLO_TOTAL = card_total(SOLO_GAME)


def test_a_finished_game_shows_the_winner_and_refuses_more_turns(client_of, household):
    game = GameFactory(owner=household, names=["Solo"])
    play(game, SOLO_GAME)
    assert game.finished is not None
    page = text(client_of.get(game_url(game)))
    assert f"Solo finishes with {SOLO_TOTAL}." in page
    response = post_box(client_of, game, Box.CHANCE, dice=(1, 2, 3, 4, 6))
    assert response.status_code == 400 and "This game is over" in text(response)


def test_ties_are_shown_as_ties(client_of, game):
    play(game, [turn for turn in SOLO_GAME for _ in range(2)])
    assert "A tie: Ann and Bob share first place" in text(client_of.get(game_url(game)))


def test_the_review_says_who_won_looking_back(client_of, household, game):
    solo = GameFactory(owner=household, names=["Solo"])
    play(solo, SOLO_GAME)
    review = text(client_of.get(game_url(solo, "game-review")))
    assert 'class="winner"' in review and f"Solo finished with {SOLO_TOTAL}." in review
    play(game, [turn for turn in SOLO_GAME for _ in range(2)])
    tie = text(client_of.get(game_url(game, "game-review")))
    assert f"A tie: Ann and Bob, {SOLO_TOTAL} each." in tie


def test_undo_reopens_a_finished_game(client_of, household):
    game = GameFactory(owner=household, names=["Solo"])
    play(game, SOLO_GAME)
    client_of.post(game_url(game, "game-undo"), {"version": game.version})
    game.refresh_from_db()
    assert game.finished is None
    assert "Solo’s turn" in text(client_of.get(game_url(game)))


def test_a_finished_games_page_drops_the_bonus_pace_and_the_keep_the_screen_on_button(
    client_of, household
):
    """Once the game is over there is no bonus to pace and no turn to wait for: a new user
    saw −26 and −29 under Pace, and the button, on a finished game."""
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME for _ in range(2)][:-1])
    going = text(client_of.get(game_url(game)))
    assert "Bonus pace" in going and 'id="wake-lock"' in going
    last = post_box(client_of, game, Box.CHANCE, dice=(6, 6, 5, 5, 4), htmx=True)
    answer = text(last)  # the whole standings out of band, their Pace column gone
    assert '<section id="standings" hx-swap-oob="true"' in answer and "Bonus pace" not in answer
    heads, cells = standings_shape(answer)
    assert heads == ["Up", "Bon", "Low", "Yz+", "Total"] and cells == [5, 5]
    page = text(client_of.get(game_url(game)))
    assert "Solo" not in page and "A tie: Ann and Bob" in page
    assert "Bonus pace" not in page and "Pace" not in page and 'id="wake-lock"' not in page
    assert standings_shape(page) == (heads, cells)
    legend = text(client_of.get(game_url(game) + "?legend=1"))
    assert "What the columns mean" in legend and "Pace" not in legend
    client_of.post(game_url(game, "game-undo"), {"version": game.version + 1}, headers=HTMX)
    reopened = text(client_of.get(game_url(game)))
    assert "Bonus pace" in reopened and 'id="wake-lock"' in reopened
    assert standings_shape(reopened) == ([*heads, "Pace"], [6, 6])


def standings_shape(page: str) -> tuple[list[str], list[int]]:
    """The standings' column headings (short forms) and how many figures each row has."""
    section = page[page.index('<section id="standings"') :]
    section = section[: section.index("</section>")]
    # A heading whose short form is its name is that name alone ("Total").
    heads = re.findall(
        r'(?:<span class="short" aria-hidden="true">([^<]+)</span>|class="total">\s*(\w+))</th>',
        section,
    )
    heads = [short or whole for short, whole in heads]
    rows = section.split("<tbody")[1].split("</tr>")[:-1]
    return heads, [row.count("<td") for row in rows]


def test_a_rematch_has_the_same_players_rule_and_mode(client_of, household):
    game = play_on(GameFactory(owner=household, names=["Ann", "Bob"], joker=rules.JokerRule.FREE))
    response = client_of.post(game_url(game, "game-rematch"))
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == game_url(rematch)
    assert [s.player_id for s in rematch.seats.all()] == [s.player_id for s in game.seats.all()]
    assert rematch.joker == "free"


def test_a_game_still_going_has_no_rematch_and_is_left_as_it_was(client_of, household):
    """Found by a fuzzer: a rematch posted for a game still going made a new game and moved
    the game's version, so every phone still playing it was refused its next tap."""
    game = play_on(GameFactory(owner=household, names=["Ann", "Bob"]), turns=3)
    refused = client_of.post(game_url(game, "game-rematch"))
    assert refused.status_code == 400
    assert "This game is still being played: a rematch comes once it is over." in text(refused)
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Game.objects.count() == 1


def test_a_game_with_a_rematch_stays_finished_and_its_phones_are_not_told_an_old_fix(
    client_of, household
):
    """Found by a new user on four phones: after the rematch, Undo on the finished game
    reopened it (a second game going, the other phones' way to the rematch gone), and the
    phones following it showed "Corrected: Dan's 4 of a kind" of forty turns before."""
    from scorecard.game import services

    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME)
    entry = Entry.objects.get(game=game, box="chance")
    game.refresh_from_db()
    services.correct_box(game=game, version=game.version, entry=entry, dice=(6, 6, 6, 5, 5))
    game.refresh_from_db()
    before = game.version
    services.game_rematch(game=game)
    page = text(client_of.get(game_url(game)))
    assert "Go to the new game" in page and "Undo last entry" not in page
    behind = HTMX | {"If-None-Match": f'"{before}"'}  # a page shown before the rematch
    watcher = client_of.get(game_url(game), {"live": 1}, headers=behind)
    assert watcher.status_code == 200 and "Go to the new game" in text(watcher)
    assert "Corrected:" not in text(watcher)
    refused = client_of.post(game_url(game, "game-undo"), {"version": before + 1})
    assert refused.status_code == 400 and "so this one stays finished" in text(refused)
    assert Entry.objects.filter(game=game).count() == len(SOLO_GAME)
    assert Game.objects.get(pk=game.pk).finished is not None


def test_an_unfinished_game_resumes_where_it_was(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))] * 1 + [(Box.CHANCE, (1, 2, 3, 4, 6))])
    page = text(client_of.get(game_url(game)))
    assert "Ann’s turn <small>· round 2 of 13</small>" in page
    home = text(client_of.get(reverse("home")))
    assert game_url(game) in home


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


def test_only_a_triple_yahtzee_page_loads_the_card_tabs_styles(client_of, household):
    """The tabs' styles are Triple Yahtzee's alone: a one-card game's first load goes
    without them (issue 21's bytes)."""
    triple = GameFactory(owner=household, names=["Tri"], mode=Game.Mode.TRIPLE)
    single = GameFactory(owner=household, names=["Uno"])
    assert "css/triple.css" in client_of.get(game_url(triple)).text
    assert 'class="tabs"' in client_of.get(game_url(triple)).text
    assert "css/triple.css" not in client_of.get(game_url(single)).text


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


def test_challenge_shows_no_chance_to_win_for_a_roll_the_round_shares(advised, game, policy_tables):
    """Found by a new user: the player who had scored the round's roll stood at 25%, the
    two still to score the same dice at 38% and 37%; the chances are for players who roll
    their own dice."""
    assert 'class="win"' in text(advised.get(game_url(game)))  # a standard game has them
    game.mode = Game.Mode.CHALLENGE
    game.save()
    post_box(advised, game, Box.CHANCE, dice=(2, 3, 4, 4, 6))
    page = text(advised.get(game_url(game)))
    assert "This round’s roll" in page and "expected final" in page  # points advice stays
    assert 'class="win"' not in page and ">Win<" not in page


def test_advice_is_off_by_default_and_switched_per_browser(client_of, game):
    page = text(client_of.get(reverse("game", args=[game.public_id]), {"dice": "44425"}))
    assert "<summary>Advice: Off</summary>" in page and "expected" not in page
    url = reverse("game", args=[game.public_id]) + "?dice=44425"
    response = client_of.post(reverse("advice"), {"advice": "on", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert client_of.cookies["advice"].value == "on"
    response = client_of.post(reverse("advice"), {"advice": "off", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_advice_rates_every_legal_box_and_marks_the_best(advised, game):
    page = text(advised.get(reverse("game", args=[game.public_id]), {"dice": "66645"}))
    ratings = strategy.rate_boxes({}, (6, 6, 6, 4, 5))
    best = max(ratings, key=ratings.get)
    assert page.count("★ best") == 1
    assert f"{best.label}, " in page and f"expected final {ratings[best]:.1f}, best" in page
    worst = min(ratings, key=ratings.get)
    assert f"−{ratings[best] - ratings[worst]:.1f}" in page
    assert "plays for your own score" in page


def test_triple_yahtzee_gets_no_advice(advised, household):
    game = GameFactory(owner=household, names=["Tri"], mode=Game.Mode.TRIPLE)
    page = text(advised.get(reverse("game", args=[game.public_id]), {"dice": "66645"}))
    assert "No advice for Triple Yahtzee" in page and "★ best" not in page


def test_yahtzee_in_forced_order_gets_no_advice_rather_than_a_free_card_s(
    advised, household, policy_tables
):
    """Found by a new user: the ★ and the coach of a free card pointed to closed boxes (the
    coach's "Threes instead" was then refused), and the Win column was a free card's."""
    from scorecard.game import services

    house = services.HouseSettings(forced=True)
    game = services.game_create(owner=household, names=["Ann", "Bob"], house=house)
    url = game_url(game)
    page = text(advised.get(url, {"dice": "12346"}))
    assert "No advice for Yahtzee with the boxes filled in order" in page
    assert "★ best" not in page and "expected final" not in page and 'class="win"' not in page
    advised.cookies["advice"] = "coach-0.5"
    data = {"version": 0, "turn": 1, "box": "ones", "dice": "12346"}
    response = advised.post(game_url(game, "game-record"), data, headers=HTMX)
    assert response.status_code == 200 and "Ann: Ones 1" in text(response)  # no objection
    assert Entry.objects.get().box == "ones"


@pytest.mark.parametrize("back", ["abc", "1", "//evil.example/", "game-record", ""])
def test_the_advice_switch_goes_home_for_any_address_that_is_not_a_local_path(client_of, back):
    response = client_of.post(reverse("advice"), {"advice": "on", "next": back})
    assert response.status_code == 302 and response["Location"] == "/"


def test_the_advice_switch_says_the_choice_and_brings_its_form_only_when_opened(client_of, game):
    """Closed, the switch says this browser's choice and holds a link to the page with its
    form open (so it works without scripts); htmx fetches that form when it is opened. The
    form is on no first load of a game page."""
    post_box(client_of, game, Box.CHANCE, dice=(1, 2, 3, 4, 6), htmx=True)
    page = client_of.get(game_url(game)).content.decode()
    panel = client_of.get(game_url(game), headers=HTMX).content.decode()
    opened_at = f"{game_url(game)}?advice=1"
    for closed in (page, panel):
        assert "<summary>Advice: Off</summary>" in closed
        assert f'hx-get="{opened_at}"' in closed and 'hx-trigger="toggle once"' in closed
        assert f'<a href="{opened_at}">Choose the advice</a>' in closed
        assert 'action="/advice/"' not in closed and 'name="advice"' not in closed
    opened = client_of.get(opened_at, headers=HTMX).content.decode()
    assert opened.startswith('<details class="advice-switch" open>') and "<main" not in opened
    whole = client_of.get(opened_at).content.decode()
    for form in (opened, whole):
        # Back to the switch open and focused (a keyboard goes on from there).
        assert f'name="next" value="{game_url(game)}?advice=1"' in form
        assert (
            '<select id="advice-setting" name="advice" autofocus aria-describedby="advice-hint">'
            in form
        )
        # A plain post: its answer is the whole page, so the Win column comes and goes with it.
        assert 'action="/advice/"' in form and 'hx-post="/advice/"' not in form
        assert "data-submit-on-change" not in form  # sent by Set alone (arrow keys choose)
        assert "<button>Set</button>" in form
    assert "<summary>Advice: Off</summary>" in whole and "<footer>" in whole
    client_of.post(reverse("advice"), {"advice": "coach-2", "next": game_url(game)})
    assert "<summary>Advice: Coach: a loss of 2+ points</summary>" in text(
        client_of.get(game_url(game))
    )


def test_setting_the_advice_comes_back_to_the_dice_on_show(client_of, game):
    """Dice entered at the table go with the switch's form and come back after it is set,
    shown with their boxes (the roll they are too); without dice the page is plain."""
    closed = text(client_of.get(game_url(game), {"dice": "66634", "roll": "2"}, headers=HTMX))
    opened_at = f"{game_url(game)}?advice=1&amp;dice=66634&amp;roll=2&amp;turn=1"
    assert f'hx-get="{opened_at}"' in closed and f'href="{opened_at}"' in closed
    query = "advice=1&dice=66634&roll=2&turn=1"
    form = text(client_of.get(f"{game_url(game)}?{query}", headers=HTMX))
    back = f"{game_url(game)}?{query}"
    assert f'name="next" value="{back.replace("&", "&amp;")}"' in form
    answer = client_of.post(reverse("advice"), {"advice": "on", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    page = text(client_of.get(back))
    assert 'name="dice" value="66634"' in page and 'value="sixes"' in page
    plain = text(client_of.get(f"{game_url(game)}?advice=1", headers=HTMX))
    assert f'name="next" value="{game_url(game)}?advice=1"' in plain


def test_a_finished_game_answers_the_advice_form_s_address_with_its_page(client_of, household):
    """No turn, no advice switch: the address of its form draws the page as it is."""
    game = finished_game(household)
    answer = client_of.get(f"{game_url(game)}?advice=1", headers=HTMX).content.decode()
    assert answer.count('name="advice"') == 0 and 'id="turn"' in answer


# As a server runs it, with no test's transaction around the request: a bug inside a
# service fails its transaction whole (services._one_change has no savepoint to go back to).
@pytest.mark.django_db(transaction=True)
def test_a_bug_raising_value_error_is_a_server_error_not_a_message(client_of, game, monkeypatch):
    from scorecard.engine import rules as engine

    def broken(*args, **kwargs):
        raise ValueError("internal detail of a bug")

    monkeypatch.setattr(engine.HouseRules, "place", broken)
    client_of.raise_request_exception = False
    response = post_box(client_of, game, Box.CHANCE, dice=(1, 2, 3, 4, 6), htmx=True)
    assert response.status_code == 500
    assert b"internal detail of a bug" not in response.content
    assert not Entry.objects.exists()


def test_a_refusal_from_the_rules_is_a_400_with_the_players_message(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3)), (Box.CHANCE, (1, 2, 3, 4, 6))])
    response = post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 1, 2), htmx=True)
    assert response.status_code == 400 and "Fours is already filled." in text(response)


def test_an_htmx_record_sends_the_changed_rows_and_leaves_the_typed_form_for_later(client_of, game):
    response = post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 2, 5), htmx=True)
    page = text(response)
    assert '<tr id="r3" class="box" hx-swap-oob="true">' in page
    assert 'id="typed"' in page and "typed=1" in page and 'name="points"' not in page
    # The forms htmx posts take the token from htmx's header (web/csrf.py), not a field.
    assert "hx-post" in page and "csrfmiddlewaretoken" not in page
    typed = client_of.get(game_url(game), {"typed": "1"}, headers=HTMX)
    form = text(typed)
    assert typed.status_code == 200 and form.lstrip().startswith('<details id="typed"')
    assert 'name="points"' in form and '<option value="fours">' in form


def test_without_javascript_the_typed_box_links_to_the_page_with_the_form_and_tokens(
    client_of, game
):
    """The form is not on the first load (it would weigh on every one): the closed box
    holds a plain link to the same page with it open, which a page without scripts follows."""
    page = text(client_of.get(game_url(game)))
    assert 'name="points"' not in page
    typed = re.search(r'<details id="typed"[^>]*>.*?</details>', page, re.S)
    assert typed is not None
    link = re.search(r'<a href="([^"]+)">Type the points</a>', typed[0])
    assert link is not None
    opened = text(client_of.get(html.unescape(link[1])))
    assert '<details id="typed" class="typed" open>' in opened
    assert 'name="points"' in opened and "csrfmiddlewaretoken" in opened


def test_the_standings_legend_comes_when_opened_and_without_javascript_by_a_link(client_of, game):
    """The legend is not on the first load: htmx fetches it when it is opened, and a page
    without scripts follows the link in the closed legend to the page with it open."""
    page = text(client_of.get(game_url(game)))
    closed = re.search(r'<details class="standings-legend"[^>]*>.*?</details>', page, re.S)
    assert closed is not None and "<dl>" not in closed[0] and "Pace (Bonus pace):" not in page
    link = re.search(r'<a href="([^"]+)#standings">Explain the columns</a>', closed[0])
    assert link is not None and f'hx-get="{link[1]}"' in closed[0]
    fetched = text(client_of.get(html.unescape(link[1]), headers=HTMX))
    assert fetched.lstrip().startswith('<details class="standings-legend" open>')
    assert "Pace (Bonus pace):" in fetched and "<table" not in fetched
    opened = text(client_of.get(html.unescape(link[1])))
    assert '<details class="standings-legend" open>' in opened
    assert "Pace (Bonus pace):" in opened and 'id="turn"' in opened


# --- At the table: faults found by playing (issue 11) -----------------------------------


def test_an_extra_yahtzee_is_announced_with_its_bonus(client_of, game):
    play(game, [(Box.YAHTZEE, (3,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6))])
    response = post_box(client_of, game, Box.THREES, dice=(3,) * 5, htmx=True)
    assert "Ann: Threes 15 and +100 for an extra Yahtzee!" in text(response)


def test_undo_brings_the_dice_back_so_the_right_box_is_one_tap_away(client_of, game):
    post_box(client_of, game, Box.TWOS, dice=(4, 4, 4, 2, 5), htmx=True)  # meant Fours
    undone = client_of.post(game_url(game, "game-undo"), {"version": 1}, headers=HTMX)
    page = text(undone)
    assert undone.status_code == 200, re.search(r'class="error"[^>]*>([^<]*)', page).group(1)
    assert 'name="dice" value="24445"' in page
    assert re.search(r'<button name="box" value="fours" class="box-option"', page)
    fixed = post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 2, 5), htmx=True)
    assert fixed.status_code == 200 and Entry.objects.get().box == "fours"
    redirected = client_of.post(game_url(game, "game-undo"), {"version": 3})
    assert redirected["Location"] == game_url(game) + "?dice=24445&roll=3"


def test_dice_an_undo_brings_back_are_the_final_roll_for_the_advice(
    client_of, game, strategy_tables
):
    """They were scored: keep advice for a 1st roll ("2 rolls left") beside them would
    advise on dice that were never rolled again (found by a new user after an undo)."""
    strategy_tables.load(rules.JokerRule.HASBRO)
    client_of.cookies["advice"] = "on"
    post_box(client_of, game, Box.CHANCE, dice=(6, 6, 6, 5, 5), htmx=True)
    page = text(client_of.post(game_url(game, "game-undo"), {"version": 1}, headers=HTMX))
    assert re.search(r'name="roll" value="3" checked', page)
    assert 'name="dice" value="55666"' in page and "rolls left" not in page


def test_the_zero_question_keeps_the_dice_and_no_undo_near_it(client_of, game):
    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))])
    response = post_box(client_of, game, Box.YAHTZEE, dice=(1, 2, 3, 4, 6), confirm="")
    page = text(response)
    assert "Score 0 in Yahtzee?" in page and 'aria-label="Dice 1 2 3 4 6"' in page
    assert "Undo last entry" not in page


def test_the_joker_reason_is_said_once_and_the_allowed_box_stands_out(client_of, game):
    play(game, [(Box.YAHTZEE, (4,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6))])
    page = text(client_of.get(game_url(game), {"dice": "44444"}))
    assert page.count("Fours is open, so this Yahtzee must go there.") == 1
    assert 'class="box-options restricted"' in page
    assert page.count('aria-describedby="why-not"') == 11  # every open box but Fours


def test_the_title_names_the_rule_once(client_of, game):
    page = text(client_of.get(game_url(game)))
    assert "<small>extra Yahtzees: Hasbro</small>" in page and "(standard)" not in page


def test_keep_advice_after_a_first_roll_is_the_strategys(advised, game, strategy_tables):
    url = reverse("game", args=[game.public_id])
    page = text(advised.get(url, {"dice": "66612", "roll": "1"}))
    ranked = strategy_tables.rate_keeps({}, (6, 6, 6, 1, 2), 2, rules.JokerRule.HASBRO)
    assert "Dice to keep" in page and "2 rolls left" in page
    best_keep, best_value = ranked[0]
    assert f'<li class="best"><span>Keep {" ".join(map(str, best_keep))}</span> ' in page
    assert f"<strong>{best_value:.1f}</strong>" in page
    second_keep, second_value = ranked[1]
    assert f"−{best_value - second_value:.1f}" in page
    assert 'name="roll" value="1" checked' in page
    assert 'class="box-option' in page  # scoring now is still possible


def test_keep_advice_after_a_second_roll_has_one_roll_left(advised, game, strategy_tables):
    page = text(advised.get(reverse("game", args=[game.public_id]), {"dice": "66612", "roll": "2"}))
    ranked = strategy_tables.rate_keeps({}, (6, 6, 6, 1, 2), 1, rules.JokerRule.HASBRO)
    assert "1 roll left" in page and f"<strong>{ranked[0][1]:.1f}</strong>" in page


def test_final_dice_get_no_keep_advice(advised, game):
    page = text(advised.get(reverse("game", args=[game.public_id]), {"dice": "66612", "roll": "3"}))
    assert "Dice to keep" not in page and 'name="roll" value="3" checked' in page


@pytest.mark.parametrize("query", [{"dice": "66612"}, {"dice": "66612", "roll": "9"}])
def test_dice_entered_without_a_roll_choice_are_the_first_roll(advised, game, query):
    page = text(advised.get(reverse("game", args=[game.public_id]), query))
    assert "Dice to keep" in page and 'name="roll" value="1" checked' in page


def test_each_turn_starts_at_the_first_roll(advised, game):
    """The roll choice of one player's final dice never passes to the next player."""
    response = post_box(advised, game, Box.SIXES, dice=(6, 6, 6, 1, 2), htmx=True, roll="3")
    page = text(response)
    assert "Bob’s turn" in page and 'name="roll" value="1" checked' in page


def test_without_advice_there_is_no_roll_choice_and_no_keep_advice(client_of, game):
    page = text(
        client_of.get(reverse("game", args=[game.public_id]), {"dice": "66612", "roll": "1"})
    )
    assert "Dice to keep" not in page and 'name="roll"' not in page


def _last_turn_game(household):
    """Ann has finished with 30 more than Bob, whose only open box is Chance (and whose
    Yahtzee box holds a 0): the position of test_strategy's last-turn tests."""
    rounds = [
        (Box.ONES, (1, 1, 2, 3, 4), (1, 2, 3, 4, 6)),
        (Box.TWOS, (2, 1, 3, 4, 6), (2, 1, 3, 4, 6)),
        (Box.THREES, (3, 1, 2, 4, 6), (3, 1, 2, 4, 6)),
        (Box.FOURS, (4, 1, 2, 3, 6), (4, 1, 2, 3, 6)),
        (Box.FIVES, (5, 1, 2, 3, 6), (5, 1, 2, 3, 6)),
        (Box.SIXES, (6, 1, 2, 3, 5), (6, 1, 2, 3, 5)),
        (Box.THREE_OF_A_KIND, (2, 2, 2, 1, 3), (2, 2, 2, 1, 3)),
        (Box.FOUR_OF_A_KIND, (2, 2, 2, 2, 1), (2, 2, 2, 2, 1)),
        (Box.FULL_HOUSE, (2, 2, 3, 3, 3), (2, 2, 3, 3, 3)),
        (Box.SMALL_STRAIGHT, (1, 2, 3, 4, 6), (1, 2, 3, 4, 6)),
        (Box.LARGE_STRAIGHT, (1, 2, 3, 4, 5), (1, 2, 3, 4, 5)),
        (Box.YAHTZEE, (1, 2, 3, 4, 6), (1, 2, 3, 4, 6)),
    ]
    turns = [turn for box, ann, bob in rounds for turn in ((box, ann), (box, bob))]
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    return play(game, [*turns, (Box.CHANCE, (6, 6, 6, 6, 5))])


def test_the_last_turn_plays_to_win_and_shows_both_keeps(advised, household):
    game = _last_turn_game(household)
    url = reverse("game", args=[game.public_id])
    page = text(advised.get(url))
    assert "Bob’s turn" in page and "chance to finish first as the turn began: 0.7%" in page
    page = text(advised.get(url, {"dice": "66651", "roll": "2"}))
    assert "<strong>To win:</strong> Keep 6 6 6, 1.4% chance to finish first." in page
    assert "<strong>For points:</strong> Keep 5 6 6 6, 0.0%." in page
    # The keeps' list ranks for points: it says so, and calls no keep "best" beside "To win".
    assert "Dice to keep for points" in page and "<small>most points</small>" in page
    assert "<small>best</small>" not in page
    # What a box's ★ weighs against, in the same terms (a new user read "a higher total").
    assert "the best dice to keep give a better chance to win." in page
    assert "promise a higher total" not in page
    # The footer says so too (a new user read it saying the advice maximises points).
    assert "On the last turn the advice plays to win" in page
    assert "plays for your own score" not in page


def test_the_last_box_says_its_final_total_and_chance_to_finish_first(advised, household):
    """Found by a helper: on the last turn the box said "★ best · expected 171.0" beside a
    hint that weighed it by the chance to win. Against finished rivals it says the final
    total it makes and that total's share of first place (Ann is 30 ahead: Chance 30 ties)."""
    game = _last_turn_game(household)
    bob = load_progress(game).current.totals.total
    url = reverse("game", args=[game.public_id])
    page = text(advised.get(url, {"dice": "66651", "roll": "2"}))
    assert f"final total {bob + 24}: 0% chance to finish first" in page
    spoken = f"Chance, 24 points, final total {bob + 24}, 0% chance to finish first"
    assert f'aria-label="{spoken}"' in page
    assert "expected " not in re.search(r'<small class="rating">.*?</small>', page).group(0)
    page = text(advised.get(url, {"dice": "66666", "roll": "3"}))
    assert f"final total {bob + 30}: 50% chance to finish first" in page


def test_no_play_to_win_while_a_rival_still_has_boxes(advised, game):
    play(game, [(Box.ONES, (1, 1, 2, 3, 4))])
    page = text(advised.get(reverse("game", args=[game.public_id]), {"dice": "66651", "roll": "2"}))
    assert "To win:" not in page and "finish first" not in page and "Dice to keep" in page


def test_advice_can_be_set_to_each_setting_and_nothing_else(client_of, game):
    for setting in ["on", "off", "coach-0.5", "coach-1", "coach-2", "coach-5"]:
        client_of.post(reverse("advice"), {"advice": setting, "next": "/"})
        assert client_of.cookies["advice"].value == setting
        form = text(client_of.get(f"{game_url(game)}?advice=1", headers=HTMX))
        assert f'<option value="{setting}" selected>' in form
    client_of.post(reverse("advice"), {"advice": "coach-7", "next": "/"})
    assert client_of.cookies["advice"].value == "off"


@pytest.fixture
def coached(advised):
    advised.cookies["advice"] = "coach-2"
    return advised


def test_the_coach_is_quiet_while_a_box_loses_less_than_its_threshold(coached, game):
    rated = strategy.rate_boxes({}, (6, 6, 6, 4, 5))
    best = max(rated, key=rated.get)
    page = text(coached.get(game_url(game), {"dice": "66645"}))
    assert "expected final" not in page  # no ratings on show
    response = post_box(coached, game, best, dice=(6, 6, 6, 4, 5), htmx=True)
    assert response.status_code == 200 and game.entries.get().box == best.key


def test_the_coach_asks_once_before_a_costly_box_and_the_player_decides(coached, game):
    rated = strategy.rate_boxes({}, (6, 6, 6, 4, 5))
    best = max(rated, key=rated.get)
    costly = Box.CHANCE
    assert rated[best] - rated[costly] >= 2
    response = post_box(coached, game, costly, dice=(6, 6, 6, 4, 5), htmx=True)
    page = text(response)
    assert response.status_code == 200 and not game.entries.exists()
    loss = rated[best] - rated[costly]
    assert f"Coach: Chance here gives up {loss:.1f} points on average against {best.label}" in page
    assert f'name="box" value="{best.key}" class="primary">{best.label} instead' in page
    assert "Undo last entry" not in page and 'name="coach" value="heard"' in page
    response = post_box(coached, game, costly, dice=(6, 6, 6, 4, 5), htmx=True, coach="heard")
    assert response.status_code == 200 and game.entries.get().box == "chance"


def test_with_the_coach_chosen_a_quiet_record_still_reads_the_game_once(
    coached, game, django_assert_max_num_queries
):
    rated = strategy.rate_boxes({}, (6, 6, 6, 4, 5))
    best = max(rated, key=rated.get)
    game.refresh_from_db()
    data = {"version": game.version, "turn": 1, "box": best.key, "dice": "66645"}
    with django_assert_max_num_queries(MAX_QUERIES_PER_RECORD):
        response = coached.post(game_url(game, "game-record"), data, headers=HTMX)
    assert response.status_code == 200 and game.entries.get().box == best.key


def test_the_coachs_question_reads_the_game_once(coached, game, django_assert_max_num_queries):
    game.refresh_from_db()
    data = {"version": game.version, "turn": 1, "box": Box.CHANCE.key, "dice": "66645"}
    # the game with its seats, then its entries: the coach and the panel share what was read
    with django_assert_max_num_queries(2):
        response = coached.post(game_url(game, "game-record"), data, headers=HTMX)
    assert "Coach: Chance here gives up" in text(response) and not game.entries.exists()


def test_the_coach_leaves_a_stale_or_illegal_choice_to_the_rules(coached, game):
    response = post_box(coached, game, Box.CHANCE, dice=(6, 6, 6, 4, 5), version=7)
    assert response.status_code == 409 and not game.entries.exists()
    response = post_box(coached, game, Box.CHANCE, dice="66x", htmx=True)
    assert response.status_code == 400


def test_the_review_lists_each_players_biggest_mistakes_first(advised, household):
    game = finished_game(household)
    page = advised.get(reverse("game-review", args=[game.public_id]), {"advice": "1"})
    body = page.content.decode()
    table = body.split('class="decisions"')[1].split("</table>")[0]
    losses = [float(value) for value in re.findall(r"<td>(\d+\.\d\d)</td></tr>", table)]
    assert losses and losses == sorted(losses, reverse=True)


def test_with_advice_on_the_standings_show_each_players_chance_to_win(
    advised, game, policy_tables, django_assert_max_num_queries
):
    from scorecard.engine import win_chances

    play(game, [(Box.YAHTZEE, (3, 3, 3, 3, 3))])
    url = reverse("game", args=[game.public_id])
    page = text(advised.get(url))
    ann, bob = (Position := win_chances.Position)({Box.YAHTZEE: 50}), Position({})
    chances = win_chances.win_chances([ann, bob], rules.JokerRule.HASBRO).chances
    assert '<th scope="col">Win</th>' in page and "if everyone plays for points" in page
    assert f'<td class="win">{chances[0]:.0%}</td>' in page
    assert f'<td class="win">{chances[1]:.0%}</td>' in page
    response = post_box(advised, game, Box.CHANCE, dice=(1, 2, 3, 4, 6), htmx=True)
    assert response.status_code == 200 and text(response).count('<td class="win">') == 2


def test_a_finished_game_shows_no_win_column(advised, household, policy_tables):
    """Found by a tester: 0%, 0%, 100% under a note about "this turn" once the game was over,
    its winner named above. The game's last entry answers with the standings without it."""
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME for _ in "ab"][:-1])
    assert 'class="win"' in text(advised.get(game_url(game)))
    last = post_box(advised, game, Box.CHANCE, dice=(6, 6, 5, 5, 4), htmx=True)
    assert last.status_code == 200 and "Game over" in text(last)
    for page in (text(last), text(advised.get(game_url(game)))):
        assert 'class="win"' not in page and ">Win<" not in page and "win-note" not in page


def test_without_advice_or_in_triple_there_is_no_win_column(
    client_of, advised, household, policy_tables
):
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    purist = browser_of(household)  # the same household, advice off
    assert 'class="win"' not in text(purist.get(reverse("game", args=[game.public_id])))
    triple = GameFactory(owner=household, names=["Ann", "Bob"], mode=Game.Mode.TRIPLE)
    assert 'class="win"' not in text(advised.get(reverse("game", args=[triple.public_id])))
    solo = GameFactory(owner=household, names=["Ann"])
    assert 'class="win"' not in text(advised.get(reverse("game", args=[solo.public_id])))


def test_the_review_charts_each_players_chance_to_win(advised, household, policy_tables):
    game = finished_game(household)
    page = text(advised.get(reverse("game-review", args=[game.public_id])))
    assert (
        "Chance to win" in page and "chance to win, before the game and after every entry" in page
    )
    winner = game.seats.get(position=0).player.name
    assert f"{winner} 100%" in page or "50%</text>" in page


# --- Every control works in a real browser (issue 18) ------------------------------------


def test_an_extra_yahtzees_bonus_is_announced_with_the_dice_before_the_tap(client_of, game):
    play(game, [(Box.YAHTZEE, (3,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6))])
    page = text(client_of.get(game_url(game), {"dice": "33333"}))
    assert "An extra Yahtzee: +100 bonus on top of the box." in page
    assert "An extra Yahtzee:" not in text(client_of.get(game_url(game), {"dice": "33332"}))


def test_five_alike_after_a_zero_yahtzee_announce_no_bonus(client_of, game):
    play(game, [(Box.YAHTZEE, (1, 2, 3, 4, 6)), (Box.CHANCE, (1, 2, 3, 4, 6))])
    assert "An extra Yahtzee:" not in text(client_of.get(game_url(game), {"dice": "33333"}))


@pytest.mark.parametrize("dice", ["", "4", "4442"])
def test_fewer_than_five_dice_from_the_pad_refill_the_field_without_an_error(client_of, game, dice):
    """⌫ or Clear after five dice asks again with fewer: never a 400, and no stale boxes."""
    response = client_of.get(game_url(game), {"dice": dice}, headers=HTMX)
    page = text(response)
    assert response.status_code == 200 and 'class="error"' not in page
    assert f'name="dice" value="{dice}" inputmode=' in page and "box-options" not in page


def test_refused_dice_mark_their_field_and_the_refusal_describes_it(client_of, game):
    """An accessibility tester: "A die shows 1 to 6; got 9." was said, but the field was
    not marked, nor the message tied to it."""
    page = text(client_of.get(game_url(game), {"dice": "44479", "show": "1"}, headers=HTMX))
    field = 'value="44479" aria-invalid="true" aria-describedby="dice-error" autofocus inputmode='
    assert field in page  # and focused: Show, pressed, is swapped out (a keyboard's tester)
    assert '<p class="error" role="alert" id="dice-error">A die shows 1 to 6; got 7.</p>' in page
    again = text(client_of.get(game_url(game), {"dice": "44456", "show": "1"}, headers=HTMX))
    assert "aria-invalid" not in again.split('id="dice-typed"')[1].split(">")[0]


def test_a_refusal_for_htmx_is_marked_to_be_shown_in_place(client_of, game):
    response = client_of.get(game_url(game), {"dice": "7", "show": "1"}, headers=HTMX)
    assert response.status_code == 400 and response["X-In-Place"] == "1"
    assert "A die shows 1 to 6; got 7." in text(response)
    stale = post_box(client_of, game, Box.CHANCE, dice=(1, 2, 3, 4, 6), htmx=True, version=7)
    assert stale.status_code == 409 and stale["X-In-Place"] == "1"
    plain = client_of.get(game_url(game), {"dice": "7", "show": "1"})
    assert plain.status_code == 400 and "X-In-Place" not in plain


def _decided_last_turn(household, bob_leads: bool):
    """Bob's last turn (Chance) in a game one player leads by far more than a turn scores."""
    strong = [(box, (box.face,) * 3 + (1, 2) if box.face else (6, 6, 6, 6, 5)) for box in Box]
    weak = [(box, (1, 2, 3, 4, 6)) for box in Box]
    ann, bob = (weak, strong) if bob_leads else (strong, weak)
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    return play(game, [turn for pair in zip(ann, bob, strict=True) for turn in pair][:-1])


def test_the_last_turn_says_plainly_when_the_game_is_won_already(advised, household):
    """Bob leads by more than any last turn can change: no play-to-win sums, no ">99.9%"."""
    game = _decided_last_turn(household, bob_leads=True)
    url = reverse("game", args=[game.public_id])
    page = text(advised.get(url))
    assert "Bob’s turn" in page and "Bob has won already, whatever the dice." in page
    page = text(advised.get(url, {"dice": "66651", "roll": "2"}))
    assert "To win:" not in page and ">99.9%" not in page and "100.0%" not in page
    assert "Dice to keep" in page


def test_the_last_turn_says_plainly_when_no_dice_can_win(advised, household):
    game = _decided_last_turn(household, bob_leads=False)
    page = text(advised.get(reverse("game", args=[game.public_id])))
    assert "no dice can bring Bob to first place now." in page and "To win:" not in page


def test_beside_advice_to_roll_again_a_box_s_star_says_it_is_for_stopping_now(
    client_of, game, strategy_tables
):
    """Keep advice's "best" and a box's "★ best" sat side by side with different totals: a new
    user read the box's as "score now". With rolls left the boxes say what their ★ weighs."""
    strategy_tables.load(rules.JokerRule.HASBRO)
    client_of.cookies["advice"] = "on"
    said = "★ on a box: the best box if you stop rolling now."
    first = text(client_of.get(game_url(game) + "?dice=66123&roll=1"))
    assert "Dice to keep" in first and said in first
    final = text(client_of.get(game_url(game) + "?dice=66123&roll=3"))
    assert "Dice to keep" not in final and said not in final and "★ best" in final
    client_of.cookies["advice"] = "off"
    assert said not in text(client_of.get(game_url(game) + "?dice=66123&roll=1"))


def test_a_triple_correction_says_which_card_it_corrects(client_of, household):
    """Found by a new user: "Correct Mormor’s Full house" with three Full house boxes."""
    game = GameFactory(owner=household, names=["Mormor"], mode=Game.Mode.TRIPLE)
    EntryFactory(game=game, box=Box.FULL_HOUSE, dice=(2, 2, 3, 3, 3), card=3)
    page = text(client_of.get(reverse("game-correct", args=[game.public_id, 1])))
    assert "Correct Mormor’s Full house on card ×3" in page
    swedish = client_of.get(
        reverse("game-correct", args=[game.public_id, 1]), headers={"Accept-Language": "sv"}
    )
    assert "på kort ×3" in text(swedish)


def test_a_triple_entry_its_undo_and_its_correction_say_which_card(client_of, household):
    """Found by a new user: "Ann: Sixes 24" after a tap on card ×3, and the standings +72,
    with three Sixes boxes to wonder about."""
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    recorded = post_box(client_of, game, Box.SIXES, dice=(6, 6, 6, 6, 5), card=3, htmx=True)
    assert "Ann: Sixes 24 on card ×3" in text(recorded)
    undone = client_of.post(game_url(game, "game-undo"), {"version": 1}, headers=HTMX)
    assert "Undone: Ann’s Sixes on card ×3 (24)." in text(undone)
    post_box(client_of, game, Box.YAHTZEE, dice=(6,) * 5, card=2, htmx=True)
    extra = text(post_box(client_of, game, Box.SIXES, dice=(6,) * 5, card=2, htmx=True))
    # The card's ×2 counts the bonus too, as the standings add it (a helper read "+100"
    # beside 200).
    assert "Ann: Sixes 30 on card ×2 and +100 ×2 for an extra Yahtzee!" in extra
    corrected = client_of.post(
        reverse("game-correct", args=[game.public_id, 1]),
        {"version": 4, "dice": "55555"},
        follow=True,
    )
    assert "Corrected: Ann’s Yahtzee on card ×2, now 50." in text(corrected)
    # Undo asks first after a correction, naming each box's card (a tester: two Yahtzees
    # at 50 on two cards were one "Yahtzee").
    asked = text(client_of.post(game_url(game, "game-undo"), {"version": 5}, headers=HTMX))
    assert "Undo Ann’s Sixes on card ×2 (30)?" in asked
    assert "not a correction: Ann’s Yahtzee on card ×2 stays 50" in asked


def test_a_one_card_entry_names_no_card(client_of, game):
    recorded = post_box(client_of, game, Box.FOURS, dice=(4, 4, 1, 2, 3), htmx=True)
    assert "Ann: Fours 8<" in text(recorded).replace(" <", "<")


@pytest.mark.parametrize(
    ("dice", "spoken"), [("12346", "Ones, 1 point"), ("11346", "Ones, 2 points")]
)
def test_a_box_of_one_point_is_said_as_one_point(client_of, game, dice, spoken):
    page = text(client_of.get(game_url(game), {"dice": dice}))
    assert f'aria-label="{spoken}"' in page


def test_the_last_turns_win_column_says_the_chance_its_note_says(advised, household, policy_tables):
    """Found by a tester: on the last turn Bob's Win column said 45% under a note that gave
    his chance as 46.8% (the column played for points, the note to win). The column plays
    the last turn to win too, and Ann has the rest."""
    game = _last_turn_game(household)
    page = advised.get(reverse("game", args=[game.public_id])).content.decode()
    assert "chance to finish first as the turn began: 0.7%" in page
    assert re.findall(r'<td class="win">([^<]*)</td>', page) == ["99%", "1%"]


def test_the_win_columns_note_says_when_the_last_turn_is_played_to_win(
    advised, household, policy_tables
):
    """Found by a helper: on the last turn Bob's chance rose as Ann scored more, under a
    note that said every chance played for points. The entry that begins the last turn
    brings the note that says so, and its undo the one before."""
    game = _last_turn_game(household)
    last_turn = "Win: the game’s last turn, so each player’s chance of finishing first if Bob"
    for_points = "Win: each player’s chance of finishing first if everyone plays for points"
    assert last_turn in text(advised.get(game_url(game)))
    undo = {"version": game.version}
    undone = text(advised.post(game_url(game, "game-undo"), undo, headers=HTMX))
    assert for_points in undone and last_turn not in undone
    again = text(post_box(advised, game, Box.CHANCE, dice=(6, 6, 6, 6, 5), htmx=True))
    assert last_turn in again and for_points not in again


def test_the_heading_focused_after_a_tap_is_described_by_the_tap_s_notice(client_of, game):
    """An accessibility tester: "Ann: Fours 12" is a status drawn with the new turn (a screen
    reader may not say it) and above the focused heading. The heading names it as its
    description, said with the heading as the focus lands."""
    page = text(post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 1, 2), htmx=True))
    assert '<p class="notice" role="status" id="turn-notice">Ann: Fours 12</p>' in page
    heading = re.search(r'<h2 id="turn-title"[^>]*>', page).group(0)
    assert 'autofocus aria-describedby="turn-notice"' in heading
    fresh = text(client_of.get(game_url(game)))
    assert "aria-describedby" not in re.search(r'<h2 id="turn-title"[^>]*>', fresh).group(0)


def test_an_extra_yahtzee_moved_to_a_card_without_50_says_its_bonus_is_gone(client_of, household):
    """Found by a tester: Sixes 30 with its +100 moved from card ×1 to Chance on card ×2
    (no 50 in that card's Yahtzee box) lost the 100 without a word, on every phone."""
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    post_box(client_of, game, Box.YAHTZEE, dice=(6,) * 5, card=1, htmx=True)
    post_box(client_of, game, Box.SIXES, dice=(6,) * 5, card=1, htmx=True)
    assert Entry.objects.get(turn=2).yahtzee_bonus
    moved = client_of.post(
        reverse("game-correct", args=[game.public_id, 2]),
        {"version": 2, "box": "2:chance"},
        follow=True,
    )
    said = (
        "Moved: Ann’s Sixes on card ×1 to Chance on card ×2, now 30. It no longer has its 100 "
        "extra-Yahtzee bonus."
    )
    assert said in text(moved)
    assert Entry.objects.values_list("card", "box", "yahtzee_bonus").get(turn=2) == (
        2, "chance", False
    )  # fmt: skip
    assert load_progress(game).seats[0].totals.total == 50 + 30 * 2
