"""Advice as the page says it: a box's and a keep's rating, the coach's word, playing to win
the last turn, and chances as people read them. Nothing here asks the engine (that is
`presenters.advisor`); these are the words and numbers it hands over.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorecard.engine import rules
from scorecard.presenters.box_names import box_name
from scorecard.presenters.percentages import percent_said

TRIPLE_HAS_NONE = gettext_lazy(
    "No advice for Triple Yahtzee: three cards at once make too many positions to solve exactly."
)
NO_ADVICE_FOR = gettext_lazy(
    "No advice for %(family)s: six dice make far too many positions to solve exactly here, "
    "and a guess is not advice."
)
FORCED_YAHTZEE_HAS_NONE = gettext_lazy(
    "No advice for Yahtzee with the boxes filled in order: its best play is not worked out "
    "here, and the advice for a free card would point to boxes that are closed."
)
NOT_READY = gettext_lazy(
    "Advice is not ready yet: this server has not finished working out the best play for this "
    "rule. Try again later."
)
# As the turn began: the column does not follow the rolls of the turn (a tester read "from
# here" beside a panel whose chance to win moved with each roll).
WIN_NOTE = gettext_lazy(
    "Win: each player’s chance of finishing first if everyone plays for points optimally "
    "from the start of this turn (a tie counts as a share)."
)
# On the game's last turn the column is its player's chance playing to win (a helper saw
# the last player's chance rise as the one before scored more, under the note above).
WIN_NOTE_LAST_TURN = gettext_lazy(
    "Win: the game’s last turn, so each player’s chance of finishing first if %(name)s plays "
    "to win, not for points (a tie counts as a share)."
)

# The exact chances carry rounding error: this close to 0 or 1, the result is settled.
SETTLED = 1e-9


def settled(chance: float) -> float:
    """0 or 1 where the chance is that within rounding error: a player who has won already
    was shown ">99%" (0.9999999999999998, a tester)."""
    if abs(chance) < SETTLED:
        return 0.0
    return 1.0 if abs(1 - chance) < SETTLED else chance


def percent(chance: float, digits: int = 1) -> str:
    """A chance as people read it ("12.3%", or "37%" with no digits), and never a rounded
    0% or 100% that is not exact: "<0.1%", ">99.9%"."""
    least = 10.0 ** -(digits + 2)  # the smallest step shown: 0.1% with one digit
    chance = settled(chance)
    if 0 < chance < least / 2:
        return f"<{percent_said(least, digits)}"
    if 1 - least / 2 < chance < 1:
        return f">{percent_said(1 - least, digits)}"
    return percent_said(chance, digits)


def shares_in_percent(chances: Sequence[float]) -> list[str]:
    """Chances that share one whole (each player's chance to win) in whole percents that add
    up to 100, as a table reads the column: each is rounded down, and the points still
    missing go to the largest remainders (63.5, 18.3 and 18.2 show 64, 18, 18, not 63, 18,
    18). Equal chances show alike, each rounded to the nearest, even where the column then
    adds up to 99 or 101: three players at the start read 34%, 33%, 33%, an edge for the
    first that nobody has (a tester). A share that is not none or not certain still never
    shows as 0% or 100%."""
    chances = [settled(chance) for chance in chances]
    scaled = [chance * 100 for chance in chances]
    whole = [math.floor(share) for share in scaled]
    missing = round(sum(scaled)) - sum(whole)
    by_remainder = sorted(range(len(scaled)), key=lambda i: whole[i] - scaled[i])
    for i in by_remainder[: max(missing, 0)]:
        whole[i] += 1
    for i, share in enumerate(scaled):
        alike = [j for j, other in enumerate(scaled) if math.isclose(other, share)]
        if len({whole[j] for j in alike}) > 1:
            whole[i] = math.floor(share + 0.5)
    return [_share(chance, points) for chance, points in zip(chances, whole, strict=True)]


def _share(chance: float, points: int) -> str:
    if points == 0 < chance:
        return f"<{percent_said(0.01, 0)}"
    if points == 100 and chance < 1:
        return f">{percent_said(0.99, 0)}"
    return percent_said(points / 100, 0)


def points_given_up(points: float) -> str:
    """A choice's loss against the best, as every piece of advice writes it (the ratings
    and the coach alike, so the two never differ by a rounding): to a tenth, or to a
    hundredth where a tenth would print 0.0 for a choice that is not the best."""
    # floatformat rounds half up; number_format alone would cut 28.26 to 28.2.
    if points >= 0.05:
        return floatformat(points, 1)
    return floatformat(points, 2) if points >= 0.005 else "<" + floatformat(0.01, 2)


def _as_shown(points: float, digits: int) -> Decimal:
    # Rounded half up, as floatformat prints it.
    return Decimal(repr(points)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)


def expected_as_shown(expected: float, loss: float) -> Decimal:
    """A choice's expected total as a rating prints it: the best's, as printed, less the loss
    as printed. Each rounded alone, best 250.16 (250.2) less 224.94 (224.9) read as a loss
    of 25.2 beside them, and a player doing the sum found 25.3. The figure moves by a
    tenth at most; the loss, which the coach says too, stays as it is."""
    # Under half a hundredth (the best, or level with it but for a float's last bit) no
    # loss is printed, and none is taken off.
    given_up = _as_shown(loss, 1 if loss >= 0.05 else 2) if loss >= 0.005 else Decimal(0)
    return _as_shown(expected + loss, 1) - given_up


def keep_label(keep: tuple[int, ...]) -> str:
    """The dice of a keep as the page lists them ("5 5 6"), or "nothing"."""
    return " ".join(map(str, keep)) if keep else _("nothing")


def keep_and_roll(keep: tuple[int, ...]) -> str:
    """A coach's button that rolls again holding `keep` (an imperative of its own: "Roll
    keeping 1 2 3 4 instead" came out ungrammatical in Finnish and Danish; a helper)."""
    return _("Keep %(dice)s and roll instead") % {"dice": keep_label(keep)}


