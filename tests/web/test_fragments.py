"""The grid, the standings and a watcher's poll answer are drawn once per game version and
kept in the cache: every phone that shows that version gets the same bytes a fresh drawing
would give, and nobody ever gets a drawing of another game, version, role or address."""

import re
from types import SimpleNamespace

import pytest
from django.template import engines
from django.test import Client
from django.urls import reverse
from redis.exceptions import ConnectionError as CacheConnectionError

from scorecard.access import sharing
from scorecard.engine.rules import Box
from scorecard.models import LinkRole
from scorecard.presenters import advisor
from scorecard.web import fragments
from tests.factories import GameFactory, play
from tests.helpers import HTMX, browser_of, game_url, post_box

POLL = HTMX | {"If-None-Match": '"0"'}


def region(page, dom_id: str) -> str:
    """The `<section id=dom_id>` of a page, as sent."""
    found = re.search(rf'<section id="{dom_id}".*?</section>', page.content.decode(), re.S)
    assert found, f"no #{dom_id} in the page"
    return found.group(0)


def link_address(game, role: LinkRole) -> str:
    token = sharing.link_renew(game=game, role=role).token
    return reverse(role.value, args=[token])


@pytest.fixture
def drawn(monkeypatch):
    """The templates drawn since the list was last emptied: each page and each include is
    fetched from the Jinja2 environment as it is drawn (the test client's `templates`
    lists Django's templates only)."""
    environment = engines["jinja2"].env
    names: list[str] = []
    fetch = environment.get_template

    def fetched(name, *args, **kwargs):
        names.append(name)
        return fetch(name, *args, **kwargs)

    monkeypatch.setattr(environment, "get_template", fetched)
    return names


def drew_the_grid(drawn: list[str], ask):
    """The answer to `ask()`, and whether answering it drew the score sheet's grid."""
    drawn.clear()
    response = ask()
    return response, "_sheet_table.html" in drawn


@pytest.fixture
def played(game):
    return play(game, [(Box.FOURS, (4, 4, 4, 1, 2)), (Box.CHANCE, (6, 6, 5, 5, 4))])


def test_a_second_phone_gets_the_grid_and_standings_drawn_for_the_first_byte_for_byte(
    played, drawn
):
    first, first_drew = drew_the_grid(drawn, lambda: browser_of(played.owner).get(game_url(played)))
    second, second_drew = drew_the_grid(
        drawn, lambda: browser_of(played.owner).get(game_url(played))
    )
    assert first_drew and not second_drew
    for dom_id in ("boxes", "standings"):
        assert region(second, dom_id) == region(first, dom_id)


def test_a_kept_drawing_is_the_same_bytes_as_a_drawing_made_without_the_cache(played, settings):
    owner = browser_of(played.owner)
    owner.get(game_url(played))
    kept = owner.get(game_url(played))
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    fresh = owner.get(game_url(played))
    for dom_id in ("boxes", "standings"):
        assert region(kept, dom_id) == region(fresh, dom_id)


def test_a_watcher_never_gets_the_owner_s_correction_links_nor_the_owner_a_watcher_s_grid(
    played,
):
    owner_grid = region(browser_of(played.owner).get(game_url(played)), "boxes")
    watch = link_address(played, LinkRole.WATCH)
    watcher_grid = region(Client().get(watch), "boxes")
    assert "/correct/" in owner_grid and "Tap a filled box" in owner_grid
    assert "/correct/" not in watcher_grid and "Tap a filled box" not in watcher_grid
    assert region(browser_of(played.owner).get(game_url(played)), "boxes") == owner_grid


def test_a_score_link_s_grid_corrects_through_its_own_address_not_the_household_s(played):
    browser_of(played.owner).get(game_url(played))
    score = link_address(played, LinkRole.SCORE)
    grid = region(Client().get(score), "boxes")
    assert f"{score}turns/1/correct/" in grid
    assert played.public_id not in grid


def test_a_new_version_is_drawn_afresh_never_served_an_older_drawing(played, client_of):
    grid = region(client_of.get(game_url(played)), "boxes")
    assert game_url(played, "game-correct", turn=3) not in grid
    assert post_box(client_of, played, Box.FULL_HOUSE, (2, 2, 3, 3, 3)).status_code == 302
    grid = region(client_of.get(game_url(played)), "boxes")
    assert game_url(played, "game-correct", turn=3) in grid


def test_another_game_at_the_same_version_gets_its_own_drawing(household, client_of):
    first = play(GameFactory(owner=household), [(Box.CHANCE, (6, 6, 6, 6, 5))])
    second = play(GameFactory(owner=household), [(Box.CHANCE, (1, 1, 1, 2, 2))])
    assert first.version == second.version
    client_of.get(game_url(first))
    page = client_of.get(game_url(second))
    grid, standings = region(page, "boxes"), region(page, "standings")
    assert second.public_id in grid and first.public_id not in grid
    assert ">7<" in grid and ">29<" not in grid
    assert ">7<" in standings and ">29<" not in standings


