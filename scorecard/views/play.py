"""Playing a game: its page, recording a box, rolling, undo, corrections and a rematch.

Each view parses the input, calls one service and renders what changed: an htmx request
gets the fragments to swap, a plain form post is redirected back to the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorecard.access.households import household_game
from scorecard.access.links import GameLinks, Role, game_for, seated_game_for
from scorecard.engine import rules
from scorecard.game import services
from scorecard.game.progress import EntryRow, GameProgress, latest_fix, load_progress, round_of
from scorecard.models import Entry, Game, IdempotentRequest, Seat, UndoneEntry
from scorecard.presenters import advisor, standings
from scorecard.presenters.box_names import box_name
from scorecard.presenters.rule_words import said
from scorecard.presenters.sheet import GameSheet, box_anchor, changed_rows
from scorecard.presenters.turn_panel import (
    PAD_KEYS,
    TurnPanel,
    build_turn_panel,
    coach_on_box,
    coach_on_hold,
    dice_for_turn,
    entry_words,
)
from scorecard.web import advice_setting, fragments, idempotency, live
from scorecard.web.forms import (
    A_HELD_DIE,
    POINTS,
    ROLLS_USED,
    THE_CARD,
    THE_TURN,
    THE_VERSION,
    DiceInput,
    dice_example,
    entry_fields,
    parse_dice,
    parse_int,
)
from scorecard.web.htmx import HtmxHttpRequest


def _panel(
    request: HtmxHttpRequest, progress: GameProgress, links: GameLinks, query, **shown
) -> TurnPanel:
    setting = advice_setting.setting(request)
    return build_turn_panel(progress, query, links=links, advice_setting=setting, **shown)


def _respond(
    request: HtmxHttpRequest,
    panel: TurnPanel,
    partial: str = "turn",
    *,
    status: int = 200,
    entry: EntryRow | None = None,
    legend_open: bool = False,
) -> TemplateResponse:
    """The whole page, or for htmx the partial: "turn", "after-roll" (the panel and the
    standings rows), "after-entry" (the panel, the standings rows and the cells `entry`
    changed), "after-refusal" (everything),
    "after-poll" (everything, out of band, for a live page whose game changed),
    "after-poll-step" (the panel out of band and what `entry` changed, for a live page that
    shows the version before it) or "standings-legend" (with `legend_open`: what the
    standings' columns mean)."""
    progress, links = panel.progress, panel.links
    context = {"panel": panel, "game": progress.game, "links": links, "legend_open": legend_open}
    whole = not request.htmx or partial in {"after-refusal", "after-poll"}
    entry_changes = partial in {"after-entry", "after-poll-step"}
    if whole or entry_changes or partial == "after-roll":
        # Not once the game is over: the winner is known, and the column's note spoke of a
        # turn to come (a tester).
        shows_wins = (
            panel.wants_advice and not progress.is_finished and advisor.win_chances_shown(progress)
        )
        context["win_note"] = advisor.win_note(progress) if shows_wins else ""
        # Worked out when drawn: the page's standings may come drawn from the cache.
        context["standings"] = SimpleLazyObject(
            lambda: standings.standings_rows(
                progress, advisor.win_column(progress) if shows_wins else None
            )
        )
    scoring_table = links.role.may_score and not progress.game.digital
    correct = links.correct if scoring_table else None
    if whole or legend_open or (entry_changes and panel.standings_columns_change):
        house, finished = progress.game.house_rules, progress.is_finished
        context["standings_headings"] = standings.headings(house, finished)
    if whole or (entry_changes and panel.grid_hint_changes):
        # (The first box filled, or the only one undone: the grid's hint comes or goes.)
        context["sheet"] = GameSheet(progress, correct)
    if entry_changes and entry is not None:
        # Worked out when drawn, after a write's transaction: SQLite's other writers wait
        # for its end (yahtzee/sqlite), not for this.
        context["changed_rows"] = SimpleLazyObject(lambda: changed_rows(progress, entry, correct))
    if partial == "after-poll-step":  # an entry's answer, its turn panel out of band too
        partial, context["oob"] = "after-entry", True
    template = f"game.html#{partial}" if request.htmx else "game.html"
    # Drawn after the view returns, so a write's transaction (`idempotency`) ends first.
    response = TemplateResponse(request, template, context, status=status)
    if request.htmx and status >= 400:
        # The card with the reason on it: the page swaps it in like a success (requests.js);
        # any other failed answer is only said, never swapped over the page.
        response.headers["X-In-Place"] = "1"
    elif address := _moved_address(request, panel):
        response.headers["HX-Replace-Url"] = address
    return response


def _moved_address(request: HtmxHttpRequest, panel: TurnPanel) -> str | None:
    """The address this answer writes into the address bar (htmx's HX-Replace-Url), when
    it changes: the pad's own answer, so that a reload or Back shows its dice again, and a
    box recorded or undone, or a roll, so that the address no longer holds the dice of a
    turn gone (nor the dice held for the roll before, dice-game.js)."""
    if not request.htmx:
        return None
    moved = panel.after_tap in ("entry", "roll")
    if not moved and not (panel.after_tap == "dice" and "dice" in request.GET):
        return None
    now = urlsplit(request.htmx.current_url or "")
    address = panel.page_with_dice
    return None if address == urlunsplit(("", "", now.path, now.query, "")) else address


def _refused(
    request: HtmxHttpRequest,
    game: Game,
    links: GameLinks,
    refusal: services.Refusal,
    seats: list[Seat] | None = None,
) -> HttpResponse:
    """The card as it is now, with the reason where the player is looking (409 when another
    tap or phone changed the game first, else 400)."""
    progress = refusal.progress
    if progress is None:
        game.refresh_from_db(fields=["version", "finished", "recorded_version"])
        progress = load_progress(game, seats=seats)
    query: dict[str, str] | QueryDict = {}
    if "points" in request.POST:  # typed points come back in their open form, as sent
        sent = ("box", "points", "card", "extra_yahtzee")
        query = {name: request.POST[name] for name in sent if name in request.POST}
        query["typed"] = "1"
    elif request.POST.get("dice") and request.POST.get("turn") == str(progress.next_turn):
        # Dice sent for the turn still to play (a race lost to a correction of an older box,
        # or a box refused) stay on the pad, their boxes shown again (they were wiped: the
        # roll had to be entered again; a helper).
        kept = ("dice", "turn", "card", "roll", "rolls")
        query = {name: request.POST[name] for name in kept if name in request.POST}
    elif "hold" in request.POST and not isinstance(refusal, services.GameChanged):
        # A refused roll (every die held) leaves the dice held as they were sent, not let go
        # (found by a new user): a tap on one of them, then Roll.
        query = QueryDict(mutable=True)
        query.setlist("hold", request.POST.getlist("hold"))
        query["held_at"] = str(progress.game.version)
    error = str(refusal)
    if isinstance(refusal, services.GameChanged):
        error = _what_won(error, progress)
    panel = _panel(request, progress, links, query, error=error)
    return _respond(request, panel, "after-refusal", status=refusal.status_code)


def _what_won(reason: str, progress: GameProgress) -> str:
    """The phone that lost a race is told what won it, not left to find it on the card: the
    correction or undo made since the last entry (a tester's tap refused for a correction
    was told of an entry made long before), else that entry."""
    game = progress.game
    if game.recorded_version != game.version and (fix := latest_fix(game)) is not None:
        return f"{reason} {_latest_fix_note(fix, game)}"
    if not progress.entries:
        return reason
    said = entry_words(progress.entries[-1], game) | {"reason": reason}
    if said["multiplier"]:
        last = _(
            "%(reason)s Last on the card: %(name)s, %(box)s %(points)s on card ×%(multiplier)s."
        )
    else:
        last = _("%(reason)s Last on the card: %(name)s, %(box)s %(points)s.")
    return last % said


def _replayed(
    request: HtmxHttpRequest, game: Game, key: str, role: Role, stored: IdempotentRequest
) -> HttpResponse:
    """A tap sent again after its answer was lost: what it was told then, on the card as
    it is now (which may have moved on since), and nothing written."""
    links = GameLinks(key, role)
    if not request.htmx:
        return redirect(links.page)
    seated, seats = seated_game_for(request, key, role)
    progress = load_progress(seated, seats=seats)
    panel = _panel(request, progress, links, {}, notice=stored.note or None)
    status = stored.status if stored.status < 300 else 200  # a plain post's redirect
    return _respond(request, panel, "after-refusal", status=status)


@require_GET
def game_page(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    """The game as `role` sees it; a live page's poll (`?live=1`) reaches here only when the
    game changed (`live.AnswerUnchangedPolls` answers the others)."""
    links = GameLinks(key, role)
    if live.is_poll(request) and not role.may_score:
        return _watcher_poll(request, links)
    game, seats = seated_game_for(request, key, role)
    progress = load_progress(game, seats=seats)
    if live.is_poll(request):
        partial, entry = _poll_answer(request, progress)
        dropped = _dice_dropped(request, progress, entry)
        notice = _then(_poll_notice(request, entry, game), dropped)
        panel = _panel(request, progress, links, {}, notice=notice)
        response = _respond(request, panel, partial, entry=entry)
        if dropped:  # and out of the address too, which a reload would have brought back
            response.headers["HX-Replace-Url"] = links.page
        return live.tagged(response, game.version)
    message = None if request.htmx else next(iter(messages.get_messages(request)), None)
    # A whole page asked for by the pad's keys or Show (no scripts) keeps the focus there too.
    pad_tap = any(key in request.GET for key in (*PAD_KEYS, "show"))
    after_tap = "dice" if request.htmx else "pad" if pad_tap else ""
    query, cleared = dice_for_turn(request.GET, progress)
    told = str(message) if message else cleared
    said = {"notice": told, "focus_notice": True} if told else {}
    said["pad_cut_short"] = _pad_cut_short(request)
    said["roll_chosen"] = _roll_chosen(request)
    panel = _panel(request, progress, links, query, after_tap=after_tap, **said)
    if "legend" in request.GET:
        return _respond(request, panel, "standings-legend", legend_open=True)
    if panel.advice_open and panel.offers_advice_switch:
        return _respond(request, panel, "advice-switch")
    dice_error = panel.dice_entry is not None and panel.dice_entry.error
    # The typed points opened alone, or with the points sent before in the whole turn (a
    # zero question's No brings them back).
    partial = "typed" if panel.typed_open and "points" not in request.GET else "turn"
    if cleared and partial == "turn":  # the card changed under the page: all of it comes as
        partial = "after-refusal"  # it is now, not the turn alone (the rest stayed old, a tester)
    return _respond(request, panel, partial, status=400 if dice_error else 200)


def _watcher_poll(request: HtmxHttpRequest, links: GameLinks) -> HttpResponse:
    """A watch link's poll answer holds no form and nothing of the browser asking, so it is
    drawn once per version and every phone watching the game gets that drawing (one small
    query each); it is kept under the version it shows, which a tap may have moved on."""
    version = live.current_version(request, links.key, links.role)
    # Kept apart: what a page one version behind is sent (an entry's changes, when the
    # version was an entry) and what any other page is sent (everything).
    one_behind = live.shown_version(request) == version - 1
    answer = "after-poll-step" if one_behind else "after-poll"
    cache_key = fragments.key(answer, links.key, links.role)
    if (drawn := fragments.stored(cache_key, version)) is not None:
        return live.tagged(HttpResponse(drawn), version)
    game, seats = seated_game_for(request, links.key, links.role)
    progress = load_progress(game, seats=seats)
    partial, entry = _poll_answer(request, progress) if one_behind else ("after-poll", None)
    panel = _panel(request, progress, links, {}, notice=_poll_notice(request, entry, game))
    response = _respond(request, panel, partial, entry=entry)
    fragments.store(cache_key, game.version, response.render().content.decode())
    return live.tagged(response, game.version)


def _poll_notice(request: HtmxHttpRequest, entry: EntryRow | None, game: Game) -> str | None:
    """An entry another phone recorded, said where this one's turn changed under it: the
    dice it had half entered for that turn are gone (found by a new user, left to wonder).
    A page one version behind an undo or a correction is told which box it was: the grid
    changed under it with nothing said."""
    if entry is not None:
        return _recorded_note(entry, game)
    if live.shown_version(request) != game.version - 1 or game.recorded_version == game.version:
        return None
    fix = latest_fix(game)
    return _latest_fix_note(fix, game) if fix is not None else None


def _dice_dropped(request: HtmxHttpRequest, progress: GameProgress, entry: EntryRow | None) -> str:
    """What a scorer's poll says of the dice its page had half entered for a turn the card
    has since moved past (the pad writes them and their turn in the page's address): they
    go with the panel the answer replaces (they went unsaid, a tester). Briefly after the
    note of that turn's own entry."""
    shown = QueryDict(urlsplit(request.htmx.current_url or "").query if request.htmx else "")
    cleared = dice_for_turn(shown, progress)[1]
    if cleared and entry is not None and shown.get("turn") == str(entry.turn):
        return _("The dice entered for that turn were cleared.")
    return cleared


def _roll_chosen(request: HtmxHttpRequest) -> bool:
    """Whether this is the pad's ask for the dice its address shows already, another roll
    chosen for them (dice-pad.js asks on a change of the roll): the focus stays on that
    roll, as an arrow key moves through the choices (it fell to the boxes' hint, so a
    keyboard went on from there; a tester)."""
    if not request.htmx:
        return False
    shown, asked = QueryDict(urlsplit(request.htmx.current_url or "").query), request.GET
    same_dice = "dice" in asked and shown.get("dice") == asked["dice"]
    return same_dice and shown.get("roll", "1") != asked.get("roll", "1")


def _pad_cut_short(request: HtmxHttpRequest) -> bool:
    """Whether this is the pad's own ask (dice-pad.js: from no element with an id, its dice
    without Show) for dice cut short by ⌫ or Clear while boxes were on show. The script
    sends the dice, not the key, and the key's focus fell to the page's top (a tester with a
    screen reader). A card's tab and the advice switch send the dice too."""
    asked = request.GET
    pad = bool(request.htmx) and not request.htmx.trigger and "dice" in asked
    return pad and "show" not in asked and "advice" not in asked


def _then(said: str | None, more: str) -> str | None:
    """Two notes as one, the first ended as a sentence."""
    if not said or not more:
        return said or more or None
    return f"{said} {more}" if said[-1] in ".!?" else f"{said}. {more}"


def _poll_answer(request: HtmxHttpRequest, progress: GameProgress) -> tuple[str, EntryRow | None]:
    """What a live page's poll is sent: the last entry's changes (its rows, the standings'
    rows, the turn) when the page shows the version before that entry, else every region."""
    if live.one_entry_behind(request, progress.game):
        return "after-poll-step", progress.entries[-1]
    return "after-poll", None


@require_POST
@idempotency.idempotent(_replayed)
def record(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    links = GameLinks(key, role)
    game, seats = seated_game_for(request, key, role)
    try:
        fields = entry_fields(request.POST, game.house_rules.family)
        progress = None  # read here only for the coach, then handed to the service
        if (threshold := _coach_listening(request)) is not None:
            progress = load_progress(game, seats=seats)
            if objection := coach_on_box(progress, fields, threshold):
                panel = _panel(request, progress, links, request.POST, coach=objection)
                return _respond(request, panel)
        recorded = services.record_box(game=game, seats=seats, progress=progress, **fields)
    except services.ZeroNeedsConfirmation as question:
        panel = _panel(request, question.progress, links, request.POST, confirm=question)
        return _respond(request, panel)
    except services.Refusal as refusal:
        return _refused(request, game, links, refusal, seats)
    entry = recorded.entry
    note = _recorded_note(entry, game)
    idempotency.remember(request, note)
    if not request.htmx:
        return _said_then_shown(request, note, links.page)
    if not recorded.is_new:
        note = _("%(note)s (already recorded)") % {"note": note}
    panel = _panel(request, recorded.progress, links, {}, notice=note, after_tap="entry")
    return _respond(request, panel, "after-entry", entry=entry)


def _recorded_note(entry: EntryRow | Entry, game: Game) -> str:
    """What was just recorded, as the phone that recorded it is told (and every other phone
    showing the game, at its next poll)."""
    recorded_said = entry_words(entry, game)
    if entry.yahtzee_bonus and recorded_said["multiplier"]:
        # The card's multiple counts the bonus too: "+100" beside the standings' 300 read
        # as two different numbers (a helper).
        note = _(
            "%(name)s: %(box)s %(points)s on card ×%(multiplier)s and +%(bonus)s "
            "×%(multiplier)s for an extra Yahtzee!"
        )
    elif entry.yahtzee_bonus:
        note = _("%(name)s: %(box)s %(points)s and +%(bonus)s for an extra Yahtzee!")
    elif recorded_said["multiplier"]:
        note = _("%(name)s: %(box)s %(points)s on card ×%(multiplier)s")
    else:
        note = _("%(name)s: %(box)s %(points)s")
    return note % recorded_said


def _undone_note(undone: EntryRow | UndoneEntry, game: Game) -> str:
    if undone.yahtzee_bonus:  # the 100 goes with it: the total falls by both
        return _entry_note(
            undone,
            game,
            on_card=_(
                "Undone: %(name)s’s %(box)s on card ×%(multiplier)s (%(points)s and the "
                "+%(bonus)s for an extra Yahtzee)."
            ),
            plain=_(
                "Undone: %(name)s’s %(box)s (%(points)s and the +%(bonus)s for an extra Yahtzee)."
            ),
        )
    return _entry_note(
        undone,
        game,
        on_card=_("Undone: %(name)s’s %(box)s on card ×%(multiplier)s (%(points)s)."),
        plain=_("Undone: %(name)s’s %(box)s (%(points)s)."),
    )


def _corrected_note(entry: Entry, game: Game, before: services.BeforeCorrection | None) -> str:
    """A correction as every phone is told it, `before` being the box as it was: a move says
    where from, then what else it changed (a phone other than the one that corrected was
    told only "Corrected", and 100 points went without a word; a tester)."""
    moved_from = before.place if before is not None else None
    if moved_from is not None and moved_from != (entry.card, entry.rules_box):
        said_of = entry_words(entry, game) | {"from": box_name(moved_from.box)}
        said_of["was"] = rules.card_multiplier(moved_from.card)
        moved = (
            _(
                "Moved: %(name)s’s %(from)s on card ×%(was)s to %(box)s on card "
                "×%(multiplier)s, now %(points)s."
            )
            if said_of["multiplier"]
            else _("Moved: %(name)s’s %(from)s to %(box)s, now %(points)s.")
        )
        note = moved % said_of
    else:
        note = _entry_note(
            entry,
            game,
            on_card=_("Corrected: %(name)s’s %(box)s on card ×%(multiplier)s, now %(points)s."),
            plain=_("Corrected: %(name)s’s %(box)s, now %(points)s."),
        )
    return " ".join([note, *_what_else_changed(entry, game, before)])


def _what_else_changed(
    entry: Entry, game: Game, before: services.BeforeCorrection | None
) -> Iterator[str]:
    """The rest of a correction's note: the rolls its turn used, its own bonus, and each
    later five alike's bonus it gave or took away (the Yahtzee box's 50 decides them)."""
    if before is not None and before.rolls_used != entry.rolls_used:
        yield _("Rolls used: %(count)s.") % {"count": entry.rolls_used}
    if entry.yahtzee_bonus:  # ticked or not: dice or points decide, said here
        yield _("With the 100 extra-Yahtzee bonus.")
    elif before is not None and before.yahtzee_bonus:
        yield _("It no longer has its 100 extra-Yahtzee bonus.")
    later = dict(before.later_bonuses) if before is not None else {}
    players = game.seats.count() if later else 0
    for row in game.entries.filter(turn__in=later).order_by("turn") if later else ():
        if later[row.turn]:
            said = _("%(box)s (round %(round)s) now has its 100 extra-Yahtzee bonus.")
        else:
            said = _("%(box)s (round %(round)s) no longer has a 100 extra-Yahtzee bonus.")
        box = game.house_rules.family.box(row.box)
        yield said % {"box": box_name(box), "round": round_of(row.turn, players)}


def _latest_fix_note(fix: Entry | UndoneEntry, game: Game) -> str:
    """The latest undo or correction as a phone that did not make it is told it."""
    if isinstance(fix, UndoneEntry):
        return _undone_note(fix, game)
    return _corrected_note(fix, game, services.before_correction(fix, game))


def _entry_note(
    entry: EntryRow | Entry | UndoneEntry, game: Game, *, on_card: str, plain: str
) -> str:
    """A note of an entry: `on_card` names its card, where a player has three."""
    entry_said = entry_words(entry, game)
    return (on_card if entry_said["multiplier"] else plain) % entry_said


def _said_then_shown(request: HtmxHttpRequest, note: str, page: str) -> HttpResponse:
    """A plain post's answer: the page it came from, which says what was done (as an htmx
    answer's turn panel does) once, through Django's messages."""
    messages.info(request, note)
    return redirect(page)


def _coach_listening(request: HtmxHttpRequest) -> float | None:
    """The loss at which the coach speaks up for this move: None when this browser did not
    choose the coach, or the player already heard it on this move."""
    if request.POST.get("coach") == "heard":
        return None
    return advice_setting.coach_threshold(advice_setting.setting(request))


@require_POST
@idempotency.idempotent(_replayed)
def roll(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    links = GameLinks(key, role)
    game, seats = seated_game_for(request, key, role)
    post = request.POST
    try:
        version = parse_int(post.get("version"), THE_VERSION)
        turn = parse_int(post.get("turn"), THE_TURN)
        hold = [parse_int(position, A_HELD_DIE) for position in post.getlist("hold")]
        progress = None  # read here only for the coach, then handed to the service
        if (threshold := _coach_listening(request)) is not None:
            progress = load_progress(game, seats=seats)
            if note := coach_on_hold(progress, (version, turn), hold, threshold):
                return _respond(request, _panel(request, progress, links, {}, hold_coach=note))
        progress = services.roll_dice(
            game=game, version=version, turn=turn, hold=hold, seats=seats, progress=progress
        )
    except services.Refusal as refusal:
        return _refused(request, game, links, refusal, seats)
    idempotency.remember(request)
    if not request.htmx:
        return redirect(links.page)
    panel = _panel(request, progress, links, {}, after_tap="roll")
    # A 4th roll spends a saved one: the standings' Saved column says so with the turn's.
    return _respond(request, panel, "after-roll" if game.house_rules.saves_rolls else "turn")


@require_POST
@idempotency.idempotent(_replayed)
def undo(request: HtmxHttpRequest, key: str, role: Role = Role.OWNER) -> HttpResponse:
    links = GameLinks(key, role)
    game, seats = seated_game_for(request, key, role)
    try:
        version = parse_int(request.POST.get("version"), THE_VERSION)
        confirmed = request.POST.get("confirm") == "undo"
        progress, undone = services.undo_last_entry(
            game=game, version=version, seats=seats, confirmed=confirmed
        )
    except services.UndoNeedsConfirmation as question:
        panel = _panel(request, question.progress, links, {}, undo_question=question)
        return _respond(request, panel)
    except services.Refusal as refusal:
        return _refused(request, game, links, refusal, seats)
    note = _undone_note(undone, game)
    idempotency.remember(request, note)
    back = _turn_back(undone, game)
    if not request.htmx:  # the turn comes back, so the right box is one more tap
        return _said_then_shown(request, note, links.page + (f"?{urlencode(back)}" if back else ""))
    panel = _panel(request, progress, links, back, notice=note, after_tap="entry")
    return _respond(request, panel, "after-entry", entry=undone)


def _turn_back(undone: EntryRow, game: Game) -> dict[str, str]:
    """The undone turn as it was entered at a table: its dice, as the turn's final roll (they
    were scored: keep advice for a 1st roll would be advice for dice that were never
    rolled again), its card when not the first, and where rolls are saved the rolls it used
    (else a whole turn, and the rolls it had saved would come back a second time)."""
    if game.digital or not undone.dice:
        return {}
    back = {"dice": undone.dice, "roll": DiceInput.FINAL_ROLL}
    if undone.card != 1:
        back["card"] = str(undone.card)
    if game.house_rules.saves_rolls:
        back["rolls"] = str(undone.rolls_used)
    return back


@require_http_methods(["GET", "POST"])
@idempotency.idempotent(_replayed)
def correct(request: HtmxHttpRequest, key: str, turn: int, role: Role = Role.OWNER) -> HttpResponse:
    links = GameLinks(key, role)
    game = game_for(request, key, role)
    entry = Entry.objects.select_related("seat__player").filter(game=game, turn=turn).first()
    if entry is None:  # undone on another phone (the 404 said the link no longer worked)
        gone = _("That box is not filled on the card now (another phone may have undone it), "
                 "so nothing was changed.")  # fmt: skip
        return _said_then_shown(request, gone, links.page)
    players = game.seats.count()
    error, status, correctable, zero_in, bonuses_taken = "", 200, True, None, 0
    try:
        services.check_correctable(game)
    except services.Refusal as refusal:  # said before anything is typed, not after
        error, status, correctable = str(refusal), refusal.status_code, False
    if request.method == "POST" and correctable:
        post = request.POST
        try:
            corrected = services.correct_box(
                game=game,
                version=_version_to_correct(game, entry, post),
                entry=entry,
                dice=parse_dice(post.get("dice"), game.house_rules.family),
                points=parse_int(post["points"], POINTS) if post.get("points") else None,
                extra_yahtzee=post.get("extra_yahtzee") == "on",
                rolls_used=parse_int(post["rolls"], ROLLS_USED) if post.get("rolls") else None,
                confirm_zero=post.get("confirm") == "zero",
                **_move_to(post.get("box", "")),
            )
            before = services.before_correction(entry, game) if corrected.changed else None
            note = _corrected_note(corrected.entry, game, before)
            idempotency.remember(request, note)
            return _said_then_shown(request, note, links.page)
        except services.ZeroNeedsConfirmation as question:
            zero_in, bonuses_taken = question.box, question.bonuses_taken
        except services.Refusal as refusal:
            error, status = str(refusal), refusal.status_code
        game.refresh_from_db()
    context = {"game": game, "entry": entry, "error": error, "links": links, "zero_in": zero_in}
    context["bonuses_taken"] = bonuses_taken
    context["back"] = f"{links.page}#{box_anchor(entry.turn)}"
    context["entry_state"] = _entry_state(entry)
    context["round"] = round_of(entry.turn, players)
    context["correctable"] = correctable
    context["example"] = dice_example(game.house_rules.family)
    # Which of the player's cards, where each has its own (Triple Yahtzee's ×1, ×2, ×3).
    context["multiplier"] = rules.card_multiplier(entry.card) if game.cards_per_player > 1 else 0
    # A refused correction comes back as it was typed, to be fixed rather than typed again.
    typed = {name: request.POST.get(name, "")[:12] for name in ("dice", "points")}
    context["sent"] = typed
    if correctable and services.correction_pays_extra_yahtzee(game=game, entry=entry):
        sent = request.POST.get("extra_yahtzee") == "on"
        context["extra_yahtzee"] = sent if request.method == "POST" else entry.yahtzee_bonus
        context["asks_extra_yahtzee"] = True
    # The box may move (a roll written in the wrong box): the points' limit is any box's,
    # and the hint the chosen box's (chosen again by htmx as the choice changes).
    chosen = request.POST.get("box") or request.GET.get("box")
    context |= _move_choices(game, entry, correctable, chosen)
    context["hinted_box"] = _box_chosen(game, str(context["chosen"])) or entry.rules_box
    achievable = sorted(game.house_rules.achievable_points(context["hinted_box"]))
    context["achievable"] = said(rules.describe_values(achievable))
    if correctable and game.house_rules.saves_rolls:  # a count said wrong is fixed here too
        most = services.rolls_this_turn_had(game=game, entry=entry)
        context["rolls_counts"] = range(1, max(most, entry.rolls_used) + 1)
        context["rolls_chosen"] = request.POST.get("rolls") or str(entry.rolls_used)
    return render(request, "correct.html", context, status=status)


def _entry_state(entry: Entry) -> str:
    """The corrected box as its page showed it, sent back with the correction."""
    return f"{entry.card}:{entry.box}:{entry.points}:{entry.dice}:{entry.rolls_used}"


def _version_to_correct(game: Game, entry: Entry, post) -> int:
    """The version a correction claims: the game's now, if the box is still as its page
    showed it (another phone's entry meanwhile refused a correction it did not touch, at a
    busy table again and again); else the page's, which a change since refuses. The whole
    card is checked again either way."""
    if post.get("was") == _entry_state(entry):
        return game.version
    return parse_int(post.get("version"), THE_VERSION)


def _box_chosen(game: Game, value: str) -> rules.CardBox | None:
    """The box of the correction form's choice ("fours", "2:fours"), or None when no box of
    the game's family has that key."""
    try:
        return game.house_rules.family.box(value[:40].rpartition(":")[2])
    except rules.RuleViolation:
        return None


def _move_choices(game: Game, entry: Entry, correctable: bool, sent: str | None) -> dict[str, Any]:
    """The correction form's box choice (none in forced order or where nothing may change):
    each place's value, box, what its dice score there and, with three cards, which card;
    the one sent (else its own) chosen; and the points field's most, any place's."""
    places = services.places_to_move_to(game=game, entry=entry) if correctable else []
    points = services.points_if_moved(game=game, entry=entry, places=places)
    triple = game.cards_per_player > 1
    choices = [
        (
            _place_value(p, game),
            p.box,
            points.get(p),
            rules.card_multiplier(p.card) if triple else 0,
        )
        for p in places
    ]
    boxes = [place.box for place in places] or [entry.rules_box]
    own = _place_value(services.Place(entry.card, entry.rules_box), game)
    # A box sent that is no longer open (another phone filled it) is not chosen: the list
    # showed the box's own while the hint spoke of the one sent (a tester).
    offered = {choice[0] for choice in choices}
    return {
        "places": choices,
        "chosen": sent if sent in offered else own,
        "most": max(max(game.house_rules.achievable_points(box)) for box in boxes),
    }


def _place_value(place: services.Place, game: Game) -> str:
    """A place as the correction form's box choice sends it: the box's key, and its card's
    number before it where a player has three cards ("2:fours")."""
    return f"{place.card}:{place.box.key}" if game.cards_per_player > 1 else place.box.key


def _move_to(value: str) -> dict[str, Any]:
    """The box choice of the correction form, for `services.correct_box`."""
    card, _colon, key = value[:40].rpartition(":")  # a key is short: a refusal repeats it
    return {"box": key or None, "card": parse_int(card, THE_CARD) if card else None}


@require_POST
def advice_switch(request: HtmxHttpRequest) -> HttpResponse:
    """Turn advice on or off for this browser, then go back to the page it was asked on."""
    back = request.POST.get("next", "")
    local = back.startswith("/") and not back.startswith("//")
    if not (local and url_has_allowed_host_and_scheme(back, {request.get_host()})):
        back = "/"
    response = HttpResponseRedirect(back)
    advice_setting.remember(response, request, request.POST.get("advice", "off"))
    return response


@require_POST
def rematch(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A new game, so it counts against the creation limit; refused, the finished game's
    page says why above its Rematch button (429) and nothing is made."""
    game = household_game(request, public_id)
    if (made := services.rematch_made(game)) is not None:  # Back, then Rematch again
        return redirect("game", key=made.public_id)
    try:
        made = idempotency.game_made_once(request, lambda: services.game_rematch(game=game))
    except services.Refusal as refusal:
        links = GameLinks(public_id)
        panel = _panel(request, load_progress(game), links, {}, error=str(refusal))
        return _respond(request, panel, "after-refusal", status=refusal.status_code)
    return redirect("game", key=made.public_id)
