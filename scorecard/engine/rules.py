"""The rules of every family a card can be played by, and nothing else.

The families themselves (their dice, boxes, scoring and bonus) are data in `families`; this
module answers for any of them through `HouseRules`: what one table plays, a family with the
house switches it turned on, its upper bonus, and whether the boxes are filled in card order
(forced: only the next box is open). The module-level functions answer for standard Yahtzee
(`STANDARD`), as every part of the product did before there were other families.

Yahtzee: five dice, thirteen boxes, each filled once. The upper boxes (Ones to Sixes) score
the sum of their face; 63 or more there earns a 35-point bonus. The lower boxes: three and
four of a kind score the sum of all dice, a full house 25, a small straight (four in a row)
30, a large straight 40, a Yahtzee (five alike) 50, and Chance the sum of all dice.

A Yahtzee rolled when the Yahtzee box is already filled is an *extra Yahtzee*. What it may
score, and whether it earns the 100-point bonus, depends on the joker rule the table plays
(`JokerRule`); other families have neither. Every other part of the product asks this
module; nothing re-implements a rule.

A turn is at most three rolls (`ROLLS_PER_TURN`). With Maxi Yatzy's saved rolls the rolls a
turn leaves unused are the player's for later turns, which may roll three and the saved ones
(`HouseRules.saved_rolls`, counted from the rolls each turn used). Triple Yahtzee plays three
cards side by side and counts them once, twice and three times (`card_multiplier`,
`combined_totals`).

Dice are any five (six for Maxi Yatzy) ints from 1 to 6, in any order. Bad input raises
`RuleViolation` (a `ValueError`) with a message meant for a person.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, cast

from scorecard.engine.families import (
    FACES as FACES,
)
from scorecard.engine.families import (
    YAHTZEE as YAHTZEE,
)
from scorecard.engine.families import (
    Box as Box,
)
from scorecard.engine.families import (
    CardBox as CardBox,
)
from scorecard.engine.families import (
    Dice as Dice,
)
from scorecard.engine.families import (
    Family as Family,
)
from scorecard.engine.families import (
    FamilyBox as FamilyBox,
)
from scorecard.engine.families import (
    RuleViolation as RuleViolation,
)
from scorecard.engine.families import (
    Said as Said,
)
from scorecard.engine.families import (
    Switch as Switch,
)
from scorecard.engine.families import (
    UpperBonus as UpperBonus,
)
from scorecard.engine.families import (
    hand_of,
    member_by_key,
    quoted,
)

UPPER_BONUS_THRESHOLD = YAHTZEE.upper_bonus.threshold
UPPER_BONUS = YAHTZEE.upper_bonus.points
ROLLS_PER_TURN = YAHTZEE.rolls_per_turn
EXTRA_YAHTZEE_BONUS = 100
HOUSE_BONUS_MOST_POINTS = 500  # a table's own upper bonus: far above any printed rule's 100
YAHTZEE_POINTS = 50
FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
DICE_COUNT = YAHTZEE.dice_count
TRIPLE_CARDS = 3
BOXES_PER_CARD = len(YAHTZEE.boxes)
UPPER_BOXES = YAHTZEE.upper_boxes
LOWER_BOXES = YAHTZEE.lower_boxes


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
        found = member_by_key(cls, key)
        if found is None:  # a file may name anything: said to the person importing it
            raise RuleViolation(Said("There is no joker rule called %(key)s.", key=quoted(key)))
        return found


Card = Mapping[Box, int]
ALL_ROLLS: tuple[Dice, ...] = YAHTZEE.rolls()


def parse_dice(dice: Iterable[int] | str) -> Dice:
    """Five dice as a sorted tuple; accepts ints or a string of digits such as "44425"."""
    return YAHTZEE.parse_dice(dice)


def is_yahtzee(dice: Iterable[int]) -> bool:
    return len(set(parse_dice(dice))) == 1


def score(box: Box, dice: Iterable[int]) -> int:
    """The ordinary value of five dice in a box, without any joker."""
    return STANDARD.score(box, dice)


def _scores(dice: Dice) -> dict[Box, int]:
    """Every box's ordinary value for one sorted roll; there are only 252 of them."""
    return STANDARD.scores(dice)


JOKER_FULL_VALUES = {
    Box.FULL_HOUSE: FULL_HOUSE_POINTS,
    Box.SMALL_STRAIGHT: SMALL_STRAIGHT_POINTS,
    Box.LARGE_STRAIGHT: LARGE_STRAIGHT_POINTS,
}


