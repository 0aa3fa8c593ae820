"""Export a household's games as JSON or CSV, and import a JSON export into it."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from scorecard import exchange, services
from scorecard.households import current_household, household_for_writing, household_game
from scorecard.models import Game


def _download(document: dict, fmt: str, filename: str) -> HttpResponse:
    if fmt == "json":
        body, kind = json.dumps(document, indent=2, ensure_ascii=False), "application/json"
    elif fmt == "csv":
        body, kind = exchange.export_csv(document), "text/csv"
    else:
        raise Http404("Exports are JSON or CSV.")
    response = HttpResponse(body, content_type=f"{kind}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def export_one(request: HttpRequest, public_id: str, fmt: str) -> HttpResponse:
    game = household_game(request, public_id)
    document = exchange.export_games(Game.objects.filter(pk=game.pk))
    return _download(document, fmt, f"yahtzee-{game.created:%Y-%m-%d}-{public_id[:6]}")


@require_GET
def export_all(request: HttpRequest, fmt: str) -> HttpResponse:
    household = current_household(request)
    games = Game.objects.filter(owner=household) if household else Game.objects.none()
    return _download(exchange.export_games(games), fmt, "yahtzee-games")


@require_http_methods(["GET", "POST"])
def import_view(request: HttpRequest) -> HttpResponse:
    error, status = "", 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise exchange.ImportRefused("file: choose a JSON export to import.")
            if upload.size > exchange.MAX_IMPORT_BYTES:
                raise exchange.ImportRefused("file: larger than 20 MB.")
            games = exchange.read_games(exchange.parse_document(upload.read()))
            count = services.games_import(games=games, owner=household_for_writing(request))
            return redirect(f"{reverse('games')}?imported={count}")
        except services.Refusal as refusal:
            error, status = f"Nothing was imported. {refusal}", 400
    return render(request, "import.html", {"error": error}, status=status)
