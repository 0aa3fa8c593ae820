"""Maxi Yatzy's saved rolls as the engine counts them: a turn's unused rolls are the player's
for later turns, and a turn may use the family's three and every roll saved."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorecard.engine import rules
from scorecard.engine.families import MAXI, YATZY, Switch
from scorecard.engine.rules import HouseRules, RuleViolation

SAVING = HouseRules(MAXI, frozenset({Switch.SAVED_ROLLS}))
NOT_SAVING = [rules.STANDARD, HouseRules(YATZY), HouseRules(MAXI)]


def test_a_turn_that_stops_early_saves_the_rolls_it_did_not_use():
    assert SAVING.saved_after(0, 1) == 2
    assert SAVING.saved_after(0, 2) == 1
    assert SAVING.saved_after(0, 3) == 0
    assert SAVING.saved_rolls([1, 2]) == 3


def test_a_later_turn_may_use_three_and_the_saved_rolls():
    assert SAVING.rolls_allowed(0) == 3
    assert SAVING.rolls_allowed(2) == 5
    assert SAVING.saved_after(2, 5) == 0
    assert SAVING.saved_after(2, 4) == 1
    assert SAVING.saved_rolls([1, 5, 3]) == 0


def test_more_rolls_than_the_player_has_are_refused_with_a_plain_message():
    with pytest.raises(RuleViolation, match="This turn may use 1 to 5 rolls; got 6."):
        SAVING.saved_after(2, 6)
    with pytest.raises(RuleViolation, match="may use 1 to 3 rolls; got 4"):
        SAVING.saved_rolls([3, 4])
    with pytest.raises(RuleViolation, match="got 0"):
        SAVING.check_rolls_used(0)


@pytest.mark.parametrize("used", [True, 2.0, "2", None])
def test_rolls_used_are_a_whole_number(used):
    with pytest.raises(RuleViolation, match="Rolls used are a whole number"):
        SAVING.check_rolls_used(used)


@pytest.mark.parametrize("house", NOT_SAVING)
def test_without_the_house_rule_a_turn_has_three_rolls_and_saves_none(house):
    assert house.rolls_allowed(5) == 3
    assert house.saved_rolls([1, 1, 2, 3]) == 0
    with pytest.raises(RuleViolation, match="1 to 3 rolls; got 4"):
        house.saved_rolls([1, 4])


@st.composite
def turns_played(draw):
    """A player's turns in order, each using some of the rolls it may: (rolls used, saved
    before the turn)."""
    turns, saved = [], 0
    for _ in range(draw(st.integers(0, len(MAXI.boxes)))):
        used = draw(st.integers(1, SAVING.rolls_allowed(saved)))
        turns.append((used, saved))
        saved += MAXI.rolls_per_turn - used
    return turns


@given(turns_played())
def test_saved_rolls_are_never_negative_and_count_every_roll_left_unused(turns):
    used = [rolls for rolls, _ in turns]
    for index, (_, saved_before) in enumerate(turns):
        assert SAVING.saved_rolls(used[:index]) == saved_before >= 0
    saved = SAVING.saved_rolls(used)
    assert saved >= 0
    assert saved == MAXI.rolls_per_turn * len(used) - sum(used)


@given(turns_played())
def test_undoing_the_last_turn_gives_back_the_saved_rolls_it_had(turns):
    used = [rolls for rolls, _ in turns]
    if used:
        before = SAVING.saved_rolls(used[:-1])  # the card after an undo of the last turn
        assert before == turns[-1][1]
        assert SAVING.saved_after(before, used[-1]) == SAVING.saved_rolls(used)


@given(st.lists(st.integers(-2, 12), max_size=20))
def test_any_claim_is_either_a_card_with_saved_rolls_or_refused(used):
    try:
        saved = SAVING.saved_rolls(used)
    except RuleViolation:
        running = 0
        for rolls in used:  # some turn used more than it had, or none at all
            if not 1 <= rolls <= 3 + running:
                break
            running += 3 - rolls
        else:
            pytest.fail("a possible card was refused")
    else:
        assert saved >= 0


@given(st.lists(st.integers(min_value=0, max_value=8), max_size=20))
def test_the_first_turn_over_its_rolls_is_where_counting_the_saved_ones_stops(uses):
    over = SAVING.turn_over_its_rolls(uses)
    if over is None:
        SAVING.saved_rolls(uses)  # every turn had its rolls
    else:
        SAVING.saved_rolls(uses[:over])
        with pytest.raises(RuleViolation):
            SAVING.saved_rolls(uses[: over + 1])


def test_a_turn_that_used_rolls_saved_before_a_corrected_count_is_found():
    assert SAVING.turn_over_its_rolls([1, 5]) is None  # the first saved two
    assert SAVING.turn_over_its_rolls([3, 5]) == 1  # corrected to 3: none saved