def joker_applies(filled: Card, dice: Iterable[int], joker: JokerRule) -> bool:
    """Whether these dice are an extra Yahtzee that the joker rule changes."""
    if joker is JokerRule.NONE or not is_yahtzee(dice) or Box.YAHTZEE not in filled:
        return False
    return not (joker is JokerRule.ANY_LOWER and filled[Box.YAHTZEE] == 0)


class Option[B: (Box, FamilyBox)](NamedTuple):
    """One open box for a roll: whether the rule allows it, its points, and why not."""

    box: B
    points: int
    allowed: bool
    reason: str = ""


def _joker_options(open_boxes: list[Box], dice: Dice, joker: JokerRule) -> list[Option[Box]]:
    matching = Box.for_face(dice[0])
    ordinary = _scores(dice)
    full = ordinary | JOKER_FULL_VALUES
    if joker is JokerRule.FREE:
        values = ordinary if matching in open_boxes else full
        return [Option(box, values[box], True) for box in open_boxes]
    if matching in open_boxes:
        allowed = [matching]
        why = Said("%(box)s is open, so this Yahtzee must go there.", box=matching)
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


def _joker_order_reason(allowed: list[Box]) -> Said:
    """Why the other open boxes are closed to this extra Yahtzee: it must go in these while
    one of them is open (the closed ones are for later turns, never a later choice now)."""
    if len(allowed) == 1:
        return Said("An extra Yahtzee must go in %(boxes)s while it is open.", boxes=(*allowed,))
    return Said(
        "An extra Yahtzee must go in %(boxes)s while one of them is open.", boxes=(*allowed,)
    )


def card_options(
    filled: Card, dice: Iterable[int], joker: JokerRule = JokerRule.HASBRO
) -> list[Option[Box]]:
    """Every open box in card order, each with its points and whether it may be taken."""
    return STANDARD.card_options(filled, dice, joker)


def options(
    filled: Card, dice: Iterable[int], joker: JokerRule = JokerRule.HASBRO
) -> dict[Box, int]:
    """Every box these dice may legally fill this turn, with its points (no 100 bonus)."""
    return STANDARD.options(filled, dice, joker)


def earns_bonus(filled: Card, joker: JokerRule = JokerRule.HASBRO) -> bool:
    """Whether an extra Yahtzee on this card earns 100: the rule has one, and the box holds 50."""
    return joker is not JokerRule.NONE and filled.get(Box.YAHTZEE) == YAHTZEE_POINTS


def yahtzee_bonus(filled: Card, dice: Iterable[int], joker: JokerRule = JokerRule.HASBRO) -> int:
    """100 when these dice are an extra Yahtzee and the Yahtzee box holds 50, else 0."""
    return EXTRA_YAHTZEE_BONUS if is_yahtzee(dice) and earns_bonus(filled, joker) else 0


def achievable_points(box: Box) -> frozenset[int]:
    """Every value a box can hold on a card, under any joker rule."""
    return STANDARD.achievable_points(box)


def check_points(box: Box, points: int) -> int:
    """A number typed in for a box without dice: returned when the box can hold it."""
    return STANDARD.check_points(box, points)


def describe_values(values: Sequence[int]) -> str:
    """A short human list of values: "0, 3, 6, ... 15" or "0 or 5 to 30"."""
    if len(values) == 1:
        return str(values[0])
    if len(values) == 2:
        return Said("%(first)s or %(rest)s", first=values[0], rest=values[1])
    step = values[-1] - values[-2]
    if any(b - a != step for a, b in itertools.pairwise(values)):
        if _evenly_spaced(values[1:]):
            return Said("%(first)s or %(rest)s", first=values[0], rest=describe_values(values[1:]))
        return _describe_runs(values)
    if step == 1:
        return Said("%(low)s to %(high)s", low=values[0], high=values[-1])
    shown = ", ".join(str(v) for v in values[:3])
    return Said("%(values)s, ... %(last)s", values=shown, last=values[-1])


def _evenly_spaced(values: Sequence[int]) -> bool:
    return len({b - a for a, b in itertools.pairwise(values)}) <= 1


def _describe_runs(values: Sequence[int]) -> str:
    """Values with gaps as their runs: "0, 7 to 9, 11 to 24 or 26 to 28"."""
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    texts = [
        str(run[0]) if len(run) == 1 else Said("%(low)s to %(high)s", low=run[0], high=run[-1])
        for run in runs
    ]
    return Said("%(first)s or %(rest)s", first=texts[:-1], rest=texts[-1])


