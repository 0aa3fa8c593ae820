"""Each player's chance to finish first: trivial cases, exactness where it is claimed (by an
enumeration of the turns), and accuracy against a seeded simulation of optimal play."""

import math
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorecard.engine import rules, win_chances
from scorecard.engine.rules import Box, JokerRule
from scorecard.engine.win_chances import Position
from tests.engine.test_distribution import _enumerated

HASBRO = JokerRule.HASBRO


def full_card(**changes):
    card = {box: min(rules.achievable_points(box) - {0}) for box in Box}
    return {box: changes.get(box.key, points) for box, points in card.items()}


def test_a_finished_game_gives_the_winner_everything_and_a_tie_halves(policy_tables):
    low, high = full_card(), full_card(chance=30)
    assert win_chances.win_chances([Position(low), Position(high)], HASBRO).chances == [0, 1]
    tie = win_chances.win_chances([Position(high), Position(high), Position(low)], HASBRO)
    assert tie.chances == [0.5, 0.5, 0] and tie.exact


def test_a_player_who_cannot_catch_up_has_no_chance_at_all(policy_tables):
    behind = {box: 0 for box in Box if box is not Box.CHANCE}  # Chance open: 30 at most
    ahead = full_card(chance=30, full_house=25, large_straight=40, small_straight=30)
    chances = win_chances.win_chances([Position(behind), Position(ahead)], HASBRO)
    assert chances.chances == [0.0, 1.0] and chances.exact
    early = {Box.YAHTZEE: 0, Box.CHANCE: 5}  # eleven boxes to play: 300 at the very most
    far_ahead = Position(full_card(yahtzee=50), extra_yahtzees=3)
    chances = win_chances.win_chances([Position(early), far_ahead], HASBRO)
    assert far_ahead.total > 300 and chances.chances == [0.0, 1.0] and not chances.exact


def test_a_last_turn_each_is_exact_as_an_enumeration_of_both_turns(policy_tables):
    ann = full_card() | {Box.FULL_HOUSE: 25}
    del ann[Box.CHANCE]
    bob = full_card() | {Box.CHANCE: 22}
    del bob[Box.SIXES]
    chances = win_chances.win_chances([Position(ann), Position(bob)], HASBRO)
    assert chances.exact
    ann_final = {rules.totals(ann, 0).total + p: c for p, c in _enumerated(ann, HASBRO).items()}
    bob_final = {rules.totals(bob, 0).total + p: c for p, c in _enumerated(bob, HASBRO).items()}
    share = sum(
        a * b * (1 if x > y else 0.5 if x == y else 0)
        for x, a in ann_final.items()
        for y, b in bob_final.items()
    )
    assert chances.chances[0] == pytest.approx(share, abs=1e-9)
    assert sum(chances.chances) == pytest.approx(1, abs=1e-9)


def _positions(seed: int, filled: int, players: int) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    for _ in range(players):
        boxes = rng.sample(list(Box), filled)
        positions.append(
            Position({box: rng.choice(sorted(rules.achievable_points(box))) for box in boxes})
        )
    return positions


@pytest.mark.parametrize(
    ("seed", "filled", "players"), [(1, 1, 3), (2, 6, 2), (3, 10, 2), (4, 11, 3)]
)
def test_chances_are_within_3_points_of_a_simulation_of_optimal_play(
    policy_tables, seed, filled, players
):
    positions = _positions(seed, filled, players)
    computed = win_chances.win_chances(positions, HASBRO).chances
    simulated = win_chances.simulated_chances(positions, HASBRO, 4000, seed=seed)
    assert max(abs(a - b) for a, b in zip(computed, simulated, strict=True)) < 0.03


def test_the_normal_distribution_function_is_within_1e8_of_math_erfs_inside_and_beyond_its_table():
    z = np.concatenate([np.linspace(-12, 12, 10_001), np.random.default_rng(3).normal(0, 3, 5000)])
    exact = np.array([0.5 * (1 + math.erf(x / math.sqrt(2))) for x in z.tolist()])
    assert np.abs(win_chances._normal_cdf(z) - exact).max() < 1e-8


