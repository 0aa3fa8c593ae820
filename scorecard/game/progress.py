"""A game's state as read once: every card, the standings and whose turn it is.

`load_progress` reads a game in two queries, one when its seats came with the game (three and
two for a digital game's rolls). A service
that changes the game applies the change to the same object, so a request never reads the
game twice. What a card derives from its entries is kept up to date as entries come and go.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from scorecard.engine import families, rules
from scorecard.game.compiled import CompiledQuery
from scorecard.models import ENTRY_FIELDS, Entry, Game, Player, Roll, Seat, UndoneEntry


@dataclass(slots=True, eq=False)
class EntryRow:
    """A stored `Entry` as a game's state holds it: the row's values, read without building
    a model instance (a game has up to 312 of them, read on every request)."""

    pk: int
    seat_id: int
    turn: int  # from here to rolls_used: `models.ENTRY_FIELDS`, in its order
    card: int
    box: str
    points: int
    dice: str
    yahtzee_bonus: bool
    rolls_used: int = rules.ROLLS_PER_TURN
    created: datetime | None = None  # read only where times are shown or kept
    corrected: datetime | None = None
    rules_box: Any = field(init=False)  # a box of the game's family
    seat: Seat | None = None
    # Keyword only in practice: the rows fill the fields above by position.
    family: families.Family[Any] = field(default=families.YAHTZEE, repr=False)

    COLUMNS = ("pk", "seat_id", *ENTRY_FIELDS)
    TIMES = ("created", "corrected")

    def __post_init__(self) -> None:
        self.rules_box = self.family.box(self.box)

    @classmethod
    def from_row(cls, row: Sequence[Any], family: families.Family[Any]) -> EntryRow:
        """An entry from its `COLUMNS` (and `TIMES`) as the database gives them."""
        named: dict[str, Any] = {"family": family}
        return cls(*row, **named)

    @property
    def dice_tuple(self) -> rules.Dice | None:
        return tuple(int(face) for face in self.dice) if self.dice else None

    def as_rules_entry(self) -> rules.Entry[Any]:
        bonus = rules.EXTRA_YAHTZEE_BONUS if self.yahtzee_bonus else 0
        return rules.Entry(self.rules_box, self.points, self.dice_tuple, bonus)


@dataclass(eq=False)
class CardProgress:
    """One card of one player: its entries in turn order and what they add up to."""

    number: int
    house_rules: rules.HouseRules[Any] = rules.STANDARD
    entries: list[EntryRow] = field(default_factory=list)
    filled: dict[Any, int] = field(default_factory=dict)  # by a box of the game's family
    by_box: dict[Any, EntryRow] = field(default_factory=dict)
    extra_yahtzees: int = 0
    _totals: rules.Totals | None = None  # worked out when asked, forgotten on every change
    _bonus_settled: bool | None = None

    def add(self, entry: EntryRow) -> None:
        self.entries.append(entry)
        self.filled[entry.rules_box] = entry.points
        self.by_box[entry.rules_box] = entry
        self.extra_yahtzees += entry.yahtzee_bonus
        self._totals = self._bonus_settled = None

    def remove(self, entry: EntryRow) -> None:
        self.entries.remove(entry)
        del self.filled[entry.rules_box], self.by_box[entry.rules_box]
        self.extra_yahtzees -= entry.yahtzee_bonus
        self._totals = self._bonus_settled = None

    @property
    def multiplier(self) -> int:
        return rules.card_multiplier(self.number)

    @property
    def totals(self) -> rules.Totals:
        if self._totals is None:
            self._totals = self.house_rules.totals(self.filled, self.extra_yahtzees)
        return self._totals

    @property
    def is_full(self) -> bool:
        return len(self.entries) == len(self.house_rules.boxes)

    @property
    def bonus_settled(self) -> bool:
        if self._bonus_settled is None:
            self._bonus_settled = self.house_rules.upper_bonus_settled(self.filled)
        return self._bonus_settled

    def open_boxes(self) -> list[Any]:
        return [box for box in self.house_rules.boxes if box not in self.filled]


@dataclass(eq=False)
class SeatProgress:
    seat: Seat
    cards: list[CardProgress]

    @property
    def player(self) -> Player:
        return self.seat.player

    @property
    def totals(self) -> rules.Totals:
        return rules.combined_totals({card.number: card.totals for card in self.cards})

    def open_cards(self) -> list[CardProgress]:
        return [card for card in self.cards if not card.is_full]

    @property
    def saved_rolls(self) -> int:
        """The rolls this player left unused on earlier turns (Maxi Yatzy's house rule; 0
        without it), counted from the rolls each of their entries used."""
        house = self.cards[0].house_rules
        if not house.saves_rolls:
            return 0
        turns = sorted((entry for card in self.cards for entry in card.entries), key=_turn)
        return house.saved_rolls(entry.rolls_used for entry in turns)


def _turn(entry: EntryRow) -> int:
    return entry.turn


def round_of(turn: int, players: int) -> int:
    """The round a turn of the game falls in: a round is one turn of each player. The pages
    count rounds ("round 3 of 13"), as players count their own turns; a game's turns
    (1 to 26 for two players) stay the file's and the addresses' numbering."""
    return (turn - 1) // players + 1


@dataclass(eq=False)
class GameProgress:
    game: Game
    seats: list[SeatProgress]
    entries: list[EntryRow]
    rolls: list[Roll] = field(default_factory=list)  # of the current turn, digital games only

    # A game's length never changes, and a record's answer asks for it about 15 times.
    @cached_property
    def total_turns(self) -> int:
        return self.rounds * len(self.seats)

    @property
    def next_turn(self) -> int:
        return len(self.entries) + 1

    @cached_property
    def rounds(self) -> int:
        """Turns a player takes in the game: a round is one turn of each player."""
        return self.game.house_rules.turns_per_player(self.game.cards_per_player)

    @property
    def round(self) -> int:
        """The round of the next turn, counted as the players count their own turns (a new
        user read "turn 1 of 312", eight players' turns of Triple Yahtzee, as the game's
        length for each)."""
        return round_of(self.next_turn, len(self.seats))

    @property
    def is_finished(self) -> bool:
        return len(self.entries) >= self.total_turns

    @property
    def current(self) -> SeatProgress | None:
        """Whose turn it is: seats take turns in order, one box a turn."""
        if self.is_finished:
            return None
        return self.seats[len(self.entries) % len(self.seats)]

    def seat_of(self, entry: EntryRow) -> SeatProgress:
        return next(seat for seat in self.seats if seat.seat.pk == entry.seat_id)

    def add(self, entry: EntryRow) -> None:
        """A new entry, recorded for the current seat: the next turn begins."""
        seat = self.seat_of(entry)
        entry.seat = seat.seat
        self.entries.append(entry)
        seat.cards[entry.card - 1].add(entry)
        self.rolls = []

    def remove_last(self) -> EntryRow:
        entry = self.entries.pop()
        self.seat_of(entry).cards[entry.card - 1].remove(entry)
        return entry

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
        return self.rolls[-1].faces_held if self.rolls else []

    @property
    def rolls_allowed(self) -> int:
        """The rolls this turn may use: three, and with saved rolls on the player's saved ones."""
        saved = self.current.saved_rolls if self.current else 0
        return self.game.house_rules.rolls_allowed(saved)

    @property
    def rolls_left(self) -> int:
        return self.rolls_allowed - len(self.rolls)

    def saved_rolls_now(self, seat: SeatProgress) -> int:
        """The rolls `seat` has saved, less those the turn going spent already: a 4th roll
        of a digital turn spends one (a new user saw "Saved rolls: 2" beside Roll 4)."""
        if seat is not self.current:
            return seat.saved_rolls
        beyond = len(self.rolls) - self.game.house_rules.family.rolls_per_turn
        return seat.saved_rolls - max(0, beyond)

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
        family = self.game.house_rules.family
        return family.parse_dice(self.table_dice) if self.table_dice else None

    def standings(self) -> list[tuple[SeatProgress, rules.Totals]]:
        return [(seat, seat.totals) for seat in self.seats]

    def ranking(self) -> list[tuple[int, SeatProgress, rules.Totals]]:
        """Seats by total, best first; equal totals share a place."""
        standings = ranked(self.standings(), lambda item: item[1].total)
        return [(place, seat, totals) for place, (seat, totals) in standings]

    def winners(self) -> list[SeatProgress]:
        return [seat for place, seat, _ in self.ranking() if place == 1]

    @property
    def is_solo(self) -> bool:
        """One player alone: a finished game has a final total, not a winner."""
        return len(self.seats) == 1


