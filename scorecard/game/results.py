"""A finished game's results, kept on its seats and in its players' running figures.

The rules engine works a game's results out once, where its state changes: the last box
recorded settles the game (`settle_finished`); a correction of a finished game, or an undo
that reopens it, first takes its results back out (`unsettle`); an import settles the
games it writes, a batch at a time; a prune takes back the results of what it removes.
Games an upgrade or an older import left unsettled wait for `manage.py settle_results`
(`settle_waiting`). Statistics only read what is kept here, so no page ever writes, and a
player page costs the same few queries for ten finished games or ten thousand.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any, TypedDict

from django.db import transaction
from django.db.models import QuerySet

from scorecard.game import compiled
from scorecard.game.progress import GameProgress, load_many
from scorecard.models import Game, PlayerBoxTotal, PlayerFigures, Seat

BAND = 25  # points a band of the final-score histogram holds
SETTLE_BATCH = 200  # games read and written in one transaction


class SeatResult(TypedDict):
    """What a finished game leaves on one seat for statistics."""

    final_total: int
    won: bool | None  # first place, shared on a tie; None alone: there was no one to beat
    scored: bool  # a one-card game: its total is on the usual scale
    finished: datetime | None
    cards: int
    bonus_cards: int
    yahtzees: int
    extra_yahtzees: int


SETTLED_FIELDS = tuple(SeatResult.__annotations__)
SETTLE_SEAT = compiled.update(Seat, *SETTLED_FIELDS, where=("id",))

# Points and cards a player scored in a box, by (player id, family key, box key); figures by
# (player id, family key): each rule family's figures are kept apart.
type BoxSums = defaultdict[tuple[int, str, str], list[int]]
type FigureCounts = defaultdict[tuple[int, str], Counter[str]]


def seat_results(progress: GameProgress) -> dict[int, SeatResult]:
    """Each seat's result, by seat id: the final total, a win, bonus cards and Yahtzees."""
    finals = {seat.seat.pk: seat.totals.total for seat in progress.seats}
    family = progress.game.house_rules.family
    best = max(finals.values())
    results = {}
    for seat in progress.seats:
        cards = seat.cards
        results[seat.seat.pk] = SeatResult(
            final_total=finals[seat.seat.pk],
            won=finals[seat.seat.pk] == best if len(finals) > 1 else None,
            scored=progress.game.cards_per_player == 1,
            finished=progress.game.finished,
            cards=len(cards),
            bonus_cards=sum(card.totals.bonus > 0 for card in cards),
            # A Yahtzee, a Yatzy or a Maxi Yatzy: the family's all-alike box scored.
            yahtzees=sum(family.scored_all_alike(card.filled) for card in cards),
            extra_yahtzees=sum(card.extra_yahtzees for card in cards),
        )
    return results


def settle_finished(progress: GameProgress) -> None:
    """The game's last box was just recorded: keep its results, from the state in hand."""
    _settle([progress])


def settle_games(games: list[Game]) -> int:
    """Keep the results of finished games that are not settled yet (an import's, or those
    an upgrade left), reading them `SETTLE_BATCH` at a time; returns how many seats."""
    settled = 0
    for start in range(0, len(games), SETTLE_BATCH):
        batch = [game for game in games[start : start + SETTLE_BATCH] if game.finished]
        settled += _settle(load_many(batch))
    return settled


def waiting_games() -> QuerySet[Game, int]:
    """The ids of finished games not settled yet, in the order they were stored."""
    waiting = Game.objects.filter(finished__isnull=False, seats__final_total=None)
    return waiting.order_by("pk").values_list("pk", flat=True).distinct()


def settle_waiting(*, batch_size: int = SETTLE_BATCH) -> Iterator[int]:
    """Settle every finished game waiting to be, `batch_size` games a transaction; yields how
    many games each batch settled. A game another process is changing right now is
    skipped (its change settles it), so two runs, or a run beside a busy site, never count a
    game twice."""
    last = 0
    while ids := list(waiting_games().filter(pk__gt=last)[:batch_size]):
        last = ids[-1]
        with transaction.atomic():
            # Every change to a game updates its row first (the version claim), so holding
            # the rows keeps each of these games as it is until this batch is written.
            held = Game.objects.select_for_update(skip_locked=True).filter(pk__in=ids)
            games = list(held.filter(finished__isnull=False))
            still = set(
                Seat.objects.filter(game__in=games, final_total=None).values_list(
                    "game_id", flat=True
                )
            )
            games = [game for game in games if game.pk in still]
            _settle(load_many(games))
        yield len(games)


