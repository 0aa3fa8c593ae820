import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorecard.engine import rules
from scorecard.engine.rules import Box, JokerRule

DICE = st.lists(st.integers(1, 6), min_size=5, max_size=5)
JOKERS = st.sampled_from(list(JokerRule))


@st.composite
def cards(draw, *, allow_full=False):
    """A card with some boxes filled with values they can really hold."""
    boxes = draw(st.sets(st.sampled_from(list(Box)), max_size=13 if allow_full else 12))
    return {box: draw(st.sampled_from(sorted(rules.achievable_points(box)))) for box in boxes}


def test_boxes_are_in_card_order_and_know_their_half():
    assert [box.name for box in Box] == [
        "ONES", "TWOS", "THREES", "FOURS", "FIVES", "SIXES", "THREE_OF_A_KIND",
        "FOUR_OF_A_KIND", "FULL_HOUSE", "SMALL_STRAIGHT", "LARGE_STRAIGHT", "YAHTZEE", "CHANCE",
    ]  # fmt: skip
    assert [box.is_upper for box in Box] == [True] * 6 + [False] * 7
    assert all(box.is_lower != box.is_upper for box in Box)
    assert Box.FULL_HOUSE.label == "Full house"
    assert Box.from_key("small_straight") is Box.SMALL_STRAIGHT
    assert Box.for_face(4) is Box.FOURS


def test_unknown_box_and_rule_names_are_refused():
    with pytest.raises(ValueError, match="no box"):
        Box.from_key("sevens")
    with pytest.raises(ValueError, match="no joker rule"):
        JokerRule.from_key("house")
    assert JokerRule.from_key("any_lower") is JokerRule.ANY_LOWER


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        # The examples of the score table.
        (Box.ONES, (1, 1, 4, 5, 1), 3),
        (Box.FIVES, (5, 5, 2, 5, 6), 15),
        (Box.THREE_OF_A_KIND, (4, 4, 4, 2, 5), 19),
        (Box.FOUR_OF_A_KIND, (3, 3, 3, 3, 6), 18),
        (Box.FULL_HOUSE, (2, 2, 5, 5, 5), 25),
        (Box.SMALL_STRAIGHT, (1, 3, 4, 5, 6), 30),
        (Box.LARGE_STRAIGHT, (1, 2, 3, 4, 5), 40),
        (Box.YAHTZEE, (4, 4, 4, 4, 4), 50),
        (Box.CHANCE, (1, 3, 4, 6, 6), 20),
        (Box.SIXES, (6, 6, 6, 2, 1), 18),
        (Box.THREES, (1, 2, 4, 5, 6), 0),
        # The digital game's rule screen.
        (Box.FOURS, (4, 4, 1, 2, 3), 8),
        (Box.THREE_OF_A_KIND, (6, 6, 6, 5, 4), 27),
        (Box.FOUR_OF_A_KIND, (5, 4, 4, 4, 4), 21),
        (Box.THREE_OF_A_KIND, (1, 1, 2, 3, 4), 0),
        (Box.FOUR_OF_A_KIND, (2, 2, 2, 3, 3), 0),
        (Box.SMALL_STRAIGHT, (1, 2, 4, 5, 6), 0),
        (Box.LARGE_STRAIGHT, (1, 2, 3, 4, 6), 0),
        (Box.YAHTZEE, (4, 4, 4, 4, 5), 0),
        (Box.CHANCE, (5, 5, 5, 5, 5), 25),
    ],
)
def test_score_matches_the_documented_examples(box, dice, points):
    assert rules.score(box, dice) == points


@pytest.mark.parametrize(
    ("dice", "box", "points"),
    [
        ((1, 2, 3, 4, 4), Box.SMALL_STRAIGHT, 30),
        ((2, 3, 4, 5, 6), Box.SMALL_STRAIGHT, 30),
        ((2, 3, 4, 5, 6), Box.LARGE_STRAIGHT, 40),
        ((4, 4, 4, 4, 5), Box.FULL_HOUSE, 0),
        ((3, 3, 3, 3, 3), Box.THREE_OF_A_KIND, 15),
        ((3, 3, 3, 3, 3), Box.FOUR_OF_A_KIND, 15),
        ((3, 3, 3, 3, 3), Box.THREES, 15),
        ((3, 3, 3, 3, 3), Box.YAHTZEE, 50),
        ((3, 3, 3, 3, 3), Box.FULL_HOUSE, 0),
        ((3, 3, 3, 3, 3), Box.SMALL_STRAIGHT, 0),
        ((6, 5, 4, 3, 3), Box.SMALL_STRAIGHT, 30),
        ((1, 2, 3, 5, 6), Box.SMALL_STRAIGHT, 0),
    ],
)
def test_rolls_people_argue_about(dice, box, points):
    assert rules.score(box, dice) == points