def keep_phrase(keep: tuple[int, ...]) -> str:
    if not keep:
        return _("rerolling all five")
    return _("keeping %(dice)s") % {"dice": keep_label(keep)}


@dataclass(frozen=True)
class BoxAdvice:
    expected: float
    loss: float
    to_win: float | None = None  # the last box's share of first place (`rate_boxes`)

    @property
    def final(self) -> int:
        """The final total, on the last turn, where the expected total is the total."""
        return round(self.expected)

    @property
    def to_win_shown(self) -> str:
        assert self.to_win is not None, "shown on the last turn only"
        return percent(self.to_win, 0)

    @property
    def is_best(self) -> bool:
        return self.loss < 1e-9

    @property
    def shown_expected(self) -> Decimal:
        return expected_as_shown(self.expected, self.loss)


@dataclass(frozen=True)
class KeepAdvice:
    """Dice to keep before a reroll, the expected final total, and the loss against the best."""

    keep: tuple[int, ...]
    expected: float
    loss: float

    @property
    def is_best(self) -> bool:
        return self.loss < 1e-9

    @property
    def shown_expected(self) -> Decimal:
        return expected_as_shown(self.expected, self.loss)

    @property
    def label(self) -> str:
        return keep_button_label(self.keep)


def keep_button_label(keep: tuple[int, ...]) -> str:
    # Not "score now": with two rolls left, keeping all five still leaves the next roll's
    # choice, and its value is that of the dice with one roll fewer, above scoring now.
    if len(keep) == rules.DICE_COUNT:
        return _("Keep all five")
    return _("Keep %(dice)s") % {"dice": keep_label(keep)} if keep else _("Reroll all five")


