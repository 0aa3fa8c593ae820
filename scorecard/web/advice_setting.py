"""This browser's choice of advice, kept in a cookie: off (purists play without it), always,
or the coach at a loss of 0.5, 1, 2 or 5 points."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorecard.access.households import cookie_flags
from scorecard.web.htmx import HtmxHttpRequest

COOKIE = "advice"
COOKIE_AGE = 60 * 60 * 24 * 365
# Always: every box and keep rated. Coach: quiet until a box chosen loses at least that
# many points on average, then it asks once before the box is written.
COACH_LOSSES = ("0.5", "1", "2", "5")


def _coach_label(loss: str) -> str:
    # The loss as the page's language writes it ("0,5" in Swedish), in points: "a loss of
    # 0.5+" alone did not say of what (found by a new user).
    return _("Coach: a loss of %(loss)s+ points") % {
        "loss": number_format(float(loss), loss.count("."))
    }


# Labels said in the language of the page that shows them, not the one that imported this.
SETTINGS = {"off": gettext_lazy("Off"), "on": gettext_lazy("Always")} | {
    f"coach-{loss}": lazy(_coach_label, str)(loss) for loss in COACH_LOSSES
}


def setting(request: HttpRequest) -> str:
    """This browser's choice, one of SETTINGS ("off" when it made none we know)."""
    chosen = request.COOKIES.get(COOKIE, "off")
    return chosen if chosen in SETTINGS else "off"


def wanted(request: HttpRequest) -> bool:
    """Whether this browser wants every choice rated (advice "always")."""
    return setting(request) == "on"


def coach_threshold(chosen: str) -> float | None:
    """The loss at which the coach speaks up, when this browser chose the coach (`chosen` is
    one of SETTINGS)."""
    return float(chosen.removeprefix("coach-")) if chosen.startswith("coach-") else None


def remember(response: HttpResponse, request: HtmxHttpRequest, chosen: str) -> None:
    """Keep `chosen` for this browser; anything but one of SETTINGS turns advice off."""
    chosen = chosen if chosen in SETTINGS else "off"
    response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, **cookie_flags(request))
