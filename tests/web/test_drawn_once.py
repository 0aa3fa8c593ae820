"""A score sheet's rows are drawn once for what they show and kept in the worker: the next
version's grid redraws only the row an entry changed, and is byte for byte the grid a
worker that kept nothing would draw."""

import re

from django.template import engines

from scorecard.engine.rules import Box
from scorecard.web import drawn_once
from tests.factories import play
from tests.helpers import browser_of, game_url, post_box


def regions(page) -> tuple[str, str]:
    """The grid and the standings of a game page, as sent."""
    sections = r'<section id="(?:boxes|standings)".*?</section>'
    found = re.findall(sections, page.content.decode(), re.S)
    assert len(found) == 2, "no grid or no standings on the page"
    return found[0], found[1]


def template(source: str):
    """A Jinja2 template of the site's environment, drawn from a dict of values."""
    return engines["jinja2"].env.from_string(source)


def drawn_afresh(client, game) -> tuple[str, str]:
    """The game's regions drawn by a worker that kept nothing: no rows, no cached region."""
    from django.core.cache import cache

    cache.clear()
    drawn_once.forget()
    return regions(client.get(game_url(game)))


def test_after_an_entry_the_changed_rows_are_redrawn_and_match_a_fresh_drawing(game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    owner = browser_of(game.owner)
    before = regions(owner.get(game_url(game)))
    post_box(owner, game, Box.CHANCE, (6, 6, 5, 5, 4))
    after = regions(owner.get(game_url(game)))
    standings, grid = after if "standings" in after[0][:30] else after[::-1]
    assert ">26<" in grid and ">26<" in standings  # the second player's Chance
    assert after != before
    assert after == drawn_afresh(owner, game)


def test_a_row_is_kept_for_its_values_and_language_and_drawn_again_for_others(monkeypatch):
    drawing = template("{% drawn_once key %}{{ shown }}{% enddrawn_once %}")

    def draw(key: str, shown: str, language: str = "en") -> str:
        monkeypatch.setattr(drawn_once, "get_language", lambda: language)
        return drawing.render({"key": key, "shown": shown})

    assert draw("a", "first") == "first"
    assert draw("a", "second") == "first"  # the values named are the same: kept
    assert draw("b", "second") == "second"
    assert draw("a", "third", language="sv") == "third"


def test_a_list_counts_by_its_items():
    drawing = template("{% drawn_once cells %}{{ shown }}{% enddrawn_once %}")
    assert drawing.render({"cells": [1, 2], "shown": "one"}) == "one"
    assert drawing.render({"cells": [1, 2], "shown": "two"}) == "one"
    assert drawing.render({"cells": [1, 3], "shown": "two"}) == "two"


def test_only_the_most_recently_used_drawings_are_kept(monkeypatch):
    monkeypatch.setattr(drawn_once, "KEPT", 2)
    drawing = template("{% drawn_once key %}{{ key }} {{ shown }}{% enddrawn_once %}")
    for key in ("a", "b", "a", "c"):
        drawing.render({"key": key, "shown": "first"})
    assert drawing.render({"key": "a", "shown": "again"}) == "a first"  # kept
    assert drawing.render({"key": "b", "shown": "again"}) == "b again"  # dropped: drawn again


def test_new_catalogs_draw_afresh(tmp_path):
    """A drawing holds translated words, so catalogs swapped (a test's LOCALE_PATHS) must
    never be answered with words drawn from the old ones."""
    from django.test import override_settings

    drawing = template("{% drawn_once key %}{{ shown }}{% enddrawn_once %}")
    assert drawing.render({"key": "a", "shown": "old words"}) == "old words"
    with override_settings(LOCALE_PATHS=[tmp_path]):
        assert drawing.render({"key": "a", "shown": "new words"}) == "new words"


def test_the_pages_fixed_parts_follow_the_phone_s_language(game):
    """The header, the language switch, the pad and the advice switch are drawn once a
    language: a Swedish phone and an English one, one after the other, each get their own."""
    owner = browser_of(game.owner)
    for language, words in [("sv", "Nytt spel"), ("en", "New game"), ("sv", "Nytt spel")]:
        page = owner.get(game_url(game), headers={"Accept-Language": language}).content.decode()
        assert f">{words}</a>" in page
        assert page.count("<footer><details") == 1
        name = {"sv": "Språk: Svenska · Language", "en": "Language: English"}[language]
        assert f"<summary>{name}</summary>" in page


def test_a_page_reads_its_language_and_zone_once_for_every_drawing_it_keeps(game, monkeypatch):
    """The page's language and time zone are read when its drawing begins (`jinja_backend`),
    not at each of its tags: a context-local lookup each, about 20 in a record's answer."""
    asked = []
    monkeypatch.setattr(drawn_once, "get_language", lambda: asked.append("tag") or "en")
    monkeypatch.setattr(
        drawn_once, "get_current_timezone_name", lambda: asked.append("zone") or "UTC"
    )
    drawn_once.forget()
    phone = browser_of(game.owner)
    phone.cookies["tz"] = "Europe/Oslo"
    page = phone.get(game_url(game), headers={"Accept-Language": "sv"})
    assert ">Nytt spel</a>" in page.content.decode()
    assert asked == []
    kept = [key for tag in drawn_once._EXTENSIONS for keys in tag.drawings for key in keys]
    assert len(kept) > 10 and {key[0] for key in kept} == {("sv", "Europe/Oslo")}


def test_a_page_after_an_entry_draws_only_the_rows_and_headings_that_changed(game, monkeypatch):
    """The first phone to open a new version draws the grid: only the rows the entry changed
    are drawn (each whole: a cell drawn in place costs less than finding it kept), and a
    column's heading is the one drawn at the same point of an earlier round."""
    from scorecard.game.progress import load_progress
    from scorecard.presenters import sheet

    owner = browser_of(game.owner)
    turns = [(Box.ONES, (1, 1, 2, 3, 4)), (Box.ONES, (1, 2, 3, 4, 6)), (Box.TWOS, (2, 2, 1, 3, 4))]
    for box, dice in turns:  # a round and more: each heading drawn as current and not
        post_box(owner, game, box, dice)
        owner.get(game_url(game))
    drawn = {"cells": 0, "headings": 0}

    def counted(kind, real):
        return property(lambda self: drawn.__setitem__(kind, drawn[kind] + 1) or real.__get__(self))

    monkeypatch.setattr(sheet.Cell, "text", counted("cells", sheet.Cell.text))
    monkeypatch.setattr(sheet.Column, "card_of", counted("headings", sheet.Column.card_of))
    post_box(owner, game, Box.TWOS, (2, 2, 2, 5, 6))  # Bob's Twos: his cells move, Ann's not
    progress = load_progress(game)
    changed = sheet.changed_rows(progress, progress.entries[-1], None).rows
    assert len(changed) == 4  # his Twos, and the three upper sums that moved
    drawn.update(cells=0, headings=0)
    page = owner.get(game_url(game))
    assert drawn == {"cells": len(changed) * 2, "headings": 0}  # the rows' cells, two players
    assert regions(page) == drawn_afresh(owner, game)


def test_new_addresses_draw_afresh(settings):
    """A drawing holds addresses (`static()`, `url()`): a new static URL (a test's
    settings) must never be answered with addresses drawn before it."""
    drawing = template("{% drawn_once 'head' %}{{ static('css/app.css') }}{% enddrawn_once %}")
    assert drawing.render().startswith("/static/")
    settings.STATIC_URL = "/elsewhere/"
    assert drawing.render().startswith("/elsewhere/")


def test_a_game_page_after_an_entry_translates_none_of_its_fixed_words_afresh(game, monkeypatch):
    """The first phone to open a new version draws the page: the words that are the same on
    every game page in a language (the outbox's, the notices', the grid's headings, the pad's,
    the links under the turn, the game's title and house rules) come drawn or said, not
    looked up in the catalog again."""
    from django.utils import translation

    owner = browser_of(game.owner)
    post_box(owner, game, Box.ONES, (1, 1, 2, 3, 4))
    owner.get(game_url(game))
    fixed = {
        "Sending…",
        "Don’t send it",
        "Reconnecting: the card catches up once the connection is back.",
        "Keep the screen on",
        "Everyone’s boxes",
        "Tap a filled box to correct it.",
        "Show",
        "Printable sheet",
        "What the columns mean",
        "extra Yahtzees: %(rule)s",
        "Undo last entry",
        "Type the points",
        "Score sheet",
        "Advice: %(choice)s",
        "Choose the advice",
        "Language: %(language)s",
        "Choose a language",
    }
    looked_up = []
    real = translation._trans.gettext

    def gettext(message):
        looked_up.append(str(message))
        return real(message)

    monkeypatch.setattr(translation._trans, "gettext", gettext)
    post_box(owner, game, Box.ONES, (1, 2, 3, 4, 6))
    page = owner.get(game_url(game)).content.decode()
    shown = {"extra Yahtzees: %(rule)s": "extra Yahtzees", "Advice: %(choice)s": "Advice: Off"}
    shown |= {"Language: %(language)s": "Language: English"}
    assert all(shown.get(words, words) in page for words in fixed)
    assert fixed.isdisjoint(looked_up)
    assert "Triple Yahtzee" not in looked_up  # nor the other modes' names, to find its own


def test_a_game_page_after_an_entry_works_out_no_fixed_address_afresh(game, monkeypatch):
    """The static files' and the fixed pages' addresses on a game page (its styles and
    scripts, the head's, the language switch's) are the same on every page: the first phone
    to open a new version finds them drawn."""
    owner = browser_of(game.owner)
    post_box(owner, game, Box.ONES, (1, 1, 2, 3, 4))
    owner.get(game_url(game))
    worked_out = []
    environment = engines["jinja2"].env
    for name in ("static", "url"):

        def counted(*args, real=environment.globals[name], **kwargs):
            worked_out.append(args)
            return real(*args, **kwargs)

        monkeypatch.setitem(environment.globals, name, counted)
    post_box(owner, game, Box.ONES, (1, 2, 3, 4, 6))
    page = owner.get(game_url(game)).content.decode()
    assert "/static/" in page and 'hx-get="/language/"' in page
    assert worked_out == []
