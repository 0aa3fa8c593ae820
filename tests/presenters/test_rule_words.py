"""The engine's messages said in the page's language: every message the
engine means a player to read is in the catalogs' list, and said with each family's box names."""

import ast
from pathlib import Path

import pytest
from django.utils import translation

from scorecard.engine import families, rules
from scorecard.engine.families import MAXI, YATZY
from scorecard.presenters.rule_words import ENGINE_MESSAGES, said

ENGINE = Path(families.__file__).parent


def _said_templates() -> list[str]:
    """The first argument of every `Said(...)` in the engine's source: each must be a plain
    string, so the catalogs can hold it."""
    found = []
    for source in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Said":
                template = node.args[0]
                assert isinstance(template, ast.Constant), f"{source.name}:{node.lineno}"
                found.append(template.value)
    return found


def test_every_message_the_engine_words_for_a_player_is_in_the_catalogs_list():
    templates = _said_templates()
    assert len(templates) > 20
    assert set(templates) == set(ENGINE_MESSAGES)  # none missing, none left over


def test_a_said_message_reads_the_same_as_the_engine_s_english_in_english():
    forced = rules.HouseRules(YATZY, forced=True)
    reason = forced.card_options({}, (1, 1, 2, 3, 4))[1].reason
    assert reason == "The boxes are filled in order: Ones is next."
    assert said(reason) == reason
    assert said(rules.describe_values([0, 7, 8, 9, 11, 12, 26])) == "0, 7 to 9, 11 to 12 or 26"


def test_forced_order_says_the_next_box_as_the_swedish_yatzy_pad_names_it():
    forced = rules.HouseRules(YATZY, forced=True)
    reason = forced.card_options({}, (1, 1, 2, 3, 4))[1].reason
    with translation.override("sv"):
        assert said(reason) == "Rutorna fylls i ordning: Ettor är nästa."


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Ein Würfel zeigt 1 bis 6, nicht 7."),
        ("fi", "Nopan silmäluku on 1–6; nyt 7."),
    ],
)
def test_a_refused_die_is_said_in_the_page_s_language(language, expected):
    with pytest.raises(rules.RuleViolation) as refused:
        MAXI.parse_dice([1, 2, 3, 4, 5, 7])
    with translation.override(language):
        assert said(refused.value) == expected


def test_a_refusal_inside_a_refusal_names_its_box_and_lists_the_values_in_german():
    with pytest.raises(rules.RuleViolation) as refused:
        rules.STANDARD.check_card([rules.Entry(families.Box.FULL_HOUSE, 10)])
    with translation.override("de"):
        expected = "Full House: Full House kann nicht 10 ergeben; es ergibt 0 oder 25."
        assert said(refused.value) == expected


def test_an_extra_yahtzee_s_reason_lists_its_boxes_in_swedish():
    filled = {families.Box.YAHTZEE: 50, families.Box.SIXES: 18}
    options = rules.card_options(filled, (6, 6, 6, 6, 6))
    reason = next(option.reason for option in options if not option.allowed)
    assert reason == (
        "An extra Yahtzee must go in 3 of a kind or 4 of a kind while one of them is open."
    )
    with translation.override("sv"):
        assert said(reason) == (
            "En extra Yahtzee måste i Tretal eller Fyrtal så länge någon av dem är öppen."
        )
