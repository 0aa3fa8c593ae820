"""The strategy of a five-dice family without jokers (Yatzy), against the published optima,
a plain-Python recomputation of the Bellman update, and a simulation of its own policy."""

import itertools
import math
import random
from functools import cache

import numpy as np
import pytest

from scorecard.engine import distribution, strategy
from scorecard.engine.families import MAXI, YAHTZEE, YATZY, Switch
from scorecard.engine.rules import HouseRules, RuleViolation

FIVE = frozenset({Switch.FIVE_ALIKE_FULL_HOUSE})
FOUR = frozenset({Switch.FOUR_ALIKE_TWO_PAIRS})
FORCED = HouseRules(YATZY, forced=True)


@pytest.fixture
def yatzy(strategy_tables):
    """The strategy of some Yatzy house rules, its table solved once a session (in the test
    folder of tables)."""
    return lambda switches=frozenset(), forced=False: strategy.family_strategy(
        HouseRules(YATZY, switches, forced=forced)
    )


@cache
def _outcomes(count):
    """Each multiset of `count` dice with its chance, counted from every ordered outcome."""
    ordered = list(itertools.product(range(1, 7), repeat=count))
    tally = {}
    for outcome in ordered:
        key = tuple(sorted(outcome))
        tally[key] = tally.get(key, 0) + 1
    return [(key, n / len(ordered)) for key, n in tally.items()]


@cache
def _value_after(house, card_items):
    """Expected points still to come from a card (a frozenset of (box, points)), by the
    Bellman update written out plainly: the best box for each final roll, the best keep
    before each reroll, every outcome enumerated."""
    card = dict(card_items)
    if len(card) == len(house.boxes):
        return 0.0
    before = house.totals(card).total

    @cache
    def final(roll):
        return max(
            house.totals({**card, box: points}).total
            - before
            + _value_after(house, frozenset({**card, box: points}.items()))
            for box, points in house.options(card, roll).items()
        )

    def chances(roll_value):
        @cache
        def keep_value(keep):
            return sum(p * roll_value(tuple(sorted(keep + o))) for o, p in _outcomes(5 - len(keep)))

        return keep_value

    def best_keep(keep_value):
        def value(roll):
            subs = {tuple(sorted(k)) for n in range(6) for k in itertools.combinations(roll, n)}
            return max(keep_value(keep) for keep in subs)

        return cache(value)

    one_left = best_keep(chances(final))
    two_left = best_keep(chances(one_left))
    return chances(two_left)(())


def sampled_cards(house, open_count, count, seed):
    """`count` cards with `open_count` boxes open (the last ones in forced order), filled with
    values the boxes can hold, drawn by a seeded generator."""
    rng = random.Random(seed)
    cards = []
    for _ in range(count):
        if house.forced:
            filled = house.boxes[: len(house.boxes) - open_count]
        else:
            filled = rng.sample(house.boxes, len(house.boxes) - open_count)
        cards.append({box: rng.choice(sorted(house.achievable_points(box))) for box in filled})
    return cards


def solved_value(solver, card):
    return solver.load()[solver.state_index(*solver.state_of(card))]


@pytest.mark.slow
def test_the_yatzy_optimum_under_the_stated_rules(yatzy):
    assert yatzy().expected_score() == pytest.approx(248.4399894, abs=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("switches", "optimum"), [(FIVE, 248.468), (FOUR, 248.644), (FIVE | FOUR, 248.675)]
)
def test_each_house_switch_has_its_own_optimum(yatzy, switches, optimum):
    assert round(yatzy(switches).expected_score(), 3) == optimum


@pytest.mark.slow
@pytest.mark.parametrize("card", sampled_cards(HouseRules(YATZY), 2, 4, seed=22))
def test_the_yatzy_solver_matches_the_bellman_update_written_out(yatzy, card):
    house = HouseRules(YATZY)
    expected = _value_after(house, frozenset(card.items()))
    assert solved_value(yatzy(), card) == pytest.approx(expected, abs=1e-9)


@pytest.mark.slow
def test_yatzy_box_and_keep_ratings_agree_with_the_bellman_update(yatzy):
    house = HouseRules(YATZY)
    card = sampled_cards(house, 2, 1, seed=5)[0]
    dice = (3, 3, 4, 5, 6)
    rated = yatzy().rate_boxes(card, dice)
    assert set(rated) == set(house.boxes) - set(card)
    for box, value in rated.items():
        after = {**card, box: house.score(box, dice)}
        plain = house.totals(after).total + _value_after(house, frozenset(after.items()))
        assert value == pytest.approx(plain, abs=1e-9)
    keeps = dict(yatzy().rate_keeps(card, dice, 1))
    assert keeps[dice] == pytest.approx(max(rated.values()), abs=1e-9)


