"""Share links and households: every role on every address of a game, the share and
household pages, and the hygiene of pages reached by a link token."""

import logging
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from scorecard.access import sharing
from scorecard.engine.rules import Box
from scorecard.models import Browser, Game, GameLink, LinkRole
from scorecard.presenters.box_names import box_name
from tests.factories import GameFactory, HouseholdFactory, play
from tests.helpers import HTMX, browser_of, gunicorn_access_line, text

# Every address of a game: (method, path after the prefix and key).
ACTIONS = {
    "page": ("get", ""),
    "poll": ("get", "?live=1"),
    "sheet": ("get", "sheet/"),
    "record": ("post", "record/"),
    "roll": ("post", "roll/"),
    "undo": ("post", "undo/"),
    "correct": ("get", "turns/1/correct/"),
    "correct-post": ("post", "turns/1/correct/"),
    "review": ("get", "review/"),
    "export": ("get", "export.json"),
    "rematch": ("post", "rematch/"),
    "share": ("get", "share/"),
    "share-post": ("post", "share/"),
}
# What each address family answers (anything but a 404) for the key it was made for.
OPEN_TO = {
    "games": set(ACTIONS),
    "score": {"page", "poll", "sheet", "record", "roll", "undo", "correct", "correct-post"},
    "watch": {"page", "poll", "sheet"},
}
PREFIXES = ("games", "score", "watch")


def _data(game: Game, action: str) -> dict:
    game.refresh_from_db()
    turn = game.entries.count() + 1
    return {
        "record": {"version": game.version, "turn": turn, "box": "chance", "dice": "12346"},
        "roll": {"version": game.version, "turn": turn},
        "undo": {"version": game.version},
        "correct-post": {"version": game.version, "dice": "44412"},
        "share-post": {"role": "watch", "action": "new"},
    }.get(action, {})


def _try(client: Client, game: Game, prefix: str, key: str, action: str) -> int:
    method, rest = ACTIONS[action]
    url = f"/{prefix}/{key}/{rest}"
    game.refresh_from_db()
    headers = HTMX | {"If-None-Match": f'"{game.version}"'} if action == "poll" else {}
    return getattr(client, method)(url, _data(game, action), headers=headers).status_code


@pytest.fixture
def shared(game, client_of):
    """A game with one entry, its two links, and every kind of visitor with their key."""
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    replaced = sharing.link_renew(game=game, role=LinkRole.SCORE).token
    score = sharing.link_renew(game=game, role=LinkRole.SCORE)  # the first stops working
    revoked = sharing.link_renew(game=game, role=LinkRole.WATCH).token
    sharing.link_revoke(game=game, role=LinkRole.WATCH)
    watch = sharing.link_renew(game=game, role=LinkRole.WATCH)
    return {
        "owner": (client_of, game.public_id, "games"),
        "scorer": (Client(), score.token, "score"),
        "watcher": (Client(), watch.token, "watch"),
        "stranger": (browser_of(HouseholdFactory()), game.public_id, None),
        "replaced score link": (Client(), replaced, None),
        "revoked watch link": (Client(), revoked, None),
        "guessed token": (Client(), "A" * 32, None),
    }


def _state(game: Game) -> tuple:
    game.refresh_from_db()
    links = sorted(GameLink.objects.values_list("role", "token"))
    return (
        game.version,
        list(game.entries.values_list("box", "points")),
        links,
        Game.objects.count(),
    )


@pytest.mark.parametrize(
    "who",
    ["owner", "scorer", "watcher", "stranger", "replaced score link", "revoked watch link",
     "guessed token"],
)  # fmt: skip
def test_each_role_reaches_exactly_its_own_addresses(shared, game, who):
    client, key, allowed_prefix = shared[who]
    answered, expected = {}, {}
    for prefix in PREFIXES:
        for action in ACTIONS:
            before = _state(game)
            status = _try(client, game, prefix, key, action)
            allowed = prefix == allowed_prefix and action in OPEN_TO[prefix]
            answered[prefix, action] = "404" if status == 404 else "answered"
            expected[prefix, action] = "answered" if allowed else "404"
            if not allowed:
                assert _state(game) == before, (prefix, action)  # nothing changed or made
            else:
                assert status in {200, 302, 304, 400, 409}, (prefix, action, status)
    assert answered == expected


