"""The score sheet as a table: the printed blank sheet, a game's sheet and its boxes grid.

Rows follow the paper card: the upper boxes, their subtotal, bonus and total, the lower
boxes, extra Yahtzees, the lower total and the grand total. Columns are cards. Each cell's
text, link and id are worked out here once, so an entry can send just the cells it changed;
the markup is the template's (`_sheet_table.html`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from scorecard.engine import families, rules
from scorecard.game.progress import CardProgress, EntryRow, GameProgress
from scorecard.presenters.box_names import box_name
from scorecard.presenters.per_language import per_language

# Sheet texts are said in the page's language: module-level ones lazily, at render time.

# How each box scores, in a word or two; a box worth a fixed amount shows it (from the engine).
_HINTS = {
    "one_pair": gettext_lazy("Two alike, those dice"),
    "two_pairs": gettext_lazy("Two different pairs"),
    "three_pairs": gettext_lazy("Three different pairs"),
    "three_of_a_kind": gettext_lazy("Three alike, those dice"),
    "four_of_a_kind": gettext_lazy("Four alike, those dice"),
    "five_of_a_kind": gettext_lazy("Five alike, those dice"),
    "villa": gettext_lazy("Two threes, all dice"),
    "tower": gettext_lazy("Four + two, all dice"),
    "chance": gettext_lazy("Sum of all dice"),
}
# The same boxes where a family counts them differently.
_FAMILY_HINTS = {
    ("yahtzee", "three_of_a_kind"): gettext_lazy("Sum of all dice"),
    ("yahtzee", "four_of_a_kind"): gettext_lazy("Sum of all dice"),
    ("yatzy", "full_house"): gettext_lazy("Three + two, all dice"),
    ("maxi", "full_house"): gettext_lazy("Three + two, those dice"),
}
_STRAIGHT_HINTS = {
    "small_straight": "1 2 3 4 5",
    "large_straight": "2 3 4 5 6",
    "full_straight": gettext_lazy("1 to 6"),
}


@per_language
def upper_hint(face: int) -> str:
    """What an upper box adds up, as a pad prints it beside the box."""
    return _("Sum of the %(face)ss") % {"face": face}


@per_language
def box_hint(house: rules.HouseRules[Any], box: families.CardBox) -> str:
    """What the sheet says beside a box, as a paper pad prints it: how the box scores in this
    family, or the fixed amount it is worth (from the engine)."""
    if box.is_upper:
        return upper_hint(box.upper_face)
    values = house.achievable_points(box)
    if len(values) == 2:  # nothing or a fixed amount: the amount is the hint
        fixed = str(max(values))
        # Yahtzee's straights are any run of four or five; the others' are exact runs.
        straight = None if house.family.has_jokers else _STRAIGHT_HINTS.get(box.key)
        return f"{straight}: {fixed}" if straight else fixed
    return str(_FAMILY_HINTS.get((house.family.key, box.key)) or _HINTS[box.key])


@dataclass
class Column:
    heading: str
    card: CardProgress | None = None
    multiplier: int = 1
    is_current: bool = False
    id: str = ""  # "c3" in a game's grid, so its cells can be swapped one by one
    player: str = ""  # whose card this is: Triple Yahtzee groups a player's three
    count: str = ""  # "×2": how a Triple card counts, shown under its player's name

    @property
    def head_id(self) -> str:
        """The heading's id in a game's grid ("c3-head"), so a turn's start can swap it."""
        return self.id and f"{self.id}-head"

    @property
    def card_of(self) -> str:
        """Whose Triple card this is, said only to a screen reader before its count: on paper
        the name already heads the player's three cards, and eight players leave a card's
        column a few millimetres. Blank for a one-card column or an unnamed player."""
        return self.player if self.count else ""

    @property
    def shown(self) -> tuple[str, str, str, str, bool]:
        """Everything its heading shows (its card's figures are the cells'): what a drawing
        of the heading is kept under (`drawn_once`)."""
        return (self.heading, self.player, self.count, self.id, self.is_current)


class Cell(NamedTuple):
    text: str = ""
    href: str = ""
    label: str = ""
    span: int = 1
    anchor: str = ""  # a filled box's link's id: `box_anchor`


EMPTY_CELL = Cell()


def box_anchor(turn: int) -> str:
    """The id of the link of the box a turn filled, on the game page: the correction page's
    Cancel comes back to it (a keyboard came back to the page's top, some 20 Tabs away)."""
    return f"t{turn}"