@dataclass(frozen=True)
class Entry[B: (Box, FamilyBox)]:
    """One filled box: its points, the dice it was filled with (none when typed as points),
    and the extra-Yahtzee bonus the roll earned. `place` makes one; a card is a list of them
    in the order the boxes were filled."""

    box: B
    points: int
    dice: Dice | None = None
    bonus: int = 0


def place(
    filled: Card,
    box: Box,
    *,
    dice: Iterable[int] | None = None,
    points: int | None = None,
    joker: JokerRule = JokerRule.HASBRO,
    extra_yahtzee: bool = False,
) -> Entry[Box]:
    """Check one entry against a Yahtzee card: with dice, or with a number typed in."""
    return STANDARD.place(
        filled, box, dice=dice, points=points, joker=joker, extra_yahtzee=extra_yahtzee
    )


def _typed_extra_yahtzee(filled: Card, box: Box, points: int, joker: JokerRule) -> int:
    """The bonus of an extra Yahtzee typed as points: some five alike must be allowed in
    this box, for exactly these points, under the joker rule, as if its dice were entered."""
    found = [
        next(o for o in card_options(filled, (face,) * DICE_COUNT, joker) if o.box is box)
        for face in FACES
    ]
    if any(o.allowed and o.points == points for o in found):
        return EXTRA_YAHTZEE_BONUS
    reasons = list(dict.fromkeys(o.reason for o in found if o.points == points))
    if not reasons:
        raise RuleViolation(
            Said(
                "Five alike never score %(points)s in %(box)s, so it was no extra Yahtzee.",
                points=points,
                box=box,
            )
        )
    if len(reasons) == 1:
        raise RuleViolation(
            Said(
                "No extra Yahtzee scores %(points)s in %(box)s: %(reason)s",
                points=points,
                box=box,
                reason=reasons[0],
            )
        )
    raise RuleViolation(
        Said(
            "No five alike may score %(points)s in %(box)s under this rule.", points=points, box=box
        )
    )


@cache
def only_five_alike(box: Box, points: int) -> bool:
    """Whether only five alike make these points in this box (Fives 25, Chance 30, 3 of a
    kind 5): typed without dice where an extra Yahtzee pays, they earn the bonus, ticked or not."""
    making = [d for d in itertools.combinations_with_replacement(FACES, DICE_COUNT)
              if score(box, d) == points]  # fmt: skip
    return bool(making) and all(is_yahtzee(d) for d in making)


def check_card(
    entries: Sequence[Entry[Box]], joker: JokerRule = JokerRule.HASBRO
) -> dict[Box, int]:
    """Replay a Yahtzee card's entries in order (see `HouseRules.check_card`)."""
    return STANDARD.check_card(entries, joker)


def _mismatch(said: Entry[Box] | Entry[FamilyBox], entry: Entry[Box] | Entry[FamilyBox]) -> Said:
    def worth(points: int, bonus: int) -> Said | int:
        if bonus:
            return Said(
                "%(points)s and the %(bonus)s extra-Yahtzee bonus", points=points, bonus=bonus
            )
        return points

    written = worth(entry.points, entry.bonus)
    if not entry.dice:  # typed points that only five alike make: the bonus was left out
        return Said(
            "only five alike make %(points)s there, which earns the %(bonus)s extra-Yahtzee "
            "bonus, but the card says %(written)s.",
            points=said.points,
            bonus=said.bonus,
            written=written,
        )
    worth_said = worth(said.points, said.bonus)
    if said.points == entry.points and not said.bonus:
        worth_said = Said("%(worth)s, with no extra-Yahtzee bonus", worth=worth_said)
    return Said(
        "those dice are worth %(worth)s, but the card says %(written)s.",
        worth=worth_said,
        written=written,
    )


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

    # Field by field, not through dataclasses.astuple (which copies each value deeply): the
    # standings add every player's cards at each record.
    def times(self, factor: int) -> Totals:
        """The same card counted `factor` times, as Triple Yahtzee scores its cards."""
        return Totals(
            factor * self.upper,
            factor * self.bonus,
            factor * self.lower,
            factor * self.yahtzee_bonus,
            factor * self.total,
            factor * self.pace,
        )

    def __add__(self, other: Totals) -> Totals:
        return Totals(
            self.upper + other.upper,
            self.bonus + other.bonus,
            self.lower + other.lower,
            self.yahtzee_bonus + other.yahtzee_bonus,
            self.total + other.total,
            self.pace + other.pace,
        )


