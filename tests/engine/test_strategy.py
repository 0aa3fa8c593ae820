"""The solver against an independent plain-Python enumeration, and the published optima."""

import itertools
from functools import cache

import numpy as np
import pytest

from scorecard.engine import rules, strategy
from scorecard.engine.rules import Box, JokerRule


@pytest.fixture
def tables(strategy_tables):
    return strategy_tables


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
def _value_after(card_items, extra_ok, joker):
    """Expected points still to come from a card (a frozenset of (box, points))."""
    card = dict(card_items)
    if len(card) == 13:
        return 0.0

    @cache
    def final(roll):
        best = -1.0
        bonus = rules.yahtzee_bonus(card, roll, joker)
        for box, points in rules.options(card, roll, joker).items():
            after = {**card, box: points}
            before_total = rules.totals(card).total
            gained = rules.totals(after).total - before_total
            best = max(best, gained + bonus + _value_after(frozenset(after.items()), 0, joker))
        return best

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


def enumerated(card, joker):
    return _value_after(frozenset(card.items()), 0, joker)


NEAR_END = [
    # One box open.
    {box: box.max_points for box in Box if box is not Box.CHANCE},
    {box: 0 for box in Box if box not in (Box.YAHTZEE, Box.CHANCE)} | {Box.CHANCE: 5},
    # Two boxes open, with the upper bonus and the joker at stake.
    {Box.ONES: 3, Box.TWOS: 6, Box.THREES: 9, Box.FOURS: 12, Box.SIXES: 18, Box.YAHTZEE: 50}
    | dict.fromkeys((Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.FULL_HOUSE), 0)
    | {Box.SMALL_STRAIGHT: 30, Box.CHANCE: 20},
    {b: b.max_points for b in rules.UPPER_BOXES if b is not Box.FOURS}
    | {b: 0 for b in rules.LOWER_BOXES if b not in (Box.FULL_HOUSE,)}
    | {Box.YAHTZEE: 50, Box.CHANCE: 5},
]


@pytest.mark.parametrize("joker", [JokerRule.HASBRO, JokerRule.ANY_LOWER])
@pytest.mark.parametrize("card", NEAR_END, ids=lambda card: f"{13 - len(card)}-open")
def test_solver_matches_an_independent_enumeration_near_the_end(tables, card, joker):
    solved = tables.load(joker)[strategy.state_index(*strategy.state_of(card))]
    assert solved == pytest.approx(enumerated(card, joker), abs=1e-9)


def test_published_optimum_for_free_choice_jokers(tables):
    assert round(tables.expected_score(JokerRule.FREE), 4) == 254.5896


def test_published_optimum_without_bonus_or_joker(tables):
    assert round(tables.expected_score(JokerRule.NONE), 4) == 245.8708


def test_every_rule_has_its_own_optimum(tables):
    scores = {joker: tables.expected_score(joker) for joker in JokerRule}
    assert scores[JokerRule.NONE] < scores[JokerRule.HASBRO] < scores[JokerRule.ANY_LOWER]
    assert scores[JokerRule.ANY_LOWER] < scores[JokerRule.FREE]


def test_only_reachable_states_are_stored():
    assert len(strategy.all_reachable_indices()) == 536_448


def test_rate_boxes_and_rate_keeps_agree(tables):
    card = NEAR_END[2]
    dice = (4, 4, 4, 5, 5)
    boxes = tables.rate_boxes(card, dice, JokerRule.HASBRO)
    assert set(boxes) == {Box.FIVES, Box.LARGE_STRAIGHT}
    keeps = dict(tables.rate_keeps(card, dice, 1, JokerRule.HASBRO))
    assert keeps[(4, 4, 4, 5, 5)] == pytest.approx(max(boxes.values()), abs=1e-9)
    now = rules.totals(card).total
    for box, value in boxes.items():
        points = rules.options(card, dice)[box]
        after = {**card, box: points}
        assert value == pytest.approx(
            rules.totals(after).total + enumerated(after, JokerRule.HASBRO)
        )
        assert value >= now


@pytest.mark.parametrize("rolls_left", [1, 2])
def test_keeping_every_die_is_worth_the_best_box_for_them_with_any_rerolls_left(tables, rolls_left):
    """Found by a tester: with two rerolls left "Keep all five 245.5" stood over "Chance
    24, expected 245.0" for the same dice (the table's keep of all five skips a roll and may
    reroll later). Keeping every die stops the turn: it is worth the best box, no more."""
    card = {box: 0 for box in Box if box is not Box.CHANCE}
    dice = (6, 6, 5, 4, 3)
    chance = tables.rate_boxes(card, dice, JokerRule.HASBRO)[Box.CHANCE]
    keeps = dict(tables.rate_keeps(card, dice, rolls_left, JokerRule.HASBRO))
    assert keeps[(3, 4, 5, 6, 6)] == pytest.approx(chance, abs=1e-9)
    assert max(keeps.values()) > chance  # rerolling the 3 is still better