class Row(NamedTuple):
    """A row of the sheet. Tuples all the way down: a game page's grid keeps each row's
    drawing under the row itself (`{% drawn_once row %}`), hashed and compared in C."""

    label: str
    hint: str
    kind: str  # "box" or "sum"
    cells: tuple[Cell, ...] = ()
    box: Any = None  # a box of the card's family
    # "r3" in a game's grid, so an entry's answer can swap the rows it changed. Rows, not
    # cells: an id on each of a 4-player page's 76 cells was about 210 bytes of its first load.
    id: str = ""


# The address that corrects a turn (`access.GameLinks.correct`), for a sheet whose boxes
# link to their correction; None where they must not.
CorrectionLink = Callable[[int], str]


Totalled = Callable[[CardProgress], int | str]


# Each sum says what it adds up, as a paper pad does: the lower total is the one figure a
# player compares with the standings, whose Low column leaves the Yahtzee bonus out.
UPPER_SUBTOTAL_HINT = gettext_lazy("Ones to Sixes")
UPPER_TOTAL_HINT = gettext_lazy("Subtotal + bonus")
LOWER_TOTAL_HINT = gettext_lazy("Lower boxes + Yahtzee bonus")
NO_EXTRA_BONUS_HINT = gettext_lazy("none under this game’s rule")


@per_language
def yahtzee_bonus_hint() -> str:
    return _("%(points)s each extra Yahtzee") % {"points": rules.EXTRA_YAHTZEE_BONUS}


@per_language
def bonus_hint(house: rules.HouseRules[Any]) -> str:
    bonus = house.upper_bonus
    return _("%(points)s at %(threshold)s+") % {
        "points": bonus.points,
        "threshold": bonus.threshold,
    }


@dataclass(frozen=True)
class SheetWords:
    """Every word a sheet of one house's rules says besides names and figures, in one
    language: looked up once a sheet rather than once a row or a cell."""

    boxes: dict[Any, tuple[str, str]]  # a box's name and hint
    sums: dict[str, tuple[str, str]]  # a sum row's label and hint, by the row's key
    correction: str  # what a filled box's link says
    correction_on_a_card: str  # the same on a Triple card


@per_language
def sheet_words(house: rules.HouseRules[Any]) -> SheetWords:
    family = house.family
    boxes = {box: (box_name(box), box_hint(house, box)) for box in family.boxes}
    sums = {
        "upper": (_("Upper subtotal"), str(UPPER_SUBTOTAL_HINT)),
        "bonus": (pgettext("sheet row", "Bonus"), bonus_hint(house)),
        "upper-total": (_("Upper total"), str(UPPER_TOTAL_HINT)),
        "extra": (_("Yahtzee bonus"), yahtzee_bonus_hint()),
        "lower-total": (_("Lower total"), str(LOWER_TOTAL_HINT))
        if family.has_jokers
        else (_("Lower total"), _("Lower boxes")),
        "total": (_("Grand total"), _("Upper + lower")),
        "counts": (_("Counts as"), _("Grand total × card")),
        "player-total": (_("Player total"), "×1 + ×2 + ×3"),
    }
    return SheetWords(
        boxes,
        sums,
        _("Correct %(player)s’s %(box)s: %(points)s"),
        _("Correct %(player)s’s %(box)s on card %(count)s: %(points)s"),
    )


def _shown(value: Totalled, card: CardProgress | None) -> str:
    """A sum as its cell shows it: blank on a card not begun."""
    return str(value(card)) if card is not None and card.entries else ""


def _sum_row(key: str, words: SheetWords, value: Totalled, columns: list[Column]) -> Row:
    cells = tuple(Cell(_shown(value, column.card)) for column in columns)
    return Row(*words.sums[key], "sum", cells)


def _upper(card: CardProgress) -> int:
    return card.totals.upper


def _upper_total(card: CardProgress) -> int:
    return card.totals.upper_total


def _yahtzee_bonus(card: CardProgress) -> int:
    return card.totals.yahtzee_bonus


def _lower_total(card: CardProgress) -> int:
    return card.totals.lower_total


def _total(card: CardProgress) -> int:
    return card.totals.total


def _bonus(card: CardProgress) -> int | str:
    """The bonus once it is decided; blank while it may still come."""
    return card.totals.bonus if card.bonus_settled else ""


def _box_row(
    words: SheetWords, box: Any, columns: list[Column], correct: CorrectionLink | None
) -> Row:
    name, hint = words.boxes[box]
    cells = []
    for column in columns:
        entry = column.card.by_box.get(box) if column.card else None
        if entry is None:
            cells.append(EMPTY_CELL)
            continue
        points = str(entry.points)
        if correct:
            # What a filled box's link says: whose box, on which card, what it holds.
            label = words.correction_on_a_card if column.count else words.correction
            said = {"player": column.player, "box": name, "points": points, "count": column.count}
            link, anchor = correct(entry.turn), box_anchor(entry.turn)
            cells.append(Cell(points, link, label % said, anchor=anchor))
        else:
            cells.append(Cell(points))
    return Row(name, hint, "box", tuple(cells), box)


