"""The score sheet as a table: rows, prepared cells, and the rows an entry changes; the
markup they get is the sheet template's."""

import pytest
from django.template.loader import render_to_string
from django.utils.html import strip_spaces_between_tags

from scorecard.access.links import GameLinks
from scorecard.engine.families import MAXI, YAHTZEE, YATZY
from scorecard.engine.rules import Box, HouseRules
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.models import Game
from scorecard.presenters.sheet import (
    blank_columns,
    changed_rows,
    game_columns,
    sheet_rows,
)
from tests.factories import GameFactory, play


def changed_ids(changed):
    """The headings' ids and the rows' (with their labels) an entry's answer swaps."""
    heads = [column.head_id for column in changed.headings]
    return heads + [f"{row.id} {row.label}" for row in changed.rows]


def heading_html(column, swap_oob=False):
    context = {"column": column, "swap_oob": swap_oob}
    return render_to_string("_sheet_table.html#sheet-head", context).strip()


def row_html(row, swap_oob=False):
    """A row as the grid draws it (without spaces between tags)."""
    context = {"row": row, "swap_oob": swap_oob}
    return strip_spaces_between_tags(
        render_to_string("_sheet_table.html#sheet-row", context).strip()
    )


def test_filled_boxes_link_to_their_correction_and_sums_do_not(game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    progress = load_progress(game)
    rows = sheet_rows(game_columns(progress), GameLinks(game.public_id).correct)
    fours = next(row for row in rows if row.box is Box.FOURS)
    assert fours.cells[0].href.endswith("/turns/1/correct/") and fours.cells[1].text == ""
    assert 'aria-label="Correct Ann’s Fours: 12"' in row_html(fours)
    total = next(row for row in rows if row.label == "Grand total")
    assert [cell.text for cell in total.cells] == ["12", ""]
    assert not total.cells[0].href


def test_an_entry_changes_its_box_the_sums_that_moved_and_the_turn_headers(game):
    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))])
    recorded = services.record_box(game=game, version=1, turn=2, box=Box.FOURS, dice=(4,) * 5)
    ids = changed_ids(changed_rows(recorded.progress, recorded.entry, None))
    # Bob's first entry: every sum of his card appears; Ann's turn begins again.
    assert ids[:2] == ["c0-head", "c1-head"]
    assert ids[2:] == ["r3 Fours", "r6 Upper subtotal", "r8 Upper total", "r16 Yahtzee bonus",
                       "r17 Lower total", "r18 Grand total"]  # fmt: skip
    later = services.record_box(game=game, version=2, turn=3, box=Box.TWOS, dice=(2, 2, 1, 3, 4))
    ids = changed_ids(changed_rows(later.progress, later.entry, None))
    # An upper box moves neither the lower total nor the Yahtzee bonus.
    assert ids[2:] == ["r1 Twos", "r6 Upper subtotal", "r8 Upper total", "r18 Grand total"]
    rows = sheet_rows(game_columns(later.progress))
    assert [row.id for row in rows] == [f"r{place}" for place in range(len(rows))]
    assert not any(row.id for row in sheet_rows(blank_columns(["Ann"], 1, triple=False)))


