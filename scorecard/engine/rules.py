"""The rules of Yahtzee, and nothing else.

Five dice, thirteen boxes, each filled once. The upper boxes (Ones to Sixes) score the sum of
their face; 63 or more there earns a 35-point bonus. The lower boxes: three and four of a kind
score the sum of all dice, a full house 25, a small straight (four in a row) 30, a large
straight 40, a Yahtzee (five alike) 50, and Chance the sum of all dice.

A Yahtzee rolled when the Yahtzee box is already filled is an *extra Yahtzee*. What it may
score, and whether it earns the 100-point bonus, depends on the joker rule the table plays
(`JokerRule`). Every other part of the product asks this module; nothing re-implements a rule.

A turn is at most three rolls (`ROLLS_PER_TURN`). Triple Yahtzee plays three cards side by
side and counts them once, twice and three times (`card_multiplier`, `combined_totals`).

Dice are any five ints from 1 to 6, in any order. Bad input raises `RuleViolation` (a
`ValueError`) with a message meant for a person.
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass
from functools import cache
from typing import NamedTuple

UPPER_BONUS_THRESHOLD = 63
UPPER_BONUS = 35
ROLLS_PER_TURN = 3
EXTRA_YAHTZEE_BONUS = 100
YAHTZEE_POINTS = 50
FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
DICE_COUNT = 5
FACES = range(1, 7)
TRIPLE_CARDS = 3


class RuleViolation(ValueError):
    """Input the rules refuse; the message is written for the player."""


class Box(enum.Enum):
    """The thirteen boxes of a card, in card order."""

    ONES = ("ones", "Ones", 1)
    TWOS = ("twos", "Twos", 2)
    THREES = ("threes", "Threes", 3)
    FOURS = ("fours", "Fours", 4)
    FIVES = ("fives", "Fives", 5)
    SIXES = ("sixes", "Sixes", 6)
    THREE_OF_A_KIND = ("three_of_a_kind", "3 of a kind", None)
    FOUR_OF_A_KIND = ("four_of_a_kind", "4 of a kind", None)
    FULL_HOUSE = ("full_house", "Full house", None)
    SMALL_STRAIGHT = ("small_straight", "Small straight", None)
    LARGE_STRAIGHT = ("large_straight", "Large straight", None)
    YAHTZEE = ("yahtzee", "Yahtzee", None)
    CHANCE = ("chance", "Chance", None)

    def __init__(self, key: str, label: str, face: int | None) -> None:
        self.key = key
        self.label = label
        self.face = face

    # Members are singletons: hashing by identity is correct and much faster than Enum's.
    __hash__ = object.__hash__

    @property
    def is_upper(self) -> bool:
        return self.face is not None

    @property
    def is_lower(self) -> bool:
        return self.face is None

    @property
    def upper_face(self) -> int:
        """The face an upper box counts; a lower box counts none."""
        if self.face is None:
            raise RuleViolation(f"{self.label} is not an upper box.")
        return self.face

    @property
    def max_points(self) -> int:
        return max(achievable_points(self))

    @classmethod
    def from_key(cls, key: str) -> Box:
        return _from_key(cls, key, "box")

    @classmethod
    def for_face(cls, face: int) -> Box:
        return UPPER_BOXES[face - 1]


BOXES_PER_CARD = len(Box)
UPPER_BOXES = tuple(box for box in Box if box.is_upper)
LOWER_BOXES = tuple(box for box in Box if box.is_lower)


class JokerRule(enum.Enum):
    """What an extra Yahtzee may score, and whether it earns the 100-point bonus."""

    HASBRO = (
        "hasbro",
        "Hasbro",
        "Matching upper box first, then 3 or 4 of a kind, then any lower box at full value; "
        "+100 only with 50 in the Yahtzee box.",
    )
    ANY_LOWER = (
        "any_lower",
        "Any lower box",
        "Matching upper box first, then any lower box at full value; "
        "a 0 in the Yahtzee box means no bonus and no joker.",
    )
    FREE = (
        "free",
        "Free choice",
        "Any open box; full house and straights count in full once the matching upper box "
        "is filled; +100 only with 50 in the Yahtzee box.",
    )
    NONE = (
        "none",
        "No extra Yahtzees",
        "No bonus and no joker: five of a kind scores like any other roll.",
    )

    def __init__(self, key: str, label: str, summary: str) -> None:
        self.key = key
        self.label = label
        self.summary = summary

    @classmethod
    def from_key(cls, key: str) -> JokerRule:
        return _from_key(cls, key, "joker rule")


@cache
def _by_key[Member: (Box, JokerRule)](members: type[Member]) -> dict[str, Member]:
    return {member.key: member for member in members}


def _from_key[Member: (Box, JokerRule)](members: type[Member], key: str, kind: str) -> Member:
    """The member whose key a form or a file names, or a readable refusal."""
    found: Member | None = _by_key(members).get(key) if isinstance(key, str) else None
    if found is None:
        raise RuleViolation(f"There is no {kind} called {key!r}.")
    return found


Dice = tuple[int, ...]
Card = Mapping[Box, int]
ALL_ROLLS: tuple[Dice, ...] = tuple(itertools.combinations_with_replacement(FACES, DICE_COUNT))
_SORTED_ROLLS = frozenset(ALL_ROLLS)


def parse_dice(dice: Iterable[int] | str) -> Dice:
    """Five dice as a sorted tuple; accepts ints or a string of digits such as "44425"."""
    if type(dice) is tuple and dice in _SORTED_ROLLS:  # already parsed: the common case
        return dice
    if isinstance(dice, str):
        text = "".join(dice.split()).replace(",", "")
        if not text.isdecimal():
            raise RuleViolation("Enter the dice as five digits from 1 to 6, such as 44425.")
        dice = [int(char) for char in text]
    values = list(dice)
    if len(values) != DICE_COUNT:
        raise RuleViolation(f"A roll is five dice; got {len(values)}.")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in FACES:
            raise RuleViolation(f"A die shows 1 to 6; got {value!r}.")
    return tuple(sorted(values))


def is_yahtzee(dice: Iterable[int]) -> bool:
    return len(set(parse_dice(dice))) == 1


def _longest_run(dice: Dice) -> int:
    faces = sorted(set(dice))
    longest = run = 1
    for previous, current in itertools.pairwise(faces):
        run = run + 1 if current == previous + 1 else 1
        longest = max(longest, run)
    return longest


def score(box: Box, dice: Iterable[int]) -> int:
    """The ordinary value of five dice in a box, without any joker."""
    return _scores(parse_dice(dice))[box]


@cache
def _scores(dice: Dice) -> dict[Box, int]:
    """Every box's ordinary value for one sorted roll; there are only 252 of them."""
    counts = sorted(Counter(dice).values())
    run = _longest_run(dice)
    values = {box: box.upper_face * dice.count(box.upper_face) for box in UPPER_BOXES}
    values[Box.THREE_OF_A_KIND] = sum(dice) if counts[-1] >= 3 else 0
    values[Box.FOUR_OF_A_KIND] = sum(dice) if counts[-1] >= 4 else 0
    values[Box.FULL_HOUSE] = FULL_HOUSE_POINTS if counts == [2, 3] else 0
    values[Box.SMALL_STRAIGHT] = SMALL_STRAIGHT_POINTS if run >= 4 else 0
    values[Box.LARGE_STRAIGHT] = LARGE_STRAIGHT_POINTS if run == 5 else 0
    values[Box.YAHTZEE] = YAHTZEE_POINTS if counts == [5] else 0
    values[Box.CHANCE] = sum(dice)
    return values