def sheet_rows(
    columns: list[Column],
    correct: CorrectionLink | None = None,
    house: rules.HouseRules[Any] | None = None,
    joker: rules.JokerRule = rules.JokerRule.HASBRO,
) -> list[Row]:
    """Every row of the sheet for these columns, by the rules of their cards (`house` for a
    blank sheet; standard Yahtzee unless given) and their game's `joker` rule; with
    `correct`, filled boxes link to their correction page. The extra-Yahtzee row is only for
    a family that has extra Yahtzees."""
    cards = [column.card for column in columns if column.card is not None]
    house = house or (cards[0].house_rules if cards else rules.STANDARD)
    family, words = house.family, sheet_words(house)
    rows = [_box_row(words, box, columns, correct) for box in family.upper_boxes]
    rows += _upper_sums(words, columns)
    rows += [_box_row(words, box, columns, correct) for box in family.lower_boxes]
    rows += _lower_sums(house, words, columns)
    if joker is rules.JokerRule.NONE:  # its row stays at 0: a printed "100 each" misled
        extra = words.sums["extra"][0]
        none = str(NO_EXTRA_BONUS_HINT)
        rows = [row._replace(hint=none) if row.label == extra else row for row in rows]
    if columns and columns[0].id:  # a game's grid: its rows are swapped by their place
        rows = [row._replace(id=f"r{place}") for place, row in enumerate(rows)]
    return rows


# The rows under the upper boxes: their subtotal, the bonus and the upper total.
_UPPER_SUMS: tuple[tuple[str, Totalled], ...] = (
    ("upper", _upper),
    ("bonus", _bonus),
    ("upper-total", _upper_total),
)


def _lower_figures(house: rules.HouseRules[Any]) -> tuple[tuple[str, Totalled], ...]:
    """The sums under the lower boxes, down to the grand total."""
    extra = (("extra", _yahtzee_bonus),) if house.family.has_jokers else ()
    return (*extra, ("lower-total", _lower_total), ("total", _total))


def _upper_sums(words: SheetWords, columns: list[Column]) -> list[Row]:
    return [_sum_row(name, words, figure, columns) for name, figure in _UPPER_SUMS]


def _lower_sums(
    house: rules.HouseRules[Any], words: SheetWords, columns: list[Column]
) -> list[Row]:
    """The rows under the lower boxes, down to the grand total (and a Triple's weights)."""
    rows = [_sum_row(name, words, figure, columns) for name, figure in _lower_figures(house)]
    if any(column.multiplier > 1 for column in columns):
        rows += [_weighted_row(words, columns), _player_total_row(words, columns)]
    return rows


def player_groups(columns: list[Column]) -> list[tuple[str, int]]:
    """Each player's name and how many columns their cards take, in a Triple sheet."""
    groups: list[tuple[str, int]] = []
    for index, column in enumerate(columns):
        if index and column.multiplier > 1:
            name, span = groups[-1]
            groups[-1] = (name, span + 1)
        else:
            groups.append((column.player, 1))
    return groups if any(span > 1 for _name, span in groups) else []


def _player_total_row(words: SheetWords, columns: list[Column]) -> Row:
    """A Triple player's three cards counted ×1, ×2, ×3 and added up."""
    cells, start = [], 0
    for _name, span in player_groups(columns):
        cards = [column.card for column in columns[start : start + span] if column.card]
        played = [card for card in cards if card.entries]
        total = rules.combined_totals({card.number: card.totals for card in played})
        cells.append(Cell(str(total.total) if played else "", span=span))
        start += span
    return Row(*words.sums["player-total"], "sum", tuple(cells))


def _weighted_row(words: SheetWords, columns: list[Column]) -> Row:
    cells = []
    for column in columns:
        card, text = column.card, ""
        if card is not None and card.entries:
            text = str(rules.combined_totals({card.number: card.totals}).total)
        cells.append(Cell(text))
    return Row(*words.sums["counts"], "sum", tuple(cells))


def game_columns(progress: GameProgress) -> list[Column]:
    current = progress.current
    triple = progress.game.cards_per_player > 1
    columns: list[Column] = []
    for seat in progress.seats:
        for card in seat.cards:
            name = seat.player.name
            count = f"×{card.multiplier}" if triple else ""
            columns.append(
                Column(
                    f"{name} {count}".strip(),
                    card,
                    card.multiplier,
                    is_current=seat is current,
                    id=f"c{len(columns)}",
                    player=name,
                    count=count,
                )
            )
    return columns