def test_a_scorer_records_and_stays_on_the_score_address(shared, game):
    client, token, _ = shared["scorer"]
    response = client.post(f"/score/{token}/record/", _data(game, "record"))
    assert response.status_code == 302 and response.url == f"/score/{token}/"
    assert game.entries.count() == 2
    page = text(client.get(f"/score/{token}/"))
    assert f'href="/score/{token}/?' in page and f"/games/{game.public_id}" not in page
    typed = text(client.get(f"/score/{token}/?typed=1"))  # the typed points' form, opened
    assert f'action="/score/{token}/record/"' in typed and f"/games/{game.public_id}" not in typed
    for owner_only in ("Share", "Rematch", "/players/", "export"):
        assert owner_only not in page, owner_only


def test_a_watcher_sees_the_standings_and_no_control(shared, game):
    client, token, _ = shared["watcher"]
    response = client.get(f"/watch/{token}/")
    page = text(response)
    assert response.status_code == 200 and "You are watching" in page
    assert 'id="standings"' in page and 'id="boxes"' in page
    turn = page.split('id="turn"')[1].split("</section>")[0]
    assert "<form" not in turn and "correct/" not in page
    assert f"/games/{game.public_id}" not in page and "/score/" not in page
    assert f'data-live="/watch/{token}/"' in page


def test_a_watchers_sheet_leads_back_to_the_watch_page(shared, game):
    client, token, _ = shared["watcher"]
    page = text(client.get(f"/watch/{token}/sheet/"))
    assert f'<a href="/watch/{token}/">Back to the game</a>' in page
    assert f"/games/{game.public_id}" not in page


def test_the_owner_makes_renews_and_revokes_links_from_the_share_page(client_of, game):
    url = reverse("game-share", args=[game.public_id])
    page = text(client_of.get(url))
    assert "Make a watch link" in page and "Make a score link" in page
    assert client_of.post(url, {"role": "score", "action": "new"}).status_code == 302
    first = GameLink.objects.get(role="score").token
    page = text(client_of.get(url))
    assert f"/score/{first}/" in page and 'src="data:image/svg+xml' in page
    # Described by their section's heading: one of two "Revoke"s, of two "Share the link"s.
    assert 'value="revoke" class="danger" aria-describedby="share-score">Revoke' in page
    assert 'aria-describedby="share-score">Share the link</button>' in page
    client_of.post(url, {"role": "score", "action": "new"})
    second = GameLink.objects.get(role="score").token
    assert second != first and Client().get(f"/score/{first}/").status_code == 404
    client_of.post(url, {"role": "score", "action": "revoke"})
    assert not GameLink.objects.exists() and Client().get(f"/score/{second}/").status_code == 404


def test_a_renewed_or_revoked_link_is_said_once_on_the_share_page(client_of, game):
    """Found by a new user: Revoke took the link away without a word."""
    url = reverse("game-share", args=[game.public_id])
    made = text(client_of.post(url, {"role": "watch", "action": "new"}, follow=True))
    assert "The watch link is made: another phone opens it" in made  # where the focus lands
    assert "no longer opens" not in made
    renewed = text(client_of.post(url, {"role": "watch", "action": "new"}, follow=True))
    assert "A new watch link is made: the one before it no longer opens this game." in renewed
    revoked = text(client_of.post(url, {"role": "watch", "action": "revoke"}, follow=True))
    assert "The watch link is revoked: it no longer opens this game, on any phone." in revoked
    assert "no longer opens" not in text(client_of.get(url))  # once


def test_a_revoked_link_opened_again_says_it_was_revoked(client_of, game):
    """The open page says so at its next poll; a reload said only "Not found"."""
    link = sharing.link_renew(game=game, role=LinkRole.WATCH)
    client_of.post(
        reverse("game-share", args=[game.public_id]), {"role": "watch", "action": "revoke"}
    )
    for address in [f"/watch/{link.token}/", f"/watch/{link.token}/sheet/"]:
        reloaded = Client().get(address)
        assert reloaded.status_code == 404
        assert "This link no longer works: it was replaced or revoked" in text(reloaded)
    mistyped = Client().get(f"/games/{game.public_id}x/")
    assert mistyped.status_code == 404 and "no longer works" not in text(mistyped)


