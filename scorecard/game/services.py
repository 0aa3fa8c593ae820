"""Every change to a game goes through here: short transactions, checked by `rules`.

A change the player may not make raises `Refusal`, whose message is written for them;
anything else that goes wrong is a bug and stays loud. A service that changes a game
returns the state it loaded, updated, so a request reads the game once.
"""

from __future__ import annotations

import enum
import itertools
import random
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Literal, NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorecard.engine import families, rules
from scorecard.game import compiled, results
from scorecard.game.progress import (
    EntryRow,
    GameProgress,
    SeatProgress,
    load_progress,
    round_of,
)
from scorecard.models import (
    ENTRY_FIELDS,
    Entry,
    Game,
    GameLink,
    Household,
    Player,
    Roll,
    Seat,
    UndoneEntry,
    name_key,
)
from scorecard.presenters.box_names import box_name
from scorecard.presenters.rule_words import said

# The server's dice: the operating system's random source, never the client's word.
dice_source: random.Random = random.SystemRandom()

MAX_PLAYERS = 8
MAX_NAME_LENGTH = 40


class Refusal(Exception):
    """A change the rules or the game's state do not allow; the message is for the player.

    `progress` is the game as the service found it, when it had read it, so the refused
    screen can be drawn again without another read.
    """

    status_code = 400

    def __init__(self, message: str, *, progress: GameProgress | None = None) -> None:
        super().__init__(message)
        self.progress = progress


type Doing = Literal["record", "undo", "roll", "correct"]  # what a tap asked, as refused


class GameChanged(Refusal):
    """The game moved on since the screen that sent this was drawn (another tap, phone)."""

    status_code = 409

    def __init__(self, progress: GameProgress | None = None, *, doing: Doing = "record") -> None:
        # What did not happen, first: a phone whose Fours lost the race to another phone's
        # correction was not told its tap went nowhere, and an undo refused so was told
        # "Not recorded" (helpers on four phones).
        super().__init__(str(NOT_DONE[doing]), progress=progress)


NOT_DONE: dict[Doing, Promise] = {
    "record": gettext_lazy(
        "Not recorded: the card changed since this screen was shown; here it is as it is now."
    ),
    "undo": gettext_lazy(
        "Not undone: the card changed since this screen was shown; here it is as it is now."
    ),
    "roll": gettext_lazy(
        "Not rolled: the card changed since this screen was shown; here it is as it is now."
    ),
    "correct": gettext_lazy(
        "Not corrected: the card changed since this page was shown. Check the box and save "
        "again to correct it as it is now."
    ),
}


class ZeroNeedsConfirmation(Exception):
    """A box would score 0: the player is asked once more before it is written down. A
    correction's zero in the Yahtzee box also says how many later extra Yahtzees' bonuses
    it would take (`bonuses_taken`; a helper learnt of them only once it was saved)."""

    def __init__(
        self, box: rules.CardBox, card: int, progress: GameProgress, bonuses_taken: int = 0
    ) -> None:
        super().__init__(f"Score 0 in {box.label}?")
        self.box = box
        self.card = card
        self.progress = progress
        self.bonuses_taken = bonuses_taken


class UndoNeedsConfirmation(Exception):
    """Undoing the last entry is asked about first when it would surprise: it takes back the
    dice the next player has rolled since (a new user: they went without a word), or a box
    was corrected after it (a tester tapped Undo to take back a correction, and lost the
    turn before it, the correction staying). `corrected` is that box's entry."""

    def __init__(
        self, progress: GameProgress, last: EntryRow, *, rolled: bool, corrected: EntryRow | None
    ) -> None:
        super().__init__("Undo is asked about first.")
        self.progress = progress
        self.last = last
        self.rolled = rolled
        self.corrected = corrected


@contextmanager
def _one_change() -> Iterator[None]:
    """A tap's reads, checks and writes as one: a transaction of their own when the service
    is called alone, else a part of the caller's (a tap's key, `web.idempotency`) without a
    savepoint, which would be two statements more on every tap.

    A savepoint is only there to undo a refused change's writes, and a service that uses
    this block refuses before its first write: the version's claim, which writes nothing
    when it fails. So a refusal leaves the block as if nothing had been asked and is raised
    after it; anything else raised inside is a bug and fails the caller's transaction whole.
    """
    refused: Refusal | ZeroNeedsConfirmation | UndoNeedsConfirmation | None = None
    with transaction.atomic(savepoint=False):
        try:
            yield
        except (Refusal, ZeroNeedsConfirmation, UndoNeedsConfirmation) as refusal:
            refused = refusal
    if refused is not None:
        raise refused


class Recorded(NamedTuple):
    progress: GameProgress
    entry: EntryRow
    is_new: bool  # False when the same entry was sent twice (a double tap)


class Undone(NamedTuple):
    progress: GameProgress
    entry: EntryRow


@contextmanager
def by_the_rules(progress: GameProgress | None = None) -> Iterator[None]:
    """Turn the rules' refusal of the player's input into the services' one."""
    try:
        yield
    except rules.RuleViolation as violation:
        raise Refusal(said(violation), progress=progress) from None
    except Refusal as refusal:
        refusal.progress = refusal.progress or progress
        raise


# The zero-width joiners are invisible yet part of how emoji (👩‍💻, 🏳️‍🌈) and scripts such as
# Persian are written; every other character Python finds unprintable (controls, other
# invisible format characters such as a right-to-left override) is refused in a name.
JOINERS = frozenset("\u200c\u200d")


def is_readable_name(name: str) -> bool:
    """Whether a name holds only characters a page shows (the joiners included)."""
    return all(character.isprintable() or character in JOINERS for character in name)


