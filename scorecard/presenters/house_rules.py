"""What a game's page says about the rules it is played by: the game's name, and the house
rules that differ from the family's printed ones (a switch on, its own bonus, forced order).

A Yahtzee game names its mode and extra-Yahtzee rule as before; other families have neither.
The engine keeps the joker rules' and switches' words in English (it may not import Django);
they are translated here, and a test checks these tables against the engine's members.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorecard.engine import families, rules
from scorecard.models import Game

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

JOKER_LABELS: dict[str, _StrPromise] = {
    "hasbro": gettext_lazy("Hasbro"),
    "any_lower": gettext_lazy("Any lower box"),
    "free": gettext_lazy("Free choice"),
    "none": gettext_lazy("No extra Yahtzees"),
}
JOKER_SUMMARIES: dict[str, _StrPromise] = {
    "hasbro": gettext_lazy(
        "Matching upper box first, then 3 or 4 of a kind, then any lower box at full value; "
        "+100 only with 50 in the Yahtzee box."
    ),
    "any_lower": gettext_lazy(
        "Matching upper box first, then any lower box at full value; "
        "a 0 in the Yahtzee box means no bonus and no joker."
    ),
    "free": gettext_lazy(
        "Any open box; full house and straights count in full once the matching upper box "
        "is filled; +100 only with 50 in the Yahtzee box."
    ),
    "none": gettext_lazy("No bonus and no joker: five of a kind scores like any other roll."),
}
SWITCH_LABELS: dict[str, _StrPromise] = {
    "five_alike_full_house": gettext_lazy("Five alike counts as a full house"),
    "four_alike_two_pairs": gettext_lazy("Four alike counts as two pairs"),
    "saved_rolls": gettext_lazy("Rolls not used are saved for later turns"),
}


def joker_label(rule: rules.JokerRule) -> str:
    return str(JOKER_LABELS[rule.key])


def joker_summary(rule: rules.JokerRule) -> str:
    return str(JOKER_SUMMARIES[rule.key])


def switch_label(switch: families.Switch) -> str:
    return str(SWITCH_LABELS[switch.key])


def game_title(game: Game) -> str:
    """ "Yatzy", "Maxi Yatzy", or for Yahtzee its mode: "Standard", "Triple Yahtzee", ..."""
    return game.title


def house_notes(game: Game) -> list[str]:
    """Each rule the table plays beyond the family's own, in a short plain sentence."""
    house = game.house_rules
    notes = []
    if house.family.has_jokers:
        notes.append(_("extra Yahtzees: %(rule)s") % {"rule": joker_label(game.joker_rule)})
    notes += [switch_label(switch) for switch in house.family.switches if switch in house.switches]
    if house.house_bonus is not None:
        bonus = house.house_bonus
        said = {"points": bonus.points, "threshold": bonus.threshold}
        notes.append(_("bonus %(points)s at %(threshold)s or more") % said)
    if house.forced:
        notes.append(_("boxes filled in order"))
    return notes