@pytest.mark.parametrize("data", [{}, {"role": "admin", "action": "new"}, {"role": "watch"}])
def test_a_share_page_post_that_names_nothing_is_refused_in_place(client_of, game, data):
    response = client_of.post(reverse("game-share", args=[game.public_id]), data)
    assert response.status_code == 400 and "Choose a link" in text(response)
    assert not GameLink.objects.exists()


def test_link_tokens_are_long_random_and_never_repeat(game):
    tokens = {sharing.link_renew(game=game, role=LinkRole.SCORE).token for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(token) >= 32 for token in tokens)  # 24 bytes from secrets: 192 bits


@pytest.mark.parametrize("prefix", ["score", "watch"])
def test_link_pages_keep_their_address_private(shared, game, prefix):
    client, token, _ = shared["scorer" if prefix == "score" else "watcher"]
    for url in (f"/{prefix}/{token}/", f"/{prefix}/{token}/sheet/", f"/{prefix}/{'B' * 32}/"):
        response = client.get(url)
        assert response.headers["Referrer-Policy"] == "same-origin", url
        assert response.headers["Cache-Control"] == "private, no-store", url
        assert "noindex" in response.headers["X-Robots-Tag"], url


def test_pages_that_show_tokens_keep_them_private_too(client_of, game):
    join = _join_link(client_of)
    for url in (reverse("game-share", args=[game.public_id]), reverse("household"), join):
        response = client_of.get(url)
        # Not "no-referrer": under it a browser posts these pages' forms with `Origin: null`,
        # which the CSRF check refuses (tests/browser/test_sharing.py has both sides).
        assert response.headers["Referrer-Policy"] == "same-origin", url
        assert response.headers["Cache-Control"] == "private, no-store", url
    ordinary = client_of.get(reverse("game", args=[game.public_id]))
    assert ordinary.headers["Referrer-Policy"] == "same-origin"


