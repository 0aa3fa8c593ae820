"""What the optimal player's final score looks like, beyond its mean (numpy, no Django).

The optimal policy is the one `strategy` solves for: the best box for each final roll, the
best dice to keep before each reroll. Following it, one more backward pass gives for every
state the second moment of the score still to come (so its variance), and for a whole game
the chance of the upper bonus and of rolling at least one Yahtzee. Late in a game a state's
whole distribution is found exactly by following the policy through every roll of its last
turns; a seeded simulation of the policy gives percentiles and checks the rest.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

from scorecard.engine import odds, rules, strategy
from scorecard.engine.rules import JokerRule
from scorecard.engine.strategy import (
    CAP,
    DICE,
    FACE_COUNTS,
    FIRST_ROLL,
    FULL_MASK,
    KEEP_INDEX,
    KEEPS,
    MASK_SHIFT,
    ROLL_INDEX,
    ROLLS,
    STATE_COUNT,
    UPPER_MASK,
    YAHTZEE_ROLLS,
    Flags,
    Indices,
    Numbers,
    Progress,
    Values,
    final_roll_values,
    keep_values,
    state_index,
    turn_keep_choices,
)
from scorecard.engine.tables import replace_file, table_file

CHUNK = 256  # eleven channels a state: a quarter of the solver's chunk keeps the memory down
FORMAT = 3
PERCENTILES = (10, 25, 50, 75, 90)
SIMULATED_GAMES = 10_000
SEED = 2026


unpack = strategy.unpack


# --- Following the policy through one turn ------------------------------------------------------


def _through_turn(finals: Values, channels: Values) -> Values:
    """The expectation over a turn of functions of its final roll (`channels`: blocks of
    columns, each block one function for every state of `finals`), when the dice kept
    before each reroll are the best for `finals`."""
    one_left, two_left = turn_keep_choices(finals)
    blocks = channels.shape[1] // finals.shape[1]
    once = np.take_along_axis(keep_values(channels), np.tile(one_left, blocks), axis=0)
    twice = np.take_along_axis(keep_values(once), np.tile(two_left, blocks), axis=0)
    expected: Values = FIRST_ROLL @ twice
    return expected


# The parts a state's score still to come is split into, by what happens from here on:
# how many times five alike are rolled (N) and, with none, whether the upper bonus comes (B).
# Each part is close to normal; their mixture follows the lumps a Yahtzee (50, then 100
# each) and the bonus (35) make. Three events are solved; the fourth part is what is left.
EVENTS = ("two_or_more", "one", "none_with_bonus")  # N >= 2 is N >= 1 less N = 1


@dataclass
class PolicyTables:
    """For every reachable state, under the optimal policy, with R the score still to come:
    E[R²], the chance the upper bonus is (or gets) scored, and for each event E of
    `EVENTS` ("at least one" stands in for "two or more" while solving) its chance P(E),
    E[R·1_E] and E[R²·1_E]."""

    second: Values
    bonus: Values
    events: Values  # (event, chance/first/second, state)

    @classmethod
    def empty(cls) -> PolicyTables:
        return cls(
            np.zeros(STATE_COUNT, np.float32),
            np.zeros(STATE_COUNT, np.float32),
            np.zeros((len(EVENTS), 3, STATE_COUNT), np.float32),
        )


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
    tables = PolicyTables.empty()
    full = state_index(FULL_MASK, np.arange(CAP + 1), 0)
    for fifty in (0, 1):
        tables.bonus[full + fifty] = np.arange(CAP + 1) >= CAP
        tables.events[2, 0, full + fifty] = np.arange(CAP + 1) >= CAP  # N = 0, B: certain

    def solve_chunk(masks: Indices, uppers: Indices, fifties: Indices) -> None:
        finals, points, nexts = final_roll_values(masks, uppers, fifties, values, joker, True)
        later, later_second = values[nexts], tables.second[nexts].astype(np.float64)
        whole = _carried(points, 1.0, later, later_second)
        some, one, none_b = (tuple(t[nexts].astype(np.float64) for t in e) for e in tables.events)
        channels = [whole[2], tables.bonus[nexts]]
        five = YAHTZEE_ROLLS  # five alike now
        remainder = (1 - some[0], later - some[1], later_second - some[2])  # N = 0 from next
        for event, if_five in (
            (some, (1.0, later, later_second)),  # at least one: certain now
            (one, remainder),  # exactly one: none from the next state on
            (none_b, (0.0, 0.0, 0.0)),  # none: impossible now
        ):
            carried = [np.array(part) for part in _carried(points, *event)]
            now = _carried(points, *(np.broadcast_to(v, points.shape) for v in if_five))
            for part, at_five in zip(carried, now, strict=True):
                part[five] = np.broadcast_to(at_five, points.shape)[five]
            channels += carried
        # Single precision halves the memory of the turn's many columns; the tables keep it.
        stacked = np.hstack([np.broadcast_to(c, points.shape) for c in channels], dtype=np.float32)
        expected = _through_turn(finals, stacked).reshape(-1, len(masks))
        indices = state_index(masks, uppers, fifties)
        tables.second[indices], tables.bonus[indices] = expected[0], expected[1]
        tables.events[:, :, indices] = expected[2:].reshape(len(EVENTS), 3, len(masks))

    strategy.by_level(solve_chunk, CHUNK, progress)
    return tables


# --- Exact distributions late in a game ---------------------------------------------------------


@cache
def _transitions() -> Values:
    """transitions[keep, roll]: the chance that keeping `keep` and rerolling the rest gives
    `roll`."""
    table = np.zeros((len(KEEPS), len(ROLLS)))
    for keep, index in KEEP_INDEX.items():
        fresh = DICE - len(keep)
        for dice in itertools.combinations_with_replacement(rules.FACES, fresh):
            table[index, ROLL_INDEX[tuple(sorted(keep + dice))]] += odds.chance_of(dice)
    return table


def final_roll_chances(states: Indices, joker: JokerRule) -> tuple[Values, Indices, Indices]:
    """For each state (a column each): the chance of each final roll when the dice are kept
    by the policy, and the points and next state the policy's box gives each roll."""
    masks, uppers, fifties = unpack(states)
    finals, points, nexts = final_roll_values(
        masks, uppers, fifties, strategy.load(joker), joker, True
    )
    return _policy_roll_chances(finals), points.astype(np.int64), nexts


