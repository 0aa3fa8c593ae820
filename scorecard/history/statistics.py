"""Reads over many games: running totals, player statistics, high scores.

A finished game's result is worked out by the rules engine once, the first time a statistic
needs it, and stored on its seats (`settle_seats`); each player's points per box are kept as
running sums. A player page then costs the same few queries, and nearly the same time,
whether the player has finished ten games or ten thousand.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict

from django.db import transaction
from django.db.models import F, Max, Min

from scorecard.engine import rules
from scorecard.game.progress import CardProgress, GameProgress, load_many
from scorecard.models import Game, Household, Player, PlayerBoxTotal, PlayerFigures, Seat
from scorecard.presenters.charts import Series

SETTLED_FIELDS = [
    "final_total", "won", "scored", "finished", "cards", "bonus_cards", "yahtzees",
    "extra_yahtzees",
]  # fmt: skip
BAND = 25  # points a band of the final-score histogram holds

# Points and cards a player scored in a box, by (player id, box key); figures by player id.
type BoxSums = defaultdict[tuple[int, str], list[int]]
type FigureCounts = defaultdict[int, Counter[str]]


def running_totals(progress: GameProgress) -> list[Series]:
    """Each player's total after each of their turns."""
    cards: dict[int, dict[int, CardProgress]] = defaultdict(dict)
    values: dict[int, list[int]] = {seat.seat.pk: [] for seat in progress.seats}
    for entry in progress.entries:
        seat_cards = cards[entry.seat_id]
        seat_cards.setdefault(entry.card, CardProgress(entry.card)).add(entry)
        totals = {number: card.totals for number, card in seat_cards.items()}
        values[entry.seat_id].append(rules.combined_totals(totals).total)
    return [Series(seat.player.name, values[seat.seat.pk]) for seat in progress.seats]


def seat_results(progress: GameProgress) -> dict[int, dict]:
    """What a finished game leaves for statistics, seat by seat: the final total, a win (first
    place, shared on a tie; playing alone wins nothing), bonus cards and Yahtzees."""
    finals = {seat.seat.pk: seat.totals.total for seat in progress.seats}
    best = max(finals.values())
    results = {}
    for seat in progress.seats:
        cards = seat.cards
        results[seat.seat.pk] = {
            "final_total": finals[seat.seat.pk],
            "won": len(finals) > 1 and finals[seat.seat.pk] == best,
            "scored": progress.game.cards_per_player == 1,
            "finished": progress.game.finished,
            "cards": len(cards),
            "bonus_cards": sum(card.totals.bonus > 0 for card in cards),
            "yahtzees": sum(
                card.filled.get(rules.Box.YAHTZEE) == rules.YAHTZEE_POINTS for card in cards
            ),  # fmt: skip
            "extra_yahtzees": sum(card.extra_yahtzees for card in cards),
        }
    return results


SETTLE_BATCH = 200  # games read and written at a time


def settle_seats(seats) -> int:
    """Store the results of every finished game among `seats` not settled yet, and add its
    one-card boxes to each player's totals; returns how many seats were settled."""
    with transaction.atomic():
        pending = seats.filter(final_total=None, game__finished__isnull=False)
        game_ids = sorted(set(pending.select_for_update(skip_locked=True, of=("self",))
                              .values_list("game_id", flat=True)))  # fmt: skip
        settled = 0
        for start in range(0, len(game_ids), SETTLE_BATCH):
            games = list(Game.objects.filter(pk__in=game_ids[start : start + SETTLE_BATCH]))
            settled += _settle_games(games)
    return settled


