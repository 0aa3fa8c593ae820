"""Past games: the list, a game's review, player pages and the high-score list."""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scorecard.access.households import (
    current_household,
    household_object,
    household_seated_game,
    was_removed,
)
from scorecard.engine import families
from scorecard.game import services
from scorecard.game.progress import EntryRow, load_progress, round_of
from scorecard.history import exchange, statistics
from scorecard.models import Game, Player, Roll, UndoneEntry
from scorecard.presenters import advisor, charts, past_games, review
from scorecard.presenters.box_names import family_name
from scorecard.presenters.sheet import game_columns, player_groups, sheet_rows
from scorecard.web import advice_setting
from scorecard.web.htmx import HtmxHttpRequest

GAMES_PER_PAGE = 20


def _kinds_of_game() -> list[tuple[str, str]]:
    """What the list can be narrowed to: Yahtzee's modes, then each other family."""
    others = [family for family in families.FAMILIES.values() if family != families.YAHTZEE]
    modes = [(value, str(label)) for value, label in Game.Mode.choices]
    return [*modes, *((family.key, family_name(family)) for family in others)]


@require_GET
def games_list(request: HtmxHttpRequest) -> HttpResponse:
    household = current_household(request)
    games = owned = Game.objects.filter(owner=household) if household else Game.objects.none()
    player = request.GET.get("player", "")
    mode = request.GET.get("mode", "")
    if player:
        games = games.filter(seats__player__public_id=player)
    if mode in Game.Mode.values:  # Yahtzee's modes
        games = games.filter(family=families.YAHTZEE.key, mode=mode)
    elif mode in families.FAMILIES:
        games = games.filter(family=mode)
    listed = statistics.InProgressFirst(games)
    page = Paginator(listed, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    players = household.players.order_by("name") if household else []
    context = {
        "page": page,
        "summaries": past_games.game_summaries(list(page.object_list)),
        "players": players,
        "modes": _kinds_of_game(),
        "chosen": {"player": player, "mode": mode},
        # What the import that led here wrote (a message: said once, not by the address).
        "import_said": []
        if request.htmx
        else [str(told) for told in messages.get_messages(request)],
        "in_household": household is not None,
        "removed": household is None and was_removed(request),
    }
    if not request.htmx:  # the footer's export: in parts, past what one import takes
        total = page.paginator.count if games is owned else owned.count()
        context["has_games"] = total > 0  # nothing to export offers no export (a tester)
        context["export_parts"] = [
            (
                part,
                number_format(first, force_grouping=True),
                number_format(last, force_grouping=True),
            )
            for part, first, last in exchange.export_parts(total)
        ]
    template = "games.html#games-table" if request.htmx else "games.html"
    return render(request, template, context)


@require_GET
def game_review(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game, seats = household_seated_game(request, public_id)
    progress = load_progress(game, seats=seats, with_times=True)
    columns = game_columns(progress)
    rolls = defaultdict(list)
    for roll in progress.game.rolls.order_by("turn", "number"):
        rolls[roll.turn].append(roll)
    seat_by_id = {seat.pk: seat for seat in seats}
    undone = list(progress.game.undone_entries.all())
    for taken_back in undone:
        taken_back.seat = seat_by_id[taken_back.seat_id]
    timeline: list[tuple[int, int, EntryRow | UndoneEntry, bool, list[Roll]]]
    timeline = [(e.turn, 1, e, False, rolls.get(e.turn, [])) for e in progress.entries]
    timeline += [(u.turn, 0, u, True, []) for u in undone]
    # Each row with its round, as the game page counts them (the turns run 1 to 26 for two).
    players = len(progress.seats)
    turns = [(round_of(row[0], players), *row[2:]) for row in sorted(timeline, key=lambda r: r[:2])]
    chart = charts.line_chart(
        statistics.running_totals(progress),
        title=_("Each player's running total, round by round"),
        per_round=True,
    )
    context = {
        "progress": progress,
        "columns": columns,
        "rows": sheet_rows(columns, joker=progress.game.joker_rule),
        "groups": player_groups(columns),
        "turns": turns,
        "chart": chart,
        "advice_available": advisor.advice_available(progress),
        "no_advice_because": advisor.unavailable_because(progress),
    }
    asked = request.GET.get("advice") == "1" or advice_setting.wanted(request)
    if asked and context["advice_available"]:
        context["losses"] = review.decision_losses(progress, rolls)
        if advisor.win_chances_shown(progress):
            context["win_chart"] = review.win_chart(progress)
    return render(request, "review.html", context)


@require_GET
def players_list(request: HtmxHttpRequest) -> HttpResponse:
    household = current_household(request)
    players = statistics.players_with_games_played(household) if household else []
    return render(request, "players.html", {"players": players})


@require_GET
def player_page(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    player = household_object(request, Player, public_id)
    told = next(iter(messages.get_messages(request)), None)  # renamed or merged, once
    # "No, keep both" comes back to the name's field, open and focused.
    return _player_page(request, player, told=told, reopened=request.GET.get("rename") == "1")


@require_POST
def player_rename(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A player's new name; another player's name asks whether the two are one person, and
    "Merge" (`into`) makes them one."""
    into_id = request.POST.get("into", "")
    try:
        player = household_object(request, Player, public_id)
    except Http404:
        if not into_id:
            raise
        # Merge tapped again (a double tap, or Back to the question): the player they are now.
        into = household_object(request, Player, into_id)
        messages.info(request, _("Merged into %(other)s already.") % {"other": into.name})
        return redirect("player", public_id=into.public_id)
    name = request.POST.get("name", "")
    try:
        if into_id:
            into = household_object(request, Player, into_id)
            said = {"name": player.name, "other": into.name}
            services.player_merge(player=player, into=into)
            messages.info(request, _("%(name)s’s games are %(other)s’s now.") % said)
            return redirect("player", public_id=into.public_id)
        services.player_rename(player=player, name=name)
    except services.NameOfAnother as named:
        return _player_page(request, player, typed=name, merge_with=named.other)
    except services.Refusal as refusal:
        return _player_page(request, player, typed=name, error=str(refusal), status=400)
    messages.info(request, _("Now called %(name)s.") % {"name": player.name})
    return redirect("player", public_id=player.public_id)


def _player_page(
    request: HtmxHttpRequest, player: Player, *, status: int = 200, **rename: object
) -> HttpResponse:
    """The player's page; `rename` is what the rename form shows: the name `typed`, an
    `error`, the player to `merge_with`, or what was done (`told`)."""
    figures = statistics.player_figures(player)
    played = statistics.player_families(figures) or [families.YAHTZEE]
    sections = []
    for family in played:  # a Yatzy 250 is not a Yahtzee 250: each family on its own
        stats = statistics.player_stats(player, family, figures_by_family=figures)
        names = {"player": player.name, "game": family_name(family)}
        title = (
            _("Final scores of %(player)s in %(game)s") % names
            if len(played) > 1
            else _("Final scores of %(player)s") % names
        )
        histogram = charts.histogram(stats.bands, bin_size=statistics.BAND, title=title)
        sections.append((stats, histogram))
    level = 3 if len(sections) > 1 else 2  # under each family's heading when there are two
    context = {"player": player, "sections": sections, "level": level, **rename}
    # The players list counts every game a player sat at; here the figures are of finished
    # games, so the page says how many are still being played (found by a new user).
    context["going"] = statistics.games_going(player)
    context["name_length"] = services.MAX_NAME_LENGTH
    return render(request, "player.html", context, status=status)


@require_GET
def high_scores(request: HtmxHttpRequest) -> HttpResponse:
    household = current_household(request)
    scores = statistics.high_scores(household) if household else []
    return render(request, "high_scores.html", {"scores": scores})