def test_robots_keep_crawlers_off_games_and_links(db):
    response = Client().get("/robots.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    for path in ("/games/", "/score/", "/watch/", "/join/", "/household/"):
        assert f"Disallow: {path}" in lines


# Households: joined by link, browsers listed and removed.


def _join_link(client: Client) -> str:
    client.post(reverse("household"), {"action": "new-join-link"})
    household_page = text(client.get(reverse("household")))
    token = household_page.split("/join/")[1].split("/")[0]
    return f"/join/{token}/"


def test_a_browser_joined_by_link_sees_the_households_games(client_of, game):
    join = _join_link(client_of)
    newcomer = Client(HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Safari/537")
    asked = newcomer.get(join)
    assert asked.status_code == 200 and "Join the household" in text(asked)
    assert Browser.objects.count() == 1  # opening the link changes nothing
    joined = newcomer.post(join)
    assert joined.status_code == 302 and settings.HOUSEHOLD_COOKIE in joined.cookies
    assert newcomer.get(reverse("game", args=[game.public_id])).status_code == 200
    assert game.public_id in text(newcomer.get(reverse("games")))
    names = text(client_of.get(reverse("household")))
    assert "Chrome on Android" in names and "This browser" in names


def test_alike_phones_that_join_are_told_apart_on_the_household_page(client_of, game):
    """Found by a new user: two phones listed as "Chrome on Linux", down to their Remove."""
    join = _join_link(client_of)
    android = {"HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Safari/537"}
    for _ in range(3):
        Client(**android).post(join)
    names = list(Browser.objects.order_by("joined").values_list("name", flat=True))
    assert names[1:] == ["Chrome on Android", "Chrome on Android (2)", "Chrome on Android (3)"]
    assert "Remove Chrome on Android (2)" in text(client_of.get(reverse("household")))


def test_a_removed_browser_is_shut_out_at_once(client_of, game):
    join = _join_link(client_of)
    newcomer = Client()
    newcomer.post(join)
    added = Browser.objects.latest("joined")
    response = client_of.post(reverse("household"), {"action": "remove", "browser": added.pk})
    assert response.status_code == 302 and not Browser.objects.filter(pk=added.pk).exists()
    assert newcomer.get(reverse("game", args=[game.public_id])).status_code == 404
    assert game.public_id not in text(newcomer.get(reverse("games")))
    assert client_of.get(reverse("game", args=[game.public_id])).status_code == 200


def test_a_removed_browser_cannot_come_back_by_a_game_link_it_kept(client_of, game):
    """Found by a helper: a removed phone scored through the score link it had made while it
    was a member. Removing a browser replaces every game link of the household (the phone
    may have kept any of them) and says so; the new ones work."""
    newcomer = Client()
    newcomer.post(_join_link(client_of))
    kept = {
        role: sharing.link_renew(game=game, role=role).token
        for role in (LinkRole.SCORE, LinkRole.WATCH)
    }
    added = Browser.objects.latest("joined")
    client_of.post(reverse("household"), {"action": "remove", "browser": added.pk})
    assert newcomer.get(f"/score/{kept[LinkRole.SCORE]}/").status_code == 404
    assert newcomer.get(f"/watch/{kept[LinkRole.WATCH]}/").status_code == 404
    record = newcomer.post(f"/score/{kept[LinkRole.SCORE]}/record/", _data(game, "record"))
    assert record.status_code == 404 and not game.entries.exists()
    renewed = {link.role: link.token for link in GameLink.objects.filter(game=game)}
    assert set(renewed) == {"score", "watch"} and set(renewed.values()).isdisjoint(kept.values())
    assert Client().get(f"/score/{renewed['score']}/").status_code == 200
    page = text(client_of.get(reverse("household")))
    assert "the join link and the games’ score and watch links are new ones" in page


def test_remove_asks_first_and_changes_nothing_until_yes(client_of, game):
    """Found by a new user: one tap removed a family member's browser mid-game."""
    Client().post(_join_link(client_of))
    added = Browser.objects.latest("joined")
    page = text(client_of.get(reverse("household")))
    assert f'href="?remove={added.pk}"' in page  # its question takes the focus: no #
    assert "from the household?" not in page
    asked = text(client_of.get(reverse("household"), {"remove": added.pk}))
    assert f"Remove {added.name} from the household?" in asked
    assert f'<button name="action" value="remove" class="danger">Yes, remove {added.name}' in asked
    assert Browser.objects.filter(pk=added.pk).exists()  # asking changes nothing
    this = Browser.objects.earliest("joined")  # never asked about itself, nor a stranger
    for other in (this.pk, 10**12, "x"):
        assert "from the household?" not in text(
            client_of.get(reverse("household"), {"remove": other})
        )


def test_a_removed_browser_cannot_come_back_by_the_join_link_it_kept(client_of, game):
    """The removed browser knew the join link: removing it replaces the link, says so, and
    the old address lets nobody in, the removed browser least of all."""
    join = _join_link(client_of)
    newcomer = Client()
    newcomer.post(join)
    added = Browser.objects.latest("joined")
    client_of.post(reverse("household"), {"action": "remove", "browser": added.pk})
    page = text(client_of.get(reverse("household")))
    assert "A browser is removed, and the join link is a new one" in page
    assert join not in page and "/join/" in page
    assert newcomer.get(join).status_code == 404
    assert newcomer.post(join).status_code == 404
    assert newcomer.get(reverse("game", args=[game.public_id])).status_code == 404
    assert Browser.objects.filter(household=game.owner).count() == 1
    assert "is removed" not in text(client_of.get(reverse("household")))  # said once


def test_removing_a_browser_makes_no_join_link_where_there_was_none(client_of, game):
    join = _join_link(client_of)
    Client().post(join)
    client_of.post(reverse("household"), {"action": "revoke-join-link"})
    added = Browser.objects.latest("joined")
    client_of.post(reverse("household"), {"action": "remove", "browser": added.pk})
    game.owner.refresh_from_db()
    assert game.owner.join_token is None
    page = text(client_of.get(reverse("household")))
    assert "A browser is removed." in page and "/join/" not in page


def test_a_browser_cannot_remove_itself_or_another_households(client_of, game):
    own = Browser.objects.get()
    other = Browser.objects.create(household=HouseholdFactory(), name="Theirs")
    said = {
        own: "This browser cannot remove itself: another browser of the household can.",
        other: "That browser is no longer in this household.",  # as good as gone, to this one
    }
    for browser, refusal in said.items():
        response = client_of.post(reverse("household"), {"action": "remove", "browser": browser.pk})
        assert response.status_code == 400 and refusal in text(response)
    assert Browser.objects.count() == 2


def test_a_new_join_link_stops_the_old_one_but_keeps_who_joined(client_of, game):
    first = _join_link(client_of)
    member = Client()
    member.post(first)
    second = _join_link(client_of)
    assert second != first and Client().get(first).status_code == 404
    assert Client().post(first).status_code == 404 and Browser.objects.count() == 2
    assert member.get(reverse("game", args=[game.public_id])).status_code == 200


def test_each_change_of_the_join_link_is_said_when_the_page_comes_back(client_of, game):
    """Found by an accessibility tester: Make a join link left the focus at the top of the
    page, scrolled down, with nothing said."""
    said = []
    for action in ("new-join-link", "new-join-link", "revoke-join-link"):
        page = client_of.post(reverse("household"), {"action": action}, follow=True)
        notice = 'role="status" id="told" tabindex="-1" autofocus>'
        said.append(text(page).split(notice)[1].split("<")[0])
    assert said == [
        "The join link is made: open it on the phone that should join.",
        "A new join link is made: the old one lets nobody in.",
        "The join link is revoked: it lets nobody in.",
    ]


def test_joining_again_from_a_browser_already_in_the_household_just_goes_home(client_of, game):
    join = _join_link(client_of)
    member = Client()
    assert member.post(join).url == reverse("home")
    again = member.post(join)  # the button pressed twice, or the post sent again from history
    assert again.status_code == 302 and again.url == reverse("home")
    assert Browser.objects.count() == 2


def test_a_revoked_join_link_is_not_found(client_of):
    join = _join_link(client_of)
    client_of.post(reverse("household"), {"action": "revoke-join-link"})
    assert Client().get(join).status_code == 404


def test_joining_warns_a_browser_that_has_games_of_its_own(client_of, game):
    join = _join_link(client_of)
    elsewhere = HouseholdFactory()
    GameFactory(owner=elsewhere, names=["Zed"])
    page = text(browser_of(elsewhere).get(join))
    assert "This browser already belongs to another household, with 1 game." in page
    assert "No other browser belongs to the old household" in page
    assert 'href="/games/export.json"' in page and "stay with the old household" not in page
    # A way out that is not the join (a new user found only the Join button there).
    assert '<a class="button" href="/">Stay in this browser’s household</a>' in page
    assert "Stay in this browser’s household" not in text(client_of.get(join))  # no games
    Browser.objects.create(household=elsewhere, name="Tablet")
    page = text(browser_of(elsewhere).get(join))
    assert "stay with the old household’s other browsers" in page and "export them" not in page


def _rename(client: Client, browser: Browser, name: str):
    return client.post(
        reverse("household"), {"action": "rename", "browser": browser.pk, "name": name}
    )


def test_the_household_tells_its_browsers_apart(client_of, household, game):
    own = Browser.objects.get()
    Browser.objects.filter(pk=own.pk).update(name="Chrome on Linux")
    hours_ago = timezone.now() - timedelta(hours=5)
    Browser.objects.create(household=household, name="Chrome on Android", last_seen=hours_ago)
    Browser.objects.create(household=household, name="Firefox on Linux")
    page = text(client_of.get(reverse("household")))
    assert page.count("This browser") == 1
    assert "seen within the hour" in page and "last seen 5 hours ago" in page
    assert "Remove Chrome on Android, joined" in page and "Remove Chrome on Linux" not in page


def test_a_browser_is_renamed_by_its_household(client_of, household, game):
    other = Browser.objects.create(household=household, name="Chrome on Linux")
    response = _rename(client_of, other, "  Kitchen\ttablet ")
    assert response.status_code == 302 and response.url == reverse("household") + "#told"
    other.refresh_from_db()
    assert other.name == "Kitchen tablet"
    assert (
        _rename(client_of, Browser.objects.exclude(pk=other.pk).get(), "Ann’s phone").status_code
        == 302
    )
    page = text(client_of.get(reverse("household")))
    # Said, and said first: a keyboard or a screen reader was left at the top, told nothing.
    notice = 'role="status" id="told" tabindex="-1" autofocus>'
    assert f"{notice}The browser is now called Kitchen tablet." in page
    assert "The browser is now called Ann’s phone.</p>" in page and "Ann’s phone" in page


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Give the browser a name."),
        ("  \t ", "Give the browser a name."),
        ("x" * 61, "A name has at most 60 characters."),
        ("Bell\x07", "A name cannot hold invisible or control characters."),
        ("chrome on LINUX", "Another browser of this household is already called"),
    ],
)
def test_a_bad_browser_name_is_refused_in_place_and_kept_to_correct(
    client_of, household, game, name, message
):
    Browser.objects.create(household=household, name="Chrome on Linux")
    own = Browser.objects.exclude(name="Chrome on Linux").get()
    response = _rename(client_of, own, name)
    page = text(response)
    assert response.status_code == 400 and message in page
    assert 'role="alert"' in page and 'aria-invalid="true"' in page
    if name.strip():
        assert f'value="{escape(name)}"' in page  # what was typed is still there to correct
    assert sorted(Browser.objects.values_list("name", flat=True)) == ["Chrome on Linux", "Test"]


