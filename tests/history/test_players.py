"""A player renamed, and one person kept under two names made one (services and views)."""

import pytest
from django.urls import reverse

from scorecard.game import results, services
from scorecard.models import Game, Household, Player, PlayerBoxTotal, PlayerFigures, Seat
from tests.factories import GameFactory, play_on
from tests.helpers import browser_of, finished_game, text


def _figures(player: Player) -> tuple[dict, dict]:
    """A player's kept figures and box totals, as plain values to compare."""
    figures = {
        row.family: ({name: getattr(row, name) for name in PlayerFigures.COUNTS}, row.bands)
        for row in PlayerFigures.objects.filter(player=player)
    }
    boxes = {
        (row.family, row.box): (row.points, row.cards)
        for row in PlayerBoxTotal.objects.filter(player=player)
    }
    return figures, boxes


def _settled_afresh(player: Player) -> tuple[dict, dict]:
    """The figures the player's finished games give when every one is settled again."""
    games = list(Game.objects.filter(seats__player=player, finished__isnull=False))
    Seat.objects.filter(game__in=games).update(**dict.fromkeys(results.SETTLED_FIELDS))
    PlayerFigures.objects.all().delete()
    PlayerBoxTotal.objects.all().delete()
    results.settle_games(games)
    return _figures(player)


def test_a_renamed_player_keeps_their_games_under_the_new_name(household):
    finished_game(household, names=("Jon", "Bob"))
    jon = Player.objects.get(name="Jon")
    services.player_rename(player=jon, name="  John   Smith ")
    jon.refresh_from_db()
    assert (jon.name, jon.name_key) == ("John Smith", "john smith")
    assert jon.seats.count() == 1 and _figures(jon)[0]["yahtzee"][0]["games"] == 1


def test_a_name_in_another_case_is_the_same_player_renamed(household):
    GameFactory(owner=household, names=["ann"])
    ann = Player.objects.get()
    assert services.player_rename(player=ann, name="Ann").name == "Ann"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("   ", "Write the player’s new name."),
        ("x" * 41, "A name has at most 40 characters."),
        ("Ann\x07", "A name holds letters, digits and signs, not control characters."),
    ],
)
def test_a_name_that_cannot_be_a_players_is_refused(household, name, said):
    GameFactory(owner=household, names=["Ann"])
    ann = Player.objects.get()
    with pytest.raises(services.Refusal, match=said):
        services.player_rename(player=ann, name=name)
    assert Player.objects.get().name == "Ann"


def test_another_players_name_asks_whether_they_are_one_person(household):
    GameFactory(owner=household, names=["José", "Bob"])
    GameFactory(owner=household, names=["Jo"])
    jo = Player.objects.get(name="Jo")
    with pytest.raises(services.NameOfAnother) as asked:
        services.player_rename(player=jo, name="JOSÉ")
    assert asked.value.other.name == "José"
    assert Player.objects.filter(name="Jo").exists()


def test_a_merge_adds_up_as_if_one_player_had_played_every_game(household):
    finished_game(household, names=("Ann", "Bob"))
    finished_game(household, names=("Anna",))
    play_on(GameFactory(owner=household, names=["Anna", "Cy"], mode=Game.Mode.TRIPLE))
    yatzy = services.HouseSettings(family="yatzy")
    play_on(GameFactory(owner=household, names=["Anna", "Bob"], house=yatzy))
    ann, anna = Player.objects.get(name="Ann"), Player.objects.get(name="Anna")
    assert services.player_merge(player=anna, into=ann) == 3
    assert set(_figures(ann)[0]) == {"yahtzee", "yatzy"}
    assert not Player.objects.filter(name="Anna").exists()
    assert ann.seats.count() == 4
    merged = _figures(ann)
    assert merged[0]["yahtzee"][0]["games"] == 3
    assert merged == _settled_afresh(ann)


def test_two_players_of_one_game_are_two_people(household):
    finished_game(household, names=("Ann", "Anna"))
    ann, anna = Player.objects.get(name="Ann"), Player.objects.get(name="Anna")
    said = "Anna and Ann played in the same game, so they are two people."
    with pytest.raises(services.Refusal, match=said):  # not asked whether to merge them
        services.player_rename(player=anna, name="ANN")
    with pytest.raises(services.Refusal, match=said):
        services.player_merge(player=anna, into=ann)
    assert anna.seats.count() == 1 and ann.seats.count() == 1
    assert Player.objects.get(pk=anna.pk).name == "Anna"


