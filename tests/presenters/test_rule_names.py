"""The engine's house rules are said in the page's language, and none can be forgotten."""

from django.utils import translation

from scorecard.engine import families, rules
from scorecard.presenters import rule_names


def test_every_extra_yahtzee_rule_and_switch_has_words_that_are_its_engine_text():
    assert set(rule_names.JOKER_LABELS) == {rule.key for rule in rules.JokerRule}
    assert set(rule_names.JOKER_SUMMARIES) == {rule.key for rule in rules.JokerRule}
    assert set(rule_names.SWITCH_LABELS) == {switch.key for switch in families.Switch}
    assert set(rule_names.SWITCH_NOTES) == {switch.key for switch in families.Switch}
    with translation.override("en"):
        for rule in rules.JokerRule:
            assert rule_names.joker_label(rule) == rule.label
            assert rule_names.joker_summary(rule) == rule.summary
        for switch in families.Switch:
            assert rule_names.switch_label(switch) == switch.label
            assert rule_names.switch_note(switch) == switch.label[0].lower() + switch.label[1:]


def test_a_house_rule_reads_in_the_page_s_language():
    switch = families.Switch.FIVE_ALIKE_FULL_HOUSE
    with translation.override("sv"):
        assert rule_names.switch_label(switch) == "Fem lika räknas som kåk"
    with translation.override("de"):
        assert rule_names.switch_note(switch) == "fünf Gleiche zählen als Full House"
        assert rule_names.joker_label(rules.JokerRule.NONE) == "Keine weiteren Kniffel"
