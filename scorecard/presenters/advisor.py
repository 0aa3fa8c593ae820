"""Advice asked of the engine for a game's position: whether it can be given, each box's and
each keep's rating, the coach's objections, the dice to hold, playing to win the last turn,
and each player's chance to win (kept in the cache per version: it is the dearest).
It maximises the player's own expected score; `presenters.advice` words what it finds.

A Yahtzee game asks `strategy` by its joker rule; a Yatzy game (forced or not, with its
switches) asks `strategy.family_strategy` for its house rules. Maxi Yatzy has no advice, nor
Yahtzee in forced order (its strategy is a free card's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language

from scorecard.engine import distribution, strategy, win_chances
from scorecard.game.progress import CardProgress, GameProgress, SeatProgress
from scorecard.models import Game
from scorecard.presenters.advice import (
    FORCED_YAHTZEE_HAS_NONE,
    NO_ADVICE_FOR,
    NOT_READY,
    SETTLED,
    TRIPLE_HAS_NONE,
    WIN_NOTE,
    WIN_NOTE_LAST_TURN,
    BoxAdvice,
    CoachNote,
    HoldCoachNote,
    KeepAdvice,
    PlayToWin,
    last_turn_note,
    shares_in_percent,
)
from scorecard.presenters.box_names import family_name

KEEPS_SHOWN = 5
WIN_COLUMN_SECONDS = 60 * 60


def family_solver(game: Game) -> strategy.FamilyStrategy | None:
    """The exact strategy of a game of another family than Yahtzee; None for Yahtzee (its
    strategy is asked by joker rule)."""
    house = game.house_rules
    if house.family.has_jokers:
        return None
    return strategy.family_strategy(house)


def advice_available(progress: GameProgress) -> bool:
    """Whether advice can be given now, without building anything in the request."""
    return unavailable_because(progress) == ""


def unavailable_because(progress: GameProgress) -> str:
    """Why there is no advice for this game, or "" when there is."""
    game = progress.game
    if unsolved := _not_solved_because(game):
        return unsolved
    solver = family_solver(game)
    ready = solver.is_ready() if solver else strategy.is_ready(game.joker_rule)
    return "" if ready else str(NOT_READY)


def _not_solved_because(game: Game) -> str:
    """Why the engine has no exact strategy for this game's rules, or "" when it has one."""
    if game.cards_per_player != 1:
        return str(TRIPLE_HAS_NONE)
    house = game.house_rules
    if not house.family.has_advice:
        return NO_ADVICE_FOR % {"family": family_name(house.family)}
    if house.family.has_jokers and house.forced:  # Yahtzee's strategy is a free card's
        return str(FORCED_YAHTZEE_HAS_NONE)
    return ""


def _shares_rolls(game: Game) -> bool:
    """Challenge Yahtzee: a round's players all score the same roll. The chances to win are
    worked out for players who roll their own dice (a new user saw a player who had scored
    the round's roll at 25% against 38% and 37% for two still to score the very same dice),
    and the last turn's roll is known before it is scored: neither is shown."""
    return game.mode == Game.Mode.CHALLENGE


def win_chances_shown(progress: GameProgress) -> bool:
    """Whether the standings can show each player's chance to win: a one-card game of two to
    eight players whose rule is solved and has its policy tables built."""
    game = progress.game
    if len(progress.seats) < 2 or _not_solved_because(game) or _shares_rolls(game):
        return False
    solver = family_solver(game)
    return (
        distribution.family_is_ready(solver) if solver else distribution.is_ready(game.joker_rule)
    )


def win_note(progress: GameProgress) -> str:
    """What the Win column says, under the standings: on the last turn, the chance playing
    to win (`win_column`)."""
    if progress.current is not None and rivals_on_last_turn(progress) is not None:
        return WIN_NOTE_LAST_TURN % {"name": progress.current.player.name}
    return str(WIN_NOTE)


def win_column(progress: GameProgress) -> dict[int, str]:
    """Each seat's chance to win as the standings show it, by seat id; cached per version."""
    game = progress.game
    # Percentages are written as the phone's language writes them ("12 %" in French).
    key = f"win-chances:{get_language()}:{game.pk}:{game.version}"
    shown = cache.get(key)
    if shown is None:
        seats = progress.seats
        rivals = rivals_on_last_turn(progress)
        if rivals is None:
            chances = chances_to_win([seat.cards[0] for seat in seats], game)
        else:  # the turn is played to win, as its advice and its note say
            chances = _last_turn_chances(progress, rivals)
        shares = shares_in_percent(chances)
        shown = {seat.seat.pk: share for seat, share in zip(seats, shares, strict=True)}
        cache.set(key, shown, WIN_COLUMN_SECONDS)
    return shown


def chances_to_win(cards: list[CardProgress], game: Game) -> list[float]:
    """Each card's chance to finish first, in the order given, if everyone plays for points."""
    house = game.house_rules
    positions = [
        win_chances.Position(dict(card.filled), card.extra_yahtzees, house) for card in cards
    ]
    return win_chances.win_chances(positions, game.joker_rule).chances


