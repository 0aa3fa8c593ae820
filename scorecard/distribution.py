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
import math
import os
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
from threadpoolctl import threadpool_limits

from scorecard import rules, strategy
from scorecard.rules import JokerRule
from scorecard.strategy import (
    BOXES,
    CAP,
    FIRST_ROLL,
    FULL_MASK,
    KEEP_INDEX,
    KEEPS,
    ROLL_INDEX,
    ROLLS,
    STATE_COUNT,
    YAHTZEE_ROLLS,
    best_keep_choices,
    final_roll_values,
    keep_values,
    reachable_states,
    state_index,
)

CHUNK = 256  # three channels a state: a smaller chunk than the solver's keeps memory alike
FORMAT = 1
PERCENTILES = (10, 25, 50, 75, 90)
SIMULATED_GAMES = 10_000
SEED = 2026


def unpack(index):
    return index >> 7, (index >> 1) & 63, index & 1


# --- Following the policy through one turn ------------------------------------------------------


def _through_turn(finals: np.ndarray, channels: np.ndarray) -> np.ndarray:
    """The expectation over a turn of functions of its final roll (`channels`: blocks of
    columns, each block one function for every state of `finals`), when the dice kept
    before each reroll are the best for `finals`."""
    held = keep_values(finals)
    one_left = best_keep_choices(held)
    two_left = best_keep_choices(keep_values(np.take_along_axis(held, one_left, axis=0)))
    blocks = channels.shape[1] // finals.shape[1]
    once = np.take_along_axis(keep_values(channels), np.tile(one_left, blocks), axis=0)
    twice = np.take_along_axis(keep_values(once), np.tile(two_left, blocks), axis=0)
    return FIRST_ROLL @ twice


@dataclass
class PolicyTables:
    """For every reachable state, under the optimal policy, with R the score still to come
    and Y the event that five alike are rolled at least once from here: E[R²], the chance
    the upper bonus is (or gets) scored, P(Y), E[R·1_Y] and E[R²·1_Y]. The last three split
    a state's distribution in two, with and without a Yahtzee, each close to normal."""

    second: np.ndarray
    bonus: np.ndarray
    yahtzee: np.ndarray
    yahtzee_first: np.ndarray
    yahtzee_second: np.ndarray

    CHANNELS = 5


def solve_policy(joker: JokerRule, values: np.ndarray, progress=None) -> PolicyTables:
    """One backward pass after `strategy.solve`, a level of open boxes at a time."""
    tables = PolicyTables(
        *(np.zeros(STATE_COUNT, np.float32) for _ in range(PolicyTables.CHANNELS))
    )
    full = state_index(FULL_MASK, np.arange(CAP + 1), 0)
    tables.bonus[full] = tables.bonus[full + 1] = np.arange(CAP + 1) >= CAP
    by_open = sorted(range(FULL_MASK), key=lambda mask: -mask.bit_count())

    def solve_chunk(masks, uppers, fifties) -> None:
        finals, points, nexts = final_roll_values(masks, uppers, fifties, values, joker, True)
        later, later_second = values[nexts], tables.second[nexts]
        second = points**2 + 2 * points * later + later_second
        yahtzee = tables.yahtzee[nexts]
        first_y = points * yahtzee + tables.yahtzee_first[nexts]
        second_y = points**2 * yahtzee + 2 * points * tables.yahtzee_first[nexts]
        second_y += tables.yahtzee_second[nexts]
        five = YAHTZEE_ROLLS  # five alike now: Y happens on every path from here
        yahtzee[five], first_y[five], second_y[five] = 1.0, (points + later)[five], second[five]
        channels = np.hstack([second, tables.bonus[nexts], yahtzee, first_y, second_y])
        expected = _through_turn(finals, channels).reshape(PolicyTables.CHANNELS, len(masks))
        indices = state_index(masks, uppers, fifties)
        for table, column in zip(vars(tables).values(), expected, strict=True):
            table[indices] = column

    workers = int(os.environ.get("SOLVER_THREADS", os.cpu_count() or 1))
    levels = itertools.groupby(by_open, key=lambda mask: mask.bit_count())
    with threadpool_limits(1), ThreadPoolExecutor(max_workers=workers) as pool:
        for done, (_, group) in enumerate(levels, start=1):
            masks, uppers, fifties = reachable_states(np.array(list(group)))
            chunks = [
                (masks[i : i + CHUNK], uppers[i : i + CHUNK], fifties[i : i + CHUNK])
                for i in range(0, len(masks), CHUNK)
            ]
            list(pool.map(lambda chunk: solve_chunk(*chunk), chunks))
            if progress:
                progress(done, len(BOXES))
    return tables


