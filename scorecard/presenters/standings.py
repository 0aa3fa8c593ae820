"""The standings table of a game: each player's totals, whose turn it is marked, and what
each column means."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


def headings(house: rules.HouseRules[Any]) -> list[Heading]:
    """The standings' columns for a game's rules: the Yahtzee bonus column only where the
    family has extra Yahtzees, the bonus and its pace by the game's own figures."""
    bonus, family = house.upper_bonus, house.family
    lower = family.lower_boxes
    span = f"{lower[0].label} to {lower[-1].label}"
    # The lower column leaves the Yahtzee bonus out, so that Up + Bon + Low + Yz+ = Total; its
    # name says so, as the sheet's Lower total (a paper pad's "total of lower section") keeps it.
    lower_meaning = (
        f"{span} added up, without the Yahtzee bonus. The sheet’s Lower total is Low + Yz+."
        if family.has_jokers
        else f"{span} added up."
    )
    columns = [
        Heading("Upper boxes", "Up", "Ones to Sixes added up, before the bonus."),
        Heading(
            "Upper bonus",
            "Bon",
            f"{bonus.points} once the upper boxes reach {bonus.threshold}; "
            "blank while it may still come.",
        ),
        Heading("Lower boxes", "Low", lower_meaning),
    ]
    if family.has_jokers:
        columns.append(
            Heading("Yahtzee bonus", "Yz+", f"{rules.EXTRA_YAHTZEE_BONUS} for each extra Yahtzee.")
        )
    added = "four columns" if family.has_jokers else "three columns"
    columns += [
        Heading("Total", "Total", f"The score: the {added} before it added up."),
        Heading(
            "Bonus pace",
            "Pace",
            f"How the upper boxes filled so far stand against {family.pace_dice} of each face, "
            f"which makes exactly the {family.upper_bonus.threshold} of the bonus: "
            "+4 is 4 points ahead, −6 is 6 behind, 0 is right on it.",
        ),
    ]
    if house.saves_rolls:
        columns.append(
            Heading(
                "Saved rolls",
                "Saved",
                "Rolls left unused on earlier turns, which the player may still roll on a "
                "later turn.",
            )
        )
    return columns


HEADINGS = headings(rules.STANDARD)


@dataclass(frozen=True)
class StandingsRow:
    name: str
    totals: rules.Totals
    is_current: bool
    bonus_settled: bool  # else the Bonus cell stays blank: it may still come
    win: str | None = None  # the chance to finish first, with advice on (`advice.win_column`)
    saved_rolls: int | None = None  # with Maxi Yatzy's saved rolls on, else not shown

    @property
    def pace(self) -> str:
        """Points ahead of the bonus with a plus, behind with a minus sign, 0 right on it."""
        pace = self.totals.pace
        return f"+{pace}" if pace > 0 else f"−{-pace}" if pace < 0 else "0"


def standings_rows(
    progress: GameProgress, wins: dict[int, str] | None = None
) -> list[StandingsRow]:
    current = progress.current
    saving = progress.game.house_rules.saves_rolls
    return [
        StandingsRow(
            seat.player.name,
            totals,
            seat is current,
            all(card.bonus_settled for card in seat.cards),
            wins.get(seat.seat.pk) if wins is not None else None,
            seat.saved_rolls if saving else None,
        )
        for seat, totals in progress.standings()
    ]