def test_first_yahtzee_can_go_anywhere_at_its_ordinary_value():
    assert rules.options({}, (5, 5, 5, 5, 5)) == {box: rules.score(box, (5,) * 5) for box in Box}


@pytest.mark.parametrize(
    "bad",
    [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [1, 2, 3, 4, "5"],
     [1, 2, 3, 4, 2.0], [True, 1, 1, 1, 1], "1234x", "12", ""],
)  # fmt: skip
def test_bad_dice_raise_a_readable_value_error(bad):
    with pytest.raises(ValueError, match=r"(five dice|1 to 6|digits)"):
        rules.score(Box.CHANCE, bad)


def test_dice_may_be_typed_as_digits():
    assert rules.parse_dice("4 4 4 2 5") == (2, 4, 4, 4, 5)
    assert rules.parse_dice("4,4,4,2,5") == (2, 4, 4, 4, 5)


# --- The extra-Yahtzee (joker) rules, step by step -----------------------------------------

FIVE_FOURS = (4, 4, 4, 4, 4)
LOWER_OTHER = [Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT, Box.CHANCE]


def filled_with(*boxes, yahtzee=50):
    card = {box: box.max_points for box in boxes}
    card[Box.YAHTZEE] = yahtzee
    return card


@pytest.mark.parametrize("joker", [JokerRule.HASBRO, JokerRule.ANY_LOWER])
def test_extra_yahtzee_must_fill_matching_upper_box(joker):
    assert rules.options(filled_with(), FIVE_FOURS, joker) == {Box.FOURS: 20}
    reasons = {o.box: o.reason for o in rules.card_options(filled_with(), FIVE_FOURS, joker)}
    assert reasons[Box.FULL_HOUSE] == "Fours is open, so this Yahtzee must go there."
    assert reasons[Box.FOURS] == ""


def test_hasbro_then_three_or_four_of_a_kind():
    card = filled_with(Box.FOURS)
    assert rules.options(card, FIVE_FOURS) == {Box.THREE_OF_A_KIND: 20, Box.FOUR_OF_A_KIND: 20}
    card = filled_with(Box.FOURS, Box.THREE_OF_A_KIND)
    assert rules.options(card, FIVE_FOURS) == {Box.FOUR_OF_A_KIND: 20}
    blocked = next(o for o in rules.card_options(card, FIVE_FOURS) if o.box is Box.CHANCE)
    assert blocked.reason == "An extra Yahtzee must go in 4 of a kind while it is open."


def test_hasbro_then_any_other_lower_box_at_full_value():
    card = filled_with(Box.FOURS, Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND)
    assert rules.options(card, FIVE_FOURS) == {
        Box.FULL_HOUSE: 25,
        Box.SMALL_STRAIGHT: 30,
        Box.LARGE_STRAIGHT: 40,
        Box.CHANCE: 20,
    }
    blocked = next(o for o in rules.card_options(card, FIVE_FOURS) if o.box is Box.ONES)
    assert blocked.reason == (
        "An extra Yahtzee must go in Full house, Small straight, Large straight or Chance "
        "while one of them is open."
    )


def test_hasbro_last_a_zero_in_an_open_upper_box():
    card = filled_with(Box.FOURS, *rules.LOWER_BOXES)
    assert rules.options(card, FIVE_FOURS) == {b: 0 for b in rules.UPPER_BOXES if b != Box.FOURS}


def test_hasbro_worked_example_is_worth_140():
    card = filled_with(Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND)
    card[Box.SIXES] = 18
    choices = rules.options(card, (6, 6, 6, 6, 6))
    assert choices[Box.LARGE_STRAIGHT] == 40
    assert max(choices.values()) + rules.yahtzee_bonus(card, (6,) * 5) == 140


def test_hasbro_joker_applies_after_a_zero_in_the_yahtzee_box_without_bonus():
    card = filled_with(Box.FOURS, Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, yahtzee=0)
    assert rules.options(card, FIVE_FOURS)[Box.FULL_HOUSE] == 25
    assert rules.yahtzee_bonus(card, FIVE_FOURS) == 0