@pytest.mark.parametrize("browser", ["", "abc", "9" * 30, "-1"])
def test_a_rename_that_names_no_browser_is_refused_in_place(client_of, game, browser):
    data = {"action": "rename", "browser": browser, "name": "Kitchen"}
    response = client_of.post(reverse("household"), data)
    assert response.status_code == 400 and "not something this page can do" in text(response)
    assert list(Browser.objects.values_list("name", flat=True)) == ["Test"]


def test_a_browser_of_another_household_is_never_renamed(client_of, game):
    theirs = Browser.objects.create(household=HouseholdFactory(), name="Theirs")
    response = _rename(client_of, theirs, "Mine now")
    assert response.status_code == 400 and "no longer in this household" in text(response)
    theirs.refresh_from_db()
    assert theirs.name == "Theirs"


def test_the_household_page_before_any_game_explains_itself(db):
    response = Client().get(reverse("household"))
    assert response.status_code == 200 and "join link" in text(response)
    assert Client().post(reverse("household"), {"action": "new-join-link"}).status_code == 200


def test_an_unknown_household_action_is_refused_in_place(client_of, game):
    response = client_of.post(reverse("household"), {"action": "explode"})
    assert response.status_code == 400 and "not something this page can do" in text(response)


def test_cookies_made_before_browsers_existed_keep_working(db):
    from importlib import import_module

    from django.apps import apps

    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Old"])
    Browser.objects.all().delete()
    migration = import_module("scorecard.migrations.0005_share_links_and_browsers")
    migration.keep_existing_cookies(apps, None)
    old = Client()
    signed = HttpResponse()
    signed.set_signed_cookie(settings.HOUSEHOLD_COOKIE, household.public_id)
    old.cookies[settings.HOUSEHOLD_COOKIE] = signed.cookies[settings.HOUSEHOLD_COOKIE].value
    assert old.get(reverse("game", args=[game.public_id])).status_code == 200


