"""The rule families a card can be played by, as data: Yahtzee, Yatzy and Maxi Yatzy.

A family is its dice (five or six), its boxes in card order (each with a stable key that the
database stores, a label, the face an upper box counts, and how it scores), its upper bonus
(threshold and amount; a house may change them), its rolls per turn, and its extras: the
joker rules of Yahtzee, the house switches of Yatzy, Maxi Yatzy's saved rolls. Nothing
outside the engine needs to know how many boxes or dice a card has: it asks the family.

**Yahtzee** (Hasbro): five dice, thirteen boxes. Three and four of a kind score the sum of all
dice, a full house 25, a small straight (four in a row) 30, a large straight 40, a Yahtzee 50.

**Yatzy** (Scandinavian): five dice, fifteen boxes. A combination counts only its own dice:
one pair is twice the highest face shown twice, two pairs need two *different* faces, three
and four of a kind count those dice. Small straight is exactly 1-2-3-4-5 (15), large
2-3-4-5-6 (20), a full house (three and two of another face) the sum of the dice, Yatzy 50.
House switches: five alike may count as a full house, four alike as two pairs.

**Maxi Yatzy**: six dice, twenty boxes; each box takes the best combination the six allow.
Three pairs are three different pairs, a villa two different threes, a tower four and two of
another face (each the sum of all six dice); a full straight is 1 to 6 (21); Maxi Yatzy is
six alike (100).

Labels here are plain English data; the web may translate them per family and key.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

FACES = range(1, 7)


class RuleViolation(ValueError):
    """Input the rules refuse; the message is written for the player (a `Said` where the web
    may say it in another language)."""


class Said(str):
    """A message for the player: English text that keeps its template (with `%(name)s`
    placeholders) and the values filling it (boxes, numbers, other messages), so the web can
    say it again in the page's language; the engine itself translates nothing."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Said:
        english = template % {name: _english(value) for name, value in values.items()}
        said = super().__new__(cls, english)
        said.template, said.values = template, values
        return said


def _english(value: object) -> object:
    """A value as the English message shows it: a box by its label, boxes as a list."""
    if isinstance(value, tuple) and value and all(is_box(item) for item in value):
        labels = [item.label for item in value]
        return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} or {labels[-1]}"
    if isinstance(value, list):  # a listing: "0, 7 to 9, 11"
        return ", ".join(map(str, value))
    if isinstance(value, Family):
        return value.name
    return value.label if isinstance(value, _Sided | Switch) else value


# A name a file gave, said back in a refusal: long enough to find it in the file, never a
# whole field (an import's message once repeated 100,000 letters).
QUOTED_AT_MOST = 40


def quoted(key: object) -> Said:
    """`key` as a refusal quotes it, in the quotation marks of the page's language (a name
    in the file was shown as Python writes it, 'poker', beside the typographic marks of the
    rest of the message: a tester), cut to `QUOTED_AT_MOST` characters."""
    shown = key if isinstance(key, str) else repr(key)
    if len(shown) > QUOTED_AT_MOST:
        shown = f"{shown[: QUOTED_AT_MOST - 1]}…"
    return Said("‘%(field)s’", field=shown)


def is_box(value: object) -> bool:
    """Whether `value` is a box of some family's card (a Yahtzee `Box` or a `FamilyBox`)."""
    return isinstance(value, _Sided)


class _Sided:
    """Where a box stands on the card: an upper box counts one face, a lower box none. Shared
    by Yahtzee's `Box` members and the other families' `FamilyBox`."""

    label: str
    face: int | None

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


class Box(_Sided, enum.Enum):
    """The thirteen boxes of a Yahtzee card, in card order."""

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
    def max_points(self) -> int:
        return max(YAHTZEE.achievable_points(self))

    @classmethod
    def from_key(cls, key: str) -> Box:
        return YAHTZEE.box(key)

    @classmethod
    def for_face(cls, face: int) -> Box:
        return YAHTZEE.upper_boxes[face - 1]


