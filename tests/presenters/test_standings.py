"""The standings table: totals, whose turn it is, and a bonus shown once it is decided."""

from scorecard.engine.rules import Box
from scorecard.game.progress import load_progress
from scorecard.presenters.standings import standings_rows
from tests.factories import play


def test_standings_mark_whose_turn_it_is(game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    rows = standings_rows(load_progress(game))
    assert [(row.name, row.totals.total, row.is_current) for row in rows] == [
        ("Ann", 12, False),
        ("Bob", 0, True),
    ]


def test_the_bonus_is_blank_until_it_is_decided(game):
    sixes = [(Box.SIXES, (6, 6, 6, 6, 6)), (Box.CHANCE, (1, 2, 3, 4, 6))]
    play(game, sixes)
    ann, bob = standings_rows(load_progress(game))
    assert not ann.bonus_shown and not bob.bonus_shown
    play(game, [(Box.FIVES, (5, 5, 5, 5, 5)), (Box.ONES, (1, 2, 3, 4, 6))])
    ann, bob = standings_rows(load_progress(game))
    assert not ann.bonus_shown  # 55: 63 is still within reach
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    ann, _ = standings_rows(load_progress(game))
    assert ann.bonus_shown and ann.totals.bonus == 35  # 63 reached


def test_a_triple_players_bonus_shows_once_a_card_earns_it(household):
    """Found by a new user: card ×2's bonus counted in the total, its column blank."""
    from scorecard.game import services
    from scorecard.models import Game

    game = services.game_create(owner=household, names=["Gus"], mode=Game.Mode.TRIPLE)
    uppers = [Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES]
    for turn, box in enumerate(uppers[:5], start=1):
        dice = (
            (box.upper_face,) * 3 + (1, 2) if box.upper_face > 2 else (box.upper_face,) * 3 + (3, 4)
        )
        services.record_box(game=game, version=turn - 1, turn=turn, box=box, card=2, dice=dice)
    (gus,) = standings_rows(load_progress(game))
    assert not gus.bonus_shown  # 45 on card ×2, its bonus still within reach
    services.record_box(game=game, version=5, turn=6, box=Box.SIXES, card=2, dice=(6, 6, 6, 1, 2))
    (gus,) = standings_rows(load_progress(game))
    assert gus.bonus_shown and gus.totals.bonus == 70  # 35 on card ×2
    assert gus.totals.upper + gus.totals.bonus + gus.totals.lower == gus.totals.total


def test_the_lower_column_is_the_lower_boxes_and_says_the_sheets_lower_total_adds_the_bonus(
    household,
):
    from scorecard.presenters.sheet import game_columns, sheet_rows
    from scorecard.presenters.standings import HEADINGS
    from tests.factories import GameFactory

    game = GameFactory(owner=household, names=["Ann"])
    play(game, [(Box.YAHTZEE, (5,) * 5), (Box.SIXES, (6,) * 5), (Box.CHANCE, (6, 6, 5, 5, 4))])
    (ann,) = standings_rows(progress := load_progress(game))
    assert (ann.totals.lower, ann.totals.yahtzee_bonus) == (50 + 26, 100)
    lower = HEADINGS[2]  # the column that shows totals.lower
    assert (lower.name, lower.short) == ("Lower boxes", "Low")
    assert "without the Yahtzee bonus" in lower.meaning and "Low + Yz+" in lower.meaning
    sheet_lower = next(row for row in sheet_rows(game_columns(progress)) if "Lower" in row.label)
    assert (sheet_lower.label, sheet_lower.hint) == ("Lower total", "Lower boxes + Yahtzee bonus")
    assert sheet_lower.cells[0].text == str(ann.totals.lower + ann.totals.yahtzee_bonus)


def test_every_column_is_named_and_explained_in_words():
    from scorecard.presenters.standings import HEADINGS

    assert [heading.short for heading in HEADINGS] == ["Up", "Bon", "Low", "Yz+", "Total", "Pace"]
    assert [heading.term for heading in HEADINGS] == [
        "Up (Upper boxes)",
        "Bon (Upper bonus)",
        "Low (Lower boxes)",
        "Yz+ (Yahtzee bonus)",
        "Total",
        "Pace (Bonus pace)",
    ]
    pace = HEADINGS[-1].meaning
    assert "3 of each face" in pace and "63" in pace and "ahead" in pace and "behind" in pace


def test_pace_reads_ahead_with_a_plus_behind_with_a_minus_and_on_it_as_0(game):
    ann, bob = standings_rows(load_progress(game))
    assert (ann.pace, bob.pace) == ("0", "0")
    play(game, [(Box.FIVES, (5, 5, 5, 5, 1)), (Box.SIXES, (6, 6, 1, 2, 3))])
    ann, bob = standings_rows(load_progress(game))
    assert (ann.pace, bob.pace) == ("+5", "−6")  # a minus sign, not a hyphen


def test_a_row_carries_the_yahtzee_bonus_only_for_a_family_with_extra_yahtzees(household):
    from scorecard.engine.families import YATZY
    from scorecard.game import services

    yahtzee = services.game_create(owner=household, names=["Ann"])
    play(yahtzee, [(Box.YAHTZEE, (5,) * 5), (Box.FIVES, (5,) * 5)])
    (ann,) = standings_rows(load_progress(yahtzee))
    assert ann.yahtzee_bonus == ann.totals.yahtzee_bonus == 100
    yatzy = services.game_create(
        owner=household, names=["Ann"], house=services.HouseSettings(YATZY.key)
    )
    (ann,) = standings_rows(load_progress(yatzy))
    assert ann.yahtzee_bonus is None


def test_a_finished_game_has_no_bonus_pace_to_show(household):
    from scorecard.presenters.standings import headings
    from tests.factories import SOLO_GAME, GameFactory

    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME)
    progress = load_progress(game)
    (ann,) = standings_rows(progress)
    assert progress.is_finished and ann.pace is None
    shorts = [heading.short for heading in headings(game.house_rules, True)]
    assert shorts == ["Up", "Bon", "Low", "Yz+", "Total"]
