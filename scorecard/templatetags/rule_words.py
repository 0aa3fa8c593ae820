"""The engine's house rules said in the page's language: `{{ rule|joker_label }}`,
`{{ rule|joker_summary }}`, `{{ switch|switch_label }}`, `{{ switch|switch_note }}`."""

from django import template

from scorecard.presenters import rule_names

register = template.Library()

register.filter("joker_label", rule_names.joker_label)
register.filter("joker_summary", rule_names.joker_summary)
register.filter("switch_label", rule_names.switch_label)
register.filter("switch_note", rule_names.switch_note)