def test_the_win_column_drawn_for_advice_is_never_shown_to_a_browser_without_it(
    played, monkeypatch
):
    monkeypatch.setattr(advisor, "win_chances_shown", lambda progress: True)
    chances = {seat.pk: "50%" for seat in played.seats.all()}
    monkeypatch.setattr(advisor, "win_column", lambda progress: chances)
    advised, plain = browser_of(played.owner), browser_of(played.owner)
    advised.cookies["advice"] = "on"
    for _ in range(2):  # each drawn, then each from the cache
        assert '<th scope="col">Win</th>' in region(advised.get(game_url(played)), "standings")
        assert "Win</th>" not in region(plain.get(game_url(played)), "standings")


def test_a_drawing_of_another_version_is_never_served():
    fragments.store("fragment:test", 3, "<p>version 3</p>")
    assert fragments.stored("fragment:test", 4) is None
    assert fragments.stored("fragment:test", 3) == "<p>version 3</p>"
    assert fragments.kept("fragment:test", 4, lambda: "<p>version 4</p>") == "<p>version 4</p>"
    assert fragments.stored("fragment:test", 3) is None


def test_watchers_polling_after_an_entry_cost_one_drawing_for_the_version(
    played, django_assert_num_queries, drawn
):
    watch = link_address(played, LinkRole.WATCH)
    first, first_drew = drew_the_grid(
        drawn, lambda: Client().get(watch, {"live": "1"}, headers=POLL)
    )
    assert first.status_code == 200 and first["ETag"] == f'"{played.version}"'
    drawn.clear()
    with django_assert_num_queries(1):
        second = Client().get(watch, {"live": "1"}, headers=POLL)
    assert first_drew and not drawn  # nothing drawn at all
    assert second.content == first.content and second["ETag"] == first["ETag"]
    assert second["Cache-Control"] == first["Cache-Control"]


def test_a_watcher_s_poll_after_a_new_entry_shows_the_new_entry(played, client_of):
    watch = link_address(played, LinkRole.WATCH)
    before = Client().get(watch, {"live": "1"}, headers=POLL)
    post_box(client_of, played, Box.YAHTZEE, (5, 5, 5, 5, 5))
    after = Client().get(watch, {"live": "1"}, headers=POLL)
    assert after["ETag"] == f'"{played.version + 1}"' != before["ETag"]
    assert ">62<" in after.content.decode()  # 12 in Fours and 50 in Yahtzee
    assert ">62<" not in before.content.decode()


def test_no_kept_drawing_holds_a_csrf_token_or_a_tap_key(played, monkeypatch):
    kept = []
    keep = fragments.store
    monkeypatch.setattr(fragments, "store", lambda *entry: kept.append(entry) or keep(*entry))
    browser_of(played.owner).get(game_url(played))
    Client().get(link_address(played, LinkRole.WATCH), {"live": "1"}, headers=POLL)
    regions = {re.search(r'id="([a-z-]+)"', markup).group(1) for _key, _v, markup in kept}
    assert {"standings", "boxes", "turn"} <= regions  # the watcher's answer begins with the turn
    for _key, _version, markup in kept:
        assert "csrfmiddlewaretoken" not in markup and "idempotency_key" not in markup


def test_a_cache_that_does_not_answer_costs_a_fresh_drawing_not_the_page(
    played, monkeypatch, drawn
):
    owner = browser_of(played.owner)
    owner.get(game_url(played))  # the phone's first page, whose blank lines are left out
    before = owner.get(game_url(played))

    def lose_the_cache(*args, **kwargs):
        raise CacheConnectionError("Error 111 connecting to 10.0.0.5:6379. Connection refused.")

    monkeypatch.setattr(fragments.cache, "get", lose_the_cache)
    monkeypatch.setattr(fragments.cache, "set", lose_the_cache)
    page, drew = drew_the_grid(drawn, lambda: owner.get(game_url(played)))
    assert page.status_code == 200 and drew
    assert region(page, "boxes") == region(before, "boxes")
    watch = link_address(played, LinkRole.WATCH)
    assert Client().get(watch, {"live": "1"}, headers=POLL).status_code == 200


def test_a_per_version_block_is_drawn_once_per_version_and_per_value_named():
    drawings = []
    block = engines["jinja2"].from_string(
        '{% call per_version("test", game, oob) %}<p>{{ draw() }}</p>{% endcall %}'
    )

    def answer(version: int, oob: bool = False) -> str:
        game = SimpleNamespace(public_id="g1", version=version)
        return block.render({"game": game, "oob": oob, "draw": lambda: drawings.append(1) or 1})

    assert answer(1) == answer(1) == "<p>1</p>" and len(drawings) == 1
    answer(1, oob=True)
    answer(2)
    assert len(drawings) == 3
