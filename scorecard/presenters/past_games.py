"""The games list: each game of a page with its players' places and totals.

A finished game's totals are read from what settling it kept on its seats (`game.results`),
so a page of finished games reads no entries at all; only the games still going, and
finished ones still waiting for `settle_results`, have their entries read and added up, once
per version of each game: a game going stays at the top of every list the household opens.
The seats are read as plain rows, and each player's address worked out once a page: the
list is twenty games of up to eight lines each.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from django.core.cache import cache as shared_cache
from django.urls import reverse

from scorecard.game.progress import load_many, ranked, round_of
from scorecard.models import Game, Seat
from scorecard.presenters import house_rules


class Placing(NamedTuple):
    """A player's line in a game's summary."""

    place: int
    name: str
    href: str  # the player's page
    total: int
    winner: bool  # first in a finished game of more than one player


class SeatRow(NamedTuple):
    name: str
    public_id: str
    final_total: int | None  # None until the game is settled


@dataclass(frozen=True)
class GameSummary:
    """What the list shows of one game: where it opens, its players best first, and how far
    it has got."""

    game: Game
    href: str  # the review of a finished game, the game itself while it goes on
    ranking: list[Placing]
    next_turn: int
    total_turns: int

    @property
    def round(self) -> int:
        """The round of a game in progress, as its page counts it."""
        return round_of(self.next_turn, len(self.ranking))

    @property
    def rounds(self) -> int:
        return self.total_turns // len(self.ranking)

    @property
    def house_notes(self) -> tuple[str, ...]:
        """The rules the table played beyond its family's and the usual joker order (a
        tester found a forced-order Yatzy and a 50-at-90 bonus listed as plain "Yatzy")."""
        return tuple(house_rules.sheet_notes(self.game))


def game_summaries(games: list[Game]) -> list[GameSummary]:
    """Each game's summary, in the order given: its seats in one query, and the seats and
    entries of the unsettled games (if any) in two more."""
    seats = _seat_rows([game.pk for game in games])
    unsettled = [game for game in games if not _is_settled(game, seats[game.pk])]
    played = _played_so_far(unsettled) if unsettled else {}  # not even asked when none
    address = cache(_player_href)  # a player's address, once a page
    summaries = []
    for game in games:
        if game.pk in played:
            scores, next_turn, turns = played[game.pk]
            totals = [(row.name, row.public_id, score)
                      for row, score in zip(seats[game.pk], scores, strict=True)]  # fmt: skip
        else:
            totals = [(row.name, row.public_id, row.final_total or 0) for row in seats[game.pk]]
            turns = game.house_rules.turns_per_player(game.cards_per_player) * len(totals)
            next_turn = turns + 1
        ranking = _ranking(game, totals, address)
        summaries.append(GameSummary(game, _game_href(game), ranking, next_turn, turns))
    return summaries


# How long a game's totals so far are kept for its version (a newer version is another key).
PLAYED_SECONDS = 60 * 60 * 24


def _played_so_far(games: list[Game]) -> dict[int, tuple[list[int], int, int]]:
    """Each unsettled game's totals in seating order, its next turn and its number of turns,
    by game id: from the shared cache for the version on show, else added up from its
    entries (two queries for all of them) and kept."""
    keys = {f"played:{game.pk}:{game.version}": game for game in games}
    kept = shared_cache.get_many(list(keys))
    played = {keys[key].pk: figures for key, figures in kept.items()}
    missing = [game for key, game in keys.items() if key not in kept]
    if missing:
        fresh = {}
        for progress in load_many(missing):
            game = progress.game
            figures = ([seat.totals.total for seat in progress.seats],
                       progress.next_turn, progress.total_turns)  # fmt: skip
            played[game.pk] = fresh[f"played:{game.pk}:{game.version}"] = figures
        shared_cache.set_many(fresh, PLAYED_SECONDS)
    return played


def _seat_rows(game_ids: list[int]) -> dict[int, list[SeatRow]]:
    """Each game's seats in seating order, by game id: one query, no model objects (and
    no join to order by game: its ordering is the newest first)."""
    rows: dict[int, list[SeatRow]] = defaultdict(list)
    columns = ("game_id", "player__name", "player__public_id", "final_total")
    seats = Seat.objects.filter(game_id__in=game_ids).order_by("position")  # not by game
    for game_id, *row in seats.values_list(*columns):
        rows[game_id].append(SeatRow(*row))
    return rows


def _is_settled(game: Game, seats: list[SeatRow]) -> bool:
    """A finished game whose seats hold their final totals (not one waiting for
    `settle_results`)."""
    return game.finished is not None and all(seat.final_total is not None for seat in seats)


def _ranking(game: Game, totals: list[tuple[str, str, int]], address) -> list[Placing]:
    """The players best first, equal totals sharing a place in seating order."""
    crowned = game.finished is not None and len(totals) > 1
    return [
        Placing(place, name, address(public_id), total, crowned and place == 1)
        for place, (name, public_id, total) in ranked(totals, _total)
    ]


def _total(line: tuple[str, str, int]) -> int:
    return line[2]


def _player_href(public_id: str) -> str:
    return reverse("player", args=[public_id])


def _game_href(game: Game) -> str:
    return reverse("game-review" if game.finished else "game", args=[game.public_id])
