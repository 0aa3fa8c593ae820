"""Sharing: a game's watch and score links, the household's join link and its browsers.

Only the household (the owner) reaches these pages; what they show (link tokens) is the
permission itself, so `middleware.LinkPagePrivacy` keeps them out of caches and Referers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_variables
from django.views.decorators.http import require_http_methods

from scorecard.access import sharing
from scorecard.access.households import (
    browser_key,
    browser_name,
    current_browser,
    current_household,
    household_game,
    remember_browser,
    was_removed,
)
from scorecard.access.links import game_url
from scorecard.access.sharing import Renaming, SharedAddress
from scorecard.game.services import Refusal
from scorecard.models import Browser, Household, LinkRole
from scorecard.web import idempotency
from scorecard.web.htmx import HtmxHttpRequest


@dataclass(frozen=True)
class RoleWords:
    """What the share page says of one kind of link, whole sentences for each language."""

    heading: StrOrPromise
    text: StrOrPromise
    qr_alt: StrOrPromise
    renew: StrOrPromise
    make: StrOrPromise


if TYPE_CHECKING:  # the type checker's name for a text translated when shown
    from django_stubs_ext import StrOrPromise

ROLE_WORDS = {
    LinkRole.WATCH: RoleWords(
        heading=gettext_lazy("Watch link"),
        text=gettext_lazy(
            "Watch: the standings, everyone’s boxes and the sheet, kept current. "
            "Nothing can be changed from it."
        ),
        qr_alt=gettext_lazy("QR code of the watch link"),
        renew=gettext_lazy("New watch link"),
        make=gettext_lazy("Make a watch link"),
    ),
    LinkRole.SCORE: RoleWords(
        heading=gettext_lazy("Score link"),
        text=gettext_lazy(
            "Score: may also enter dice, record, undo and correct, for this game "
            "only. It cannot share, see your other games or players, or export."
        ),
        qr_alt=gettext_lazy("QR code of the score link"),
        renew=gettext_lazy("New score link"),
        make=gettext_lazy("Make a score link"),
    ),
}


# What a tap on the share page did, said once on the page it comes back to.
LINK_CHANGED = {
    (LinkRole.WATCH, "first"): gettext_lazy(
        "The watch link is made: another phone opens it, or scans its code."
    ),
    (LinkRole.SCORE, "first"): gettext_lazy(
        "The score link is made: another phone opens it, or scans its code."
    ),
    (LinkRole.WATCH, "new"): gettext_lazy(
        "A new watch link is made: the one before it no longer opens this game."
    ),
    (LinkRole.WATCH, "revoke"): gettext_lazy(
        "The watch link is revoked: it no longer opens this game, on any phone."
    ),
    (LinkRole.SCORE, "new"): gettext_lazy(
        "A new score link is made: the one before it no longer opens this game."
    ),
    (LinkRole.SCORE, "revoke"): gettext_lazy(
        "The score link is revoked: it no longer opens this game, on any phone."
    ),
}


@require_http_methods(["GET", "POST"])
def game_share(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = household_game(request, public_id)
    error = ""
    if request.method == "POST":
        role, action = request.POST.get("role", ""), request.POST.get("action", "")
        if role in LinkRole.values and action in {"new", "revoke"}:
            had_link = role in sharing.game_links(game)
            change = sharing.link_renew if action == "new" else sharing.link_revoke
            change(game=game, role=LinkRole(role))
            # Said where the focus lands (the page is drawn again, the button pressed gone).
            said = action if had_link or action == "revoke" else "first"
            messages.info(request, LINK_CHANGED[LinkRole(role), said])
            return redirect("game-share", public_id=public_id)
        error = _("Choose a link (watch or score) and what to do with it (new or revoke).")
    links = sharing.game_links(game)
    shares = [
        (role, ROLE_WORDS[role], _address(request, role, links.get(role.value)))
        for role in (LinkRole.WATCH, LinkRole.SCORE)
    ]
    told = next(iter(messages.get_messages(request)), None)  # what the last post did, once
    context = {"game": game, "shares": shares, "error": error, "told": told}
    context["page"] = game_url("game", game.public_id)
    return render(request, "share.html", context, status=400 if error else 200)


def _address(request, role: LinkRole, link) -> SharedAddress | None:
    if link is None:
        return None
    path = game_url("watch" if role == LinkRole.WATCH else "score", link.token)
    return SharedAddress(request.build_absolute_uri(path))


@require_http_methods(["GET", "POST"])
def household_page(request: HtmxHttpRequest) -> HttpResponse:
    browser = current_browser(request)
    if browser is None:  # a browser removed by its household is told so, as on the games list
        context = {"browser": None, "removed": was_removed(request)}
        return render(request, "household.html", context)
    if request.method == "GET":
        return _household(request, browser)
    household, action = browser.household, request.POST.get("action", "")
    target_id = _browser_id(request.POST.get("browser", ""))
    # Each change is said when the page comes back (the focus on it): a keyboard or a screen
    # reader was left at the top with nothing said.
    if action == "new-join-link":
        had_one = bool(household.join_token)
        sharing.join_link_renew(household=household)
        made = (
            _("A new join link is made: the old one lets nobody in.")
            if had_one
            else _("The join link is made: open it on the phone that should join.")
        )
        messages.info(request, made)
    elif action == "revoke-join-link":
        sharing.join_link_revoke(household=household)
        messages.info(request, _("The join link is revoked: it lets nobody in."))
    elif action == "remove" and target_id:
        if error := _remove(request, household, browser, target_id):
            return _household(request, browser, error=error, status=400)
    elif action == "rename" and target_id:
        name = request.POST.get("name", "")
        try:
            renamed = sharing.browser_rename(household=household, browser_id=target_id, name=name)
        except Refusal as refusal:
            renaming = Renaming(target_id, name, str(refusal))
            return _household(request, browser, renaming=renaming, status=refusal.status_code)
        messages.info(request, _("The browser is now called %(name)s.") % {"name": renamed.name})
    else:
        error = _("That is not something this page can do.")
        return _household(request, browser, error=error, status=400)
    # To what was said: a rename's form asks for its browser's row (#browser-N), which a
    # redirect without a place of its own keeps, and the words were out of sight (a tester).
    return redirect(f"{reverse('household')}#told")


def _remove(
    request: HtmxHttpRequest, household: Household, browser: Browser, browser_id: int
) -> str:
    """Removes the browser and says so, and which links are new (the join link, the games'
    links) when they were replaced; else why not (a fuzzer's post for this browser, or one
    already gone, was answered as done without a word)."""
    if browser_id == browser.pk:  # a browser leaves only by another's hand, never its own
        return _("This browser cannot remove itself: another browser of the household can.")
    had_join_link = bool(household.join_token)
    removed = sharing.browser_remove(household=household, browser_id=browser_id)
    if removed is None:
        return _("That browser is no longer in this household.")
    said = {"name": removed.name}
    if had_join_link and removed.links_replaced:
        note = _(
            "%(name)s is removed, and the join link and the games’ score and watch links are "
            "new ones: the old links, which that browser may have kept, let nobody in. Share "
            "the new ones again where they are needed."
        )
    elif removed.links_replaced:
        note = _(
            "%(name)s is removed, and the games’ score and watch links are new ones: the old "
            "links, which that browser may have kept, let nobody in. Share the new ones again "
            "where they are needed."
        )
    elif had_join_link:
        note = _(
            "%(name)s is removed, and the join link is a new one: the old link, which that "
            "browser may have kept, lets nobody in."
        )
    else:
        note = _("%(name)s is removed.")
    messages.info(request, note % said)
    return ""


def _browser_id(posted: str) -> int | None:
    # A number too long for the database's integer would be an error there, not a refusal.
    return int(posted) if posted.isdecimal() and len(posted) < 19 else None


def _household(
    request: HtmxHttpRequest,
    browser: Browser,
    *,
    renaming: Renaming | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    household = browser.household
    join = None
    if household.join_token:
        join = SharedAddress(request.build_absolute_uri(_join_path(household.join_token)))
    now = timezone.now()
    removing = _browser_id(request.GET.get("remove", ""))
    kept = _browser_id(request.GET.get("kept", ""))
    screen = sharing.household_screen(
        browser, now=now, renaming=renaming, error=error, removing=removing, kept=kept
    )
    # What the posts since the page was last drawn did, once (a post's answer unread, the
    # next one's came with it).
    told = " ".join(str(message) for message in messages.get_messages(request))
    context = {"browser": browser, "screen": screen, "join": join, "told": told}
    context["name_length"] = sharing.BROWSER_NAME_LENGTH
    return render(request, "household.html", context, status=status)


def _join_path(token: str) -> str:
    return reverse("household-join", args=[token])


@sensitive_variables("token")
@require_http_methods(["GET", "POST"])
def household_join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Asks first (a link opened by a preview bot or by mistake changes nothing), then makes
    this browser one of the household's."""
    household = sharing.household_by_join_token(token)
    if household is None:
        raise Http404("This join link does not work: it was replaced or revoked.")
    current = current_household(request)
    context = {"household": household, "already": current == household, "error": ""}
    context["own_games"] = current.games.count() if current and current != household else 0
    if (
        current and context["own_games"]
    ):  # can another browser still open them after this one leaves?
        others = current.browsers.exclude(key=browser_key(request))
        context["games_kept_elsewhere"] = others.exists()
    if request.method == "POST" and context["already"]:
        return redirect("home")  # pressed twice, or posted again from history: nothing to do
    if request.method == "POST":
        name = browser_name(request)
        try:
            browser = idempotency.browser_joined_once(
                request, lambda: sharing.household_join(household=household, name=name)
            )
        except Refusal as refusal:
            context["error"] = str(refusal)
            return render(request, "join.html", context, status=refusal.status_code)
        remember_browser(request, browser)
        # Said on the start page: without it a newcomer lands there not knowing it worked.
        messages.info(request, _("This browser has joined the household: its games show here."))
        return redirect("home")
    return render(request, "join.html", context)
