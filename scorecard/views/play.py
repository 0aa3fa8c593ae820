"""Playing a game: its page, recording a box, rolling, undo, corrections and a rematch.

Each view parses the input, calls one service and renders what changed: an htmx request
gets the fragments to swap, a plain form post is redirected back to the game.
"""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorecard import advice
from scorecard.access import throttle
from scorecard.access.households import cookie_flags, household_game
from scorecard.access.links import GameLinks, Role, game_for
from scorecard.engine import rules
from scorecard.game import services
from scorecard.game.progress import FilledBox, GameProgress, load_progress
from scorecard.models import Entry, Game
from scorecard.presenters import standings
from scorecard.presenters.sheet import changed_cells, game_columns, player_groups, sheet_rows
from scorecard.presenters.turn_panel import TurnPanel, build_turn_panel
from scorecard.web import live
from scorecard.web.forms import entry_fields, parse_dice, parse_int
from scorecard.web.htmx import HtmxHttpRequest

ADVICE_COOKIE_AGE = 60 * 60 * 24 * 365


def _panel(
    request: HtmxHttpRequest, progress: GameProgress, links: GameLinks, query, **shown
) -> TurnPanel:
    if not links.role.may_score:
        query = {}  # a watcher sees whose turn it is, not a dice pad
    wants_advice = advice.wanted(request) and links.role.may_score
    panel = build_turn_panel(progress, query, wants_advice=wants_advice, links=links, **shown)
    panel.advice_setting = advice.setting(request)
    panel.typed_open = "typed" in query
    panel.typed_on_demand = bool(request.htmx) and not panel.typed_open
    return panel


def _respond(
    request: HtmxHttpRequest,
    panel: TurnPanel,
    partial: str = "turn",
    *,
    status: int = 200,
    entry: FilledBox | None = None,
) -> HttpResponse:
    """The whole page, or for htmx the partial: "turn", "after-entry" (the panel, the
    standings rows and the cells `entry` changed), "after-refusal" (everything) or
    "after-poll" (everything, out of band, for a live page whose game changed)."""
    progress, links = panel.progress, panel.links
    context = {"panel": panel, "game": progress.game, "links": links}
    whole = not request.htmx or partial in {"after-refusal", "after-poll"}
    if whole or partial == "after-entry":
        wins = None
        if panel.wants_advice and advice.win_chances_shown(progress):
            wins = advice.win_column(progress)
            context["win_note"] = advice.WIN_NOTE
        context["standings"] = standings.standings_rows(progress, wins)
    scoring_table = links.role.may_score and not progress.game.digital
    correct = links.correct if scoring_table else None
    if whole:
        columns = game_columns(progress)
        context |= {"columns": columns, "rows": sheet_rows(columns, correct)}
        context["groups"] = player_groups(columns)
        context["standings_headings"] = standings.HEADINGS
    elif partial == "after-entry" and entry is not None:
        context["changed_cells"] = changed_cells(progress, entry, correct)
    template = f"game.html#{partial}" if request.htmx else "game.html"
    response = render(request, template, context, status=status)
    if request.htmx and status >= 400:
        # The card with the reason on it: the page swaps it in like a success (requests.js);
        # any other failed answer is only said, never swapped over the page.
        response.headers["X-In-Place"] = "1"
    return response


def _refused(
    request: HtmxHttpRequest, game: Game, links: GameLinks, refusal: services.Refusal
) -> HttpResponse:
    """The card as it is now, with the reason where the player is looking (409 when another
    tap or phone changed the game first, else 400)."""
    progress = refusal.progress
    if progress is None:
        game.refresh_from_db(fields=["version", "finished"])
        progress = load_progress(game)
    panel = _panel(request, progress, links, {}, error=str(refusal))
    return _respond(request, panel, "after-refusal", status=refusal.status_code)


