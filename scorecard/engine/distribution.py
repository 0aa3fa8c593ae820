"""What the optimal player's final score looks like, beyond its mean (numpy, no Django).

The optimal policy is the one `strategy` solves for: the best box for each final roll, the
best dice to keep before each reroll. Following it, one more backward pass gives for every
state the second moment of the score still to come (so its variance), and for a whole game
the chance of the upper bonus and of rolling at least one Yahtzee. Late in a game a state's
whole distribution is found exactly by following the policy through every roll of its last
turns; a seeded simulation of the policy gives percentiles and checks the rest.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any, TypedDict

import numpy as np

from scorecard.engine import strategy
from scorecard.engine.rules import JokerRule
from scorecard.engine.strategy import (
    CAP,
    DICE,
    FULL_MASK,
    KEEPS,
    MASK_SHIFT,
    ROLL_INDEX,
    STATE_COUNT,
    YAHTZEE_ROLLS,
    Flags,
    Indices,
    Numbers,
    Progress,
    Values,
    final_roll_values,
    policy_chances_in_flow_order,
    policy_roll_chances,
    state_index,
    turn_keep_choices,
)
from scorecard.engine.tables import replace_file, table_file

CHUNK = 512  # states a policy pass solves at once: a dozen arrays of a row per final roll
FORMAT = 3
PERCENTILES = (10, 25, 50, 75, 90)
SIMULATED_GAMES = 10_000
SEED = 2026


unpack = strategy.unpack


# --- Following the policy through one turn ------------------------------------------------------


def _through_turn(finals: Values) -> Callable[[Numbers], Values]:
    """The expectation over a turn of a function of its final roll (a value for every final
    roll and state of `finals`, or one that broadcasts to it), when the dice kept before
    each reroll are the best for `finals`. The turn's chances are found once and weigh each
    function as it is made, rather than carrying every function back through the keeps."""
    chances = policy_roll_chances(finals)

    def expected(channel: Numbers) -> Values:
        weighed: Values = np.einsum("rs,rs->s", chances, np.broadcast_to(channel, chances.shape))
        return weighed

    return expected


# The parts a state's score still to come is split into, by what happens from here on:
# how many times five alike are rolled (N) and, with none, whether the upper bonus comes (B).
# Each part is close to normal; their mixture follows the lumps a Yahtzee (50, then 100
# each) and the bonus (35) make. Three events are solved; the fourth part is what is left.
EVENTS = ("two_or_more", "one", "none_with_bonus")  # N >= 2 is N >= 1 less N = 1


STORED_ROWS = 1 + 3 * len(EVENTS)  # the rows a rule's policy file holds


class PolicyTables:
    """For every reachable state (a column each, by `_reachable_positions`), under the
    optimal policy, with R the score still to come: E[R²], for each event E of `EVENTS`
    ("at least one" stands in for "two or more" while solving) its chance P(E), E[R·1_E]
    and E[R²·1_E], then the chance the upper bonus is (or gets) scored. The rows a file
    stores come first, so saving writes a slice of the one array, not a copy."""

    def __init__(self) -> None:
        self.rows = np.zeros((STORED_ROWS + 1, len(strategy.all_reachable_indices())), np.float32)
        self.second = self.rows[0]
        self.events = self.rows[1:STORED_ROWS].reshape(len(EVENTS), 3, -1)
        self.bonus = self.rows[STORED_ROWS]


def _carried(
    points: Numbers,
    chance: float | Values,
    first: float | Values,
    second: float | Values,
) -> tuple[float | Values, Values, Values]:
    """An event decided later, seen from before this turn's `points`: (P, E[R·1], E[R²·1])."""
    return chance, points * chance + first, points**2 * chance + 2 * points * first + second


