"""What a game's page says about the rules it is played by: the game's name, and the house
rules that differ from the family's printed ones (a switch on, its own bonus, forced order).

A Yahtzee game names its mode and extra-Yahtzee rule as before; other families have neither.
The joker rules' and switches' words are `rule_names`' (the rules and review pages say them
too).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scorecard.engine import rules
from scorecard.models import Game
from scorecard.presenters.per_language import per_language
from scorecard.presenters.rule_names import joker_label, switch_label


def game_title(game: Game) -> str:
    """ "Yatzy", "Maxi Yatzy", or for Yahtzee its mode: "Standard", "Triple Yahtzee", ..."""
    return _title(game.mode, game.family)


@per_language
def _title(mode: str, family: str) -> str:
    # The game's own title, said once a language for each mode and family: Django's
    # get_mode_display() translates every mode's name to find the one it says.
    return Game(mode=mode, family=family).title


def house_notes(game: Game) -> list[str]:
    """Each rule the table plays beyond the family's own, in a short plain sentence."""
    return list(_house_notes(game.house_rules, game.joker_rule))


@per_language
def _house_notes(house: rules.HouseRules[Any], joker: rules.JokerRule) -> tuple[str, ...]:
    notes = []
    if joker is rules.JokerRule.NONE and house.family.has_jokers:
        # Not "extra Yahtzees: No extra Yahtzees", the rule's label after its heading.
        notes.append(_("no extra-Yahtzee bonus or joker"))
    elif house.family.has_jokers:
        notes.append(_("extra Yahtzees: %(rule)s") % {"rule": joker_label(joker)})
    notes += [switch_label(switch) for switch in house.family.switches if switch in house.switches]
    if house.house_bonus is not None:
        bonus = house.house_bonus
        said = {"points": bonus.points, "threshold": bonus.threshold}
        notes.append(_("bonus %(points)s at %(threshold)s or more") % said)
    if house.forced:
        notes.append(_("boxes filled in order"))
    return tuple(notes)


def sheet_notes(game: Game) -> list[str]:
    """The house rules a game's printed sheet says beyond its footer, which states the
    family's own rules (for Yahtzee, Hasbro's joker order): a new user found a Yatzy game's
    sheet silent about the switches its scores were counted by, and about forced order."""
    notes = house_notes(game)
    if game.house_rules.family.has_jokers and game.joker_rule is rules.JokerRule.HASBRO:
        notes = notes[1:]  # the footer says it
    return notes
