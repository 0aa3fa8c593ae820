"""Words translated once a language (`presenters.per_language`): each language gets its own,
and a change of catalogs is never answered from the memo."""

from django.test import override_settings
from django.utils import translation
from django.utils.translation import gettext

from scorecard.engine import families
from scorecard.presenters.box_names import box_name
from scorecard.presenters.per_language import per_language

asked: list[str] = []


@per_language
def _word(message: str) -> str:
    asked.append(message)
    return gettext(message)


def test_a_word_is_translated_once_in_each_language_and_said_in_that_language():
    asked.clear()
    with translation.override("sv"):
        swedish = [_word("Standings"), _word("Standings")]
    with translation.override("de"):
        german = _word("Standings")
    with translation.override("sv"):
        swedish.append(_word("Standings"))
    assert swedish == ["Ställning"] * 3
    assert german != "Ställning"
    assert asked == ["Standings", "Standings"]  # once for Swedish, once for German


def test_new_catalogs_are_not_answered_from_the_memo(tmp_path):
    asked.clear()
    with translation.override("sv"):
        _word("Standings")
        with override_settings(LOCALE_PATHS=[tmp_path]), translation.override("sv"):
            _word("Standings")
    assert asked == ["Standings", "Standings"]


def test_a_box_keeps_its_name_in_each_language_and_family():
    yatzy_pair = families.YATZY.boxes[6]
    chance = families.YATZY.boxes[-2]
    with translation.override("sv"):
        assert [box_name(yatzy_pair), box_name(yatzy_pair)] == ["Ett par", "Ett par"]
        assert box_name(chance) == "Chans"
    with translation.override("de"):
        assert box_name(chance) == "Chance"
    with translation.override("en"):
        assert box_name(yatzy_pair) == "One pair"
