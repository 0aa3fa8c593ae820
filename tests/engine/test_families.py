"""Yatzy and Maxi Yatzy as the engine scores them: every box with worked examples, the house
switches, forced order, and properties that hold for every family."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorecard.engine import families, rules
from scorecard.engine.families import MAXI, YAHTZEE, YATZY, Switch, UpperBonus
from scorecard.engine.rules import HouseRules, RuleViolation

FIVE = frozenset({Switch.FIVE_ALIKE_FULL_HOUSE})
FOUR = frozenset({Switch.FOUR_ALIKE_TWO_PAIRS})
PLAIN_YATZY = HouseRules(YATZY)
PLAIN_MAXI = HouseRules(MAXI)
EVERY_HOUSE = [
    rules.STANDARD,
    PLAIN_YATZY,
    HouseRules(YATZY, FIVE),
    HouseRules(YATZY, FOUR),
    HouseRules(YATZY, FIVE | FOUR),
    HouseRules(YATZY, forced=True),
    PLAIN_MAXI,
]


def points(house, key, dice):
    return house.score(house.family.box(key), dice)


def test_a_yatzy_card_has_fifteen_boxes_in_the_order_of_the_pads():
    assert [box.key for box in YATZY.boxes] == [
        "ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
        "three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight", "full_house",
        "chance", "yatzy",
    ]  # fmt: skip
    assert [box.label for box in YATZY.upper_boxes][0] == "Ones"
    assert (YATZY.dice_count, YATZY.rolls_per_turn, YATZY.upper_bonus) == (5, 3, UpperBonus(63, 50))
    assert not YATZY.has_jokers and YATZY.has_advice


def test_a_maxi_card_has_twenty_boxes_and_six_dice():
    assert [box.key for box in MAXI.lower_boxes] == [
        "one_pair", "two_pairs", "three_pairs", "three_of_a_kind", "four_of_a_kind",
        "five_of_a_kind", "small_straight", "large_straight", "full_straight", "full_house",
        "villa", "tower", "chance", "maxi_yatzy",
    ]  # fmt: skip
    assert len(MAXI.boxes) == 20 and MAXI.dice_count == 6
    assert MAXI.upper_bonus == UpperBonus(84, 100)
    assert MAXI.switches == (Switch.SAVED_ROLLS,)
    assert HouseRules(MAXI, frozenset({Switch.SAVED_ROLLS})).saves_rolls
    assert not PLAIN_MAXI.saves_rolls


def test_maxi_says_plainly_it_has_no_advice():
    assert not MAXI.has_advice
    assert YAHTZEE.has_advice and YATZY.has_advice


def test_families_are_found_by_key_and_unknown_ones_refused():
    assert families.family_named("yatzy") is YATZY
    assert families.family_named("maxi").name == "Maxi Yatzy"
    assert families.family_named("yahtzee").boxes == tuple(rules.Box)
    with pytest.raises(RuleViolation, match="no game called ‘kniffel’"):
        families.family_named("kniffel")
    with pytest.raises(RuleViolation, match="no box called ‘villa’ on a Yatzy card"):
        YATZY.box("villa")


@pytest.mark.parametrize(
    ("family", "box", "points"),
    [(YAHTZEE, "yahtzee", 50), (YATZY, "yatzy", 50), (families.MAXI, "maxi_yatzy", 100)],
)
def test_each_family_names_its_all_alike_box_and_what_it_scores(family, box, points):
    assert family.all_alike_box is family.box(box)
    assert family.all_alike_points == points
    assert family.scored_all_alike({family.box(box): points})
    assert not family.scored_all_alike({family.box(box): 0})
    assert not family.scored_all_alike({family.box("chance"): points})


def test_shared_ideas_keep_yahtzees_box_keys():
    yahtzee_keys = {box.key for box in YAHTZEE.boxes}
    shared = {box.key for box in YATZY.boxes} & yahtzee_keys
    assert shared == {
        "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
        "four_of_a_kind", "full_house", "small_straight", "large_straight", "chance",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("key", "dice", "expected"),
    [
        ("ones", "11145", 3),
        ("sixes", "66612", 18),
        ("one_pair", "33446", 8),  # the higher pair
        ("one_pair", "12345", 0),
        ("one_pair", "55556", 10),  # only the pair counts
        ("two_pairs", "22333", 10),
        ("two_pairs", "11236", 0),
        ("two_pairs", "15555", 0),  # four alike is not two different pairs
        ("two_pairs", "55555", 0),
        ("three_of_a_kind", "33345", 9),
        ("three_of_a_kind", "33335", 9),
        ("three_of_a_kind", "22456", 0),
        ("four_of_a_kind", "22225", 8),
        ("four_of_a_kind", "66666", 24),
        ("four_of_a_kind", "22256", 0),
        ("small_straight", "12345", 15),
        ("small_straight", "23456", 0),
        ("small_straight", "12346", 0),
        ("large_straight", "23456", 20),
        ("large_straight", "12345", 0),
        ("full_house", "22333", 13),  # the sum of the dice
        ("full_house", "66655", 28),
        ("full_house", "11111", 0),  # five alike is not a full house
        ("full_house", "22223", 0),
        ("chance", "12346", 16),
        ("yatzy", "44444", 50),
        ("yatzy", "44443", 0),
    ],
)
def test_every_yatzy_box_scores_as_the_rules_say(key, dice, expected):
    assert points(PLAIN_YATZY, key, dice) == expected


def test_the_switch_five_alike_counts_as_a_full_house():
    switched = HouseRules(YATZY, FIVE)
    assert points(switched, "full_house", "11111") == 5
    assert points(switched, "full_house", "66666") == 30
    assert points(switched, "full_house", "22333") == 13
    assert points(switched, "two_pairs", "15555") == 0


def test_the_switch_four_alike_counts_as_two_pairs():
    switched = HouseRules(YATZY, FOUR)
    assert points(switched, "two_pairs", "15555") == 20
    assert points(switched, "two_pairs", "55555") == 20
    assert points(switched, "two_pairs", "22333") == 10
    assert points(switched, "full_house", "11111") == 0


@pytest.mark.parametrize(
    ("key", "dice", "expected"),
    [
        ("ones", "111111", 6),
        ("one_pair", "113355", 10),
        ("two_pairs", "113355", 16),  # the two highest pairs
        ("two_pairs", "111155", 12),
        ("two_pairs", "666666", 0),
        ("three_pairs", "113355", 18),
        ("three_pairs", "111355", 0),
        ("three_pairs", "222266", 0),  # three different faces
        ("three_of_a_kind", "666111", 18),
        ("four_of_a_kind", "555512", 20),
        ("five_of_a_kind", "333334", 15),
        ("five_of_a_kind", "333345", 0),
        ("small_straight", "123451", 15),
        ("small_straight", "123456", 15),
        ("large_straight", "234566", 20),
        ("full_straight", "123456", 21),
        ("full_straight", "123455", 0),
        ("full_house", "666551", 28),  # those five dice only
        ("full_house", "666555", 28),  # the better of 666 55 and 555 66
        ("full_house", "666666", 0),
        ("villa", "222555", 21),  # the sum of all six
        ("villa", "222255", 0),
        ("tower", "444422", 20),
        ("tower", "444444", 0),
        ("tower", "444425", 0),
        ("chance", "123456", 21),
        ("maxi_yatzy", "666666", 100),
        ("maxi_yatzy", "666665", 0),
    ],
)
def test_every_maxi_box_takes_the_best_its_six_dice_allow(key, dice, expected):
    assert points(PLAIN_MAXI, key, dice) == expected


@pytest.mark.parametrize(
    ("family", "dice", "message"),
    [
        (MAXI, "12345", "A roll is six dice; got 5."),
        (YATZY, "123456", "A roll is five dice; got 6."),
        (MAXI, "12x456", "Enter the dice as six digits from 1 to 6, such as 444256."),
        (YATZY, [1, 2, 3, 4, 7], "A die shows 1 to 6; got 7."),
        (YATZY, "777", "A die shows 1 to 6; got 7."),  # the face first, not "got 3"
        (MAXI, "1234", "A roll is six dice; got 4."),
    ],
)
def test_bad_dice_are_refused_with_a_message_for_a_person(family, dice, message):
    with pytest.raises(RuleViolation) as refused:
        family.parse_dice(dice)
    assert str(refused.value) == message


def test_a_switch_of_another_family_is_refused():
    with pytest.raises(RuleViolation, match="Maxi Yatzy has no house rule"):
        HouseRules(MAXI, FIVE)
    with pytest.raises(RuleViolation, match="Yahtzee has no house rule"):
        HouseRules(YAHTZEE, frozenset({Switch.SAVED_ROLLS}))
    assert Switch.from_key("saved_rolls") is Switch.SAVED_ROLLS


def test_house_rules_have_a_key_for_their_tables():
    assert PLAIN_YATZY.key == "yatzy"
    assert HouseRules(YATZY, FIVE | FOUR, forced=True).key == (
        "yatzy-five_alike_full_house-four_alike_two_pairs-forced"
    )
    assert HouseRules(MAXI, house_bonus=UpperBonus(75, 50)).key == "maxi-bonus75x50"


def test_yatzy_has_no_extra_yatzy_bonus_and_no_joker():
    card = {YATZY.box("yatzy"): 50}
    placed = PLAIN_YATZY.place(card, YATZY.box("full_house"), dice="33333")
    assert (placed.points, placed.bonus) == (0, 0)
    with pytest.raises(RuleViolation, match="earns 100 only"):
        PLAIN_YATZY.place(card, YATZY.box("threes"), points=15, extra_yahtzee=True)
    with pytest.raises(RuleViolation, match="0 to 0 extra Yahtzees"):
        PLAIN_YATZY.totals(card, extra_yahtzees=1)
    assert PLAIN_YATZY.options(card, "33333")[YATZY.box("threes")] == 15


def test_a_place_returns_the_entry_check_card_takes():
    entry = PLAIN_YATZY.place({}, YATZY.box("two_pairs"), dice="22333")
    assert entry == rules.Entry(YATZY.box("two_pairs"), 10, (2, 2, 3, 3, 3))
    assert PLAIN_YATZY.check_card([entry]) == {YATZY.box("two_pairs"): 10}
    wrong = rules.Entry(YATZY.box("two_pairs"), 13, (2, 2, 3, 3, 3))
    with pytest.raises(RuleViolation, match="Two pairs: those dice are worth 10"):
        PLAIN_YATZY.check_card([wrong])


def test_typed_points_are_checked_against_the_family():
    assert PLAIN_YATZY.check_points(YATZY.box("full_house"), 28) == 28
    with pytest.raises(
        RuleViolation,
        match="Full house cannot score 25; it scores 0, 7 to 9, 11 to 24 or 26 to 28.",
    ):
        PLAIN_YATZY.check_points(YATZY.box("full_house"), 25)
    with pytest.raises(
        RuleViolation, match=r"Two pairs cannot score 4; it scores 0 or 6, 8, 10, \.\.\. 22"
    ):
        PLAIN_YATZY.check_points(YATZY.box("two_pairs"), 4)
    assert HouseRules(YATZY, FOUR).check_points(YATZY.box("two_pairs"), 4) == 4


def test_a_box_of_another_family_is_refused_on_a_card():
    with pytest.raises(RuleViolation, match="not a box of a Yatzy card"):
        PLAIN_YATZY.totals({rules.Box.ONES: 3})
    with pytest.raises(RuleViolation, match="not a box of a Yahtzee card"):
        rules.totals({YATZY.box("ones"): 3})


def test_upper_bonus_of_each_family_and_a_house_bonus():
    yatzy_upper = {box: 3 * box.upper_face for box in YATZY.upper_boxes}
    assert PLAIN_YATZY.totals(yatzy_upper).bonus == 50
    short = yatzy_upper | {YATZY.box("ones"): 2}
    assert PLAIN_YATZY.totals(short).bonus == 0 and PLAIN_YATZY.totals(short).pace == -1
    maxi_upper = {box: 4 * box.upper_face for box in MAXI.upper_boxes}
    assert PLAIN_MAXI.totals(maxi_upper).total == 84 + 100
    assert PLAIN_MAXI.totals(maxi_upper).pace == 0
    house = HouseRules(MAXI, house_bonus=UpperBonus(75, 50))
    assert house.totals(maxi_upper | {MAXI.box("sixes"): 18}).bonus == 50
    assert PLAIN_MAXI.totals(maxi_upper | {MAXI.box("sixes"): 18}).bonus == 0


def test_pace_measures_against_a_house_bonus_threshold():
    """Found by a new user: Maxi Yatzy with its bonus at 90 showed four of each face on pace
    (0) though the bonus was lost, and Ones 5, Twos 10 the same +3 at 63, 84 and 105."""
    maxi_upper = {box: 4 * box.upper_face for box in MAXI.upper_boxes}
    at_90 = HouseRules(MAXI, house_bonus=UpperBonus(90, 100))
    assert (at_90.totals(maxi_upper).pace, at_90.totals(maxi_upper).bonus) == (-6, 0)
    start = {MAXI.box("ones"): 5, MAXI.box("twos"): 10}  # par 4 + 8 = 12 of the 84
    paces = [
        HouseRules(MAXI, house_bonus=UpperBonus(t, 100)).totals(start).pace for t in (63, 84, 105)
    ]
    assert paces == [15 - 9, 15 - 12, 15 - 15]
    assert HouseRules(MAXI, house_bonus=UpperBonus(84, 50)).totals(start).pace == 3
    assert (
        HouseRules(YAHTZEE, house_bonus=UpperBonus(70, 35)).totals({rules.Box.SIXES: 18}).pace == -2
    )


@given(
    st.sampled_from([YAHTZEE, YATZY, MAXI]),
    st.integers(1, 1000),
    st.lists(st.integers(0, 5), min_size=6, max_size=6),
)
def test_a_full_upper_sections_pace_is_its_distance_from_the_bonus_threshold(
    family, threshold, counts
):
    house = HouseRules(family, house_bonus=UpperBonus(threshold, 35))
    upper = {
        box: count * box.upper_face for box, count in zip(family.upper_boxes, counts, strict=True)
    }
    result = house.totals(upper)
    assert result.pace == result.upper - threshold
    assert (result.pace >= 0) == (result.bonus == 35)


def test_the_most_the_upper_boxes_hold_is_every_die_alike_in_each():
    assert PLAIN_MAXI.most_upper() == 6 * 21
    assert rules.STANDARD.most_upper() == PLAIN_YATZY.most_upper() == 5 * 21


def test_the_highest_possible_totals():
    assert PLAIN_YATZY.maximum_score() == 374
    assert PLAIN_MAXI.maximum_score() == 126 + 100 + 423
    assert rules.maximum_score() == 1575


def test_forced_order_opens_only_the_next_box():
    forced = HouseRules(YATZY, forced=True)
    card = {YATZY.box("ones"): 2}
    offered = forced.card_options(card, "22345")
    assert [option.box.key for option in offered if option.allowed] == ["twos"]
    assert offered[0].points == 4
    closed = offered[1]
    assert not closed.allowed and closed.reason == "The boxes are filled in order: Twos is next."
    with pytest.raises(RuleViolation, match="Twos is next"):
        forced.place(card, YATZY.box("chance"), dice="22345")
    with pytest.raises(RuleViolation, match="Twos is next"):
        forced.place(card, YATZY.box("chance"), points=16)
    assert forced.place(card, YATZY.box("twos"), dice="11345").points == 0


def test_forced_order_replays_a_card_filled_in_order_and_refuses_one_that_is_not():
    forced = HouseRules(YATZY, forced=True)
    in_order = [rules.Entry(box, 0) for box in YATZY.boxes[:3]]
    assert len(forced.check_card(in_order)) == 3
    with pytest.raises(RuleViolation, match="Threes: The boxes are filled in order: Twos"):
        forced.check_card([in_order[0], in_order[2]])


def test_forced_yahtzee_scores_an_extra_yahtzee_in_the_next_box():
    forced = HouseRules(YAHTZEE, forced=True)
    card = dict.fromkeys(YAHTZEE.boxes[:11], 0) | {rules.Box.YAHTZEE: 50}
    card.pop(rules.Box.LARGE_STRAIGHT)
    placed = forced.place(card, rules.Box.LARGE_STRAIGHT, dice="44444")
    assert (placed.points, placed.bonus) == (40, 100)


# --- Properties of every family ------------------------------------------------------------------


@st.composite
def house_and_dice(draw):
    house = draw(st.sampled_from(EVERY_HOUSE))
    dice = draw(st.lists(st.integers(1, 6), min_size=house.family.dice_count,
                         max_size=house.family.dice_count))  # fmt: skip
    return house, dice


@st.composite
def house_and_card(draw):
    """Some house rules and a card with some boxes filled with values they can hold (in card
    order when the house plays forced)."""
    house, dice = draw(house_and_dice())
    boxes = house.boxes
    if house.forced:
        chosen = boxes[: draw(st.integers(0, len(boxes) - 1))]
    else:
        chosen = draw(st.sets(st.sampled_from(boxes), max_size=len(boxes) - 1))
    card = {box: draw(st.sampled_from(sorted(house.achievable_points(box)))) for box in chosen}
    return house, card, dice


@given(house_and_dice(), st.randoms())
def test_a_permutation_of_the_dice_never_changes_a_score(drawn, rnd):
    house, dice = drawn
    shuffled = list(dice)
    rnd.shuffle(shuffled)
    for box in house.boxes:
        assert house.score(box, dice) == house.score(box, shuffled)


@given(house_and_dice())
def test_no_box_ever_scores_more_than_its_family_allows(drawn):
    house, dice = drawn
    for box in house.boxes:
        assert 0 <= house.score(box, dice) <= house.max_points(box)
        assert house.score(box, dice) in house.achievable_points(box)


@given(house_and_card())
def test_totals_add_up_and_the_bonus_comes_at_the_threshold(drawn):
    house, card, _ = drawn
    totals = house.totals(card)
    upper = sum(points for box, points in card.items() if box.is_upper)
    assert totals.upper == upper
    assert totals.lower == sum(points for box, points in card.items() if box.is_lower)
    assert totals.total == totals.upper + totals.bonus + totals.lower
    assert (totals.bonus > 0) == (upper >= house.upper_bonus.threshold)
    assert totals.bonus in (0, house.upper_bonus.points)


@given(house_and_card())
def test_options_offer_open_boxes_only_and_always_one(drawn):
    house, card, dice = drawn
    offered = house.options(card, dice)
    assert offered and not set(offered) & set(card)
    if house.forced:
        assert list(offered) == [house.next_box(card)]
    elif not house.family.has_jokers:
        assert set(offered) == set(house.boxes) - set(card)


@pytest.mark.parametrize(
    ("house", "refusal"),
    [
        (HouseRules(YAHTZEE, house_bonus=UpperBonus(1, 1000)), "Yahtzee has no upper bonus"),
        (HouseRules(MAXI, house_bonus=UpperBonus(127, 100)), "at most 126: a bonus at 127"),
        (HouseRules(MAXI, house_bonus=UpperBonus(0, 100)), "A bonus at 0 would go to every card"),
        (HouseRules(MAXI, house_bonus=UpperBonus(84, 501)), "worth 0 to 500 points"),
    ],
)
def test_a_tables_own_bonus_is_maxi_yatzys_and_one_it_can_win(house, refusal):
    with pytest.raises(RuleViolation, match=refusal):
        house.check_house_bonus()


def test_a_tables_own_bonus_within_the_limits_is_played():
    for bonus in (None, UpperBonus(1, 0), UpperBonus(126, 500)):
        HouseRules(MAXI, house_bonus=bonus).check_house_bonus()
    HouseRules(YAHTZEE).check_house_bonus()


def test_dice_and_points_both_given_must_agree():
    """Found by a fuzzer: dice 12345 and 20 typed for Fours were recorded as 4 without a word."""
    with pytest.raises(RuleViolation, match="The dice 12345 make 4 in Fours, not 20"):
        rules.STANDARD.place({}, rules.Box.FOURS, dice=(1, 2, 3, 4, 5), points=20)
    assert rules.STANDARD.place({}, rules.Box.FOURS, dice=(4, 4, 1, 2, 3), points=8).points == 8
