"""The score sheet as a table: the printed blank sheet, a game's sheet and its boxes grid.

Rows follow the paper card: the upper boxes, their subtotal, bonus and total, the lower
boxes, extra Yahtzees, the lower total and the grand total. Columns are cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scorecard import rules
from scorecard.models import Entry
from scorecard.progress import CardProgress, GameProgress

BOX_HINTS = {
    **{box: f"Sum of the {box.face}s" for box in rules.UPPER_BOXES},
    rules.Box.THREE_OF_A_KIND: "Sum of all dice",
    rules.Box.FOUR_OF_A_KIND: "Sum of all dice",
    rules.Box.FULL_HOUSE: str(rules.FULL_HOUSE_POINTS),
    rules.Box.SMALL_STRAIGHT: str(rules.SMALL_STRAIGHT_POINTS),
    rules.Box.LARGE_STRAIGHT: str(rules.LARGE_STRAIGHT_POINTS),
    rules.Box.YAHTZEE: str(rules.YAHTZEE_POINTS),
    rules.Box.CHANCE: "Sum of all dice",
}


@dataclass
class Column:
    heading: str
    card: CardProgress | None = None
    multiplier: int = 1
    is_current: bool = False


@dataclass
class Cell:
    text: str = ""
    entry: Entry | None = None


@dataclass
class Row:
    label: str
    hint: str
    kind: str  # "box" or "sum"
    cells: list[Cell] = field(default_factory=list)
    box: rules.Box | None = None


def _sum_row(label: str, hint: str, value: Callable[[rules.Totals], int], columns) -> Row:
    cells = []
    for column in columns:
        if column.card is None or not column.card.entries:
            cells.append(Cell())
        else:
            cells.append(Cell(str(value(column.card.totals))))
    return Row(label, hint, "sum", cells)


def _box_row(box: rules.Box, columns: list[Column]) -> Row:
    cells = []
    for column in columns:
        entry = column.card.by_box.get(box) if column.card else None
        cells.append(Cell(str(entry.points), entry) if entry else Cell())
    return Row(box.label, BOX_HINTS[box], "box", cells, box)


def sheet_rows(columns: list[Column]) -> list[Row]:
    bonus_hint = f"{rules.UPPER_BONUS} at {rules.UPPER_BONUS_THRESHOLD}+"
    rows = [_box_row(box, columns) for box in rules.UPPER_BOXES]
    rows += [
        _sum_row("Upper subtotal", "", lambda t: t.upper, columns),
        _sum_row("Bonus", bonus_hint, lambda t: t.bonus, columns),
        _sum_row("Upper total", "", lambda t: t.upper_total, columns),
    ]
    rows += [_box_row(box, columns) for box in rules.LOWER_BOXES]
    rows += [
        _sum_row(
            "Extra Yahtzees",
            f"{rules.EXTRA_YAHTZEE_BONUS} each",
            lambda t: t.yahtzee_bonus,
            columns,
        ),
        _sum_row("Lower total", "", lambda t: t.lower_total, columns),
        _sum_row("Grand total", "Upper + lower", lambda t: t.total, columns),
    ]
    if any(column.multiplier > 1 for column in columns):
        rows.append(_weighted_row(columns))
    return rows


def _weighted_row(columns: list[Column]) -> Row:
    cells = [
        Cell(str(column.card.totals.total * column.multiplier))
        if column.card and column.card.entries
        else Cell()
        for column in columns
    ]
    return Row("Counts as", "Grand total × card", "sum", cells)


def game_columns(progress: GameProgress) -> list[Column]:
    current = progress.current
    triple = progress.game.cards_per_player > 1
    return [
        Column(
            f"{seat.player.name} ×{card.multiplier}" if triple else seat.player.name,
            card,
            card.multiplier,
            seat is current,
        )
        for seat in progress.seats
        for card in seat.cards
    ]


def blank_columns(names: list[str], count: int, triple: bool) -> list[Column]:
    names = (names + [""] * count)[:count]
    if not triple:
        return [Column(name) for name in names]
    return [
        Column(f"{name} ×{factor}".strip(), multiplier=factor)
        for name in names
        for factor in (1, 2, 3)
    ]