def _tidied(name: str) -> str:
    """A name as it is kept: its spaces (and any other white space) one space each, and an
    accent written as one character (a phone may send "é" as "e" and a combining accent)."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


def clean_names(names: Sequence[str]) -> list[str]:
    cleaned = [_tidied(name) for name in names]
    cleaned = [name for name in cleaned if name]
    if not cleaned:
        raise Refusal(_("Write at least one player’s name to start."))
    if len(cleaned) > MAX_PLAYERS:
        raise Refusal(_("A game has at most %(most)s players.") % {"most": MAX_PLAYERS})
    for name in cleaned:
        _check_name(name)
    folded = [name_key(name) for name in cleaned]
    if len(set(folded)) != len(folded):
        raise Refusal(_("Two players have the same name; tell them apart, e.g. “Ann B”."))
    return cleaned


def _check_name(name: str) -> None:
    """Refused, saying why, when a tidied name cannot be a player's."""
    if len(name) > MAX_NAME_LENGTH:
        raise Refusal(_("A name has at most %(most)s characters.") % {"most": MAX_NAME_LENGTH})
    if not is_readable_name(name):
        raise Refusal(_("A name holds letters, digits and signs, not control characters."))


def names_at_fault(names: Sequence[str]) -> set[str]:
    """The names `clean_names` refuses for what they are themselves: each one that holds a
    control character, else each one another player has too (as they were written)."""
    # Pairs, not a dict by name: a name written twice alike is two (a dict kept one, and the
    # refusal went beside the first player's name, whatever it was: a tester).
    written = [(name, _tidied(name)) for name in names if name.strip()]
    unreadable = {name for name, clean in written if not is_readable_name(clean)}
    if unreadable:
        return unreadable
    folded = [name_key(clean) for _name, clean in written]
    return {name for name, clean in written if folded.count(name_key(clean)) > 1}


def player_get_or_create(*, owner: Household, name: str, public_id: str | None = None) -> Player:
    """The household's player of that name (any case, `name_key`), or a new one; a restored
    backup may ask for the player's own id back when no other player holds it."""
    player = owner.players.filter(name_key=name_key(name)).order_by("pk").first()
    if player:
        return player
    if public_id and not Player.objects.filter(public_id=public_id).exists():
        return Player.objects.create(owner=owner, name=name, public_id=public_id)
    return Player.objects.create(owner=owner, name=name)


class NameOfAnother(Exception):
    """A player renamed to another player's name (any case, `name_key`): the two may be one
    person under two names, and the player is asked whether to merge them (`player_merge`)."""

    def __init__(self, other: Player) -> None:
        super().__init__(f"{other.name} is another player")
        self.other = other


def player_rename(*, player: Player, name: str) -> Player:
    """The player under another name (a typo put right, or its letters' case): every game
    they sat at shows it. Refused when the name cannot be a player's, or is another player's
    who sat at a game with them; `NameOfAnother` when another player of the household has it
    (the two may be one person)."""
    name = _tidied(name)
    if not name:
        raise Refusal(_("Write the player’s new name."))
    _check_name(name)
    others = player.owner.players.exclude(pk=player.pk)
    if (other := others.filter(name_key=name_key(name)).first()) is not None:
        _check_one_person(player, other)  # asked only when they may be merged
        raise NameOfAnother(other)
    player.name = name
    player.save(update_fields=["name", "name_key"])
    return player


def _check_one_person(player: Player, other: Player) -> None:
    """Refused when the two sat at one game: two people, whatever their names."""
    if Game.objects.filter(seats__player=player).filter(seats__player=other).exists():
        names = {"name": player.name, "other": other.name}
        raise Refusal(
            _("%(name)s and %(other)s played in the same game, so they are two people.") % names
        )


@transaction.atomic
def player_merge(*, player: Player, into: Player) -> int:
    """One person kept under two names made one: `player`'s games, figures and box totals
    become `into`'s, and `player` is gone. Refused when the two are of two households, or
    sat at one game (two people, then). Returns how many games moved."""
    if player.pk == into.pk or player.owner_id != into.owner_id:
        raise Refusal(_("Choose another player of this household."))
    _check_one_person(player, into)
    moved = Seat.objects.filter(player=player).update(player=into)
    results.move_figures(player=player.pk, into=into.pk)
    player.delete()
    return moved


class HouseSettings(NamedTuple):
    """The rules a new game is played by beyond Yahtzee's: its family, the house switches it
    turns on, its own upper bonus (None: the family's) and whether boxes are filled in order."""

    family: str = families.YAHTZEE.key
    switches: frozenset[families.Switch] = frozenset()
    bonus: families.UpperBonus | None = None
    forced: bool = False

    def house_rules(self) -> rules.HouseRules[Any]:
        """The engine's rules for these settings, or `RuleViolation` for a mix it refuses."""
        family = families.family_named(self.family)
        return rules.HouseRules(family, self.switches, self.bonus, self.forced)


STANDARD_HOUSE = HouseSettings()


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
    house: HouseSettings = STANDARD_HOUSE,
) -> Game:
    """A new game; with a random start, seating order is kept and rotated to the starter.

    The joker rule and Triple or Challenge belong to Yahtzee: another family plays standard.
    """
    names = clean_names(names)
    if mode not in Game.Mode.values:
        raise Refusal(f"There is no game mode called {mode!r}.")
    with by_the_rules():
        house_rules = house.house_rules()
    if not house_rules.family.has_jokers:
        joker, mode = rules.JokerRule.HASBRO, Game.Mode.STANDARD
    if random_start:
        start = (rng or random.SystemRandom()).randrange(len(names))
        names = names[start:] + names[:start]
    bonus = house.bonus
    game = Game.objects.create(
        owner=owner,
        joker=joker.key,
        mode=mode,
        digital=digital,
        family=house.family,
        switches=",".join(sorted(switch.key for switch in house.switches)),
        forced_order=house.forced,
        bonus_threshold=bonus.threshold if bonus else None,
        bonus_points=bonus.points if bonus else None,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player_get_or_create(owner=owner, name=name), position=index)
        for index, name in enumerate(names)
    )
    return game