@dataclass(frozen=True)
class CoachNote:
    """The coach's word on a box about to be filled that gives up too much: against the best
    box for the dice, or (`keep`, the digital game with rolls left) against rolling again
    holding the dice at `hold`, positions on the table."""

    box: rules.Box
    loss: float
    best: rules.Box
    keep: tuple[int, ...] | None = None
    hold: list[int] = field(default_factory=list)
    # On the game's last turn: the chance to win now, and rolling again holding `keep`.
    chances: tuple[float, float] | None = None

    @property
    def rolls(self) -> bool:
        """Whether the coach's own choice is a roll (holding `keep`, maybe no die), not a box."""
        return self.keep is not None

    def __str__(self) -> str:
        names = {"box": box_name(self.box), "loss": points_given_up(self.loss)}
        if self.chances is not None and self.keep is not None:
            now, again = self.chances
            names |= {"keeping": keep_phrase(self.keep), "now": percent(now)}
            return _(
                "Coach: on the last turn, %(box)s now wins %(now)s of the time; rolling again "
                "(%(keeping)s) wins %(again)s."
            ) % {"again": percent(again), **names}
        if self.keep:
            return _(
                "Coach: %(box)s now gives up %(loss)s points on average against rolling "
                "again, keeping %(dice)s."
            ) % {"dice": keep_label(self.keep), **names}
        if self.rolls:
            return (
                _(
                    "Coach: %(box)s now gives up %(loss)s points on average against rolling every "
                    "die again."
                )
                % names
            )
        return _(
            "Coach: %(box)s here gives up %(loss)s points on average against %(best)s, the "
            "best box for these dice."
        ) % {"best": box_name(self.best), **names}

    @property
    def instead(self) -> str:
        """The coach's own choice, as its button says it."""
        if self.keep:
            return keep_and_roll(self.keep)
        if self.rolls:
            return _("Reroll every die instead")
        return _("%(best)s instead") % {"best": box_name(self.best)}


@dataclass(frozen=True)
class HoldCoachNote:
    """The coach's word on dice about to be held (the digital game) that give up too much;
    the holds are positions on the table. On the game's last turn against finished rivals
    it is the chance to win that is given up: `chances` are the chosen keep's and the best's
    (the coach judged points there, and spoke against the keep that wins most often)."""

    chosen: tuple[int, ...]
    best: tuple[int, ...]
    loss: float
    chosen_hold: list[int]
    best_hold: list[int]
    chances: tuple[float, float] | None = None

    def __str__(self) -> str:
        if self.chances is not None:
            chosen_chance, best_chance = self.chances
            return _(
                "Coach: on the last turn %(chosen)s wins %(chosen_chance)s of the time, "
                "%(best)s %(best_chance)s."
            ) % {
                "chosen": keep_phrase(self.chosen),
                "chosen_chance": percent(chosen_chance),
                "best": keep_phrase(self.best),
                "best_chance": percent(best_chance),
            }
        return _("Coach: %(chosen)s gives up %(loss)s points on average against %(best)s.") % {
            "chosen": keep_phrase(self.chosen),
            "loss": points_given_up(self.loss),
            "best": keep_phrase(self.best),
        }


@dataclass(frozen=True)
class PlayToWin:
    """The last turn against finished rivals: the keep that wins most often, and the keep
    for the most points with its own chance of winning (worth showing when they differ)."""

    to_win: tuple[tuple[int, ...], float]
    for_points: tuple[tuple[int, ...], float]

    @property
    def differ(self) -> bool:
        """Whether the keep for points wins less often (another keep that wins as often is
        no different to the player)."""
        return self.for_points[1] < self.to_win[1] - SETTLED

    @property
    def to_win_label(self) -> str:
        return keep_button_label(self.to_win[0])

    @property
    def for_points_label(self) -> str:
        return keep_button_label(self.for_points[0])

    @property
    def to_win_chance(self) -> str:
        return percent(self.to_win[1])

    @property
    def for_points_chance(self) -> str:
        return percent(self.for_points[1])


def last_turn_note(name: str, chance: float) -> tuple[str, bool]:
    """What the last turn can still decide for `name`, whose chance to finish first playing
    to win is `chance`, said before the roll; and whether playing to win still matters (not
    when every roll wins, or none does)."""
    if chance > 1 - SETTLED:
        return _("The last turn: %(name)s has won already, whatever the dice.") % {
            "name": name
        }, False
    if chance < SETTLED:
        return _("The last turn: no dice can bring %(name)s to first place now.") % {
            "name": name
        }, False
    # Said as the turn begins and kept through its rolls: the keeps give the chance after each.
    note = _(
        "The last turn: playing to win. %(name)s’s chance to finish first as the turn began: "
        "%(chance)s."
    )
    return note % {"name": name, "chance": percent(chance)}, True
