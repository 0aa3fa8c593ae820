"""A tap sent again with its key (its answer was lost on the way back) is written once."""

import io
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorecard.engine.rules import Box
from scorecard.models import Entry, Game, IdempotentRequest, Roll
from scorecard.web import idempotency
from tests.factories import GameFactory, play
from tests.helpers import HTMX, browser_of, game_url, post_roll, text


def box_post(game, box=Box.CHANCE, dice="12345", **extra) -> dict:
    game.refresh_from_db()
    turn = game.entries.count() + 1
    return {"version": game.version, "turn": turn, "box": box.key, "dice": dice} | extra


def keyed(tap: str) -> dict:
    return HTMX | {idempotency.HEADER: tap}


def test_a_repeated_key_answers_the_same_outcome_and_writes_nothing(client_of, game):
    tap, sent = str(uuid.uuid4()), box_post(game)
    first = client_of.post(game_url(game, "game-record"), sent, headers=keyed(tap))
    again = client_of.post(game_url(game, "game-record"), sent, headers=keyed(tap))
    assert first.status_code == again.status_code == 200
    assert "Ann: Chance 15" in text(first) and "Ann: Chance 15" in text(again)
    assert "already recorded" not in text(again)
    assert Entry.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == 1
    assert IdempotentRequest.objects.get(key=tap).note == "Ann: Chance 15"


def test_a_key_sent_again_with_another_tap_is_refused_and_changes_nothing(client_of, game):
    """Found by a fuzzer: a record of Fives, or an undo, sent with the key of Ann's Chance
    was answered "Ann: Chance 15", the Fives not recorded and the undo not done."""
    tap, sent = str(uuid.uuid4()), box_post(game)
    client_of.post(game_url(game, "game-record"), sent, headers=keyed(tap))
    fives = box_post(game, Box.FIVES, "55555")
    game.refresh_from_db()
    others = [
        client_of.post(game_url(game, "game-record"), fives, headers=keyed(tap)),
        client_of.post(game_url(game, "game-undo"), {"version": game.version}, headers=keyed(tap)),
    ]
    for refused in others:
        assert refused.status_code == 400
        assert "This tap's key came with another tap before, so nothing was changed." in text(
            refused
        )
    assert list(Entry.objects.filter(game=game).values_list("box", flat=True)) == ["chance"]
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_repeat_after_the_game_moved_on_shows_the_card_as_it_is_now(client_of, game):
    tap, sent = str(uuid.uuid4()), box_post(game)
    client_of.post(game_url(game, "game-record"), sent, headers=keyed(tap))
    bob = box_post(game, Box.FIVES, "55512")
    client_of.post(game_url(game, "game-record"), bob, headers=keyed(str(uuid.uuid4())))
    again = client_of.post(game_url(game, "game-record"), sent, headers=keyed(tap))
    assert again.status_code == 200
    assert "Ann: Chance 15" in text(again) and "Ann’s turn" in text(again)
    assert Entry.objects.filter(game=game).count() == 2


def test_the_header_wins_over_the_hidden_field(client_of, game):
    header, field = str(uuid.uuid4()), str(uuid.uuid4())
    sent = box_post(game, idempotency_key=field)
    client_of.post(game_url(game, "game-record"), sent, headers=keyed(header))
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == [header]


def test_a_form_sent_twice_without_scripts_is_written_once(client_of, game):
    page = text(client_of.get(game_url(game), {"dice": "12345"}))
    field = page.split('name="idempotency_key" value="')[1].split('"')[0]
    sent = box_post(game, idempotency_key=field)
    first = client_of.post(game_url(game, "game-record"), sent)
    again = client_of.post(game_url(game, "game-record"), sent)
    assert first.status_code == again.status_code == 302
    assert Entry.objects.filter(game=game).count() == 1


def test_a_plain_post_s_key_sent_again_by_htmx_gets_the_card(client_of, game):
    sent = box_post(game, idempotency_key=str(uuid.uuid4()))
    assert client_of.post(game_url(game, "game-record"), sent).status_code == 302
    again = client_of.post(game_url(game, "game-record"), sent, headers=HTMX)
    assert again.status_code == 200 and "Ann: Chance 15" in text(again)
    assert Entry.objects.filter(game=game).count() == 1


def test_every_form_that_changes_the_game_carries_a_fresh_key(client_of, game):
    client_of.post(game_url(game, "game-record"), box_post(game))
    page = text(client_of.get(game_url(game), {"dice": "12345", "typed": "1"}))
    keys = page.split('name="idempotency_key" value="')[1:]
    assert len(keys) == 3  # the boxes, the typed points (opened) and the undo
    assert len({key.split('"')[0] for key in keys}) == 3


