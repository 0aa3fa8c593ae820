"""Each player's chance of finishing first, if everyone plays for points optimally from here
(numpy, no Django).

Players' remaining games are independent, so the chances follow from each player's
distribution of final totals. A player with at most `EXACT_OPEN` boxes open has it exactly
(`distribution.remaining_distribution`: every roll of every remaining turn, following the
policy). Anyone else gets two normal parts, with and without a Yahtzee rolled from here,
each with its exact weight, mean and variance under the optimal policy
(`distribution.split`), rounded to whole points and cut at what the card can still score.
First place shared by a tie counts as a share: two level players get half each.

A Yatzy card (forced or not) asks its family's strategy the same questions
(`distribution.family_remaining_distributions`, `distribution.family_split`: its two parts are
with and without the upper bonus).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from scorecard.engine import distribution, rules, strategy
from scorecard.engine.rules import Box, HouseRules, JokerRule
from scorecard.engine.strategy import FamilyStrategy, Values

EXACT_OPEN = 3
NORMAL_KEPT = 1_024  # states' distributions kept between requests: up to 8 KB each


@dataclass(frozen=True)
class Position:
    """One player's card as the chances need it."""

    filled: Mapping[Any, int]  # the boxes of the house's family
    extra_yahtzees: int = 0
    house: HouseRules[Any] = rules.STANDARD

    @property
    def total(self) -> int:
        return self.house.totals(self.filled, self.extra_yahtzees).total

    @property
    def open_boxes(self) -> int:
        return len(self.house.boxes) - len(self.filled)

    @property
    def solver(self) -> FamilyStrategy | None:
        """The strategy of a family without jokers (Yatzy); None for Yahtzee."""
        if self.house.family.has_jokers:
            return None
        return strategy.family_strategy(self.house)

    def state(self) -> int:
        """The card's state index in its strategy's table."""
        if self.solver:
            return int(self.solver.state_index(*self.solver.state_of(self.filled)))
        return int(strategy.state_index(*strategy.state_of(self.filled)))


@dataclass(frozen=True)
class Chances:
    chances: list[float]
    exact: bool  # every distribution exact, so the chances are too


def final_totals(
    position: Position, joker: JokerRule, exact: Values | None = None
) -> tuple[int, Values, bool]:
    """(lowest final total, chances of that total and each one above it, exact?); `exact`
    is the exact distribution still to come when it was worked out already."""
    if position.open_boxes == 0:
        return position.total, np.array([1.0]), True
    solver = position.solver
    if position.open_boxes <= EXACT_OPEN:
        if exact is None:
            exact = _exact([position], joker)[0]
        return position.total, exact, True
    if solver:
        top = _family_most_still_possible(position)
    else:
        top = most_still_possible(position.filled, joker)
    low, chances = _still_to_come(position.house, joker, position.state(), top)
    return position.total + low, chances, False


@lru_cache(maxsize=NORMAL_KEPT)
def _still_to_come(
    house: HouseRules[Any], joker: JokerRule, state: int, top: int
) -> tuple[int, Values]:
    """(lowest points still to come, chances of it and each above it) from a state, by its
    normal parts. A new version changes one player's card, so the Win column finds every
    other player's kept here (a few KB each), as it finds the exact late-game ones kept."""
    if house.family.has_jokers:
        parts = distribution.split(joker, state)
    else:
        parts = distribution.family_split(strategy.family_strategy(house), state)
    low, high = _within_reach(parts, top)
    chances = np.zeros(high - low + 1)
    for part in parts:
        chances += part.weight * _rounded_normal(part.mean, part.variance, low, high)
    chances.flags.writeable = False  # shared by every game that reaches the state
    return low, chances