def test_rate_keeps_lists_every_distinct_keep_best_first(tables):
    card = NEAR_END[3]
    ranked = tables.rate_keeps(card, (4, 4, 1, 2, 6), 2, JokerRule.HASBRO)
    keeps = [keep for keep, _ in ranked]
    assert len(keeps) == len(set(keeps)) == 24  # distinct sub-multisets of 1 2 4 4 6
    values = [value for _, value in ranked]
    assert values == sorted(values, reverse=True)
    assert keeps[0] == (4, 4)


def test_a_turn_from_the_first_roll_is_worth_the_state_value(tables):
    card = NEAR_END[3]
    state = tables.load(JokerRule.HASBRO)[strategy.state_index(*strategy.state_of(card))]
    now = rules.totals(card).total
    weighted = 0.0
    for roll in rules.ALL_ROLLS:
        best = tables.rate_keeps(card, roll, 2, JokerRule.HASBRO)[0][1]
        weighted += strategy.FIRST_ROLL[strategy.ROLL_INDEX[roll]] * (best - now)
    assert weighted == pytest.approx(state, abs=1e-9)


def test_extra_yahtzees_already_on_the_card_count_in_the_total(tables):
    card = NEAR_END[2]
    plain = tables.rate_boxes(card, (4, 4, 4, 5, 5), JokerRule.HASBRO)
    with_two = tables.rate_boxes(card, (4, 4, 4, 5, 5), JokerRule.HASBRO, extra_yahtzees=2)
    assert all(with_two[box] == pytest.approx(plain[box] + 200) for box in plain)


def test_rate_keeps_refuses_impossible_requests(tables):
    with pytest.raises(ValueError, match="one or two rerolls"):
        tables.rate_keeps({}, (1, 2, 3, 4, 5), 3)
    full = {box: 0 for box in Box if box is not Box.CHANCE} | {Box.CHANCE: 5}
    with pytest.raises(ValueError, match="full"):
        tables.rate_keeps(full, (1, 2, 3, 4, 5), 1)


def test_tables_are_loaded_from_disk_once_built(tables):
    tables.load(JokerRule.NONE)
    path = tables.table_path(JokerRule.NONE)
    assert path.exists() and path.name == "strategy-none-v3.npy"
    tables.forget(JokerRule.NONE)
    assert np.isclose(tables.load(JokerRule.NONE)[0], 245.870775, atol=1e-6)


def test_a_loaded_table_is_mapped_into_memory_not_read(tables):
    """A new process's first advice reads the few pages it asks about, not 11 MB; the
    mapping is read-only, so no advice can change a table that every worker shares."""
    tables.forget(JokerRule.HASBRO)
    values = tables.load(JokerRule.HASBRO)
    five_alike = tables.five_alike_table(JokerRule.HASBRO)
    for array in (values, five_alike):
        assert isinstance(array, np.memmap) and not array.flags.writeable
    assert values.shape == (strategy.STATE_COUNT,)


@pytest.fixture
def own_folder(tables, tmp_path, monkeypatch):
    """The standard rule's solved tables in memory, and an empty folder to write in; the
    session's tables are read again afterwards."""
    joker = JokerRule.HASBRO
    solved = np.array(tables.load(joker)), np.array(tables.five_alike_table(joker))
    monkeypatch.setattr(strategy.tables, "FOLDER", tmp_path)
    tables.forget(joker)
    yield solved
    tables.forget(joker)


def test_a_table_in_the_old_format_is_converted_never_misread(tables, own_folder):
    joker = JokerRule.HASBRO
    values, five_alike = own_folder
    old = tables.old_table_path(joker)
    assert old.name == "strategy-hasbro-v2.npz"
    np.savez(old, values=values[strategy.all_reachable_indices()], five_alike=five_alike)
    assert not tables.is_ready(joker)  # advice says it is not ready, never reads it as new
    assert tables.convert_old_table(joker) == tables.table_path(joker)
    assert not old.exists() and tables.convert_old_table(joker) is None
    assert np.array_equal(tables.load(joker), values)
    assert np.array_equal(tables.five_alike_table(joker), five_alike)


