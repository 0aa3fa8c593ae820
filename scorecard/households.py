"""Which household a browser belongs to, kept in a signed cookie.

A household is made the first time a browser saves something, not on every visit, so
crawlers and one-off readers of the rules page leave no rows behind.
"""

import itertools

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control

from scorecard.compiled import CompiledQuery
from scorecard.models import Game, Household, Player, Seat


def current_household(request: HttpRequest) -> Household | None:
    """The browser's household, or None before it has saved anything (one query, cached)."""
    if not hasattr(request, "_household"):
        public_id = request.get_signed_cookie(settings.HOUSEHOLD_COOKIE, default=None)
        found = Household.objects.filter(public_id=public_id).first() if public_id else None
        request._household = found
    return request._household


def household_object(request: HttpRequest, model, public_id: str):
    """A game or player of this browser's household; any other id is simply not found."""
    household = current_household(request)
    if household is None:
        raise Http404("Not found.")
    return get_object_or_404(model, public_id=public_id, owner=household)


def household_game(request: HttpRequest, public_id: str, *, with_seats: bool = False) -> Game:
    """A game of this browser's household, with the household, in one query; `with_seats`
    reads its seats and players in the same query, for a view about to load its state."""
    household_id = request.get_signed_cookie(settings.HOUSEHOLD_COOKIE, default=None)
    if household_id is None:
        raise Http404("Not found.")
    if with_seats:
        game = _game_with_seats(public_id, household_id)
    else:
        lookup = {"public_id": public_id, "owner__public_id": household_id}
        game = get_object_or_404(Game.objects.select_related("owner"), **lookup)
    request._household = game.owner
    return game


def _fields(model) -> list[str]:
    return [field.attname for field in model._meta.concrete_fields]


GAME_FIELDS, HOUSEHOLD_FIELDS = _fields(Game), _fields(Household)
SEAT_FIELDS, PLAYER_FIELDS = _fields(Seat), _fields(Player)
GAME_SEATS = CompiledQuery(
    lambda game, household: (
        Seat.objects.filter(game__public_id=game, game__owner__public_id=household)
        .order_by("position")
        .values_list(
            *SEAT_FIELDS,
            *(f"player__{name}" for name in PLAYER_FIELDS),
            *(f"game__{name}" for name in GAME_FIELDS),
            *(f"game__owner__{name}" for name in HOUSEHOLD_FIELDS),
        )
    ),
    game=str,
    household=str,
)


def _game_with_seats(public_id: str, household_id: str) -> Game:
    """The game, its household, seats and players from one row a seat, built without the
    ORM's query building (see `compiled`)."""
    rows = GAME_SEATS.rows(game=public_id, household=household_id)
    if not rows:
        raise Http404("Not found.")
    ends = list(itertools.accumulate(map(len, (SEAT_FIELDS, PLAYER_FIELDS, GAME_FIELDS))))
    first = rows[0]
    game = Game(**dict(zip(GAME_FIELDS, first[ends[1] : ends[2]], strict=True)))
    game.owner = Household(**dict(zip(HOUSEHOLD_FIELDS, first[ends[2] :], strict=True)))
    seats = []
    for row in rows:
        seat = Seat(**dict(zip(SEAT_FIELDS, row[: ends[0]], strict=True)))
        seat.player = Player(**dict(zip(PLAYER_FIELDS, row[ends[0] : ends[1]], strict=True)))
        seat.game = game
        seats.append(seat)
    game._prefetched_objects_cache = {"seats": seats}
    return game


def household_for_writing(request: HttpRequest) -> Household:
    """The browser's household, made now if it has none; the middleware sets the cookie."""
    household = current_household(request)
    if household is None:
        household = request._household = Household.objects.create()
        request._new_household = True
    return household


def cookie_flags(request: HttpRequest) -> dict:
    """How our own cookies are set: never readable by scripts, Secure in production."""
    secure = settings.COOKIES_SECURE or request.is_secure()
    return {"httponly": True, "samesite": "Lax", "secure": secure}


class HouseholdMiddleware:
    """Sets the cookie of a household made during the request, and keeps every page out of
    shared caches: what a page shows depends on the household that asks."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "_new_household", False):
            response.set_signed_cookie(
                settings.HOUSEHOLD_COOKIE,
                request._household.public_id,
                max_age=settings.HOUSEHOLD_COOKIE_MAX_AGE,
                **cookie_flags(request),
            )
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True)
        return response
