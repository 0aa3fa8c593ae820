"""Each role's addresses of a game, made from patterns reversed once per process."""

import pytest
from django.urls import reverse

from scorecard.access.links import GameLinks, Role


def test_each_role_has_exactly_its_own_addresses():
    owner, scorer, watcher = (GameLinks("k" * 22, role) for role in Role)
    assert owner.page == reverse("game", args=["k" * 22])
    assert owner.share == reverse("game-share", args=["k" * 22])
    assert scorer.record == reverse("score-record", args=["k" * 22])
    assert watcher.sheet == reverse("watch-sheet", args=["k" * 22])
    for missing in ("record", "roll", "undo", "share"):
        with pytest.raises(AttributeError):
            getattr(watcher, missing)
    with pytest.raises(AttributeError):
        _ = scorer.rematch


@pytest.mark.parametrize("turn", [1, 9, 10, 104])
def test_a_correction_address_is_the_reversed_one_for_any_turn(turn):
    assert GameLinks("abc", Role.SCORER).correct(turn) == reverse(
        "score-correct", args=["abc", turn]
    )
    assert GameLinks("abc").correct(turn) == reverse("game-correct", args=["abc", turn])
