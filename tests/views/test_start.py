"""The home page and the new-game form."""

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorecard.engine import rules
from scorecard.models import Game, Player
from tests.factories import GameFactory
from tests.helpers import game_url, text


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


def test_the_form_starts_the_game_under_the_names_and_again_after_the_choices(db):
    """Found by a new user: the one Start button sat three screens above the last choice."""
    page = text(Client().get(reverse("game-new")))
    under_the_names = page.index('<button type="submit" class="primary">Start the game</button>')
    after_the_choices = page.index(
        '<button type="submit" class="primary">Start with these choices</button>'
    )
    assert under_the_names < page.index('name="random_start"') < after_the_choices


def test_known_names_are_reused_and_suggested(client_of, household):
    GameFactory(owner=household, names=["Ann"])
    client_of.post(reverse("game-new"), {"name_1": "ann", "joker": "hasbro", "mode": "standard"})
    assert Player.objects.filter(owner=household).count() == 1
    assert '<option value="Ann">' in client_of.get(reverse("game-new")).content.decode()


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({}, "Write at least one player’s name to start."),
        ({"name_1": "Ann", "name_2": "ANN"}, "same name"),
        ({"name_1": "x" * 41}, "at most 40 characters"),
    ],
)
def test_a_new_game_with_bad_names_is_refused_in_place(db, names, message):
    response = Client().post(reverse("game-new"), {**names, "joker": "hasbro", "mode": "standard"})
    assert response.status_code == 400
    assert message in text(response)
    assert not Game.objects.exists()


def test_no_name_at_all_is_said_beside_the_first_name_marked_and_focused(db):
    """An accessibility tester: "Write at least one player's name to start." stood above the
    form with no field marked."""
    response = Client().post(reverse("game-new"), {"joker": "hasbro", "mode": "standard"})
    page = text(response)
    first = re.search(r'<input[^>]*name="name_1"[^>]*>', page).group(0)
    assert 'aria-invalid="true"' in first and "autofocus" in first
    assert page.index('name="name_1"') < page.index("Write at least one player’s name to start.")
    assert page.index("Write at least one") < page.index('name="name_2"')


@pytest.mark.parametrize("names", [{"name_1": "x" * 41}, {"name_1": "Ann", "name_3": "x" * 41}])
def test_a_name_too_long_is_refused_for_its_length_alone(db, names):
    # The field's own refusal must not make the form think no name was written.
    response = Client().post(reverse("game-new"), {**names, "joker": "hasbro", "mode": "standard"})
    page = text(response)
    assert response.status_code == 400
    assert page.count("A name has at most 40 characters.") == 1
    assert "Write at least one" not in page and "Ensure this value" not in page
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("names", "at_fault", "message"),
    [
        (["Ann", "Bob", "\u202eEvil"], [3], "not control characters"),
        (["Ann", "Bob", "ann "], [1, 3], "Two players have the same name"),
        # Written twice alike (a tester's "Mum" was said beside Player 1, whoever that was).
        (["Ann", "Mum", "Bob", "Mum"], [2, 4], "Two players have the same name"),
        (["Bartholomew-Maximilian von Hohenzollern-Sigmaringen"], [1], "at most 40 characters"),
    ],
)
def test_a_name_refused_is_said_beside_its_own_field_and_kept_as_written(
    db, names, at_fault, message
):
    """Found by a new user: an invisible character in Player 3's name was said above the
    form, with no field marked, and a name past 40 characters was cut short as it was typed
    (the field's maxlength), without a word."""
    posted = {f"name_{seat}": name for seat, name in enumerate(names, 1)}
    response = Client().post(reverse("game-new"), {**posted, "joker": "hasbro", "mode": "standard"})
    assert response.status_code == 400 and not Game.objects.exists()
    page = response.content.decode()
    for seat in range(1, len(names) + 1):
        field = page.split(f'id="id_name_{seat}"')[0].rsplit("<input", 1)[-1]
        after = page.split(f'id="id_name_{seat}"')[1].split("</li>")[0]
        assert ("aria-invalid" in field + after.split(">")[0]) == (seat in at_fault), seat
        assert (message in after) == (seat in at_fault), seat
        # The focus on the first field at fault (a keyboard was left at the top of the page).
        assert ("autofocus" in field + after.split(">")[0]) == (seat == min(at_fault)), seat
    assert "maxlength" not in page.split('id="id_name_1"')[1].split(">")[0]
    assert html.escape(names[-1], quote=True) in page


def test_an_unknown_rule_or_mode_is_refused(db):
    response = Client().post(reverse("game-new"), {"name_1": "A", "joker": "x", "mode": "y"})
    assert response.status_code == 400 and not Game.objects.exists()


@pytest.mark.parametrize("field", ["joker", "mode", "dice"])
def test_an_unknown_rule_mode_or_dice_is_refused_with_a_message_beside_it(db, field):
    data = {"name_1": "Ann", "joker": "hasbro", "mode": "standard", "dice": "table", field: "x"}
    response = Client().post(reverse("game-new"), data)
    assert response.status_code == 400
    assert "Choose one of these." in text(response)
    assert not Game.objects.exists()


def test_players_can_be_moved_up_before_the_game_starts(db):
    data = {"name_1": "Ann", "name_2": "Bob", "move_up": "2", "joker": "hasbro", "mode": "standard"}
    response = Client().post(reverse("game-new"), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.index('value="Bob"') < page.index('value="Ann"')
    assert not Game.objects.exists()


def test_the_home_page_lists_nothing_for_a_new_visitor(db):
    response = Client().get(reverse("home"))
    assert response.status_code == 200 and "Games in progress" not in text(response)


def test_the_home_page_names_a_games_players_in_seating_order(client_of, household):
    """As the game seats them, not by name: Zoë sits first."""
    from scorecard.game import services

    services.game_create(owner=household, names=["Zoë", "Bob", "Ann"])
    with CaptureQueriesContext(connection) as queries:
        page = text(client_of.get(reverse("home")))
    assert "· Zoë, Bob, Ann</a>" in page
    assert sum("scorecard_player" in query["sql"] for query in queries) == 1  # with the seats


def test_the_new_game_form_leads_back_to_the_game_in_progress(client_of, household):
    """Back from a game just started lands on an empty form: its game is one tap away."""
    from scorecard.game import services

    assert "Back to the game in progress" not in text(client_of.get(reverse("game-new")))
    game = services.game_create(owner=household, names=["Zoë", "Bob"])
    page = text(client_of.get(reverse("game-new")))
    assert f'href="{game_url(game)}">Back to the game in progress: Zoë, Bob</a>' in page
    refused = text(client_of.post(reverse("game-new"), {"name_1": ""}))
    assert "Back to the game in progress" not in refused  # the form's own answer, as sent
