"""Starting out: the home page with the games in progress, and the new-game form."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from scorecard.access.households import current_household, household_for_writing, was_removed
from scorecard.game import services
from scorecard.models import Game, Seat
from scorecard.web import idempotency
from scorecard.web.forms import NewGameForm, swap_seats
from scorecard.web.htmx import HtmxHttpRequest

GAMES_ON_HOME = 10


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    household = current_household(request)
    games = household.games.filter(finished=None) if household else Game.objects.none()
    # Each game's players in seating order, as the game has them (its players sort by name).
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    context: dict[str, object] = {"games": games.prefetch_related(seats)[:GAMES_ON_HOME]}
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
        seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
        context["going"] = household.games.filter(finished=None).prefetch_related(seats).first()
    return render(request, "game_new.html", context, status=status)
