"""The optimal solitaire strategy, computed exactly by backward induction (numpy, no Django).

A turn starts in a state: which boxes are filled, the upper total capped at 63, and whether
the Yahtzee box holds 50. Its value is the expected score still to come under optimal play.
Within a turn there are 252 distinct rolls and 462 multisets of kept dice; the values flow
back from the final roll (choose a box) through two rerolls (choose what to keep) to the
state's value. Every score and every joker placement comes from `scorecard.engine.rules`.

States are solved a level at a time (every box open, then all but one, ...), many at once, and only
those that can occur: 536,448 of the 1,048,576 combinations.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any, Literal, overload

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import threadpool_limits

from scorecard.engine import odds, rules, tables
from scorecard.engine.rules import Box, FamilyBox, JokerRule

BOXES = list(rules.YAHTZEE.boxes)
DICE = rules.YAHTZEE.dice_count
YAHTZEE_BIT = 1 << BOXES.index(Box.YAHTZEE)
UPPER_MASK = (1 << len(rules.UPPER_BOXES)) - 1
FULL_MASK = (1 << len(BOXES)) - 1
CAP = rules.UPPER_BONUS_THRESHOLD
MASK_SHIFT = CAP.bit_length() + 1  # a state index: mask, upper total 0..63, fifty (one bit)
STATE_COUNT = (FULL_MASK + 1) << MASK_SHIFT
CHUNK = 512  # states solved at once: larger is a little faster; 1,536 took 93 MB, not 66
# 3: a value for every state index (0 where none occurs) and the five-alike table, each its
# own .npy mapped into memory; 2 kept the reachable states only, in one .npz beside it.
FORMAT = 3


# A long solve reports (levels done, levels in all) as it goes.
type Progress = Callable[[int, int], None]

# Arrays by what they hold: expected values or chances; points (whole, in either kind of
# array); state or table indices (also states given as arrays, a chunk at once); yes or no.
Values = NDArray[np.floating[Any]]
Numbers = NDArray[np.integer[Any] | np.floating[Any]]
Indices = NDArray[np.integer[Any]]
Flags = NDArray[np.bool_]


# Numbers give a number and arrays an array; mypy cannot tell "all numbers" from a union that
# may hold arrays, so it calls the two overlapping.
@overload
def state_index(mask: int, upper: int, fifty: int) -> int: ...  # type: ignore[overload-overlap]
@overload
def state_index(mask: int | Indices, upper: int | Indices, fifty: int | Indices) -> Indices: ...
def state_index(mask: int | Indices, upper: int | Indices, fifty: int | Indices) -> int | Indices:
    return (mask << MASK_SHIFT) | (upper << 1) | fifty


def unpack(index: Indices) -> tuple[Indices, Indices, Indices]:
    """States' (masks, upper totals, Yahtzee box holds 50): `state_index` undone."""
    return index >> MASK_SHIFT, (index >> 1) & CAP, index & 1


# --- Dice: rolls, keeps and the chances between them ------------------------------------------

ROLLS = rules.ALL_ROLLS
ROLL_INDEX = {roll: index for index, roll in enumerate(ROLLS)}
KEEPS = [
    k
    for size in range(DICE + 1)
    for k in itertools.combinations_with_replacement(rules.FACES, size)
]
KEEP_INDEX = {keep: index for index, keep in enumerate(KEEPS)}
YAHTZEE_ROLLS = np.array([ROLL_INDEX[(face,) * DICE] for face in rules.FACES])


FIRST_ROLL = np.array([odds.chance_of(roll) for roll in ROLLS])  # five fresh dice
ROLL_AS_KEEP = np.array([KEEP_INDEX[roll] for roll in ROLLS])
# Keeps are listed by size and the rolls in the same order, so the rolls are the last rows
# of the keeps: a slice, which reads and writes them without a copy.
ROLL_ROWS = slice(len(KEEPS) - len(ROLLS), len(KEEPS))
assert (np.arange(len(KEEPS))[ROLL_ROWS] == ROLL_AS_KEEP).all()


def _sub_keeps_by_size() -> list[tuple[Indices, Indices]]:
    """Keeps in growing size, grouped by how many distinct keeps one die smaller they hold,
    with those smaller keeps: the steps of a max over every sub-multiset."""
    steps = []
    for size in range(1, DICE + 1):
        groups: dict[int, list[tuple[tuple[int, ...], list[int]]]] = {}
        for keep in (k for k in KEEPS if len(k) == size):
            smaller = sorted({keep[:i] + keep[i + 1 :] for i in range(size)})
            groups.setdefault(len(smaller), []).append((keep, [KEEP_INDEX[s] for s in smaller]))
        for members in groups.values():
            keeps = np.array([KEEP_INDEX[keep] for keep, _ in members])
            steps.append((keeps, np.array([parents for _, parents in members])))
    return steps


SUB_KEEPS = _sub_keeps_by_size()
_SCORES_BY_ROLL = [rules.STANDARD.scores(roll) for roll in ROLLS]  # each roll asked once
SCORES = np.array([[by_roll[box] for by_roll in _SCORES_BY_ROLL] for box in BOXES], dtype=np.int64)


def best_keep_values(keep_values: Values) -> Values:
    """For each roll, the best value over every multiset of its dice that may be kept.

    Arrays are keep-major (a row per keep, a column per state), so each step copies rows.
    The keep values given are overwritten (every caller makes them fresh for this, and a
    copy would be one more of a build's largest arrays); the answer is a view of them."""
    by_roll: Values = _best_over_sub_keeps(keep_values)
    return by_roll


def _best_over_sub_keeps[T: np.generic](keeps: NDArray[T]) -> NDArray[T]:
    """For each roll (rows of the answer, a view of `keeps`, which is overwritten), the
    largest entry of any keep of its dice."""
    best = keeps
    for rows, parents in SUB_KEEPS:
        row = best[rows]
        for column in range(parents.shape[1]):
            np.maximum(row, best[parents[:, column]], out=row)
        best[rows] = row
    return best[ROLL_ROWS]


# Labelled values: a non-negative float64's bits, read as an int64, sort as the value does.
# With its lowest bits replaced by a label (a keep or a box), one max finds both the best
# value and whose it is, where tracking the choice beside the values took twice the time.
# The value loses those bits (a relative 2**-43 at most: a choice between values that close
# may go either way, worth less than 1e-10 of a point). Ties go to the larger label.
type Keys = NDArray[np.int64]


def labelled(values: Values, labels: Indices | int, bits: int) -> Keys:
    """Non-negative `values` (or -inf: below every other) as keys carrying `labels`, in
    place: the answer is the values' own memory (every caller has them fresh)."""
    keys: Keys = values.view(np.int64)
    keys &= ~((1 << bits) - 1)
    keys |= labels
    return keys


def label_of(keys: Keys, bits: int) -> Indices:
    labels: Indices = keys & ((1 << bits) - 1)
    return labels


def value_of(keys: Keys, bits: int) -> Values:
    values: Values = (keys & ~((1 << bits) - 1)).view(np.float64)
    return values


KEEP_BITS = (len(KEEPS) - 1).bit_length()  # a keep's rank as a label
BOX_BITS = 5  # a box's number as a label: up to 31 boxes


def _keeps_by_preference() -> Indices:
    """The keeps (KEEPS indices) in the order a tie between equal values goes to the later
    one, as `rate_keeps` lists them: the more dice kept, then the lower faces."""
    return np.array(
        sorted(range(len(KEEPS)), key=lambda i: (len(KEEPS[i]), [-face for face in KEEPS[i]]))
    )


KEEP_OF_RANK = _keeps_by_preference()
KEEP_RANK = np.argsort(KEEP_OF_RANK)[:, None]


def best_keeps(keep_values: Values) -> tuple[Indices, Values]:
    """For each roll (rows) and state (columns): the index in KEEPS of a best keep, and its
    value (labelled, so less its lowest bits)."""
    best = _best_over_sub_keeps(labelled(keep_values, KEEP_RANK, KEEP_BITS))
    return KEEP_OF_RANK[label_of(best, KEEP_BITS)], value_of(best, KEEP_BITS)


def turn_keep_choices(finals: Values) -> tuple[Indices, Indices]:
    """The optimal keeps of a turn whose final rolls are worth `finals` (never negative):
    the chosen keep (a KEEPS index) of each roll (rows) in each state (columns), with one
    and with two rerolls left."""
    one_left, held = best_keeps(keep_values(finals))
    two_left, _ = best_keeps(keep_values(held))
    return one_left, two_left