def house_settings(game: Game) -> HouseSettings:
    """The house settings a game was created with, for a rematch."""
    house = game.house_rules
    return HouseSettings(house.family.key, house.switches, house.house_bonus, house.forced)


CLAIM = compiled.update(Game, "version", "finished", where=("id", "version"))
CLAIM_FOR_AN_ENTRY = compiled.update(
    Game, "version", "finished", "recorded_version", where=("id", "version")
)


class _Keep(enum.Enum):
    """When the game finished stays as it is (None would say it has not)."""

    KEEP = enum.auto()


KEEP = _Keep.KEEP


def _claim_version(
    game: Game,
    version: int,
    *,
    finished: datetime | None | Literal[_Keep.KEEP] = KEEP,
    for_an_entry: bool = False,
    doing: Doing = "record",
) -> None:
    """Move the game to the next version (and set when it finished), or fail if another
    change got there first. `for_an_entry`: the change records an entry, and the game says
    so (`Game.recorded_version`).

    The conditional UPDATE is the lock: on PostgreSQL a second writer waits for the row and
    then finds the version moved; SQLite takes the database lock when the transaction starts.
    """
    finished = game.finished if finished is KEEP else finished
    if for_an_entry:
        claimed = CLAIM_FOR_AN_ENTRY.run(version + 1, finished, version + 1, game.pk, version)
        if claimed:
            game.recorded_version = version + 1
    else:
        claimed = CLAIM.run(version + 1, finished, game.pk, version)
    if not claimed:
        raise GameChanged(doing=doing)
    game.version, game.finished = version + 1, finished


def _reread(game: Game, seats: list[Seat] | None) -> GameProgress:
    game.refresh_from_db(fields=["version", "finished", "recorded_version"])
    return load_progress(game, seats=seats)


def _repeat_of_last(
    progress: GameProgress,
    turn: int,
    card: int,
    box: rules.CardBox,
    dice: rules.Dice | None,
    points: int | None,
) -> EntryRow | None:
    """The last entry, when it is the very one now sent again (a double tap), else None."""
    last = progress.entries[-1] if progress.entries else None
    if last is None or (last.turn, last.card, last.rules_box) != (turn, card, box):
        return None
    if progress.game.digital:  # the server chose the dice; the repeat names only the box
        return last
    if last.dice_tuple != (tuple(sorted(dice)) if dice else None):
        return None
    return last if dice or last.points == points else None


def record_box(
    *,
    game: Game,
    version: int,
    turn: int,
    box: rules.CardBox | str,
    card: int = 1,
    dice: rules.Dice | None = None,
    points: int | None = None,
    extra_yahtzee: bool = False,
    confirm_zero: bool = True,
    rolls_used: int | None = None,
    seats: list[Seat] | None = None,
    progress: GameProgress | None = None,
) -> Recorded:
    """Fill a box for the player whose turn it is; `seats` are the game's, when they were
    read with it, and `progress` is the game already read in this request, if it was (the
    version claimed below guards it like a fresh read). `rolls_used` is what a table game's
    player says the turn used (the whole turn when not said); a digital game counts its own.

    The same entry sent twice (a double tap) is recorded once: the second gets the first.
    """
    with _one_change():
        progress = load_progress(game, seats=seats) if progress is None else progress
        with by_the_rules(progress):
            named: Any = _game_box(game, box)
        if version != game.version or turn != progress.next_turn:
            repeat = _repeat_of_last(progress, turn, card, named, dice, points)
            if repeat is None:
                raise GameChanged(progress)
            return Recorded(progress, repeat, False)
        seat = progress.current
        if seat is None:
            raise Refusal(_("This game is over: every box is filled."), progress=progress)
        if not 1 <= card <= game.cards_per_player:
            message = _("There is no card %(card)s in this game.") % {"card": card}
            raise Refusal(message, progress=progress)
        with by_the_rules(progress):
            used = _rolls_used(progress, seat, rolls_used)
            placement = game.house_rules.place(
                seat.cards[card - 1].filled,
                named,
                dice=_turn_dice(progress, dice, points),
                points=points,
                joker=game.joker_rule,
                extra_yahtzee=extra_yahtzee,
            )
        # A zero is asked about once more: another box might have taken the dice, an extra
        # Yahtzee's too (its +100 comes either way: Ones 0 under Free choice passed Threes'
        # 15 without a word; a helper). In forced order there is no other box, and asking
        # doubled most turns' taps.
        asks = not (confirm_zero or game.house_rules.forced)
        if placement.points == 0 and asks:
            raise ZeroNeedsConfirmation(named, card, progress)
        last_turn = progress.next_turn == progress.total_turns
        try:
            finished = timezone.now() if last_turn else None
            _claim_version(game, version, finished=finished, for_an_entry=True)
        except GameChanged:  # another phone's change won the race to the row
            progress = _reread(game, seats)
            repeat = _repeat_of_last(progress, turn, card, named, dice, points)
            if repeat is None:
                raise GameChanged(progress) from None
            return Recorded(progress, repeat, False)
        dice_text = "".join(map(str, placement.dice)) if placement.dice else ""
        created = timezone.now()
        entry_id = INSERT_ENTRY.run(game.pk, seat.seat.pk, progress.next_turn, card, named.key,
                                    placement.points, dice_text, bool(placement.bonus), used,
                                    created)  # fmt: skip
        filled = EntryRow(entry_id, seat.seat.pk, progress.next_turn, card, named.key,
                          placement.points, dice_text, bool(placement.bonus), used, created,
                          family=game.house_rules.family)  # fmt: skip
        progress.add(filled)
        if last_turn:
            results.settle_finished(progress)
    return Recorded(progress, filled, True)


