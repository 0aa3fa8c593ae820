"""Every change to a game goes through here: short transactions, checked by `rules`."""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from scorecard import rules
from scorecard.models import Entry, Game, Household, Player, Roll, Seat, UndoneEntry
from scorecard.progress import load_progress

# The server's dice: the operating system's random source, never the client's word.
dice_source: random.Random = random.SystemRandom()

MAX_PLAYERS = 8
UNDO_KEPT_FIELDS = ("card", "box", "points", "dice", "yahtzee_bonus", "turn")
MAX_NAME_LENGTH = 40


class ZeroNeedsConfirmation(Exception):
    """A box would score 0: the player is asked once more before it is written down."""

    def __init__(self, box: rules.Box, card: int) -> None:
        super().__init__(f"Score 0 in {box.label}?")
        self.box = box
        self.card = card


class GameChanged(Exception):
    """The game moved on since the screen that sent this was drawn (another tap, phone)."""

    status_code = 409

    def __init__(self) -> None:
        super().__init__("The card changed since this screen was shown; here it is as it is now.")


def clean_names(names: Sequence[str]) -> list[str]:
    cleaned = [" ".join(name.split()) for name in names]
    cleaned = [name for name in cleaned if name]
    if not 1 <= len(cleaned) <= MAX_PLAYERS:
        raise ValueError(f"A game has 1 to {MAX_PLAYERS} players; got {len(cleaned)}.")
    if any(len(name) > MAX_NAME_LENGTH for name in cleaned):
        raise ValueError(f"A name has at most {MAX_NAME_LENGTH} characters.")
    folded = [name.casefold() for name in cleaned]
    if len(set(folded)) != len(folded):
        raise ValueError("Two players have the same name; tell them apart, e.g. 'Ann B'.")
    return cleaned


def player_get_or_create(*, owner: Household, name: str) -> Player:
    player = owner.players.filter(name__iexact=name).first()
    return player or Player.objects.create(owner=owner, name=name)


@transaction.atomic
def game_create(
    *,
    owner: Household,
    names: Sequence[str],
    joker: rules.JokerRule = rules.JokerRule.HASBRO,
    mode: str = Game.Mode.STANDARD,
    digital: bool = False,
    random_start: bool = False,
    rng: random.Random | None = None,
) -> Game:
    """A new game; with a random start, seating order is kept and rotated to the starter."""
    names = clean_names(names)
    if mode not in Game.Mode.values:
        raise ValueError(f"There is no game mode called {mode!r}.")
    if random_start:
        start = (rng or random.SystemRandom()).randrange(len(names))
        names = names[start:] + names[:start]
    game = Game.objects.create(owner=owner, joker=joker.key, mode=mode, digital=digital)
    Seat.objects.bulk_create(
        Seat(game=game, player=player_get_or_create(owner=owner, name=name), position=index)
        for index, name in enumerate(names)
    )
    return game


def _claim_version(game: Game, version: int) -> None:
    """Move the game to the next version, or fail if another change got there first.

    The conditional UPDATE is the lock: on PostgreSQL a second writer waits for the row and
    then finds the version moved; SQLite takes the database lock when the transaction starts.
    """
    claimed = Game.objects.filter(pk=game.pk, version=version).update(version=version + 1)
    if not claimed:
        raise GameChanged


def _repeat_of_last(game: Game, turn: int, card: int, box: rules.Box, dice: str, points):
    """The last entry, when it is the very one now sent again (a double tap), else None."""
    last = game.entries.order_by("-turn").first()
    if last is None or (last.turn, last.card, last.box) != (turn, card, box.key):
        return None
    if game.digital:  # the server chose the dice; the repeat names only the box
        return last
    if last.dice != dice:
        return None
    return last if dice or last.points == points else None


def record_box(
    *,
    game: Game,
    version: int,
    turn: int,
    box: rules.Box,
    card: int = 1,
    dice: rules.Dice | None = None,
    points: int | None = None,
    extra_yahtzee: bool = False,
    confirm_zero: bool = True,
) -> tuple[Entry, bool]:
    """Fill a box for the player whose turn it is; returns the entry and whether it is new.

    The same entry sent twice (a double tap) is recorded once: the second returns the first.
    """
    dice_text = "".join(map(str, dice)) if dice else ""
    with transaction.atomic():
        try:
            _claim_version(game, version)
        except GameChanged:
            repeat = _repeat_of_last(game, turn, card, box, dice_text, points)
            if repeat is None:
                raise
            return repeat, False
        progress = load_progress(game)
        seat = progress.current
        if seat is None:
            raise ValueError("This game is over: every box is filled.")
        if not 1 <= card <= game.cards_per_player:
            raise ValueError(f"There is no card {card} in this game.")
        dice = _turn_dice(progress, dice, points)
        placement = rules.place(
            seat.cards[card - 1].filled,
            box,
            dice=dice,
            points=points,
            joker=game.joker_rule,
            extra_yahtzee=extra_yahtzee,
        )
        if placement.points == 0 and not placement.bonus and not confirm_zero:
            raise ZeroNeedsConfirmation(box, card)
        entry = Entry.objects.create(
            game=game,
            seat=seat.seat,
            card=card,
            box=box.key,
            points=placement.points,
            dice="".join(map(str, placement.dice)) if placement.dice else "",
            yahtzee_bonus=bool(placement.bonus),
            turn=progress.next_turn,
        )
        if progress.next_turn == progress.total_turns:
            game.finished = timezone.now()
            Game.objects.filter(pk=game.pk).update(finished=game.finished)
    game.version = version + 1
    return entry, True