def _settle_games(games: list[Game]) -> int:
    settled: list[Seat] = []
    boxes: BoxSums = defaultdict(lambda: [0, 0])
    figures: FigureCounts = defaultdict(Counter)
    for progress in load_many(games):
        for seat in progress.seats:
            result = seat_results(progress)[seat.seat.pk]
            settled.append(Seat(pk=seat.seat.pk, **result))
            _count_result(figures[seat.seat.player_id], result, +1)
        if progress.game.cards_per_player == 1:
            for seat in progress.seats:
                for box, points in seat.cards[0].filled.items():
                    boxes[(seat.seat.player_id, box.key)][0] += points
                    boxes[(seat.seat.player_id, box.key)][1] += 1
    Seat.objects.bulk_update(settled, SETTLED_FIELDS, batch_size=100)
    add_box_totals(boxes)
    add_figures(figures)
    return len(settled)


def _count_result(counts: Counter, result: dict, sign: int) -> None:
    """What one seat's result adds to (sign +1) or takes from (-1) its player's figures."""
    scored = bool(result["scored"])
    counts["games"] += sign
    counts["wins"] += sign * bool(result["won"])
    counts["cards"] += sign * result["cards"]
    for name in ("bonus_cards", "yahtzees", "extra_yahtzees"):
        counts[name] += sign * result[name]
    if scored:
        counts["scored_games"] += sign
        counts["scored_points"] += sign * result["final_total"]
        counts[f"band:{result['final_total'] // BAND * BAND}"] += sign


def add_figures(changes: dict[int, Counter]) -> None:
    """Apply counted results to each player's running figures."""
    if not changes:
        return
    rows = {row.player_id: row for row in PlayerFigures.objects.filter(player__in=changes)}
    for player, counts in changes.items():
        row = rows.setdefault(player, PlayerFigures(player_id=player, bands={}))
        for name, delta in counts.items():
            if name.startswith("band:"):
                band = name.removeprefix("band:")
                row.bands[band] = row.bands.get(band, 0) + delta
                if not row.bands[band]:
                    del row.bands[band]
            else:
                setattr(row, name, getattr(row, name) + delta)
    PlayerFigures.objects.bulk_create(
        rows.values(),
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=[*PlayerFigures.COUNTS, "bands"],
    )


def add_box_totals(changes: dict[tuple[int, str], list[int]]) -> None:
    """Add (or, with negative numbers, take back) points and cards to players' box totals."""
    if not changes:
        return
    players = {player for player, _ in changes}
    rows = PlayerBoxTotal.objects.filter(player__in=players)
    current = {(row.player_id, row.box): row for row in rows}
    for (player, box), (points, cards) in changes.items():
        row = current.setdefault((player, box), PlayerBoxTotal(player_id=player, box=box))
        row.points += points
        row.cards += cards
    PlayerBoxTotal.objects.bulk_create(
        current.values(),
        update_conflicts=True,
        unique_fields=["player", "box"],
        update_fields=["points", "cards"],
    )


def unsettle(progress: GameProgress) -> None:
    """A finished game is reopened or corrected: take its results back out of statistics,
    as they were (the next read settles it again)."""
    settled = Seat.objects.filter(game=progress.game, final_total__isnull=False)
    results = list(settled.values("player_id", *SETTLED_FIELDS))
    if not results:
        return
    figures: FigureCounts = defaultdict(Counter)
    for result in results:
        _count_result(figures[result["player_id"]], result, -1)
    boxes: BoxSums = defaultdict(lambda: [0, 0])
    if progress.game.cards_per_player == 1:
        for seat in progress.seats:
            for box, points in seat.cards[0].filled.items():
                boxes[(seat.seat.player_id, box.key)][0] -= points
                boxes[(seat.seat.player_id, box.key)][1] -= 1
    settled.update(**dict.fromkeys(SETTLED_FIELDS))
    add_box_totals(boxes)
    add_figures(figures)


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
    settle_seats(seats)
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
    settle_seats(seats)
    best = (
        seats.filter(scored=True)
        .order_by("-final_total", "finished")
        .values("player__name", "player__public_id", "game__public_id")
        .annotate(finished=F("game__finished"), total=F("final_total"))
    )
    return list(best[:limit])