def _game_box(game: Game, box: rules.CardBox | str) -> Any:
    """The box of the game's own family that a form (by key) or a caller names."""
    return game.house_rules.family.box(box if isinstance(box, str) else box.key)


INSERT_ENTRY = compiled.insert(Entry, "game", "seat", *ENTRY_FIELDS, "created")


def _rolls_used(progress: GameProgress, seat: SeatProgress, said: int | None) -> int:
    """How many rolls this turn used: in a digital game the rolls the server made (a
    Challenge round's shared roll counts as a whole turn), at a table what the player said
    (the whole turn when they did not), checked against the rolls they have."""
    house = progress.game.house_rules
    if progress.game.digital:
        if said is not None:
            raise Refusal(
                _("In a digital game the server counts the rolls: only the box is chosen.")
            )
        return len(progress.rolls) or house.family.rolls_per_turn
    used = house.family.rolls_per_turn if said is None else said
    return house.check_rolls_used(used, seat.saved_rolls)


def _turn_dice(
    progress: GameProgress, dice: rules.Dice | None, points: int | None
) -> rules.Dice | None:
    """The dice this entry is scored with: the server's in a digital game, and in Challenge
    Yahtzee the roll the round shares."""
    if progress.game.digital:
        if dice is not None or points is not None:
            raise Refusal(_("In a digital game the server rolls: only the box is chosen."))
        dice = progress.turn_dice
        if dice is None:
            raise Refusal(_("Roll the dice first."))
    if dice is not None:
        dice = progress.game.house_rules.family.parse_dice(dice)
    round_dice = progress.round_dice
    if round_dice and dice and tuple(sorted(dice)) != round_dice:
        shown = " ".join(map(str, round_dice))
        raise Refusal(_("Everyone scores this round's shared roll, %(dice)s.") % {"dice": shown})
    return dice


def roll_faces(
    rng: random.Random,
    table: Sequence[int] | None,
    hold: Sequence[int],
    count: int = rules.DICE_COUNT,
) -> list[int]:
    """The dice after a roll (`count` of them): held positions keep their face, the others
    are rolled."""
    return [table[i] if table and i in hold else rng.randint(1, 6) for i in range(count)]


def _check_roll(progress: GameProgress, turn: int, hold: Sequence[int]) -> None:
    if not progress.game.digital:
        raise Refusal(_("This game's dice are rolled at the table, not here."))
    if progress.current is None:
        raise Refusal(_("This game is over: every box is filled."))
    if turn != progress.next_turn:
        now = {"round": progress.round, "name": progress.current.player.name}
        raise Refusal(_("That turn is over: this is round %(round)s, %(name)s’s turn.") % now)
    if progress.round_dice:
        raise Refusal(_("This round's roll is already shared: choose a box for it."))
    family = progress.game.house_rules.family
    if not progress.rolls_left:
        raise Refusal(_no_rolls_left(progress))
    if any(not 0 <= position < family.dice_count for position in hold):
        raise Refusal(_("Only dice 1 to %(count)s can be held.") % {"count": family.dice_count})
    if hold and not progress.rolls:
        raise Refusal(_("Roll first: there are no dice to hold yet."))
    if len(hold) == family.dice_count:
        raise Refusal(_("Every die is held, so a roll would change nothing: choose a box."))


def _no_rolls_left(progress: GameProgress) -> str:
    allowed = progress.rolls_allowed
    if progress.game.house_rules.saves_rolls:
        return _("%(allowed)s rolls this turn, the saved ones too, are used: choose a box now.") % {
            "allowed": allowed
        }
    return _("%(allowed)s rolls a turn: choose a box now.") % {"allowed": allowed}


def roll_dice(
    *,
    game: Game,
    version: int,
    turn: int,
    hold: Sequence[int] = (),
    rng: random.Random | None = None,
    seats: list[Seat] | None = None,
    progress: GameProgress | None = None,
) -> GameProgress:
    """Roll the dice that are not held, for the player whose turn it is (digital games);
    `seats` and `progress` as for `record_box`."""
    hold = sorted(set(hold))
    with _one_change():
        progress = load_progress(game, seats=seats) if progress is None else progress
        if version != game.version:
            raise GameChanged(progress, doing="roll")
        with by_the_rules(progress):
            _check_roll(progress, turn, hold)
        count = game.house_rules.family.dice_count
        faces = roll_faces(rng or dice_source, progress.table_dice, hold, count)
        _claim_version(game, version, doing="roll")
        roll = Roll.objects.create(
            game=game,
            turn=turn,
            number=len(progress.rolls) + 1,
            dice="".join(map(str, faces)),
            held="".join("1" if i in hold else "0" for i in range(count)),
        )
    progress.rolls.append(roll)
    return progress