def test_any_lower_goes_to_any_lower_box_after_the_upper_one():
    card = filled_with(Box.FOURS)
    expected = {Box.THREE_OF_A_KIND: 20, Box.FOUR_OF_A_KIND: 20} | {
        Box.FULL_HOUSE: 25,
        Box.SMALL_STRAIGHT: 30,
        Box.LARGE_STRAIGHT: 40,
        Box.CHANCE: 20,
    }
    assert rules.options(card, FIVE_FOURS, JokerRule.ANY_LOWER) == expected
    card = filled_with(Box.FOURS, *rules.LOWER_BOXES)
    assert set(rules.options(card, FIVE_FOURS, JokerRule.ANY_LOWER)) == set(rules.UPPER_BOXES) - {
        Box.FOURS
    }


def test_any_lower_with_zero_in_yahtzee_box_is_an_ordinary_roll():
    card = filled_with(yahtzee=0)
    choices = rules.options(card, FIVE_FOURS, JokerRule.ANY_LOWER)
    assert choices[Box.FULL_HOUSE] == 0 and choices[Box.ONES] == 0
    assert len(choices) == 12
    assert rules.yahtzee_bonus(card, FIVE_FOURS, JokerRule.ANY_LOWER) == 0
    assert rules.yahtzee_bonus(filled_with(), FIVE_FOURS, JokerRule.ANY_LOWER) == 100


def test_free_choice_allows_every_open_box():
    card = filled_with()
    choices = rules.options(card, FIVE_FOURS, JokerRule.FREE)
    assert len(choices) == 12
    assert choices[Box.FULL_HOUSE] == 0  # matching upper box still open: no full value
    assert choices[Box.ONES] == 0 and choices[Box.FOURS] == 20
    card = filled_with(Box.FOURS, yahtzee=0)
    choices = rules.options(card, FIVE_FOURS, JokerRule.FREE)
    assert choices[Box.FULL_HOUSE] == 25 and choices[Box.LARGE_STRAIGHT] == 40
    assert rules.yahtzee_bonus(card, FIVE_FOURS, JokerRule.FREE) == 0


def test_no_joker_rule_scores_five_of_a_kind_like_any_roll():
    card = filled_with(Box.FOURS)
    choices = rules.options(card, FIVE_FOURS, JokerRule.NONE)
    assert choices[Box.FULL_HOUSE] == 0
    assert rules.yahtzee_bonus(card, FIVE_FOURS, JokerRule.NONE) == 0
    assert not rules.joker_applies(card, FIVE_FOURS, JokerRule.NONE)


def test_bonus_needs_fifty_in_the_yahtzee_box():
    assert rules.yahtzee_bonus({}, FIVE_FOURS) == 0
    assert rules.yahtzee_bonus(filled_with(), FIVE_FOURS) == 100
    assert rules.yahtzee_bonus(filled_with(), (4, 4, 4, 4, 3)) == 0


def test_options_of_a_full_card_are_refused():
    full = {box: 0 for box in Box if box is not Box.CHANCE} | {Box.CHANCE: 5}
    with pytest.raises(ValueError, match="full"):
        rules.options(full, FIVE_FOURS)


def test_cards_with_impossible_values_are_refused():
    with pytest.raises(ValueError, match="cannot hold 7"):
        rules.options({Box.TWOS: 7}, FIVE_FOURS)
    with pytest.raises(ValueError, match="not a box"):
        rules.totals({"twos": 4})


# --- Entries checked against a card ---------------------------------------------------------


def test_place_with_dice_returns_points_and_bonus():
    placement = rules.place(filled_with(), Box.FOURS, dice=FIVE_FOURS)
    assert (placement.points, placement.bonus, placement.dice) == (20, 100, FIVE_FOURS)


def test_place_refuses_filled_boxes_and_forbidden_jokers():
    with pytest.raises(ValueError, match="already filled"):
        rules.place({Box.ONES: 3}, Box.ONES, dice=(1, 1, 1, 2, 3))
    with pytest.raises(ValueError, match="Fours is open"):
        rules.place(filled_with(), Box.CHANCE, dice=FIVE_FOURS)
    with pytest.raises(ValueError, match="dice or the points"):
        rules.place({}, Box.ONES)


