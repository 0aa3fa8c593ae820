"""Reads over many games: running totals, player statistics, high scores.

Reads only: a finished game's results are stored on its seats, and each player's figures and
points per box kept as running sums, where the game's state changes (`game.results`). A
player page then costs the same few queries, and nearly the same time, whether the player
has finished ten games or ten thousand, and no page writes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict

from django.db.models import F, Max, Min

from scorecard.engine import rules
from scorecard.game.progress import CardProgress, GameProgress
from scorecard.game.results import BAND as BAND  # the histogram's bands are the figures'
from scorecard.models import Household, Player, PlayerFigures, Seat
from scorecard.presenters.charts import Series


def running_totals(progress: GameProgress) -> list[Series]:
    """Each player's total after each of their turns."""
    cards: dict[int, dict[int, CardProgress]] = defaultdict(dict)
    values: dict[int, list[int]] = {seat.seat.pk: [] for seat in progress.seats}
    for entry in progress.entries:
        seat_cards = cards[entry.seat_id]
        house = progress.game.house_rules
        seat_cards.setdefault(entry.card, CardProgress(entry.card, house)).add(entry)
        totals = {number: card.totals for number, card in seat_cards.items()}
        values[entry.seat_id].append(rules.combined_totals(totals).total)
    return [Series(seat.player.name, values[seat.seat.pk]) for seat in progress.seats]


@dataclass
class PlayerStats:
    player: Player
    games: int = 0
    wins: int = 0
    scored_games: int = 0
    average: float | None = None
    best: int | None = None
    worst: int | None = None
    last_ten_average: float | None = None
    bands: list[tuple[int, int]] = field(default_factory=list)  # (lowest score, games)
    bonus_cards: int = 0
    cards: int = 0
    yahtzees: int = 0
    extra_yahtzees: int = 0
    box_averages: list[tuple[rules.Box, float]] = field(default_factory=list)

    @property
    def bonus_rate(self) -> float | None:
        return self.bonus_cards / self.cards if self.cards else None


def player_stats(player: Player) -> PlayerStats:
    """Finished games only; Triple Yahtzee counts as played but stays out of the score
    figures, whose ×1 ×2 ×3 totals are of another scale. The running figures, the best and
    worst and the last ten read through an index, the box totals: the same few queries and
    nearly the same time for ten games or ten thousand."""
    seats = Seat.objects.filter(player=player)
    stats = PlayerStats(player)
    figures = PlayerFigures.objects.filter(player=player).first()
    if figures is None or not figures.games:
        return stats
    for name in ("games", "wins", "scored_games", "cards", "bonus_cards", "yahtzees",
                 "extra_yahtzees"):  # fmt: skip
        setattr(stats, name, getattr(figures, name))
    stats.bands = sorted((int(band), count) for band, count in figures.bands.items())
    single = seats.filter(scored=True)
    if figures.scored_games:
        stats.average = figures.scored_points / figures.scored_games
        extremes = single.aggregate(best=Max("final_total"), worst=Min("final_total"))
        stats.best, stats.worst = extremes["best"], extremes["worst"]
        last = single.order_by("-finished").values_list("final_total", flat=True)[:10]
        last_ten = [total for total in last if total is not None]  # a scored seat has one
        stats.last_ten_average = sum(last_ten) / len(last_ten)
    totals = {row.box: row for row in player.box_totals.filter(cards__gt=0)}
    stats.box_averages = [
        (box, totals[box.key].points / totals[box.key].cards)
        for box in rules.Box
        if box.key in totals
    ]
    return stats


class HighScore(TypedDict):
    player__name: str
    player__public_id: str
    game__public_id: str
    finished: datetime | None
    total: int | None


def high_scores(owner: Household, limit: int = 10) -> list[HighScore]:
    """The best single-card totals of finished digital games of a household."""
    seats = Seat.objects.filter(game__owner=owner, game__digital=True)
    best = (
        seats.filter(scored=True)
        .order_by("-final_total", "finished")
        .values("player__name", "player__public_id", "game__public_id")
        .annotate(finished=F("game__finished"), total=F("final_total"))
    )
    return list(best[:limit])
