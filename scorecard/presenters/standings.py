"""The standings table of a game: each player's totals, whose turn it is marked, and what
each column means."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scorecard.engine import rules
from scorecard.game.progress import GameProgress
from scorecard.presenters.box_names import box_name
from scorecard.presenters.per_language import per_language


@dataclass(frozen=True)
class Heading:
    """A column of the standings: its name, the short form a 360-pixel screen shows, and
    the line under the table that says what it counts (a title tooltip never shows on
    touch)."""

    name: str
    short: str
    meaning: str
    is_total: bool = False  # kept in sight when the table is swiped sideways

    @property
    def term(self) -> str:
        """How the legend names the column: its short form, and its name where they differ."""
        if self.short == self.name:
            return self.short
        return _("%(short)s (%(name)s)") % {"short": self.short, "name": self.name}


@per_language
def headings(house: rules.HouseRules[Any], finished: bool = False) -> tuple[Heading, ...]:
    """The standings' columns for a game's rules: the Yahtzee bonus column only where the
    family has extra Yahtzees, the bonus and its pace by the game's own figures; a
    `finished` game's without the pace (there is no bonus left to pace)."""
    bonus, family = house.upper_bonus, house.family
    lower = family.lower_boxes
    span = {"first": box_name(lower[0]), "last": box_name(lower[-1])}
    # The lower column leaves the Yahtzee bonus out, so that Up + Bon + Low + Yz+ = Total; its
    # name says so, as the sheet's Lower total (a paper pad's "total of lower section") keeps it.
    lower_meaning = (
        _(
            "%(first)s to %(last)s added up, without the Yahtzee bonus. The sheet’s Lower total "
            "is Low + Yz+."
        )
        if family.has_jokers
        else _("%(first)s to %(last)s added up.")
    ) % span
    upper = {"first": box_name(family.upper_boxes[0]), "last": box_name(family.upper_boxes[-1])}
    columns = [
        Heading(
            _("Upper boxes"),
            pgettext("standings", "Up"),
            _("%(first)s to %(last)s added up, before the bonus.") % upper,
        ),
        Heading(
            _("Upper bonus"),
            pgettext("standings", "Bon"),
            _("%(points)s once the upper boxes reach %(threshold)s; blank while it may still come.")
            % {"points": bonus.points, "threshold": bonus.threshold},
        ),
        Heading(_("Lower boxes"), pgettext("standings", "Low"), lower_meaning),
    ]
    if family.has_jokers:
        columns.append(
            Heading(
                _("Yahtzee bonus"),
                pgettext("standings", "Yz+"),
                _("%(points)s for each extra Yahtzee.") % {"points": rules.EXTRA_YAHTZEE_BONUS},
            )
        )
    total = pgettext("standings", "Total")
    columns.append(
        Heading(
            total,
            total,
            _("The score: the four columns before it added up.")
            if family.has_jokers
            else _("The score: the three columns before it added up."),
            is_total=True,
        )
    )
    if not finished:
        columns.append(pace_heading(house))
    if house.saves_rolls:
        columns.append(
            Heading(
                _("Saved rolls"),
                pgettext("standings", "Saved"),
                _(
                    "Rolls left unused on earlier turns, which the player may still roll on a "
                    "later turn."
                ),
            )
        )
    return tuple(columns)


def pace_heading(house: rules.HouseRules[Any]) -> Heading:
    family, threshold = house.family, house.upper_bonus.threshold
    if threshold == family.upper_bonus.threshold:
        meaning = _(
            "How the upper boxes filled so far stand against %(dice)s of each face, which "
            "makes exactly the %(threshold)s of the bonus: +4 is 4 points ahead, −6 is 6 "
            "behind, 0 is right on it."
        ) % {"dice": family.pace_dice, "threshold": threshold}
    else:  # a house threshold is seldom a number of each face: its share by the faces' sizes
        meaning = _(
            "How the upper boxes filled so far stand against their share of the %(threshold)s "
            "of the bonus, a face's share as big as the face (Sixes six times Ones): +4 is 4 "
            "points ahead, −6 is 6 behind, 0 is right on it."
        ) % {"threshold": threshold}
    return Heading(_("Bonus pace"), pgettext("standings", "Pace"), meaning)


HEADINGS = headings(rules.STANDARD)


class StandingsRow(NamedTuple):
    """A player's row. A tuple, as the sheet's rows are: a page keeps each row's drawing
    under the row itself (`{% drawn_once row %}`), hashed and compared in C."""

    name: str
    totals: rules.Totals
    is_current: bool
    # Else the Bonus cell stays blank: none is earned yet, and it may still come. A Triple
    # player's bonus earned on one card shows while another's may still come (a new user
    # found the column blank beside a total that counted it).
    bonus_shown: bool
    win: str | None = None  # the chance to finish first, with advice on (`advice.win_column`)
    saved_rolls: int | None = None  # with Maxi Yatzy's saved rolls on, else not shown
    # The extra-Yahtzee column's figure; None for a family without extra Yahtzees (no column).
    yahtzee_bonus: int | None = None
    pace: str | None = None  # `pace_said`; None once the game is over (no column)


def pace_said(totals: rules.Totals) -> str:
    """Points ahead of the bonus with a plus, behind with a minus sign, 0 right on it."""
    pace = totals.pace
    return f"+{pace}" if pace > 0 else f"−{-pace}" if pace < 0 else "0"


def standings_rows(
    progress: GameProgress, wins: dict[int, str] | None = None
) -> list[StandingsRow]:
    current = progress.current
    house = progress.game.house_rules
    saving, jokers = house.saves_rolls, house.family.has_jokers
    pacing = not progress.is_finished
    return [
        StandingsRow(
            seat.player.name,
            totals,
            seat is current,
            totals.bonus > 0 or all(card.bonus_settled for card in seat.cards),
            wins.get(seat.seat.pk) if wins is not None else None,
            progress.saved_rolls_now(seat) if saving else None,
            totals.yahtzee_bonus if jokers else None,
            pace_said(totals) if pacing else None,
        )
        for seat, totals in progress.standings()
    ]
