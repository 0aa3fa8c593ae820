"""Advice asked of the engine for a game's position: whether it can be given, each box's and
each keep's rating, the coach's objections, the dice to hold, playing to win the last turn,
and each player's chance to win (kept in the cache per version: it is the dearest).
It maximises the player's own expected score; `presenters.advice` words what it finds.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache import cache

from scorecard.engine import distribution, rules, strategy, win_chances
from scorecard.game.progress import CardProgress, GameProgress, SeatProgress
from scorecard.presenters.advice import (
    NOT_READY,
    TRIPLE_HAS_NONE,
    BoxAdvice,
    CoachNote,
    HoldCoachNote,
    KeepAdvice,
    PlayToWin,
    last_turn_note,
    percent,
)

KEEPS_SHOWN = 5
WIN_COLUMN_SECONDS = 60 * 60


def advice_available(progress: GameProgress) -> bool:
    """Whether advice can be given now, without building anything in the request."""
    return unavailable_because(progress) == ""


def unavailable_because(progress: GameProgress) -> str:
    """Why there is no advice for this game, or "" when there is."""
    family = progress.game.house_rules.family
    if not family.has_advice:
        return no_advice_for(family.name)
    if not family.has_jokers:  # Yatzy: its advisor is not wired to the page yet
        return NOT_READY
    if progress.game.cards_per_player != 1:
        return TRIPLE_HAS_NONE
    if not strategy.is_ready(progress.game.joker_rule):
        return NOT_READY
    return ""


def no_advice_for(name: str) -> str:
    return (
        f"There is no advice for {name}: its exact strategy is too large to work out "
        "on this server, and we give no guesses in its place."
    )


def win_chances_shown(progress: GameProgress) -> bool:
    """Whether the standings can show each player's chance to win: a one-card game of two to
    eight players whose rule has its policy tables built."""
    game = progress.game
    return (
        game.house_rules.family.has_jokers  # the only family whose tables are wired yet
        and game.cards_per_player == 1
        and len(progress.seats) >= 2
        and distribution.is_ready(game.joker_rule)
    )


def win_column(progress: GameProgress) -> dict[int, str]:
    """Each seat's chance to win as the standings show it, by seat id; cached per version."""
    game = progress.game
    key = f"win-chances:{game.pk}:{game.version}"
    shown = cache.get(key)
    if shown is None:
        seats = progress.seats
        chances = chances_to_win([seat.cards[0] for seat in seats], game.joker_rule)
        shown = {s.seat.pk: percent(c, digits=0) for s, c in zip(seats, chances, strict=True)}
        cache.set(key, shown, WIN_COLUMN_SECONDS)
    return shown


def chances_to_win(cards: list[CardProgress], joker: rules.JokerRule) -> list[float]:
    """Each card's chance to finish first, in the order given, if everyone plays for points."""
    positions = [win_chances.Position(dict(card.filled), card.extra_yahtzees) for card in cards]
    return win_chances.win_chances(positions, joker).chances


def rate_boxes(
    card: CardProgress, dice: Sequence[int], joker: rules.JokerRule
) -> dict[rules.Box, BoxAdvice]:
    rated = strategy.rate_boxes(card.filled, dice, joker, extra_yahtzees=card.extra_yahtzees)
    best = max(rated.values())
    return {box: BoxAdvice(value, best - value) for box, value in rated.items()}


def rate_keeps(
    card: CardProgress, dice: Sequence[int], rolls_left: int, joker: rules.JokerRule
) -> list[KeepAdvice]:
    """The best few sets of dice to keep from a roll with rerolls left, best first."""
    ranked = strategy.rate_keeps(
        card.filled, dice, rolls_left, joker, extra_yahtzees=card.extra_yahtzees
    )
    best = ranked[0][1]
    return [KeepAdvice(keep, value, best - value) for keep, value in ranked[:KEEPS_SHOWN]]


def coach_objection(
    card: CardProgress,
    dice: Sequence[int],
    box: rules.Box,
    joker: rules.JokerRule,
    threshold: float,
) -> CoachNote | None:
    """A note when filling `box` with these dice loses at least `threshold` expected points;
    None when the choice is good enough (or not legal: the rules will say why)."""
    rated = rate_boxes(card, dice, joker)
    if box not in rated or rated[box].loss < threshold:
        return None
    best = min(rated, key=lambda choice: rated[choice].loss)
    return CoachNote(box, rated[box].loss, best)


def coach_hold_objection(
    card: CardProgress,
    table: list[int],
    hold: list[int],
    rolls_left: int,
    joker: rules.JokerRule,
    threshold: float,
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


def best_hold(
    card: CardProgress,
    table: list[int],
    rolls_left: int,
    joker: rules.JokerRule,
    keep: tuple[int, ...] | None = None,
) -> list[bool]:
    """Which of the dice on the table to hold: `keep`, else the best for expected total."""
    if keep is None:
        extra = card.extra_yahtzees
        keep = strategy.rate_keeps(card.filled, table, rolls_left, joker, extra)[0][0]
    left = list(keep)
    held = []
    for face in table:
        held.append(face in left)
        if face in left:
            left.remove(face)
    return held


def rivals_on_last_turn(progress: GameProgress) -> list[int] | None:
    """The other players' final totals when the player to move takes the last turn of a
    one-card game everyone else has finished; else None (there is nobody to beat yet)."""
    current = progress.current
    if current is None or progress.game.cards_per_player != 1 or len(progress.seats) < 2:
        return None
    if len(current.cards[0].open_boxes()) != 1:
        return None
    others: list[SeatProgress] = [seat for seat in progress.seats if seat is not current]
    if not all(seat.cards[0].is_full for seat in others):
        return None
    return [seat.totals.total for seat in others]


def last_turn(
    name: str, card: CardProgress, joker: rules.JokerRule, rivals: list[int]
) -> tuple[str, bool]:
    """What the last turn can still decide, said before the roll, and whether playing to
    win still matters (not when every roll wins, or none does)."""
    chance = strategy.win_chance_this_turn(card.filled, joker, card.extra_yahtzees, rivals)
    return last_turn_note(name, chance)


def play_to_win(
    card: CardProgress,
    dice: Sequence[int],
    rolls_left: int,
    joker: rules.JokerRule,
    rivals: list[int],
) -> PlayToWin:
    extra = card.extra_yahtzees
    wins = strategy.rate_keeps_to_win(card.filled, dice, rolls_left, joker, extra, rivals)
    for_points = strategy.rate_keeps(card.filled, dice, rolls_left, joker, extra)[0][0]
    return PlayToWin(wins[0], (for_points, dict(wins)[for_points]))
