"""Who is looking at a game, through which address, and what they may do there.

A game is reached by its own household at /games/<public_id>/ (the owner), or by anyone who
holds one of its share links: /score/<token>/ may play (dice, record, undo, correct) and
/watch/<token>/ may only look. The link's token is the whole permission; a view asks
`game_for` once and gets a 404 for anything else, so no role can reach by guessing what
another may.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache, cached_property

from django.http import Http404
from django.urls import reverse

from scorecard.access.households import (
    SEAT_ROW,
    SeatedGame,
    browser_key,
    game_with_seats,
    household_game,
    household_seated_game,
)
from scorecard.game.compiled import CompiledQuery
from scorecard.models import Game, GameLink, LinkRole, Seat
from scorecard.web.htmx import HtmxHttpRequest


class Role(StrEnum):
    OWNER = "owner"
    SCORER = LinkRole.SCORE.value
    WATCHER = LinkRole.WATCH.value

    @property
    def may_score(self) -> bool:
        return self is not Role.WATCHER

    @property
    def is_owner(self) -> bool:
        return self is Role.OWNER


def game_for(request: HtmxHttpRequest, key: str, role: Role) -> Game:
    """The game `key` opens for `role` (its public id for the owner, else a link's token);
    anything else is a 404."""
    if (tapped := _taken(request, key, role)) is not None:
        return tapped.game
    if role is Role.OWNER:
        return household_game(request, key)
    linked = GameLink.objects.select_related("game__owner").filter(token=key, role=role.value)
    link = linked.first()
    if link is None:
        raise Http404("Not found.")
    return link.game


def seated_game_for(request: HtmxHttpRequest, key: str, role: Role) -> SeatedGame:
    """The same game with its seats and players, in one query, for a view about to load
    its state."""
    if (tapped := _taken(request, key, role)) is not None:
        return tapped
    if role is Role.OWNER:
        return household_seated_game(request, key)
    return game_with_seats(LINKED_SEATS.rows(token=key, role=role.value))


def game_for_a_tap(request: HtmxHttpRequest, key: str, role: Role) -> Game:
    """The game a tap is for, read with its seats once for the tap's check and its view: the
    view's first `seated_game_for` or `game_for` takes it instead of reading it again (a
    query, and the ORM's building of it, which cost more than the read on a record). Only
    the first: a later read in the same request reads what was written since."""
    found = seated_game_for(request, key, role)
    request._tapped_game = (key, role.value, found)
    return found.game


def _taken(request: HtmxHttpRequest, key: str, role: Role) -> SeatedGame | None:
    tapped = request.__dict__.pop("_tapped_game", None)
    if tapped is None or tapped[:2] != (key, role.value):
        return None
    found: SeatedGame = tapped[2]
    return found


def version_for(request: HtmxHttpRequest, key: str, role: Role) -> int:
    """The version of the game `key` opens for `role`, in one small query: what a live page's
    poll compares, before anything else is read."""
    if role is Role.OWNER:
        rows = VERSION_BY_BROWSER.rows(game=key, browser=browser_key(request) or "")
    else:
        rows = VERSION_BY_LINK.rows(token=key, role=role.value)
    if not rows:
        raise Http404("Not found.")
    return rows[0][0]


# Every few seconds from every phone that follows a game: built once (see `compiled`).
VERSION_BY_BROWSER = CompiledQuery(
    lambda game, browser: (
        Game.objects.filter(public_id=game, owner__browsers__key=browser)
        .order_by()
        .values_list("version")
    ),
    game=str,
    browser=str,
)
VERSION_BY_LINK = CompiledQuery(
    lambda token, role: (
        Game.objects.filter(links__token=token, links__role=role).order_by().values_list("version")
    ),
    token=str,
    role=str,
)


LINKED_SEATS = CompiledQuery(
    lambda token, role: (
        Seat.objects.filter(game__links__token=token, game__links__role=role)
        .order_by("position")
        .values_list(*SEAT_ROW)
    ),
    token=str,
    role=str,
)


# Each role's name for an address, where it has one: a watcher has no record, an owner's
# extras (review, rematch, share) are nobody else's.
ROUTES = {
    Role.OWNER: {
        "page": "game", "record": "game-record", "roll": "game-roll", "undo": "game-undo",
        "correct": "game-correct", "sheet": "game-sheet", "review": "game-review",
        "rematch": "game-rematch", "share": "game-share",
    },
    Role.SCORER: {
        "page": "score", "record": "score-record", "roll": "score-roll", "undo": "score-undo",
        "correct": "score-correct", "sheet": "score-sheet",
    },
    Role.WATCHER: {"page": "watch", "sheet": "watch-sheet"},
}  # fmt: skip


# Stand-ins a game's key and a turn number take while an address is reversed once per
# process; each request's addresses are then made by putting the real ones in their place.
KEY_STAND_IN = "GAME-KEY"
TURN_STAND_IN = 987654321  # no game has this many turns


@cache
def _url_pattern(name: str) -> tuple[str, str]:
    """The address of a game's page or action, split around its key."""
    before, after = reverse(name, args=[KEY_STAND_IN]).split(KEY_STAND_IN)
    return before, after


@cache
def _turn_url_pattern(name: str) -> tuple[str, str, str]:
    """The address of an action on one turn, split around its key and its turn."""
    address = reverse(name, args=[KEY_STAND_IN, TURN_STAND_IN])
    before, rest = address.split(KEY_STAND_IN)
    between, after = rest.split(str(TURN_STAND_IN))
    return before, between, after


def game_url(name: str, key: str) -> str:
    before, after = _url_pattern(name)
    return f"{before}{key}{after}"


class _Address:
    """One named address of `GameLinks` (its attribute's name is the action in `ROUTES`)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.action = name

    def __get__(self, links: GameLinks, owner: type | None = None) -> str:
        # Kept on the instance, which it then shadows: a turn panel asks for its game's
        # page a dozen times.
        address = links.__dict__[self.action] = links._address(self.action)
        return address


class GameLinks:
    """The addresses of one game's pages and actions as `role` reaches them, each made from
    its pattern when asked for; an action the role may not take has no address
    (AttributeError, which a template shows as nothing)."""

    def __init__(self, key: str, role: Role = Role.OWNER) -> None:
        self.key, self.role = key, role

    def _address(self, action: str) -> str:
        name = ROUTES[self.role].get(action)
        if name is None:
            raise AttributeError(f"{self.role} has no {action} address")
        return game_url(name, self.key)

    page = _Address()
    sheet = _Address()
    record = _Address()
    roll = _Address()
    undo = _Address()
    review = _Address()
    rematch = _Address()
    share = _Address()

    @cached_property
    def rematch_page(self) -> str | None:
        """The page of the rematch this game's table started, as this role reaches it (the
        new game's own link of the same kind), or None while there is none."""
        if self.role is Role.OWNER:
            rematch = Game.objects.filter(rematch_of__public_id=self.key)
            found = rematch.values_list("public_id", flat=True).first()
        else:
            same_kind = {"game__rematch_of__links__token": self.key, "role": self.role.value}
            found = GameLink.objects.filter(**same_kind).values_list("token", flat=True).first()
        return GameLinks(found, self.role).page if found else None

    @property
    def legend(self) -> str:
        """The page with the standings' legend open (a page fetches it when it is opened)."""
        return f"{self.page}?legend=1"

    def correct(self, turn: int) -> str:
        """The correction address of a turn (only for roles that score)."""
        before, after = self._correction_pattern
        return f"{before}{turn}{after}"

    @cached_property
    def _correction_pattern(self) -> tuple[str, str]:
        """The correction address around its turn, worked out once: a grid asks for it for
        every filled box."""
        before, between, after = _turn_url_pattern(ROUTES[self.role]["correct"])
        return f"{before}{self.key}{between}", after
