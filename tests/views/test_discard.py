"""A game no box of which is filled can be discarded from the home page (found by a new
user: a rematch started before the table chose a fourth player stayed on the games list, in
the players' counts and in every export for good)."""

from django.test import Client
from django.urls import reverse

from scorecard.models import Game, Player
from tests.factories import GameFactory, play_on
from tests.helpers import game_url, text


def test_a_blank_game_is_discarded_with_the_players_only_it_had(client_of, household):
    kept = play_on(GameFactory(owner=household, names=["Mom", "Dad"]), turns=2)
    blank = GameFactory(owner=household, names=["Mom", "Dad", "Gran"])
    home = text(client_of.get(reverse("home")))
    assert home.count(">Discard</button>") == 1  # the blank game's, not the other's
    answer = client_of.post(game_url(blank, "game-discard"), follow=True)
    assert "The game of Mom, Dad and Gran is discarded." in text(answer)
    assert list(Game.objects.all()) == [kept]
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Dad", "Mom"]


def test_a_game_with_a_box_filled_stays_and_says_why(client_of, household):
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    page = text(client_of.get(reverse("home")))
    play_on(game, turns=1)  # another phone filled a box since the page was drawn
    refused = client_of.post(game_url(game, "game-discard"), follow=True)
    assert "A box of this game is filled, so it stays" in text(refused)
    assert ">Discard</button>" in page and Game.objects.filter(pk=game.pk).exists()


def test_a_rematch_discarded_leaves_its_finished_game_without_the_way_to_it(client_of, household):
    from scorecard.game import services

    finished = play_on(GameFactory(owner=household, names=["Ann"]))
    rematch = services.game_rematch(game=finished)
    before = Game.objects.get(pk=finished.pk).version
    client_of.post(game_url(rematch, "game-discard"))
    assert Game.objects.get(pk=finished.pk).version == before + 1
    assert "Go to the new game" not in text(client_of.get(game_url(finished)))
    assert "Play again" in text(client_of.get(game_url(finished)))  # a solo game's rematch


def test_another_households_game_cannot_be_discarded(client_of):
    stranger = GameFactory(names=["Zed"])
    assert client_of.post(game_url(stranger, "game-discard")).status_code == 404
    assert Game.objects.filter(pk=stranger.pk).exists()


def test_a_browser_left_on_a_game_discarded_elsewhere_is_told_what_may_have_happened(
    client_of, household
):
    """Found by a helper on four phones: a household's phone whose game another of its
    browsers discarded was sent "Not found" and told to ask for a watch or score link."""
    blank = GameFactory(owner=household, names=["Ann", "Bob"])
    client_of.post(game_url(blank, "game-discard"))
    gone = text(client_of.get(game_url(blank)))
    assert "or a game with no box filled discarded from another of its browsers" in gone
    assert "ask for its watch or score link" not in gone
    stranger = text(Client().get(game_url(blank)))  # a browser of no household: as before
    assert "ask for its watch or score link" in stranger and "discarded" not in stranger