def solve_policy(
    joker: JokerRule, values: Values, progress: Progress | None = None
) -> PolicyTables:
    """One backward pass after `strategy.solve`, a level of open boxes at a time."""
    tables = PolicyTables()
    position = _reachable_positions()
    for fifty in (0, 1):
        full = position[state_index(FULL_MASK, np.arange(CAP + 1), fifty)]
        reached, bonus = full >= 0, np.arange(CAP + 1) >= CAP
        tables.bonus[full[reached]] = bonus[reached]
        tables.events[2, 0, full[reached]] = bonus[reached]  # N = 0, B: certain

    def solve_chunk(masks: Indices, uppers: Indices, fifties: Indices) -> None:
        finals, points, nexts = final_roll_values(masks, uppers, fifties, values, joker, True)
        expected = _through_turn(finals)
        here, there = position[state_index(masks, uppers, fifties)], position[nexts]
        later, later_second = values[nexts], tables.second[there].astype(np.float64)
        # Each quantity is weighed as soon as it is made, so few of a chunk's arrays are alive.
        found = [expected(_carried(points, 1.0, later, later_second)[2]),
                 expected(tables.bonus[there])]  # fmt: skip
        five = YAHTZEE_ROLLS  # five alike now
        some = [part[there].astype(np.float64) for part in tables.events[0]]
        if_five = (
            (1.0, later, later_second),  # at least one: certain now
            (1 - some[0], later - some[1], later_second - some[2]),  # exactly one: none later
            (0.0, 0.0, 0.0),  # none: impossible now
        )
        for number, event in enumerate(tables.events):
            from_next = some if number == 0 else [p[there].astype(np.float64) for p in event]
            now = _carried(points[five], *(np.broadcast_to(v, points.shape)[five]
                                           for v in if_five[number]))  # fmt: skip
            for part, part_now in zip(_carried(points, *from_next), now, strict=True):
                part = np.array(part)
                part[five] = part_now
                found.append(expected(part))
        tables.second[here], tables.bonus[here] = found[0], found[1]
        tables.events[:, :, here] = np.reshape(found[2:], (len(EVENTS), 3, len(masks)))

    strategy.by_level(solve_chunk, CHUNK, progress)
    return tables


# --- Exact distributions late in a game ---------------------------------------------------------


def final_roll_chances(states: Indices, joker: JokerRule) -> tuple[Values, Indices, Indices]:
    """For each state (a column each): the chance of each final roll when the dice are kept
    by the policy, and the points and next state the policy's box gives each roll."""
    masks, uppers, fifties = unpack(states)
    finals, points, nexts = final_roll_values(
        masks, uppers, fifties, strategy.load(joker), joker, True
    )
    return policy_roll_chances(finals), points.astype(np.int64), nexts


# Keyed by the rule (a Yahtzee joker rule, or a family's house rules) and the state.
_exact: dict[tuple[Hashable, int], Values] = {}
EXACT_KEPT = 50_000  # distributions remembered between requests


def remaining_distributions(states: list[int], joker: JokerRule) -> list[Values]:
    """The exact distribution of the score still to come (index: points) from each state,
    following the policy through every roll of every remaining turn. Cheap with up to three
    boxes open; the states a turn can lead to are followed a batch at a time."""
    return _exact_distributions(
        joker,
        states,
        lambda state: (state >> MASK_SHIFT).bit_count(),
        len(strategy.BOXES),
        lambda batch: final_roll_chances(batch, joker),
    )


def _exact_distributions(
    rule: Hashable,
    states: list[int],
    filled_of: Callable[[int], int],
    box_count: int,
    chances_of: Callable[[Indices], tuple[Values, Indices, Indices]],
) -> list[Values]:
    """`remaining_distributions` for any rule: `filled_of` says how many of the card's
    `box_count` boxes a state has filled, `chances_of` gives its states' final roll chances,
    points and next states."""
    if len(_exact) > EXACT_KEPT:
        _exact.clear()

    def is_full(state: int) -> bool:
        return filled_of(state) == box_count

    def exact_of(state: int) -> Values:
        return np.array([1.0]) if is_full(state) else _exact[rule, state]

    outcomes = {}
    frontier = {int(state) for state in states if (rule, int(state)) not in _exact}
    while frontier:
        batch = sorted(state for state in frontier if not is_full(state))
        if not batch:
            break
        chances, points, nexts = chances_of(np.array(batch))
        for column, state in enumerate(batch):
            outcomes[state] = (chances[:, column], points[:, column], nexts[:, column])
        reached = {int(n) for n in _distinct(nexts[chances > 0])}
        frontier = {n for n in reached if n not in outcomes and (rule, n) not in _exact}
    # A turn fills one box, so the states with the fewest open boxes are worked out first.
    for state in sorted(outcomes, key=lambda state: -filled_of(state)):
        chances, points, nexts = outcomes[state]
        total: Values = np.zeros(1)
        for following in _distinct(nexts[chances > 0]):
            taken = (nexts == following) & (chances > 0)
            now = np.bincount(points[taken], weights=chances[taken])
            total = _added(total, np.convolve(now, exact_of(int(following))))
        _exact[rule, state] = total
    return [exact_of(int(state)) for state in states]


