"""Reads over many games: running totals, player statistics, high scores.

Reads only: a finished game's results are stored on its seats, and each player's figures and
points per box kept as running sums, where the game's state changes (`game.results`). A
player page then costs the same few queries, and nearly the same time, whether the player
has finished ten games or ten thousand, and no page writes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, TypedDict, overload

from django.db.models import Count, F, IntegerField, Max, Min, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from scorecard.engine import families, rules
from scorecard.game.compiled import CompiledQuery
from scorecard.game.progress import CardProgress, GameProgress
from scorecard.game.results import BAND as BAND  # the histogram's bands are the figures'
from scorecard.models import Game, Household, Player, PlayerFigures, Seat
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
    family: families.Family[Any] = families.YAHTZEE
    games: int = 0
    wins: int = 0
    contests: int = 0  # games with others, of which `wins` were won
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
    box_averages: list[tuple[families.CardBox, float]] = field(default_factory=list)

    @property
    def box_rows(self) -> list[tuple[families.CardBox, float, int]]:
        """Each box the player has filled: the box, the average, the most it can hold."""
        house = rules.HouseRules(self.family)
        return [(box, average, house.max_points(box)) for box, average in self.box_averages]

    @property
    def has_unscored_games(self) -> bool:
        """Games counted as played but out of the score figures (Triple Yahtzee's)."""
        return self.games > self.scored_games

    @property
    def bonus_rate(self) -> float | None:
        return self.bonus_cards / self.cards if self.cards else None


def player_figures(player: Player) -> dict[str, PlayerFigures]:
    """The player's running figures of each rule family they finished a game of, by key."""
    return {row.family: row for row in player.figures.filter(games__gt=0)}


def player_families(figures: dict[str, PlayerFigures]) -> list[families.Family[Any]]:
    """The rule families these figures hold, in the engine's order."""
    return [family for family in families.FAMILIES.values() if family.key in figures]


def player_stats(
    player: Player,
    family: families.Family[Any] = families.YAHTZEE,
    *,
    figures_by_family: dict[str, PlayerFigures] | None = None,
) -> PlayerStats:
    """One rule family's figures (a Yatzy 250 is not a Yahtzee 250), finished games only;
    Triple Yahtzee counts as played but stays out of the score figures, whose ×1 ×2 ×3
    totals are of another scale. The running figures, the best and worst and the last ten
    read through an index, the box totals: the same few queries and nearly the same time for
    ten games or ten thousand."""
    seats = Seat.objects.filter(player=player, game__family=family.key)
    stats = PlayerStats(player, family)
    if figures_by_family is None:
        figures_by_family = player_figures(player)
    figures = figures_by_family.get(family.key)
    if figures is None or not figures.games:
        return stats
    for name in ("games", "wins", "contests", "scored_games", "cards", "bonus_cards",
                 "yahtzees", "extra_yahtzees"):  # fmt: skip
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
    kept = player.box_totals.filter(family=family.key, cards__gt=0)
    totals = {row.box: row for row in kept}
    stats.box_averages = [
        (box, totals[box.key].points / totals[box.key].cards)
        for box in family.boxes
        if box.key in totals
    ]
    return stats


class HighScore(TypedDict):
    player__name: str
    player__public_id: str
    game__public_id: str
    finished: datetime | None
    total: int | None


@dataclass(frozen=True)
class FamilyHighScores:
    """One rule family's best games: a Yatzy 250 is not a Yahtzee 250."""

    family: families.Family[Any]
    scores: list[HighScore]


def high_scores(owner: Household, limit: int = 10) -> list[FamilyHighScores]:
    """The best single-card totals of finished digital games of a household, family by
    family (those with no finished game left out), in the engine's order of families."""
    seats = Seat.objects.filter(game__owner=owner, game__digital=True, scored=True)
    found = []
    for family in families.FAMILIES.values():
        best = (
            seats.filter(game__family=family.key)
            .order_by("-final_total", "finished")
            .values("player__name", "player__public_id", "game__public_id")
            .annotate(finished=F("game__finished"), total=F("final_total"))
        )
        if scores := list(best[:limit]):
            found.append(FamilyHighScores(family, scores))
    return found


class InProgressFirst(Sequence[Game]):
    """Games as the games list shows them, for `Paginator`: those still going first, then
    the finished ones, each part newest first. Each part is read through its own index (a
    partial one holds only the games going), so a page costs the same for a hundred games
    or ten thousand; one `ORDER BY` over both would sort every game of the household."""

    def __init__(self, games: QuerySet[Game]) -> None:
        self.games = games.order_by()
        self.going = games.filter(finished__isnull=True).order_by("-created")
        self.done = games.filter(finished__isnull=False).order_by("-created")
        self._going_count: int | None = None

    def __len__(self) -> int:  # what Paginator counts with (Sequence's `count` is another)
        # All of them, which the owner's index alone answers; the finished ones would be
        # counted row by row.
        return self.games.count()

    def going_count(self) -> int:
        if self._going_count is None:
            self._going_count = self.going.count()
        return self._going_count

    @overload
    def __getitem__(self, index: int) -> Game: ...

    @overload
    def __getitem__(self, index: slice) -> list[Game]: ...

    def __getitem__(self, index: int | slice) -> Game | list[Game]:
        """A page of games (a slice from `start` up to `stop`), or one game."""
        if isinstance(index, int):
            found = self[index : index + 1]
            if not found:
                raise IndexError(index)
            return found[0]
        start, stop = index.start or 0, index.stop
        stop = len(self) if stop is None else stop
        first: list[Game] | None = None
        if start == 0 and self._going_count is None:
            # The first page (the one nearly always opened) asks for the games going
            # without counting them first: fewer than a page of them is all of them.
            first = list(self.going[:stop])
            if len(first) < stop:
                self._going_count = len(first)
        going = self.going_count()
        if first is None:
            first = list(self.going[start:stop]) if start < going else []
        then = list(self.done[max(start - going, 0) : stop - going]) if stop > going else []
        return first + then


class PlayerPlayed(NamedTuple):
    """A line of the players list: who, where their page is, and how many games they sat at."""

    name: str
    public_id: str
    played: int


def _players_played(owner: int) -> QuerySet[Any, tuple[str, str, int]]:
    """The household's players by name, each with how many games they sat at (`played`):
    their settled games from their running figures, and only the seats not settled (games
    going, or waiting for `settle_results`) counted one by one, through an index."""
    settled = (
        PlayerFigures.objects.filter(player=OuterRef("pk"))
        .order_by()
        .values("player")
        .annotate(games=Sum("games"))
        .values("games")
    )
    unsettled = (
        Seat.objects.filter(player=OuterRef("pk"), scored__isnull=True)
        .order_by()  # not the seats' own order, which joins their games
        .values("player")
        .annotate(seats=Count("pk"))
        .values("seats")
    )
    zero = 0
    played = Coalesce(Subquery(settled), zero, output_field=IntegerField()) + Coalesce(
        Subquery(unsettled), zero, output_field=IntegerField()
    )
    players = Player.objects.filter(owner_id=owner).annotate(played=played).order_by("name")
    return players.values_list("name", "public_id", "played")


# Built once a process: its two subqueries cost the ORM more to write than the database to run.
PLAYERS_PLAYED = CompiledQuery(_players_played, owner=int)


def games_going(player: Player) -> int:
    """How many games the player sits at that are still being played."""
    return Seat.objects.filter(player=player, game__finished__isnull=True).count()


def players_with_games_played(owner: Household) -> list[PlayerPlayed]:
    """The household's players by name with how many games each sat at (see above)."""
    return [PlayerPlayed(*row) for row in PLAYERS_PLAYED.rows(owner=owner.pk)]