def _within_reach(parts: list[Any], top: int) -> tuple[int, int]:
    """The totals still to come where any part's chance is above nothing: beyond
    `CDF_REACH` standard deviations the table's distribution function is flat, so every
    chance there is 0. Early in a game `top` counts an extra Yahtzee on every turn (about
    1,500) while the parts lie within a few hundred points: the chances, and every rival's
    product below, are worked out on that much less."""
    reach = CDF_REACH + 1
    low = min(math.floor(p.mean - reach * math.sqrt(p.variance)) for p in parts)
    high = max(math.ceil(p.mean + reach * math.sqrt(p.variance)) for p in parts)
    low = min(max(0, low), top)
    return low, max(low, min(top, high))


def _exact(positions: list[Position], joker: JokerRule) -> list[Values]:
    """The exact distributions still to come of late positions, all of one house's rules."""
    if not positions:
        return []
    solver = positions[0].solver
    states = [position.state() for position in positions]
    if solver:
        return distribution.family_remaining_distributions(solver, states)
    return distribution.remaining_distributions(states, joker)


def _family_most_still_possible(position: Position) -> int:
    """An upper bound of the points a family's card can still score: each open box at its
    most, and the upper bonus while it can come."""
    house = position.house
    open_boxes = [box for box in house.boxes if box not in position.filled]
    most = sum(house.max_points(box) for box in open_boxes)
    upper = sum(points for box, points in position.filled.items() if box.is_upper)
    if upper < house.upper_bonus.threshold and any(box.is_upper for box in open_boxes):
        most += house.upper_bonus.points
    return most


def _rounded_normal(mean: float, variance: float, low: int, high: int) -> Values:
    """A normal distribution on the whole numbers `low` to `high` (the tails folded onto
    them)."""
    sd = math.sqrt(variance) or 1e-9
    edges = _normal_cdf((np.arange(low, high + 2) - 0.5 - mean) / sd)
    chances = np.diff(edges)
    chances[0] += edges[0]
    chances[-1] += 1 - edges[-1]
    return chances


def _normal_cdf(z: Values) -> Values:
    """The standard normal distribution function, interpolated in a table of it (within
    1e-8 of `math.erf`'s): asking `math.erf` of every whole total of every player was half
    of an 8-player Win column's time."""
    grid, table = _normal_cdf_table()
    cdf: Values = np.interp(z, grid, table)
    return cdf


CDF_REACH = 10  # beyond 10 standard deviations the distribution function is 0 or 1 to 1e-23


@cache
def _normal_cdf_table() -> tuple[Values, Values]:
    grid = np.linspace(-CDF_REACH, CDF_REACH, 2 * CDF_REACH * 2**11 + 1)  # steps of 1/2,048
    # `math.erf` over the array without a Python list between (half the time of a first Win
    # column's 16 ms here); the same numbers.
    erf = np.asarray(np.frompyfunc(math.erf, 1, 1)(grid / math.sqrt(2)), dtype=np.float64)
    table: Values = 0.5 * (1 + erf)
    return grid, table


@cache
def _most_in(box: Box) -> int:
    return max(rules.achievable_points(box))


def most_still_possible(filled: Mapping[Box, int], joker: JokerRule) -> int:
    """An upper bound of the points a card can still score: each open box at its most, the
    upper bonus while it can come, and an extra-Yahtzee bonus on every remaining turn."""
    open_boxes = [box for box in Box if box not in filled]
    most = sum(_most_in(box) for box in open_boxes)
    upper = sum(points for box, points in filled.items() if box.is_upper)
    if upper < rules.UPPER_BONUS_THRESHOLD and any(box.is_upper for box in open_boxes):
        most += rules.UPPER_BONUS
    if joker is not JokerRule.NONE and filled.get(Box.YAHTZEE, rules.YAHTZEE_POINTS) != 0:
        extra_turns = len(open_boxes) - (Box.YAHTZEE not in filled)
        most += rules.EXTRA_YAHTZEE_BONUS * max(0, extra_turns)
    return most