def turn_values(final_values: Values) -> tuple[Values, Values, Values]:
    """From the value of each final roll (a row per roll, a column per state) to the value of
    each roll with 1 and 2 rerolls left, and of the turn itself."""
    one_left = best_keep_values(keep_values(final_values))
    two_left = best_keep_values(keep_values(one_left))
    return one_left, two_left, FIRST_ROLL @ two_left


def _children_by_size() -> list[tuple[Indices, Indices]]:
    """For keeps of 4 dice down to none: each keep and the six keeps one die larger."""
    levels = []
    for size in range(DICE - 1, -1, -1):
        keeps = [k for k in KEEPS if len(k) == size]
        children = [[KEEP_INDEX[tuple(sorted((*k, face)))] for face in rules.FACES] for k in keeps]
        levels.append((np.array([KEEP_INDEX[k] for k in keeps]), np.array(children)))
    return levels


CHILDREN = _children_by_size()


def _flow_order() -> tuple[Indices, list[tuple[slice, Indices]]]:
    """The keeps in the order their chances flow in (`rolled_chances`): by size, and within
    a size grouped by how many distinct keeps one die smaller each has, so that each group
    is a slice and gathers exactly its keeps' smaller ones (a row of zeros for the rest was
    two fifths of the flow). Answers each keep's place in this order (by KEEPS index), and
    for each group of 1 die or more, its slice and the places of its smaller keeps, in
    KEEPS order (the order the sums were always made in)."""
    order: list[int] = []
    groups = []
    for size in range(DICE + 1):
        keeps = [k for k in KEEPS if len(k) == size]
        smaller = {k: sorted({KEEP_INDEX[k[:i] + k[i + 1 :]] for i in range(size)}) for k in keeps}
        for distinct in sorted({len(parents) for parents in smaller.values()}):
            members = [k for k in keeps if len(smaller[k]) == distinct]
            first = len(order)
            order += [KEEP_INDEX[k] for k in members]
            if size:
                groups.append((slice(first, len(order)), [smaller[k] for k in members]))
    place = np.empty(len(KEEPS), dtype=np.int64)
    place[order] = np.arange(len(KEEPS))
    return place, [(block, place[np.array(parents)]) for block, parents in groups]


FLOW_PLACE, FLOW_GROUPS = _flow_order()
FLOW_ROLLS = FLOW_PLACE[ROLL_AS_KEEP]  # each roll's place, in ROLLS order
FLOW_OF_RANK = FLOW_PLACE[KEEP_OF_RANK]  # a keep's place by its rank as a label

# The policy passes keep the keeps' values in flow order too: then each group's best is a
# max over its slice in place, with no gather and scatter of its rows. The rolls (the largest
# keeps) hold the last places there, as in KEEPS, but in another order than ROLLS.
ROLL_PLACES = ROLL_ROWS
assert (np.sort(FLOW_ROLLS) == np.arange(len(KEEPS))[ROLL_PLACES]).all()
PLACE_OF_ROLL = FLOW_ROLLS - ROLL_PLACES.start  # each roll's place among the rolls' places
ROLL_AT_PLACE = np.argsort(PLACE_OF_ROLL)  # and the roll (a ROLLS index) at each of them
FLOW_KEEP_RANK = KEEP_RANK[np.argsort(FLOW_PLACE)]  # the rank of the keep at each place


def _flow_children() -> list[tuple[slice, Indices]]:
    """`CHILDREN` in flow order: for keeps of 4 dice down to none, their places (a slice:
    the keeps of a size are together) and the places of their six children, face by face."""
    levels = []
    for keeps, children in CHILDREN:
        places = FLOW_PLACE[keeps]
        order = np.argsort(places)
        block = slice(int(places.min()), int(places.max()) + 1)
        assert block.stop - block.start == len(keeps)
        levels.append((block, FLOW_PLACE[children[order]]))
    return levels


FLOW_CHILDREN = _flow_children()
# The same, each column of indices on its own (contiguous: `take` copies any other first).
FLOW_CHILD_COLUMNS = [(block, list(children.T.copy())) for block, children in FLOW_CHILDREN]
FLOW_GROUP_COLUMNS = [(block, list(parents.T.copy())) for block, parents in FLOW_GROUPS]


def rolled_chances(kept: Values) -> Values:
    """The chance of each roll (rows) after the dice not kept are rolled, from the chance of
    each keep (rows of KEEPS) being kept, a column per state: `keep_values` backwards. A
    keep's chance flows a die at a time, a sixth to each keep one die larger, so a keep
    gathers a sixth of the chance of each distinct keep one die smaller."""
    flowing = np.empty_like(kept)
    flowing[FLOW_PLACE] = kept
    rolled: Values = _rolled_in_flow_order(flowing).take(PLACE_OF_ROLL, axis=0, mode="clip")
    return rolled


def _rolled_in_flow_order(chances: Values) -> Values:
    """`rolled_chances` of keeps' chances in `_flow_order`, which are overwritten: a row per
    roll's place (`ROLL_PLACES`), a view of the rows given."""
    for block, parents in FLOW_GROUP_COLUMNS:
        inflow = chances.take(parents[0], axis=0, mode="clip")
        for column in parents[1:]:
            inflow += chances.take(column, axis=0, mode="clip")
        inflow /= 6
        chances[block] += inflow
    return chances[ROLL_PLACES]


def policy_roll_chances(finals: Values) -> Values:
    """The chance of each final roll (rows) in each state (columns) when the dice kept before
    each reroll are the best for `finals`: the first roll's chances, carried through each
    chosen keep (a bincount gathers the rolls that keep the same dice) and its reroll."""

    def fill(rolls: Values) -> None:
        finals.take(ROLL_AT_PLACE, axis=0, out=rolls, mode="clip")

    by_place = policy_chances_in_flow_order(finals.shape[1], fill)[0]
    chances: Values = by_place.take(PLACE_OF_ROLL, axis=0, mode="clip")
    return chances


def policy_chances_in_flow_order[T](count: int, fill: Callable[[Values], T]) -> tuple[Values, T]:
    """`policy_roll_chances` of `count` states whose final rolls' values `fill` writes into
    the rolls' places (`ROLL_PLACES`: a row per roll, in flow order) of the keeps' values
    made here, with what `fill` answers; the chances too are a row per roll's place (every
    step keeps the rolls in that order, so none of them reorders a chunk's rolls). The
    keeps' values are this function's alone, so their memory is free again before the
    chances are carried through the keeps."""
    values = np.empty((len(KEEPS), count))
    made = fill(values[ROLL_PLACES])
    keys = _keep_keys_in_flow_order(values)
    one_left = _chosen_cells(keys)
    # The rolls' places now hold each roll's best key with one reroll left: less its label,
    # its value, from which the keeps' values before the first reroll are made in place.
    keys[ROLL_PLACES] &= ~((1 << KEEP_BITS) - 1)
    two_left = _chosen_cells(_keep_keys_in_flow_order(values))
    del keys, values
    chances = _first_roll_weights(count)
    for choice in (two_left, one_left):
        kept = np.bincount(choice.ravel(), weights=chances.ravel(), minlength=len(KEEPS) * count)
        chances = _rolled_in_flow_order(kept.reshape(len(KEEPS), count))
    return chances, made


@functools.lru_cache(maxsize=1)  # a build's chunks are of one size (but a level's last)
def _first_roll_weights(count: int) -> Values:
    """The first roll's chances, a row per roll's place and a column for each of `count`
    states (read-only)."""
    weights = np.repeat(FIRST_ROLL[ROLL_AT_PLACE], count).reshape(len(ROLLS), count)
    weights.flags.writeable = False
    return weights


def _keep_keys_in_flow_order(values: Values) -> Keys:
    """The keeps' values (`_keep_values_in_flow_order`, in place) labelled with their ranks."""
    return labelled(_keep_values_in_flow_order(values), FLOW_KEEP_RANK, KEEP_BITS)


def _keep_values_in_flow_order(values: Values) -> Values:
    """`keep_values` in flow order, in place: from the rolls' places to every other's."""
    for block, children in FLOW_CHILD_COLUMNS:
        total = values.take(children[0], axis=0, mode="clip")
        for column in children[1:-1]:
            total += values.take(column, axis=0, mode="clip")
        np.add(total, values.take(children[-1], axis=0, mode="clip"), out=values[block])
        values[block] /= 6
    return values


def _chosen_cells(keys: Keys) -> Indices:
    """For each roll (rows, by the rolls' places) and state (columns): the cell of its best
    keep in a table of a row per keep in flow order and a column per state (a flat index),
    from keys labelled with their keep's rank (in flow order; overwritten)."""
    for block, parents in FLOW_GROUP_COLUMNS:
        best = keys[block]
        for column in parents:
            np.maximum(best, keys.take(column, axis=0, mode="clip"), out=best)
    count = keys.shape[1]
    ranks = keys[ROLL_PLACES] & ((1 << KEEP_BITS) - 1)
    cells: Indices = (FLOW_OF_RANK * count).take(ranks, mode="wrap")
    cells += np.arange(count)
    return cells


