"""Starting out: the home page with the games in progress (one no box of which is filled
can be discarded there), and the new-game form."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorecard.access.households import (
    current_household,
    household_for_writing,
    household_game,
    was_removed,
)
from scorecard.game import services
from scorecard.models import Entry, Game, Household, Seat
from scorecard.web import idempotency
from scorecard.web.forms import NewGameForm, swap_seats
from scorecard.web.htmx import HtmxHttpRequest
from scorecard.web.jinja_filters import names_said

GAMES_ON_HOME = 10


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    household = current_household(request)
    games = _in_progress(household) if household else Game.objects.none()
    context: dict[str, object] = {"games": games[:GAMES_ON_HOME]}
    context["removed"] = household is None and was_removed(request)
    context["told"] = next(iter(messages.get_messages(request)), None)  # joined, once
    return render(request, "home.html", context)


@require_http_methods(["GET", "POST"])
def game_new(request: HtmxHttpRequest) -> HttpResponse:
    data = request.POST or None
    if data and data.get("move_up"):
        pressed = data["move_up"]
        seat = int(pressed) if pressed.isdecimal() and len(pressed) == 1 else 0
        form = NewGameForm(initial=swap_seats(data, seat).dict(), moved_up=seat)
    else:
        form = NewGameForm(data, initial={"dice": request.GET.get("dice", "table")})
        if form.is_bound and form.is_valid():
            return _start(request, form)
        if form.is_bound:
            form.focus_first_fault()
    return _form_page(request, form, status=400 if form.is_bound else 200)


def _start(request: HtmxHttpRequest, form: NewGameForm) -> HttpResponse:
    arguments = form.game_arguments()
    try:
        game = idempotency.game_made_once(
            request,
            lambda: services.game_create(owner=household_for_writing(request), **arguments),
        )
    except services.Refusal as refusal:
        return _form_page(request, form, status=refusal.status_code, error=str(refusal))
    return redirect("game", key=game.public_id)


def _form_page(request: HtmxHttpRequest, form: NewGameForm, *, status: int, error: str = ""):
    household = current_household(request)
    known = household.players.values_list("name", flat=True) if household else []
    context = {"form": form, "known_names": known, "error": error}
    if household and not form.is_bound:
        # Back from a game just started lands here, on an empty form: its game is one tap
        # away (a new user took the empty form for a lost game).
        context["going"] = _in_progress(household).first()
    return render(request, "game_new.html", context, status=status)


def _in_progress(household: Household) -> QuerySet[Game]:
    """The household's games still going, newest first, each with its players in seating
    order (its players sort by name) and whether a box is filled (`blank`: it can go)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    filled = Exists(Entry.objects.filter(game=OuterRef("pk")))
    return household.games.filter(finished=None).annotate(blank=~filled).prefetch_related(seats)


@require_POST
def discard(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A game no box of which is filled, removed; back on the home page, which says so (or
    why not: a box was filled on another phone since)."""
    game = household_game(request, public_id)
    try:
        names = services.game_discard(game=game)
    except services.Refusal as refusal:
        messages.error(request, str(refusal))
        return redirect("home")
    said = {"names": names_said(list(names))}  # "Pepe y Ana", not "Pepe, Ana" (a helper)
    messages.info(request, _("The game of %(names)s is discarded.") % said)
    return redirect("home")
