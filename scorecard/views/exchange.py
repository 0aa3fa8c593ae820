"""Export a household's games as JSON or CSV, and import a JSON export into it."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from scorecard.access import throttle
from scorecard.access.households import current_household, household_for_writing, household_game
from scorecard.game import services
from scorecard.history import exchange
from scorecard.models import Game
from scorecard.web.htmx import HtmxHttpRequest


def _download(games, fmt: str, filename: str) -> StreamingHttpResponse:
    """An export streamed a batch of games at a time, private to the household."""
    if fmt == "json":
        body, kind = exchange.export_json(games), "application/json"
    elif fmt == "csv":
        body, kind = exchange.export_csv(games), "text/csv"
    else:
        raise Http404("Exports are JSON or CSV.")
    response = StreamingHttpResponse(body, content_type=f"{kind}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def export_one(request: HtmxHttpRequest, public_id: str, fmt: str) -> StreamingHttpResponse:
    game = household_game(request, public_id)
    games = Game.objects.filter(pk=game.pk)
    # Named for its rules ("yatzy-2026-12-04-…"), so a folder of exports says which is which.
    return _download(games, fmt, f"{game.family}-{game.created:%Y-%m-%d}-{public_id[:6]}")


@require_GET
def export_all(request: HtmxHttpRequest, fmt: str) -> StreamingHttpResponse:
    """Every game of the household; `?part=N`, the Nth file of them when there are more than
    an import takes (the games page lists the parts)."""
    household = current_household(request)
    games = Game.objects.filter(owner=household) if household else Game.objects.none()
    if "part" not in request.GET:
        return _download(games, fmt, "yahtzee-games")
    part = request.GET["part"]
    if (
        not (part.isdecimal() and len(part) < 7)
        or not (games := exchange.export_part(games, int(part))).exists()
    ):
        raise Http404("There is no such part of the export.")
    return _download(games, fmt, f"yahtzee-games-part-{int(part)}")


def _import_said(done: services.Imported) -> str:
    """How many games the import wrote and skipped as already here, and how many bonuses
    it gave that the file had left out."""
    written, skipped, bonuses = done.written, done.already_here, done.bonuses_given
    said = [
        ngettext("Imported %(games)s game.", "Imported %(games)s games.", written)
        % {"games": written}
        if written
        else _("Nothing new was imported.")
        if skipped
        else _("The file holds no games, so nothing was imported.")
    ]
    if skipped:
        said.append(
            ngettext(
                "%(games)s game in the file was here already: the copy here is kept as it "
                "is, even if the file's differs (a correction made since, here or there).",
                "%(games)s games in the file were here already: the copies here are kept as "
                "they are, even where the file's differ (corrections made since, here or there).",
                skipped,
            )
            % {"games": skipped}
        )
    if bonuses:
        said.append(
            ngettext(
                "Typed points that only five alike make earn the extra-Yahtzee bonus: the "
                "file had left out %(bonuses)s, which is now given.",
                "Typed points that only five alike make earn the extra-Yahtzee bonus: the "
                "file had left out %(bonuses)s, which are now given.",
                bonuses,
            )
            % {"bonuses": bonuses}
        )
    return " ".join(said)


@require_http_methods(["GET", "POST"])
def import_view(request: HtmxHttpRequest) -> HttpResponse:
    error, status = "", 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise exchange.ImportRefused(_("Choose a JSON export to import."))
            if (upload.size or 0) > exchange.MAX_IMPORT_BYTES:  # an upload always knows its size
                raise exchange.ImportRefused(exchange.too_large_reason())
            games = exchange.read_games(exchange.parse_document(upload.read()))
            # Counted once the file is good: a refused file creates nothing, and a person
            # trying one file after another must not end up told to wait.
            if current_household(request) is None and not throttle.creation_allowed(request):
                error, status = throttle.refusal_message(), 429
                return render(request, "import.html", {"error": error}, status=status)
            done = services.games_import(games=games, owner=household_for_writing(request))
            # Said once, on the games page it leads to: a reload, or the address sent on,
            # does not say it again (the counts were in the address until a new user found
            # that, and that any counts typed there were said too).
            messages.info(request, _import_said(done))
            return redirect("games")
        except services.Refusal as refusal:
            error, status = _("Nothing was imported. %(reason)s") % {"reason": refusal}, 400
    return render(request, "import.html", {"error": error}, status=status)
