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
    bonus_settled: bool  # else the Bonus cell stays blank: it may still come
    win: str | None = None  # the chance to finish first, with advice on (`advice.win_column`)


def standings_rows(
    progress: GameProgress, wins: dict[int, str] | None = None
) -> list[StandingsRow]:
    current = progress.current
    return [
        StandingsRow(
            seat.player.name,
            totals,
            seat is current,
            all(rules.upper_bonus_settled(card.filled) for card in seat.cards),
            wins.get(seat.seat.pk) if wins is not None else None,
        )
        for seat, totals in progress.standings()
    ]
