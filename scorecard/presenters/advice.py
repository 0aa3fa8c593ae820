"""Advice as the page says it: a box's and a keep's rating, the coach's word, playing to win
the last turn, and chances as people read them. Nothing here asks the engine (that is
`presenters.advisor`); these are the words and numbers it hands over.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorecard.engine import rules

TRIPLE_HAS_NONE = (
    "No advice for Triple Yahtzee: three cards at once make too many positions to solve exactly."
)
NO_ADVICE_FOR = (
    "No advice for {family}: six dice make far too many positions to solve exactly here, "
    "and a guess is not advice."
)
NOT_READY = (
    "Advice is not ready yet: this server has not built the strategy tables for this rule "
    "(manage.py build_strategy)."
)
WIN_NOTE = (
    "Win: each player’s chance of finishing first if everyone plays for points optimally "
    "from here (a tie counts as a share)."
)

# The exact chances carry rounding error: this close to 0 or 1, the result is settled.
SETTLED = 1e-9


def percent(chance: float, digits: int = 1) -> str:
    """A chance as people read it ("12.3%", or "37%" with no digits), and never a rounded
    0% or 100% that is not exact: "<0.1%", ">99.9%"."""
    least = 10.0 ** -(digits + 2)  # the smallest step shown: 0.1% with one digit
    if 0 < chance < least / 2:
        return f"<{least:.{digits}%}"
    if 1 - least / 2 < chance < 1:
        return f">{1 - least:.{digits}%}"
    return f"{chance:.{digits}%}"


def keep_label(keep: tuple[int, ...]) -> str:
    """The dice of a keep as the page lists them ("5 5 6"), or "nothing"."""
    return " ".join(map(str, keep)) if keep else "nothing"


def keep_phrase(keep: tuple[int, ...]) -> str:
    return f"keeping {keep_label(keep)}" if keep else "rerolling all five"


@dataclass(frozen=True)
class BoxAdvice:
    expected: float
    loss: float

    @property
    def is_best(self) -> bool:
        return self.loss < 1e-9


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
    def label(self) -> str:
        return keep_button_label(self.keep)


def keep_button_label(keep: tuple[int, ...]) -> str:
    if len(keep) == rules.DICE_COUNT:
        return "Keep all five: score now"
    return f"Keep {keep_label(keep)}" if keep else "Reroll all five"


@dataclass(frozen=True)
class CoachNote:
    """The coach's word on a box about to be filled that gives up too much."""

    box: rules.Box
    loss: float
    best: rules.Box

    def __str__(self) -> str:
        return (
            f"Coach: {self.box.label} here gives up {self.loss:.1f} points on average "
            f"against {self.best.label}, the best box for these dice."
        )


@dataclass(frozen=True)
class HoldCoachNote:
    """The coach's word on dice about to be held (the digital game) that give up too much;
    the holds are positions on the table."""

    chosen: tuple[int, ...]
    best: tuple[int, ...]
    loss: float
    chosen_hold: list[int]
    best_hold: list[int]

    @property
    def best_label(self) -> str:
        return keep_phrase(self.best)

    def __str__(self) -> str:
        return (
            f"Coach: {keep_phrase(self.chosen)} gives up {self.loss:.1f} points on average "
            f"against {keep_phrase(self.best)}."
        )


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
        return f"The last turn: {name} has won already, whatever the dice.", False
    if chance < SETTLED:
        return f"The last turn: no dice can bring {name} to first place now.", False
    note = f"The last turn: playing to win, {name}’s chance to finish first is {percent(chance)}."
    return note, True