# Tokens never reach a log line or an error report.


def test_django_log_handlers_print_link_paths_without_the_token(shared):
    _, token, _ = shared["watcher"]
    record = logging.LogRecord("django.server", logging.INFO, __file__, 1,
                               '"GET /watch/%s/ HTTP/1.1" 200 1234', (token,), None)  # fmt: skip
    loggers = [logging.getLogger(name) for name in ("django.server", "django", "")]
    ours = ("logging", "django.utils.log")  # not the handlers pytest adds to capture logs
    handlers = {h for logger in loggers for h in logger.handlers if type(h).__module__ in ours}
    assert len(handlers) >= 3
    for handler in handlers:
        copy = logging.makeLogRecord(record.__dict__)
        assert handler.filter(copy)
        assert token not in copy.getMessage() and "/watch/[token]/" in copy.getMessage()


def test_an_error_report_hides_the_token(shared, monkeypatch, settings):
    from scorecard.views import play as play_views

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(play_views, "load_progress", broken)
    _, token, _ = shared["watcher"]
    settings.DEBUG = True  # the debug page is the report the admins' e-mail carries
    response = Client(raise_request_exception=False).get(f"/watch/{token}/")
    assert response.status_code == 500 and "a bug" in response.content.decode()
    assert token not in response.content.decode()
    mail = next(
        h for h in logging.getLogger("django").handlers if type(h).__name__ == "AdminEmailHandler"
    )
    assert mail.reporter_class.__name__ == "RedactingExceptionReporter"


def test_gunicorns_access_log_hides_the_token(shared):
    _, token, _ = shared["scorer"]
    referer = {"Referer": f"https://example.org/score/{token}/"}
    line = gunicorn_access_line(f"/score/{token}/?live=1", referer)
    assert token not in line
    assert '"GET /score/[token]/" 200' in line
    printing_the_referer = gunicorn_access_line(f"/score/{token}/", referer, "%(U)s %({referer}i)s")
    assert printing_the_referer == "/score/[token]/ https://example.org/score/[token]/"


