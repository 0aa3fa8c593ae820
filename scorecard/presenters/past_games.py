"""The games list: each game of a page with its players' places and totals.

A finished game's totals are read from what settling it kept on its seats (`game.results`),
so a page of finished games reads no entries at all; only the games still going, and
finished ones still waiting for `settle_results`, have their entries read and added up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from scorecard.game.progress import GameProgress, load_many, ranked, seats_of
from scorecard.models import Game, Seat


class Placing(NamedTuple):
    """A player's line in a game's summary: the place, the seat (with its player), the total."""

    place: int
    seat: Seat
    total: int


@dataclass(frozen=True)
class GameSummary:
    """What the list shows of one game: its players best first, and how far it has got."""

    game: Game
    ranking: list[Placing]
    next_turn: int
    total_turns: int


def game_summaries(games: list[Game]) -> list[GameSummary]:
    """Each game's summary, in the order given: its seats in one query, and the entries of
    the unsettled games (if any) in one more."""
    seats = seats_of([game.pk for game in games])
    unsettled = [game for game in games if not _is_settled(game, seats[game.pk])]
    played = {progress.game.pk: progress for progress in load_many(unsettled, seats=seats)}
    return [
        _from_progress(played[game.pk]) if game.pk in played else _settled(game, seats[game.pk])
        for game in games
    ]


def _is_settled(game: Game, seats: list[Seat]) -> bool:
    """A finished game whose seats hold their final totals (not one waiting for
    `settle_results`, nor one a correction is taking apart)."""
    return game.finished is not None and all(seat.final_total is not None for seat in seats)


def _settled(game: Game, seats: list[Seat]) -> GameSummary:
    by_total = ranked(seats, _final_total)
    ranking = [Placing(place, seat, _final_total(seat)) for place, seat in by_total]
    turns = game.house_rules.turns_per_player(game.cards_per_player) * len(seats)
    return GameSummary(game, ranking, next_turn=turns + 1, total_turns=turns)


def _final_total(seat: Seat) -> int:
    assert seat.final_total is not None  # a settled seat's
    return seat.final_total


def _from_progress(progress: GameProgress) -> GameSummary:
    ranking = [
        Placing(place, seat.seat, totals.total) for place, seat, totals in progress.ranking()
    ]
    return GameSummary(progress.game, ranking, progress.next_turn, progress.total_turns)
