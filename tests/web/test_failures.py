"""A failed htmx request's answer says what happened in words, in the phone's language, so
the page carries only the words for no answer at all (web/failures.py, static/js/requests.js)."""

from scorecard.engine.rules import Box
from tests.factories import play
from tests.helpers import HTMX, game_url, post_box, text


def test_a_failed_htmx_request_is_answered_in_words_in_the_phones_language(client_of, game):
    gone = game_url(game).replace(game.public_id, "no-such-game")
    english = client_of.get(gone, headers=HTMX)
    assert english.status_code == 404
    assert english["Content-Type"] == "text/plain; charset=utf-8"
    assert english.content.decode() == (
        "Not found: this game or link no longer exists. Nothing was changed."
    )
    swedish = client_of.get(gone, headers=HTMX | {"Accept-Language": "sv"})
    assert swedish.status_code == 404 and "<" not in swedish.content.decode()
    assert swedish.content.decode() != english.content.decode()


def test_a_post_past_its_csrf_token_is_said_as_out_of_date(client_of, game):
    client_of.handler.enforce_csrf_checks = True
    response = client_of.post(game_url(game, "game-undo"), {"version": 0}, headers=HTMX)
    assert response.status_code == 403
    said = "This page is out of date, so nothing was changed. Reload it and try again."
    assert text(response) == said
    assert int(response["Content-Length"]) == len(response.content)


def test_answers_that_say_their_own_reason_and_pages_are_left_as_they_are(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3)), (Box.CHANCE, (1, 2, 3, 4, 6))])
    refused = post_box(client_of, game, Box.FOURS, dice=(4, 4, 4, 1, 2), htmx=True)
    assert refused.status_code == 400 and refused["X-In-Place"] == "1"
    assert 'id="turn"' in text(refused) and "Fours is already filled." in text(refused)
    page = client_of.get(game_url(game).replace(game.public_id, "no-such-game"))
    assert page.status_code == 404 and "<html" in text(page)  # without htmx: the page


def test_a_page_carries_only_the_words_for_no_answer_and_for_a_stranger_s_answer(client_of, game):
    page = text(client_of.get(game_url(game)))
    problem = page.split('id="request-problem"')[1].split("</p>")[0]
    assert "data-offline=" in problem and "data-status-other=" in problem
    assert "data-status-4" not in problem and "data-status-5" not in problem


def test_a_live_poll_answered_not_found_reloads_the_page_which_says_why(client_of, game):
    """The card's controls no longer work for this phone, so the page is drawn again (htmx's
    HX-Refresh): it says why in the words of how the page was opened."""
    from django.test import Client

    from scorecard.access import sharing
    from scorecard.models import Browser, LinkRole

    link = sharing.link_renew(game=game, role=LinkRole.WATCH)
    sharing.link_revoke(game=game, role=LinkRole.WATCH)
    poll = {"live": 1}
    for address in (f"/watch/{link.token}/", f"/watch/{link.token}/sheet/"):
        watcher = Client()
        revoked = watcher.get(address, poll, headers=HTMX | {"Accept-Language": "en"})
        assert revoked.status_code == 404 and revoked["HX-Refresh"] == "true"
        reloaded = watcher.get(address, headers={"Accept-Language": "en"})
        assert reloaded.status_code == 404 and "<form" not in text(reloaded)
        assert (
            "This link no longer works: it was replaced or revoked, or the game was deleted. "
            "Ask someone at the table for a new one."
        ) in text(reloaded)
    Browser.objects.filter(household=game.owner).delete()
    removed = client_of.get(game_url(game), poll, headers=HTMX)
    assert removed.status_code == 404 and removed["HX-Refresh"] == "true"
    gone = text(client_of.get(game_url(game)))
    assert (
        "This browser can no longer open this game: it was removed from the household, "
        "or the game was deleted. To join again, ask someone in the household for a new join "
        "link."
    ) in gone
    assert "<h1>This game no longer opens here</h1>" in gone
    other = client_of.get(game_url(game), headers=HTMX)  # not a poll: the status's words
    assert text(other) == "Not found: this game or link no longer exists. Nothing was changed."
    assert "HX-Refresh" not in other


def test_a_revoked_link_is_said_on_our_page_with_debug_on_as_make_run_serves(settings, game):
    """Django's own 404 with debug on lists the site's addresses: a person at the table who
    opens a revoked link is told why on our page instead."""
    from django.test import Client

    from scorecard.access import sharing
    from scorecard.models import LinkRole

    settings.DEBUG = True
    link = sharing.link_renew(game=game, role=LinkRole.SCORE)
    sharing.link_revoke(game=game, role=LinkRole.SCORE)
    revoked = Client().get(f"/score/{link.token}/", headers={"Accept-Language": "en"})
    assert revoked.status_code == 404 and "URLconf" not in text(revoked)
    assert "This link no longer works: it was replaced or revoked" in text(revoked)
    stranger = Client().get(f"/games/{game.public_id}/", headers={"Accept-Language": "en"})
    assert stranger.status_code == 404 and "URLconf" not in text(stranger)
    assert "There is nothing at this address" in text(stranger)
    # A relative sent the scorer's own address is told how to follow the game instead.
    assert "ask for its watch or score link: Share, on the game’s page" in text(stranger)
    elsewhere = Client().get("/players/nobody/", headers={"Accept-Language": "en"})
    assert elsewhere.status_code == 404 and "watch or score link" not in text(elsewhere)


def test_a_button_pressed_on_a_page_that_no_longer_opens_says_it_was_not_recorded(client_of, game):
    """Without scripts a box's button posts the form: on a revoked link's page, or in a
    browser removed from the household, the answer said only "Not found" (the link's page
    said why; the address its buttons post to did not), and nothing of the tap."""
    from django.test import Client

    from scorecard.access import sharing
    from scorecard.models import Browser, Entry, LinkRole

    link = sharing.link_renew(game=game, role=LinkRole.SCORE)
    sharing.link_revoke(game=game, role=LinkRole.SCORE)
    tap = {"version": 0, "turn": 1, "box": "ones", "dice": "11234", "card": 1}
    answer = Client().post(f"/score/{link.token}/record/", tap, headers={"Accept-Language": "en"})
    assert answer.status_code == 404
    assert "This link no longer works: it was replaced or revoked" in text(answer)
    assert "What was just sent was not recorded: nothing was changed." in text(answer)
    page = Client().get(f"/score/{link.token}/", headers={"Accept-Language": "en"})
    assert "not recorded" not in text(page)  # a page opened, not a tap
    Browser.objects.filter(household=game.owner).delete()
    answer = client_of.post(game_url(game, "game-undo"), {"version": 0})
    assert "This browser can no longer open this game" in text(answer)
    assert "What was just sent was not recorded" in text(answer)
    assert not Entry.objects.exists()