@pytest.mark.parametrize("who", ["owner", "scorer", "watcher"])
def test_an_unchanged_poll_is_a_304_without_a_body_from_one_query(
    shared, game, who, django_assert_max_num_queries
):
    client, key, prefix = shared[who]
    game.refresh_from_db()
    headers = HTMX | {"If-None-Match": f'"{game.version}"'}
    with django_assert_max_num_queries(1):
        response = client.get(f"/{prefix}/{key}/", {"live": "1"}, headers=headers)
    assert response.status_code == 304 and response.content == b""


@pytest.mark.parametrize("who", ["owner", "scorer", "watcher"])
def test_a_poll_after_changes_brings_every_region_out_of_band(shared, game, who):
    client, key, prefix = shared[who]
    game.refresh_from_db()
    seen = game.version
    Client().post(f"/score/{shared['scorer'][1]}/undo/", _data(game, "undo"))
    headers = HTMX | {"If-None-Match": f'"{seen}"'}
    response = client.get(f"/{prefix}/{key}/", {"live": "1"}, headers=headers)
    page = text(response)
    assert response.status_code == 200 and response.headers["ETag"] == f'"{seen + 1}"'
    for region in ("turn", "standings", "boxes"):
        assert f'<section id="{region}"' in page and page.count('hx-swap-oob="true"') >= 3
    assert f'data-version="{seen + 1}"' in page and "Ann’s turn" in page


@pytest.mark.parametrize("who", ["owner", "scorer", "watcher"])
def test_a_poll_one_entry_behind_brings_the_turn_and_what_the_entry_changed(shared, game, who):
    client, key, prefix = shared[who]
    game.refresh_from_db()
    seen = game.version
    Client().post(f"/score/{shared['scorer'][1]}/record/", _data(game, "record"))
    headers = HTMX | {"If-None-Match": f'"{seen}"'}
    response = client.get(f"/{prefix}/{key}/", {"live": "1"}, headers=headers)
    page = text(response)
    assert response.status_code == 200 and response.headers["ETag"] == f'"{seen + 1}"'
    assert '<section id="turn"' in page and '<tbody id="standings-rows" hx-swap-oob="true">' in page
    assert '<tr id="r18" class="sum" hx-swap-oob="true">' in page  # the grand total moved
    assert '<section id="standings"' not in page and '<section id="boxes"' not in page
    assert f'data-version="{seen + 1}"' in page and "Ann’s turn" in page
    # What the other phone recorded is said where this one's turn changed under it.
    last = game.entries.latest("turn")
    said = f"{last.seat.player.name}: {box_name(last.rules_box)} {last.points}"
    if who == "watcher":  # shown by the panel, said by the live region that stays on the page
        assert f'<p class="notice" id="turn-notice">{said}</p>' in page
        assert f'<p id="watch-told" hx-swap-oob="innerHTML">{said}</p>' in page
    else:
        assert f'<p class="notice" role="status" id="turn-notice">{said}</p>' in page
        assert "watch-told" not in page


@pytest.mark.parametrize("who", ["owner", "scorer"])
def test_a_poll_says_the_dice_its_page_entered_for_a_turn_recorded_elsewhere_went(
    shared, game, who
):
    """Dice half entered on a page (its address says for which turn) go with the panel a
    poll replaces once another phone recorded that turn; its note says so after the entry's."""
    client, key, prefix = shared[who]
    game.refresh_from_db()
    seen, turn = game.version, game.entries.count() + 1
    Client().post(f"/score/{shared['scorer'][1]}/record/", _data(game, "record"))
    page = f"http://testserver/{prefix}/{key}/"

    def notice(shown: str) -> str:
        headers = HTMX | {"If-None-Match": f'"{seen}"', "HX-Current-URL": page + shown}
        answer = text(client.get(f"/{prefix}/{key}/", {"live": "1"}, headers=headers))
        return re.search(r'id="turn-notice">([^<]*)<', answer).group(1)

    last = game.entries.latest("turn")
    said = f"{last.seat.player.name}: {box_name(last.rules_box)} {last.points}"
    cleared = f"{said}. The dice entered for that turn were cleared."
    assert notice(f"?dice=55&turn={turn}").startswith(cleared)
    assert notice(f"?dice=55&turn={turn + 1}") == notice("") == said  # this turn's, or none


