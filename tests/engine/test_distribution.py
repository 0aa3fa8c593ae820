"""The optimal player's score beyond its mean: policy tables against a seeded simulation,
and the exact late-game distributions against an enumeration written apart from them."""

import itertools
import math
from collections import Counter
from functools import cache

import numpy as np
import pytest

from scorecard.engine import distribution, rules, strategy
from scorecard.engine.rules import Box, JokerRule

HASBRO = JokerRule.HASBRO


def _state(filled):
    return int(strategy.state_index(*strategy.state_of(filled)))


def test_the_whole_games_exact_figures_agree_with_a_simulation(policy_tables):
    figures = policy_tables.figures(HASBRO)
    simulated = policy_tables.simulate(HASBRO, 0, 4000, seed=11)
    games = len(simulated.scores)
    assert abs(simulated.scores.mean() - figures.mean) < 4 * figures.sd / math.sqrt(games)
    assert simulated.scores.std() == pytest.approx(figures.sd, rel=0.05)
    for exact, seen in (
        (figures.bonus_chance, simulated.bonus),
        (figures.yahtzee_chance, simulated.yahtzee),
    ):
        assert abs(seen.mean() - exact) < 4 * math.sqrt(exact * (1 - exact) / games)
    assert 250 < figures.mean < 256 and 55 < figures.sd < 62 and 0.6 < figures.bonus_chance < 0.75


@pytest.mark.parametrize("filled_count", [4, 8, 10])
def test_a_mid_game_states_moments_agree_with_a_simulation(policy_tables, filled_count):
    filled = {
        box: min(rules.achievable_points(box) - {0} or {0}) for box in list(Box)[:filled_count]
    }
    index = _state(filled)
    mean, variance = policy_tables.moments(HASBRO, index)
    simulated = policy_tables.simulate(HASBRO, index, 3000, seed=filled_count)
    assert abs(simulated.scores.mean() - mean) < 4 * math.sqrt(variance / 3000)
    assert simulated.scores.var() == pytest.approx(variance, rel=0.12)
    parts = policy_tables.split(HASBRO, index)
    assert sum(part.weight for part in parts) == pytest.approx(1)
    assert sum(part.weight * part.mean for part in parts) == pytest.approx(mean, rel=1e-5)


# An enumeration of the optimal policy written apart from `distribution`: the dice kept are
# the best of `strategy.rate_keeps`, the box the best of `strategy.rate_boxes`.


def _outcomes(count):
    for dice in itertools.combinations_with_replacement(rules.FACES, count):
        ways = math.factorial(count)
        for repeated in Counter(dice).values():
            ways //= math.factorial(repeated)
        yield dice, ways / 6**count


def _enumerated(filled, joker):
    @cache
    def after(dice, rolls_left):  # the distribution of this turn's points, as a dict
        if rolls_left == 0:
            rated = strategy.rate_boxes(filled, dice, joker)
            box = max(rated, key=rated.get)
            bonus = rules.yahtzee_bonus(filled, dice, joker)
            card = {**filled, box: rules.options(filled, dice, joker)[box]}
            gained = rules.totals(card, int(bool(bonus))).total - rules.totals(filled, 0).total
            return {gained: 1.0}
        keep = strategy.rate_keeps(filled, dice, rolls_left, joker)[0][0]
        result = Counter()
        for fresh, chance in _outcomes(5 - len(keep)):
            for points, inner in after(tuple(sorted(keep + fresh)), rolls_left - 1).items():
                result[points] += chance * inner
        return dict(result)

    total = Counter()
    for dice, chance in _outcomes(5):
        for points, inner in after(dice, 2).items():
            total[points] += chance * inner
    return total


@pytest.mark.parametrize(
    "open_box", [Box.CHANCE, Box.SIXES, Box.YAHTZEE, Box.LARGE_STRAIGHT, Box.THREE_OF_A_KIND]
)
def test_the_exact_last_turn_distribution_is_the_enumerations(strategy_tables, open_box):
    filled = {box: max(rules.achievable_points(box)) // 2 for box in Box if box is not open_box}
    filled = {box: min(rules.achievable_points(box), key=lambda p: abs(p - points))
              for box, points in filled.items()}  # fmt: skip
    exact = distribution.remaining_distribution(*strategy.state_of(filled), HASBRO)
    enumerated = _enumerated(filled, HASBRO)
    assert exact.sum() == pytest.approx(1, abs=1e-12)
    for points in range(len(exact)):
        assert exact[points] == pytest.approx(enumerated.get(points, 0.0), abs=1e-12), points
    assert set(enumerated) <= set(np.flatnonzero(exact).tolist())


@pytest.mark.parametrize("open_count", [1, 2, 3])
def test_exact_distributions_have_the_tables_mean_and_variance(policy_tables, open_count):
    filled = {box: min(rules.achievable_points(box) - {0}) for box in list(Box)[open_count:]}
    index = _state(filled)
    exact = distribution.remaining_distribution(*strategy.state_of(filled), HASBRO)
    points = np.arange(len(exact))
    mean = float((exact * points).sum())
    variance = float((exact * points**2).sum()) - mean**2
    table_mean, table_variance = policy_tables.moments(HASBRO, index)
    assert mean == pytest.approx(table_mean, abs=1e-9)
    assert variance == pytest.approx(table_variance, rel=1e-4)  # the table keeps float32


def test_the_distinct_next_states_are_numpys_unique_ones():
    """The exact distributions' own `np.unique` (which spares a new process numpy.ma)."""
    rng = np.random.default_rng(3)
    for size in (0, 1, 7, 5000):
        values = rng.integers(0, 50, size=(size,))
        assert distribution._distinct(values).tolist() == np.unique(values).tolist()
    grid = rng.integers(0, 9, size=(252, 4))
    assert distribution._distinct(grid).tolist() == np.unique(grid).tolist()