def _settle(progresses: Iterable[GameProgress]) -> int:
    """Store each game's results on its seats and add them to its players' figures."""
    settled: list[tuple[Any, ...]] = []
    boxes: BoxSums = defaultdict(lambda: [0, 0])
    figures: FigureCounts = defaultdict(Counter)
    for progress in progresses:
        results = seat_results(progress)
        for seat in progress.seats:
            result = results[seat.seat.pk]
            for name, value in result.items():
                setattr(seat.seat, name, value)
            settled.append((*(getattr(seat.seat, name) for name in SETTLED_FIELDS), seat.seat.pk))
            _count_result(figures[(seat.seat.player_id, progress.game.family)], result, +1)
        _count_boxes(boxes, progress, +1)
    SETTLE_SEAT.run_many(settled)
    _add_box_totals(boxes)
    _add_figures(figures)
    return len(settled)


def unsettle(progress: GameProgress) -> None:
    """A finished game is about to be corrected or reopened: take its results back out of
    its players' figures, as they were added (the entries must still be those it was
    settled with)."""
    settled = Seat.objects.filter(game=progress.game, final_total__isnull=False)
    results: list[dict[str, Any]] = list(settled.values("player_id", *SETTLED_FIELDS))
    if not results:
        return
    figures: FigureCounts = defaultdict(Counter)
    for result in results:
        _count_result(figures[(result["player_id"], progress.game.family)], result, -1)
    boxes: BoxSums = defaultdict(lambda: [0, 0])
    _count_boxes(boxes, progress, -1)
    settled.update(**dict.fromkeys(SETTLED_FIELDS))
    for seat in progress.seats:
        for name in SETTLED_FIELDS:
            setattr(seat.seat, name, None)
    _add_box_totals(boxes)
    _add_figures(figures)


def unsettle_games(games: list[Game]) -> None:
    """Take back the results of whichever of these games were settled (before a prune)."""
    settled = Seat.objects.filter(game__in=games, final_total__isnull=False)
    ids = set(settled.values_list("game_id", flat=True))
    for progress in load_many([game for game in games if game.pk in ids]):
        unsettle(progress)


def move_figures(*, player: int, into: int) -> None:
    """Add one player's figures and box totals to another's (the two were one person,
    `services.player_merge`); the first player's own rows go with the player."""
    figures: FigureCounts = defaultdict(Counter)
    for row in PlayerFigures.objects.filter(player=player):
        counts = figures[(into, row.family)]
        for name in PlayerFigures.COUNTS:
            counts[name] += getattr(row, name)
        for band, games in row.bands.items():
            counts[f"band:{band}"] += games
    boxes: BoxSums = defaultdict(lambda: [0, 0])
    for box in PlayerBoxTotal.objects.filter(player=player):
        boxes[(into, box.family, box.box)] = [box.points, box.cards]
    _add_figures(figures)
    _add_box_totals(boxes)


def _count_boxes(boxes: BoxSums, progress: GameProgress, sign: int) -> None:
    """What a one-card game adds to (sign +1) or takes from (-1) its players' box totals."""
    if progress.game.cards_per_player != 1:
        return
    family = progress.game.family
    for seat in progress.seats:
        for box, points in seat.cards[0].filled.items():
            boxes[(seat.seat.player_id, family, box.key)][0] += sign * points
            boxes[(seat.seat.player_id, family, box.key)][1] += sign


def _count_result(counts: Counter[str], result: SeatResult | dict[str, Any], sign: int) -> None:
    """What one seat's result adds to (sign +1) or takes from (-1) its player's figures."""
    counts["games"] += sign
    counts["wins"] += sign * bool(result["won"])
    counts["contests"] += sign * (result["won"] is not None)
    counts["cards"] += sign * result["cards"]
    for name in ("bonus_cards", "yahtzees", "extra_yahtzees"):
        counts[name] += sign * result[name]
    if result["scored"]:
        counts["scored_games"] += sign
        counts["scored_points"] += sign * result["final_total"]
        counts[f"band:{result['final_total'] // BAND * BAND}"] += sign


def _add_figures(changes: FigureCounts) -> None:
    """Apply counted results to each player's running figures."""
    if not changes:
        return
    players = {player for player, _ in changes}
    rows = {
        (row.player_id, row.family): row for row in PlayerFigures.objects.filter(player__in=players)
    }
    for (player, family), counts in changes.items():
        row = rows.setdefault(
            (player, family), PlayerFigures(player_id=player, family=family, bands={})
        )
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
        unique_fields=["player", "family"],
        update_fields=[*PlayerFigures.COUNTS, "bands"],
    )


def _add_box_totals(changes: BoxSums) -> None:
    """Add (or, with negative numbers, take back) points and cards to players' box totals."""
    if not changes:
        return
    players = {player for player, _, _ in changes}
    rows = PlayerBoxTotal.objects.filter(player__in=players)
    current = {(row.player_id, row.family, row.box): row for row in rows}
    for (player, family, box), (points, cards) in changes.items():
        row = current.setdefault(
            (player, family, box), PlayerBoxTotal(player_id=player, family=family, box=box)
        )
        row.points += points
        row.cards += cards
    PlayerBoxTotal.objects.bulk_create(
        current.values(),
        update_conflicts=True,
        unique_fields=["player", "family", "box"],
        update_fields=["points", "cards"],
    )
