"""The names of the engine's house rules (extra-Yahtzee rules and a family's switches), said in
the page's language.

The engine keeps them as English data (it may not import Django), as it keeps the box names
(`box_names.py`); they are translated here, looked up by key, and a test checks every rule and
switch of the engine has its words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import pgettext_lazy

from scorecard.engine import families, rules

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

JOKER_LABELS: dict[str, _StrPromise] = {
    "hasbro": pgettext_lazy("extra-Yahtzee rule", "Hasbro"),
    "any_lower": pgettext_lazy("extra-Yahtzee rule", "Any lower box"),
    "free": pgettext_lazy("extra-Yahtzee rule", "Free choice"),
    "none": pgettext_lazy("extra-Yahtzee rule", "No extra Yahtzees"),
}

JOKER_SUMMARIES: dict[str, _StrPromise] = {
    "hasbro": pgettext_lazy(
        "extra-Yahtzee rule",
        "Matching upper box first, then 3 or 4 of a kind, then any lower box at full value; "
        "+100 only with 50 in the Yahtzee box.",
    ),
    "any_lower": pgettext_lazy(
        "extra-Yahtzee rule",
        "Matching upper box first, then any lower box at full value; "
        "a 0 in the Yahtzee box means no bonus and no joker.",
    ),
    "free": pgettext_lazy(
        "extra-Yahtzee rule",
        "Any open box; full house and straights count in full once the matching upper box "
        "is filled; +100 only with 50 in the Yahtzee box.",
    ),
    "none": pgettext_lazy(
        "extra-Yahtzee rule",
        "No bonus and no joker: five of a kind scores like any other roll.",
    ),
}

# A switch as a heading or a choice says it ...
SWITCH_LABELS: dict[str, _StrPromise] = {
    "five_alike_full_house": pgettext_lazy("house rule", "Five alike counts as a full house"),
    "four_alike_two_pairs": pgettext_lazy("house rule", "Four alike counts as two pairs"),
    "saved_rolls": pgettext_lazy("house rule", "Rolls not used are saved for later turns"),
}

# ... and inside a list of the rules a game was played by ("Yatzy, five alike counts as ...").
SWITCH_NOTES: dict[str, _StrPromise] = {
    "five_alike_full_house": pgettext_lazy("house rule", "five alike counts as a full house"),
    "four_alike_two_pairs": pgettext_lazy("house rule", "four alike counts as two pairs"),
    "saved_rolls": pgettext_lazy("house rule", "rolls not used are saved for later turns"),
}


def joker_label(rule: rules.JokerRule) -> str:
    return str(JOKER_LABELS[rule.key])


def joker_summary(rule: rules.JokerRule) -> str:
    return str(JOKER_SUMMARIES[rule.key])


def switch_label(switch: families.Switch) -> str:
    return str(SWITCH_LABELS[switch.key])


def switch_note(switch: families.Switch) -> str:
    return str(SWITCH_NOTES[switch.key])