def _distinct(values: Indices) -> Indices:
    """`np.unique(values)`, sorted, without its first call importing `numpy.ma` (7-75 ms
    of a new process's first exact Win column here)."""
    ordered = np.sort(values, axis=None)
    first = np.ones(len(ordered), dtype=bool)  # each value's first place in the sorted run
    first[1:] = ordered[1:] != ordered[:-1]
    kept: Indices = ordered[first]
    return kept


def forget_exact() -> None:
    """Drop the exact distributions worked out so far (the check times them from cold)."""
    _exact.clear()


def remaining_distribution(mask: int, upper: int, fifty: int, joker: JokerRule) -> Values:
    return remaining_distributions([int(state_index(mask, upper, fifty))], joker)[0]


def _added(a: Values, b: Values) -> Values:
    if len(a) < len(b):
        a, b = b, a
    a = a.copy()
    a[: len(b)] += b
    return a


# --- Simulation ---------------------------------------------------------------------------------

_POWERS = 6 ** np.arange(6)


@cache
def _roll_lookup() -> Indices:
    """The roll index of every vector of face counts, coded in base 6."""
    lookup = np.full(6**6, -1, dtype=np.int64)
    for roll, index in ROLL_INDEX.items():
        counts = np.bincount(np.array(roll) - 1, minlength=6)
        lookup[counts @ _POWERS] = index
    return lookup


@cache
def _keep_counts() -> Indices:
    return np.array([np.bincount(np.array(k, dtype=int) - 1, minlength=6) for k in KEEPS])


def _reroll(keeps: Indices, rng: np.random.Generator) -> Indices:
    """The roll each game gets by keeping `keeps` (KEEPS indices) and rolling the rest."""
    counts = _keep_counts()[keeps].copy()
    fresh = DICE - counts.sum(axis=1)
    dice = rng.integers(0, 6, size=(len(keeps), DICE))
    rolled = np.arange(DICE)[None, :] < fresh[:, None]
    for face in range(6):
        counts[:, face] += ((dice == face) & rolled).sum(axis=1)
    rolls: Indices = _roll_lookup()[counts @ _POWERS]
    return rolls


@dataclass
class Simulated:
    scores: Values  # the points each game scored from the start state on
    bonus: Flags  # whether its upper bonus was scored by the end
    yahtzees: Indices  # how many times it rolled five alike

    @property
    def yahtzee(self) -> Flags:
        """Whether each game rolled five alike at least once."""
        return self.yahtzees > 0