def test_typed_points_are_checked_against_what_the_box_can_score():
    assert rules.place({}, Box.THREES, points=9).points == 9
    with pytest.raises(ValueError, match=r"Threes cannot score 10; it scores 0, 3, 6, \.\.\. 15"):
        rules.place({}, Box.THREES, points=10)
    with pytest.raises(ValueError, match="0 or 25"):
        rules.check_points(Box.FULL_HOUSE, 20)
    with pytest.raises(ValueError, match="0 or 5 to 30"):
        rules.check_points(Box.THREE_OF_A_KIND, 4)
    with pytest.raises(ValueError, match="5 to 30"):
        rules.check_points(Box.CHANCE, 0)
    with pytest.raises(ValueError, match="whole number"):
        rules.check_points(Box.CHANCE, "12")


def test_typed_extra_yahtzee_earns_the_bonus_only_with_fifty_in_the_box():
    assert rules.place(filled_with(), Box.FOURS, points=20, extra_yahtzee=True).bonus == 100
    with pytest.raises(ValueError, match="only with 50"):
        rules.place(filled_with(yahtzee=0), Box.FOURS, points=20, extra_yahtzee=True)


@pytest.mark.parametrize(
    ("box", "values"),
    [
        (Box.ONES, range(0, 6)),
        (Box.THREES, range(0, 16, 3)),
        (Box.SIXES, range(0, 31, 6)),
        (Box.THREE_OF_A_KIND, [0, *range(5, 31)]),
        (Box.FOUR_OF_A_KIND, [0, *range(5, 31)]),
        (Box.FULL_HOUSE, [0, 25]),
        (Box.SMALL_STRAIGHT, [0, 30]),
        (Box.LARGE_STRAIGHT, [0, 40]),
        (Box.YAHTZEE, [0, 50]),
        (Box.CHANCE, range(5, 31)),
    ],
)
def test_achievable_points_of_each_box(box, values):
    assert rules.achievable_points(box) == frozenset(values)


def test_check_card_replays_a_valid_card():
    entries = [
        rules.Entry(Box.YAHTZEE, 50, FIVE_FOURS),
        rules.Entry(Box.FOURS, 20, FIVE_FOURS, 100),
        rules.Entry(Box.ONES, 3),
    ]
    assert rules.check_card(entries) == {Box.YAHTZEE: 50, Box.FOURS: 20, Box.ONES: 3}