def rate_boxes(
    card: CardProgress, dice: Sequence[int], game: Game, rivals: list[int] | None = None
) -> dict[Any, BoxAdvice]:
    """Each open box's expected final total with these dice, and how far it falls short of
    the best; on the game's last turn against finished `rivals`, each box's share of first
    place too (the box's hint spoke of the chance to win while it said points; a helper)."""
    solver = family_solver(game)
    filled: Any = card.filled  # the boxes of the game's own family
    rated: dict[Any, float]
    if solver:
        rated = solver.rate_boxes(filled, dice)
    else:
        rated = strategy.rate_boxes(filled, dice, game.joker_rule, card.extra_yahtzees)
    best = max(rated.values())
    if rivals:  # the last box: its expected final total is the final total
        return {
            box: BoxAdvice(value, best - value, strategy.share_of_first(round(value), rivals))
            for box, value in rated.items()
        }
    return {box: BoxAdvice(value, best - value) for box, value in rated.items()}


def ranked_keeps(
    card: CardProgress, dice: Sequence[int], rolls_left: int, game: Game
) -> list[tuple[tuple[int, ...], float]]:
    """Every set of dice to keep with its expected final total, best first."""
    solver = family_solver(game)
    filled: Any = card.filled
    if solver:
        return solver.rate_keeps(filled, dice, rolls_left)
    return strategy.rate_keeps(filled, dice, rolls_left, game.joker_rule, card.extra_yahtzees)


def rate_keeps(
    card: CardProgress, dice: Sequence[int], rolls_left: int, game: Game
) -> list[KeepAdvice]:
    """The best few sets of dice to keep from a roll with rerolls left, best first."""
    ranked = ranked_keeps(card, dice, rolls_left, game)
    best = ranked[0][1]
    return [KeepAdvice(keep, value, best - value) for keep, value in ranked[:KEEPS_SHOWN]]


def coach_objection(
    card: CardProgress,
    dice: Sequence[int],
    box: Any,
    game: Game,
    threshold: float,
    rolls_left: int = 0,
) -> CoachNote | None:
    """A note when filling `box` with these dice loses at least `threshold` expected points
    against the best box, or with `rolls_left` (the digital game's dice on the table, in
    their order) against rolling again; None when the choice is good enough (or not legal:
    the rules will say why)."""
    rated = rate_boxes(card, dice, game)
    if box not in rated:
        return None
    best = min(rated, key=lambda choice: rated[choice].loss)
    note = CoachNote(box, rated[box].loss, best)
    if rolls_left:  # a tester: "Chance instead" beside a first roll that was worth rerolling
        keep, keep_value = ranked_keeps(card, dice, rolls_left, game)[0]
        if len(keep) < len(dice) and keep_value > rated[best].expected:
            held = best_hold(card, list(dice), rolls_left, game, keep)
            hold = [place for place, kept in enumerate(held) if kept]
            note = CoachNote(box, keep_value - rated[box].expected, best, keep, hold)
    return note if note.loss >= threshold else None


def coach_hold_objection(
    card: CardProgress,
    table: list[int],
    hold: list[int],
    rolls_left: int,
    game: Game,
    threshold: float,
) -> HoldCoachNote | None:
    """A note when holding the dice at `hold` loses at least `threshold` expected points."""
    ranked = ranked_keeps(card, table, rolls_left, game)
    chosen = tuple(sorted(table[position] for position in hold))
    best, best_value = ranked[0]
    loss = best_value - dict(ranked)[chosen]
    if loss < threshold:
        return None
    held = best_hold(card, table, rolls_left, game, best)
    positions = [position for position, kept in enumerate(held) if kept]
    return HoldCoachNote(chosen, best, loss, sorted(hold), positions)


def coach_objection_to_win(
    card: CardProgress,
    table: list[int],
    box: Any,
    rolls_left: int,
    game: Game,
    rivals: list[int],
    threshold: float,
) -> CoachNote | None:
    """On the game's last turn, a note when filling its last box with the dice on the table
    now gives up at least `threshold` of the chance to win against rolling again, holding
    the dice that win most often (the coach judged points there: a roll for more points
    could lose a game the dice on the table had won)."""
    now = tuple(sorted(table))  # every die kept: the dice as they are
    if short := _short_of_winning(card, table, now, rolls_left, game, rivals, threshold):
        keep, hold, chances = short
        return CoachNote(box, chances[1] - chances[0], box, keep, hold, chances=chances)
    return None


def coach_hold_objection_to_win(
    card: CardProgress,
    table: list[int],
    hold: list[int],
    rolls_left: int,
    game: Game,
    rivals: list[int],
    threshold: float,
) -> HoldCoachNote | None:
    """On the game's last turn, a note when holding the dice at `hold` gives up at least
    `threshold` of the chance to win (a fraction: the points coach's 2 is 2 percentage
    points here) against the keep that wins most often (`play_to_win`'s)."""
    chosen = tuple(sorted(table[position] for position in hold))
    if short := _short_of_winning(card, table, chosen, rolls_left, game, rivals, threshold):
        best, positions, chances = short
        loss = chances[1] - chances[0]
        return HoldCoachNote(chosen, best, loss, sorted(hold), positions, chances)
    return None