def test_an_htmx_answer_s_forms_carry_no_key_as_htmx_sends_one_made_at_the_tap(client_of, game):
    client_of.post(game_url(game, "game-record"), box_post(game))
    answer = text(client_of.get(game_url(game), {"dice": "12345"}, headers=HTMX))
    assert answer.count('hx-post="') == 2 and "Undo last entry" in answer  # boxes and undo
    assert 'name="idempotency_key"' not in answer


def test_a_key_of_another_game_is_refused_and_nothing_is_written(client_of, game, household):
    tap = str(uuid.uuid4())
    client_of.post(game_url(game, "game-record"), box_post(game), headers=keyed(tap))
    other = GameFactory(owner=household, names=["Cy"])
    refused = client_of.post(game_url(other, "game-record"), box_post(other), headers=keyed(tap))
    assert refused.status_code == 400
    assert "another game" in text(refused)
    assert not Entry.objects.filter(game=other).exists()
    other.refresh_from_db()
    assert other.version == 0  # the entry's claim of the version was undone with it


def test_a_key_of_another_household_s_game_is_refused(game, household):
    tap = str(uuid.uuid4())
    browser_of(household).post(game_url(game, "game-record"), box_post(game), headers=keyed(tap))
    theirs = GameFactory(names=["Eve"])
    eve = browser_of(theirs.owner)
    refused = eve.post(game_url(theirs, "game-record"), box_post(theirs), headers=keyed(tap))
    assert refused.status_code == 400
    assert "Ann" not in text(refused)  # nothing of the other game is told
    assert not Entry.objects.filter(game=theirs).exists()


def test_a_key_of_a_strange_shape_is_refused_with_a_message(client_of, game):
    bad = client_of.post(game_url(game, "game-record"), box_post(game), headers=keyed("x" * 200))
    assert bad.status_code == 400
    assert "nothing was changed" in text(bad)
    assert not Entry.objects.exists()


def test_a_refused_tap_leaves_no_key_so_its_repeat_is_checked_afresh(client_of, game):
    tap = str(uuid.uuid4())
    stale = box_post(game) | {"version": 7}
    assert (
        client_of.post(game_url(game, "game-record"), stale, headers=keyed(tap)).status_code == 409
    )
    assert not IdempotentRequest.objects.exists()
    fresh = client_of.post(game_url(game, "game-record"), box_post(game), headers=keyed(tap))
    assert fresh.status_code == 200
    assert Entry.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_tap_that_meets_a_bug_keeps_neither_its_key_nor_a_write(client_of, game, monkeypatch):
    """The record runs in the key's transaction without a savepoint of its own: a bug there
    takes the key's row back with it, so the same tap sent again is written afresh."""
    from scorecard.engine import rules as engine

    place = engine.HouseRules.place

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    tap, url = str(uuid.uuid4()), game_url(game, "game-record")
    monkeypatch.setattr(engine.HouseRules, "place", broken)
    client_of.raise_request_exception = False
    assert client_of.post(url, box_post(game), headers=keyed(tap)).status_code == 500
    assert not IdempotentRequest.objects.exists() and not Entry.objects.exists()
    game.refresh_from_db()
    assert game.version == 0
    monkeypatch.setattr(engine.HouseRules, "place", place)
    assert client_of.post(url, box_post(game), headers=keyed(tap)).status_code == 200
    assert Entry.objects.filter(game=game).count() == 1


def test_two_keys_for_the_same_turn_keep_the_version_check(client_of, game):
    sent = box_post(game)
    client_of.post(game_url(game, "game-record"), sent, headers=keyed(str(uuid.uuid4())))
    other = sent | {"box": Box.SIXES.key}
    second = client_of.post(game_url(game, "game-record"), other, headers=keyed(str(uuid.uuid4())))
    assert second.status_code == 409
    assert Entry.objects.filter(game=game).count() == 1


def test_undo_sent_twice_with_one_key_undoes_one_entry(client_of, game):
    for box in (Box.CHANCE, Box.FIVES):
        client_of.post(game_url(game, "game-record"), box_post(game, box))
    game.refresh_from_db()
    tap, sent = str(uuid.uuid4()), {"version": game.version}
    first = client_of.post(game_url(game, "game-undo"), sent, headers=keyed(tap))
    again = client_of.post(game_url(game, "game-undo"), sent, headers=keyed(tap))
    assert first.status_code == again.status_code == 200
    assert "Undone: Bob’s Fives" in text(again)
    assert list(Entry.objects.filter(game=game).values_list("box", flat=True)) == ["chance"]