def test_check_card_names_the_first_broken_turn():
    entries = [rules.Entry(Box.YAHTZEE, 0), rules.Entry(Box.FOURS, 20, FIVE_FOURS, 100)]
    message = (
        "Fours: those dice are worth 20, with no extra-Yahtzee bonus, but the card says 20 "
        "and the 100 extra-Yahtzee bonus."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        rules.check_card(entries)
    with pytest.raises(ValueError, match=r"Ones: Ones cannot score 7"):
        rules.check_card([rules.Entry(Box.ONES, 7)])
    with pytest.raises(
        ValueError, match=r"worth 5 and the 100 extra-Yahtzee bonus, but the card says 3\."
    ):
        rules.check_card(
            [rules.Entry(Box.YAHTZEE, 50, (1,) * 5), rules.Entry(Box.ONES, 3, (1,) * 5)]
        )


# --- Totals ---------------------------------------------------------------------------------


def test_totals_with_bonus_and_pace():
    card = {Box.ONES: 3, Box.TWOS: 6, Box.THREES: 9, Box.FOURS: 12, Box.FIVES: 20, Box.SIXES: 18}
    card |= {Box.CHANCE: 22, Box.YAHTZEE: 50}
    result = rules.totals(card, extra_yahtzees=2)
    assert (result.upper, result.bonus, result.lower, result.yahtzee_bonus) == (68, 35, 72, 200)
    assert result.total == 68 + 35 + 72 + 200
    assert result.pace == 5
    assert (result.upper_total, result.lower_total) == (103, 272)


def test_pace_counts_against_three_of_each_face():
    assert rules.totals({Box.FIVES: 20}).pace == 5
    assert rules.totals({Box.SIXES: 12}).pace == -6
    assert rules.totals({}).pace == 0


def test_sixty_two_misses_the_bonus_and_sixty_three_earns_it():
    assert rules.totals({Box.SIXES: 30, Box.FIVES: 25, Box.TWOS: 6, Box.ONES: 1}).bonus == 0
    assert rules.totals({Box.SIXES: 30, Box.FIVES: 25, Box.TWOS: 8}).bonus == 35


def test_triple_cards_multiply_everything():
    one = rules.totals({Box.SIXES: 30, Box.FIVES: 25, Box.TWOS: 8}, 1)
    assert one.times(3).total == 3 * one.total
    assert (one + one.times(2)).bonus == 3 * 35


def test_totals_add_and_multiply_every_figure():
    one, two = rules.Totals(1, 2, 3, 4, 5, 6), rules.Totals(10, 20, 30, 40, 50, -60)
    assert one + two == rules.Totals(11, 22, 33, 44, 55, -54)
    assert two.times(3) == rules.Totals(30, 60, 90, 120, 150, -180)


def test_extra_yahtzee_count_is_checked():
    with pytest.raises(ValueError, match="0 to 12"):
        rules.totals({}, extra_yahtzees=13)


def test_maximum_score_is_1575():
    assert rules.maximum_score() == 1575


# --- Properties -----------------------------------------------------------------------------


@given(cards(), DICE, JOKERS)
def test_options_never_offer_a_filled_box_and_always_offer_one(card, dice, joker):
    choices = rules.options(card, dice, joker)
    assert choices
    assert not set(choices) & set(card)


@given(cards(), DICE, JOKERS)
def test_points_never_exceed_what_a_box_can_hold(card, dice, joker):
    for box, points in rules.options(card, dice, joker).items():
        assert points in rules.achievable_points(box)
        assert 0 <= points <= box.max_points


@given(cards(), DICE, JOKERS, st.randoms())
def test_order_of_the_dice_never_matters(card, dice, joker, rnd):
    shuffled = list(dice)
    rnd.shuffle(shuffled)
    assert rules.options(card, dice, joker) == rules.options(card, shuffled, joker)
    assert rules.yahtzee_bonus(card, dice, joker) == rules.yahtzee_bonus(card, shuffled, joker)


@given(cards(), DICE, JOKERS)
def test_ordinary_rolls_score_their_ordinary_value(card, dice, joker):
    if not rules.joker_applies(card, dice, joker):
        assert rules.options(card, dice, joker) == {
            box: rules.score(box, dice) for box in Box if box not in card
        }


@given(cards(allow_full=True), st.integers(0, 12))
def test_total_is_the_sum_of_its_parts(card, extra):
    result = rules.totals(card, extra)
    assert result.total == result.upper + result.bonus + result.lower + result.yahtzee_bonus
    assert result.bonus in (0, 35)


def test_every_roll_scores_within_every_box():
    for roll in itertools.combinations_with_replacement(range(1, 7), 5):
        for box in Box:
            assert 0 <= rules.score(box, roll) <= box.max_points


# --- Cards, multipliers and the bonus line ---------------------------------------------------


def test_a_rule_violation_is_a_value_error_for_callers_that_expect_one():
    with pytest.raises(rules.RuleViolation) as caught:
        rules.parse_dice("77777")
    assert isinstance(caught.value, ValueError)
    with pytest.raises(rules.RuleViolation, match="no box called ‘7’"):
        Box.from_key(7)


def test_triple_yahtzee_has_three_cards_counted_once_twice_and_thrice():
    assert rules.cards_per_player(triple=True) == 3 and rules.cards_per_player(triple=False) == 1
    assert [rules.card_multiplier(card) for card in (1, 2, 3)] == [1, 2, 3]
    for bad in (0, 4, True, "2"):
        with pytest.raises(rules.RuleViolation, match="There is no card"):
            rules.card_multiplier(bad)
    card = rules.totals({Box.CHANCE: 20})
    assert rules.combined_totals({1: card, 3: card}).total == 20 + 3 * 20
    assert rules.combined_totals({}) == rules.NO_TOTALS
    assert rules.combined_totals({1: card}) == card  # a one-card game: its card, once
    assert rules.combined_totals({2: card}) == card.times(2)


def test_a_player_has_one_turn_a_box_of_every_card():
    assert rules.turns_per_player(1) == rules.BOXES_PER_CARD == 13
    assert rules.turns_per_player(3) == 39


def test_the_bonus_is_settled_at_63_or_when_the_upper_boxes_are_full():
    assert not rules.upper_bonus_settled({Box.SIXES: 30, Box.FIVES: 25})
    assert rules.upper_bonus_settled({Box.SIXES: 30, Box.FIVES: 25, Box.FOURS: 8})
    assert not rules.upper_bonus_settled({Box.SIXES: 30, Box.FIVES: 25, Box.CHANCE: 30})
    full_but_short = {box: box.face for box in rules.UPPER_BOXES}
    assert rules.upper_bonus_settled(full_but_short)


def test_pace_is_measured_against_three_of_each_upper_face():
    assert [rules.pace_par(box) for box in rules.UPPER_BOXES] == [3, 6, 9, 12, 15, 18]
    assert sum(rules.pace_par(box) for box in rules.UPPER_BOXES) == rules.UPPER_BONUS_THRESHOLD
    with pytest.raises(rules.RuleViolation, match="not an upper box"):
        rules.pace_par(Box.CHANCE)


def test_a_turn_is_at_most_three_rolls():
    assert rules.ROLLS_PER_TURN == 3


def test_a_typed_extra_yahtzee_follows_the_joker_rule_like_entered_dice():
    # Every upper box open: any five alike must go in its upper box, never the full house.
    with pytest.raises(ValueError, match="No five alike may score 25 in Full house"):
        rules.place({Box.YAHTZEE: 50}, Box.FULL_HOUSE, points=25, extra_yahtzee=True)
    assert rules.place({Box.YAHTZEE: 50}, Box.FOURS, points=20, extra_yahtzee=True).bonus == 100
    with pytest.raises(ValueError, match="Five alike never score 12 in Fours, so it was no"):
        rules.place({Box.YAHTZEE: 50}, Box.FOURS, points=12, extra_yahtzee=True)
    # Upper boxes full, 3 and 4 of a kind open: Hasbro sends it there first.
    uppers = {box: box.face * 3 for box in rules.UPPER_BOXES} | {Box.YAHTZEE: 50}
    with pytest.raises(
        ValueError, match="must go in 3 of a kind or 4 of a kind while one of them is open"
    ):
        rules.place(uppers, Box.FULL_HOUSE, points=25, extra_yahtzee=True)
    assert rules.place(uppers, Box.FOUR_OF_A_KIND, points=30, extra_yahtzee=True).bonus == 100
    # Free choice: the full house counts in full once the matching upper box is filled.
    free = rules.JokerRule.FREE
    assert rules.place(uppers, Box.FULL_HOUSE, points=25, extra_yahtzee=True, joker=free).bonus


@pytest.mark.parametrize(
    ("box", "points"),
    [(Box.FIVES, 25), (Box.ONES, 5), (Box.CHANCE, 30), (Box.THREE_OF_A_KIND, 5),
     (Box.FOUR_OF_A_KIND, 30)],
)  # fmt: skip
def test_points_only_five_alike_make_earn_the_bonus_unticked(box, points):
    """Found by a new user: Fives 25 typed without the tick, with 50 in the Yahtzee box, went
    in without its 100, though only 55555 makes it. The joker rule still decides the box."""
    card = {b: 0 for b in rules.UPPER_BOXES if b is not box} | {Box.YAHTZEE: 50}
    if box is Box.CHANCE:  # Hasbro's joker: 3 and 4 of a kind come first
        card |= {Box.THREE_OF_A_KIND: 0, Box.FOUR_OF_A_KIND: 0}
    assert rules.place(card, box, points=points).bonus == 100
    assert rules.place({}, box, points=points).bonus == 0  # no 50 in the Yahtzee box


def test_points_that_other_dice_make_earn_no_bonus_unticked():
    card = {Box.YAHTZEE: 50}
    for box, points in [(Box.FIVES, 20), (Box.FULL_HOUSE, 25), (Box.CHANCE, 25),
                        (Box.LARGE_STRAIGHT, 40), (Box.THREE_OF_A_KIND, 29)]:  # fmt: skip
        assert rules.place(card, box, points=points).bonus == 0
    assert rules.only_five_alike(Box.FOUR_OF_A_KIND, 30)
    assert not rules.only_five_alike(Box.FOUR_OF_A_KIND, 29)


def test_a_card_with_typed_points_only_five_alike_make_needs_their_bonus():
    """A file or an old card with Fives 25 typed after a 50, without the 100, is refused."""
    with pytest.raises(ValueError, match="Fives: only five alike make 25 there, which earns"):
        rules.check_card([rules.Entry(Box.YAHTZEE, 50, (3,) * 5), rules.Entry(Box.FIVES, 25)])
    card = [rules.Entry(Box.YAHTZEE, 50, (3,) * 5), rules.Entry(Box.FIVES, 25, bonus=100)]
    assert rules.check_card(card) == {Box.YAHTZEE: 50, Box.FIVES: 25}


def test_a_card_written_before_typed_five_alike_earned_their_bonus_is_given_it():
    """An older card (or export) holds Fives 25 typed after a 50 without the 100 that only a
    tick claimed then: the rules give it; dice, claims and other typed points stay as written."""
    E = rules.Entry
    card = [E(Box.YAHTZEE, 50, (3,) * 5), E(Box.FIVES, 25), E(Box.CHANCE, 22), E(Box.ONES, 3)]
    given = rules.STANDARD.with_earned_bonuses(card)
    assert given == [card[0], E(Box.FIVES, 25, bonus=100), card[2], card[3]]
    assert rules.check_card(given) == {Box.YAHTZEE: 50, Box.FIVES: 25, Box.CHANCE: 22, Box.ONES: 3}
    scratched = [E(Box.YAHTZEE, 0), E(Box.FIVES, 25)]
    assert rules.STANDARD.with_earned_bonuses(scratched) == scratched
    refused = [E(Box.YAHTZEE, 50, (3,) * 5), E(Box.CHANCE, 2)]
    assert rules.STANDARD.with_earned_bonuses(refused) == refused


def test_points_only_five_alike_make_follow_the_joker_rule():
    """Chance 30 is 66666: while Sixes is open, Hasbro sends it there."""
    with pytest.raises(ValueError, match="must go there"):
        rules.place({Box.YAHTZEE: 50}, Box.CHANCE, points=30)


def test_place_returns_the_entry_a_card_records():
    """One type for a filled box: what `place` returns is what `check_card` replays."""
    placed = rules.place({}, Box.CHANCE, dice=(1, 3, 4, 6, 6))
    assert placed == rules.Entry(Box.CHANCE, 20, (1, 3, 4, 6, 6))
    assert rules.check_card([placed]) == {Box.CHANCE: 20}


def test_a_replayed_card_gives_each_later_box_the_bonus_the_boxes_before_it_allow():
    """After a correction: 0 in the Yahtzee box takes later five alike's 100 away, a typed
    claim included; 50 gives dice their 100 back. Points that change break the card."""
    E = rules.Entry
    scratched = [E(Box.YAHTZEE, 0), E(Box.FOURS, 20, (4,) * 5, 100), E(Box.ONES, 5, bonus=100)]
    assert [e.bonus for e in rules.STANDARD.replay_card(scratched)] == [0, 0, 0]
    fifty = [E(Box.YAHTZEE, 50, (3,) * 5), E(Box.FOURS, 20, (4,) * 5), E(Box.CHANCE, 22)]
    assert [e.bonus for e in rules.STANDARD.replay_card(fifty)] == [0, 100, 0]
    any_lower = rules.JokerRule.ANY_LOWER
    uppers = [E(box, 0) for box in rules.UPPER_BOXES]
    joker = [E(Box.YAHTZEE, 0), *uppers, E(Box.FULL_HOUSE, 25, (2,) * 5)]
    with pytest.raises(ValueError, match="^Full house: those dice are worth 0"):
        rules.STANDARD.replay_card(joker, any_lower)


def test_five_alike_may_score_their_faces_totals_and_a_joker_s_values():
    house = rules.STANDARD
    assert house.five_alike_may_score(Box.FOURS, 20) and house.five_alike_may_score(Box.FOURS, 0)
    assert not house.five_alike_may_score(Box.FOURS, 16)
    assert house.five_alike_may_score(Box.FULL_HOUSE, 25)
    assert house.five_alike_may_score(Box.LARGE_STRAIGHT, 40)
    assert not house.five_alike_may_score(Box.CHANCE, 24)
    assert house.five_alike_may_score(Box.CHANCE, 25)


def test_a_replayed_card_names_the_box_the_rules_refuse():
    E = rules.Entry
    with pytest.raises(ValueError, match="^Chance: Chance cannot score 2"):
        rules.STANDARD.replay_card([E(Box.YAHTZEE, 0), E(Box.CHANCE, 2)])


def test_no_five_alike_claim_an_extra_yahtzee_where_there_are_no_jokers():
    from scorecard.engine.families import YATZY

    yatzy = rules.HouseRules(YATZY)
    assert not yatzy.five_alike_may_score(YATZY.box("chance"), 30)
