"""The standings table of a game: each player's totals, whose turn it is marked."""

from __future__ import annotations

from dataclasses import dataclass

from scorecard import rules
from scorecard.progress import GameProgress

# The columns, with the short forms a 360-pixel screen shows.
HEADINGS = [
    ("Upper", "Up"),
    ("Bonus", "Bon"),
    ("Lower", "Low"),
    ("Yahtzee bonus", "Yz+"),
    ("Total", "Total"),
    ("Bonus pace", "Pace"),
]


@dataclass(frozen=True)
class StandingsRow:
    name: str
    totals: rules.Totals
    is_current: bool


def standings_rows(progress: GameProgress) -> list[StandingsRow]:
    current = progress.current
    return [
        StandingsRow(seat.player.name, totals, seat is current)
        for seat, totals in progress.standings()
    ]