def _policy_roll_chances(finals: Values) -> Values:
    """The chance of each final roll (rows) in each state (columns) when the dice kept before
    each reroll are the best for `finals`."""
    one_left, two_left = turn_keep_choices(finals)
    columns = np.broadcast_to(np.arange(finals.shape[1]), one_left.shape)
    chances = np.broadcast_to(FIRST_ROLL[:, None], one_left.shape)
    for choice in (two_left, one_left):
        kept = np.zeros((len(KEEPS), finals.shape[1]))
        np.add.at(kept, (choice, columns), chances)
        chances = _transitions().T @ kept
    return chances


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
        reached = {int(n) for n in np.unique(nexts[chances > 0])}
        frontier = {n for n in reached if n not in outcomes and (rule, n) not in _exact}
    # A turn fills one box, so the states with the fewest open boxes are worked out first.
    for state in sorted(outcomes, key=lambda state: -filled_of(state)):
        chances, points, nexts = outcomes[state]
        total: Values = np.zeros(1)
        for following in np.unique(nexts[chances > 0]):
            taken = (nexts == following) & (chances > 0)
            now = np.bincount(points[taken], weights=chances[taken])
            total = _added(total, np.convolve(now, exact_of(int(following))))
        _exact[rule, state] = total
    return [exact_of(int(state)) for state in states]


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
        finals, points, nexts = solver.final_roll_values(masks, uppers, values, True)
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