def test_a_table_file_of_another_layout_is_refused(tables, own_folder):
    values, five_alike = own_folder
    np.save(tables.five_alike_path(JokerRule.HASBRO), five_alike)
    np.save(tables.table_path(JokerRule.HASBRO), values[: strategy.STATE_COUNT // 2])
    with pytest.raises(ValueError, match="rebuild it"):
        tables.load(JokerRule.HASBRO)


def test_a_loaded_table_brings_its_five_alike_table(tables, monkeypatch):
    """Advice in a new process needs nothing rebuilt: the joker table comes from the file."""
    tables.load(JokerRule.HASBRO)
    built = tables.five_alike_table(JokerRule.HASBRO).copy()
    tables.forget(JokerRule.HASBRO)

    def rebuilt(joker):
        raise AssertionError("the five-alike table was built again")

    monkeypatch.setattr(tables, "_build_five_alike_table", rebuilt)
    tables.load(JokerRule.HASBRO)
    assert np.array_equal(tables.five_alike_table(JokerRule.HASBRO), built)
    assert tables.rate_keeps({}, (6, 6, 6, 6, 1), 1)[0][0] == (6, 6, 6, 6)


def _last_turn_card():
    """Every box but Chance filled, the Yahtzee box with a 0 (so no 100 bonus): the total
    is T, and the rival finished at T + 30, so only a Chance of 30 (five sixes) can draw."""
    filled = {Box.ONES: 1, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 5,
              Box.SIXES: 6, Box.THREE_OF_A_KIND: 10, Box.FOUR_OF_A_KIND: 9, Box.FULL_HOUSE: 25,
              Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.YAHTZEE: 0}  # fmt: skip
    return filled, rules.totals(filled, 0).total + 30


def test_playing_to_win_the_last_turn_differs_from_playing_for_points():
    filled, rival = _last_turn_card()
    wins = dict(
        strategy.rate_keeps_to_win(filled, (6, 6, 6, 5, 1), 1, JokerRule.HASBRO, 0, [rival])
    )
    # To win: keep 6 6 6; only 6 6 (1 in 36) makes 30, a draw with the rival: half a win.
    best_to_win = max(wins, key=wins.get)
    assert best_to_win == (6, 6, 6) and wins[best_to_win] == pytest.approx(1 / 36 / 2, abs=1e-12)
    # For points: keep 6 6 6 5 (23 + 3.5 expected, against 18 + 7 for 6 6 6), which can
    # reach 29 at most: no chance at all of finishing first.
    for_points = strategy.rate_keeps(filled, (6, 6, 6, 5, 1), 1, JokerRule.HASBRO)[0]
    assert for_points[0] == (5, 6, 6, 6) and wins[for_points[0]] == 0
    assert for_points[1] == pytest.approx(rules.totals(filled, 0).total + 26.5)


def test_the_chance_to_win_a_last_turn_before_rolling_is_exact():
    filled, rival = _last_turn_card()
    # Keeping sixes, each die shows a six within three rolls with 1 - (5/6)^3 = 91/216.
    chance = strategy.win_chance_this_turn(filled, JokerRule.HASBRO, 0, [rival])
    assert chance == pytest.approx((91 / 216) ** 5 / 2, abs=1e-12)
    # A rival one point lower: any Chance of 30 wins, and 29 (five sixes but one) draws.
    assert strategy.win_chance_this_turn(filled, JokerRule.HASBRO, 0, [rival - 1]) > chance


def test_a_tie_with_two_rivals_is_a_third_of_a_win():
    filled, rival = _last_turn_card()
    alone = strategy.final_win_chances(filled, JokerRule.HASBRO, 0, [rival])
    two = strategy.final_win_chances(filled, JokerRule.HASBRO, 0, [rival, rival])
    sixes = strategy.ROLL_INDEX[(6, 6, 6, 6, 6)]
    assert alone[sixes] == 0.5 and two[sixes] == pytest.approx(1 / 3)
    assert alone.sum() == 0.5  # no other roll reaches the rival


def test_the_chances_after_a_reroll_are_those_of_every_ordered_outcome_of_the_dice_rolled():
    rng = np.random.default_rng(5)
    kept = rng.random((len(strategy.KEEPS), 3))  # any weights of keeps, three states
    expected = np.zeros((len(strategy.ROLLS), 3))
    for keep, weights in zip(strategy.KEEPS, kept, strict=True):
        for outcome, chance in _outcomes(5 - len(keep)):
            expected[strategy.ROLL_INDEX[tuple(sorted(keep + outcome))]] += chance * weights
    assert strategy.rolled_chances(kept) == pytest.approx(expected, abs=1e-12)