def test_a_poll_after_another_phones_undo_says_the_dice_entered_here_went(shared, game):
    """Found by a tester: Bob's dice half entered on the owner's phone went when the score
    link undid Ann's turn, and the page said only "Undone: …"."""
    client, key, prefix = shared["owner"]
    game.refresh_from_db()
    seen, turn = game.version, game.entries.count() + 1
    Client().post(f"/score/{shared['scorer'][1]}/undo/", _data(game, "undo"))
    shown = f"http://testserver/{prefix}/{key}/?dice=11122&turn={turn}"
    headers = HTMX | {"If-None-Match": f'"{seen}"', "HX-Current-URL": shown}
    answer = text(client.get(f"/{prefix}/{key}/", {"live": "1"}, headers=headers))
    said = re.search(r'id="turn-notice">([^<]*)<', answer).group(1)
    assert re.fullmatch(r"Undone: \w+’s [\w ]+ \(\d+\)\. The card changed since these .*", said)


def test_a_removed_browser_is_told_so_where_its_games_were(client_of, game):
    """Not greeted as a browser with no games yet (found by a new user): the start page, the
    games list and its old game's address say it was removed."""
    join = _join_link(client_of)
    removed = Client()
    removed.post(join)
    client_of.post(
        reverse("household"), {"action": "remove", "browser": Browser.objects.latest("joined").pk}
    )
    said = "This browser was removed from its household"
    assert said in text(removed.get(reverse("home")))
    assert said in text(removed.get(reverse("games")))
    assert said in text(removed.get(reverse("household")))  # it said "keeps no games yet"
    page = removed.get(reverse("game", args=[game.public_id]))
    assert page.status_code == 404 and "it was removed from the household" in text(page)
    for stranger in (Client(), client_of):  # a new browser, and one still in the household
        assert said not in text(stranger.get(reverse("home")))
        assert said not in text(stranger.get(reverse("games")))
        assert said not in text(stranger.get(reverse("household")))
    assert "removed from the household" not in text(Client().get(f"/games/{game.public_id}/"))


def test_a_browser_that_joins_is_told_so_once_on_the_start_page(client_of, game):
    """A newcomer lands on the start page after joining; without a word there, a new user
    could not tell the tap had worked."""
    join = _join_link(client_of)
    newcomer = Client()
    landed = newcomer.post(join, follow=True)
    assert "This browser has joined the household" in text(landed)
    assert "This browser has joined the household" not in text(newcomer.get(reverse("home")))


def test_a_watcher_hears_of_a_rematch_from_its_live_region(household):
    """The panel says the table started a new game, but a status that comes with a swapped
    panel may go unsaid: a watcher's live region, which stays on the page, says it."""
    from tests.helpers import finished_game

    game = finished_game(household)
    token = sharing.link_renew(game=game, role=LinkRole.WATCH).token
    seen = Game.objects.get(pk=game.pk).version
    browser_of(household).post(reverse("game-rematch", args=[game.public_id]))
    headers = HTMX | {"If-None-Match": f'"{seen}"'}
    page = text(Client().get(reverse("watch", args=[token]), {"live": "1"}, headers=headers))
    started = "The table has started a new game with the same players."
    assert f'<p id="watch-told" hx-swap-oob="innerHTML">{started}</p>' in page
    assert '<p class="notice">' in page and '<p class="notice" role="status">' not in page


def test_a_removed_browsers_pages_tell_it_to_clear_what_the_site_kept(client_of, game):
    """Its saved game pages and service worker go with the first page it opens (a helper
    opened them offline after removal); a member's pages, and fragments, clear nothing."""
    newcomer = Client()
    newcomer.post(_join_link(client_of))
    assert "Clear-Site-Data" not in newcomer.get(reverse("home")).headers
    added = Browser.objects.latest("joined")
    client_of.post(reverse("household"), {"action": "remove", "browser": added.pk})
    for page in ("home", "games", "rules"):
        assert newcomer.get(reverse(page)).headers["Clear-Site-Data"] == '"cache", "storage"'
    assert "Clear-Site-Data" not in newcomer.get(reverse("games"), headers=HTMX).headers
    assert "Clear-Site-Data" not in client_of.get(reverse("home")).headers