def _turn_dice(progress, dice: rules.Dice | None, points: int | None) -> rules.Dice | None:
    """The dice this entry is scored with: the server's in a digital game, and in Challenge
    Yahtzee the roll the round shares."""
    if progress.game.digital:
        if dice is not None or points is not None:
            raise ValueError("In a digital game the server rolls: only the box is chosen.")
        dice = progress.turn_dice
        if dice is None:
            raise ValueError("Roll the dice first.")
    round_dice = progress.round_dice
    if round_dice and dice and tuple(sorted(dice)) != round_dice:
        shown = " ".join(map(str, round_dice))
        raise ValueError(f"Everyone scores this round's shared roll, {shown}.")
    return dice


def roll_faces(rng: random.Random, table: Sequence[int] | None, hold: Sequence[int]) -> list[int]:
    """The dice after a roll: held positions keep their face, the others are rolled."""
    return [table[i] if table and i in hold else rng.randint(1, 6) for i in range(rules.DICE_COUNT)]


def roll_dice(
    *,
    game: Game,
    version: int,
    turn: int,
    hold: Sequence[int] = (),
    rng: random.Random | None = None,
) -> Roll:
    """Roll the dice that are not held, for the player whose turn it is (digital games)."""
    hold = sorted(set(hold))
    with transaction.atomic():
        _claim_version(game, version)
        progress = load_progress(game)
        if not game.digital:
            raise ValueError("This game's dice are rolled at the table, not here.")
        if progress.current is None:
            raise ValueError("This game is over: every box is filled.")
        if turn != progress.next_turn:
            raise ValueError(f"That turn is over; this is turn {progress.next_turn}.")
        if progress.round_dice:
            raise ValueError("This round's roll is already shared: choose a box for it.")
        if not progress.rolls_left:
            raise ValueError("Three rolls a turn: choose a box now.")
        if any(not 0 <= position < rules.DICE_COUNT for position in hold):
            raise ValueError("Only dice 1 to 5 can be held.")
        if hold and not progress.rolls:
            raise ValueError("Roll first: there are no dice to hold yet.")
        faces = roll_faces(rng or dice_source, progress.table_dice, hold)
        game.version = version + 1
        return Roll.objects.create(
            game=game,
            turn=turn,
            number=len(progress.rolls) + 1,
            dice="".join(map(str, faces)),
            held="".join("1" if i in hold else "0" for i in range(rules.DICE_COUNT)),
        )


@transaction.atomic
def undo_last_entry(*, game: Game, version: int) -> Entry | None:
    """Take back the most recent entry; the game reopens if it had ended."""
    _claim_version(game, version)
    last = game.entries.order_by("-turn").first()
    if last is None:
        raise ValueError("Nothing to undo: no box is filled yet.")
    UndoneEntry.objects.create(
        game=game,
        seat_id=last.seat_id,
        **{field: getattr(last, field) for field in UNDO_KEPT_FIELDS},
        recorded=last.created,
    )
    last.delete()
    game.finished = None
    Game.objects.filter(pk=game.pk).update(finished=None)
    game.version = version + 1
    return last


@transaction.atomic
def correct_box(
    *,
    game: Game,
    version: int,
    entry: Entry,
    dice: rules.Dice | None = None,
    points: int | None = None,
) -> Entry:
    """Change a filled box's dice or points, as long as its whole card stays valid."""
    _claim_version(game, version)
    if game.digital:
        raise ValueError("The server rolled these dice, so they stand; undo a box instead.")
    card = list(game.entries.filter(seat=entry.seat_id, card=entry.card).order_by("turn"))
    before = [e.as_rules_entry() for e in card if e.turn < entry.turn]
    after = [e.as_rules_entry() for e in card if e.turn > entry.turn]
    box = entry.rules_box
    placement = rules.place(
        rules.check_card(before, game.joker_rule),
        box,
        dice=dice,
        points=points,
        joker=game.joker_rule,
        extra_yahtzee=entry.yahtzee_bonus and dice is None,
    )
    corrected = rules.Entry(box, placement.points, placement.dice, placement.bonus)
    try:
        rules.check_card([*before, corrected, *after], game.joker_rule)
    except ValueError as error:
        raise ValueError(f"That change would break a later box. {error}") from None
    entry.points = placement.points
    entry.dice = "".join(map(str, placement.dice)) if placement.dice else ""
    entry.yahtzee_bonus = bool(placement.bonus)
    entry.corrected = timezone.now()
    entry.save(update_fields=["points", "dice", "yahtzee_bonus", "corrected"])
    game.version = version + 1
    return entry


def game_rematch(*, game: Game) -> Game:
    """A new game with the same players in the same order, rule and mode."""
    names = [seat.player.name for seat in game.seats.select_related("player")]
    return game_create(
        owner=game.owner, names=names, joker=game.joker_rule, mode=game.mode, digital=game.digital
    )
