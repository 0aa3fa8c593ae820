"""Nasty input on every field of every view: a 4xx with a message, never a 500, nothing changed."""

import pytest
from django.urls import reverse

from scorecard.models import Entry, Roll

NASTY = [
    "", " ", "-1", "0", "99999999999999999999999", "1e9", "NaN", "①②③④⑤", "4" * 5000,
    "<script>alert(1)</script>", "'; DROP TABLE scorecard_game; --", "\x00", "ones\n",
]  # fmt: skip


FIELDS = ["version", "turn", "box", "card", "dice", "points", "hold", "confirm", "extra_yahtzee"]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value", NASTY)
def test_nasty_form_fields_never_break_the_game_views(client_of, game, digital, field, value):
    good = {"version": "0", "turn": "1", "box": "chance", "card": "1", "dice": "12346"}
    for target, name in [(game, "game-record"), (digital, "game-roll"), (game, "game-undo")]:
        response = client_of.post(reverse(name, args=[target.public_id]), good | {field: value})
        assert response.status_code < 500
    assert client_of.get(reverse("game", args=[game.public_id]), {field: value}).status_code < 500
    assert not Roll.objects.filter(game=game).exists()
    assert Entry.objects.filter(game=digital).count() == 0


@pytest.mark.parametrize("value", NASTY)
def test_nasty_query_strings_never_break_the_pages(client_of, game, value):
    for name, params in [
        ("sheet", {"columns": value, "name": value, "triple": value}),
        ("games", {"page": value, "player": value, "mode": value}),
        ("game-sheet", {"since": value}),
    ]:
        args = [game.public_id] if name == "game-sheet" else []
        assert client_of.get(reverse(name, args=args), params).status_code < 500
    data = {f"name_{i}": value for i in range(1, 9)} | {"move_up": value, "mode": value}
    assert client_of.post(reverse("game-new"), data).status_code < 500
    correct = reverse("game-correct", args=[game.public_id, 1])
    # No box 1 is filled: the game says so (a 302 to it), or the door refuses the value.
    assert client_of.post(correct, {"version": value, "points": value}).status_code in (302, 400)


@pytest.mark.parametrize("value", NASTY)
def test_nasty_corrections_are_refused_in_place(client_of, game, value):
    from scorecard.engine.rules import Box
    from tests.factories import play

    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))])
    url = reverse("game-correct", args=[game.public_id, 1])
    for field in ("version", "dice", "points", "box"):
        data = {"version": "1", "points": "20"} | {field: value}
        response = client_of.post(url, data)
        assert response.status_code < 500
    entry = Entry.objects.get()
    assert entry.points in (16, 20)


def test_dice_and_points_that_disagree_are_refused_and_nothing_is_recorded(client_of, game):
    """Found by a fuzzer: Fours with dice 12345 and 20 typed was recorded as 4 points."""
    sent = {"version": "0", "turn": "1", "box": "fours", "dice": "12345", "points": "20"}
    response = client_of.post(reverse("game-record", args=[game.public_id]), sent)
    assert response.status_code == 400
    assert "The dice 12345 make 4 in Fours, not 20: enter the dice or the points." in (
        response.content.decode()
    )
    assert not Entry.objects.filter(game=game).exists()
