"""Which household a browser belongs to, kept in a signed cookie.

A household is made the first time a browser saves something, not on every visit, so
crawlers and one-off readers of the rules page leave no rows behind.
"""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from scorecard.models import Game, Household


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


def household_game(request: HttpRequest, public_id: str) -> Game:
    """A game of this browser's household, with the household, in one query."""
    household_id = request.get_signed_cookie(settings.HOUSEHOLD_COOKIE, default=None)
    if household_id is None:
        raise Http404("Not found.")
    game = get_object_or_404(
        Game.objects.select_related("owner"), public_id=public_id, owner__public_id=household_id
    )
    request._household = game.owner
    return game


def household_for_writing(request: HttpRequest) -> Household:
    """The browser's household, made now if it has none; the middleware sets the cookie."""
    household = current_household(request)
    if household is None:
        household = request._household = Household.objects.create()
        request._new_household = True
    return household


class HouseholdMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "_new_household", False):
            response.set_signed_cookie(
                settings.HOUSEHOLD_COOKIE,
                request._household.public_id,
                max_age=settings.HOUSEHOLD_COOKIE_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response