JOKER_FULL_VALUES = {
    Box.FULL_HOUSE: FULL_HOUSE_POINTS,
    Box.SMALL_STRAIGHT: SMALL_STRAIGHT_POINTS,
    Box.LARGE_STRAIGHT: LARGE_STRAIGHT_POINTS,
}


def _check_card(filled: Card) -> None:
    for box, points in filled.items():
        if not isinstance(box, Box):
            raise RuleViolation(f"{box!r} is not a box of the card.")
        if points not in achievable_points(box):
            raise RuleViolation(f"{box.label} cannot hold {points} points.")


def _open_boxes(filled: Card) -> list[Box]:
    _check_card(filled)
    open_boxes = [box for box in Box if box not in filled]
    if not open_boxes:
        raise RuleViolation("This card is full: every box is filled.")
    return open_boxes


def joker_applies(filled: Card, dice: Iterable[int], joker: JokerRule) -> bool:
    """Whether these dice are an extra Yahtzee that the joker rule changes."""
    if joker is JokerRule.NONE or not is_yahtzee(dice) or Box.YAHTZEE not in filled:
        return False
    return not (joker is JokerRule.ANY_LOWER and filled[Box.YAHTZEE] == 0)


class Option(NamedTuple):
    """One open box for a roll: whether the rule allows it, its points, and why not."""

    box: Box
    points: int
    allowed: bool
    reason: str = ""