def undo_last_entry(
    *, game: Game, version: int, seats: list[Seat] | None = None, confirmed: bool = False
) -> Undone:
    """Take back the most recent entry; the game reopens if it had ended (`seats` as for
    `record_box`). In a digital game whose next player has rolled, or after a box was
    corrected, only `confirmed` (else `UndoNeedsConfirmation` asks first)."""
    with _one_change():
        progress = load_progress(game, seats=seats, reopening=True, with_times=True)
        if version != game.version:
            raise GameChanged(progress, doing="undo")
        if not progress.entries:
            raise Refusal(_("Nothing to undo: no box is filled yet."), progress=progress)
        if game.finished and rematch_made(game) is not None:
            # Reopened, it would be a second game going for the table, and the phones that
            # followed it to the rematch would lose their way there (found by a new user).
            stays = _(
                "The table has started a new game with the same players, so this one stays "
                "finished: a box can still be corrected."
            )
            raise Refusal(stays, progress=progress)
        last = progress.entries[-1]
        assert last.created is not None, "read with_times, so every entry has its time"
        if not confirmed:
            rolled = game.digital and Roll.objects.filter(game=game, turn__gt=last.turn).exists()
            # The last box's own correction goes with it: nothing to ask about that.
            corrected = _corrected_since(game, progress.entries[:-1], last.created)
            if rolled or corrected:
                raise UndoNeedsConfirmation(progress, last, rolled=rolled, corrected=corrected)
        was_finished = game.finished
        _claim_version(game, version, finished=None, doing="undo")  # the first write
        if was_finished:
            results.unsettle(progress)
        UndoneEntry.objects.create(
            game=game,
            seat_id=last.seat_id,
            **{field: getattr(last, field) for field in ENTRY_FIELDS},
            recorded=last.created,
        )
        Entry.objects.filter(pk=last.pk).delete()
        if game.digital:
            # The next player may have rolled already: a turn the undo takes back to before
            # its start has not begun, so its rolls go too (kept, they came back as a turn
            # half used once the box was filled again, its dice never shown).
            Roll.objects.filter(game=game, turn__gt=last.turn).delete()
    progress.remove_last()
    return Undone(progress, last)


def _corrected_since(game: Game, entries: list[EntryRow], since: datetime) -> EntryRow | None:
    """The box corrected last, when that correction is the game's latest change: after the
    last entry was recorded (`since`) and after any undo."""
    times = [(entry.corrected, entry) for entry in entries if entry.corrected]
    if not times:
        return None
    when, corrected = max(times, key=lambda pair: pair[0])
    if when <= since or UndoneEntry.objects.filter(game=game, undone__gt=when).exists():
        return None
    return corrected


def check_correctable(game: Game) -> None:
    """A correction is for dice rolled at a table; the server's own dice stand."""
    if game.digital:
        raise Refusal(_("The server rolled these dice, so they stand; undo a box instead."))


def _card_around(
    game: Game, entry: Entry, card: int | None = None
) -> tuple[list[rules.Entry[Any]], list[EntryRow]]:
    """The other entries of the corrected box's card (or of its player's `card`, where it
    may move to) before it (as the rules take them) and after it, in turn order."""
    family = game.house_rules.family
    rows = game.entries.filter(seat=entry.seat_id, card=card or entry.card).order_by("turn")
    played = [EntryRow.from_row(row, family) for row in rows.values_list(*EntryRow.COLUMNS)]
    before = [e.as_rules_entry() for e in played if e.turn < entry.turn]
    return before, [e for e in played if e.turn > entry.turn]


class Corrected(NamedTuple):
    """A corrected box, and the later boxes of its card whose extra-Yahtzee bonus the
    correction gave (True) or took away (False): the Yahtzee box's 50 decides them.
    `changed` is False for a correction that left the box as it was (nothing written)."""

    entry: Entry
    bonuses: list[tuple[EntryRow, bool]]
    changed: bool = True


def _unforced(game: Game) -> rules.HouseRules[Any]:
    """A correction changes an earlier box: forced order is about the turn, not the fix."""
    house = game.house_rules
    return rules.HouseRules(house.family, house.switches, house.house_bonus)


class Place(NamedTuple):
    """Where an entry may stand: a box on one of its player's cards (Triple Yahtzee's ×1, ×2
    and ×3; one card in any other game)."""

    card: int
    box: Any


class BeforeCorrection(NamedTuple):
    """A corrected box as it was before its latest correction: where it stood, whether it
    had its extra-Yahtzee bonus, the rolls its turn used, and the later boxes of its card
    whose bonus the correction gave (True) or took away (False), by turn."""

    place: Place
    yahtzee_bonus: bool
    rolls_used: int
    later_bonuses: tuple[tuple[int, bool], ...]


def _corrected_from(entry: Entry, bonuses: list[tuple[EntryRow, bool]]) -> str:
    """`Entry.corrected_from` for a correction about to be written ("1:sixes:1:3|9=0")."""
    kept = f"{entry.card}:{entry.box}:{int(entry.yahtzee_bonus)}:{entry.rolls_used}"
    later = ",".join(f"{row.turn}={int(bonus)}" for row, bonus in bonuses)
    return f"{kept}|{later}" if later else kept


def before_correction(entry: Entry, game: Game) -> BeforeCorrection | None:
    """The box as it was before its latest correction; None for one never corrected (or
    corrected before `Entry.corrected_from` was kept)."""
    if not entry.corrected_from:
        return None
    kept, _bar, later = entry.corrected_from.partition("|")
    card, key, bonus, rolls = kept.split(":")
    place = Place(int(card), game.house_rules.family.box(key))
    turns = (pair.split("=") for pair in later.split(",") if pair)
    bonuses = tuple((int(turn), given == "1") for turn, given in turns)
    return BeforeCorrection(place, bonus == "1", int(rolls), bonuses)


def places_to_move_to(*, game: Game, entry: Entry) -> list[Place]:
    """Where a correction may move an entry: its own place, then each box still open on its
    player's cards, card by card in card order. None in forced order, where each round has
    its box."""
    if game.house_rules.forced:
        return []
    family = game.house_rules.family
    rows = game.entries.filter(seat=entry.seat_id).exclude(pk=entry.pk)
    taken = {*rows.values_list("card", "box"), (entry.card, entry.box)}
    cards = range(1, game.cards_per_player + 1)
    free = [Place(card, b) for card in cards for b in family.boxes if (card, b.key) not in taken]
    return [Place(entry.card, family.box(entry.box)), *free]


