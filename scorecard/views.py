"""Views of the score card: parse input, call a service, render the page or its fragment."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from scorecard import advice, rules, services
from scorecard.forms import DiceInput, NewGameForm, parse_box, parse_int, swap_seats
from scorecard.households import current_household, household_for_writing, household_object
from scorecard.models import Entry, Game
from scorecard.progress import GameProgress, load_progress
from scorecard.sheet import game_columns, sheet_rows

ADVICE_COOKIE = "advice"
# The standings columns, with the short forms a 360-pixel screen shows.
STANDINGS_HEADINGS = [
    ("Upper", "Up"),
    ("Bonus", "Bon"),
    ("Lower", "Low"),
    ("Yahtzee bonus", "Yz+"),
    ("Total", "Total"),
    ("Bonus pace", "Pace"),
]


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def household_game(request: HttpRequest, public_id: str) -> Game:
    return household_object(request, Game, public_id)


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    household = current_household(request)
    games = (
        household.games.filter(finished=None).prefetch_related("players")[:10] if household else []
    )
    return render(request, "home.html", {"games": games})


@require_http_methods(["GET", "POST"])
def game_new(request: HtmxHttpRequest) -> HttpResponse:
    data = request.POST or None
    if data and data.get("move_up"):
        seat = data["move_up"]
        data = swap_seats(data, int(seat) if seat.isdecimal() and len(seat) == 1 else 0)
        form = NewGameForm(initial=data.dict())
    else:
        form = NewGameForm(data, initial={"dice": request.GET.get("dice", "table")})
        if form.is_bound and form.is_valid():
            owner = household_for_writing(request)
            game = services.game_create(owner=owner, **form.game_arguments())
            return redirect("game", public_id=game.public_id)
    household = current_household(request)
    known = household.players.values_list("name", flat=True) if household else []
    status = 400 if form.is_bound else 200
    return render(request, "game_new.html", {"form": form, "known_names": known}, status=status)


def turn_context(progress: GameProgress, query, advice_on=False, **extra) -> dict:
    """What the turn panel shows: whose turn, the dice so far and every open box's value,
    with the optimal strategy's ratings when the player asked for advice."""
    current = progress.current
    dice_input = DiceInput(query)
    context = {"progress": progress, "dice_input": dice_input, "card": None, "box_options": []}
    context |= {"wants_advice": advice_on, "advice_available": advice.advice_available(progress)}
    if current is None:
        return context | extra
    open_cards = current.open_cards()
    wanted = query.get("card", "")
    card = next((c for c in open_cards if str(c.number) == wanted), open_cards[0])
    dice = progress.turn_dice if progress.game.digital else progress.round_dice or dice_input.dice
    joker = progress.game.joker_rule
    advising = advice_on and advice.advice_available(progress)
    if dice:
        rated = advice.rate_boxes(card, dice, joker) if advising else {}
        options = rules.card_options(card.filled, dice, joker)
        context["box_options"] = [(option, rated.get(option.box)) for option in options]
    advised = [False] * rules.DICE_COUNT
    if advising and progress.may_roll and progress.table_dice:
        advised = advice.best_hold(card, progress.table_dice, progress.rolls_left, joker)
        context["hold_advice"] = True
    context["table_rows"] = [(*die, tip) for die, tip in zip(progress.table, advised, strict=False)]
    context.update(card=card, open_cards=open_cards, dice=dice)
    context["dice_text"] = "".join(map(str, dice or ()))
    return context | extra


def wants_advice(request: HttpRequest) -> bool:
    return request.COOKIES.get(ADVICE_COOKIE) == "on"


def render_game(request, progress: GameProgress, partial: str, status=200, query=None, **extra):
    query = request.GET if query is None else query
    context = turn_context(progress, query, advice_on=wants_advice(request), **extra)
    context["columns"] = game_columns(progress)
    context["rows"] = sheet_rows(context["columns"])
    context["standings_headings"] = STANDINGS_HEADINGS
    template = f"game.html#{partial}" if request.htmx else "game.html"
    return render(request, template, context, status=status)