def totals(filled: Card, extra_yahtzees: int = 0) -> Totals:
    """Upper, bonus, lower, extra-Yahtzee bonus, total and bonus pace of one Yahtzee card.

    Pace is the upper section measured against three of each face: four 5s is +5, two 6s -6.
    """
    return STANDARD.totals(filled, extra_yahtzees)


NO_TOTALS = Totals(0, 0, 0, 0, 0, 0)
PACE_DICE = YAHTZEE.pace_dice  # three of each face in the upper boxes make exactly the 63


def pace_par(box: Box) -> int:
    """What an upper box holds on the way to the bonus: three of its face."""
    return STANDARD.pace_par(box)


def upper_bonus_settled(filled: Card) -> bool:
    """Whether the upper bonus is decided: 63 is reached, or every upper box is filled."""
    return STANDARD.upper_bonus_settled(filled)


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
    if len(cards) == 1 and 1 in cards:  # most games: the card's own totals, as they are
        return cards[1]
    combined = NO_TOTALS
    for card, card_totals in cards.items():
        combined += card_totals.times(card_multiplier(card))
    return combined


def turns_per_player(cards: int) -> int:
    """One box a turn until every card is full."""
    return STANDARD.turns_per_player(cards)


def totals_from_sums(upper: int, lower: int, extra_yahtzees: int = 0, pace: int = 0) -> Totals:
    """A Yahtzee card's totals from its upper and lower sums, as a database can add them up."""
    return STANDARD.totals_from_sums(upper, lower, extra_yahtzees, pace)


def maximum_score() -> int:
    """The highest possible Yahtzee total: five alike in every upper box, the best lower boxes,
    and an extra Yahtzee on each of the other twelve turns."""
    return STANDARD.maximum_score()


# --- Any family ---------------------------------------------------------------------------------


# What a box of a card is: one of Yahtzee's or of another family's.
BOX_TYPES = (Box, FamilyBox)


@cache
def _box_points(
    family: Family[Any], switches: frozenset[Switch]
) -> dict[Any, tuple[Any, frozenset[int]]]:
    """Each box of the family's card, with every value it can hold under these switches."""
    return {box: (box, family.achievable_points(box, switches)) for box in family.boxes}


@cache
def _upper_pars(family: Family[Any]) -> dict[Any, int]:
    """Each upper box of the family's card with its par (`HouseRules.pace_par`)."""
    return {box: _pace_par(family, box) for box in family.upper_boxes}


def _pace_par(family: Family[Any], box: Box | FamilyBox) -> int:
    return family.pace_dice * box.upper_face


@cache
def _full_par(family: Family[Any]) -> int:
    """The par of a full upper section: the family's own bonus threshold."""
    return sum(_upper_pars(family).values())