def test_a_roll_sent_twice_with_one_key_rolls_once(client_of, digital):
    tap = str(uuid.uuid4())
    assert post_roll(client_of, digital, headers=keyed(tap)).status_code == 200
    assert post_roll(client_of, digital, headers=keyed(tap), version=0).status_code == 200
    assert Roll.objects.filter(game=digital).count() == 1


def test_a_correction_sent_twice_with_one_key_is_saved_once(client_of, game):
    client_of.post(game_url(game, "game-record"), box_post(game))
    game.refresh_from_db()
    url = reverse("game-correct", args=[game.public_id, 1])
    sent = {"version": game.version, "points": 20, "idempotency_key": str(uuid.uuid4())}
    assert client_of.post(url, sent).status_code == 302
    assert client_of.post(url, sent).status_code == 302
    game.refresh_from_db()
    assert game.version == 2 and Entry.objects.get(game=game).points == 20


def test_an_old_key_after_cleanup_is_new_but_the_version_still_stops_a_double_write(
    client_of, game
):
    tap, sent = str(uuid.uuid4()), box_post(game)
    client_of.post(game_url(game, "game-record"), sent, headers=keyed(tap))
    two_days_ago = timezone.now() - timedelta(days=2)
    IdempotentRequest.objects.update(created=two_days_ago)
    call_command("prune_games", stdout=io.StringIO())
    assert not IdempotentRequest.objects.exists()
    again = client_of.post(game_url(game, "game-record"), sent, headers=keyed(tap))
    assert again.status_code == 200 and "already recorded" in text(again)
    assert Entry.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == 1


def test_cleanup_keeps_the_keys_of_the_last_day(client_of, game):
    client_of.post(game_url(game, "game-record"), box_post(game), headers=keyed(str(uuid.uuid4())))
    assert idempotency.forget_old_keys() == 0
    assert IdempotentRequest.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_workers_sending_one_tap_at_once_write_it_once_and_answer_alike(household):
    """Eight threads, each with its own database connection as a worker has, send the same
    tap at once: one writes, the others wait for it and answer with its outcome."""
    game = Game.objects.get(pk=GameFactory(owner=household, names=["Ann", "Bob"]).pk)
    tap, sent, url = str(uuid.uuid4()), box_post(game), game_url(game, "game-record")
    start = threading.Barrier(8)

    def send() -> tuple[int, str]:
        client = browser_of(household)
        start.wait()
        try:
            response = client.post(url, sent, headers=keyed(tap))
            return response.status_code, text(response)
        finally:
            connection.close()

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: send(), range(8)))
    assert [status for status, _ in answers] == [200] * 8
    assert all("Ann: Chance 15" in page for _, page in answers)
    assert Entry.objects.filter(game=game).count() == 1
    assert IdempotentRequest.objects.count() == 1


def test_a_plain_client_without_a_key_works_as_before(game, household):
    response = Client().post(game_url(game, "game-record"), box_post(game))
    assert response.status_code == 404  # not this household's game: nothing changes here
    assert not IdempotentRequest.objects.exists()


def test_a_refused_key_is_explained_in_the_phone_s_language(client_of, game, household):
    tap = str(uuid.uuid4())
    client_of.post(game_url(game, "game-record"), box_post(game), headers=keyed(tap))
    other = GameFactory(owner=household, names=["Cy"])
    swedish = keyed(tap) | {"Accept-Language": "sv"}
    refused = client_of.post(game_url(other, "game-record"), box_post(other), headers=swedish)
    assert refused.status_code == 400
    assert "ett annat spels sida" in text(refused)
    bad = client_of.post(
        game_url(game, "game-record"),
        box_post(game),
        headers=keyed("?") | {"Accept-Language": "de"},
    )
    assert bad.status_code == 400 and "deshalb wurde nichts geändert" in text(bad)


def test_a_plain_form_sent_again_with_other_values_shows_the_card_and_says_so(client_of, game):
    """Found by a tester: a correction saved, then Back to the page (its key as drawn), other
    points and Save again: a bare text page said "This tap's key came with another tap
    before", and the 20 was silently not saved."""
    play(game, [(Box.FOURS, (4, 4, 4, 2, 5))])
    url = reverse("game-correct", args=[game.public_id, 1])
    form = {"version": 1, idempotency.FIELD: str(uuid.uuid4())}
    assert client_of.post(url, form | {"points": "16"}).status_code == 302
    client_of.get(game_url(game))  # the correction's note, said
    again = client_of.post(url, form | {"points": "20"}, follow=True)
    assert again.redirect_chain == [(game_url(game), 302)]
    said = "Nothing was changed: this form had been sent already, with other values (a page "
    assert said + "brought back by Back). Here is the card as it is now." in text(again)
    assert Entry.objects.get().points == 16