@require_GET
def game_page(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    progress = load_progress(household_game(request, public_id))
    dice_error = DiceInput(request.GET).error
    return render_game(request, progress, "turn", status=400 if dice_error else 200)


REFUSALS = (services.GameChanged, ValueError)


def _refused(request, game: Game, refusal: Exception) -> HttpResponse:
    """A refused change: the card as it is, with the reason where the player is looking
    (409 when another tap or screen changed the game first, else 400)."""
    progress = load_progress(Game.objects.get(pk=game.pk))
    status = getattr(refusal, "status_code", 400)
    return render_game(request, progress, "after-entry", status=status, error=str(refusal))


@require_POST
def record(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = household_game(request, public_id)
    post = request.POST
    try:
        dice = rules.parse_dice(post["dice"]) if post.get("dice") else None
        points = parse_int(post["points"], "Points") if post.get("points", "") != "" else None
        entry, created = services.record_box(
            game=game,
            version=parse_int(post.get("version"), "The version"),
            turn=parse_int(post.get("turn"), "The turn"),
            box=parse_box(post.get("box")),
            card=parse_int(post.get("card", "1"), "The card"),
            dice=dice,
            points=points,
            extra_yahtzee=post.get("extra_yahtzee") == "on",
            confirm_zero=post.get("confirm") == "zero",
        )
    except services.ZeroNeedsConfirmation as question:
        progress = load_progress(Game.objects.get(pk=game.pk))
        return render_game(request, progress, "turn", query=post, confirm=question)
    except REFUSALS as refusal:
        return _refused(request, game, refusal)
    if not request.htmx:
        return redirect("game", public_id=game.public_id)
    note = f"{entry.seat.player.name}: {entry.rules_box.label} {entry.points}"
    if not created:
        note += " (already recorded)"
    return render_game(request, load_progress(game), "after-entry", query={}, notice=note)


@require_POST
def roll(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = household_game(request, public_id)
    post = request.POST
    try:
        services.roll_dice(
            game=game,
            version=parse_int(post.get("version"), "The version"),
            turn=parse_int(post.get("turn"), "The turn"),
            hold=[parse_int(position, "A held die") for position in post.getlist("hold")],
        )
    except REFUSALS as refusal:
        return _refused(request, game, refusal)
    if not request.htmx:
        return redirect("game", public_id=game.public_id)
    return render_game(request, load_progress(game), "turn", query={})


@require_POST
def undo(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = household_game(request, public_id)
    try:
        undone = services.undo_last_entry(
            game=game, version=parse_int(request.POST.get("version"), "The version")
        )
    except REFUSALS as refusal:
        return _refused(request, game, refusal)
    if not request.htmx:
        return redirect("game", public_id=game.public_id)
    note = f"Undone: {undone.seat.player.name}’s {undone.rules_box.label} ({undone.points})."
    return render_game(request, load_progress(game), "after-entry", query={}, notice=note)


@require_http_methods(["GET", "POST"])
def correct(request: HtmxHttpRequest, public_id: str, turn: int) -> HttpResponse:
    game = household_game(request, public_id)
    entry = get_object_or_404(Entry.objects.select_related("seat__player"), game=game, turn=turn)
    error, status = "", 200
    if request.method == "POST":
        post = request.POST
        try:
            services.correct_box(
                game=game,
                version=parse_int(post.get("version"), "The version"),
                entry=entry,
                dice=rules.parse_dice(post["dice"]) if post.get("dice") else None,
                points=parse_int(post["points"], "Points") if post.get("points") else None,
            )
            return redirect("game", public_id=game.public_id)
        except REFUSALS as refusal:
            error, status = str(refusal), getattr(refusal, "status_code", 400)
        game.refresh_from_db()
    context = {"game": game, "entry": entry, "error": error}
    context["achievable"] = rules.describe_values(sorted(rules.achievable_points(entry.rules_box)))
    return render(request, "correct.html", context, status=status)


@require_POST
def advice_switch(request: HtmxHttpRequest) -> HttpResponse:
    """Turn advice on or off for this browser; purists play without it, so it starts off."""
    back = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = "/"
    response = redirect(back)
    state = "on" if request.POST.get("advice") == "on" else "off"
    response.set_cookie(ADVICE_COOKIE, state, max_age=60 * 60 * 24 * 365, samesite="Lax")
    return response


@require_POST
def rematch(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = services.game_rematch(game=household_game(request, public_id))
    return redirect("game", public_id=game.public_id)