def win_chances(positions: list[Position], joker: JokerRule) -> Chances:
    """Each player's chance of finishing first, a tie shared, in the order given."""
    late = [p for p in positions if 0 < p.open_boxes <= EXACT_OPEN]
    exact = dict(zip(map(id, late), _exact(late, joker), strict=True))
    finals = [final_totals(position, joker, exact.get(id(position))) for position in positions]
    low = min(start for start, _, _ in finals)
    high = max(start + len(chances) for start, chances, _ in finals)
    grids = np.zeros((len(finals), high - low))
    for row, (start, chances, _) in enumerate(finals):
        grids[row, start - low : start - low + len(chances)] = chances
    below = np.cumsum(grids, axis=1) - grids  # P(total < k)
    # A player finishing on k wins when every rival is below k, and shares first place with
    # the m rivals level at k: 1/(m+1) of it. With t standing for "level", the product over
    # rivals of (below + equal·t) has as coefficient of t^m the chance that every rival is at
    # most k and m are level, and 1/(m+1) is the integral of t^m from 0 to 1: the player's
    # share at k is the integral of that product. It is a polynomial of degree players - 1,
    # so Gauss-Legendre's rule with half as many nodes integrates it exactly.
    nodes, weights = _gauss_legendre((len(finals) + 1) // 2)
    factors = below[:, None] + grids[:, None] * nodes[:, None]  # (player, node, total)
    others = _products_of_the_others(factors)
    level_shares = np.tensordot(others, weights, axes=([1], [0]))  # (player, total)
    shares = (grids * level_shares).sum(axis=1)
    return Chances([_settled(float(s)) for s in shares], all(exact for _, _, exact in finals))


def on_the_last_turn(chance: float, rivals: list[int]) -> list[float]:
    """The finished rivals' chances when the last player, playing to win, finishes first
    with `chance` (a tie's share counted in it): every final roll that is no win goes to the
    rivals level at the top, shared alike, and a tie gives each of them the share it gives
    the last player. The others cannot be first."""
    best = max(rivals)
    level = rivals.count(best)
    return [(1 - chance) / level if total == best else 0.0 for total in rivals]


@cache
def _gauss_legendre(count: int) -> tuple[Values, Values]:
    """Nodes and weights on [0, 1] that integrate a polynomial of degree 2·count - 1 exactly."""
    nodes, weights = np.polynomial.legendre.leggauss(count)
    return (nodes + 1) / 2, weights / 2


def _products_of_the_others(factors: Values) -> Values:
    """Along the first axis, the product of every factor but each one's own (from the
    products before it and after it: no division, so a factor of 0 is no trouble)."""
    before = np.empty_like(factors)
    after = np.empty_like(factors)
    before[0] = after[-1] = 1.0
    np.cumprod(factors[:-1], axis=0, out=before[1:])
    np.cumprod(factors[:0:-1], axis=0, out=after[-2::-1])
    others: Values = before * after
    return others


def _settled(share: float) -> float:
    """Rounding in the sums leaves a certain 1 as 0.9999999999999999: call it 1 (and 0, 0)."""
    return 1.0 if share > 1 - 1e-12 else 0.0 if share < 1e-12 else share


def simulated_chances(
    positions: list[Position], joker: JokerRule, games: int, seed: int
) -> list[float]:
    """The same chances from `games` seeded simulated games of optimal play per player: the
    check of `win_chances` (tests and bench/win_chance_check.py)."""
    totals = []
    for number, position in enumerate(positions):
        if position.open_boxes == 0:
            totals.append(np.full(games, float(position.total)))
            continue
        if position.solver:
            scores = distribution.simulate_family(
                position.solver, games, seed + number, position.state()
            )
        else:
            scores = distribution.simulate(joker, position.state(), games, seed + number).scores
        totals.append(position.total + scores)
    scores = np.array(totals)
    best = scores.max(axis=0)
    leaders = scores == best
    chances: list[float] = (leaders / leaders.sum(axis=0)).mean(axis=1).tolist()
    return chances
