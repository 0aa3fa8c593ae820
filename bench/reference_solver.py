"""A plain numpy solver of solitaire Yahtzee, the yardstick of the value-table build's time.

No public numpy solver that solves the whole game (upper bonus, Yahtzee bonus and jokers)
could be found to run beside ours, so this one is written the obvious way, independent of
`scorecard.engine`: dense matrices for the rerolls (keep -> roll chances), a max over every
sub-multiset of a roll for the keeps, and every box tried for every final roll. States are
(filled boxes, upper total capped at 63, Yahtzee box holds 50), only those that can occur,
solved a level of filled boxes at a time. The joker is Verhoeff's free choice, so a whole
game must come out at his published 254.5896.

Run: python bench/reference_solver.py
(prints the mean, wall seconds, CPU seconds, system seconds and peak MB)
"""

import itertools
import resource
import time
from math import factorial

import numpy as np

FACES = range(1, 7)
ROLLS = list(itertools.combinations_with_replacement(FACES, 5))
KEEPS = [k for n in range(6) for k in itertools.combinations_with_replacement(FACES, n)]
KEEP_AT = {k: i for i, k in enumerate(KEEPS)}
YAHTZEE_BOX, FULL_HOUSE, SMALL, LARGE = 11, 8, 9, 10
CHUNK = 512


def chance(dice: tuple[int, ...]) -> float:
    """The chance that len(dice) fresh dice show this multiset."""
    ways = factorial(len(dice))
    for face in FACES:
        ways //= factorial(dice.count(face))
    return ways / 6 ** len(dice)


def reroll_matrix() -> np.ndarray:
    """[keep, roll]: the chance that keeping `keep` and rolling the rest gives `roll`."""
    matrix = np.zeros((len(KEEPS), len(ROLLS)))
    for r, roll in enumerate(ROLLS):
        for k, keep in enumerate(KEEPS):
            rest = list(roll)
            if all(rest.count(f) >= keep.count(f) for f in FACES):
                for f in keep:
                    rest.remove(f)
                matrix[k, r] = chance(tuple(rest))
    return matrix


def sub_keeps() -> np.ndarray:
    """[roll, i]: the keeps a roll can keep (every sub-multiset), padded by repeats."""
    subs = []
    for roll in ROLLS:
        found = sorted({KEEP_AT[tuple(sorted(c))] for n in range(6)
                        for c in itertools.combinations(roll, n)})  # fmt: skip
        subs.append(found + [found[0]] * (32 - len(found)))
    return np.array(subs)


def score(box: int, roll: tuple[int, ...]) -> int:
    counts = sorted(roll.count(f) for f in FACES)
    if box < 6:
        return (box + 1) * roll.count(box + 1)
    straight = {frozenset(s) for s in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))}
    return {
        6: sum(roll) if counts[-1] >= 3 else 0,
        7: sum(roll) if counts[-1] >= 4 else 0,
        FULL_HOUSE: 25 if counts[-2:] == [2, 3] else 0,
        SMALL: 30 if any(s <= set(roll) for s in straight) else 0,
        LARGE: 40 if set(roll) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0,
        YAHTZEE_BOX: 50 if counts[-1] == 5 else 0,
        12: sum(roll),
    }[box]


SCORES = np.array([[score(b, r) for r in ROLLS] for b in range(13)])
FIVE = np.array([ROLLS.index((f,) * 5) for f in FACES])
JOKER_VALUES = {FULL_HOUSE: 25, SMALL: 30, LARGE: 40}


def reachable_uppers() -> np.ndarray:
    """[upper mask, total]: whether the filled upper boxes can add up to that total (63 cap)."""
    reach = np.zeros((64, 64), dtype=bool)
    for mask in range(64):
        totals = {0}
        for face in FACES:
            if mask >> (face - 1) & 1:
                totals = {min(63, t + face * n) for t in totals for n in range(6)}
        reach[mask, sorted(totals)] = True
    return reach


def index(mask, upper, fifty):
    return (mask * 64 + upper) * 2 + fifty


def final_values(mask, upper, fifty, values):
    """The best box for every final roll (rows) in every state (columns), with what follows."""
    best = np.full((len(ROLLS), len(mask)), -np.inf)
    joker = (mask >> YAHTZEE_BOX) & 1  # five alike is a joker once the Yahtzee box is filled
    extra = np.zeros((len(ROLLS), len(mask)))
    extra[FIVE] = 100.0 * fifty
    for box in range(13):
        points = np.repeat(SCORES[box][:, None], len(mask), axis=1)
        if box in JOKER_VALUES:
            for face, row in zip(FACES, FIVE, strict=True):
                matching_filled = (mask >> (face - 1)) & 1
                points[row] = np.where(joker & matching_filled, JOKER_VALUES[box], 0)
        new_upper = (
            np.minimum(63, upper + points) if box < 6 else np.broadcast_to(upper, points.shape)
        )
        bonus = np.where((upper < 63) & (new_upper >= 63), 35, 0) if box < 6 else 0
        new_fifty = (points == 50) if box == YAHTZEE_BOX else np.broadcast_to(fifty, points.shape)
        follows = values[index(mask | (1 << box), new_upper, new_fifty.astype(np.int64))]
        total = points + bonus + extra + follows
        total[:, (mask >> box) & 1 == 1] = -np.inf
        np.maximum(best, total, out=best)
    return best


def solve() -> np.ndarray:
    reroll, subs, reach = reroll_matrix(), sub_keeps(), reachable_uppers()
    first = reroll[KEEP_AT[()]]
    values = np.zeros(8192 * 128)
    for filled in range(12, -1, -1):
        states = [(m, u, f) for m in range(8192) if m.bit_count() == filled
                  for u in np.flatnonzero(reach[m & 63])
                  for f in ((0, 1) if m >> YAHTZEE_BOX & 1 else (0,))]  # fmt: skip
        mask, upper, fifty = (np.array(column) for column in zip(*states, strict=True))
        for start in range(0, len(mask), CHUNK):
            part = slice(start, start + CHUNK)
            rolls = final_values(mask[part], upper[part], fifty[part], values)
            for _ in range(2):  # two rerolls: the best keep of each roll, then its chances
                rolls = (reroll @ rolls)[subs].max(axis=1)
            values[index(mask[part], upper[part], fifty[part])] = first @ rolls
    return values


if __name__ == "__main__":
    started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    mean = solve()[0]
    seconds, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF)
    system = after.ru_stime - before.ru_stime
    cpu = after.ru_utime - before.ru_utime + system
    print(f"{mean:.4f} {seconds:.2f} {cpu:.2f} {system:.2f} {after.ru_maxrss / 1024:.0f}")
