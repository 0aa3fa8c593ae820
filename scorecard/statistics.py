"""Reads over many games: summaries, running totals, player statistics, high scores.

Each read costs a fixed number of queries however many games or turns there are: sums are
added up in the database, and totals are made from them with `rules.totals_from_sums`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from statistics import fmean

from django.db import models
from django.db.models import Avg, Count, Q, Sum

from scorecard import rules
from scorecard.charts import Series
from scorecard.models import Entry, Game, Player, Seat
from scorecard.progress import CardProgress, GameProgress

UPPER_KEYS = [box.key for box in rules.UPPER_BOXES]
LOWER_KEYS = [box.key for box in rules.LOWER_BOXES]


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


def seat_totals(game_ids: list[int]) -> dict[int, int]:
    """The final total of every seat of these games, summed by the database in one query."""
    rows = (
        Entry.objects.filter(game_id__in=game_ids)
        .values("seat_id", "card")
        .annotate(
            upper=Sum("points", filter=Q(box__in=UPPER_KEYS), default=0),
            lower=Sum("points", filter=Q(box__in=LOWER_KEYS), default=0),
            extra=Count("pk", filter=Q(yahtzee_bonus=True)),
        )
    )
    cards: dict[int, dict[int, rules.Totals]] = defaultdict(dict)
    for row in rows:
        card = rules.totals_from_sums(row["upper"], row["lower"], row["extra"])
        cards[row["seat_id"]][row["card"]] = card
    return {seat: rules.combined_totals(seat_cards).total for seat, seat_cards in cards.items()}


@dataclass
class PlayerStats:
    player: Player
    games: int = 0
    wins: int = 0
    scored_games: int = 0
    finals: list[int] = field(default_factory=list)
    bonus_cards: int = 0
    cards: int = 0
    yahtzees: int = 0
    extra_yahtzees: int = 0
    box_averages: list[tuple[rules.Box, float]] = field(default_factory=list)

    @property
    def average(self) -> float | None:
        return fmean(self.finals) if self.finals else None

    @property
    def best(self) -> int | None:
        return max(self.finals, default=None)

    @property
    def worst(self) -> int | None:
        return min(self.finals, default=None)

    @property
    def last_ten_average(self) -> float | None:
        return fmean(self.finals[-10:]) if self.finals else None

    @property
    def bonus_rate(self) -> float | None:
        return self.bonus_cards / self.cards if self.cards else None


def player_stats(player: Player) -> PlayerStats:
    """Finished games only; Triple Yahtzee counts as played but stays out of the score
    figures, whose ×1 ×2 ×3 totals are of another scale. Four queries in all."""
    stats = PlayerStats(player)
    seats = list(
        Seat.objects.filter(player=player, game__finished__isnull=False)
        .order_by("game__finished")
        .values("pk", "game_id", "game__mode")
    )
    game_ids = [seat["game_id"] for seat in seats]
    all_seats = Seat.objects.filter(game_id__in=game_ids).values_list("pk", "game_id")
    totals = seat_totals(game_ids)
    best_in_game: dict[int, int] = defaultdict(int)
    for seat_id, game_id in all_seats:
        best_in_game[game_id] = max(best_in_game[game_id], totals.get(seat_id, 0))
    stats.games = len(seats)
    for seat in seats:
        total = totals.get(seat["pk"], 0)
        stats.wins += total == best_in_game[seat["game_id"]]
        if seat["game__mode"] != Game.Mode.TRIPLE:
            stats.finals.append(total)
    _add_box_figures(stats, player)
    return stats


def _add_box_figures(stats: PlayerStats, player: Player) -> None:
    finished = Entry.objects.filter(seat__player=player, game__finished__isnull=False)
    single = finished.exclude(game__mode=Game.Mode.TRIPLE)
    rows = single.values("box").annotate(average=Avg("points"))
    averages = {row["box"]: row["average"] for row in rows}
    stats.box_averages = [(box, averages[box.key]) for box in rules.Box if box.key in averages]
    cards = finished.values("seat_id", "card").annotate(
        upper=Sum("points", filter=Q(box__in=UPPER_KEYS), default=0),
        fifties=Count("pk", filter=Q(box=rules.Box.YAHTZEE.key, points=rules.YAHTZEE_POINTS)),
        extra=Count("pk", filter=Q(yahtzee_bonus=True)),
    )
    for card in cards:
        stats.cards += 1
        stats.bonus_cards += rules.totals_from_sums(card["upper"], 0).bonus > 0
        stats.yahtzees += card["fifties"]
        stats.extra_yahtzees += card["extra"]


def high_scores(owner, limit: int = 10) -> list[dict]:
    """The best single-card totals of finished digital games of a household (two queries)."""
    seats = list(
        Seat.objects.filter(game__owner=owner, game__digital=True, game__finished__isnull=False)
        .exclude(game__mode=Game.Mode.TRIPLE)
        .values("pk", "game_id", "player__name", "player__public_id", "game__public_id")
        .annotate(finished=models.F("game__finished"))
    )
    totals = seat_totals(list({seat["game_id"] for seat in seats}))
    ranked = sorted(seats, key=lambda seat: (-totals.get(seat["pk"], 0), seat["finished"]))
    return [seat | {"total": totals.get(seat["pk"], 0)} for seat in ranked[:limit]]
