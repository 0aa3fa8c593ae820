"""What a game's page says about the rules it is played by: the game's name, and the house
rules that differ from the family's printed ones (a switch on, its own bonus, forced order).

A Yahtzee game names its mode and extra-Yahtzee rule as before; other families have neither.
The joker rules' and switches' words are `rule_names`' (the rules and review pages say them
too).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scorecard.models import Game
from scorecard.presenters.rule_names import joker_label, switch_label


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