@dataclass(frozen=True, eq=False)
class FamilyBox(_Sided):
    """A box of a Yatzy or Maxi Yatzy card (Yahtzee's are `Box`): the same attributes."""

    key: str
    label: str
    face: int | None = None


type CardBox = Box | FamilyBox
Dice = tuple[int, ...]


class Switch(enum.Enum):
    """A house switch a family allows, off unless the table turns it on."""

    FIVE_ALIKE_FULL_HOUSE = ("five_alike_full_house", "Five alike counts as a full house")
    FOUR_ALIKE_TWO_PAIRS = ("four_alike_two_pairs", "Four alike counts as two pairs")
    SAVED_ROLLS = ("saved_rolls", "Rolls not used are saved for later turns")

    def __init__(self, key: str, label: str) -> None:
        self.key = key
        self.label = label

    @classmethod
    def from_key(cls, key: str) -> Switch:
        found = member_by_key(cls, key)
        if found is None:  # a file may name anything: said to the person importing it
            raise RuleViolation(Said("There is no house rule called %(key)s.", key=quoted(key)))
        return found


def member_by_key[M: enum.Enum](members: type[M], key: str) -> M | None:
    """The member of a keyed enum (`Switch`, `JokerRule`) stored as `key`, if there is one."""
    return _by_key(members).get(key)


@cache
def _by_key[M: enum.Enum](members: type[M]) -> dict[str, M]:
    """A keyed enum's members by key, made once: a game's rule is looked up many times a turn."""
    return {member.key: member for member in members if hasattr(member, "key")}


@dataclass(frozen=True)
class UpperBonus:
    """The points the upper boxes earn once they add up to the threshold."""

    threshold: int
    points: int


# --- How a box scores --------------------------------------------------------------------------


class Hand(NamedTuple):
    """One sorted roll and how many dice show each face (`counts[face]`, index 0 unused)."""

    dice: Dice
    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.dice)

    def faces_shown(self, at_least: int) -> list[int]:
        """The faces shown at least this often, highest first."""
        return [face for face in reversed(FACES) if self.counts[face] >= at_least]


type Scorer = Callable[[Hand, frozenset[Switch]], int]


def _face_sum(face: int) -> Scorer:
    return lambda hand, switches: face * hand.counts[face]


def _all_dice(hand: Hand, switches: frozenset[Switch]) -> int:
    return hand.total


def _all_alike(points: int) -> Scorer:
    return lambda hand, switches: points if len(set(hand.dice)) == 1 else 0


def _straight(faces: Iterable[int], points: int) -> Scorer:
    needed = tuple(faces)
    return lambda hand, switches: points if all(hand.counts[f] for f in needed) else 0


def _any_straight(runs: Iterable[Iterable[int]], points: int) -> Scorer:
    """Yahtzee's straights: any of these runs of faces is enough."""
    needed = [tuple(run) for run in runs]
    return lambda hand, switches: (
        points if any(all(hand.counts[f] for f in run) for run in needed) else 0
    )


def _sum_with_kind(size: int) -> Scorer:
    """Yahtzee's kinds: the sum of all the dice when some face shows `size` times."""
    return lambda hand, switches: hand.total if hand.faces_shown(size) else 0


def _kind(size: int) -> Scorer:
    """Yatzy's kinds: `size` dice of the highest face shown that often, only those."""
    return lambda hand, switches: size * max(hand.faces_shown(size), default=0)


def _pairs(how_many: int) -> Scorer:
    """`how_many` pairs of different faces, the highest ones, only those dice counted."""

    def scored(hand: Hand, switches: frozenset[Switch]) -> int:
        faces = hand.faces_shown(2)
        return 2 * sum(faces[:how_many]) if len(faces) >= how_many else 0

    return scored


