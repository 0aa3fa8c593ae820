"""Yatzy's optimal player beyond the mean: the policy tables against the solved values and
a simulation, the exact late-game distributions against an enumeration written apart from
them, and each player's chance to win."""

import itertools
import math
import random
import threading
import time
from collections import Counter
from functools import cache

import numpy as np
import pytest

from scorecard.engine import distribution, strategy, win_chances
from scorecard.engine.families import YATZY
from scorecard.engine.rules import HouseRules

pytestmark = pytest.mark.slow  # the policy tables of a whole Yatzy table

YATZY_OPTIMUM = 248.4399894
HOUSE = HouseRules(YATZY)


def _state(solver, card):
    return int(solver.state_index(*solver.state_of(card)))


def test_the_policy_tables_mean_is_the_strategys_expected_score(yatzy_tables):
    mean, variance = distribution.family_moments(yatzy_tables, 0)
    assert mean == pytest.approx(yatzy_tables.expected_score(), abs=1e-6)
    assert mean == pytest.approx(YATZY_OPTIMUM, abs=1e-6)
    assert 30 < math.sqrt(variance) < 60


def test_the_whole_games_spread_and_bonus_agree_with_a_simulation(yatzy_tables):
    mean, variance = distribution.family_moments(yatzy_tables, 0)
    scores = distribution.simulate_family(yatzy_tables, 4000, seed=5)
    assert abs(scores.mean() - mean) < 4 * math.sqrt(variance / len(scores))
    assert scores.var() == pytest.approx(variance, rel=0.08)
    parts = distribution.family_split(yatzy_tables, 0)
    assert sum(part.weight for part in parts) == pytest.approx(1)
    assert sum(part.weight * part.mean for part in parts) == pytest.approx(mean, rel=1e-6)


# An enumeration of the optimal policy written apart from `distribution`: the dice kept are
# the best of `rate_keeps`, the box the best of `rate_boxes`, every outcome counted.


@cache
def _outcomes(count):
    tally = Counter(tuple(sorted(o)) for o in itertools.product(range(1, 7), repeat=count))
    return [(dice, n / 6**count) for dice, n in tally.items()]


def _enumerated(solver, filled):
    """The distribution of the points still to come, as a Counter, turn by turn."""
    if len(filled) == len(solver.boxes):
        return Counter({0: 1.0})
    before = solver.house.totals(filled).total

    @cache
    def after(dice, rolls_left):  # this turn's (points, card) outcomes
        if rolls_left == 0:
            rated = solver.rate_boxes(filled, dice)
            box = max(rated, key=rated.get)
            card = {**filled, box: solver.house.options(filled, dice)[box]}
            return {(solver.house.totals(card).total - before, frozenset(card.items())): 1.0}
        keep = solver.rate_keeps(filled, dice, rolls_left)[0][0]
        result = Counter()
        for fresh, chance in _outcomes(5 - len(keep)):
            for outcome, inner in after(tuple(sorted(keep + fresh)), rolls_left - 1).items():
                result[outcome] += chance * inner
        return dict(result)

    turn = Counter()
    for dice, chance in _outcomes(5):
        for outcome, inner in after(dice, 2).items():
            turn[outcome] += chance * inner
    total = Counter()
    for (points, card), chance in turn.items():
        for later, inner in _enumerated(solver, dict(card)).items():
            total[points + later] += chance * inner
    return total


def _sampled_card(open_count, seed):
    rng = random.Random(seed)
    filled = rng.sample(HOUSE.boxes, len(HOUSE.boxes) - open_count)
    return {box: rng.choice(sorted(HOUSE.achievable_points(box))) for box in filled}


@pytest.mark.parametrize(("open_count", "seed"), [(1, 1), (1, 2), (1, 3), (2, 4)])
def test_the_exact_late_distribution_is_the_enumerations(yatzy_tables, open_count, seed):
    card = _sampled_card(open_count, seed)
    exact = distribution.family_remaining_distributions(yatzy_tables, [_state(yatzy_tables, card)])
    exact = exact[0]
    enumerated = _enumerated(yatzy_tables, card)
    assert exact.sum() == pytest.approx(1, abs=1e-12)
    for points in range(len(exact)):
        assert exact[points] == pytest.approx(enumerated.get(points, 0.0), abs=1e-12), points
    assert set(enumerated) <= set(np.flatnonzero(exact).tolist())


@pytest.mark.parametrize("open_count", [1, 3])
def test_exact_distributions_have_the_tables_mean_and_variance(yatzy_tables, open_count):
    card = _sampled_card(open_count, 10 + open_count)
    index = _state(yatzy_tables, card)
    exact = distribution.family_remaining_distributions(yatzy_tables, [index])[0]
    points = np.arange(len(exact))
    mean = float((exact * points).sum())
    table_mean, table_variance = distribution.family_moments(yatzy_tables, index)
    assert mean == pytest.approx(table_mean, abs=1e-9)
    assert float((exact * points**2).sum()) - mean**2 == pytest.approx(table_variance, rel=1e-6)


def _position(card):
    return win_chances.Position(card, house=HOUSE)


