"""Advice from the optimal solitaire strategy: which box, which dice to keep, and how far
each decision of a finished game fell short. It maximises the player's own expected score.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.core.cache import cache

from scorecard.engine import distribution, rules, strategy, win_chances
from scorecard.game.progress import CardProgress, GameProgress

COOKIE = "advice"  # this browser's choice of SETTINGS; purists play without advice
# Always: every box and keep rated. Coach: quiet until a box chosen loses at least that
# many points on average, then it asks once before the box is written.
COACH_LOSSES = ("0.5", "1", "2", "5")
SETTINGS = {"off": "Off", "on": "Always"} | {
    f"coach-{loss}": f"Coach: a loss of {loss}+" for loss in COACH_LOSSES
}


def setting(request) -> str:
    chosen = request.COOKIES.get(COOKIE, "off")
    return chosen if chosen in SETTINGS else "off"


def wanted(request) -> bool:
    """Whether this browser wants every choice rated (advice "always")."""
    return setting(request) == "on"


def coach_threshold(chosen: str) -> float | None:
    """The loss at which the coach speaks up, when this browser chose the coach (`chosen` is
    one of SETTINGS)."""
    return float(chosen.removeprefix("coach-")) if chosen.startswith("coach-") else None


@dataclass(frozen=True)
class BoxAdvice:
    expected: float
    loss: float

    @property
    def is_best(self) -> bool:
        return self.loss < 1e-9


def advice_available(progress: GameProgress) -> bool:
    """Whether advice can be given now, without building anything in the request."""
    return unavailable_because(progress) == ""


def unavailable_because(progress: GameProgress) -> str:
    """Why there is no advice for this game, or "" when there is."""
    if progress.game.cards_per_player != 1:
        return TRIPLE_HAS_NONE
    if not strategy.is_ready(progress.game.joker_rule):
        return NOT_READY
    return ""


def win_chances_shown(progress: GameProgress) -> bool:
    """Whether the standings can show each player's chance to win: a one-card game of two to
    eight players whose rule has its policy tables built."""
    game = progress.game
    return (
        game.cards_per_player == 1
        and len(progress.seats) >= 2
        and distribution.is_ready(game.joker_rule)
    )


WIN_NOTE = (
    "Win: each player’s chance of finishing first if everyone plays for points optimally "
    "from here (a tie counts as a share)."
)


def win_column(progress: GameProgress) -> dict[int, str]:
    """Each seat's chance to win as the standings show it, by seat id; cached per version."""
    game = progress.game
    key = f"win-chances:{game.pk}:{game.version}"
    shown = cache.get(key)
    if shown is None:
        chances = _chances(progress.seats, game.joker_rule)
        seats = progress.seats
        shown = {s.seat.pk: percent(c, digits=0) for s, c in zip(seats, chances, strict=True)}
        cache.set(key, shown, 60 * 60)
    return shown


def _chances(seats, joker, cards=None) -> list[float]:
    positions = [
        win_chances.Position(dict(card.filled), card.extra_yahtzees)
        for card in (cards or [seat.cards[0] for seat in seats])
    ]
    return win_chances.win_chances(positions, joker).chances


def win_chance_series(progress: GameProgress) -> dict[str, list[int]]:
    """Each player's chance to win (in whole percent) before the first entry and after every
    entry of the game: what the review charts."""
    cards = {seat.seat.pk: CardProgress(1) for seat in progress.seats}
    joker = progress.game.joker_rule
    series: dict[str, list[int]] = {seat.player.name: [] for seat in progress.seats}

    def record() -> None:
        chances = _chances(progress.seats, joker, [cards[s.seat.pk] for s in progress.seats])
        for seat, chance in zip(progress.seats, chances, strict=True):
            series[seat.player.name].append(round(100 * chance))

    record()
    for entry in progress.entries:
        cards[entry.seat_id].add(entry)
        record()
    return series


TRIPLE_HAS_NONE = (
    "No advice for Triple Yahtzee: three cards at once make too many positions to solve exactly."
)
NOT_READY = (
    "Advice is not ready yet: this server has not built the strategy tables for this rule "
    "(manage.py build_strategy)."
)