def keep_values(roll_values: Values) -> Values:
    """The expected value of every keep: keeping all five is the roll itself, and a smaller
    keep is worth the average over the six faces its next die can show."""
    values = np.empty((len(KEEPS), roll_values.shape[1]), dtype=roll_values.dtype)
    values[ROLL_ROWS] = roll_values
    for keeps, children in CHILDREN:
        total = values[children[:, 0]]
        for column in range(1, 6):
            total += values[children[:, column]]
        total /= 6
        values[keeps] = total
    return values


# --- States -------------------------------------------------------------------------------------


@cache
def reachable_uppers(cap: int) -> Flags:
    """reach[upper mask, total]: whether filled upper boxes (the first six of every card) can
    add up to that total, capped at `cap`. Made once per cap (read-only: it is shared), so
    Yatzy's strategy, whose threshold is Yahtzee's 63, finds it made at import."""
    reach = np.zeros((UPPER_MASK + 1, cap + 1), dtype=bool)
    for mask in range(UPPER_MASK + 1):
        totals = {0}
        for face in rules.FACES:
            if mask >> (face - 1) & 1:
                totals = {min(cap, t + face * n) for t in totals for n in range(DICE + 1)}
        reach[mask, sorted(totals)] = True
    reach.flags.writeable = False
    return reach


REACHABLE_UPPER = reachable_uppers(CAP)


def reachable_states(masks: Indices) -> tuple[Indices, Indices, Indices]:
    """Every state that can occur with these filled-box masks, as (mask, upper, fifty)."""
    found: tuple[list[NDArray[np.int64]], ...] = ([], [], [])
    for mask in masks.tolist():
        uppers = np.flatnonzero(REACHABLE_UPPER[mask & UPPER_MASK])
        for fifty in (0, 1) if mask & YAHTZEE_BIT else (0,):
            found[0].append(np.full(len(uppers), mask))
            found[1].append(uppers)
            found[2].append(np.full(len(uppers), fifty))
    return np.concatenate(found[0]), np.concatenate(found[1]), np.concatenate(found[2])


def all_reachable_indices() -> Indices:
    """Every reachable state's index, ascending: `state_index` is the flat position in a
    (mask, upper, fifty) grid, so the reachable cells of that grid are the answer."""
    masks = np.arange(FULL_MASK + 1)
    grid = np.zeros((FULL_MASK + 1, CAP + 1, 2), dtype=bool)
    grid[:, :, 0] = REACHABLE_UPPER[masks & UPPER_MASK]
    grid[:, :, 1] = grid[:, :, 0] & (masks & YAHTZEE_BIT > 0)[:, None]
    return np.flatnonzero(grid)


def _pattern_card(mask: int, fifty: int) -> dict[Box, int]:
    """A card with these boxes filled; only which are filled and the Yahtzee box matter."""
    card = {box: min(rules.achievable_points(box)) for i, box in enumerate(BOXES) if mask >> i & 1}
    if mask & YAHTZEE_BIT:
        card[Box.YAHTZEE] = rules.YAHTZEE_POINTS if fifty else 0
    return card


_five_alike: dict[JokerRule, NDArray[np.int16]] = {}


def five_alike_table(joker: JokerRule) -> NDArray[np.int16]:
    """For each card pattern (mask, fifty) and five of each face: the points every box would
    score, or -1 where the rule forbids it. Asked of `rules.options` once per pattern when a
    table is built, and saved with it, so advice in a new process need not ask again."""
    if joker not in _five_alike:
        _five_alike[joker] = _build_five_alike_table(joker)
    return _five_alike[joker]


def _build_five_alike_table(joker: JokerRule) -> NDArray[np.int16]:
    table = np.full(((FULL_MASK + 1) * 2, 6, len(BOXES)), -1, dtype=np.int16)
    for mask in range(FULL_MASK):  # a full card has no turn left
        for fifty in (0, 1) if mask & YAHTZEE_BIT else (0,):
            card = _pattern_card(mask, fifty)
            for face in rules.FACES:
                dice = (face,) * DICE
                choices: Iterable[tuple[Box, int]]
                if rules.joker_applies(card, dice, joker):
                    choices = rules.options(card, dice, joker).items()
                else:  # an ordinary roll: every open box at its ordinary value
                    choices = [(b, SCORES[i, ROLL_INDEX[dice]]) for i, b in enumerate(BOXES)
                               if not mask >> i & 1]  # fmt: skip
                for box, points in choices:
                    table[mask * 2 + fifty, face - 1, BOXES.index(box)] = points
    return table


@cache
def _bonus(fifty: int, joker: JokerRule) -> int:
    card = _pattern_card(YAHTZEE_BIT, fifty)
    return rules.yahtzee_bonus(card, (1,) * DICE, joker)


FACE_COUNTS = np.array([[roll.count(face) for roll in ROLLS] for face in rules.FACES])
ORDINARY_ROLLS = np.array([i for i in range(len(ROLLS)) if i not in set(YAHTZEE_ROLLS.tolist())])
# For each box, the ordinary (not five-alike) rolls that score something in it.
SCORING_ROLLS = [ORDINARY_ROLLS[SCORES[b, ORDINARY_ROLLS] > 0] for b in range(len(BOXES))]


@overload
def final_roll_values(
    masks: Indices,
    uppers: Indices,
    fifties: Indices,
    future: Values,
    joker: JokerRule,
    choices: Literal[False] = False,
) -> Values: ...
@overload
def final_roll_values(
    masks: Indices,
    uppers: Indices,
    fifties: Indices,
    future: Values,
    joker: JokerRule,
    choices: Literal[True],
) -> tuple[Values, Numbers, Indices]: ...
def final_roll_values(
    masks: Indices,
    uppers: Indices,
    fifties: Indices,
    future: Values,
    joker: JokerRule,
    choices: bool = False,
) -> Values | tuple[Values, Numbers, Indices]:
    """Best value of each final roll (rows) in each state (columns): a box's points, any
    bonus, and what the next state is worth.

    Every box's zero (a scratch) is gathered once per state; a box is then tried only on the
    rolls that score in it, which is exact because scoring never leaves a box worth less than
    its scratch. Five alike are scored apart, with the rule's joker table.

    With `choices`, also what the best box gives: its points with any bonus, and the index
    of the state it leads to (arrays shaped like the values), for passes that follow the
    optimal policy (`distribution`)."""
    count = len(masks)
    best = np.full((len(ROLLS), count), -np.inf)
    scratch = np.full(count, -np.inf)
    five_best = np.full((6, count), -np.inf)
    track = _Choices(count) if choices else None
    five = five_alike_table(joker)[masks * 2 + fifties].transpose(2, 1, 0)  # box, face, state
    for b, box in enumerate(BOXES):
        closed = (masks >> b) & 1
        if closed.all():
            continue  # filled on every card of this chunk
        penalty = np.where(closed, -np.inf, 0.0)
        after = masks | (1 << b)
        points5 = five[b]
        rows = SCORING_ROLLS[b]
        if box.is_upper:
            counts = np.arange(DICE + 1)[:, None]
            new_upper = np.minimum(CAP, uppers + box.upper_face * counts)
            crossing = (uppers < CAP) & (new_upper >= CAP)
            gained = box.upper_face * counts + np.where(crossing, rules.UPPER_BONUS, 0)
            nexts = state_index(after, new_upper, fifties)
            by_count = gained + future[nexts] + penalty
            zero, zero_next = by_count[0], nexts[0]
            on_rolls = FACE_COUNTS[box.upper_face - 1, rows]
            if track:
                track.better(best, rows, by_count[on_rolls], gained[on_rolls], nexts[on_rolls])
            best[rows] = np.maximum(best[rows], by_count[on_rolls])
            by_five = np.maximum(points5, 0) // box.upper_face
            values5 = np.take_along_axis(by_count, by_five, axis=0)
            if track:
                shape = by_count.shape
                gained5 = np.take_along_axis(np.broadcast_to(gained, shape), by_five, axis=0)
                next5 = np.take_along_axis(np.broadcast_to(nexts, shape), by_five, axis=0)
        elif box is Box.YAHTZEE:
            zero_next = state_index(after, uppers, 0)
            fifty_next = state_index(after, uppers, 1)
            zero = future[zero_next] + penalty
            fifty = future[fifty_next] + penalty + rules.YAHTZEE_POINTS
            scored = points5 == rules.YAHTZEE_POINTS
            values5 = np.where(scored, fifty, zero)
            if track:
                gained5 = np.where(scored, rules.YAHTZEE_POINTS, 0)
                next5 = np.where(scored, fifty_next, zero_next)
        else:
            zero_next = state_index(after, uppers, fifties)
            zero = future[zero_next] + penalty
            candidate = SCORES[b, rows][:, None] + zero
            if track:
                points = np.broadcast_to(SCORES[b, rows][:, None], candidate.shape)
                track.better(
                    best, rows, candidate, points, np.broadcast_to(zero_next, candidate.shape)
                )
            best[rows] = np.maximum(best[rows], candidate)
            values5 = points5 + zero
            if track:
                gained5 = np.broadcast_to(points5, values5.shape)
                next5 = np.broadcast_to(zero_next, values5.shape)
        if len(rows) < len(ORDINARY_ROLLS):  # Chance never scores zero
            if track:
                track.better_scratch(scratch, zero, zero_next)
            np.maximum(scratch, zero, out=scratch)
        values5 = np.where(points5 >= 0, values5, -np.inf)
        if track:
            track.better_five(five_best, values5, gained5, next5)
        np.maximum(five_best, values5, out=five_best)
    if track:
        track.settle(best, scratch)
    np.maximum(best, scratch, out=best)
    bonus = np.array([_bonus(f, joker) for f in (0, 1)])[fifties] * ((masks & YAHTZEE_BIT) > 0)
    best[YAHTZEE_ROLLS] = five_best + bonus
    if track:
        track.points[YAHTZEE_ROLLS] = track.five_points + bonus
        track.next[YAHTZEE_ROLLS] = track.five_next
        return best, track.points, track.next
    return best


