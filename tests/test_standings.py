"""The standings table: totals, whose turn it is, and a bonus shown once it is decided."""

from scorecard.progress import load_progress
from scorecard.rules import Box
from scorecard.standings import standings_rows
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
    assert not ann.bonus_settled and not bob.bonus_settled
    play(game, [(Box.FIVES, (5, 5, 5, 5, 5)), (Box.ONES, (1, 2, 3, 4, 6))])
    ann, bob = standings_rows(load_progress(game))
    assert not ann.bonus_settled  # 55: 63 is still within reach
    play(game, [(Box.FOURS, (4, 4, 1, 2, 3))])
    ann, _ = standings_rows(load_progress(game))
    assert ann.bonus_settled and ann.totals.bonus == 35  # 63 reached