@pytest.mark.parametrize("card", sampled_cards(FORCED, 2, 3, seed=7))
def test_the_forced_solver_matches_the_bellman_update_written_out(yatzy, card):
    expected = _value_after(FORCED, frozenset(card.items()))
    assert solved_value(yatzy(forced=True), card) == pytest.approx(expected, abs=1e-9)


def test_forced_yatzy_mean_is_what_its_own_policy_scores_when_simulated(yatzy):
    solver = yatzy(forced=True)
    mean = solver.expected_score()
    assert round(mean, 4) == 122.5585
    scores = distribution.simulate_family(solver, 20_000, seed=2026)
    standard_error = scores.std(ddof=1) / math.sqrt(len(scores))
    assert abs(scores.mean() - mean) < 3 * standard_error


def test_forced_order_rates_only_the_next_box(yatzy):
    card = dict.fromkeys(FORCED.boxes[:6], 0)
    rated = yatzy(forced=True).rate_boxes(card, (2, 2, 3, 3, 6))
    assert list(rated) == [YATZY.box("one_pair")]
    keeps = dict(yatzy(forced=True).rate_keeps(card, (2, 2, 3, 3, 6), 1))
    assert keeps[(2, 2, 3, 3, 6)] == pytest.approx(rated[YATZY.box("one_pair")], abs=1e-9)
    assert max(keeps.values()) > keeps[(2, 2, 3, 3, 6)]  # a 3 and a 6 rerolled may pair up


def test_a_family_table_is_saved_and_read_back(yatzy):
    solver = yatzy(forced=True)
    mean = solver.expected_score()
    assert solver.table_path().name == "strategy-yatzy-forced-v2.npy"
    assert solver.is_ready()
    solver.forget()
    assert solver.table_path().exists() and solver.expected_score() == mean


def test_a_family_table_is_mapped_into_memory_not_read(yatzy):
    solver = yatzy(forced=True)
    solver.forget()
    values = solver.load()
    assert isinstance(values, np.memmap) and not values.flags.writeable
    assert values.shape == (solver.state_count,)


def test_a_family_table_in_the_old_format_is_converted_never_misread(yatzy, tmp_path, monkeypatch):
    solver = yatzy(forced=True)
    solved = np.array(solver.load())
    monkeypatch.setattr(strategy.tables, "FOLDER", tmp_path)
    solver.forget()
    try:
        old = solver.old_table_path()
        assert old.name == "strategy-yatzy-forced-v1.npz"
        np.savez(old, values=solved[solver._stored()])  # format 1: stored states only
        assert not solver.is_ready()
        assert solver.convert_old_table() == solver.table_path()
        assert not old.exists() and solver.convert_old_table() is None
        assert np.array_equal(solver.load(), solved)
    finally:
        solver.forget()


def test_maxi_and_yahtzee_are_not_solved_here():
    with pytest.raises(RuleViolation, match="no advice for Maxi Yatzy"):
        strategy.FamilyStrategy(HouseRules(MAXI))
    with pytest.raises(RuleViolation, match="Yahtzee is not solved by this strategy"):
        strategy.FamilyStrategy(HouseRules(YAHTZEE))