def points_if_moved(*, game: Game, entry: Entry, places: Sequence[Place]) -> dict[Place, int]:
    """What the entry's own dice would score in each of `places`, by the rules of its round
    (shown beside each place it may move to); none for a box they may not go in, nor for an
    entry whose points were typed without dice."""
    if not entry.dice:
        return {}
    unforced = _unforced(game)
    dice = game.house_rules.family.parse_dice(entry.dice)
    cards = {}
    for card in {place.card for place in places}:
        before, _after = _card_around(game, entry, card)
        cards[card] = unforced.check_card(before, game.joker_rule)
    points = {}
    for place in places:
        try:
            placed = unforced.place(cards[place.card], place.box, dice=dice, joker=game.joker_rule)
        except rules.RuleViolation:
            continue
        points[place] = placed.points
    return points


def correction_pays_extra_yahtzee(*, game: Game, entry: Entry) -> bool:
    """Whether a box's correction by points may claim an extra Yahtzee: five alike there
    would have earned the bonus (50 in the Yahtzee box before it, a rule that pays)."""
    before, _after = _card_around(game, entry)
    filled = {e.box: e.points for e in before}
    return _unforced(game).extra_yahtzee_earns_bonus(filled, game.joker_rule)


@transaction.atomic
def correct_box(
    *,
    game: Game,
    version: int,
    entry: Entry,
    dice: rules.Dice | None = None,
    points: int | None = None,
    extra_yahtzee: bool = False,
    box: str | None = None,
    card: int | None = None,
    rolls_used: int | None = None,
    confirm_zero: bool = True,
) -> Corrected:
    """Change a filled box's dice or points, or move it to a box still open on its player's
    cards (`box` by key, on `card`: a roll written in the wrong box, or on the wrong card,
    rounds ago), as long as every card stays valid: each later box keeps its points, and its
    extra-Yahtzee bonus follows the rules (a Yahtzee box's mistaken 50 corrected to 0 takes a
    later five alike's 100 away). Dice with points that they do not make are refused; the
    same dice and points again change nothing (the entry is not marked corrected). Points may
    claim an extra Yahtzee's bonus, as when they are recorded; dice say for themselves. A
    move without new dice or points takes the box's own dice along. Where rolls are saved,
    `rolls_used` corrects the rolls the turn used, as long as every later turn of its player
    still had the rolls it used. Unless `confirm_zero`, a correction that makes a box 0 (one
    that held points, or a box moved to) is asked about first, as a zero recorded is: a
    digit typed wrong wiped a box's points without a word (a tester)."""
    check_correctable(game)
    used = entry.rolls_used if rolls_used is None else _corrected_rolls(game, entry, rolls_used)
    place = _place_for_the_correction(game, entry, box, card)
    moves = place != (entry.card, entry.rules_box)
    if (moves or rolls_used is not None) and dice is None and points is None:
        if entry.dice:  # the box's own dice go along, or stay where only its rolls change
            dice = game.house_rules.family.parse_dice(entry.dice)
        elif not moves:  # points typed without dice stay as they are
            points, extra_yahtzee = entry.points, entry.yahtzee_bonus
    unforced = _unforced(game)
    # The tick comes as the box was: points no five alike score (20 in Fives) drop its claim.
    if dice is not None or points is None or not unforced.five_alike_may_score(place.box, points):
        extra_yahtzee = False
    before, after = _card_around(game, entry, place.card)
    with _said_of_the_round(game, entry, place if moves else None):
        placement = unforced.place(
            unforced.check_card(before, game.joker_rule),
            place.box,
            dice=dice,
            points=points,
            joker=game.joker_rule,
            extra_yahtzee=extra_yahtzee,
        )
    bonuses = _later_bonuses(game, unforced, before, placement, after)
    if place.card != entry.card:  # the card it leaves is checked again without it
        left_before, left_after = _card_around(game, entry)
        bonuses += _later_bonuses(game, unforced, left_before, None, left_after)
    fixed = (*place, placement.points, _dice_text(placement), bool(placement.bonus), used)
    as_it_is = (entry.card, entry.rules_box, entry.points, entry.dice, entry.yahtzee_bonus,
                entry.rolls_used)  # fmt: skip
    if fixed == as_it_is:
        return Corrected(entry, [], changed=False)  # nothing to write (nor any later bonus)
    if not (confirm_zero or placement.points or placement.bonus) and (moves or entry.points):
        taken = sum(not bonus for _row, bonus in bonuses)
        raise ZeroNeedsConfirmation(place.box, place.card, load_progress(game), taken)
    # Claimed after the reads: a change made meanwhile moved the version, so this fails.
    _claim_version(game, version, doing="correct")
    if game.finished:
        results.unsettle(load_progress(game))
    entry.corrected_from = _corrected_from(entry, bonuses)
    entry.card, entry.box = place.card, place.box.key
    entry.points, entry.dice, entry.yahtzee_bonus, entry.rolls_used = fixed[2:]
    vars(entry).pop("rules_box", None)  # a cached property: the box it names from now on
    entry.corrected = timezone.now()
    changed = ["card", "box", "points", "dice", "yahtzee_bonus", "rolls_used", "corrected"]
    entry.save(update_fields=[*changed, "corrected_from"])
    # A later box whose bonus follows is not marked corrected: its own points stand (a
    # review said "corrected" on four boxes nobody touched; found by a helper).
    for row, bonus in bonuses:
        Entry.objects.filter(pk=row.pk).update(yahtzee_bonus=bonus)
    if game.finished:
        results.settle_games([game])
    return Corrected(entry, bonuses)


def rolls_this_turn_had(*, game: Game, entry: Entry) -> int:
    """The most rolls the entry's turn could have used: the family's, and the rolls its
    player had saved by then (a correction's choice of counts)."""
    earlier = game.entries.filter(seat=entry.seat_id, turn__lt=entry.turn).order_by("turn")
    house = game.house_rules
    return house.rolls_allowed(house.saved_rolls(earlier.values_list("rolls_used", flat=True)))