def ranked[T](items: Sequence[T], total: Callable[[T], int]) -> list[tuple[int, T]]:
    """Each item with its place, best total first; equal totals share a place and keep
    their order (seating order, for seats)."""
    ordered = sorted(items, key=lambda item: -total(item))
    placed: list[tuple[int, T]] = []
    for index, item in enumerate(ordered):
        if index == 0 or total(item) != total(ordered[index - 1]):
            place = index + 1
        placed.append((place, item))
    return placed


def _build(game: Game, seats: list[Seat], entries: list[EntryRow]) -> GameProgress:
    house = game.house_rules
    numbers = range(1, game.cards_per_player + 1)
    cards = {seat.pk: [CardProgress(number, house) for number in numbers] for seat in seats}
    by_id = {seat.pk: seat for seat in seats}
    for entry in entries:
        entry.seat = by_id[entry.seat_id]
        cards[entry.seat_id][entry.card - 1].add(entry)
    return GameProgress(game, [SeatProgress(seat, cards[seat.pk]) for seat in seats], entries)


def load_progress(
    game: Game,
    *,
    seats: list[Seat] | None = None,
    reopening: bool = False,
    with_times: bool = False,
) -> GameProgress:
    """One game with its seats, entries and (digital) this turn's rolls. `seats` are the
    game's seats with their players when the caller read them with the game (see
    `households.household_seated_game`), else they are read here. `reopening` reads the
    rolls of the last entry's turn instead, for an undo that is about to reopen it, and
    `with_times` when each entry was made and corrected (parsing times is a cost a turn
    does not need to pay)."""
    query = GAME_ENTRIES_WITH_TIMES if with_times else GAME_ENTRIES
    family = game.house_rules.family
    entries = [EntryRow.from_row(row, family) for row in query.rows(game=game.pk)]
    if seats is None:
        seats = list(game.seats.select_related("player"))
    progress = _build(game, seats, entries)
    turn = progress.next_turn - 1 if reopening else progress.next_turn
    if game.digital and (reopening or not progress.is_finished):
        rolls = TURN_ROLLS.rows(game=game.pk, turn=turn)
        progress.rolls = [
            Roll(game_id=game.pk, **dict(zip(ROLL_COLUMNS, row, strict=True))) for row in rolls
        ]
    return progress