def _joker_options(open_boxes: list[Box], dice: Dice, joker: JokerRule) -> list[Option]:
    matching = Box.for_face(dice[0])
    ordinary = _scores(dice)
    full = ordinary | JOKER_FULL_VALUES
    if joker is JokerRule.FREE:
        values = ordinary if matching in open_boxes else full
        return [Option(box, values[box], True) for box in open_boxes]
    if matching in open_boxes:
        allowed = [matching]
        why = f"{matching.label} is open, so this Yahtzee must go there."
    else:
        steps = [[box for box in LOWER_BOXES if box in open_boxes]]
        if joker is JokerRule.HASBRO:
            kinds = [Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND]
            steps.insert(0, [box for box in kinds if box in open_boxes])
        steps.append([box for box in UPPER_BOXES if box in open_boxes])
        allowed = next(step for step in steps if step)
        why = _joker_order_reason(allowed)
    return [
        Option(box, full[box], box in allowed, "" if box in allowed else why) for box in open_boxes
    ]


def _joker_order_reason(allowed: list[Box]) -> str:
    """Why the other open boxes are closed to this extra Yahtzee: it must go in these while
    one of them is open (the closed ones are for later turns, never a later choice now)."""
    names = [box.label for box in allowed]
    listing = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    while_open = "it is" if len(names) == 1 else "one of them is"
    return f"An extra Yahtzee must go in {listing} while {while_open} open."


def card_options(
    filled: Card, dice: Iterable[int], joker: JokerRule = JokerRule.HASBRO
) -> list[Option]:
    """Every open box in card order, each with its points and whether it may be taken."""
    dice = parse_dice(dice)
    open_boxes = _open_boxes(filled)
    if joker_applies(filled, dice, joker):
        return _joker_options(open_boxes, dice, joker)
    values = _scores(dice)
    return [Option(box, values[box], True) for box in open_boxes]


def options(
    filled: Card, dice: Iterable[int], joker: JokerRule = JokerRule.HASBRO
) -> dict[Box, int]:
    """Every box these dice may legally fill this turn, with its points (no 100 bonus)."""
    return {
        option.box: option.points for option in card_options(filled, dice, joker) if option.allowed
    }


def earns_bonus(filled: Card, joker: JokerRule = JokerRule.HASBRO) -> bool:
    """Whether an extra Yahtzee on this card earns 100: the rule has one, and the box holds 50."""
    return joker is not JokerRule.NONE and filled.get(Box.YAHTZEE) == YAHTZEE_POINTS


def yahtzee_bonus(filled: Card, dice: Iterable[int], joker: JokerRule = JokerRule.HASBRO) -> int:
    """100 when these dice are an extra Yahtzee and the Yahtzee box holds 50, else 0."""
    return EXTRA_YAHTZEE_BONUS if is_yahtzee(dice) and earns_bonus(filled, joker) else 0


@cache
def achievable_points(box: Box) -> frozenset[int]:
    """Every value a box can hold on a card, under any joker rule."""
    return frozenset(score(box, roll) for roll in ALL_ROLLS)


def check_points(box: Box, points: int) -> int:
    """A number typed in for a box without dice: returned when the box can hold it."""
    if isinstance(points, bool) or not isinstance(points, int):
        raise RuleViolation(f"Points are a whole number; got {points!r}.")
    if points not in achievable_points(box):
        values = sorted(achievable_points(box))
        raise RuleViolation(
            f"{box.label} cannot score {points}; it scores {describe_values(values)}."
        )
    return points