def _corrected_rolls(game: Game, entry: Entry, rolls_used: int) -> int:
    """The rolls the corrected turn used, refused where rolls are not saved (nothing asks
    then), or where its player had fewer, or where a later turn would have used rolls its
    player no longer saved."""
    house = game.house_rules
    if not house.saves_rolls:
        raise Refusal(_("This game saves no rolls, so its turns' rolls are not counted."))
    turns = list(
        game.entries.filter(seat=entry.seat_id)
        .order_by("turn")
        .values_list("pk", "turn", "rolls_used")
    )
    uses = [rolls_used if pk == entry.pk else used for pk, _turn, used in turns]
    over = house.turn_over_its_rolls(uses)
    if over is None:
        return rolls_used
    turn = turns[over][1]
    players = game.seats.count()
    if turn == entry.turn:
        allowed = rolls_this_turn_had(game=game, entry=entry)
        message = _("This turn had %(allowed)s rolls at most, with the ones saved before it.")
        raise Refusal(message % {"allowed": allowed})
    message = _(
        "With %(used)s rolls here, the turn of round %(round)s would have used %(later)s "
        "rolls, more than were saved for it: correct that one first."
    )
    said_of = {"used": rolls_used, "round": round_of(turn, players), "later": uses[over]}
    raise Refusal(message % said_of)


def _place_for_the_correction(game: Game, entry: Entry, key: str | None, card: int | None) -> Place:
    """Where the corrected entry is to stand: its own place, or a box still open on one of
    its player's cards."""
    family = game.house_rules.family
    with by_the_rules():
        wanted = Place(card or entry.card, family.box(key or entry.box))
    if wanted == (entry.card, entry.rules_box) or wanted in places_to_move_to(
        game=game, entry=entry
    ):
        return wanted
    if game.house_rules.forced:
        raise Refusal(_("In forced order each round has its own box: a box cannot move."))
    if not 1 <= wanted.card <= game.cards_per_player:
        raise Refusal(_("There is no card %(card)s in this game.") % {"card": wanted.card})
    message = _("%(box)s is already filled on this card: choose an open box.")
    raise Refusal(message % {"box": box_name(wanted.box)})


@contextmanager
def _said_of_the_round(game: Game, entry: Entry, moving_to: Place | None) -> Iterator[None]:
    """The rules' refusal of the corrected entry; of a move, said as of the card in the
    entry's round (a box filled since was open then)."""
    try:
        yield
    except rules.RuleViolation as violation:
        if moving_to is None:
            raise Refusal(said(violation)) from None
        message = _("It cannot move to %(box)s, by the card as it was in round %(round)s: "
                    "%(reason)s")  # fmt: skip
        said_of = {"box": box_name(moving_to.box), "reason": said(violation),
                   "round": round_of(entry.turn, game.seats.count())}  # fmt: skip
        raise Refusal(message % said_of) from None


def _later_bonuses(
    game: Game,
    unforced: rules.HouseRules[Any],
    before: list[rules.Entry[Any]],
    placement: rules.Entry[Any] | None,
    after: list[EntryRow],
) -> list[tuple[EntryRow, bool]]:
    """A card played again with the corrected entry in its place (or without it, the card it
    left): the later boxes whose extra-Yahtzee bonus it gives (True) or takes (False)."""
    placed = [placement] if placement is not None else []
    later = [row.as_rules_entry() for row in after]
    try:
        replayed = unforced.replay_card([*before, *placed, *later], game.joker_rule)
    except rules.RuleViolation as error:
        message = _("That change would break a later box. %(error)s") % {"error": said(error)}
        raise Refusal(message) from None
    return [
        (row, bool(again.bonus))
        for row, again in zip(after, replayed[len(before) + len(placed) :], strict=True)
        if bool(again.bonus) != row.yahtzee_bonus
    ]


def _dice_text(placement: rules.Entry[Any]) -> str:
    return "".join(map(str, placement.dice)) if placement.dice else ""


def rematch_made(game: Game) -> Game | None:
    """The rematch the table already started from this finished game, if any."""
    return Game.objects.filter(rematch_of=game).first()


def game_rematch(*, game: Game) -> Game:
    """A new game with the same players in the same order, rule and mode: the finished
    game's one rematch. Its share links' kinds (watch, score) are made for the new game too,
    so the phones that followed the table can follow on, and the finished game's version
    moves so their pages show the way. Two taps racing make one: the second gets the first's.
    A game still going has no rematch (its page offers none; a post made one, and moved the
    game's version under the phones still playing it)."""
    if game.finished is None:
        raise Refusal(_("This game is still being played: a rematch comes once it is over."))
    names = [seat.player.name for seat in game.seats.select_related("player")]
    try:
        with transaction.atomic():
            made = game_create(
                owner=game.owner,
                names=names,
                joker=game.joker_rule,
                mode=game.mode,
                digital=game.digital,
                house=house_settings(game),
            )
            made.rematch_of = game
            made.save(update_fields=["rematch_of"])  # a second rematch fails here, undone
            roles = game.links.values_list("role", flat=True)
            GameLink.objects.bulk_create(GameLink(game=made, role=role) for role in roles)
            Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    except IntegrityError:
        return Game.objects.get(rematch_of=game)
    return made