class _Choices:
    """The points and next state of the best box so far, for every final roll and state."""

    def __init__(self, count: int) -> None:
        self.points = np.zeros((len(ROLLS), count))
        self.next = np.zeros((len(ROLLS), count), dtype=np.int64)
        self.scratch_next = np.zeros(count, dtype=np.int64)
        self.five_points = np.zeros((6, count))
        self.five_next = np.zeros((6, count), dtype=np.int64)

    def better(
        self,
        best: Values,
        rows: Indices,
        candidate: Values,
        points: Numbers,
        nexts: Indices,
    ) -> None:
        wins = candidate > best[rows]
        chosen_points, chosen_next = self.points[rows], self.next[rows]
        np.copyto(chosen_points, points, where=wins)
        np.copyto(chosen_next, nexts, where=wins)
        self.points[rows], self.next[rows] = chosen_points, chosen_next

    def better_scratch(self, scratch: Values, zero: Values, zero_next: Indices) -> None:
        self.scratch_next = np.where(zero > scratch, zero_next, self.scratch_next)

    def better_five(
        self, five_best: Values, values5: Values, gained5: Numbers, next5: Indices
    ) -> None:
        wins = values5 > five_best
        self.five_points = np.where(wins, gained5, self.five_points)
        self.five_next = np.where(wins, next5, self.five_next)

    def settle(self, best: Values, scratch: Values) -> None:
        """Where a scratch beats every scoring box: 0 points, the scratched box's state."""
        wins = scratch > best
        self.points = np.where(wins, 0.0, self.points)
        self.next = np.where(wins, self.scratch_next, self.next)


def solve(joker: JokerRule, progress: Progress | None = None) -> Values:
    """The value of every reachable state (a dense array indexed by `state_index`)."""
    future = np.zeros(STATE_COUNT)
    five_alike_table(joker)

    def solve_chunk(masks: Indices, uppers: Indices, fifties: Indices) -> None:
        finals = final_roll_values(masks, uppers, fifties, future, joker)
        future[state_index(masks, uppers, fifties)] = turn_values(finals)[2]

    by_level(solve_chunk, CHUNK, progress)
    return future


def by_level(
    solve_chunk: Callable[[Indices, Indices, Indices], None],
    chunk: int,
    progress: Progress | None = None,
) -> None:
    """Call `solve_chunk(masks, uppers, fifties)` on every reachable state with a turn left,
    `chunk` states at a time, a level at a time from the most boxes filled to the fewest:
    the order of a backward pass."""
    by_filled = sorted(range(FULL_MASK), key=lambda mask: -mask.bit_count())
    levels = itertools.groupby(by_filled, key=lambda mask: mask.bit_count())
    states = (reachable_states(np.array(list(group))) for _, group in levels)
    solve_levels(states, solve_chunk, chunk, len(BOXES), progress)


def solve_levels(
    levels: Iterable[tuple[Indices, Indices, Indices]],
    solve_chunk: Callable[[Indices, Indices, Indices], None],
    chunk: int,
    count: int,
    progress: Progress | None = None,
    threads: int | None = None,
) -> None:
    """Call `solve_chunk` on the states of each level in turn (`count` levels), `chunk` states
    at a time, with `threads` threads (default: one a core)."""
    # Chunks of one level depend only on levels already solved; numpy releases the GIL in its
    # loops, so a thread per core keeps them busy (and BLAS must not start threads of its own).
    # SOLVER_THREADS overrides the count, e.g. on a shared server.
    workers = int(os.environ.get("SOLVER_THREADS", threads or os.cpu_count() or 1))
    _keep_freed_memory()
    with threadpool_limits(1), ThreadPoolExecutor(max_workers=workers) as pool:
        for done, (masks, uppers, fifties) in enumerate(levels, start=1):
            chunks = [
                (masks[i : i + chunk], uppers[i : i + chunk], fifties[i : i + chunk])
                for i in range(0, len(masks), chunk)
            ]
            list(pool.map(lambda part: solve_chunk(*part), chunks))
            if progress:
                progress(done, count)


def _keep_freed_memory() -> None:
    """A build frees and allocates the same few megabytes of scratch arrays thousands of
    times. glibc hands a freed large block back to the kernel and the next allocation
    faults its pages in again: that was 35-45% of a build's CPU time, all of it system
    time. So freed blocks stay in the process for reuse, in one pool shared by the solver's
    threads (a pool each kept 10 MB more in all). Only builds run this; other C libraries
    keep their own ways."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is not None:
        mallopt(M_MMAP_THRESHOLD, 32 << 20)  # glibc's largest: blocks up to 32 MB reuse the heap
        mallopt(M_TRIM_THRESHOLD, 1 << 30)  # which is not trimmed after each chunk
        mallopt(M_ARENA_MAX, 1)


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8  # glibc's malloc.h


def expected_score(joker: JokerRule = JokerRule.HASBRO) -> float:
    """The optimal expected final score of a whole game."""
    return float(load(joker)[0])


# --- Tables on disk -------------------------------------------------------------------------


def table_path(joker: JokerRule) -> Path:
    """The state values: written last, so its presence says the rule's tables are there."""
    return tables.table_file(f"strategy-{joker.key}-v{FORMAT}.npy")


def five_alike_path(joker: JokerRule) -> Path:
    return tables.table_file(f"five-alike-{joker.key}-v{FORMAT}.npy")


def old_table_path(joker: JokerRule) -> Path:
    """Where format 2 kept a rule's tables (`convert_old_table` reads it once)."""
    return tables.table_file(f"strategy-{joker.key}-v2.npz")


@cache
def _reachable() -> Indices:
    return all_reachable_indices().astype(np.int32)  # half the memory: indices < 2**20


def save(joker: JokerRule, values: Values) -> Path:
    """Each file is replaced atomically, the values last (see `table_path`)."""
    tables.save_array(five_alike_path(joker), five_alike_table(joker))
    return tables.save_array(table_path(joker), values)


def convert_old_table(joker: JokerRule) -> Path | None:
    """A rule's tables in format 2, if there, written in this format (the same values,
    nothing solved again) and the old file removed; None when there was none."""
    old = old_table_path(joker)
    if not old.exists():
        return None
    values = np.zeros(STATE_COUNT)
    with np.load(old) as saved:
        values[_reachable()] = saved["values"]
        tables.save_array(five_alike_path(joker), saved["five_alike"])
    path = tables.save_array(table_path(joker), values)  # last, as `save` writes them
    old.unlink()
    return path


_loaded: dict[JokerRule, Values] = {}


def forget(joker: JokerRule) -> None:
    """Drop a rule's table from memory, so the next use reads it again."""
    _loaded.pop(joker, None)
    _five_alike.pop(joker, None)


def is_ready(joker: JokerRule) -> bool:
    """Whether a rule's table is in memory or on disk; a request never builds one."""
    return joker in _loaded or table_path(joker).exists()


