"""Reads a game's state: every card, the standings and whose turn it is, in two queries."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorecard import rules
from scorecard.models import Entry, Game, Roll, Seat

MAX_ROLLS = 3

BOXES_PER_CARD = len(rules.Box)


@dataclass
class CardProgress:
    """One card of one player: its entries in turn order and what they add up to."""

    number: int
    entries: list[Entry] = field(default_factory=list)

    @property
    def multiplier(self) -> int:
        return self.number

    @property
    def filled(self) -> dict[rules.Box, int]:
        return {entry.rules_box: entry.points for entry in self.entries}

    @property
    def by_box(self) -> dict[rules.Box, Entry]:
        return {entry.rules_box: entry for entry in self.entries}

    @property
    def extra_yahtzees(self) -> int:
        return sum(entry.yahtzee_bonus for entry in self.entries)

    @property
    def totals(self) -> rules.Totals:
        return rules.totals(self.filled, self.extra_yahtzees)

    @property
    def is_full(self) -> bool:
        return len(self.entries) == BOXES_PER_CARD

    def rows(self) -> list[tuple[rules.Box, Entry | None]]:
        by_box = self.by_box
        return [(box, by_box.get(box)) for box in rules.Box]


@dataclass
class SeatProgress:
    seat: Seat
    cards: list[CardProgress]

    @property
    def player(self):
        return self.seat.player

    @property
    def totals(self) -> rules.Totals:
        """Every card counted by its multiplier: x1, x2, x3 in Triple Yahtzee."""
        weighted = [card.totals.times(card.multiplier) for card in self.cards]
        return sum(weighted[1:], start=weighted[0])

    def open_cards(self) -> list[CardProgress]:
        return [card for card in self.cards if not card.is_full]


@dataclass
class GameProgress:
    game: Game
    seats: list[SeatProgress]
    entries: list[Entry]
    rolls: list[Roll] = field(default_factory=list)  # of the current turn, digital games only

    @property
    def turns_per_player(self) -> int:
        return BOXES_PER_CARD * self.game.cards_per_player

    @property
    def total_turns(self) -> int:
        return self.turns_per_player * len(self.seats)

    @property
    def next_turn(self) -> int:
        return len(self.entries) + 1

    @property
    def is_finished(self) -> bool:
        return len(self.entries) >= self.total_turns

    @property
    def round_number(self) -> int:
        return len(self.entries) // len(self.seats) + 1

    @property
    def current(self) -> SeatProgress | None:
        """Whose turn it is: seats take turns in order, one box a turn."""
        if self.is_finished:
            return None
        return self.seats[len(self.entries) % len(self.seats)]

    @property
    def round_dice(self) -> rules.Dice | None:
        """In Challenge Yahtzee, the roll the whole round shares, once someone entered it."""
        if self.game.mode != Game.Mode.CHALLENGE:
            return None
        in_round = len(self.entries) % len(self.seats)
        this_round = self.entries[len(self.entries) - in_round :] if in_round else []
        return next((entry.dice_tuple for entry in this_round if entry.dice), None)

    @property
    def table_dice(self) -> list[int] | None:
        """The server's dice on the table this turn, in table order (digital games)."""
        return self.rolls[-1].faces if self.rolls else None

    @property
    def table(self) -> list[tuple[int, bool]]:
        """Each die on the table with whether it was held for the last roll."""
        if not self.rolls:
            return []
        last = self.rolls[-1]
        return list(zip(last.faces, last.held_positions, strict=True))

    @property
    def rolls_left(self) -> int:
        return MAX_ROLLS - len(self.rolls)

    @property
    def may_roll(self) -> bool:
        return (
            self.game.digital
            and self.current is not None
            and self.rolls_left > 0
            and self.round_dice is None
        )

    @property
    def turn_dice(self) -> rules.Dice | None:
        """The dice a box is filled with this turn, when the server rolled them."""
        if self.round_dice:
            return self.round_dice
        return rules.parse_dice(self.table_dice) if self.table_dice else None

    def standings(self) -> list[tuple[SeatProgress, rules.Totals]]:
        return [(seat, seat.totals) for seat in self.seats]

    def ranking(self) -> list[tuple[int, SeatProgress, rules.Totals]]:
        """Seats by total, best first; equal totals share a place."""
        ordered = sorted(self.standings(), key=lambda item: -item[1].total)
        ranked, place = [], 0
        for index, (seat, totals) in enumerate(ordered):
            if index == 0 or totals.total != ordered[index - 1][1].total:
                place = index + 1
            ranked.append((place, seat, totals))
        return ranked

    def winners(self) -> list[SeatProgress]:
        return [seat for place, seat, _ in self.ranking() if place == 1]

    def seat_for(self, seat_id: int) -> SeatProgress:
        return next(seat for seat in self.seats if seat.seat.pk == seat_id)

    def last_entry(self) -> Entry | None:
        return self.entries[-1] if self.entries else None


def _build(game: Game, seats: list[Seat], entries: list[Entry]) -> GameProgress:
    cards = {
        seat.pk: [CardProgress(number) for number in range(1, game.cards_per_player + 1)]
        for seat in seats
    }
    by_id = {seat.pk: seat for seat in seats}
    for entry in entries:
        entry.game, entry.seat = game, by_id[entry.seat_id]
        cards[entry.seat_id][entry.card - 1].entries.append(entry)
    return GameProgress(game, [SeatProgress(seat, cards[seat.pk]) for seat in seats], entries)


def load_progress(game: Game) -> GameProgress:
    """One game with its seats, entries and (digital) this turn's rolls."""
    seats = list(game.seats.select_related("player"))
    progress = _build(game, seats, list(game.entries.order_by("turn")))
    if game.digital and not progress.is_finished:
        progress.rolls = list(game.rolls.filter(turn=progress.next_turn).order_by("number"))
    return progress


def load_many(games: list[Game]) -> list[GameProgress]:
    """Many games at once in two queries, for lists and statistics."""
    ids = [game.pk for game in games]
    seats: dict[int, list[Seat]] = {pk: [] for pk in ids}
    for seat in Seat.objects.filter(game_id__in=ids).select_related("player"):
        seats[seat.game_id].append(seat)
    entries: dict[int, list[Entry]] = {pk: [] for pk in ids}
    for entry in Entry.objects.filter(game_id__in=ids).order_by("game_id", "turn"):
        entries[entry.game_id].append(entry)
    return [_build(game, seats[game.pk], entries[game.pk]) for game in games]
