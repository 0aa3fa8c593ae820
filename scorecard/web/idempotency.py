"""A tap is written once, however often its request arrives.

Every state-changing form of a game page carries a key made for that tap: htmx sends the one
the phone made at tap time (`Idempotency-Key`, kept with the tap in the phone's outbox for
every retry); a page without scripts sends the hidden `idempotency_key` field the server drew
into the form, so the same form sent twice sends the same key. The header wins over the field.

`idempotent` stores the key in the transaction of the write, as its last statement, with
what the player was told (`remember`): one statement a tap, not a claim before the view and
a note after it. A send whose key an earlier send stored is undone whole when it finds the
key, and answered instead with the stored outcome and the card as it is now; a key stored
for another game is a 400. Such a send rarely has anything to undo: the earlier send moved
the game's version, so its view finds the tap already recorded (or the game changed) and
writes nothing. Its answer is drawn only after the view returns (`TemplateResponse`), so an
undone send draws nothing and keeps nothing in the cache. On PostgreSQL a second send of a
tap still being written waits for the first on the game's row, then on the key's unique
index; SQLite's IMMEDIATE transactions queue them anyway. A view that wrote nothing (a
refusal, a question back) stores no key, so the same tap sent again is checked afresh.
Without a key a request works as before: the game's version still stops a double write.

A tap that makes a game ("Start the game", "Rematch") or a browser of a household ("Join")
has nothing to claim its key for before it runs, so `_made_once` makes it and then stores
the key with it, in one transaction: a send that finds the key stored by an earlier one is
answered with what that one made, making nothing (or undoing what it made, when the two
raced). A brand-new phone's second send left before the first answer's cookie came back, so
it is given the browser the first one made.
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import wraps

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext_lazy

from scorecard.access import households, throttle
from scorecard.access.links import GameLinks, Role, game_for_a_tap
from scorecard.game import compiled
from scorecard.game.services import Refusal
from scorecard.models import Browser, Game, IdempotentRequest
from scorecard.web.htmx import HtmxHttpRequest

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
KEPT_FOR = timedelta(days=1)
KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")
BAD_KEY = gettext_lazy(
    "This tap carried a key the score card cannot use, so nothing was changed. Reload."
)
OTHER_GAME = gettext_lazy(
    "This tap was made on another game's page, so nothing was changed. Reload this one."
)
OTHER_FIELDS = gettext_lazy(
    "This tap's key came with another tap before, so nothing was changed. Reload."
)
SENT_BEFORE = gettext_lazy(
    "Nothing was changed: this form had been sent already, with other values (a page brought "
    "back by Back). Here is the card as it is now."
)

# What each request that wrote told its player, until its key is stored with it.
_notes: weakref.WeakKeyDictionary[HttpRequest, str] = weakref.WeakKeyDictionary()

type View = Callable[..., HttpResponse]
type Replay = Callable[[HtmxHttpRequest, Game, str, Role, IdempotentRequest], HttpResponse]


def remember(request: HttpRequest, note: str = "") -> None:
    """Say that this request wrote, and what its player was told: stored with its key."""
    _notes[request] = note


def key_of(request: HttpRequest) -> str | None:
    """The tap's key: the header an htmx request carries, else the form's hidden field."""
    return request.headers.get(HEADER) or request.POST.get(FIELD) or None


def refused(message: str) -> HttpResponse:
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def idempotent(replay: Replay) -> Callable[[View], View]:
    """A POST of this view is written once per key; `replay` draws a stored outcome."""

    def decorate(view: View) -> View:
        @wraps(view)
        def once(
            request: HtmxHttpRequest, key: str, *args: object, role: Role = Role.OWNER, **kwargs
        ) -> HttpResponse:
            tap = key_of(request) if request.method == "POST" else None
            if tap is None:
                return view(request, key, *args, role=role, **kwargs)
            if not KEY_SHAPE.fullmatch(tap):
                return refused(str(BAD_KEY))
            with transaction.atomic():
                # Read inside the transaction, as the view's own read was: on SQLite it holds
                # the write lock, so this is the game as the write will find it.
                game = game_for_a_tap(request, key, role)
                response = view(request, key, *args, role=role, **kwargs)
                if not _sent_before(request, tap, game.pk, response.status_code):
                    return response
                # An earlier send of this tap stored its key: whatever this one wrote is
                # undone, and its answer (drawn only once returned) is never drawn.
                transaction.set_rollback(True)
            with transaction.atomic():
                game = game_for_a_tap(request, key, role)
                stored = STORED.get(key=tap)
                if stored.game_id != game.pk:
                    return refused(str(OTHER_GAME))
                # A phone resends its tap as it was (a key stored before this check: blank).
                if stored.asked and stored.asked != _asked(request):
                    return _other_fields(request, key, role)
                return replay(request, game, key, role, stored)

        return once

    return decorate


def _other_fields(request: HtmxHttpRequest, key: str, role: Role) -> HttpResponse:
    """A key sent before with other fields. A form without scripts keeps the key it was drawn
    with, so this is a page brought back by Back, changed and sent again (a tester's second
    correction met a bare "This tap's key came with another tap before"): it is shown the
    card as it is, told that nothing was changed, and taps the box again for a fresh form."""
    if request.htmx:
        return refused(str(OTHER_FIELDS))
    messages.info(request, str(SENT_BEFORE))
    return redirect(GameLinks(key, role).page)


class OverTheLimit(Refusal):
    status_code = 429


def game_made_once(request: HtmxHttpRequest, make: Callable[[], Game]) -> Game:
    """The game this tap makes ("Start the game", "Rematch"), made once however often the
    tap arrives. Refused as `_made_once` says."""

    def stored_with_game() -> IdempotentRequest:
        return IdempotentRequest(game=make(), browser=households.browser_made(request))

    game = _made_once(request, stored_with_game).game
    assert game is not None
    return game


def browser_joined_once(request: HtmxHttpRequest, join: Callable[[], Browser]) -> Browser:
    """The browser this tap of "Join the household" makes of this one, made once however
    often the tap arrives (else a phone's double tap is two browsers on the household's
    list). Refused as `_made_once` says."""
    browser = _made_once(request, lambda: IdempotentRequest(browser=join())).browser
    assert browser is not None
    return browser


def _made_once(
    request: HtmxHttpRequest, make: Callable[[], IdempotentRequest]
) -> IdempotentRequest:
    """What this tap made: `make` (what it made, not stored yet), counted against the
    creation limit, and its key stored beside it in the same transaction; or what an earlier
    send of the same tap made, when it stored the key first (the two raced, and this one's
    is undone) or before this one looked. Refused (`Refusal`, nothing made): a key of the
    wrong shape, which only an altered form sends (400), or one more over the limit (429)."""
    tap = key_of(request)
    if tap is not None:
        if not KEY_SHAPE.fullmatch(tap):
            raise Refusal(str(BAD_KEY))
        tap = _creation_key(request, tap)
        if earlier := STORED.filter(key=tap).first():
            return _adopted(request, earlier)
    if not throttle.creation_allowed(request):
        raise OverTheLimit(throttle.refusal_message())
    with transaction.atomic():
        made = make()
        if tap is None:
            return made
        claim, is_new = _claim(tap, made.game, browser=made.browser)
        if is_new:
            return claim
        transaction.set_rollback(True)
    households.forget_made_browser(request)
    return _adopted(request, claim)


def _creation_key(request: HttpRequest, tap: str) -> str:
    """The tap's key joined with what its form asks for: a form brought back by the Back
    button and changed before it is sent again asks for another game, not the one it made."""
    return hashlib.sha256(repr((tap, _fields(request))).encode()).hexdigest()


def _asked(request: HttpRequest) -> str:
    """A digest of what a tap on a game asks for, its view and fields: stored with its key,
    so that the key sent again with anything else is refused (a fuzzer's record of Fives
    with a Chance's key was told "Chance 15", and an undo with it too)."""
    view = request.resolver_match.view_name if request.resolver_match else ""
    return hashlib.sha256(repr((view, _fields(request))).encode()).hexdigest()


def _fields(request: HttpRequest) -> list[tuple[str, list[str]]]:
    """The fields a tap sent, but its key and CSRF token (a form's own each time it is drawn)."""
    return sorted(
        (name, values)
        for name, values in request.POST.lists()
        if name not in (FIELD, "csrfmiddlewaretoken")
    )


def _adopted(request: HtmxHttpRequest, claim: IdempotentRequest) -> IdempotentRequest:
    """What an earlier send of this tap made; a browser without a household whose earlier
    send made it a browser is that browser again (its cookie had not come back yet)."""
    if claim.browser and households.current_household(request) is None:
        households.remember_browser(request, claim.browser)
    return claim


# Every tap of every phone that writes stores its key's row with its outcome: written
# without the ORM's building of the statement (see `compiled`).
INSERT_KEY = compiled.insert_new(
    IdempotentRequest, "key", "game", "status", "note", "asked", "created", "browser", unique="key"
)
DEFAULT_STATUS = IdempotentRequest._meta.get_field("status").default


def _claim(
    tap: str, game: Game | None, *, browser: Browser | None = None
) -> tuple[IdempotentRequest, bool]:
    """The key stored for this tap now (True), or the one stored before it (False)."""
    stored = IdempotentRequest(key=tap, game=game, browser=browser)
    stored.pk = _claim_key(tap, stored.game_id, stored.browser_id, stored.created)
    if stored.pk is None:
        return STORED.get(key=tap), False
    return stored, True


def _sent_before(request: HttpRequest, tap: str, game_id: int, status: int) -> bool:
    """Whether an earlier send of this tap stored its key. A send that wrote stores it now,
    with what its player was told, unless the earlier one did; one that wrote nothing
    stores nothing, so that the same tap sent again is checked afresh."""
    if request in _notes:
        note = _notes.pop(request)[:200]
        asked = _asked(request)
        return _claim_key(tap, game_id, status=status, note=note, asked=asked) is None
    return STORED.filter(key=tap).exists()


def _claim_key(
    tap: str,
    game_id: int | None,
    browser_id: int | None = None,
    created: datetime | None = None,
    *,
    status: int = DEFAULT_STATUS,
    note: str = "",
    asked: str = "",
) -> int | None:
    """The id of the key stored for this tap now, or None when it was stored before (the
    insert found it, on PostgreSQL once its writer's transaction ended). The insert that
    finds the key writes nothing and raises nothing, so it needs no savepoint of its own:
    two statements fewer on every tap; and a tap builds no model object for it (about 1% of
    a record)."""
    created = created or timezone.now()
    return INSERT_KEY.run_if_new(tap, game_id, status, note, asked, created, browser_id)


# A stored key with what its tap made, as a later send of that tap is answered from it.
STORED = IdempotentRequest.objects.select_related("game", "browser__household")


def forget_old_keys(now=None) -> int:
    """Remove keys older than a day (their taps are long answered); how many went."""
    before = (now or timezone.now()) - KEPT_FOR
    removed, _ = IdempotentRequest.objects.filter(created__lt=before).delete()
    return removed