@require_GET
def game_page(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    """The game as `role` sees it; a live page's poll (`?live=1`) is answered 304 while the
    game is unchanged, from one small query."""
    if unchanged := live.unchanged(request, key, role):
        return unchanged
    links = GameLinks(key, role)
    progress = load_progress(game_for(request, key, role, with_seats=True))
    if live.is_poll(request):
        response = _respond(request, _panel(request, progress, links, {}), "after-poll")
        return live.tagged(response, progress.game.version)
    panel = _panel(request, progress, links, request.GET)
    dice_error = panel.dice_entry is not None and panel.dice_entry.error
    partial = "typed" if panel.typed_open else "turn"
    return _respond(request, panel, partial, status=400 if dice_error else 200)


@require_POST
def record(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    links = GameLinks(key, role)
    game = game_for(request, key, role, with_seats=True)
    try:
        fields = entry_fields(request.POST)
        if coached := _coach_speaks(request, game, links, fields):
            return coached
        recorded = services.record_box(game=game, **fields)
    except services.ZeroNeedsConfirmation as question:
        panel = _panel(request, question.progress, links, request.POST, confirm=question)
        return _respond(request, panel)
    except services.Refusal as refusal:
        return _refused(request, game, links, refusal)
    if not request.htmx:
        return redirect(links.page)
    entry = recorded.entry
    assert entry.seat is not None, "a game's state seats every entry it holds"
    note = f"{entry.seat.player.name}: {entry.rules_box.label} {entry.points}"
    if entry.yahtzee_bonus:
        note += f" and +{rules.EXTRA_YAHTZEE_BONUS} for an extra Yahtzee!"
    if not recorded.is_new:
        note += " (already recorded)"
    panel = _panel(request, recorded.progress, links, {}, notice=note)
    return _respond(request, panel, "after-entry", entry=entry)


def _coach_speaks(request, game: Game, links: GameLinks, fields: dict) -> HttpResponse | None:
    """With the coach chosen, a box that gives up too much is asked about once before it is
    written; anything the service would refuse is left for it to refuse."""
    threshold = advice.coach_threshold(request)
    if threshold is None or request.POST.get("coach") == "heard":
        return None
    progress = load_progress(game)
    current = progress.current
    if current is None or not advice.advice_available(progress):
        return None
    if (fields["version"], fields["turn"]) != (game.version, progress.next_turn):
        return None
    card = next((card for card in current.open_cards() if card.number == fields["card"]), None)
    dice = fields["dice"] or progress.turn_dice or progress.round_dice
    if card is None or dice is None:
        return None
    note = advice.coach_objection(card, dice, fields["box"], game.joker_rule, threshold)
    if note is None:
        return None
    return _respond(request, _panel(request, progress, links, request.POST, coach=note))


def _coach_speaks_on_roll(request, game: Game, links: GameLinks, sent, hold) -> HttpResponse | None:
    """With the coach chosen, dice held that give up too much are asked about once before
    the roll; anything the service would refuse is left for it to refuse."""
    threshold = advice.coach_threshold(request)
    if threshold is None or request.POST.get("coach") == "heard":
        return None
    progress = load_progress(game)
    table = progress.table_dice
    if sent != (game.version, progress.next_turn) or not (progress.may_roll and table):
        return None
    if not advice.advice_available(progress) or not all(0 <= p < len(table) for p in hold):
        return None
    assert progress.current is not None, "may_roll: someone's turn"
    card = progress.current.open_cards()[0]
    left, joker = progress.rolls_left, game.joker_rule
    note = advice.coach_hold_objection(card, table, sorted(set(hold)), left, joker, threshold)
    if note is None:
        return None
    return _respond(request, _panel(request, progress, links, {}, hold_coach=note))


@require_POST
def roll(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    links = GameLinks(key, role)
    game = game_for(request, key, role, with_seats=True)
    post = request.POST
    try:
        version = parse_int(post.get("version"), "The version")
        turn = parse_int(post.get("turn"), "The turn")
        hold = [parse_int(position, "A held die") for position in post.getlist("hold")]
        if coached := _coach_speaks_on_roll(request, game, links, (version, turn), hold):
            return coached
        progress = services.roll_dice(game=game, version=version, turn=turn, hold=hold)
    except services.Refusal as refusal:
        return _refused(request, game, links, refusal)
    if not request.htmx:
        return redirect(links.page)
    return _respond(request, _panel(request, progress, links, {}))


@require_POST
def undo(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    links = GameLinks(key, role)
    game = game_for(request, key, role, with_seats=True)
    try:
        version = parse_int(request.POST.get("version"), "The version")
        progress, undone = services.undo_last_entry(game=game, version=version)
    except services.Refusal as refusal:
        return _refused(request, game, links, refusal)
    if not request.htmx:  # the dice come back, so the right box is one more tap
        back = f"?dice={undone.dice}" if undone.dice and not game.digital else ""
        return redirect(links.page + back)
    assert undone.seat is not None, "a game's state seats every entry it holds"
    note = f"Undone: {undone.seat.player.name}’s {undone.rules_box.label} ({undone.points})."
    dice_back = {"dice": undone.dice} if undone.dice and not game.digital else {}
    panel = _panel(request, progress, links, dice_back, notice=note)
    return _respond(request, panel, "after-entry", entry=undone)


@require_http_methods(["GET", "POST"])
def correct(request: HtmxHttpRequest, key: str, turn: int, role: Role = Role.OWNER) -> HttpResponse:
    links = GameLinks(key, role)
    game = game_for(request, key, role)
    entry = get_object_or_404(Entry.objects.select_related("seat__player"), game=game, turn=turn)
    error, status = "", 200
    if request.method == "POST":
        post = request.POST
        try:
            services.correct_box(
                game=game,
                version=parse_int(post.get("version"), "The version"),
                entry=entry,
                dice=parse_dice(post.get("dice")),
                points=parse_int(post["points"], "Points") if post.get("points") else None,
            )
            return redirect(links.page)
        except services.Refusal as refusal:
            error, status = str(refusal), refusal.status_code
        game.refresh_from_db()
    context = {"game": game, "entry": entry, "error": error, "links": links}
    context["achievable"] = rules.describe_values(sorted(rules.achievable_points(entry.rules_box)))
    return render(request, "correct.html", context, status=status)


@require_POST
def advice_switch(request: HtmxHttpRequest) -> HttpResponse:
    """Turn advice on or off for this browser, then go back to the page it was asked on."""
    back = request.POST.get("next", "")
    local = back.startswith("/") and not back.startswith("//")
    if not (local and url_has_allowed_host_and_scheme(back, {request.get_host()})):
        back = "/"
    response = HttpResponseRedirect(back)
    state = request.POST.get("advice", "off")
    state = state if state in advice.SETTINGS else "off"
    flags = cookie_flags(request)
    response.set_cookie(advice.COOKIE, state, max_age=ADVICE_COOKIE_AGE, **flags)
    return response


@require_POST
def rematch(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A new game, so it counts against the creation limit; refused, the finished game's
    page says why above its Rematch button (429) and nothing is made."""
    game = household_game(request, public_id)
    if not throttle.creation_allowed(request):
        links = GameLinks(public_id)
        panel = _panel(request, load_progress(game), links, {}, error=throttle.refusal_message())
        return _respond(request, panel, "after-refusal", status=429)
    return redirect("game", key=services.game_rematch(game=game).public_id)
