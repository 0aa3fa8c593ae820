"""What a game's page says about the rules it is played by: the game's name, and the house
rules that differ from the family's printed ones (a switch on, its own bonus, forced order).

A Yahtzee game names its mode and extra-Yahtzee rule as before; other families have neither.
"""

from __future__ import annotations

from scorecard.models import Game


def game_title(game: Game) -> str:
    """ "Yatzy", "Maxi Yatzy", or for Yahtzee its mode: "Standard", "Triple Yahtzee", ..."""
    return game.title


def house_notes(game: Game) -> list[str]:
    """Each rule the table plays beyond the family's own, in a short plain sentence."""
    house = game.house_rules
    notes = [f"extra Yahtzees: {game.joker_rule.label}"] if house.family.has_jokers else []
    notes += [switch.label for switch in house.family.switches if switch in house.switches]
    if house.house_bonus is not None:
        bonus = house.house_bonus
        notes.append(f"bonus {bonus.points} at {bonus.threshold} or more")
    if house.forced:
        notes.append("boxes filled in order")
    return notes