def rate_boxes(card, dice, joker: rules.JokerRule) -> dict[rules.Box, BoxAdvice]:
    rated = strategy.rate_boxes(card.filled, dice, joker, extra_yahtzees=card.extra_yahtzees)
    best = max(rated.values())
    return {box: BoxAdvice(value, best - value) for box, value in rated.items()}


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


def coach_objection(card, dice, box: rules.Box, joker, threshold: float) -> CoachNote | None:
    """A note when filling `box` with these dice loses at least `threshold` expected points;
    None when the choice is good enough (or not legal: the rules will say why)."""
    rated = rate_boxes(card, dice, joker)
    if box not in rated or rated[box].loss < threshold:
        return None
    best = min(rated, key=lambda choice: rated[choice].loss)
    return CoachNote(box, rated[box].loss, best)


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
        return _keep_phrase(self.best)

    def __str__(self) -> str:
        return (
            f"Coach: {_keep_phrase(self.chosen)} gives up {self.loss:.1f} points on average "
            f"against {_keep_phrase(self.best)}."
        )


def _keep_phrase(keep: tuple[int, ...]) -> str:
    return f"keeping {_keep_label(keep)}" if keep else "rerolling all five"


def coach_hold_objection(
    card, table: list[int], hold: list[int], rolls_left: int, joker, threshold: float
) -> HoldCoachNote | None:
    """A note when holding the dice at `hold` loses at least `threshold` expected points."""
    extra = card.extra_yahtzees
    ranked = strategy.rate_keeps(card.filled, table, rolls_left, joker, extra)
    chosen = tuple(sorted(table[position] for position in hold))
    best, best_value = ranked[0]
    loss = best_value - dict(ranked)[chosen]
    if loss < threshold:
        return None
    held = best_hold(card, table, rolls_left, joker, best)
    positions = [position for position, kept in enumerate(held) if kept]
    return HoldCoachNote(chosen, best, loss, sorted(hold), positions)


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
        if len(self.keep) == rules.DICE_COUNT:
            return "Keep all five: score now"
        return f"Keep {_keep_label(self.keep)}" if self.keep else "Reroll all five"


KEEPS_SHOWN = 5


def rate_keeps(card, dice, rolls_left: int, joker: rules.JokerRule) -> list[KeepAdvice]:
    """The best few sets of dice to keep from a roll with rerolls left, best first."""
    ranked = strategy.rate_keeps(
        card.filled, dice, rolls_left, joker, extra_yahtzees=card.extra_yahtzees
    )
    best = ranked[0][1]
    return [KeepAdvice(keep, value, best - value) for keep, value in ranked[:KEEPS_SHOWN]]


def rivals_on_last_turn(progress: GameProgress) -> list[int] | None:
    """The other players' final totals when the player to move takes the last turn of a
    one-card game everyone else has finished; else None (there is nobody to beat yet)."""
    current = progress.current
    if current is None or progress.game.cards_per_player != 1 or len(progress.seats) < 2:
        return None
    if len(current.cards[0].open_boxes()) != 1:
        return None
    others = [seat for seat in progress.seats if seat is not current]
    if not all(seat.cards[0].is_full for seat in others):
        return None
    return [seat.totals.total for seat in others]


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
        return KeepAdvice(self.to_win[0], 0, 0).label

    @property
    def for_points_label(self) -> str:
        return KeepAdvice(self.for_points[0], 0, 0).label

    @property
    def to_win_chance(self) -> str:
        return percent(self.to_win[1])

    @property
    def for_points_chance(self) -> str:
        return percent(self.for_points[1])


def percent(chance: float, digits: int = 1) -> str:
    """A chance as people read it ("12.3%", or "37%" with no digits), and never a rounded
    0% or 100% that is not exact: "<0.1%", ">99.9%"."""
    least = 10.0 ** -(digits + 2)  # the smallest step shown: 0.1% with one digit
    if 0 < chance < least / 2:
        return f"<{least:.{digits}%}"
    if 1 - least / 2 < chance < 1:
        return f">{1 - least:.{digits}%}"
    return f"{chance:.{digits}%}"