@dataclass(frozen=True)
class HouseRules[B: (Box, FamilyBox)]:
    """What one table plays: a family, the house switches it turned on, its upper bonus (the
    family's unless the house sets its own), and whether the boxes are filled in card order
    (`forced`: only the next box is open; earlier boxes can still be corrected)."""

    family: Family[B]
    switches: frozenset[Switch] = frozenset()
    house_bonus: UpperBonus | None = None
    forced: bool = False

    def __post_init__(self) -> None:
        for switch in self.switches:
            if switch not in self.family.switches:
                raise RuleViolation(
                    Said("%(game)s has no house rule “%(rule)s”.", game=self.family, rule=switch)
                )

    @property
    def key(self) -> str:
        """A name for these rules that a file name can hold: "yatzy", "yatzy-forced", ..."""
        parts = [self.family.key, *sorted(switch.key for switch in self.switches)]
        if self.house_bonus is not None:
            parts.append(f"bonus{self.house_bonus.threshold}x{self.house_bonus.points}")
        if self.forced:
            parts.append("forced")
        return "-".join(parts)

    @property
    def upper_bonus(self) -> UpperBonus:
        return self.house_bonus or self.family.upper_bonus

    @property
    def boxes(self) -> tuple[B, ...]:
        return self.family.boxes

    @property
    def saves_rolls(self) -> bool:
        """Maxi Yatzy's house rule: rolls a turn leaves unused are the player's for later."""
        return Switch.SAVED_ROLLS in self.switches

    def rolls_allowed(self, saved: int = 0) -> int:
        """How many rolls a turn may use: the family's, and with saved rolls on, the rolls
        the player saved on earlier turns as well."""
        return self.family.rolls_per_turn + (saved if self.saves_rolls else 0)

    def check_rolls_used(self, rolls_used: int, saved: int = 0) -> int:
        """The rolls a turn says it used: returned when the player had that many."""
        allowed = self.rolls_allowed(saved)
        if isinstance(rolls_used, bool) or not isinstance(rolls_used, int):
            raise RuleViolation(f"Rolls used are a whole number; got {rolls_used!r}.")
        if not 1 <= rolls_used <= allowed:
            raise RuleViolation(
                Said(
                    "This turn may use 1 to %(allowed)s rolls; got %(used)s.",
                    allowed=allowed,
                    used=rolls_used,
                )
            )
        return rolls_used

    def saved_after(self, saved: int, rolls_used: int) -> int:
        """The rolls a player has saved after a turn that used `rolls_used` of them, starting
        with `saved`: every roll of the family's turn left unused is kept, and rolls beyond
        it are spent from the saved ones. Without the house rule nothing is ever saved."""
        self.check_rolls_used(rolls_used, saved)
        if not self.saves_rolls:
            return 0
        return saved + self.family.rolls_per_turn - rolls_used

    def saved_rolls(self, rolls_used: Iterable[int]) -> int:
        """The rolls a player has saved after turns that used these many rolls, in turn
        order; a turn that used more rolls than the player had is refused."""
        saved = 0
        for used in rolls_used:
            saved = self.saved_after(saved, used)
        return saved

    def turn_over_its_rolls(self, rolls_used: Sequence[int]) -> int | None:
        """Of turns that used these many rolls, in turn order, the first that used more
        than the player had (its index), or None: a corrected count of rolls must leave
        every later turn the rolls it used."""
        saved = 0
        for turn, used in enumerate(rolls_used):
            if not 1 <= used <= self.rolls_allowed(saved):
                return turn
            saved = self.saved_after(saved, used)
        return None

    def scores(self, dice: Dice) -> dict[B, int]:
        """Every box's ordinary value for one sorted roll."""
        return _scores_of(self, dice)

    def score(self, box: B, dice: Iterable[int]) -> int:
        """The ordinary value of the dice in a box, without any joker."""
        return self.scores(self.family.parse_dice(dice))[box]

    def achievable_points(self, box: B) -> frozenset[int]:
        return self.family.achievable_points(box, self.switches)

    def max_points(self, box: B) -> int:
        return max(self.achievable_points(box))

    def _check_filled(self, filled: Mapping[B, int]) -> None:
        # Every card's totals are checked (a page adds up every card), so the loop is lean:
        # one lookup a box, in a table made once for the family and switches. A box of this
        # family is the very member the table holds.
        points_of = _box_points(self.family, self.switches)
        for box, points in filled.items():
            known = points_of.get(box) if isinstance(box, BOX_TYPES) else None
            if known is None or known[0] is not box:
                raise RuleViolation(f"{box!r} is not a box of a {self.family.name} card.")
            if points not in known[1]:
                raise RuleViolation(
                    Said("%(box)s cannot hold %(points)s points.", box=box, points=points)
                )

    def open_boxes(self, filled: Mapping[B, int]) -> list[B]:
        """The boxes not filled yet, in card order (a full card is refused)."""
        self._check_filled(filled)
        open_boxes = [box for box in self.boxes if box not in filled]
        if not open_boxes:
            raise RuleViolation(Said("This card is full: every box is filled."))
        return open_boxes

    def next_box(self, filled: Mapping[B, int]) -> B:
        """The first open box in card order: in forced order, the only one open."""
        return self.open_boxes(filled)[0]

    def card_options(
        self, filled: Mapping[B, int], dice: Iterable[int], joker: JokerRule = JokerRule.HASBRO
    ) -> list[Option[B]]:
        """Every open box in card order, each with its points and whether it may be taken."""
        dice = self.family.parse_dice(dice)
        open_boxes = self.open_boxes(filled)
        if self.family.has_jokers and joker_applies(_jokers_card(filled), dice, joker):
            jokers = _joker_options([_jokers_box(box) for box in open_boxes], dice, joker)
            found: list[Option[B]] = cast(Any, jokers)  # the same boxes: B is Box here
        else:
            values = self.scores(dice)
            found = [Option(box, values[box], True) for box in open_boxes]
        return self._in_order(found) if self.forced else found

    @staticmethod
    def _in_order(found: list[Option[B]]) -> list[Option[B]]:
        """Forced order: the next box takes the dice at their value there; the rest wait."""
        first = found[0]
        why = Said("The boxes are filled in order: %(box)s is next.", box=first.box)
        return [Option(first.box, first.points, True)] + [
            Option(option.box, option.points, False, why) for option in found[1:]
        ]

    def options(
        self, filled: Mapping[B, int], dice: Iterable[int], joker: JokerRule = JokerRule.HASBRO
    ) -> dict[B, int]:
        """Every box these dice may legally fill this turn, with its points (no 100 bonus)."""
        return {o.box: o.points for o in self.card_options(filled, dice, joker) if o.allowed}

    def check_points(self, box: B, points: int) -> int:
        """A number typed in for a box without dice: returned when the box can hold it."""
        if isinstance(points, bool) or not isinstance(points, int):
            raise RuleViolation(f"Points are a whole number; got {points!r}.")
        if points not in self.achievable_points(box):
            values = sorted(self.achievable_points(box))
            raise RuleViolation(
                Said(
                    "%(box)s cannot score %(points)s; it scores %(values)s.",
                    box=box,
                    points=points,
                    values=describe_values(values),
                )
            )
        return points

    def place(
        self,
        filled: Mapping[B, int],
        box: B,
        *,
        dice: Iterable[int] | None = None,
        points: int | None = None,
        joker: JokerRule = JokerRule.HASBRO,
        extra_yahtzee: bool = False,
    ) -> Entry[B]:
        """Check one entry against a card: with dice, or with a number typed in for the box;
        with both, they must agree (a post of dice 12345 and 20 for Fours was recorded as 4).

        Without dice a Yahtzee player may still declare an extra Yahtzee, which earns the
        bonus only where the rule and the Yahtzee box allow it.
        """
        self._check_filled(filled)
        if box in filled:
            raise RuleViolation(Said("%(box)s is already filled.", box=box))
        if self.forced and box is not self.next_box(filled):
            raise RuleViolation(
                Said("The boxes are filled in order: %(box)s is next.", box=self.next_box(filled))
            )
        if dice is not None:
            dice = self.family.parse_dice(dice)
            option = next(o for o in self.card_options(filled, dice, joker) if o.box is box)
            if not option.allowed:
                raise RuleViolation(option.reason)
            if points is not None and points != option.points:
                raise RuleViolation(
                    Said(
                        "The dice %(dice)s make %(made)s in %(box)s, not %(points)s: enter the "
                        "dice or the points.",
                        dice="".join(map(str, dice)),
                        made=option.points,
                        box=box,
                        points=points,
                    )
                )
            return Entry(box, option.points, dice, self._bonus(filled, dice, joker))
        if points is None:
            raise RuleViolation(Said("Enter the dice or the points for %(box)s.", box=box))
        self.check_points(box, points)
        pays = self.extra_yahtzee_earns_bonus(filled, joker)
        if pays and not extra_yahtzee:
            extra_yahtzee = only_five_alike(_jokers_box(box), points)
        if not extra_yahtzee:
            return Entry(box, points)
        if not pays:
            raise RuleViolation(Said("An extra Yahtzee earns 100 only with 50 in the Yahtzee box."))
        bonus = _typed_extra_yahtzee(_jokers_card(filled), _jokers_box(box), points, joker)
        return Entry(box, points, bonus=bonus)

    def five_alike_may_score(self, box: B, points: int) -> bool:
        """Whether some five alike score these points in this box, as they are or as a joker
        (25 in Full house; 0 in an upper box it does not match): a claim of an extra Yahtzee
        for other points is no claim at all (a correction's tick left as it was)."""
        if not self.family.has_jokers:
            return False
        plain = _jokers_box(box)
        rolls = ((face,) * DICE_COUNT for face in FACES)
        joker = JOKER_FULL_VALUES.get(plain) == points or (points == 0 and plain in UPPER_BOXES)
        return joker or any(score(plain, dice) == points for dice in rolls)

    def extra_yahtzee_earns_bonus(self, filled: Mapping[B, int], joker: JokerRule) -> bool:
        """Whether five alike rolled on this card now earns the extra-Yahtzee bonus."""
        return self.family.has_jokers and earns_bonus(_jokers_card(filled), joker)

    def _bonus(self, filled: Mapping[B, int], dice: Dice, joker: JokerRule) -> int:
        if not self.family.has_jokers:
            return 0
        return yahtzee_bonus(_jokers_card(filled), dice, joker)

    def check_card(
        self, entries: Sequence[Entry[B]], joker: JokerRule = JokerRule.HASBRO
    ) -> dict[B, int]:
        """Replay a card's entries in order, each worth what it says, its extra-Yahtzee bonus
        too: the filled card, or `RuleViolation` naming the box at fault."""
        self._placed_again(entries, joker, bonuses_as_written=True)
        return {entry.box: entry.points for entry in entries}

    def replay_card(
        self, entries: Sequence[Entry[B]], joker: JokerRule = JokerRule.HASBRO
    ) -> list[Entry[B]]:
        """A card's entries placed again in order after one of them was corrected, each with
        the same points (else `RuleViolation` naming the box) and the extra-Yahtzee bonus the
        boxes before it now allow: a Yahtzee box corrected from 50 to 0 takes a later five
        alike's 100 away (and back), where `check_card` would refuse the card. A typed claim
        of an extra Yahtzee stands while it pays."""
        return self._placed_again(entries, joker, bonuses_as_written=False)

    def with_earned_bonuses(
        self, entries: Sequence[Entry[B]], joker: JokerRule = JokerRule.HASBRO
    ) -> list[Entry[B]]:
        """A card as written before typed points that only five alike make (25 in Fives)
        earned their extra-Yahtzee bonus by themselves, when only a tick claimed it: each such
        entry without its bonus given the bonus the rules pay, every other entry as written.
        A card the rules refuse comes back as it was, for `check_card` to say why."""
        try:
            replayed = self.replay_card(entries, joker)
        except RuleViolation:
            return list(entries)
        return [
            placed if not entry.dice and not entry.bonus else entry
            for entry, placed in zip(entries, replayed, strict=True)
        ]

    def _placed_again(
        self, entries: Sequence[Entry[B]], joker: JokerRule, *, bonuses_as_written: bool
    ) -> list[Entry[B]]:
        """Each entry placed on the card the ones before it filled, or `RuleViolation` naming
        the box at fault (by its box: a card's own turn count would differ from the game's).
        With `bonuses_as_written` a bonus must be the one the rules give, and a typed claim is
        checked as made; else the rules give the bonus, and a typed claim counts where it pays."""
        filled: dict[B, int] = {}
        placed_entries = []
        for entry in entries:
            claims = bool(entry.bonus) and not entry.dice
            if not bonuses_as_written:
                claims = claims and self.extra_yahtzee_earns_bonus(filled, joker)
            try:
                placed = self.place(
                    filled,
                    entry.box,
                    dice=entry.dice,
                    points=None if entry.dice else entry.points,
                    joker=joker,
                    extra_yahtzee=claims,
                )
            except RuleViolation as error:
                said = error.args[0] if error.args else str(error)
                raise RuleViolation(Said("%(box)s: %(error)s", box=entry.box, error=said)) from None
            bonuses = (placed.bonus, entry.bonus) if bonuses_as_written else (0, 0)
            if (placed.points, bonuses[0]) != (entry.points, bonuses[1]):
                mismatch = _mismatch(placed, entry)
                raise RuleViolation(Said("%(box)s: %(error)s", box=entry.box, error=mismatch))
            filled[entry.box] = entry.points
            placed_entries.append(placed)
        return placed_entries

    def pace_par(self, box: B) -> int:
        """What an upper box holds on the way to the family's bonus: three (Maxi: four) of its
        face. A house threshold scales the pace of the boxes together (`totals`)."""
        return _pace_par(self.family, box)

    def totals(self, filled: Mapping[B, int], extra_yahtzees: int = 0) -> Totals:
        """Upper, bonus, lower, extra-Yahtzee bonus, total and bonus pace of one card.

        Pace is the upper section measured against the par of the boxes filled: with three of
        each face making the bonus, four 5s is +5, two 6s -6. A full section's pace is its
        distance from the bonus threshold, the house's own where it sets one.
        """
        self._check_filled(filled)
        upper = lower = par = 0
        pars = _upper_pars(self.family)
        for box, points in filled.items():  # one pass: a box is upper (it has a par) or lower
            box_par = pars.get(box)
            if box_par is None:
                lower += points
            else:
                upper += points
                par += box_par
        return self.totals_from_sums(upper, lower, extra_yahtzees, upper - self._house_par(par))

    def _house_par(self, family_par: int) -> int:
        """The par of some upper boxes (by the family's pars) measured against this house's
        threshold, to the nearest point: a house bonus at 90 in Maxi Yatzy (par 84) asks 90/84
        of it, so four of each face end 6 behind, as the bonus they miss says."""
        if self.house_bonus is None:  # most tables: the family's own threshold, its par
            return family_par
        full_par, threshold = _full_par(self.family), self.house_bonus.threshold
        if threshold == full_par:
            return family_par
        return (2 * family_par * threshold + full_par) // (2 * full_par)  # halves round up

    def totals_from_sums(
        self, upper: int, lower: int, extra_yahtzees: int = 0, pace: int = 0
    ) -> Totals:
        """A card's totals from its upper and lower sums, as a database can add them up."""
        # Every turn but the one that filled the Yahtzee box; other families have none.
        most = len(self.boxes) - 1 if self.family.has_jokers else 0
        if isinstance(extra_yahtzees, bool) or not 0 <= extra_yahtzees <= most:
            raise RuleViolation(f"A card holds 0 to {most} extra Yahtzees; got {extra_yahtzees!r}.")
        bonus = self.upper_bonus.points if upper >= self.upper_bonus.threshold else 0
        extra = EXTRA_YAHTZEE_BONUS * extra_yahtzees
        return Totals(upper, bonus, lower, extra, upper + bonus + lower + extra, pace)

    def upper_bonus_settled(self, filled: Mapping[B, int]) -> bool:
        """Whether the upper bonus is decided: its threshold is reached, or every upper box is
        filled."""
        # The card's upper boxes looked up, not every filled box asked where it stands: this
        # is asked for every column of every answer that changes a sum.
        upper_boxes = self.family.upper_boxes
        upper = sum(filled.get(box, 0) for box in upper_boxes)
        filled_all = all(box in filled for box in upper_boxes)
        return upper >= self.upper_bonus.threshold or filled_all

    def turns_per_player(self, cards: int) -> int:
        """One box a turn until every card is full."""
        return len(self.boxes) * cards

    def check_house_bonus(self) -> None:
        """A table's own upper bonus as the game may be played with it, whoever sets it (the
        new-game form, an imported file): only a family that offers one (Maxi Yatzy), a
        threshold the upper boxes can reach, and 0 to `HOUSE_BONUS_MOST_POINTS` points. A
        file once gave Yahtzee a bonus of 1,000 for 1 point in the upper boxes."""
        bonus = self.house_bonus
        if bonus is None:
            return
        if not self.family.offers_house_bonus:
            raise RuleViolation(
                Said("%(game)s has no upper bonus of the table’s own.", game=self.family)
            )
        if bonus.threshold < 1:  # an imported file's (the form asks for 1 or more)
            raise RuleViolation(
                Said(
                    "A bonus at %(threshold)s would go to every card: its threshold is at least 1.",
                    threshold=bonus.threshold,
                )
            )
        most = self.most_upper()
        if bonus.threshold > most:
            raise RuleViolation(
                Said(
                    "The upper boxes hold at most %(most)s: a bonus at %(threshold)s could never "
                    "be won.",
                    most=most,
                    threshold=bonus.threshold,
                )
            )
        if not 0 <= bonus.points <= HOUSE_BONUS_MOST_POINTS:
            raise RuleViolation(
                Said("A bonus is worth 0 to %(most)s points.", most=HOUSE_BONUS_MOST_POINTS)
            )

    def most_upper(self) -> int:
        """The most the upper boxes can add up to (Maxi Yatzy: six of each face, 126): a
        bonus threshold above it is never reached."""
        return sum(self.max_points(box) for box in self.family.upper_boxes)

    def maximum_score(self) -> int:
        """The highest possible total: the most every box can hold, and (Yahtzee) an extra
        Yahtzee on every turn but the one that filled the Yahtzee box."""
        best = {box: self.max_points(box) for box in self.boxes}
        extra = len(self.boxes) - 1 if self.family.has_jokers else 0
        return self.totals(best, extra_yahtzees=extra).total


def _jokers_card(filled: Mapping[Any, int]) -> Card:
    """A card of the one family with jokers, Yahtzee, whose boxes are `Box`."""
    return filled


def _jokers_box(box: CardBox) -> Box:
    assert isinstance(box, Box), "only Yahtzee has jokers, and its boxes are `Box`"
    return box


@cache
def _scores_of[B: (Box, FamilyBox)](rules: HouseRules[B], dice: Dice) -> dict[B, int]:
    hand = hand_of(dice)
    scorers = rules.family.scorers
    return {box: scorers[box.key](hand, rules.switches) for box in rules.boxes}


STANDARD: HouseRules[Box] = HouseRules(YAHTZEE)