def describe_values(values: Sequence[int]) -> str:
    """A short human list of values: "0, 3, 6, ... 15" or "0 or 5 to 30"."""
    if len(values) <= 2:
        return " or ".join(str(value) for value in values)
    step = values[-1] - values[-2]
    if any(b - a != step for a, b in itertools.pairwise(values)):
        return f"{values[0]} or {describe_values(values[1:])}"
    if step == 1:
        return f"{values[0]} to {values[-1]}"
    return f"{', '.join(str(v) for v in values[:3])}, ... {values[-1]}"


@dataclass(frozen=True)
class Placement:
    """A legal entry on a card: the box, its points, and the bonus the roll earned."""

    box: Box
    points: int
    bonus: int = 0
    dice: Dice | None = None


def place(
    filled: Card,
    box: Box,
    *,
    dice: Iterable[int] | None = None,
    points: int | None = None,
    joker: JokerRule = JokerRule.HASBRO,
    extra_yahtzee: bool = False,
) -> Placement:
    """Check one entry against a card: with dice, or with a number typed in for the box.

    Without dice the player may still declare an extra Yahtzee, which earns the bonus only
    where the rule and the Yahtzee box allow it.
    """
    _check_card(filled)
    if box in filled:
        raise RuleViolation(f"{box.label} is already filled.")
    if dice is not None:
        dice = parse_dice(dice)
        option = next(o for o in card_options(filled, dice, joker) if o.box is box)
        if not option.allowed:
            raise RuleViolation(option.reason)
        return Placement(box, option.points, yahtzee_bonus(filled, dice, joker), dice)
    if points is None:
        raise RuleViolation(f"Enter the dice or the points for {box.label}.")
    check_points(box, points)
    if not extra_yahtzee:
        return Placement(box, points)
    if not earns_bonus(filled, joker):
        raise RuleViolation("An extra Yahtzee earns 100 only with 50 in the Yahtzee box.")
    return Placement(box, points, _typed_extra_yahtzee(filled, box, points, joker))


def _typed_extra_yahtzee(filled: Card, box: Box, points: int, joker: JokerRule) -> int:
    """The bonus of an extra Yahtzee typed as points: some five alike must be allowed in
    this box, for exactly these points, under the joker rule, as if its dice were entered."""
    reasons = []
    for face in FACES:
        option = next(o for o in card_options(filled, (face,) * DICE_COUNT, joker) if o.box is box)
        if option.allowed and option.points == points:
            return yahtzee_bonus(filled, (face,) * DICE_COUNT, joker)
        if not option.allowed and option.reason not in reasons:
            reasons.append(option.reason)
    if len(reasons) == 1:
        raise RuleViolation(f"No extra Yahtzee scores {points} in {box.label}: {reasons[0]}")
    raise RuleViolation(f"No five alike may score {points} in {box.label} under this rule.")


@dataclass(frozen=True)
class Entry:
    """One filled box as a card records it, in the order the boxes were filled."""

    box: Box
    points: int
    dice: Dice | None = None
    bonus: int = 0


def check_card(entries: Sequence[Entry], joker: JokerRule = JokerRule.HASBRO) -> dict[Box, int]:
    """Replay a card's entries in order; the filled card, or `RuleViolation` naming the box
    at fault (by its box: a card's own turn count would differ from the game's)."""
    filled: dict[Box, int] = {}
    for entry in entries:
        try:
            placement = place(
                filled,
                entry.box,
                dice=entry.dice,
                points=None if entry.dice else entry.points,
                joker=joker,
                extra_yahtzee=bool(entry.bonus) and not entry.dice,
            )
        except RuleViolation as error:
            raise RuleViolation(f"{entry.box.label}: {error}") from None
        if (placement.points, placement.bonus) != (entry.points, entry.bonus):
            raise RuleViolation(f"{entry.box.label}: {_mismatch(placement, entry)}")
        filled[entry.box] = entry.points
    return filled