def test_an_unchanged_card_is_not_worked_out_again_at_the_next_version(policy_tables):
    """A new version changes one player's card: every other player's distribution is kept
    (read-only, as every game that reaches the same card shares it)."""
    ann, bob = {Box.CHANCE: 21}, {Box.ONES: 3}
    win_chances._still_to_come.cache_clear()
    win_chances.win_chances([Position(ann), Position(bob)], HASBRO)
    assert win_chances._still_to_come.cache_info().misses == 2
    later = win_chances.win_chances([Position(ann), Position(bob | {Box.TWOS: 6})], HASBRO)
    info = win_chances._still_to_come.cache_info()
    assert (info.hits, info.misses) == (1, 3)
    _, chances, exact = win_chances.final_totals(Position(ann), HASBRO)
    assert not exact and not chances.flags.writeable
    assert math.isclose(sum(later.chances), 1.0)


def test_the_chances_are_the_products_over_the_rivals_in_any_order(policy_tables):
    """Gauss-Legendre's rule integrates the rivals' product exactly: the same chances as
    the polynomial's coefficients give, whatever the order of the players."""
    rng = random.Random(5)
    cards = [{box: rng.choice(sorted(rules.achievable_points(box))) for box in
              rng.sample(list(Box), rng.randint(0, 12))} for _ in range(7)]  # fmt: skip
    chances = win_chances.win_chances([Position(card) for card in cards], HASBRO).chances
    backwards = win_chances.win_chances([Position(c) for c in cards[::-1]], HASBRO).chances
    assert chances == pytest.approx(backwards[::-1], abs=1e-12)
    assert math.isclose(sum(chances), 1.0, abs_tol=1e-9)
    assert chances == pytest.approx(_by_coefficients(cards), abs=1e-12)


def _by_coefficients(cards):
    """Each share the long way: the product over rivals of (below + level·t) as a
    polynomial in t, its coefficient of t^m shared among m + 1 players."""
    finals = [win_chances.final_totals(Position(card), HASBRO) for card in cards]
    low = min(start for start, _, _ in finals)
    high = max(start + len(chances) for start, chances, _ in finals)
    grids = np.zeros((len(finals), high - low))
    for row, (start, chances, _) in enumerate(finals):
        grids[row, start - low : start - low + len(chances)] = chances
    below = np.cumsum(grids, axis=1) - grids
    shares = []
    for player in range(len(finals)):
        coefficients = np.zeros((len(finals), high - low))
        coefficients[0] = 1.0
        for rival in range(len(finals)):
            if rival != player:
                shifted = np.zeros_like(coefficients)
                shifted[1:] = coefficients[:-1] * grids[rival]
                coefficients = coefficients * below[rival] + shifted
        level = 1 / (np.arange(len(finals))[:, None] + 1)
        shares.append(float(np.sum(grids[player] * (coefficients * level).sum(axis=0))))
    return shares


@given(
    chance=st.floats(min_value=0, max_value=1),
    rivals=st.lists(st.integers(min_value=0, max_value=400), min_size=1, max_size=7),
)
def test_the_last_turns_chances_share_what_the_last_player_does_not_win(chance, rivals):
    theirs = win_chances.on_the_last_turn(chance, rivals)
    assert math.isclose(chance + sum(theirs), 1)
    top = max(rivals)
    assert all(share == 0 for share, total in zip(theirs, rivals, strict=True) if total < top)
    assert len({share for share, total in zip(theirs, rivals, strict=True) if total == top}) == 1


def test_a_tie_on_the_last_turn_gives_each_level_rival_the_last_players_share():
    """Two rivals level on 250: a final 250 gives each of the three a third; counted in the
    last player's chance as a third, it leaves each rival the rest, halved."""
    assert win_chances.on_the_last_turn(0.4, [250, 200, 250]) == [0.3, 0.0, 0.3]
