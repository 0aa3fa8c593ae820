"""The standings table of a game: each player's totals, whose turn it is marked, and what
each column means."""

from __future__ import annotations

from dataclasses import dataclass

from scorecard.engine import rules
from scorecard.game.progress import GameProgress


@dataclass(frozen=True)
class Heading:
    """A column of the standings: its name, the short form a 360-pixel screen shows, and
    the line under the table that says what it counts (a title tooltip never shows on
    touch)."""

    name: str
    short: str
    meaning: str

    @property
    def term(self) -> str:
        """How the legend names the column: its short form, and its name where they differ."""
        return self.short if self.short == self.name else f"{self.short} ({self.name})"


# The lower column leaves the Yahtzee bonus out, so that Up + Bon + Low + Yz+ = Total; its
# name says so, as the sheet's Lower total (a paper pad's "total of lower section") keeps it.
HEADINGS = [
    Heading("Upper boxes", "Up", "Ones to Sixes added up, before the bonus."),
    Heading(
        "Upper bonus",
        "Bon",
        f"{rules.UPPER_BONUS} once the upper boxes reach {rules.UPPER_BONUS_THRESHOLD}; "
        "blank while it may still come.",
    ),
    Heading(
        "Lower boxes",
        "Low",
        "3 of a kind to Chance added up, without the Yahtzee bonus. "
        "The sheet’s Lower total is Low + Yz+.",
    ),
    Heading("Yahtzee bonus", "Yz+", f"{rules.EXTRA_YAHTZEE_BONUS} for each extra Yahtzee."),
    Heading("Total", "Total", "The score: the four columns before it added up."),
    Heading(
        "Bonus pace",
        "Pace",
        f"How the upper boxes filled so far stand against {rules.PACE_DICE} of each face, "
        f"which makes exactly the {rules.UPPER_BONUS_THRESHOLD} of the bonus: "
        "+4 is 4 points ahead, −6 is 6 behind, 0 is right on it.",
    ),
]


@dataclass(frozen=True)
class StandingsRow:
    name: str
    totals: rules.Totals
    is_current: bool
    bonus_settled: bool  # else the Bonus cell stays blank: it may still come
    win: str | None = None  # the chance to finish first, with advice on (`advice.win_column`)

    @property
    def pace(self) -> str:
        """Points ahead of the bonus with a plus, behind with a minus sign, 0 right on it."""
        pace = self.totals.pace
        return f"+{pace}" if pace > 0 else f"−{-pace}" if pace < 0 else "0"


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