def _mismatch(placement: Placement, entry: Entry) -> str:
    def worth(points: int, bonus: int) -> str:
        return f"{points} and the {bonus} extra-Yahtzee bonus" if bonus else f"{points}"

    said = worth(placement.points, placement.bonus)
    written = worth(entry.points, entry.bonus)
    if placement.points == entry.points and not placement.bonus:
        said += ", with no extra-Yahtzee bonus"
    return f"those dice are worth {said}, but the card says {written}."


@dataclass(frozen=True)
class Totals:
    upper: int
    bonus: int
    lower: int
    yahtzee_bonus: int
    total: int
    pace: int

    @property
    def upper_total(self) -> int:
        return self.upper + self.bonus

    @property
    def lower_total(self) -> int:
        return self.lower + self.yahtzee_bonus

    def times(self, factor: int) -> Totals:
        """The same card counted `factor` times, as Triple Yahtzee scores its cards."""
        return Totals(*(factor * value for value in astuple(self)))

    def __add__(self, other: Totals) -> Totals:
        return Totals(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


def totals(filled: Card, extra_yahtzees: int = 0) -> Totals:
    """Upper, bonus, lower, extra-Yahtzee bonus, total and bonus pace of one card.

    Pace is the upper section measured against three of each face: four 5s is +5, two 6s -6.
    """
    _check_card(filled)
    upper = sum(points for box, points in filled.items() if box.is_upper)
    lower = sum(points for box, points in filled.items() if box.is_lower)
    pace = sum(points - pace_par(box) for box, points in filled.items() if box.is_upper)
    return totals_from_sums(upper, lower, extra_yahtzees, pace)


NO_TOTALS = Totals(0, 0, 0, 0, 0, 0)
PACE_DICE = 3  # three of each face in the upper boxes make exactly the 63 of the bonus


def pace_par(box: Box) -> int:
    """What an upper box holds on the way to the bonus: three of its face."""
    return PACE_DICE * box.upper_face


def upper_bonus_settled(filled: Card) -> bool:
    """Whether the upper bonus is decided: 63 is reached, or every upper box is filled."""
    upper = sum(points for box, points in filled.items() if box.is_upper)
    return upper >= UPPER_BONUS_THRESHOLD or all(box in filled for box in UPPER_BOXES)


def cards_per_player(triple: bool) -> int:
    """Triple Yahtzee gives each player three cards side by side; other games one."""
    return TRIPLE_CARDS if triple else 1


def card_multiplier(card: int) -> int:
    """How many times a card counts: card 1, 2, 3 of Triple Yahtzee count ×1, ×2, ×3."""
    if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= TRIPLE_CARDS:
        raise RuleViolation(f"There is no card {card!r}.")
    return card


def combined_totals(cards: Mapping[int, Totals]) -> Totals:
    """A player's totals over their cards (card number to its totals), each counted by its
    multiplier; a one-card game counts its only card once."""
    combined = NO_TOTALS
    for card, card_totals in cards.items():
        combined += card_totals.times(card_multiplier(card))
    return combined


def turns_per_player(cards: int) -> int:
    """One box a turn until every card is full."""
    return BOXES_PER_CARD * cards


def totals_from_sums(upper: int, lower: int, extra_yahtzees: int = 0, pace: int = 0) -> Totals:
    """A card's totals from its upper and lower sums, as a database can add them up."""
    most = BOXES_PER_CARD - 1  # every turn but the one that filled the Yahtzee box
    if isinstance(extra_yahtzees, bool) or not 0 <= extra_yahtzees <= most:
        raise RuleViolation(f"A card holds 0 to {most} extra Yahtzees; got {extra_yahtzees!r}.")
    bonus = UPPER_BONUS if upper >= UPPER_BONUS_THRESHOLD else 0
    extra = EXTRA_YAHTZEE_BONUS * extra_yahtzees
    return Totals(upper, bonus, lower, extra, upper + bonus + lower + extra, pace)


def maximum_score() -> int:
    """The highest possible total: five alike in every upper box, the best lower boxes, and
    an extra Yahtzee on each of the other twelve turns."""
    best = {box: max(achievable_points(box)) for box in Box}
    return totals(best, extra_yahtzees=BOXES_PER_CARD - 1).total