def _yatzy_two_pairs(hand: Hand, switches: frozenset[Switch]) -> int:
    pairs = _pairs(2)(hand, switches)
    if Switch.FOUR_ALIKE_TWO_PAIRS in switches:
        return max(pairs, 4 * max(hand.faces_shown(4), default=0))
    return pairs


def _yahtzee_full_house(hand: Hand, switches: frozenset[Switch]) -> int:
    return 25 if sorted(count for count in hand.counts if count) == [2, 3] else 0


def _yatzy_full_house(hand: Hand, switches: frozenset[Switch]) -> int:
    shape = sorted(count for count in hand.counts if count)
    five_alike = shape == [5] and Switch.FIVE_ALIKE_FULL_HOUSE in switches
    return hand.total if shape == [2, 3] or five_alike else 0


def _groups(big: int, small: int, *, all_dice: bool) -> Scorer:
    """A group of `big` alike and one of `small` alike of another face: the best such pair of
    groups, counting those dice only, or (`all_dice`) the sum of all the dice."""

    def scored(hand: Hand, switches: frozenset[Switch]) -> int:
        best = 0
        for face, other in itertools.permutations(FACES, 2):
            if hand.counts[face] >= big and hand.counts[other] >= small:
                best = max(best, hand.total if all_dice else big * face + small * other)
        return best

    return scored


# --- Families -----------------------------------------------------------------------------------


def _upper_boxes() -> tuple[FamilyBox, ...]:
    names = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")
    return tuple(
        FamilyBox(name.lower(), name, face) for face, name in zip(FACES, names, strict=True)
    )