def simulate(joker: JokerRule, start: int, games: int, seed: int) -> Simulated:
    """`games` games played by the optimal policy from state index `start` (seeded)."""
    values = strategy.load(joker)
    rng = np.random.default_rng(seed)
    states = np.full(games, start, dtype=np.int64)
    scores = np.zeros(games)
    yahtzees = np.zeros(games, dtype=np.int64)
    while True:
        playing = np.flatnonzero((states >> MASK_SHIFT) != FULL_MASK)
        if len(playing) == 0:
            break
        for part in np.array_split(playing, max(1, len(playing) // 1024)):
            scored, states[part], rolled = _one_turn(states[part], values, joker, rng)
            scores[part] += scored
            yahtzees[part] += rolled
    return Simulated(scores, unpack(states)[1] >= CAP, yahtzees)


def _one_turn(
    states: Indices, values: Values, joker: JokerRule, rng: np.random.Generator
) -> tuple[Numbers, Indices, Flags]:
    masks, uppers, fifties = unpack(states)
    finals, points, nexts = final_roll_values(masks, uppers, fifties, values, joker, True)
    one_left, two_left = turn_keep_choices(finals)
    games = np.arange(len(states))
    roll = _reroll(np.zeros(len(states), dtype=np.int64), rng)  # keep nothing: five fresh dice
    roll = _reroll(two_left[roll, games], rng)
    roll = _reroll(one_left[roll, games], rng)
    return points[roll, games], nexts[roll, games], np.isin(roll, YAHTZEE_ROLLS)


def simulate_family(
    solver: strategy.FamilyStrategy, games: int, seed: int, start: int = 0
) -> Values:
    """The points scored from state index `start` (by default a whole game) in `games` games
    of a family's house rules (Yatzy) played by its optimal policy (seeded): the check of its
    solved mean, and of each player's chance to win."""
    values = solver.load()
    rng = np.random.default_rng(seed)
    states: Indices = np.full(games, start, dtype=np.int64)
    scores = np.zeros(games)
    open_count = len(solver.boxes) - (start // (solver.cap + 1)).bit_count()
    for _ in range(open_count):  # a box a turn
        # Many games share a state (in forced order at most 64 do a turn): each is solved once.
        distinct, game_column = np.unique(states, return_inverse=True)
        masks, uppers = np.divmod(distinct, solver.cap + 1)
        finals, boxes = solver.final_roll_choices(masks, uppers, values)
        points, nexts, _ = solver.box_outcomes(masks, uppers, boxes)
        one_left, two_left = turn_keep_choices(finals)
        roll = _reroll(np.zeros(games, dtype=np.int64), rng)  # keep nothing: five fresh dice
        roll = _reroll(two_left[roll, game_column], rng)
        roll = _reroll(one_left[roll, game_column], rng)
        scores += points[roll, game_column]
        states = nexts[roll, game_column]
    return scores


# --- Any other five-dice family (Yatzy, forced or not), by its strategy ------------------------
# A family's state is `FamilyStrategy.state_index`: the filled-box mask and the live upper total.
# Its policy tables hold, for every state with a turn left, E[R] (the policy's own mean: the
# check of the solved values), E[R²], and for the upper bonus being reached from here on its
# chance, E[R·1_B] and E[R²·1_B]. The bonus is the one lump of points every card plays for, so
# the score still to come is split in two parts by it (`family_split`).

FAMILY_FORMAT = 1
FAMILY_ROWS = 5  # first, second, then the bonus's chance, first and second
FAMILY_CHUNK = 512  # fewer numpy calls than 256 (16 s CPU, not 18); 1,024 took 193 MB


def solve_family_policy(
    solver: strategy.FamilyStrategy, progress: Progress | None = None
) -> Values:
    """One backward pass after the family's solve, following its policy: the rows of
    `FAMILY_ROWS` (in double precision: the mean is checked against the solved values to
    1e-6) for every state the strategy table stores, in its order (`stored_position`), and
    a last column of zeros for every full card (nothing is still to come). The whole array
    at once, for tests; `build_family` writes a table a row at a time."""
    with tempfile.TemporaryFile() as scratch:
        levels = _solve_family_levels(solver, scratch, progress)
        rows = np.zeros((FAMILY_ROWS, levels.count + 1))
        order = levels.order()
        for number in range(FAMILY_ROWS):
            rows[number, :-1] = levels.row(number, order)
    return rows


class _LevelRows:
    """The policy pass's rows, a level of filled boxes at a time. A turn fills one box, so a
    level reads only the rows of the level after it, which is the one kept in memory; each
    chunk's rows go straight to their place in a scratch file, where each level's are in
    the order `levels` lists its states (by mask, then total), and a level is read back
    from it once it is done. Where a state is among them is where its mask's first state
    is (`first_of`, a number a mask) and its place among its mask's totals; that puts each
    row of the table in the order of the stored states at the end. The rows of all the
    states at once were 38 MB of Yatzy's build, those of the two largest levels 16 MB; the
    largest level's alone are 8 MB."""

    def __init__(self, solver: strategy.FamilyStrategy, scratch: IO[bytes]) -> None:
        self.solver = solver
        self.count = solver.stored_count()
        self.first_of = np.zeros(solver.full_mask + 1, dtype=np.int64)  # a full card: 0
        self.scratch = scratch.fileno()
        self.sizes: list[int] = []
        self.after = np.zeros((FAMILY_ROWS, 1))  # the level after: full cards, nothing to come
        self.after_first = 0  # where the level after starts among the states of all levels
        self.current_first = 0

    def levels(self) -> Iterator[tuple[Indices, Indices, Indices]]:
        """`solver.levels()`, each level's rows made ready before it is solved."""
        first = 0
        for masks, uppers, fifties in self.solver.levels():
            if self.sizes:
                self._done()
            starts = np.flatnonzero(np.diff(masks, prepend=-1))  # each mask's first state
            self.first_of[masks[starts]] = first + starts
            self.current_first, first = first, first + len(masks)
            self.sizes.append(len(masks))
            yield masks, uppers, fifties
        self._done()
        self.after = np.zeros((FAMILY_ROWS, 0))  # all are in the scratch file

    def _done(self) -> None:
        """The level just solved becomes the one after: its rows, read back."""
        self.after = np.empty((FAMILY_ROWS, self.sizes[-1]))
        self._read(self.after, self.current_first * FAMILY_ROWS)
        self.after_first = self.current_first

    def _read(self, into: Values, start: int) -> None:
        """Fill `into` from the scratch file, from the `start`-th number on."""
        part = memoryview(into).cast("B")
        if os.preadv(self.scratch, [part], start * into.itemsize) != part.nbytes:
            raise OSError("The policy pass's scratch file was read short.")

    def _places(self, states: Indices) -> Indices:
        """Where states are among those of all levels, in the order they were solved."""
        mask, within = self.solver.place_in_mask(states)
        places: Indices = np.take(self.first_of, mask)
        places += within
        return places

    def next_rows(self, states: Indices) -> Values:
        """The rows of the level after for these states (of any other level: rows of no
        matter, for outcomes of boxes already filled, which are never chosen)."""
        places = self._places(states)
        places -= self.after_first
        found: Values = np.take(self.after, places, axis=1, mode="clip")
        return found

    def record(self, states: Indices, found: Values) -> None:
        """Write a chunk's rows (a row of `found` each, a column per state) to their places:
        a chunk is a run of its level's states, so each row is one write."""
        places = self._places(states[[0, -1]])
        places -= self.current_first
        if places[1] - places[0] != len(states) - 1:
            raise ValueError("A chunk of the policy pass is not a run of its level's states.")
        size = self.sizes[-1]
        for number, row in enumerate(found):
            start = self.current_first * FAMILY_ROWS + number * size + int(places[0])
            written = os.pwrite(self.scratch, np.ascontiguousarray(row), start * row.itemsize)
            if written != row.nbytes:
                raise OSError("The policy pass's scratch file was written short.")

    def row(self, number: int, order: Indices) -> Values:
        """One of the `FAMILY_ROWS`, for every stored state in its order (`order`)."""
        every = np.empty(sum(self.sizes))
        start = 0
        for size in self.sizes:
            self._read(every[start : start + size], start * FAMILY_ROWS + number * size)
            start += size
        ordered: Values = np.take(every, order)
        return ordered

    def order(self) -> Indices:
        """Each stored state's place among the states of all levels, in the stored order."""
        masks, counts = self.solver.stored_masks()
        order = np.arange(self.count)
        order -= np.repeat(np.cumsum(counts) - counts, counts)  # place among its mask's
        order += np.repeat(self.first_of[masks], counts)
        return order


def _solve_family_levels(
    solver: strategy.FamilyStrategy, scratch: IO[bytes], progress: Progress | None = None
) -> _LevelRows:
    """The policy pass, its levels' rows kept in `scratch` (a file of their own)."""
    values = np.asarray(solver.load())  # a plain array: a memmap's every slice is one too
    levels = _LevelRows(solver, scratch)

    def solve_chunk(masks: Indices, uppers: Indices, _: Indices) -> None:
        found = _family_chunk_rows(solver, masks, uppers, values, levels.next_rows)
        levels.record(masks * (solver.cap + 1) + uppers, found)

    # One thread: this pass makes many small numpy calls, and a second thread spends them
    # waiting for the GIL (130,000 context switches a build, 14-16% of its CPU in the kernel,
    # against 5% alone) for a wall time shortened by 0-12%.
    count = len(solver.boxes)
    strategy.solve_levels(levels.levels(), solve_chunk, FAMILY_CHUNK, count, progress, threads=1)
    return levels


def _family_chunk_rows(
    solver: strategy.FamilyStrategy,
    masks: Indices,
    uppers: Indices,
    values: Values,
    next_rows: Callable[[Indices], Values],
) -> Values:
    """The `FAMILY_ROWS` of a chunk of states (columns) under the policy, from the solved
    `values` and `next_rows`, which gives the rows of next states (rows, then the shape of
    the states given)."""
    count = len(masks)

    def final_rolls(rolls: Values) -> tuple[Indices, Indices, Flags]:
        """The final rolls' values, straight into their places among the keeps'."""
        return solver.final_roll_outcomes(masks, uppers, values, rolls.view(np.int64))

    chances, (labels, nexts, crossed) = policy_chances_in_flow_order(count, final_rolls)
    # The rolls' chances gathered by what their box gives them (a row of the key table: the
    # box and its points), then by outcome: each sum over the rolls is made over at most
    # 45 outcomes a state, not 252 rolls, and no row of the next states is spread over them.
    cells = solver.key_row_cells(labels).ravel()
    rows = solver.key_table_rows
    weights = np.bincount(cells, weights=chances.ravel(), minlength=rows * count)
    del labels, chances, cells
    sums = solver.outcome_sums(weights.reshape(rows, count))
    del weights
    return _family_turn(sums, crossed, solver.bonus, next_rows(nexts))


def _family_policy_turn(
    solver: strategy.FamilyStrategy, masks: Indices, uppers: Indices, values: Values
) -> tuple[Values, Indices, Indices, Flags]:
    """A turn of states (columns) under the policy: the chance of each final roll (rows),
    the points the policy's box gives it, the state it leads to, and whether those points
    reach the upper bonus."""
    finals, boxes = solver.final_roll_choices(masks, uppers, values)
    points, nexts, crossed = solver.box_outcomes(masks, uppers, boxes)
    del boxes  # a build's memory is counted at its peak, in the next call
    return policy_roll_chances(finals), points, nexts, crossed


def _family_turn(sums: Values, crossed: Flags, bonus: int, after: Values) -> Values:
    """States' `FAMILY_ROWS` from their turn: for each outcome (rows; a column per state) its
    chance, and the sums of the chance times the points its box scores and times their
    square (`outcome_sums`: without the upper bonus); whether it reaches the upper bonus;
    and its next state's `FAMILY_ROWS` (`after`: rows, outcomes, states; overwritten).
    Each row is `_carried` through the points and weighed by the chances: with p the
    points and a, b the next state's first and second rows, E[p + a] and E[(p + a)²] =
    E[p²] + 2 E[p a] + E[b], each a sum over the outcomes."""
    chance, first, second = sums
    if crossed.any():  # the points of an outcome that reaches the bonus include it
        lump = np.multiply(crossed, float(bonus))
        second += lump * (2 * first + lump * chance)
        first += lump * chance
        # Where this turn reaches the bonus, the bonus part of what is to come is all of it.
        np.copyto(after[2], 1.0, where=crossed)
        np.copyto(after[3], after[0], where=crossed)
        np.copyto(after[4], after[1], where=crossed)

    def expected(weights: Values, row: Values) -> Values:
        total: Values = np.einsum("os,os->s", weights, row)
        return total

    return np.array(
        [
            first.sum(axis=0) + expected(chance, after[0]),
            second.sum(axis=0) + 2 * expected(first, after[0]) + expected(chance, after[1]),
            expected(chance, after[2]),
            expected(first, after[2]) + expected(chance, after[3]),
            expected(second, after[2]) + 2 * expected(first, after[3]) + expected(chance, after[4]),
        ]
    )


def family_tables_path(solver: strategy.FamilyStrategy) -> Path:
    """A family's policy tables: the rows of `FAMILY_ROWS` over the states its strategy table
    stores, mapped into memory (not read), so every worker shares one copy."""
    return table_file(f"policy-{solver.house.key}-v{FAMILY_FORMAT}.npy")


def build_family(solver: strategy.FamilyStrategy, progress: Progress | None = None) -> Path:
    """Solve and save a family's policy tables (the states its strategy table stores)."""
    with tempfile.TemporaryFile() as scratch:
        levels = _solve_family_levels(solver, scratch, progress)
        path = replace_file(family_tables_path(solver), lambda handle: _save_rows(handle, levels))
    forget_family(solver)
    return path


def _save_rows(handle: IO[bytes], levels: _LevelRows) -> None:
    """`np.save` of the policy tables, a row at a time (the full cards are not stored)."""
    header = {"descr": "<f8", "fortran_order": False, "shape": (FAMILY_ROWS, levels.count)}
    np.lib.format.write_array_header_1_0(handle, header)
    order = levels.order()
    for number in range(FAMILY_ROWS):
        handle.write(memoryview(levels.row(number, order)))


_family_loaded: dict[Any, Values] = {}


def forget_family(solver: strategy.FamilyStrategy) -> None:
    _family_loaded.pop(solver.house, None)
    forget_exact()


def family_is_ready(solver: strategy.FamilyStrategy) -> bool:
    """Whether a family's strategy and policy tables are built (a request never builds them)."""
    return solver.is_ready() and (
        solver.house in _family_loaded or family_tables_path(solver).exists()
    )


def _family_rows(solver: strategy.FamilyStrategy, index: int) -> Values:
    """A state's policy rows, in double precision."""
    if solver.house not in _family_loaded:
        _family_loaded[solver.house] = np.load(family_tables_path(solver), mmap_mode="r")
    rows = _family_loaded[solver.house]
    if index >= solver.full_mask * (solver.cap + 1):
        return np.zeros(FAMILY_ROWS)
    return np.asarray(rows[:, solver.stored_position(index)], dtype=np.float64)


def family_moments(solver: strategy.FamilyStrategy, index: int) -> tuple[float, float]:
    """The mean and variance of the score still to come from a family's state."""
    first, second = _family_rows(solver, index)[:2]
    return float(first), max(0.0, float(second - first * first))


def family_split(solver: strategy.FamilyStrategy, index: int) -> list[Split]:
    """The score still to come from a family's state in two parts: with the upper bonus
    reached from here on, and without it."""
    first, second, *bonus = _family_rows(solver, index)
    whole = np.array([1.0, first, second])
    parts = []
    for chance, part_first, part_second in (np.array(bonus), whole - np.array(bonus)):
        if chance > 1e-6:
            part_mean = part_first / chance
            variance = max(0.0, part_second / chance - part_mean**2)
            parts.append(Split(float(chance), float(part_mean), float(variance)))
    return parts


def family_final_roll_chances(
    solver: strategy.FamilyStrategy, states: Indices
) -> tuple[Values, Indices, Indices]:
    """As `final_roll_chances`, for a family's states."""
    masks, uppers = np.divmod(states, solver.cap + 1)
    chances, points, nexts, _ = _family_policy_turn(solver, masks, uppers, solver.load())
    return chances, points, nexts


def family_remaining_distributions(
    solver: strategy.FamilyStrategy, states: list[int]
) -> list[Values]:
    """As `remaining_distributions`, for a family's states."""
    return _exact_distributions(
        solver.house,
        states,
        lambda state: (state // (solver.cap + 1)).bit_count(),
        len(solver.boxes),
        lambda batch: family_final_roll_chances(solver, batch),
    )


# --- A rule's figures, saved beside its strategy table ----------------------------------------


@dataclass(frozen=True)
class GameFigures:
    """What an optimal player's game looks like under a rule (the rules page shows them)."""

    mean: float
    sd: float
    bonus_chance: float
    yahtzee_chance: float
    percentiles: dict[int, float]
    simulated: int

    @property
    def score_at(self) -> dict[str, int]:
        """The percentiles as the page names them: {"p10": 194, ...}."""
        return {f"p{share}": round(score) for share, score in self.percentiles.items()}


def tables_path(joker: JokerRule) -> Path:
    """The rule's policy tables: one float32 row of every reachable state for E[R²], then
    three for each event; mapped into memory, not read, so every worker shares one copy."""
    return table_file(f"policy-{joker.key}-v{FORMAT}.npy")


def figures_path(joker: JokerRule) -> Path:
    return tables_path(joker).with_suffix(".json")


def build(
    joker: JokerRule, progress: Progress | None = None, games: int | None = None
) -> GameFigures:
    """Solve the policy tables and simulate the percentiles, then save both (the tables
    last: their file's being there says the rule is ready)."""
    games = games or SIMULATED_GAMES
    values = strategy.load(joker)
    tables = solve_policy(joker, values, progress)
    simulated = simulate(joker, 0, games, SEED)
    rows = tables.rows[:STORED_ROWS]
    at = _reachable_positions()[0]  # a whole game
    start = {"second": float(tables.second[at]), "bonus": float(tables.bonus[at]),
             "yahtzee": float(tables.events[0, 0, at])}  # fmt: skip
    saved = {"start": start, "simulated": games, "seed": SEED,
             "percentiles": np.percentile(simulated.scores, PERCENTILES).tolist()}  # fmt: skip
    replace_file(figures_path(joker), lambda handle: handle.write(json.dumps(saved).encode()))
    replace_file(tables_path(joker), lambda handle: np.save(handle, rows))
    forget(joker)
    return figures(joker)


class _Stored(TypedDict):
    """A rule's policy tables as read from disk, with its saved figures."""

    second: Values
    events: Values
    saved: dict[str, Any]
    index: Indices


_loaded: dict[JokerRule, _Stored] = {}


def forget(joker: JokerRule) -> None:
    _loaded.pop(joker, None)
    forget_exact()


def is_ready(joker: JokerRule) -> bool:
    """Whether the rule's policy tables are built (a request never builds them)."""
    return strategy.is_ready(joker) and (joker in _loaded or tables_path(joker).exists())


def _tables(joker: JokerRule) -> _Stored:
    if joker not in _loaded:
        rows = np.load(tables_path(joker), mmap_mode="r")
        saved = json.loads(figures_path(joker).read_text())
        events = rows[1:].reshape(len(EVENTS), 3, -1)
        _loaded[joker] = _Stored(
            second=rows[0], events=events, saved=saved, index=_reachable_positions()
        )
    return _loaded[joker]


@cache
def _reachable_positions() -> Indices:
    """Where each state's row is in the stored (reachable-only) tables; -1 if unreachable."""
    positions = np.full(STATE_COUNT, -1, dtype=np.int32)
    reachable = strategy.all_reachable_indices()
    positions[reachable] = np.arange(len(reachable))
    return positions


@dataclass(frozen=True)
class Split:
    """One part of a state's score still to come (see `EVENTS`)."""

    weight: float  # the chance of the part
    mean: float
    variance: float


def moments(joker: JokerRule, index: int) -> tuple[float, float]:
    """The mean and variance of the score still to come from state `index`."""
    mean = float(strategy.load(joker)[index])
    second = float(_tables(joker)["second"][_tables(joker)["index"][index]])
    return mean, max(0.0, second - mean * mean)


def split(joker: JokerRule, index: int) -> list[Split]:
    """The score still to come from state `index`, in four parts: five alike rolled two or
    more times, once, never with the upper bonus, never without it."""
    tables = _tables(joker)
    mean, variance = moments(joker, index)
    whole = np.array([1.0, mean, variance + mean * mean])
    some, one, none_b = tables["events"][:, :, tables["index"][index]].astype(np.float64)
    parts = []
    for chance, first, second in (some - one, one, none_b, whole - some - none_b):
        if chance > 1e-6:
            part_mean = first / chance
            parts.append(Split(chance, part_mean, max(0.0, second / chance - part_mean**2)))
    return parts


def figures(joker: JokerRule) -> GameFigures:
    saved = _tables(joker)["saved"]
    start = saved["start"]
    mean = float(strategy.load(joker)[0])
    shown = dict(zip(PERCENTILES, saved["percentiles"], strict=True))
    sd = math.sqrt(max(0.0, start["second"] - mean * mean))
    return GameFigures(mean, sd, start["bonus"], start["yahtzee"], shown, saved["simulated"])
