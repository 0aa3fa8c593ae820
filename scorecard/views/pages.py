"""Pages that print or explain: the blank sheet, a game's own sheet and the rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scorecard.access.links import GameLinks, Role, game_for
from scorecard.engine import families, rules
from scorecard.game.progress import load_progress
from scorecard.models import Game
from scorecard.presenters import house_rules, rules_content
from scorecard.presenters.sheet import (
    blank_columns,
    game_columns,
    player_groups,
    sheet_rows,
)
from scorecard.web import live
from scorecard.web.htmx import HtmxHttpRequest

MAX_COLUMNS = 8
DEFAULT_COLUMNS = 6


def _columns_param(value: str | None) -> int:
    if value is None or value == "":
        return DEFAULT_COLUMNS
    if not (value.isdecimal() and len(value) <= 2) or not 1 <= int(value) <= MAX_COLUMNS:
        raise ValueError(
            _("Columns must be a whole number from 1 to %(most)s.") % {"most": MAX_COLUMNS}
        )
    return int(value)


def _family_param(value: str | None) -> families.Family[Any]:
    try:
        return families.family_named(value or families.YAHTZEE.key)
    except families.RuleViolation:
        raise ValueError(_("Pick Yahtzee, Yatzy or Maxi Yatzy for the sheet.")) from None


@require_GET
def blank_sheet(request: HttpRequest) -> HttpResponse:
    names = [name.strip()[:40] for name in request.GET.getlist("name") if name.strip()]
    try:
        count = _columns_param(request.GET.get("columns"))
        family = _family_param(request.GET.get("game"))
    except ValueError as error:
        context = {"error": str(error), "columns_count": 6, "family": families.YAHTZEE}
        return render(request, "sheet.html", context | {"families": FAMILIES}, status=400)
    # Triple cards are a Yahtzee game: another family's sheet leaves the choice out.
    triple = family.has_jokers and request.GET.get("triple") in {"1", "on", "true"}
    columns = blank_columns(names, max(count, min(len(names), MAX_COLUMNS)), triple)
    house = rules.HouseRules(family)
    context = {"columns": columns, "rows": sheet_rows(columns, house=house), "columns_count": count}
    context["groups"] = player_groups(columns)
    context |= {"names": names, "triple": triple, "blank": True}
    # Printed, a Triple sheet says so (its heading named Yahtzee alone, a tester).
    context["variant"] = Game.Mode.TRIPLE.label if triple else ""
    context |= {"family": family, "families": FAMILIES, "house": house}
    context["facts"] = rules_content.sheet_facts()
    return render(request, "sheet.html", context)


FAMILIES = list(families.FAMILIES.values())


@require_GET
def game_sheet(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    """A game's own sheet, kept current like the game page (see `live`)."""
    progress = load_progress(game_for(request, key, role))
    columns = game_columns(progress)
    joker = progress.game.joker_rule
    context = {"columns": columns, "rows": sheet_rows(columns, joker=joker), "progress": progress}
    context["sheet_title"] = house_rules.game_title(progress.game)
    # The heading names the family already ("Yatzy score sheet"); a variant says its own name.
    context["variant"] = context["sheet_title"] if progress.game.mode != Game.Mode.STANDARD else ""
    # The footer's extra-Yahtzee sentence is Hasbro's order: another is said in the notes,
    # and under the rule without extra Yahtzees the footer says there is no bonus.
    context["other_joker"] = joker is not rules.JokerRule.HASBRO
    context["no_extra_bonus"] = joker is rules.JokerRule.NONE
    context["house_notes"] = house_rules.sheet_notes(progress.game)
    context["groups"] = player_groups(columns)
    context["facts"] = rules_content.sheet_facts()
    context["links"] = GameLinks(key, role)
    if live.is_poll(request):
        response = render(request, "sheet.html#sheet-body", context)
        return live.tagged(response, progress.game.version)
    return render(request, "sheet.html", context)


THEME = {"light": "#0b5fce", "background": "#fbfaf6"}


@require_GET
def web_manifest(request: HttpRequest) -> HttpResponse:
    """What a phone needs to put the score card on its home screen as an app of its own. No
    description: a browser shows one only in its richer install dialog, which also needs
    screenshots we do not have, and the manifest is on every first load (about 40 bytes).
    No SVG icon either: a phone installs from the PNGs, and a tab takes the page's own icon
    (17 bytes of each first load, now the double-tap guard's in requests.js)."""
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
         "purpose": "any maskable"}
        for size in (192, 512)
    ]  # fmt: skip
    manifest = {
        "name": _("Yahtzee score card"),
        "short_name": pgettext("game", "Yahtzee"),
        "lang": get_language(),
        "start_url": reverse("home"),  # and so the scope: every page under "/"
        "display": "standalone",
        "theme_color": THEME["light"],
        "background_color": THEME["background"],
        "icons": icons,
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    patch_cache_control(response, public=True, max_age=60 * 60 * 24)
    return response


@require_GET
def home_screen_icon(request: HttpRequest) -> HttpResponse:
    """The icon iOS puts on the home screen, where Safari looks for it when a page names none
    (`/apple-touch-icon.png`): so no page carries a link to it (23 bytes of each first load).
    Other phones take theirs from the manifest."""
    icon = Path(str(finders.find("icons/icon-192.png"))).read_bytes()
    response = HttpResponse(icon, content_type="image/png")
    patch_cache_control(response, public=True, max_age=60 * 60 * 24)
    return response


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html", rules_content.page_context())


# Crawlers have no business with anyone's games; link pages also say noindex themselves.
ROBOTS = """User-agent: *
Disallow: /games/
Disallow: /score/
Disallow: /watch/
Disallow: /join/
Disallow: /household/
Disallow: /players/
Disallow: /high-scores/
"""


@require_GET
def robots_txt(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")