def test_a_player_of_another_household_is_never_merged(household):
    GameFactory(owner=household, names=["Ann"])
    GameFactory(owner=Household.objects.create(), names=["Ann"])
    ours, theirs = Player.objects.order_by("pk")
    with pytest.raises(services.Refusal):
        services.player_merge(player=theirs, into=ours)
    assert Player.objects.count() == 2


def _rename(client, player: Player, **form: str):
    return client.post(reverse("player-rename", args=[player.public_id]), form)


def test_the_player_page_renames_and_says_so_once(client_of, household):
    finished_game(household, names=("Jon",))
    jon = Player.objects.get()
    answer = _rename(client_of, jon, name="John")
    assert answer.status_code == 302 and answer.url == reverse("player", args=[jon.public_id])
    page = text(client_of.get(answer.url))
    assert "<h1>John</h1>" in page and "Now called John." in page
    assert "Now called John." not in text(client_of.get(answer.url))


def test_a_refused_name_is_said_beside_its_field(client_of, household):
    GameFactory(owner=household, names=["Ann"])
    ann = Player.objects.get()
    answer = _rename(client_of, ann, name="x" * 41)
    page = text(answer)
    assert answer.status_code == 400
    assert 'aria-invalid="true" aria-describedby="rename-error" autofocus' in page
    assert '<p class="error" role="alert" id="rename-error">A name has at most 40' in page
    assert '<details id="rename" class="rename-player" open>' in page


def test_the_page_asks_before_a_merge_and_merges_on_the_second_tap(client_of, household):
    finished_game(household, names=("Ann",))
    finished_game(household, names=("Anna",))
    ann, anna = Player.objects.get(name="Ann"), Player.objects.get(name="Anna")
    page = text(_rename(client_of, anna, name="ann"))
    assert "Ann is another player already." in page and "Merge into Ann" in page
    assert Player.objects.count() == 2
    answer = _rename(client_of, anna, into=ann.public_id)
    assert answer.url == reverse("player", args=[ann.public_id])
    assert "Anna’s games are Ann’s now." in text(client_of.get(answer.url))
    assert "<dt>Games finished</dt><dd>2</dd>" in text(client_of.get(answer.url))
    # The same tap sent again (a double tap, or Back to the question) finds them one already.
    again = _rename(client_of, anna, into=ann.public_id)
    assert again.status_code == 302 and again.url == reverse("player", args=[ann.public_id])
    assert "Merged into Ann already." in text(client_of.get(again.url))


def test_a_merge_the_rules_refuse_is_said_in_place(client_of, household):
    finished_game(household, names=("Ann", "Anna"))
    ann, anna = Player.objects.get(name="Ann"), Player.objects.get(name="Anna")
    answer = _rename(client_of, anna, into=ann.public_id, name="ANN")  # a game since the question
    page = text(answer)
    assert answer.status_code == 400
    assert "Anna and Ann played in the same game, so they are two people." in page
    assert 'value="ANN"' in page  # the name typed stays, to be changed


def test_no_stranger_renames_or_merges_a_player(household):
    GameFactory(owner=household, names=["Ann", "Bob"])
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    stranger = browser_of(Household.objects.create())
    assert _rename(stranger, ann, name="Eve").status_code == 404
    assert _rename(stranger, ann, into=bob.public_id).status_code == 404
    assert _rename(browser_of(household), ann, into="not-a-player").status_code == 404
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Bob"]


def test_a_game_being_played_shows_the_new_name_at_once(client_of, household):
    game = GameFactory(owner=household, names=["Jon", "Bob"])
    page = reverse("game", args=[game.public_id])
    assert "Jon" in text(client_of.get(page))  # its regions kept for this version
    _rename(client_of, Player.objects.get(name="Jon"), name="John")
    shown = text(client_of.get(page))
    assert "Jon<" not in shown and ">John<" in shown
