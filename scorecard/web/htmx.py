"""The request the views see: Django's, with django-htmx's details of an htmx request and
what `households` learns of the browser that sent it."""

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    from scorecard.access.households import SeatedGame
    from scorecard.models import Browser, Household


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
    # Set by `households` the first time a request asks (so read only after `hasattr`).
    _browser_key: str | None
    _new_browser_key: str
    _household: "Household | None"
    _made_browser: "Browser"
    # Set by `live.AnswerUnchangedPolls` when a poll's game changed (read after `hasattr`).
    _polled_version: int
    # Set by `links.game_for_a_tap`: the game the tap's view reads (taken by the first read).
    _tapped_game: "tuple[str, str, SeatedGame]"