def load(joker: JokerRule) -> Values:
    """The state values for a rule, mapped into memory (read-only) from disk, else solved
    and saved first (only from `manage.py build_strategy` and tests: views ask `is_ready`)."""
    if joker not in _loaded:
        if not table_path(joker).exists():
            save(joker, solve(joker))
        five_alike_shape = ((FULL_MASK + 1) * 2, len(rules.FACES), len(BOXES))
        _five_alike[joker] = tables.mapped(five_alike_path(joker), five_alike_shape, np.int16)
        _loaded[joker] = tables.mapped(table_path(joker), (STATE_COUNT,), np.float64)
    return _loaded[joker]


# --- Advice for one position ----------------------------------------------------------------


def state_of(filled: Mapping[Box, int]) -> tuple[int, int, int]:
    """A card's state: (filled-box mask, upper total capped at 63, Yahtzee box holds 50)."""
    mask = sum(1 << BOXES.index(box) for box in filled)
    upper = min(CAP, sum(points for box, points in filled.items() if box.is_upper))
    return mask, upper, int(filled.get(Box.YAHTZEE) == rules.YAHTZEE_POINTS)


def rate_boxes(
    filled: Mapping[Box, int],
    dice: Iterable[int],
    joker: JokerRule = JokerRule.HASBRO,
    extra_yahtzees: int = 0,
) -> dict[Box, float]:
    """For a final roll: every legal box and the expected final total if it is filled now."""
    future = load(joker)
    dice = rules.parse_dice(dice)
    bonus = rules.yahtzee_bonus(filled, dice, joker)
    rated: dict[Box, float] = {}
    for box, points in rules.options(filled, dice, joker).items():
        card = {**filled, box: points}
        now = rules.totals(card, extra_yahtzees + bool(bonus)).total
        rated[box] = now + float(future[state_index(*state_of(card))])
    return rated


def rate_keeps(
    filled: Mapping[Box, int],
    dice: Iterable[int],
    rolls_left: int,
    joker: JokerRule = JokerRule.HASBRO,
    extra_yahtzees: int = 0,
) -> list[tuple[tuple[int, ...], float]]:
    """After a roll with rerolls left: every distinct set of dice to keep and the expected
    final total, best first. Keeping all five means stopping to score."""
    if rolls_left not in (1, 2):
        raise ValueError("Dice can be kept with one or two rerolls left.")
    dice = rules.parse_dice(dice)
    if len(filled) >= len(BOXES):
        raise ValueError("This card is full: every box is filled.")
    mask, upper, fifty = state_of(filled)
    finals = final_roll_values(
        np.array([mask]), np.array([upper]), np.array([fifty]), load(joker), joker
    )
    now = rules.totals(filled, extra_yahtzees).total
    return _rated_keeps(finals, dice, rolls_left, now)


def _rated_keeps(
    finals: Values, dice: rules.Dice, rolls_left: int, now: float = 0.0
) -> list[tuple[tuple[int, ...], float]]:
    """Every distinct set of `dice` to keep, with the value of keeping it when the final
    roll is worth `finals` (one column), plus `now`; best first, then the most dice kept."""
    values = keep_values(finals)
    if rolls_left == 2:
        values = keep_values(best_keep_values(values))
    keeps = {tuple(sorted(k)) for n in range(DICE + 1) for k in itertools.combinations(dice, n)}
    rated = {keep: now + float(values[KEEP_INDEX[keep], 0]) for keep in keeps}
    # Keeping every die stops the turn: the roll is scored now. With two rerolls left the
    # table's keep of all five is a roll skipped (still free to reroll later), worth more than
    # any box for these dice: "Keep all five 245.5" stood over "Chance 24, expected 245.0".
    rated[tuple(sorted(dice))] = now + float(finals[ROLL_INDEX[tuple(sorted(dice))], 0])
    return sorted(rated.items(), key=lambda item: (-item[1], -len(item[0]), item[0]))


# --- Playing to win the last turn ---------------------------------------------------------------


def share_of_first(final: int, rivals: list[int]) -> float:
    """The last player's share of first place on a final total of `final` against every
    rival's: all of it above the best rival, an equal share with those level with it, else
    none."""
    best_rival = max(rivals)
    if final != best_rival:
        return 1.0 if final > best_rival else 0.0
    return 1 / (rivals.count(best_rival) + 1)


def final_win_chances(
    filled: Mapping[Box, int], joker: JokerRule, extra_yahtzees: int, rivals: list[int]
) -> Values:
    """On a player's last turn, every rival finished: for each final roll, the chance it wins
    (`share_of_first` of the most it can total)."""
    chances = np.empty(len(ROLLS))
    for index, roll in enumerate(ROLLS):
        bonus = bool(rules.yahtzee_bonus(filled, roll, joker))
        final = max(
            rules.totals({**filled, box: points}, extra_yahtzees + bonus).total
            for box, points in rules.options(filled, roll, joker).items()
        )
        chances[index] = share_of_first(final, rivals)
    return chances


def win_chance_this_turn(
    filled: Mapping[Box, int], joker: JokerRule, extra_yahtzees: int, rivals: list[int]
) -> float:
    """Before the first roll of the last turn: the chance to win, playing to win."""
    return float(
        turn_values(final_win_chances(filled, joker, extra_yahtzees, rivals)[:, None])[2][0]
    )


def rate_keeps_to_win(
    filled: Mapping[Box, int],
    dice: Iterable[int],
    rolls_left: int,
    joker: JokerRule,
    extra_yahtzees: int,
    rivals: list[int],
) -> list[tuple[tuple[int, ...], float]]:
    """Like `rate_keeps`, but each keep's chance of finishing first (exact: the turn's rolls
    enumerated against the rivals' final totals), best first."""
    if rolls_left not in (1, 2):
        raise ValueError("Dice can be kept with one or two rerolls left.")
    finals = final_win_chances(filled, joker, extra_yahtzees, rivals)[:, None]
    return _rated_keeps(finals, rules.parse_dice(dice), rolls_left)


# --- Any other five-dice family: Yatzy, with its house switches, in any order ------------------


# Smaller than Yahtzee's chunk: a Yatzy table is larger, and this keeps a build within 100 MB.
FAMILY_CHUNK = 1024
# A box with this many scoring rolls of the 252 is spread over all of them (`final_roll_outcomes`).
DENSE_ROWS = 100


def _upper_ways(faces: range) -> tuple[list[Indices], Indices]:
    """For upper boxes of some faces (0 for ones), in a key table whose rows begin with a
    row per upper box and count of its face (`FamilyStrategy._key_table`): each distinct
    way the rolls show those faces (how many dice show each), its row of each box's key
    (a column of rows a face), and the way of the roll at each of the rolls' places."""
    counts = FACE_COUNTS[list(faces)].T[ROLL_AT_PLACE]  # a roll a row, by place
    ways, way_of_place = np.unique(counts, axis=0, return_inverse=True)
    rows = [face * (DICE + 1) + ways[:, column] for column, face in enumerate(faces)]
    return [np.ascontiguousarray(row) for row in rows], way_of_place.ravel()