def play_to_win(card, dice, rolls_left: int, joker, rivals: list[int]) -> PlayToWin:
    extra = card.extra_yahtzees
    wins = strategy.rate_keeps_to_win(card.filled, dice, rolls_left, joker, extra, rivals)
    for_points = strategy.rate_keeps(card.filled, dice, rolls_left, joker, extra)[0][0]
    return PlayToWin(wins[0], (for_points, dict(wins)[for_points]))


# The exact chances carry rounding error: this close to 0 or 1, the result is settled.
SETTLED = 1e-9


def last_turn_note(name: str, card, joker, rivals: list[int]) -> tuple[str, bool]:
    """What the last turn can still decide, said before the roll, and whether playing to
    win still matters (not when every roll wins, or none does)."""
    chance = strategy.win_chance_this_turn(card.filled, joker, card.extra_yahtzees, rivals)
    if chance > 1 - SETTLED:
        return f"The last turn: {name} has won already, whatever the dice.", False
    if chance < SETTLED:
        return f"The last turn: no dice can bring {name} to first place now.", False
    note = f"The last turn: playing to win, {name}’s chance to finish first is {percent(chance)}."
    return note, True


def best_hold(
    card, table: list[int], rolls_left: int, joker: rules.JokerRule, keep=None
) -> list[bool]:
    """Which of the dice on the table to hold: `keep`, else the best for expected total."""
    if keep is None:
        extra = card.extra_yahtzees
        keep = strategy.rate_keeps(card.filled, table, rolls_left, joker, extra)[0][0]
    keep = list(keep)
    held = []
    for face in table:
        held.append(face in keep)
        if face in keep:
            keep.remove(face)
    return held


@dataclass
class Decision:
    turn: int
    kind: str  # "box" or "keep"
    chosen: str
    best: str
    loss: float


@dataclass
class PlayerLosses:
    name: str
    decisions: list[Decision] = field(default_factory=list)

    @property
    def total(self) -> float:
        return sum(decision.loss for decision in self.decisions)

    @property
    def mean(self) -> float:
        return self.total / len(self.decisions) if self.decisions else 0.0

    @property
    def biggest_first(self) -> list[Decision]:
        """The decisions, the costliest mistake first (then in the order they were made)."""
        return sorted(
            self.decisions, key=lambda decision: (-round(decision.loss, 9), decision.turn)
        )


def _keep_label(keep) -> str:
    return " ".join(map(str, keep)) if keep else "nothing"


def decision_losses(progress: GameProgress, rolls_by_turn: dict) -> list[PlayerLosses]:
    """Every box choice made with known dice, and every hold of a digital game, against the
    optimal choice from the same position."""
    joker = progress.game.joker_rule
    cards: defaultdict[int, dict[rules.Box, int]] = defaultdict(dict)
    extras: defaultdict[int, int] = defaultdict(int)
    losses = {seat.seat.pk: PlayerLosses(seat.player.name) for seat in progress.seats}
    for entry in progress.entries:
        filled, extra = cards[entry.seat_id], extras[entry.seat_id]
        rolls = rolls_by_turn.get(entry.turn, [])
        for before, after in zip(rolls, rolls[1:], strict=False):
            rolls_left = rules.ROLLS_PER_TURN - before.number
            ranked = strategy.rate_keeps(filled, before.faces, rolls_left, joker, extra)
            held = tuple(
                sorted(f for f, h in zip(before.faces, after.held_positions, strict=True) if h)
            )
            values = dict(ranked)
            losses[entry.seat_id].decisions.append(
                Decision(entry.turn, "keep", _keep_label(held), _keep_label(ranked[0][0]),
                         ranked[0][1] - values[held])
            )  # fmt: skip
        if dice := entry.dice_tuple:
            rated = strategy.rate_boxes(filled, dice, joker, extra)
            best = max(rated, key=rated.__getitem__)
            chosen = rated.get(entry.rules_box, rated[best])
            losses[entry.seat_id].decisions.append(
                Decision(entry.turn, "box", entry.rules_box.label, best.label, rated[best] - chosen)
            )
        filled[entry.rules_box] = entry.points
        extras[entry.seat_id] += entry.yahtzee_bonus
    return list(losses.values())