# --- Exact distributions late in a game ---------------------------------------------------------


@cache
def _transitions() -> np.ndarray:
    """transitions[keep, roll]: the chance that keeping `keep` and rerolling the rest gives
    `roll`."""
    table = np.zeros((len(KEEPS), len(ROLLS)))
    for keep, index in KEEP_INDEX.items():
        fresh = 5 - len(keep)
        for dice in itertools.combinations_with_replacement(rules.FACES, fresh):
            ways = math.factorial(fresh)
            for count in Counter(dice).values():
                ways //= math.factorial(count)
            table[index, ROLL_INDEX[tuple(sorted(keep + dice))]] += ways / 6**fresh
    return table


def final_roll_chances(mask: int, upper: int, fifty: int, joker: JokerRule):
    """For one state: the chance of each final roll when the dice are kept by the policy,
    and the points and next state the policy's box gives each."""
    values = strategy.load(joker)
    state = (np.array([mask]), np.array([upper]), np.array([fifty]))
    finals, points, nexts = final_roll_values(*state, values, joker, True)
    held = keep_values(finals)
    one_left = best_keep_choices(held)
    two_left = best_keep_choices(keep_values(np.take_along_axis(held, one_left, axis=0)))
    chances = FIRST_ROLL
    for choice in (two_left[:, 0], one_left[:, 0]):
        kept = np.bincount(choice, weights=chances, minlength=len(KEEPS))
        chances = kept @ _transitions()
    return chances, points[:, 0].astype(np.int64), nexts[:, 0]


@lru_cache(maxsize=4096)
def remaining_distribution(mask: int, upper: int, fifty: int, joker: JokerRule) -> np.ndarray:
    """The exact distribution of the score still to come (index: points), following the
    policy through every roll of every remaining turn. Cheap with one or two boxes open."""
    if mask == FULL_MASK:
        return np.array([1.0])
    chances, points, nexts = final_roll_chances(mask, upper, fifty, joker)
    total = np.zeros(1)
    for following in np.unique(nexts):
        taken = (nexts == following) & (chances > 0)
        if not taken.any():
            continue
        now = np.bincount(points[taken], weights=chances[taken])
        after = np.convolve(now, remaining_distribution(*map(int, unpack(following)), joker))
        total = _added(total, after)
    return total