@pytest.mark.parametrize("forced", [False, True], ids=["any-order", "forced"])
@pytest.mark.parametrize("switches", [frozenset(), FIVE | FOUR], ids=["stated", "both-switches"])
def test_the_stored_positions_are_those_of_the_states_the_levels_list(switches, forced):
    """The policy tables' column of each state, counted for one state (a new process's first
    Win column) or from its mask's first state and its place among its mask's totals (the
    policy pass), is where the level-by-level list of stored states puts it."""
    solver = strategy.family_strategy(HouseRules(YATZY, switches, forced=forced))
    stored = solver._stored()
    expected = np.full(solver.state_count, -1)
    expected[stored] = np.arange(len(stored))
    assert (solver.stored_position(np.arange(solver.state_count)) == expected).all()
    assert solver.stored_count() == len(stored)
    masks, counts = solver.stored_masks()
    assert (np.repeat(masks, counts) == stored // (solver.cap + 1)).all()
    of_mask, within = solver.place_in_mask(stored)
    first_of_mask = np.searchsorted(stored // (solver.cap + 1), of_mask)
    assert (first_of_mask + within == np.arange(len(stored))).all()
    assert solver.stored_position(int(stored[-1])) == len(stored) - 1


@pytest.mark.parametrize("forced", [False, True], ids=["any-order", "forced"])
@pytest.mark.parametrize("switches", [frozenset(), FIVE | FOUR], ids=["stated", "both-switches"])
def test_the_policy_pass_chooses_as_the_plain_choices_do_to_the_last_bit(yatzy, switches, forced):
    """The policy pass's best box (every box's keys in one table, spread over all rolls or
    over the scoring ones) is the plain choice's, tie for tie, with the same values to the
    last bit; and the chances it carries through the keeps, chosen in flow order, are those
    the plainly chosen keeps give (to rounding: the pass adds a keep's chances in the order
    of the rolls' places, the plain flow in the order of ROLLS)."""
    solver = yatzy(switches, forced)
    values = np.asarray(solver.load())
    for masks, uppers, _ in itertools.islice(solver.levels(), 0, None, 3):
        masks, uppers = masks[:200], uppers[:200]
        finals, boxes = solver.final_roll_choices(masks, uppers, values)
        by_place = np.empty((len(strategy.ROLLS), len(masks)), dtype=np.int64)
        labels, _, _ = solver.final_roll_outcomes(masks, uppers, values, by_place)
        assert (solver.full_mask.bit_length() - labels[strategy.PLACE_OF_ROLL] == boxes).all()
        assert by_place[strategy.PLACE_OF_ROLL].tobytes() == finals.tobytes()
        chances = strategy.policy_roll_chances(finals)
        assert np.allclose(chances, _plain_chances(finals), rtol=1e-12, atol=1e-15)


def _plain_chances(finals):
    """The chance of each final roll when the keeps `turn_keep_choices` chooses are kept,
    each keep's chance flowing a die at a time (a sixth of each distinct smaller keep's)."""
    one_left, two_left = strategy.turn_keep_choices(finals)
    count = finals.shape[1]
    chances = np.broadcast_to(strategy.FIRST_ROLL[:, None], finals.shape)
    for choice in (two_left, one_left):
        cells = (strategy.FLOW_PLACE[choice] * count + np.arange(count)).ravel()
        kept = np.bincount(cells, chances.ravel(), len(strategy.KEEPS) * count)
        flowing = kept.reshape(len(strategy.KEEPS), count)
        for block, parents in strategy.FLOW_GROUPS:
            inflow = flowing[parents[:, 0]]
            for column in range(1, parents.shape[1]):
                inflow += flowing[parents[:, column]]
            flowing[block] += inflow / 6
        chances = flowing[strategy.FLOW_ROLLS]
    return chances


def _rows_of_states(states):
    """Made-up rows of next states (any numbers do): five for each state index given."""
    return np.stack([(states * (7 + row) * 2654435761 % 1000) / 1000 for row in range(5)])


@pytest.mark.parametrize("forced", [False, True], ids=["any-order", "forced"])
@pytest.mark.parametrize("switches", [frozenset(), FIVE | FOUR], ids=["stated", "both-switches"])
def test_a_turns_policy_rows_summed_by_outcome_are_those_summed_over_the_rolls(
    yatzy, switches, forced
):
    """The policy pass sums each of a turn's rows over its outcomes (the chances of the rolls
    gathered by box and points); written out a roll at a time, with the chosen box's points
    (upper bonus included) and next state, the sums are the same to rounding."""
    solver = yatzy(switches, forced)
    values = np.asarray(solver.load())
    for masks, uppers, _ in itertools.islice(solver.levels(), 1, None, 3):
        masks, uppers = masks[:200], uppers[:200]
        found = distribution._family_chunk_rows(solver, masks, uppers, values, _rows_of_states)
        finals, boxes = solver.final_roll_choices(masks, uppers, values)
        points, nexts, crossed = solver.box_outcomes(masks, uppers, boxes)
        chances = strategy.policy_roll_chances(finals)
        mean, second, *bonus = _rows_of_states(nexts)
        pairs = zip([1, mean, second], bonus, strict=True)
        bonus = [np.where(crossed, whole, part) for whole, part in pairs]
        by_roll = [
            points + mean,
            points**2 + 2 * points * mean + second,
            bonus[0],
            points * bonus[0] + bonus[1],
            points**2 * bonus[0] + 2 * points * bonus[1] + bonus[2],
        ]
        expected = np.array([(chances * row).sum(axis=0) for row in by_roll])
        assert np.allclose(found, expected, rtol=1e-12, atol=0)