def _family_crossings(
    solver: strategy.FamilyStrategy, masks: Indices, uppers: Indices, nexts: Indices
) -> Flags:
    """For each final roll (rows) and state (columns): whether the policy's box reaches the
    upper bonus with it (an upper box filled with dice that take the live total to the
    threshold)."""
    chosen = (nexts // (solver.cap + 1)) ^ masks  # the one bit of the box filled
    is_upper = (chosen > 0) & (chosen <= UPPER_MASK)
    faces = np.where(is_upper, np.log2(np.maximum(chosen, 1)).astype(np.int64) + 1, 1)
    counts = FACE_COUNTS[faces - 1, np.arange(len(ROLLS))[:, None]]
    crossed: Flags = is_upper & (uppers < solver.cap) & (uppers + faces * counts >= solver.cap)
    return crossed


def solve_family_policy(
    solver: strategy.FamilyStrategy, progress: Progress | None = None
) -> tuple[Values, Values]:
    """One backward pass after the family's solve, following its policy: the rows of
    `FAMILY_ROWS` for every state (full cards stay 0: nothing is still to come), the first
    row apart from the rest. The mean is
    kept in double precision (it is checked against the solved values to 1e-6), the rest
    in single, which keeps the build within 100 MB."""
    values = solver.load()
    first = np.zeros(solver.state_count)
    rest = np.zeros((FAMILY_ROWS - 1, solver.state_count), np.float32)

    def solve_chunk(masks: Indices, uppers: Indices, _: Indices) -> None:
        finals, points, nexts = solver.final_roll_values(masks, uppers, values, True)
        crossed = _family_crossings(solver, masks, uppers, nexts)
        later = rest[:, nexts].astype(np.float64)  # (row, roll, state)
        whole = _carried(points, 1.0, first[nexts], later[0])
        by_bonus = _carried(points, later[1], later[2], later[3])
        channels = [whole[1], whole[2]] + [
            np.where(crossed, now, after) for now, after in zip(whole, by_bonus, strict=True)
        ]
        stacked = np.hstack([np.broadcast_to(c, points.shape) for c in channels])
        expected = _through_turn(finals, stacked).reshape(FAMILY_ROWS, len(masks))
        indices = solver.state_index(masks, uppers)
        first[indices], rest[:, indices] = expected[0], expected[1:]

    strategy.solve_levels(
        solver.levels(), solve_chunk, strategy.FAMILY_CHUNK, len(solver.boxes), progress
    )
    return first, rest


def family_tables_path(solver: strategy.FamilyStrategy) -> Path:
    """A family's policy tables: the rows of `FAMILY_ROWS` over the states its strategy table
    stores, mapped into memory (not read), so every worker shares one copy."""
    return table_file(f"policy-{solver.house.key}-v{FAMILY_FORMAT}.npy")


def build_family(solver: strategy.FamilyStrategy, progress: Progress | None = None) -> Path:
    """Solve and save a family's policy tables (the states its strategy table stores)."""
    first, rest = solve_family_policy(solver, progress)
    kept = solver._stored()
    stored = np.vstack([first[kept], rest[:, kept]])
    path = replace_file(family_tables_path(solver), lambda handle: np.save(handle, stored))
    forget_family(solver)
    return path


_family_loaded: dict[Any, tuple[Values, Indices]] = {}


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
        stored = solver._stored()
        where: Indices = np.full(solver.state_count, -1, dtype=np.int64)
        where[stored] = np.arange(len(stored))
        _family_loaded[solver.house] = (np.load(family_tables_path(solver), mmap_mode="r"), where)
    rows, positions = _family_loaded[solver.house]
    if index >= solver.full_mask * (solver.cap + 1):
        return np.zeros(FAMILY_ROWS)
    return np.asarray(rows[:, positions[index]], dtype=np.float64)


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
    finals, points, nexts = solver.final_roll_values(masks, uppers, solver.load(), True)
    return _policy_roll_chances(finals), points.astype(np.int64), nexts


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
    def bonus_percent(self) -> str:
        return f"{self.bonus_chance:.1%}"

    @property
    def yahtzee_percent(self) -> str:
        return f"{self.yahtzee_chance:.1%}"

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
    reachable = strategy.all_reachable_indices()
    events = tables.events[:, :, reachable].reshape(-1, len(reachable))
    rows = np.vstack([tables.second[reachable], events])
    start = {"second": float(tables.second[0]), "bonus": float(tables.bonus[0]),
             "yahtzee": float(tables.events[0, 0, 0])}  # fmt: skip
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
