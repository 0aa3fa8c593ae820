"""The rules at their edges: the words a refusal says, each joker rule where it differs from
the others, and a card replayed with typed points."""

import pytest

from scorecard.engine import rules
from scorecard.engine.rules import Box, Entry, JokerRule, RuleViolation

FIVE_THREES = (3, 3, 3, 3, 3)
YAHTZEE_SCORED = {Box.YAHTZEE: 50}


def refusal(call, *args, **kwargs) -> str:
    with pytest.raises(RuleViolation) as refused:
        call(*args, **kwargs)
    return str(refused.value)


def test_dice_typed_with_letters_are_refused_with_how_to_type_them():
    assert refusal(rules.parse_dice, "44a25") == (
        "Enter the dice as five digits from 1 to 6, such as 44425."
    )


def test_dice_given_out_of_order_come_back_sorted():
    assert rules.parse_dice((5, 4, 4, 4, 2)) == (2, 4, 4, 4, 5)


def test_a_box_named_by_something_other_than_text_is_refused_readably():
    said = "There is no box called ‘['ones']’ on a Yahtzee card."
    assert refusal(Box.from_key, ["ones"]) == said


@pytest.mark.parametrize(
    ("dice", "small", "large"),
    [
        ((1, 2, 3, 4, 6), 30, 0),  # four in a row at the start
        ((1, 3, 4, 5, 6), 30, 0),  # four in a row at the end, after a gap
        ((2, 3, 3, 4, 5), 30, 0),  # a pair inside the run
        ((1, 2, 3, 5, 6), 0, 0),  # two short runs are no straight
        ((1, 2, 4, 5, 6), 0, 0),
        ((2, 3, 4, 5, 6), 30, 40),
        ((6, 5, 4, 3, 2), 30, 40),
        ((1, 1, 2, 2, 3), 0, 0),
    ],
)
def test_a_small_straight_counts_four_in_a_row_anywhere(dice, small, large):
    assert rules.score(Box.SMALL_STRAIGHT, dice) == small
    assert rules.score(Box.LARGE_STRAIGHT, dice) == large


def test_a_full_card_is_refused_with_the_reason():
    full = {box: min(rules.achievable_points(box)) for box in Box}
    assert refusal(rules.card_options, full, FIVE_THREES) == (
        "This card is full: every box is filled."
    )


def test_a_placed_entry_names_its_box_and_points():
    assert rules.place({}, Box.CHANCE, dice=(1, 2, 3, 4, 6)) == rules.Entry(
        Box.CHANCE, 16, (1, 2, 3, 4, 6)
    )
    assert rules.place({}, Box.CHANCE, points=16) == rules.Entry(Box.CHANCE, 16)


def test_the_free_rule_lets_an_extra_yahtzee_go_anywhere_while_its_upper_box_is_open():
    placement = rules.place(YAHTZEE_SCORED, Box.FULL_HOUSE, dice=FIVE_THREES, joker=JokerRule.FREE)
    assert (placement.box, placement.points, placement.bonus) == (Box.FULL_HOUSE, 0, 100)


def test_without_a_joker_rule_an_extra_yahtzee_earns_no_bonus():
    placement = rules.place(YAHTZEE_SCORED, Box.CHANCE, dice=FIVE_THREES, joker=JokerRule.NONE)
    assert (placement.points, placement.bonus) == (15, 0)


def test_without_a_joker_rule_a_typed_extra_yahtzee_is_refused():
    message = refusal(
        rules.place, YAHTZEE_SCORED, Box.CHANCE, points=15, joker=JokerRule.NONE, extra_yahtzee=True
    )
    assert message == "An extra Yahtzee earns 100 only with 50 in the Yahtzee box."


def test_a_typed_extra_yahtzee_keeps_its_box_points_and_bonus():
    placement = rules.place(YAHTZEE_SCORED, Box.THREES, points=15, extra_yahtzee=True)
    assert placement == rules.Entry(Box.THREES, 15, bonus=100)


def test_a_card_with_a_typed_extra_yahtzee_replays_with_its_bonus():
    entries = [
        Entry(Box.YAHTZEE, 50, FIVE_THREES),
        Entry(Box.THREES, 15, bonus=100),
    ]
    assert rules.check_card(entries) == {Box.YAHTZEE: 50, Box.THREES: 15}


def test_a_card_replays_under_its_own_joker_rule():
    entries = [Entry(Box.YAHTZEE, 50, FIVE_THREES), Entry(Box.FULL_HOUSE, 0, FIVE_THREES, 100)]
    assert rules.check_card(entries, JokerRule.FREE) == {Box.YAHTZEE: 50, Box.FULL_HOUSE: 0}
    with pytest.raises(RuleViolation):
        rules.check_card(entries, JokerRule.HASBRO)


def test_a_replayed_box_worth_other_points_says_what_the_dice_are_worth():
    entries = [Entry(Box.CHANCE, 21, (1, 2, 3, 4, 5))]
    assert refusal(rules.check_card, entries) == (
        "Chance: those dice are worth 15, but the card says 21."
    )


def test_totals_from_the_sums_alone_have_no_extra_yahtzees_and_an_even_pace():
    totals = rules.totals_from_sums(63, 100)
    assert (totals.yahtzee_bonus, totals.pace, totals.total) == (0, 0, 198)


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ([25], "25"),
        ([0, 25], "0 or 25"),
        ([5, 6, 7, 8], "5 to 8"),
        ([0, 3, 6, 9, 12], "0, 3, 6, ... 12"),
        ([0, 5, 10, 15], "0, 5, 10, ... 15"),
        ([0, 7, 8, 9], "0 or 7 to 9"),
    ],
)
def test_a_box_s_possible_values_are_said_in_short(values, said):
    assert str(rules.describe_values(values)) == said