def _short_of_winning(
    card: CardProgress,
    table: list[int],
    kept: tuple[int, ...],
    rolls_left: int,
    game: Game,
    rivals: list[int],
    threshold: float,
) -> tuple[tuple[int, ...], list[int], tuple[float, float]] | None:
    """Where keeping `kept` wins at least `threshold` less often than the keep that wins
    most often: that keep, the positions on the table that hold it, and the two chances
    (`kept`'s, the best's); else None."""
    wins = _keeps_to_win(card, table, rolls_left, game, rivals)
    best, best_chance = _surest_win(wins, _keeps_by_points(card, table, rolls_left, game))
    chance = dict(wins)[kept]
    if best_chance - chance < max(threshold, SETTLED):
        return None
    held = best_hold(card, table, rolls_left, game, best)
    positions = [position for position, held_here in enumerate(held) if held_here]
    return best, positions, (chance, best_chance)


def best_hold(
    card: CardProgress,
    table: list[int],
    rolls_left: int,
    game: Game,
    keep: tuple[int, ...] | None = None,
) -> list[bool]:
    """Which of the dice on the table to hold: `keep`, else the best for expected total."""
    if keep is None:
        keep = ranked_keeps(card, table, rolls_left, game)[0][0]
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
    if _shares_rolls(progress.game):
        return None
    if len(current.cards[0].open_boxes()) != 1:
        return None
    others: list[SeatProgress] = [seat for seat in progress.seats if seat is not current]
    if not all(seat.cards[0].is_full for seat in others):
        return None
    return [seat.totals.total for seat in others]


def last_turn(name: str, card: CardProgress, game: Game, rivals: list[int]) -> tuple[str, bool]:
    """What the last turn can still decide, said before the roll, and whether playing to
    win still matters (not when every roll wins, or none does)."""
    return last_turn_note(name, _win_chance_this_turn(card, game, rivals))


def _win_chance_this_turn(card: CardProgress, game: Game, rivals: list[int]) -> float:
    """The last player's chance to finish first, playing to win, as the turn begins."""
    solver = family_solver(game)
    filled: Any = card.filled
    if solver:
        return solver.win_chance_this_turn(filled, rivals)
    return strategy.win_chance_this_turn(filled, game.joker_rule, card.extra_yahtzees, rivals)


def _last_turn_chances(progress: GameProgress, rivals: list[int]) -> list[float]:
    """Each seat's chance to finish first on the game's last turn, in seating order: the
    Win column beside the note that says the last player's (46.8%, not the 45% of a turn
    played for points)."""
    current = progress.current
    assert current is not None
    chance = _win_chance_this_turn(current.cards[0], progress.game, rivals)
    theirs = iter(win_chances.on_the_last_turn(chance, rivals))
    return [chance if seat is current else next(theirs) for seat in progress.seats]


def _keeps_to_win(
    card: CardProgress, dice: Sequence[int], rolls_left: int, game: Game, rivals: list[int]
) -> list[tuple[tuple[int, ...], float]]:
    """Every keep of `dice` with its chance to win the game, the likeliest first."""
    solver = family_solver(game)
    filled: Any = card.filled
    if solver:
        return solver.rate_keeps_to_win(filled, dice, rolls_left, rivals)
    extra, joker = card.extra_yahtzees, game.joker_rule
    return strategy.rate_keeps_to_win(filled, dice, rolls_left, joker, extra, rivals)


def play_to_win(
    card: CardProgress,
    dice: Sequence[int],
    rolls_left: int,
    game: Game,
    rivals: list[int],
) -> PlayToWin:
    wins = _keeps_to_win(card, dice, rolls_left, game, rivals)
    by_points = _keeps_by_points(card, dice, rolls_left, game)
    return PlayToWin(_surest_win(wins, by_points), (by_points[0], dict(wins)[by_points[0]]))


def _keeps_by_points(
    card: CardProgress, dice: Sequence[int], rolls_left: int, game: Game
) -> list[tuple[int, ...]]:
    return [keep for keep, _value in ranked_keeps(card, dice, rolls_left, game)]


def _surest_win(
    wins: list[tuple[tuple[int, ...], float]], by_points: list[tuple[int, ...]]
) -> tuple[tuple[int, ...], float]:
    """Of the keeps that win as often as the best (`wins`, the likeliest first), the one for
    the most points (`by_points`, the best first): keeping all five for a sure win beside
    5 5 5, as sure and more points, read as a mistake."""
    surest = [win for win in wins if win[1] > wins[0][1] - SETTLED]
    return min(surest, key=lambda win: by_points.index(win[0]))