def _game_entries(*columns: str) -> CompiledQuery:
    return CompiledQuery(
        lambda game: Entry.objects.filter(game=game).order_by("turn").values_list(*columns),
        game=int,
    )


GAME_ENTRIES = _game_entries(*EntryRow.COLUMNS)
GAME_ENTRIES_WITH_TIMES = _game_entries(*EntryRow.COLUMNS, *EntryRow.TIMES)
ROLL_COLUMNS = ("id", "turn", "number", "dice", "held", "created")
TURN_ROLLS = CompiledQuery(
    lambda game, turn: (
        Roll.objects.filter(game=game, turn=turn).order_by("number").values_list(*ROLL_COLUMNS)
    ),
    game=int,
    turn=int,
)


def load_many(games: list[Game]) -> list[GameProgress]:
    """Many games at once in two queries, for lists and settling results (neither shows
    when an entry was made, so its times are not read)."""
    ids = [game.pk for game in games]
    seats: dict[int, list[Seat]] = {pk: [] for pk in ids}
    found = Seat.objects.filter(game_id__in=ids).order_by("position")  # no join to games
    for seat in found.select_related("player"):
        seats[seat.game_id].append(seat)
    entries: dict[int, list[EntryRow]] = {pk: [] for pk in ids}
    rows = Entry.objects.filter(game_id__in=ids).order_by("game_id", "turn")
    by_id = {game.pk: game for game in games}
    for game_id, *row in rows.values_list("game_id", *EntryRow.COLUMNS):
        family = by_id[game_id].house_rules.family
        entries[game_id].append(EntryRow.from_row(row, family))
    return [_build(game, seats[game.pk], entries[game.pk]) for game in games]


def latest_fix(game: Game) -> Entry | UndoneEntry | None:
    """The game's latest change by hand: the box corrected or the entry undone most recently,
    with its seat and player; None when a roll came after both, or there was neither."""
    corrected = (
        Entry.objects.filter(game=game, corrected__isnull=False)
        .select_related("seat__player")
        .order_by("-corrected")
        .first()
    )
    undone = UndoneEntry.objects.filter(game=game).select_related("seat__player")
    undone_last = undone.order_by("-undone", "-pk").first()
    found: list[tuple[datetime, Entry | UndoneEntry]] = []
    if corrected is not None and corrected.corrected is not None:
        found.append((corrected.corrected, corrected))
    if undone_last is not None:
        found.append((undone_last.undone, undone_last))
    if not found:
        return None
    when, fix = max(found, key=lambda pair: pair[0])
    rolled = Roll.objects.filter(game=game, created__gt=when).exists()
    # A rematch moves the finished game's version too: not a fix to say again (its phones
    # showed "Corrected: …" of forty turns before; found by a new user).
    rematched = Game.objects.filter(rematch_of=game, created__gt=when).exists()
    return None if rolled or rematched else fix