class GameSheet:
    """A game's grid on its page: columns, rows and player groups, each worked out only when
    the template draws it (a drawing kept in the cache needs none of them)."""

    def __init__(self, progress: GameProgress, correct: CorrectionLink | None) -> None:
        self.progress, self.correct = progress, correct

    @cached_property
    def columns(self) -> list[Column]:
        return game_columns(self.progress)

    @cached_property
    def rows(self) -> list[Row]:
        return sheet_rows(self.columns, self.correct, joker=self.progress.game.joker_rule)

    @cached_property
    def groups(self) -> list[tuple[str, int]]:
        return player_groups(self.columns)


@dataclass(frozen=True)
class ChangedRows:
    """What an entry made or took back changes in the grid, sent out of band: the headings
    of the columns whose player's turn began or ended, and the rows whose cells moved."""

    headings: list[Column]
    rows: list[Row]


def changed_rows(
    progress: GameProgress, entry: EntryRow, correct: CorrectionLink | None
) -> ChangedRows:
    """The rows an entry made or took back changes (its box's, the sums of its card whose
    value moved, a Triple player's total) and the headings of the columns whose player's
    turn began or ended. Only those rows are built, for every column: a sum moved when the
    entry's own column reads otherwise without (or with) the entry."""
    columns = game_columns(progress)
    seat_of_entry = progress.seat_of(entry)
    card = seat_of_entry.cards[entry.card - 1]
    if len(seat_of_entry.cards) > 1:  # a Triple player's rows span the player's cards
        rows = _rows_that_differ(columns, card, entry, correct)
    else:
        rows = _moved_rows(columns, card, entry, correct)
    moved = {seat_of_entry.seat.pk, progress.current.seat.pk if progress.current else None}
    cards = {id(card) for seat in progress.seats if seat.seat.pk in moved for card in seat.cards}
    headings = [column for column in columns if id(column.card) in cards]
    return ChangedRows(headings, rows)


def _moved_rows(
    columns: list[Column], card: CardProgress, entry: EntryRow, correct: CorrectionLink | None
) -> list[Row]:
    """The entry's box's row and each sum row its own column reads otherwise, each built for
    every column and given its place in the grid (`sheet_rows`' order)."""
    house, words = card.house_rules, sheet_words(card.house_rules)
    upper, lower = house.family.upper_boxes, house.family.lower_boxes
    before = _card_toggled(card, entry)
    sums = (*_UPPER_SUMS, *_lower_figures(house))
    upper_sums = len(_UPPER_SUMS)
    box = entry.rules_box
    box_place = upper.index(box) if box in upper else len(upper) + upper_sums + lower.index(box)
    placed = [(box_place, _box_row(words, box, columns, correct))]
    for index, (name, figure) in enumerate(sums):
        if _shown(figure, card) != _shown(figure, before):
            place = len(upper) + index if index < upper_sums else len(upper) + len(lower) + index
            placed.append((place, _sum_row(name, words, figure, columns)))
    return [row._replace(id=f"r{place}") for place, row in sorted(placed)]


def _rows_that_differ(
    columns: list[Column], card: CardProgress, entry: EntryRow, correct: CorrectionLink | None
) -> list[Row]:
    """The grid's rows that read otherwise without (or with) the entry, the grid built whole
    both ways."""
    before = [replace(column, card=_card_toggled(card, entry)) if column.card is card else column
              for column in columns]  # fmt: skip
    now, then = sheet_rows(columns, correct), sheet_rows(before, correct)
    return [row for row, was in zip(now, then, strict=True) if row != was]


def _card_toggled(card: CardProgress, entry: EntryRow) -> CardProgress:
    """The card as it was before `entry` came or went."""
    toggled = CardProgress(card.number, card.house_rules)
    for kept in card.entries:
        if kept is not entry:
            toggled.add(kept)
    if entry not in card.entries:
        toggled.add(entry)
    return toggled


def blank_columns(names: list[str], count: int, triple: bool) -> list[Column]:
    names = (names + [""] * count)[:count]
    if not triple:
        return [Column(name) for name in names]
    factors: Iterable[int] = range(1, rules.cards_per_player(triple=True) + 1)
    return [
        Column(
            f"{name} ×{factor}".strip(),
            multiplier=rules.card_multiplier(factor),
            player=name,
            count=f"×{factor}",
        )
        for name in names
        for factor in factors
    ]