@dataclass(frozen=True, eq=False)
class Family[B: (Box, FamilyBox)]:
    """One rule family: its dice, its boxes in card order and how each scores, its upper
    bonus, its turn and its extras."""

    key: str
    name: str
    dice_count: int
    boxes: tuple[B, ...]
    scorers: Mapping[str, Scorer]  # by box key
    upper_bonus: UpperBonus
    pace_dice: int  # the dice of each face that make the bonus threshold exactly
    all_alike: str  # the key of the box that scores every die alike (Yahtzee, Yatzy, ...)
    rolls_per_turn: int = 3
    switches: tuple[Switch, ...] = ()
    has_jokers: bool = False  # Yahtzee's extra-Yahtzee bonus and joker rules
    has_advice: bool = True  # an exact strategy exists for it
    offers_house_bonus: bool = False  # a table may set its own upper bonus (Maxi Yatzy)
    by_key: dict[str, B] = field(init=False, repr=False)
    # The card's two sections, in card order (every sum of a card and of a grid reads them).
    upper_boxes: tuple[B, ...] = field(init=False, repr=False)
    lower_boxes: tuple[B, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_key", {box.key: box for box in self.boxes})
        object.__setattr__(self, "upper_boxes", tuple(box for box in self.boxes if box.is_upper))
        object.__setattr__(self, "lower_boxes", tuple(box for box in self.boxes if box.is_lower))

    def box(self, key: str) -> B:
        """The box a form, a file or the database names, or a readable refusal."""
        found = self.by_key.get(key) if isinstance(key, str) else None
        if found is None:
            raise RuleViolation(
                Said(
                    "There is no box called %(key)s on a %(game)s card.",
                    key=quoted(key),
                    game=self,
                )
            )
        return found

    @property
    def all_alike_box(self) -> B:
        """The box that scores every die showing the same face: its name is the game's."""
        return self.by_key[self.all_alike]

    @property
    def all_alike_points(self) -> int:
        """What the all-alike box scores when its dice are all alike (50, or 100 with six)."""
        return self.scorers[self.all_alike](hand_of((1,) * self.dice_count), frozenset())

    def scored_all_alike(self, filled: Mapping[B, int]) -> bool:
        """Whether a card's all-alike box holds its points (not a zero): a Yahtzee scored."""
        return filled.get(self.all_alike_box) == self.all_alike_points

    def rolls(self) -> tuple[Dice, ...]:
        """Every distinct roll, each sorted: 252 of five dice, 462 of six."""
        return _all_rolls(self.dice_count)

    def parse_dice(self, dice: Iterable[int] | str) -> Dice:
        """The dice as a sorted tuple; accepts ints or a string of digits such as "44425"."""
        return parse_dice(dice, self.dice_count)

    def achievable_points(
        self, box: B, switches: frozenset[Switch] = frozenset()
    ) -> frozenset[int]:
        """Every value a box can hold (under any joker rule, with these switches)."""
        return _achievable(self, box.key, switches)


@cache
def _all_rolls(count: int) -> tuple[Dice, ...]:
    return tuple(itertools.combinations_with_replacement(FACES, count))


@cache
def _achievable(
    family: Family[Box] | Family[FamilyBox], key: str, switches: frozenset[Switch]
) -> frozenset[int]:
    scorer = family.scorers[key]
    return frozenset(scorer(hand_of(roll), switches) for roll in family.rolls())


@cache
def hand_of(dice: Dice) -> Hand:
    """A sorted roll with its face counts."""
    counts = [0] * 7
    for die in dice:
        counts[die] += 1
    return Hand(dice, tuple(counts))


_COUNT_WORDS = {5: "five", 6: "six"}


def _enter_the_dice(count: int, example: str) -> str:
    if count == 5:
        return Said(
            "Enter the dice as five digits from 1 to 6, such as %(example)s.", example=example
        )
    if count == 6:
        return Said(
            "Enter the dice as six digits from 1 to 6, such as %(example)s.", example=example
        )
    return f"Enter the dice as {count} digits from 1 to 6, such as {example}."


def _a_roll_is(count: int, got: int) -> str:
    if count == 5:
        return Said("A roll is five dice; got %(count)s.", count=got)
    if count == 6:
        return Said("A roll is six dice; got %(count)s.", count=got)
    return f"A roll is {count} dice; got {got}."


def parse_dice(dice: Iterable[int] | str, count: int) -> Dice:
    """`count` dice as a sorted tuple; accepts ints or a string of digits such as "44425"."""
    if type(dice) is tuple and dice in _sorted_rolls(count):  # already parsed: the common case
        return dice
    example = "44425" if count == 5 else "444256"
    if isinstance(dice, str):
        text = "".join(dice.split()).replace(",", "")
        if not text.isdecimal():
            raise RuleViolation(_enter_the_dice(count, example))
        dice = [int(char) for char in text]
    values = list(dice)
    # A face no die has is said first: "777" is three wrong dice, not two too few.
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in FACES:
            raise RuleViolation(Said("A die shows 1 to 6; got %(value)s.", value=repr(value)))
    if len(values) != count:
        raise RuleViolation(_a_roll_is(count, len(values)))
    return tuple(sorted(values))


@cache
def _sorted_rolls(count: int) -> frozenset[Dice]:
    return frozenset(_all_rolls(count))


YAHTZEE: Family[Box] = Family(
    key="yahtzee",
    name="Yahtzee",
    dice_count=5,
    boxes=tuple(Box),
    scorers={
        **{box.key: _face_sum(box.upper_face) for box in Box if box.is_upper},
        "three_of_a_kind": _sum_with_kind(3),
        "four_of_a_kind": _sum_with_kind(4),
        "full_house": _yahtzee_full_house,
        "small_straight": _any_straight(([1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]), 30),
        "large_straight": _any_straight(([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]), 40),
        "yahtzee": _all_alike(50),
        "chance": _all_dice,
    },
    upper_bonus=UpperBonus(63, 35),
    pace_dice=3,
    all_alike="yahtzee",
    has_jokers=True,
)

YATZY: Family[FamilyBox] = Family(
    key="yatzy",
    name="Yatzy",
    dice_count=5,
    boxes=(
        *_upper_boxes(),
        FamilyBox("one_pair", "One pair"),
        FamilyBox("two_pairs", "Two pairs"),
        FamilyBox("three_of_a_kind", "Three of a kind"),
        FamilyBox("four_of_a_kind", "Four of a kind"),
        FamilyBox("small_straight", "Small straight"),
        FamilyBox("large_straight", "Large straight"),
        FamilyBox("full_house", "Full house"),
        FamilyBox("chance", "Chance"),
        FamilyBox("yatzy", "Yatzy"),
    ),
    scorers={
        **{box.key: _face_sum(box.upper_face) for box in _upper_boxes()},
        "one_pair": _pairs(1),
        "two_pairs": _yatzy_two_pairs,
        "three_of_a_kind": _kind(3),
        "four_of_a_kind": _kind(4),
        "small_straight": _straight(range(1, 6), 15),
        "large_straight": _straight(range(2, 7), 20),
        "full_house": _yatzy_full_house,
        "chance": _all_dice,
        "yatzy": _all_alike(50),
    },
    upper_bonus=UpperBonus(63, 50),
    pace_dice=3,
    all_alike="yatzy",
    switches=(Switch.FIVE_ALIKE_FULL_HOUSE, Switch.FOUR_ALIKE_TWO_PAIRS),
)

MAXI: Family[FamilyBox] = Family(
    key="maxi",
    name="Maxi Yatzy",
    dice_count=6,
    boxes=(
        *_upper_boxes(),
        FamilyBox("one_pair", "One pair"),
        FamilyBox("two_pairs", "Two pairs"),
        FamilyBox("three_pairs", "Three pairs"),
        FamilyBox("three_of_a_kind", "Three of a kind"),
        FamilyBox("four_of_a_kind", "Four of a kind"),
        FamilyBox("five_of_a_kind", "Five of a kind"),
        FamilyBox("small_straight", "Small straight"),
        FamilyBox("large_straight", "Large straight"),
        FamilyBox("full_straight", "Full straight"),
        FamilyBox("full_house", "Full house"),
        FamilyBox("villa", "Villa"),
        FamilyBox("tower", "Tower"),
        FamilyBox("chance", "Chance"),
        FamilyBox("maxi_yatzy", "Maxi Yatzy"),
    ),
    scorers={
        **{box.key: _face_sum(box.upper_face) for box in _upper_boxes()},
        "one_pair": _pairs(1),
        "two_pairs": _pairs(2),
        "three_pairs": _pairs(3),
        "three_of_a_kind": _kind(3),
        "four_of_a_kind": _kind(4),
        "five_of_a_kind": _kind(5),
        "small_straight": _straight(range(1, 6), 15),
        "large_straight": _straight(range(2, 7), 20),
        "full_straight": _straight(range(1, 7), 21),
        "full_house": _groups(3, 2, all_dice=False),
        "villa": _groups(3, 3, all_dice=True),
        "tower": _groups(4, 2, all_dice=True),
        "chance": _all_dice,
        "maxi_yatzy": _all_alike(100),
    },
    upper_bonus=UpperBonus(84, 100),
    pace_dice=4,
    all_alike="maxi_yatzy",
    switches=(Switch.SAVED_ROLLS,),
    offers_house_bonus=True,
    # About 57 million reachable states (far more with saved rolls): no exact table yet, and
    # no approximation is offered in its place.
    has_advice=False,
)

FAMILIES: dict[str, Family[Box] | Family[FamilyBox]] = {
    family.key: family for family in (YAHTZEE, YATZY, MAXI)
}


def family_named(key: str) -> Family[Box] | Family[FamilyBox]:
    """The family a form or a file names, or a readable refusal."""
    found = FAMILIES.get(key) if isinstance(key, str) else None
    if found is None:
        raise RuleViolation(Said("There is no game called %(key)s.", key=quoted(key)))
    return found
