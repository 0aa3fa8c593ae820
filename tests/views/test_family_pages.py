"""The new-game form and the game page for Yatzy and Maxi Yatzy: the family and its house
rules chosen, Yahtzee's own choices ignored for them, the turn by the family's rules."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorecard.engine import families
from scorecard.game import services
from scorecard.models import Game
from tests.factories import GameFactory, play
from tests.helpers import HTMX, game_url, text

NEW = {"name_1": "Ann", "joker": "hasbro", "mode": "standard", "dice": "table"}


def test_the_new_game_form_offers_the_three_games_and_their_house_rules(db):
    page = text(Client().get(reverse("game-new")))
    for name in ("Yahtzee", "Yatzy", "Maxi Yatzy"):
        assert f'value="{families.family_named(name.lower().split()[0]).key}"' in page
    assert "<legend>Game</legend>" in page
    for label in (
        "Five alike counts as a full house",
        "Four alike counts as two pairs",
        "Rolls not used are saved for later turns",
        "Fill the boxes in order",
        "For Yahtzee only.",
    ):
        assert label in page


def test_a_yatzy_game_is_started_with_its_switches_and_forced_order(db):
    data = NEW | {"family": "yatzy", "five_alike_full_house": "on", "forced": "on"}
    response = Client().post(reverse("game-new"), data)
    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.family, game.switches, game.forced_order) == (
        "yatzy",
        "five_alike_full_house",
        True,
    )


def test_yahtzee_only_choices_and_other_games_rules_are_ignored_for_yatzy(db):
    data = NEW | {
        "family": "yatzy",
        "joker": "free",
        "mode": "triple",
        "saved_rolls": "on",
        "bonus_threshold": "70",
        "bonus_points": "40",
    }
    Client().post(reverse("game-new"), data)
    game = Game.objects.get()
    assert (game.joker, game.mode, game.switches, game.bonus_threshold) == (
        "hasbro",
        "standard",
        "",
        None,
    )


def test_a_maxi_game_keeps_the_house_bonus_and_saved_rolls(db):
    data = NEW | {
        "family": "maxi",
        "saved_rolls": "on",
        "bonus_threshold": "80",
        "bonus_points": "50",
        "four_alike_two_pairs": "on",
    }
    Client().post(reverse("game-new"), data)
    game = Game.objects.get()
    assert (game.family, game.switches) == ("maxi", "saved_rolls")
    assert (game.bonus_threshold, game.bonus_points) == (80, 50)


def test_the_printed_maxi_bonus_is_the_familys_own(db):
    Client().post(reverse("game-new"), NEW | {"family": "maxi", "bonus_threshold": "84"})
    game = Game.objects.get()
    assert game.bonus_threshold is None and game.house_rules.upper_bonus.points == 100


@pytest.mark.parametrize(
    ("field", "value"), [("family", "farkle"), ("bonus_threshold", "-3"), ("bonus_points", "x")]
)
def test_a_bad_game_or_bonus_is_refused_in_place(db, field, value):
    response = Client().post(reverse("game-new"), NEW | {"family": "maxi", field: value})
    assert response.status_code == 400 and not Game.objects.exists()
    assert 'role="alert"' in text(response)


def yatzy_game(household, **house):
    return GameFactory(
        owner=household, names=["Ann"], house=services.HouseSettings("yatzy", **house)
    )


def test_a_yatzy_turn_offers_yatzy_boxes_and_never_mentions_yahtzee_extras(client_of, household):
    game = yatzy_game(household)
    page = text(client_of.get(game_url(game) + "?dice=22333"))
    assert 'aria-label="Two pairs, 10 points"' in page
    assert 'aria-label="Full house, 13 points"' in page
    assert "Dice, five digits" in page
    for word in ("joker", "Joker", "Triple", "Challenge", "extra Yahtzee", "Yz+"):
        assert word not in page
    assert "<h1" in page and "Yatzy" in page


def test_a_forced_yatzy_turn_offers_only_the_next_box(client_of, household):
    game = play(yatzy_game(household, forced=True), [("ones", (1, 1, 2, 3, 4))])
    page = text(client_of.get(game_url(game) + "?dice=22333"))
    assert 'aria-label="Twos, 4 points">' in page
    assert 'disabled aria-describedby="why-not" aria-label="Threes, 9 points"' in page
    assert "The boxes are filled in order: Twos is next." in page
    assert "boxes filled in order" in page


def test_a_forced_game_refuses_a_later_box_in_place(client_of, household):
    game = yatzy_game(household, forced=True)
    data = {"version": 0, "turn": 1, "box": "chance", "dice": "66666"}
    response = client_of.post(game_url(game, "game-record"), data, headers=HTMX)
    assert response.status_code == 400
    assert "Ones is next" in text(response) and not game.entries.exists()


def test_a_forced_game_writes_a_zero_at_once_with_no_other_box_to_ask_about(client_of, household):
    """Filled in order, the next box is the only one: asking "Score 0 in Ones?" guarded no
    choice and doubled the taps of most turns (a new user counted 30 of 45). Without forced
    order the question stays."""
    forced = yatzy_game(household, forced=True)
    data = {"version": 0, "turn": 1, "box": "ones", "dice": "23456"}
    response = client_of.post(game_url(forced, "game-record"), data, headers=HTMX)
    assert response.status_code == 200 and "Score 0 in" not in text(response)
    assert list(forced.entries.values_list("box", "points")) == [("ones", 0)]
    free = yatzy_game(household)
    asked = client_of.post(game_url(free, "game-record"), data, headers=HTMX)
    assert "Score 0 in Ones?" in text(asked) and not free.entries.exists()


def test_a_maxi_turn_takes_six_dice_and_says_there_is_no_advice(client_of, household):
    game = GameFactory(owner=household, names=["Mia"], house=services.HouseSettings("maxi"))
    page = text(client_of.get(game_url(game) + "?dice=333555"))
    assert 'aria-label="Villa, 24 points"' in page
    assert "Dice, six digits" in page and 'data-dice-count="6"' in page
    assert "No advice for Maxi Yatzy" in page
    assert 'id="advice-setting"' not in page
    typed = text(client_of.get(game_url(game) + "?typed=1"))
    assert 'max="100"' in typed  # the typed points go up to Maxi Yatzy's 100


def test_five_dice_for_maxi_are_refused_with_a_message(client_of, household):
    game = GameFactory(owner=household, names=["Mia"], house=services.HouseSettings("maxi"))
    response = client_of.get(game_url(game) + "?dice=33355&show=1")
    assert response.status_code == 400 and "A roll is six dice; got 5." in text(response)


def test_a_typed_yatzy_score_is_checked_by_yatzy_rules(client_of, household):
    game = yatzy_game(household)
    data = {"version": 0, "turn": 1, "box": "small_straight", "points": "30"}
    response = client_of.post(game_url(game, "game-record"), data, headers=HTMX)
    assert response.status_code == 400 and "Small straight cannot score 30" in text(response)
    data["points"] = "15"
    client_of.post(game_url(game, "game-record"), data, headers=HTMX)
    assert game.entries.get().points == 15


def test_a_yatzy_box_can_be_corrected_and_undone(client_of, household):
    game = play(yatzy_game(household), [("one_pair", (6, 6, 1, 2, 3))])
    url = reverse("game-correct", args=[game.public_id, 1])
    assert "One pair" in text(client_of.get(url))
    client_of.post(url, {"version": game.version, "dice": "55123"})
    assert game.entries.get().points == 10
    game.refresh_from_db()
    # The last box, corrected: Undo takes it back, correction and all, without asking.
    client_of.post(game_url(game, "game-undo"), {"version": game.version})
    assert not game.entries.exists()


def test_yatzy_standings_and_sheet_follow_the_family(client_of, household):
    game = play(yatzy_game(household), [("sixes", (6, 6, 6, 6, 1))])
    page = text(client_of.get(game_url(game), {"legend": "1"}))  # the standings' legend open
    assert "50 once the upper boxes reach 63" in page
    assert "Yahtzee bonus" not in page
    assert "Two pairs" in page
    # How each box scores is said on the printed sheet (a game page goes without it).
    assert "Two different pairs" in text(client_of.get(game_url(game, "game-sheet")))


def test_a_yatzy_games_own_sheet_has_its_rows_and_bonus_and_no_yahtzee_extras(client_of, household):
    game = play(yatzy_game(household), [("two_pairs", (2, 2, 3, 3, 3))])
    page = text(client_of.get(game_url(game, "game-sheet")))
    assert "Score sheet · Yatzy" in page
    assert "Upper bonus: 50 for 63 or more" in page
    assert "Two pairs" in page and "Extra-Yahtzee bonuses" not in page
    assert "Yahtzee bonus" not in page


def test_the_home_page_names_a_yatzy_game_by_its_game(client_of, household):
    yatzy_game(household)
    page = text(client_of.get(reverse("home")))
    assert "· Yatzy ·" in page and "Standard" not in page


def test_a_finished_yatzy_games_review_never_mentions_the_joker_rule(client_of, household):
    from tests.game.test_family_games import YATZY_CARD

    game = play(yatzy_game(household), YATZY_CARD)
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    assert "Yatzy" in page and "Hasbro" not in page and " rule</small>" not in page


def test_a_forced_games_typed_points_offer_only_the_next_box(client_of, household):
    game = play(yatzy_game(household, forced=True), [("ones", (1, 1, 2, 3, 4))])
    page = text(client_of.get(game_url(game) + "?typed=1"))
    options = page.split('id="typed-box"')[1].split("</select>")[0]
    assert '<option value="twos">Twos</option>' in options and "threes" not in options


def test_a_maxi_correction_shows_six_dice_for_its_example(client_of, household):
    """Found by a new user: the field said "e.g. 44425", and five dice are refused there."""
    game = GameFactory(owner=household, names=["Mia"], house=services.HouseSettings("maxi"))
    play(game, [("chance", (6, 6, 5, 5, 4, 4))])
    page = text(client_of.get(reverse("game-correct", args=[game.public_id, 1])))
    assert 'placeholder="e.g. 444256"' in page
    standard = play(GameFactory(owner=household, names=["Ann"]), [("chance", (6, 6, 5, 5, 4))])
    page = text(client_of.get(reverse("game-correct", args=[standard.public_id, 1])))
    assert 'placeholder="e.g. 44425"' in page


def test_a_yatzy_players_page_counts_the_yatzys_scored(client_of, household):
    """Found by a new user: the page counted Yahtzees for Yahtzee games only, and said nothing
    of the Yatzys a Yatzy game scored."""
    from tests.game.test_family_games import YATZY_CARD

    game = play(yatzy_game(household), YATZY_CARD)  # its last box: a Yatzy, 50
    player = game.seats.get().player
    page = text(client_of.get(reverse("player", args=[player.public_id])))
    assert "<dt>Yatzy scored</dt><dd>1</dd>" in page
    assert "Yahtzees" not in page


def test_a_standard_yahtzee_game_is_titled_by_its_game_in_the_phones_language(client_of, household):
    """Found by a German reader: the page of a game of Kniffel was titled "Standard" (the
    new-game form's name for the mode); the sheet's heading named the family twice."""
    game = GameFactory(owner=household, names=["Ann"])
    page = client_of.get(game_url(game), headers={"Accept-Language": "de"}).content.decode()
    assert "<title>Kniffel · " in page and "Standard" not in page
    sheet = text(client_of.get(game_url(game, "game-sheet"), headers={"Accept-Language": "de"}))
    assert "Kniffel-Block" in sheet
    assert "Standard" not in sheet and f"{game.created.year} · " not in sheet
    home = text(client_of.get(reverse("home")))
    assert "· Yahtzee ·" in home and "Standard" not in home
    review = text(client_of.get(game_url(game, "game-review"), headers={"Accept-Language": "de"}))
    assert "<small>Kniffel, " in review and "Standard" not in review


def test_the_games_list_says_the_house_rules_each_game_was_played_by(client_of, household):
    """Found by a tester: forced order and a bonus of 50 at 90 were listed as plain "Yatzy"
    and "Maxi Yatzy"; a Yahtzee game by the usual joker order says nothing more."""
    GameFactory(owner=household, names=["Ann"], house=services.HouseSettings("yatzy", forced=True))
    bonus = families.UpperBonus(threshold=90, points=50)
    GameFactory(owner=household, names=["Ann"], house=services.HouseSettings("maxi", bonus=bonus))
    GameFactory(owner=household, names=["Ann"])
    page = text(client_of.get(reverse("games")))
    assert "· Yatzy · boxes filled in order" in page
    assert "· Maxi Yatzy · bonus 50 at 90 or more" in page
    assert re.search(r"· Yahtzee\s*<span", page)