def _added(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if len(a) < len(b):
        a, b = b, a
    a = a.copy()
    a[: len(b)] += b
    return a


# --- Simulation ---------------------------------------------------------------------------------

_POWERS = 6 ** np.arange(6)


@cache
def _roll_lookup() -> np.ndarray:
    """The roll index of every vector of face counts, coded in base 6."""
    lookup = np.full(6**6, -1, dtype=np.int64)
    for roll, index in ROLL_INDEX.items():
        counts = np.bincount(np.array(roll) - 1, minlength=6)
        lookup[counts @ _POWERS] = index
    return lookup


@cache
def _keep_counts() -> np.ndarray:
    return np.array([np.bincount(np.array(k, dtype=int) - 1, minlength=6) for k in KEEPS])


def _reroll(keeps: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The roll each game gets by keeping `keeps` (KEEPS indices) and rolling the rest."""
    counts = _keep_counts()[keeps].copy()
    fresh = 5 - counts.sum(axis=1)
    dice = rng.integers(0, 6, size=(len(keeps), 5))
    rolled = np.arange(5)[None, :] < fresh[:, None]
    for face in range(6):
        counts[:, face] += ((dice == face) & rolled).sum(axis=1)
    return _roll_lookup()[counts @ _POWERS]


@dataclass
class Simulated:
    scores: np.ndarray  # the points each game scored from the start state on
    bonus: np.ndarray  # whether its upper bonus was scored by the end
    yahtzee: np.ndarray  # whether it rolled five alike at least once


def simulate(joker: JokerRule, start: int, games: int, seed: int) -> Simulated:
    """`games` games played by the optimal policy from state index `start` (seeded)."""
    values = strategy.load(joker)
    rng = np.random.default_rng(seed)
    states = np.full(games, start, dtype=np.int64)
    scores = np.zeros(games)
    yahtzee = np.zeros(games, dtype=bool)
    while True:
        playing = np.flatnonzero((states >> 7) != FULL_MASK)
        if len(playing) == 0:
            break
        for part in np.array_split(playing, max(1, len(playing) // 1024)):
            scored, states[part], rolled = _one_turn(states[part], values, joker, rng)
            scores[part] += scored
            yahtzee[part] |= rolled
    return Simulated(scores, ((states >> 1) & 63) >= CAP, yahtzee)


def _one_turn(states: np.ndarray, values: np.ndarray, joker: JokerRule, rng):
    masks, uppers, fifties = unpack(states)
    finals, points, nexts = final_roll_values(masks, uppers, fifties, values, joker, True)
    held = keep_values(finals)
    one_left = best_keep_choices(held)
    two_left = best_keep_choices(keep_values(np.take_along_axis(held, one_left, axis=0)))
    games = np.arange(len(states))
    roll = _reroll(np.zeros(len(states), dtype=np.int64), rng)  # keep nothing: five fresh dice
    roll = _reroll(two_left[roll, games], rng)
    roll = _reroll(one_left[roll, games], rng)
    return points[roll, games], nexts[roll, games], np.isin(roll, YAHTZEE_ROLLS)


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


def tables_path(joker: JokerRule):
    return strategy.DATA_DIR / f"policy-{joker.key}-v{FORMAT}.npz"


STORED = ("second", "yahtzee", "yahtzee_first", "yahtzee_second")  # per state, float32


def build(joker: JokerRule, progress=None, games: int | None = None) -> GameFigures:
    """Solve the policy tables and simulate the percentiles, then save both."""
    games = games or SIMULATED_GAMES
    values = strategy.load(joker)
    tables = solve_policy(joker, values, progress)
    simulated = simulate(joker, 0, games, SEED)
    percentiles = np.percentile(simulated.scores, PERCENTILES)
    reachable = strategy.all_reachable_indices()
    path = tables_path(joker)
    path.parent.mkdir(parents=True, exist_ok=True)
    stored = {name: getattr(tables, name)[reachable].astype(np.float32) for name in STORED}
    start = [tables.second[0], tables.bonus[0], tables.yahtzee[0]]
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as handle:
        np.savez(
            handle,
            **stored,
            start=np.array(start),
            percentiles=percentiles,
            simulated=np.array([games]),
        )
    os.chmod(handle.name, 0o644)
    os.replace(handle.name, path)
    forget(joker)
    return figures(joker)


_loaded: dict[JokerRule, dict] = {}


def forget(joker: JokerRule) -> None:
    _loaded.pop(joker, None)
    remaining_distribution.cache_clear()


def is_ready(joker: JokerRule) -> bool:
    """Whether the rule's policy tables are built (a request never builds them)."""
    return strategy.is_ready(joker) and (joker in _loaded or tables_path(joker).exists())


def _tables(joker: JokerRule) -> dict:
    if joker not in _loaded:
        with np.load(tables_path(joker)) as saved:
            _loaded[joker] = {name: saved[name] for name in saved.files}
        _loaded[joker]["index"] = _reachable_positions()
    return _loaded[joker]


@cache
def _reachable_positions() -> np.ndarray:
    """Where each state's row is in the stored (reachable-only) tables; -1 if unreachable."""
    positions = np.full(STATE_COUNT, -1, dtype=np.int32)
    reachable = strategy.all_reachable_indices()
    positions[reachable] = np.arange(len(reachable))
    return positions


@dataclass(frozen=True)
class Split:
    """A state's score still to come, as two parts: with a Yahtzee rolled, and without."""

    weight: float  # the chance of the part
    mean: float
    variance: float


def moments(joker: JokerRule, index: int) -> tuple[float, float]:
    """The mean and variance of the score still to come from state `index`."""
    mean = float(strategy.load(joker)[index])
    second = float(_tables(joker)["second"][_tables(joker)["index"][index]])
    return mean, max(0.0, second - mean * mean)


def split(joker: JokerRule, index: int) -> list[Split]:
    """The score still to come from state `index`, with and without a Yahtzee rolled."""
    tables = _tables(joker)
    row = tables["index"][index]
    mean, variance = moments(joker, index)
    second = variance + mean * mean
    chance = float(tables["yahtzee"][row])
    first_y, second_y = float(tables["yahtzee_first"][row]), float(tables["yahtzee_second"][row])
    parts = []
    for weight, first, square in (
        (chance, first_y, second_y),
        (1 - chance, mean - first_y, second - second_y),
    ):
        if weight > 1e-6:
            part_mean = first / weight
            parts.append(Split(weight, part_mean, max(0.0, square / weight - part_mean**2)))
    return parts


def figures(joker: JokerRule) -> GameFigures:
    tables = _tables(joker)
    second, bonus, yahtzee = tables["start"]
    mean = float(strategy.load(joker)[0])
    shown = dict(zip(PERCENTILES, tables["percentiles"].tolist(), strict=True))
    sd = math.sqrt(max(0.0, second - mean * mean))
    return GameFigures(mean, sd, float(bonus), float(yahtzee), shown, int(tables["simulated"][0]))