@pytest.mark.parametrize(
    "open_counts", [(15, 15), (10, 12, 15), (3, 2), (1, 5)], ids=lambda c: "-".join(map(str, c))
)
def test_a_yatzy_games_chances_to_win_sum_to_one(yatzy_tables, open_counts):
    positions = [
        _position(_sampled_card(count, seed)) for seed, count in enumerate(open_counts, start=20)
    ]
    found = win_chances.win_chances(positions, win_chances.JokerRule.HASBRO)
    assert sum(found.chances) == pytest.approx(1, abs=1e-9)
    assert all(0 <= chance <= 1 for chance in found.chances)
    assert found.exact == all(p.open_boxes <= win_chances.EXACT_OPEN for p in positions)


def test_two_empty_yatzy_cards_have_even_chances(yatzy_tables):
    found = win_chances.win_chances([_position({}), _position({})], win_chances.JokerRule.HASBRO)
    assert found.chances == pytest.approx([0.5, 0.5], abs=1e-9)


def test_yatzy_chances_agree_with_a_simulation_of_optimal_play(yatzy_tables):
    positions = [_position(_sampled_card(9, 31)), _position(_sampled_card(7, 32))]
    found = win_chances.win_chances(positions, win_chances.JokerRule.HASBRO).chances
    simulated = win_chances.simulated_chances(positions, win_chances.JokerRule.HASBRO, 3000, 7)
    for exact, seen in zip(found, simulated, strict=True):
        assert abs(exact - seen) < 0.03 + 3 * math.sqrt(exact * (1 - exact) / 3000)


def test_forced_yatzys_policy_mean_is_its_solved_value(strategy_tables):
    forced = strategy.family_strategy(HouseRules(YATZY, forced=True))
    rows = distribution.solve_family_policy(forced)  # a game's start is the first column
    assert rows[0, 0] == pytest.approx(forced.expected_score(), abs=1e-6)
    # Every stored state's rows are in its own column, though the pass keeps them by level.
    stored = forced.load()[forced._stored()]
    assert rows[0, :-1] == pytest.approx(stored, rel=1e-9)


def test_every_column_of_the_policy_file_is_its_states(yatzy_tables):
    """The policy pass keeps its rows a level at a time and writes them in the table's order
    at the end: each state's mean still to come, following the policy, is its solved value."""
    rows = np.load(distribution.family_tables_path(yatzy_tables), mmap_mode="r")
    stored = yatzy_tables.load()[yatzy_tables._stored()]
    assert rows.shape == (distribution.FAMILY_ROWS, len(stored))
    assert np.allclose(rows[0], stored, rtol=1e-9, atol=0)


def test_playing_to_win_the_last_turn_is_never_worse_than_playing_for_points(yatzy_tables):
    card = _sampled_card(1, 41)
    total = HOUSE.totals(card).total
    state = _state(yatzy_tables, card)
    exact = distribution.family_remaining_distributions(yatzy_tables, [state])[0]
    finals = total + np.arange(len(exact))
    rival = total + 10
    for_points = float(exact[finals > rival].sum() + exact[finals == rival].sum() / 2)
    to_win = yatzy_tables.win_chance_this_turn(card, [rival])
    assert for_points - 1e-12 <= to_win <= 1
    assert yatzy_tables.win_chance_this_turn(card, [total - 1]) == pytest.approx(1)
    assert yatzy_tables.win_chance_this_turn(card, [total + 500]) == 0
    ranked = yatzy_tables.rate_keeps_to_win(card, (1, 2, 3, 4, 6), 2, [rival])
    assert ranked[0][1] == max(chance for _, chance in ranked) <= 1


def test_the_policy_pass_solves_a_level_on_one_thread(yatzy_tables, monkeypatch, tmp_path):
    """Its many small numpy calls would keep a second thread waiting for the GIL (a sixth of
    the build's CPU in the kernel) for next to no shorter build."""
    monkeypatch.delenv("SOLVER_THREADS", raising=False)
    seen = set()
    solve_levels = strategy.solve_levels

    def a_level_in_small_chunks(levels, _solve_chunk, _chunk, count, progress=None, threads=None):
        def slow_chunk(*_):
            seen.add(threading.get_ident())
            time.sleep(0.001)  # long enough for a pool to start its other threads

        solve_levels(itertools.islice(levels, 1), slow_chunk, 16, count, progress, threads)

    monkeypatch.setattr(strategy, "solve_levels", a_level_in_small_chunks)
    with open(tmp_path / "scratch", "w+b") as scratch:
        distribution._solve_family_levels(yatzy_tables, scratch)
    assert len(seen) == 1


def test_solver_threads_sets_how_many_threads_solve_a_level(monkeypatch):
    levels = [(np.arange(4096), np.zeros(4096, int), np.zeros(4096, int))]
    seen = set()

    def slow_chunk(*_):
        seen.add(threading.get_ident())
        time.sleep(0.001)

    monkeypatch.setenv("SOLVER_THREADS", "3")
    strategy.solve_levels(iter(levels), slow_chunk, 64, 1, threads=1)
    assert len(seen) == 3
