"""What an htmx answer carries into the next turn: after a record, nothing of the last
player's dice; after an undo, the dice of the turn it reopens."""

import re

from django.urls import reverse

from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.models import Roll
from tests.helpers import HTMX, post_box, text


def test_after_an_htmx_record_the_next_players_turn_starts_without_those_dice(client_of, game):
    response = post_box(client_of, game, Box.FOURS, dice=(6, 4, 4, 4, 1), htmx=True)
    assert response.status_code == 200
    turn = text(response).split("<template>")[0]  # the turn panel, before the changed cells
    assert "Bob’s turn" in turn
    assert re.search(r'<input id="dice-typed" name="dice" value=""', turn)
    assert "64441" not in turn and "14446" not in turn and 'aria-label="Dice ' not in turn
    assert 'class="options"' not in turn  # no boxes priced for Ann's dice


def test_undoing_the_last_box_of_a_finished_digital_game_brings_its_roll_back(
    client_of, digital, seeded
):
    for turn, box in enumerate(Box, start=1):
        digital.refresh_from_db()
        services.roll_dice(game=digital, version=digital.version, turn=turn)
        digital.refresh_from_db()
        services.record_box(game=digital, version=digital.version, turn=turn, box=box)
    digital.refresh_from_db()
    assert digital.finished
    undo = reverse("game-undo", args=[digital.public_id])
    response = client_of.post(undo, {"version": digital.version}, headers=HTMX)
    assert response.status_code == 200
    page = text(response)
    last_roll = Roll.objects.get(game=digital, turn=13)
    assert "Roll 1 of 3" in page and "(2 left)" in page
    held = [f"Hold die {n} ({face})" for n, face in enumerate(last_roll.dice, start=1)]
    assert all(label in page for label in held), page