def game_discard(*, game: Game) -> list[str]:
    """Remove a game no box of which is filled (a rematch started before the table chose
    other players, a game started by mistake), and the players it alone had seated: nothing
    played is lost. A game with a box filled is the table's, and stays. The names of the
    players it had, for the page to say which game went."""
    with transaction.atomic():
        seats = list(game.seats.select_related("player"))
        # The game's row is taken first, so no phone's box lands between the check and the end.
        if not Game.objects.filter(pk=game.pk).update(version=F("version") + 1):
            raise Refusal(_("This game is no longer here."))
        if game.entries.exists():
            raise Refusal(
                _("A box of this game is filled, so it stays: the table’s turns are kept.")
            )
        game.delete()
        if game.rematch_of_id:  # its phones showed the way to this game: no longer
            Game.objects.filter(pk=game.rematch_of_id).update(version=F("version") + 1)
        players = [seat.player_id for seat in seats]
        Player.objects.filter(pk__in=players, seats__isnull=True).delete()
    return [seat.player.name for seat in seats]


IMPORT_CHUNK = 50  # games a transaction, so an import never holds the write lock for long


# A game's rules as `exchange` checks them from a file.
RULES_FIELDS = ("family", "switches", "forced_order", "bonus_threshold", "bonus_points")


class Imported(NamedTuple):
    """What an import did: games written, games of the file already here (left as they
    are: the copy here may have moved on since the file was made), and the extra-Yahtzee
    bonuses the written games' typed points earned where the file had left them out."""

    written: int
    already_here: int
    bonuses_given: int = 0


def games_import(*, games: Sequence[dict[str, Any]], owner: Household | None = None) -> Imported:
    """Write games that `exchange.read_games` checked, skipping those already here.

    With an owner (an upload) the games join that household; a game it holds already is
    skipped, and a game whose id another household holds gets a new id, which reveals
    nothing of that household, and keeps the file's id as `imported_from`: the same file
    uploaded again finds that copy and skips it too. Without one (a backup) each game keeps
    the household and id it names, and a game whose id is taken is skipped.
    """
    ids = [game["id"] for game in games]
    taken = set(Game.objects.filter(public_id__in=ids).values_list("public_id", flat=True))
    if owner is None:  # a backup: a game whose id is taken is here already
        new = [data for data in games if data["id"] not in taken]
    else:
        held = _held_by(owner, games)
        new = [data for data in games if not _origins(data) & held]
    households: dict[str, Household] = {}
    players: dict[tuple[int, str], Player] = {}  # each name looked up once per household
    for chunk in itertools.batched(new, IMPORT_CHUNK):
        with transaction.atomic():
            written = []
            for data in chunk:
                home = owner or households.get(data["household"])
                if home is None:
                    home, _ = Household.objects.get_or_create(public_id=data["household"])
                    households[data["household"]] = home
                seated = [_player_for(home, player, players) for player in data["players"]]
                written.append(_game_restore(data, home, seated, keep_id=data["id"] not in taken))
            results.settle_games(written)  # the finished ones, with the chunk that wrote them
    given = sum(entry.get("bonus_given", False) for data in new for entry in data["entries"])
    return Imported(written=len(new), already_here=len(games) - len(new), bonuses_given=given)


def _origins(data: dict[str, Any]) -> set[str]:
    """The ids a game of a file is known by: its own, and the one it was copied from."""
    return {data["id"], data["imported_from"]} - {""}


def _held_by(owner: Household, games: Sequence[dict[str, Any]]) -> set[str]:
    """Which of the files' games' ids the household holds, as a game's own id or as the id
    a copy of its was imported from."""
    ids = set().union(*map(_origins, games))
    found = owner.games.filter(Q(public_id__in=ids) | Q(imported_from__in=ids))
    return {name for pair in found.values_list("public_id", "imported_from") for name in pair} & ids


def _player_for(
    owner: Household, data: dict[str, Any], known: dict[tuple[int, str], Player]
) -> Player:
    key = (owner.pk, name_key(data["name"]))
    if key not in known:
        known[key] = player_get_or_create(owner=owner, name=data["name"], public_id=data["id"])
    return known[key]


def _game_restore(
    data: dict[str, Any], owner: Household, players: list[Player], keep_id: bool
) -> Game:
    game = Game.objects.create(
        owner=owner,
        **({"public_id": data["id"]} if keep_id else {}),
        **{key: data[key] for key in ("mode", "joker", "digital", "version", "created")},
        **{key: data[key] for key in RULES_FIELDS},
        finished=data["finished"],
        imported_from=data["imported_from"] if keep_id else data["id"],
    )
    seats = Seat.objects.bulk_create(
        Seat(game=game, position=index, player=player) for index, player in enumerate(players)
    )
    Entry.objects.bulk_create(
        Entry(game=game, seat=seats[entry["seat"]], created=entry["created"],
              corrected=entry["corrected"], **{key: entry[key] for key in ENTRY_FIELDS})
        for entry in data["entries"]
    )  # fmt: skip
    UndoneEntry.objects.bulk_create(
        UndoneEntry(game=game, seat=seats[taken_back["seat"]], recorded=taken_back["recorded"],
                    undone=taken_back["undone"],
                    **{key: taken_back[key] for key in ENTRY_FIELDS})
        for taken_back in data["undone"]
    )  # fmt: skip
    Roll.objects.bulk_create(
        Roll(game=game, **{key: roll[key] for key in ("turn", "number", "dice", "held", "created")})
        for roll in data["rolls"]
    )
    return game


def games_prune(
    *, started_before: datetime, dry_run: bool = False
) -> tuple[list[Game], list[Household]]:
    """Games with no entry started before a time, and the households that would be left
    with no game: removed (with their players), or only listed on a dry run."""
    games = list(Game.objects.filter(created__lt=started_before, entries__isnull=True))
    touched = {game.owner_id for game in games}
    pruned = {game.pk for game in games}
    households = [
        household
        for household in Household.objects.filter(pk__in=touched)
        if not household.games.exclude(pk__in=pruned).exists()
    ]
    if not dry_run:
        results.unsettle_games(games)  # only an older import finishes a game with no box
        Game.objects.filter(pk__in=pruned).delete()
        Household.objects.filter(pk__in=[household.pk for household in households]).delete()
    return games, households