def test_an_undone_entry_empties_its_cell(game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    progress, undone = services.undo_last_entry(game=game, version=1)
    rows = [row_html(row, swap_oob=True) for row in changed_rows(progress, undone, None).rows]
    assert (
        '<tr id="r3" class="box" hx-swap-oob="true"><th scope="row">Fours</th><td></td>' in rows[0]
    )
    assert (
        '<tr id="r18" class="sum" hx-swap-oob="true"><th scope="row">Grand total</th><td></td>'
        in rows[-1]
    )


def test_the_blank_triple_sheet_has_three_columns_a_player_counted_once_twice_thrice():
    columns = blank_columns(["Ann"], 1, triple=True)
    assert [(column.heading, column.multiplier) for column in columns] == [
        ("Ann ×1", 1),
        ("Ann ×2", 2),
        ("Ann ×3", 3),
    ]
    assert [row.label for row in sheet_rows(columns)[-2:]] == ["Counts as", "Player total"]


def test_names_are_escaped_in_headers(household):
    game = services.game_create(owner=household, names=["<b>Ann</b>"])
    header = heading_html(game_columns(load_progress(game))[0])
    assert "&lt;b&gt;Ann&lt;/b&gt;" in header and "<b>" not in header


def test_a_triple_sheet_names_each_player_over_three_cards_and_adds_them_up(household):
    from scorecard.models import Game
    from scorecard.presenters.sheet import player_groups

    game = services.game_create(owner=household, names=["Ann", "Bob"], mode=Game.Mode.TRIPLE)
    services.record_box(game=game, version=0, turn=1, box=Box.CHANCE, card=3, dice=(6,) * 5)
    progress = load_progress(game)
    columns = game_columns(progress)
    assert player_groups(columns) == [("Ann", 3), ("Bob", 3)]
    total = sheet_rows(columns)[-1]
    assert total.label == "Player total" and [c.span for c in total.cells] == [3, 3]
    assert [cell.text for cell in total.cells] == [str(3 * 30), ""]
    recorded = services.record_box(
        game=game, version=1, turn=2, box=Box.ONES, card=2, dice=(1,) * 5
    )
    ids = changed_ids(changed_rows(recorded.progress, recorded.entry, None))
    assert ids[-1] == "r20 Player total" and "r0 Ones" in ids
    assert player_groups(blank_columns([], 2, triple=True)) == [("", 3), ("", 3)]
    assert 'class="visually-hidden">Player<' in heading_html(blank_columns([], 1, False)[0])


def test_each_sum_says_what_it_adds_up_as_a_paper_pad_does(game):
    play(game, [(Box.YAHTZEE, (5,) * 5), (Box.CHANCE, (1, 2, 3, 4, 6)), (Box.FIVES, (5,) * 5)])
    rows = sheet_rows(game_columns(load_progress(game)))
    sums = {row.label: (row.hint, row.cells[0].text) for row in rows if row.kind == "sum"}
    assert sums == {
        "Upper subtotal": ("Ones to Sixes", "25"),
        "Bonus": ("35 at 63+", ""),
        "Upper total": ("Subtotal + bonus", "25"),
        "Yahtzee bonus": ("100 each extra Yahtzee", "100"),
        "Lower total": ("Lower boxes + Yahtzee bonus", "150"),
        "Grand total": ("Upper + lower", "175"),
    }


def test_a_triple_card_heading_shows_its_count_under_the_name_and_keeps_the_name_for_readers():
    ann_first, *_ = blank_columns(["Ann"], 1, triple=True)
    # The name stands once over the three cards; each card's own heading reads ×1 on paper,
    # and "Ann ×1" to a screen reader.
    visible = '<span class="visually-hidden">Ann </span>×1'
    assert heading_html(ann_first) == f'<th scope="col">{visible}</th>'
    unnamed, *_ = blank_columns([], 1, triple=True)
    assert heading_html(unnamed) == '<th scope="col">×1</th>'
    (one_card,) = blank_columns(["Ann"], 1, triple=False)
    assert heading_html(one_card) == '<th scope="col">Ann</th>'


def test_a_correction_link_names_the_player_and_a_triple_card(household):
    game = GameFactory(owner=household, names=["Ann", "Bob"], mode=Game.Mode.TRIPLE)
    services.record_box(game=game, version=0, turn=1, box=Box.TWOS, card=2, dice=(2, 2, 1, 3, 4))
    progress = load_progress(game)
    rows = sheet_rows(game_columns(progress), GameLinks(game.public_id).correct)
    twos = next(row for row in rows if row.box is Box.TWOS)
    assert 'aria-label="Correct Ann’s Twos on card ×2: 4"' in row_html(twos)


@pytest.mark.parametrize("family", [YAHTZEE, YATZY, MAXI])
def test_a_blank_sheet_has_the_rows_and_hints_of_a_games_sheet_of_its_family(db, family):
    house = HouseRules(family)
    game = GameFactory(house=services.HouseSettings(family.key), names=("Ann", "Bob"))
    played = sheet_rows(game_columns(load_progress(game)))
    blank = sheet_rows(blank_columns(["Ann", "Bob"], 2, triple=False), house=house)
    assert [(r.label, r.hint, r.kind) for r in blank] == [(r.label, r.hint, r.kind) for r in played]
    assert all(cell.text == "" for row in blank for cell in row.cells)
    hints = {row.label: row.hint for row in blank}
    assert hints["Ones"] == "Sum of the 1s"
    assert hints["Chance"] == "Sum of all dice"


def test_a_sheet_asks_for_the_language_once_not_once_a_row_or_a_cell(household, monkeypatch):
    """A game page's grid is drawn for every version: its words (names, hints, sums, what a
    correction link says) are looked up once a sheet, each lookup of the language costing a
    context-local read."""
    from scorecard.presenters import per_language

    game = GameFactory(owner=household, names=["Ann", "Bob", "Cy", "Di"])
    play(game, [(box, (1, 2, 3, 4, 6)) for box in list(Box)[:3] for _ in range(4)])
    columns = game_columns(load_progress(game))
    sheet_rows(columns, GameLinks(game.public_id).correct)  # words for this language kept
    asked = []
    real = per_language.get_language
    monkeypatch.setattr(per_language, "get_language", lambda: asked.append(1) or real())
    rows = sheet_rows(columns, GameLinks(game.public_id).correct)
    assert len(asked) == 1
    assert sum(bool(cell.href) for row in rows for cell in row.cells) == 12


def test_an_entrys_answer_draws_what_it_changed_in_one_piece(game):
    """The headings and rows an entry changed, drawn by one include of the sheet's partial
    (an include costs about as much as what it draws): the same markup, each swapped in out
    of band by its id."""
    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))])
    recorded = services.record_box(game=game, version=1, turn=2, box=Box.FOURS, dice=(4,) * 5)
    changed = changed_rows(recorded.progress, recorded.entry, None)
    context = {"changed": changed, "swap_oob": True}
    drawn = render_to_string("_sheet_table.html#changed-rows", context)
    one_by_one = [heading_html(column, swap_oob=True) for column in changed.headings]
    one_by_one += [row_html(row, swap_oob=True) for row in changed.rows]
    # Headings and rows in templates of their own (a template that begins with a heading
    # cell would drop the rows' <tr> tags).
    headings, rows = one_by_one[:2], one_by_one[2:]
    expected = f"<template>{''.join(headings)}</template><template>{''.join(rows)}</template>"
    assert strip_spaces_between_tags(drawn.strip()) == expected
    assert drawn.count('hx-swap-oob="true"') == len(one_by_one) == 2 + 6


@pytest.mark.parametrize("family", [YAHTZEE, YATZY, MAXI])
def test_an_entry_s_changed_rows_are_the_rows_the_whole_grid_tells_apart(household, family):
    """Only the entry's box and the sums its own column reads otherwise are built, for every
    column: the same rows, ids and cells as comparing the whole grid with and without it."""
    from scorecard.presenters import sheet
    from tests.factories import play_on

    house = services.HouseSettings(family.key)
    game = services.game_create(owner=household, names=["Ann", "Bob", "Cy"], house=house)
    progress = load_progress(play_on(game, seed=7))
    correct = GameLinks(game.public_id).correct
    columns = game_columns(progress)
    for entry in progress.entries:
        card = progress.seat_of(entry).cards[entry.card - 1]
        whole = sheet._rows_that_differ(columns, card, entry, correct)
        assert changed_rows(progress, entry, correct).rows == whole