class FamilyStrategy:
    """The optimal solitaire strategy of a five-dice family without jokers (Yatzy), for one
    table's house rules. A state is the filled-box mask and the upper total capped at the
    bonus threshold (the bonus is scored when it is reached), at `mask * (cap + 1) + upper`;
    totals that no longer matter are one state (`live_upper`).
    In forced order only the next box is open, so only the masks of the first boxes occur."""

    FORMAT = 2  # 2: a value for every state index, mapped into memory; 1: stored states' only

    def __init__(self, house: rules.HouseRules[FamilyBox]) -> None:
        family = house.family
        if not family.has_advice:
            raise rules.RuleViolation(f"There is no advice for {family.name} yet.")
        if family.has_jokers or family.dice_count != DICE:
            raise rules.RuleViolation(f"{family.name} is not solved by this strategy.")
        if [box.face for box in family.upper_boxes] != list(rules.FACES):
            raise rules.RuleViolation(f"{family.name} does not start with the six upper boxes.")
        self.house = house
        self.boxes = house.boxes
        self.cap = house.upper_bonus.threshold
        self.bonus = house.upper_bonus.points
        self.full_mask = (1 << len(self.boxes)) - 1
        self.state_count = (self.full_mask + 1) * (self.cap + 1)
        by_roll = [house.scores(roll) for roll in ROLLS]  # each roll's scores asked once
        self.scores = np.array(
            [[scores[box] for scores in by_roll] for box in self.boxes], dtype=np.int64
        )
        self.reach = reachable_uppers(self.cap)
        self.scoring_rows = [np.flatnonzero(row > 0) for row in self.scores]
        self.outcome_of = self._outcome_table()
        self._key_table_layout()
        self.outcome_count = int(self.outcome_of.max()) + 1
        # By upper mask: the lowest total from which its open upper boxes can reach the bonus.
        self.live_from = np.array(
            [self.cap - DICE * sum(f for f in rules.FACES if not upper >> (f - 1) & 1)
             for upper in range(UPPER_MASK + 1)]
        )  # fmt: skip

    def state_index(self, mask: int | Indices, upper: int | Indices) -> Indices:
        return np.asarray(mask * (self.cap + 1) + self.live_upper(mask, upper))

    def live_upper(self, mask: int | Indices, upper: int | Indices) -> Indices:
        """The upper total as far as the rest of the game cares: once the bonus is scored, or
        out of reach of the open upper boxes, every total plays the same (the bonus is
        counted when it is reached), so they are one state, at the threshold."""
        live = (upper >= self.live_from[mask & UPPER_MASK]) & (upper < self.cap)
        return np.where(live, upper, self.cap)

    def state_of(self, filled: Mapping[FamilyBox, int]) -> tuple[int, int]:
        """A card's state: (filled-box mask, upper total capped at the bonus threshold)."""
        mask = sum(1 << self.boxes.index(box) for box in filled)
        upper = min(self.cap, sum(points for box, points in filled.items() if box.is_upper))
        return mask, upper

    def levels(self) -> Iterator[tuple[Indices, Indices, Indices]]:
        """Every state with a turn left as (masks, uppers, zeros), a level of filled boxes at a
        time, the most filled first (made as they are asked for, to keep the memory down)."""
        if self.house.forced:
            by_level = [[(1 << filled) - 1] for filled in range(len(self.boxes) - 1, -1, -1)]
        else:
            ordered = sorted(range(self.full_mask), key=lambda mask: -mask.bit_count())
            grouped = itertools.groupby(ordered, key=lambda mask: mask.bit_count())
            by_level = [list(group) for _, group in grouped]
        totals = np.arange(self.cap + 1)
        for level in by_level:
            masks = np.array(level)
            # Each mask's distinct live totals, ascending, for every mask of the level at once:
            # its reachable totals that are live, and the threshold for all the others.
            reached = self.reach[masks & UPPER_MASK]
            live = self.live_upper(masks[:, None], totals[None, :]) == totals[None, :]
            found = reached & live
            found[:, self.cap] |= (reached & ~live).any(axis=1)
            rows, uppers = np.nonzero(found)
            yield masks[rows], uppers, np.zeros_like(uppers)

    def final_roll_values(self, masks: Indices, uppers: Indices, future: Values) -> Values:
        """Best value of each final roll (rows) in each state (columns): a box's points, the
        upper bonus when they reach it, and what the next state is worth.

        As for Yahtzee, every box's zero (a scratch) is gathered once per state and a box is
        tried only on the rolls that score in it: exact, because scoring never leaves a box
        worth less than its scratch."""
        best = np.full((len(ROLLS), len(masks)), -np.inf)
        scratch = np.full(len(masks), -np.inf)
        for _, rows, candidate, zero in self._box_values(masks, uppers, future):
            best[rows] = np.maximum(best[rows], candidate)
            if zero is not None:
                np.maximum(scratch, zero, out=scratch)
        np.maximum(best, scratch, out=best)
        return best

    def final_roll_choices(
        self, masks: Indices, uppers: Indices, future: Values
    ) -> tuple[Values, Indices]:
        """`final_roll_values` (labelled: less their lowest bits), and the number of the box
        each roll is best filled in, for passes that follow the optimal policy."""
        best = np.full((len(ROLLS), len(masks)), np.iinfo(np.int64).min)
        scratch = np.full(len(masks), np.iinfo(np.int64).min)
        # A smaller box number is the larger label, so a tie goes to the earlier box.
        for b, rows, candidate, zero in self._box_values(masks, uppers, future):
            label = self.full_mask.bit_length() - b
            best[rows] = np.maximum(best[rows], labelled(candidate, label, BOX_BITS))
            if zero is not None:
                np.maximum(scratch, labelled(zero, label, BOX_BITS), out=scratch)
        np.maximum(best, scratch, out=best)
        boxes = self.full_mask.bit_length() - label_of(best, BOX_BITS)
        return value_of(best, BOX_BITS), boxes

    def final_roll_outcomes(
        self, masks: Indices, uppers: Indices, future: Values, out: Keys
    ) -> tuple[Indices, Indices, Flags]:
        """`final_roll_choices` for the policy pass, with what each choice leads to told by
        outcome (`outcome_of`: a box, and for an upper box how many dice show its face)
        rather than by roll: the values (less their lowest bits) go into `out`, a row per
        roll in the rolls' flow order (`ROLL_PLACES`), and the answer is each final roll's
        (rows, in the same order) label in each state (columns), and each outcome's next state
        and whether it reaches the upper bonus (a row per outcome).

        Every box's keys are labelled once per outcome or distinct score, all boxes in one
        table (`_key_table`), and then spread over the rolls: over all of them for a box
        most rolls score in (a roll that does not takes its scratch, which the best of each
        roll includes anyway), over its scoring rolls alone for the others."""
        count = len(masks)
        keys, nexts, crossed, is_open = self._key_table(masks, uppers, future)
        best = out
        spread = np.empty_like(best)
        scratch = np.full(count, np.iinfo(np.int64).min)
        # The upper boxes first, three faces at a time: the best of three boxes depends only
        # on how many dice show each of the three faces (56 ways, not 252 rolls), so it is
        # made once a way and then spread over the rolls (boxes filled on every card of the
        # chunk take part too: their keys are below every open box's).
        for half, (rows, way_of_place) in enumerate(self.upper_ways):
            ways = keys.take(rows[0], axis=0, mode="clip")
            for column in rows[1:]:
                np.maximum(ways, keys.take(column, axis=0, mode="clip"), out=ways)
            np.take(ways, way_of_place, axis=0, out=spread if half else best, mode="clip")
        np.maximum(best, spread, out=best)
        for b in self.dense_first:
            if not is_open[b] or self.boxes[b].is_upper:
                continue
            if self.is_dense[b]:
                # `take` into `out` goes through a buffer unless its indices need no check.
                np.take(keys, self.key_rows[b], axis=0, out=spread, mode="clip")
                np.maximum(best, spread, out=best)
            else:
                places, rows = self.key_rows[b]
                best[places] = np.maximum(best[places], keys[rows])
                np.maximum(scratch, keys[self.scratch_row[b]], out=scratch)
        del spread, keys
        np.maximum(best, scratch, out=best)
        labels = best & ((1 << BOX_BITS) - 1)  # the lowest bits held the label
        best &= ~((1 << BOX_BITS) - 1)  # the values, in place
        return labels, nexts, crossed

    def _key_table(
        self, masks: Indices, uppers: Indices, future: Values
    ) -> tuple[Keys, Indices, Flags, Flags]:
        """Every box's keys in each state (columns): a row for each outcome of an upper box
        (its number and count, as `outcome_of`), then for each lower box a row for its
        scratch and one for each of its distinct scores; with each outcome's next state,
        whether it reaches the upper bonus, and which boxes are open on some card of the
        chunk (in forced order only the next one is open)."""
        count = len(masks)
        open_on = self._open_on(masks)
        penalty = np.where(open_on, 0.0, -np.inf)  # added to a value: -inf where filled
        after = masks | (1 << np.arange(len(self.boxes))[:, None])  # once each box is filled
        table = np.empty((self.key_table_rows, count))
        nexts = np.empty((self.outcome_count, count), dtype=np.int64)
        crossed = np.zeros((self.outcome_count, count), dtype=bool)
        # The six upper boxes at once: a row per face and count of it.
        upper = len(rules.FACES)
        faces, dice = np.arange(1, upper + 1)[:, None, None], np.arange(DICE + 1)[:, None]
        new_upper = np.minimum(self.cap, uppers + faces * dice)
        crossing = (uppers < self.cap) & (new_upper >= self.cap)
        by_count = faces * dice + np.where(crossing, self.bonus, 0)
        reached = self.state_index(after[:upper, None], new_upper)
        values = by_count + future[reached]
        values += penalty[:upper, None]
        table[: upper * (DICE + 1)] = values.reshape(-1, count)
        nexts[: upper * (DICE + 1)] = reached.reshape(-1, count)
        crossed[: upper * (DICE + 1)] = crossing.reshape(-1, count)
        # A lower box leaves the upper total as it is, and the state's own is live.
        nexts[upper * (DICE + 1) :] = after[upper:] * (self.cap + 1) + uppers
        zero = future[nexts[upper * (DICE + 1) :]]
        zero += penalty[upper:]
        lower_rows = np.take(zero, self.lower_row_box, axis=0, mode="clip")
        np.add(self.lower_row_points[:, None], lower_rows, out=table[upper * (DICE + 1) :])
        keys = labelled(table, self.key_table_labels, BOX_BITS)
        return keys, nexts, crossed, open_on.any(axis=1)

    def key_row_cells(self, labels: Indices) -> Indices:
        """For each final roll (rows, by the rolls' places) and state (columns) whose box has
        the label `final_roll_outcomes` gives: the cell of what that box gives the roll in a
        table of a row per row of `_key_table` (the box and its points) and a column per
        state (a flat index). The labels given are overwritten."""
        count = labels.shape[1]
        by_label = labels
        by_label |= self._label_offsets()
        cells: Indices = (self._key_row_by_label() * count).take(by_label, mode="wrap")
        cells += np.arange(count)
        return cells

    def outcome_sums(self, weights: Values) -> Values:
        """From the chance of each row of `_key_table` (rows) in each state (columns): for
        each outcome (rows of each part) its chance, and the sums of the chance times the
        points and times their square (without the upper bonus). An upper box's count of
        its face is a row and an outcome of its own; a lower box's rows (its scratch and its
        scores) are its one outcome, summed by a product with a small matrix (numpy's
        `add.reduceat` took four times as long)."""
        upper = len(rules.FACES) * (DICE + 1)
        count = weights.shape[1]
        sums = np.empty((3, self.outcome_count, count))
        sums[0, :upper] = weights[:upper]
        np.multiply(weights[:upper], self.key_row_points[:upper], out=sums[1, :upper])
        np.multiply(sums[1, :upper], self.key_row_points[:upper], out=sums[2, :upper])
        lower = self.lower_sums @ weights[upper:]
        sums[:, upper:] = lower.reshape(3, -1, count)
        return sums

    @cache  # noqa: B019 (one a house's rules, made once: `family_strategy` keeps each strategy)
    def _key_row_by_label(self) -> Indices:
        """The row of `_key_table` of each roll (by its place) by its box's label (the first
        box has the largest), a row per roll's place and `2**BOX_BITS` labels in each, so
        that a label finds its entry without being turned into a box number."""
        boxes = self.full_mask.bit_length() - np.arange(1 << BOX_BITS)
        boxes[(boxes < 0) | (boxes >= len(self.boxes))] = 0  # no box has those labels
        by_label: Indices = self.key_row_of.T[ROLL_AT_PLACE][:, boxes].ravel()
        return by_label

    @staticmethod
    @cache
    def _label_offsets() -> Indices:
        """Where each roll's row of labels starts in `_key_row_by_label`'s table."""
        offsets: Indices = np.arange(len(ROLLS))[:, None] << BOX_BITS
        return offsets

    def _key_table_layout(self) -> None:
        """Where `_key_table` puts each box's keys, and how each box's are spread over the
        rolls (`final_roll_outcomes`): for a box most rolls score in, the row of each roll's
        key in the rolls' flow order; for the others, their scoring rolls' places and the
        rows of their keys. A lower box's rows are its scratch, then its distinct scores."""
        upper = len(rules.FACES)
        rows: list[Indices] = [FACE_COUNTS[b] + b * (DICE + 1) for b in range(upper)]
        points, row_box = [], []
        self.scratch_row = [b * (DICE + 1) for b in range(upper)]
        start = upper * (DICE + 1)
        for b in range(upper, len(self.boxes)):
            scores = self.scores[b]
            levels = np.unique(scores[scores > 0])
            self.scratch_row.append(start)
            rows.append(np.where(scores > 0, start + 1 + np.searchsorted(levels, scores), start))
            points += [0, *levels.tolist()]
            row_box += [b - upper] * (len(levels) + 1)
            start += len(levels) + 1
        self.key_table_rows = start
        self.lower_row_points = np.array(points, dtype=np.int64)
        self.lower_row_box = np.array(row_box)
        # What each row gives: an upper row is an outcome of its own (`outcome_of`), a lower
        # box's rows are its one outcome; and the points (floats: they weigh chances).
        self.key_row_of = np.array(rows)  # by box and roll (ROLLS order)
        upper_points = np.arange(1, upper + 1)[:, None] * np.arange(DICE + 1)
        row_points = np.concatenate([upper_points.ravel(), self.lower_row_points])
        self.key_row_points = row_points.astype(np.float64)[:, None]
        # For each power of the points (0, 1, 2) and lower box, its rows' points to that power.
        lower_boxes = len(self.boxes) - upper
        self.lower_sums = np.zeros((3 * lower_boxes, len(self.lower_row_box)))
        columns = np.arange(len(self.lower_row_box))
        for power in range(3):
            at = power * lower_boxes + self.lower_row_box
            self.lower_sums[at, columns] = self.lower_row_points.astype(np.float64) ** power
        # A smaller box number is the larger label, so a tie goes to the earlier box.
        upper_row_box = np.repeat(np.arange(upper), DICE + 1)
        box_of_row = np.concatenate([upper_row_box, upper + self.lower_row_box])
        self.key_table_labels = (self.full_mask.bit_length() - box_of_row)[:, None]
        # A box most rolls score in is spread over every roll; the others over those rolls.
        self.is_dense = [len(scoring) >= DENSE_ROWS for scoring in self.scoring_rows]
        self.dense_first = sorted(range(len(self.boxes)), key=lambda b: not self.is_dense[b])
        self.upper_ways = [_upper_ways(faces) for faces in (range(3), range(3, upper))]
        self.key_rows: list[Any] = [
            row[ROLL_AT_PLACE] if dense else (PLACE_OF_ROLL[scoring], row[scoring])
            for row, dense, scoring in zip(rows, self.is_dense, self.scoring_rows, strict=True)
        ]

    def _outcome_table(self) -> Indices:
        """outcome_of[box, roll]: the outcome filling a box with a roll gives. Upper box b
        with n dice of its face is outcome 6b + n; each lower box is one outcome after them."""
        table = np.zeros((len(self.boxes), len(ROLLS)), dtype=np.int64)
        upper = len(rules.FACES)
        for b in range(len(self.boxes)):
            if b < upper:
                table[b] = b * (DICE + 1) + FACE_COUNTS[b]
            else:
                table[b] = upper * (DICE + 1) + b - upper
        return table

    def _open_on(self, masks: Indices) -> Flags:
        """Which boxes (rows) are open on each card of the chunk (columns): in forced order,
        only the next one."""
        bits = np.arange(len(self.boxes))[:, None]
        open_on: Flags = (masks >> bits) & 1 == 0
        if self.house.forced:
            open_on &= masks == (1 << bits) - 1
        return open_on

    def _open_boxes(self, masks: Indices) -> Iterator[tuple[int, Any, Values, Indices]]:
        """Each box open on some card of the chunk (`_open_on`): its number, the box, 0 where
        it is open and -inf where it is filled (added to a value), and each state's mask
        once it is filled."""
        for b, (box, is_open) in enumerate(zip(self.boxes, self._open_on(masks), strict=True)):
            if is_open.any():
                yield b, box, np.where(is_open, 0.0, -np.inf), masks | (1 << b)

    def _box_values(
        self, masks: Indices, uppers: Indices, future: Values
    ) -> Iterator[tuple[int, Indices, Values, Values | None]]:
        """For each box open on some card of the chunk: its number, the rolls that score in
        it, what those rolls are worth filled in it (rows) in each state (columns, -inf
        where it is filled), and what a scratch there is worth (None if every roll scores)."""
        for b, box, penalty, after in self._open_boxes(masks):
            rows = self.scoring_rows[b]
            if box.is_upper:
                counts = np.arange(DICE + 1)[:, None]
                new_upper = np.minimum(self.cap, uppers + box.upper_face * counts)
                crossing = (uppers < self.cap) & (new_upper >= self.cap)
                by_count = box.upper_face * counts + np.where(crossing, self.bonus, 0)
                values = by_count + future[self.state_index(after, new_upper)] + penalty
                zero, candidate = values[0], values[FACE_COUNTS[box.upper_face - 1, rows]]
            else:
                zero = future[self.state_index(after, uppers)] + penalty
                candidate = self.scores[b, rows][:, None] + zero
            yield b, rows, candidate, zero if len(rows) < len(ROLLS) else None

    def box_outcomes(
        self, masks: Indices, uppers: Indices, boxes: Indices
    ) -> tuple[Indices, Indices, Flags]:
        """For each final roll (rows) filling the given box in each state (columns): the
        points it scores (with the upper bonus when they reach it), the state it leads to,
        and whether they reach the bonus."""
        gained = self.scores.ravel()[boxes * len(ROLLS) + np.arange(len(ROLLS))[:, None]]
        reached = uppers + np.where(boxes < len(rules.FACES), gained, 0)  # upper boxes first
        crossed: Flags = (uppers < self.cap) & (reached >= self.cap)
        points: Indices = gained + self.bonus * crossed
        nexts = self.state_index(masks | (1 << boxes), np.minimum(self.cap, reached))
        return points, nexts, crossed

    def solve(self, progress: Progress | None = None) -> Values:
        """The value of every state with a turn left (a dense array by `state_index`)."""
        future = np.zeros(self.state_count)

        def solve_chunk(masks: Indices, uppers: Indices, _: Indices) -> None:
            finals = self.final_roll_values(masks, uppers, future)
            future[self.state_index(masks, uppers)] = turn_values(finals)[2]

        solve_levels(self.levels(), solve_chunk, FAMILY_CHUNK, len(self.boxes), progress)
        return future

    def table_path(self) -> Path:
        return tables.table_file(f"strategy-{self.house.key}-v{self.FORMAT}.npy")

    def old_table_path(self) -> Path:
        """Where format 1 kept the table (`convert_old_table` reads it once)."""
        return tables.table_file(f"strategy-{self.house.key}-v1.npz")

    def _stored(self) -> Indices:
        """The states a table file holds: every one with a turn left, ascending."""
        return np.sort(np.concatenate([self.state_index(m, u) for m, u, _ in self.levels()]))

    def stored_count(self) -> int:
        """How many states the table stores (`_stored`), counted from `_stored_counts`."""
        stored, _, rows_before = self._stored_counts()
        if self.house.forced:
            return int(rows_before[-1])
        blocks = (self.full_mask + 1) // (UPPER_MASK + 1)
        return int(blocks * rows_before[UPPER_MASK + 1] - stored[UPPER_MASK].sum())

    def place_in_mask(self, index: Indices) -> tuple[Indices, Indices]:
        """States' masks, and each state's place among the totals its mask stores (in a
        block of 64 masks, a state's place in the table of the first block)."""
        mask = index // (self.cap + 1)
        within = np.take(self._stored_counts()[1], index % ((UPPER_MASK + 1) * (self.cap + 1)))
        return mask, within

    def stored_masks(self) -> tuple[Indices, Indices]:
        """The masks of the states the table stores, ascending, and how many each stores."""
        if self.house.forced:
            masks = (1 << np.arange(len(self.boxes))) - 1
        else:
            masks = np.arange(self.full_mask)
        return masks, self._stored_counts()[0].sum(axis=1)[masks & UPPER_MASK]

    def stored_position(self, index: int | Indices) -> NDArray[np.int32]:
        """Where a state index is among the states `_stored` lists (-1 if not there): its
        column in the policy tables. Which totals a mask stores depends on its upper boxes
        alone, so this is counted from a row of 64 flags per upper mask, with no map of
        every state kept in each process (a map was 8-17 MB and 35-160 ms to make)."""
        stored, before_in_row, rows_before = self._stored_counts()
        mask, upper = np.divmod(np.asarray(index), self.cap + 1)
        low = mask & UPPER_MASK
        if self.house.forced:  # the first boxes filled, in order: mask 2**filled - 1
            filled = np.minimum(np.log2(mask + 1).astype(np.int64), len(self.boxes))
            is_row = mask == (1 << filled) - 1
            before = rows_before[filled]
        else:
            is_row = True
            before = (mask >> 6) * rows_before[UPPER_MASK + 1] + rows_before[low]
        position = (before + before_in_row[low, upper]).astype(np.int32)
        there = is_row & (mask != self.full_mask) & stored[low, upper]
        return np.where(there, position, np.int32(-1))

    @cache  # noqa: B019 (one a house's rules, made once: `family_strategy` keeps each strategy)
    def _stored_counts(self) -> tuple[Flags, Indices, Indices]:
        """Which totals each upper mask's cards store (the live ones, and the threshold for
        all the others); how many of them come before each total; and how many stored
        states come before each row: for forced order, before the card with that many boxes
        filled; else before each low mask in a block of 64 masks (the last: the block)."""
        totals = np.arange(self.cap + 1)
        uppers = np.arange(UPPER_MASK + 1)
        reached = self.reach[uppers]
        live = self.live_upper(uppers[:, None], totals[None, :]) == totals[None, :]
        stored = reached & live
        stored[:, self.cap] |= (reached & ~live).any(axis=1)
        before_in_row = np.cumsum(stored, axis=1) - stored
        per_row = stored.sum(axis=1)
        if self.house.forced:
            per_row = per_row[((1 << np.arange(len(self.boxes))) - 1) & UPPER_MASK]
        rows_before = np.concatenate([[0], np.cumsum(per_row)])
        return stored, before_in_row, rows_before

    def is_ready(self) -> bool:
        """Whether the table is in memory or on disk; a request never builds one."""
        return self.house in _family_loaded or self.table_path().exists()

    def load(self, progress: Progress | None = None) -> Values:
        """The state values, mapped into memory (read-only) from disk, else solved first
        (reporting `progress`) and saved."""
        if self.house not in _family_loaded:
            path = self.table_path()
            if not path.exists():
                tables.save_array(path, self.solve(progress))
            _family_loaded[self.house] = tables.mapped(path, (self.state_count,), np.float64)
        return _family_loaded[self.house]

    def convert_old_table(self) -> Path | None:
        """The table in format 1, if there, written in this format (the same values, nothing
        solved again) and the old file removed; None when there was none."""
        old = self.old_table_path()
        if not old.exists():
            return None
        values = np.zeros(self.state_count)
        with np.load(old) as saved:
            values[self._stored()] = saved["values"]
        path = tables.save_array(self.table_path(), values)
        old.unlink()
        return path

    def forget(self) -> None:
        _family_loaded.pop(self.house, None)

    def expected_score(self) -> float:
        """The optimal expected final score of a whole game."""
        return float(self.load()[0])

    def rate_boxes(
        self, filled: Mapping[FamilyBox, int], dice: Iterable[int]
    ) -> dict[FamilyBox, float]:
        """For a final roll: every legal box and the expected final total if it is filled now."""
        future = self.load()
        rated: dict[FamilyBox, float] = {}
        for box, points in self.house.options(filled, dice).items():
            card = {**filled, box: points}
            now = self.house.totals(card).total
            rated[box] = now + float(future[self.state_index(*self.state_of(card))])
        return rated

    def rate_keeps(
        self, filled: Mapping[FamilyBox, int], dice: Iterable[int], rolls_left: int
    ) -> list[tuple[tuple[int, ...], float]]:
        """After a roll with rerolls left: every distinct set of dice to keep and the expected
        final total, best first. Keeping all five means stopping to score."""
        if rolls_left not in (1, 2):
            raise ValueError("Dice can be kept with one or two rerolls left.")
        dice = self.house.family.parse_dice(dice)
        self.house.open_boxes(filled)  # a full card has no keep to rate
        mask, upper = self.state_of(filled)
        finals = self.final_roll_values(np.array([mask]), np.array([upper]), self.load())
        return _rated_keeps(finals, dice, rolls_left, self.house.totals(filled).total)

    def final_win_chances(self, filled: Mapping[FamilyBox, int], rivals: list[int]) -> Values:
        """On a player's last turn, every rival finished: for each final roll, the chance it
        wins (`share_of_first` of the most it can total)."""
        chances = np.empty(len(ROLLS))
        for index, roll in enumerate(ROLLS):
            final = max(
                self.house.totals({**filled, box: points}).total
                for box, points in self.house.options(filled, roll).items()
            )
            chances[index] = share_of_first(final, rivals)
        return chances

    def win_chance_this_turn(self, filled: Mapping[FamilyBox, int], rivals: list[int]) -> float:
        """Before the first roll of the last turn: the chance to win, playing to win."""
        return float(turn_values(self.final_win_chances(filled, rivals)[:, None])[2][0])

    def rate_keeps_to_win(
        self,
        filled: Mapping[FamilyBox, int],
        dice: Iterable[int],
        rolls_left: int,
        rivals: list[int],
    ) -> list[tuple[tuple[int, ...], float]]:
        """Like `rate_keeps`, but each keep's chance of finishing first, best first."""
        if rolls_left not in (1, 2):
            raise ValueError("Dice can be kept with one or two rerolls left.")
        finals = self.final_win_chances(filled, rivals)[:, None]
        return _rated_keeps(finals, self.house.family.parse_dice(dice), rolls_left)


_family_loaded: dict[rules.HouseRules[FamilyBox], Values] = {}


@cache
def family_strategy(house: rules.HouseRules[FamilyBox]) -> FamilyStrategy:
    """The strategy of a family's house rules (made once; its table loads when first asked)."""
    return FamilyStrategy(house)
