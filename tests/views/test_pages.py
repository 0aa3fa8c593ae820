"""The blank sheet, a game's own sheet and the rules page."""

import re
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from scorecard.engine import rules
from scorecard.engine.rules import Box
from scorecard.presenters import rules_content
from tests.factories import GameFactory, play, play_on
from tests.helpers import text


def test_the_blank_sheet_has_every_row_in_card_order(db):
    page = text(Client().get(reverse("sheet")))
    labels = re.findall(r'<th scope="row">([^<]+)</th>', page)
    assert labels == [
        "Player", "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Upper subtotal",
        "Bonus", "Upper total", "3 of a kind", "4 of a kind", "Full house", "Small straight",
        "Large straight", "Yahtzee", "Chance", "Yahtzee bonus", "Lower total", "Grand total",
    ]  # fmt: skip
    assert page.count(UNNAMED) == 6  # six score columns by default, named for screen readers
    hints = ("Sum of the 1s", "25", "30", "40", "50", "Sum of all dice", "100 each extra Yahtzee")
    for hint in hints:
        assert f'<td class="hint">{hint}</td>' in page
    assert reverse("rules") in page


UNNAMED = '<th scope="col" class="blank"><span class="visually-hidden">Player</span></th>'


def test_the_blank_sheet_takes_columns_names_and_triple(db):
    page = text(Client().get(reverse("sheet"), {"columns": "8"}))
    assert page.count(UNNAMED) == 8
    page = text(Client().get(reverse("sheet"), {"columns": "2", "name": ["Ann", "Bob"]}))
    assert '<th scope="col">Ann</th><th scope="col">Bob</th>' in page
    page = text(Client().get(reverse("sheet"), {"columns": "1", "name": "Ann", "triple": "1"}))
    cards = re.findall(r'<th scope="col">(.*?)</th>', page)
    assert cards == [f'<span class="visually-hidden">Ann </span>×{n}' for n in (1, 2, 3)]
    assert "Counts as" in page and "Player total" in page
    assert '<th scope="colgroup" colspan="3">Ann</th>' in page
    # Printed, its heading says it is a Triple sheet (a tester: "Yahtzee score sheet").
    assert re.search(
        r'<h1>Yahtzee score sheet <small class="sheet-when">Triple Yahtzee</small></h1>', page
    )
    page = text(Client().get(reverse("sheet"), {"columns": "2", "triple": "1"}))
    assert page.count('<span class="visually-hidden">Player 2</span>') == 1  # a row for names


@pytest.mark.parametrize("columns", ["0", "9", "abc", "-1"])
def test_a_bad_column_count_gets_a_message(db, columns):
    response = Client().get(reverse("sheet"), {"columns": columns})
    assert response.status_code == 400
    assert "Columns must be a whole number from 1 to 8." in text(response)


def test_a_game_sheet_shows_the_points_and_totals(client_of, game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2)), (Box.YAHTZEE, (2,) * 5)])
    page = text(client_of.get(reverse("game-sheet", args=[game.public_id])))
    assert re.search(r'<th scope="col"[^>]*>Ann</th><th scope="col"[^>]*>Bob</th>', page)
    assert re.search(
        r'Fours</th><td class="hint">[^<]*</td>\s*<td[^>]*>12</td><td[^>]*></td>', page
    )
    assert re.search(
        r'Grand total</th><td class="hint">[^<]*</td>\s*<td[^>]*>12</td><td[^>]*>50</td>', page
    )


def test_a_game_sheet_says_whether_it_is_kept_current_or_final(client_of, game):
    """A new user read "Kept current while the game goes on; the game is over." on a
    finished game's sheet, and printed it: a finished sheet says its scores are final, a
    sheet of a game going on says it is kept current, on the screen only."""
    url = reverse("game-sheet", args=[game.public_id])
    going = text(client_of.get(url))
    assert '<p class="hint no-print">Kept current while the game goes on.</p>' in going
    play_on(game)
    finished = text(client_of.get(url))
    assert "The game is over: these are its final scores." in finished
    assert "Kept current" not in finished


def test_the_game_sheet_polls_cheaply_and_updates_when_the_game_moves(
    client_of, game, django_assert_max_num_queries
):
    url = reverse("game-sheet", args=[game.public_id])
    poll = {"HX-Request": "true", "If-None-Match": '"0"'}
    with django_assert_max_num_queries(1):
        unchanged = client_of.get(url, {"live": "1"}, headers=poll)
    assert unchanged.status_code == 304 and unchanged.content == b""
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    changed = client_of.get(url, {"live": "1"}, headers=poll)
    page = text(changed)
    assert changed.status_code == 200 and page.lstrip().startswith('<div id="sheet-body"')
    assert (
        'data-version="1"' in page
        and '<tr id="r3" class="box"><th scope="row">Fours</th>'
        '<td class="hint">Sum of the 4s</td><td>12</td>'
        in page
    )
    assert changed.headers["ETag"] == '"1"'


def test_another_households_game_sheet_is_not_found(game):
    assert Client().get(reverse("game-sheet", args=[game.public_id])).status_code == 404


def test_the_rules_page_shows_the_exact_odds(db):
    page = text(Client().get(reverse("rules")))
    assert "347,897/7,558,272" in page and "4.60%" in page and "one turn in 22" in page


def test_every_example_on_the_rules_page_is_scored_by_the_engine(db):
    page = text(Client().get(reverse("rules")))
    rows = re.findall(
        r'<tr><th scope="row">([^<]+)</th><td>[^<]+</td><td class="roll-cell">([1-6 ]+)</td>'
        r"<td>(\d+)</td></tr>",
        page,
    )
    assert len(rows) == len(rules_content.EXAMPLES)
    labels = {box.label: box for box in Box}
    for label, dice, points in rows:
        assert rules.score(labels[label], [int(d) for d in dice.split()]) == int(points)
    for dispute in rules_content.DISPUTES:
        for box, points in dispute.scores:
            assert f"{box.label}: {points}" in page


def test_the_worked_example_is_the_engines(db):
    worked = rules_content.WORKED
    assert worked.best == (Box.LARGE_STRAIGHT, 40) and worked.turn_total == 140
    page = text(Client().get(reverse("rules")))
    assert "Large straight for 40, plus the 100 bonus: 140 points" in page


def test_rules_page_numbers_come_from_the_engine_when_it_is_built(db, monkeypatch):
    monkeypatch.setattr(rules, "maximum_score", lambda: 9876)
    monkeypatch.setattr(rules, "UPPER_BONUS", 77)
    monkeypatch.setattr(rules_content, "yahtzee_odds", lambda: Fraction(1, 3))
    page = text(Client().get(reverse("rules")))
    assert "9,876:" in page and "1,575" not in page
    assert "adds 77" in page
    assert "1/3" in page and "33.33%" in page


def test_the_rules_page_states_the_facts(db):
    page = text(Client().get(reverse("rules")))
    assert "3 + 6 + 9 + 12 + 15 + 18 = 63" in page
    assert "1,575: five alike in every upper box (140 with the bonus)" in page
    assert "the top value in every lower box (235), and 12 extra Yahtzees" in page
    assert "13 per player" in page and "17.5 on average" in page
    for rule in rules.JokerRule:
        assert rule.summary in page.replace("&#x27;", "'")


def test_the_rules_page_explains_the_variants_scratching_and_a_good_score(
    db, policy_tables, monkeypatch
):
    with monkeypatch.context() as server_without_tables:
        server_without_tables.setattr(policy_tables, "is_ready", lambda joker: False)
        page = text(Client().get(reverse("rules")))
    assert "Triple Yahtzee" in page and "×1, ×2, ×3" in page and "39 turns each" in page
    assert "Challenge Yahtzee" in page and "<em>scratching</em>" in page
    assert "Once this server has built its strategy tables" in page
    page = text(Client().get(reverse("rules")))
    figures = policy_tables.figures(rules.JokerRule.HASBRO)
    assert f"<strong>{figures.mean:.1f}</strong> under the standard rule" in page
    assert f"give or take <strong>{figures.sd:.1f}</strong>" in page
    assert f"upper bonus in {figures.bonus_chance:.1%} of games" in page
    assert f"at least one Yahtzee in {figures.yahtzee_chance:.1%}" in page
    at = {share: round(score) for share, score in figures.percentiles.items()}
    assert (
        f"half under <strong>{at[50]}</strong>" in page
        and f"above <strong>{at[90]}</strong>" in page
    )


def test_the_sheet_footnote_says_where_an_extra_yahtzee_goes_last(db):
    page = text(Client().get(reverse("sheet")))
    assert "else any lower box at full value, else a 0 in an open upper box." in page


def test_a_web_app_manifest_makes_the_card_installable(db):
    response = Client().get(reverse("web-manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"]
    assert manifest["background_color"]
    assert "description" not in manifest  # shown by no install dialog we can have (first load)
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    from django.contrib.staticfiles import finders

    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]
    page = Client().get(reverse("rules")).content.decode()
    assert f'<link rel="manifest" href="{reverse("web-manifest")}">' in page
    # The installed card's colour is the manifest's; a page carries none (first load).
    assert '<meta name="theme-color"' not in page


def test_ios_finds_the_home_screen_icon_where_it_looks_when_a_page_names_none(db):
    from django.contrib.staticfiles import finders

    page = Client().get(reverse("rules")).content.decode()
    assert "apple-touch-icon" not in page
    response = Client().get("/apple-touch-icon.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    with open(finders.find("icons/icon-192.png"), "rb") as icon:
        assert response.content == icon.read()


def test_a_blank_yatzy_sheet_has_the_yatzy_boxes_and_no_yahtzee_extras(db):
    page = text(Client().get(reverse("sheet"), {"game": "yatzy"}))
    labels = re.findall(r'<th scope="row">([^<]+)</th>', page)
    assert labels == [
        "Player", "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Upper subtotal",
        "Bonus", "Upper total", "One pair", "Two pairs", "Three of a kind", "Four of a kind",
        "Small straight", "Large straight", "Full house", "Chance", "Yatzy", "Lower total",
        "Grand total",
    ]  # fmt: skip
    for hint in ("50 at 63+", "1 2 3 4 5: 15", "2 3 4 5 6: 20", "Three + two, all dice"):
        assert f'<td class="hint">{hint}</td>' in page
    assert "<h1>Yatzy score sheet</h1>" in page
    # The Triple choice is in the form, hidden while Yatzy is chosen (pages.css).
    assert 'value="yatzy" data-no-triple checked' in page
    page = re.sub(r'<label class="choice triple-choice">.*?</label>', "", page)
    assert "Yahtzee" not in page.split("<main", 1)[1].replace('value="yahtzee"', "").replace(
        "> Yahtzee</label>", ""
    )
    assert "Triple" not in page and "joker" not in page.lower()


def test_a_blank_maxi_sheet_has_twenty_boxes_and_its_own_bonus(db):
    page = text(Client().get(reverse("sheet"), {"game": "maxi", "triple": "1"}))
    labels = re.findall(r'<th scope="row">([^<]+)</th>', page)
    assert labels[labels.index("Upper total") + 1 :] == [
        "One pair", "Two pairs", "Three pairs", "Three of a kind", "Four of a kind",
        "Five of a kind", "Small straight", "Large straight", "Full straight", "Full house",
        "Villa", "Tower", "Chance", "Maxi Yatzy", "Lower total", "Grand total",
    ]  # fmt: skip
    assert '<td class="hint">100 at 84+</td>' in page
    assert '<td class="hint">1 to 6: 21</td>' in page
    assert "Upper bonus: 100 for 84 or more" in page
    assert "Counts as" not in page  # Triple cards are a Yahtzee game only


def test_an_unknown_game_on_the_sheet_gets_a_message(db):
    response = Client().get(reverse("sheet"), {"game": "poker"})
    assert response.status_code == 400
    assert "Pick Yahtzee, Yatzy or Maxi Yatzy for the sheet." in text(response)


def test_the_rules_page_has_a_section_for_yatzy_and_maxi_with_the_engines_odds(db):
    from scorecard.engine import families, odds

    page = text(Client().get(reverse("rules")))
    yahtzee, yatzy = page.split('<section id="yatzy"', 1)
    yatzy, maxi = yatzy.split('<section id="maxi"', 1)
    maxi, in_order = maxi.split('<section id="in-order"', 1)
    five, six = odds.all_alike_in_one_turn(5), odds.all_alike_in_one_turn(6)
    assert five == odds.yahtzee_in_one_turn()
    assert f"{five.numerator:,}/{five.denominator:,}" in yatzy and "4.60%" in yatzy
    assert f"{six.numerator:,}/{six.denominator:,}" in maxi and f"{float(six):.2%}" in maxi
    assert "adds <strong>50</strong>" in yatzy and "adds <strong>100</strong>" in maxi
    for example in rules_content.YATZY_EXAMPLES + rules_content.MAXI_EXAMPLES:
        scored = example.house.score(example.box, example.dice)
        row = f'<th scope="row">{example.box.label}</th><td>{example.how}</td>'
        assert f'{row}<td class="roll-cell">{example.shown}</td><td>{scored}</td>' in page
    for switch in families.YATZY.switches:
        assert switch.label in yatzy
    assert "1 5 5 5 5</strong> in Two pairs: 0 by the plain rules, 20" in yatzy
    assert families.Switch.SAVED_ROLLS.label in maxi and "Advice is not offered" in maxi
    for yahtzee_only in ("joker", "Joker", "Triple", "Challenge", "extra Yahtzee"):
        assert yahtzee_only not in yatzy + maxi + in_order
    assert "Fill the boxes in order" in in_order
    assert 'href="/sheet/?game=yatzy"' in yatzy and 'href="/sheet/?game=maxi"' in maxi


def test_six_dice_all_alike_in_a_turn_is_counted_exactly():
    from scorecard.engine import odds

    # One roll: 6 of the 6^6 ordered rolls are six alike.
    assert odds.all_alike_in_one_turn(6, rolls=1) == Fraction(6, 6**6)
    assert odds.all_alike_in_one_turn(6) == Fraction(33391127, 1632586752)


def test_the_rules_page_writes_its_numbers_as_each_language_does(db):
    """The engine's odds and averages with the language's decimal comma and percent sign;
    the fractions' digits grouped as the language groups them, the dice as they are."""
    page = Client().get(reverse("rules"), headers={"Accept-Language": "sv"})
    assert "4,60\u00a0%" in page.content.decode()  # a space that never breaks the line
    swedish = text(page)
    assert "347 897/7 558 272</strong>, ungefär 4,60 %" in swedish  # spaces never broken
    assert "i snitt 17,5" in swedish and "Kåk" in swedish
    german = text(Client().get(reverse("rules"), headers={"Accept-Language": "de"}))
    assert "etwa 4,60 %" in german and "im Mittel 17,5" in german
    assert "Kniffel" in german and "4.60" not in german
    english = text(Client().get(reverse("rules"), headers={"Accept-Language": "en"}))
    assert "about 4.60% or one turn in 22" in english


def test_a_game_sheet_says_the_house_rules_its_scores_were_counted_by(client_of, household):
    """Found by a new user: a Yatzy game's printed sheet said nothing of its switches (a
    full house of five alike looked wrong on paper) nor of forced order."""
    from scorecard.engine import families
    from scorecard.game import services
    from scorecard.models import Game

    switches = frozenset(families.YATZY.switches)
    house = services.HouseSettings(families.YATZY.key, switches, forced=True)
    yatzy = services.game_create(owner=household, names=["Anna"], house=house)
    page = text(client_of.get(reverse("game-sheet", args=[yatzy.public_id])))
    notes = re.search(r"This game’s house rules: ([^<]*)\.</p>", page)
    assert notes and "boxes filled in order" in notes.group(1)
    assert notes.group(1).count(";") == len(switches)  # each switch, then the order
    standard = GameFactory(owner=household, names=["Ann"])
    page = text(client_of.get(reverse("game-sheet", args=[standard.public_id])))
    assert "house rules:" not in page and "else a 0 in an open upper box" in page
    any_lower = GameFactory(owner=household, names=["Ann"], joker=rules.JokerRule.ANY_LOWER)
    page = text(client_of.get(reverse("game-sheet", args=[any_lower.public_id])))
    assert "This game’s house rules: extra Yahtzees: " in page
    assert "else a 0 in an open upper box" not in page  # Hasbro's order is not this game's
    assert "100 each, only with 50" in page
    # Found by a new user: without extra Yahtzees, the sheet still promised 100 for each.
    none = GameFactory(owner=household, names=["Ann"], joker=rules.JokerRule.NONE)
    page = text(client_of.get(reverse("game-sheet", args=[none.public_id])))
    assert "This game gives no bonus for an extra Yahtzee" in page
    assert "100 each" not in page and "each extra Yahtzee" not in page
    assert "none under this game’s rule" in page
    # Its rule said once, not "extra Yahtzees: No extra Yahtzees" (a helper printing sheets).
    assert "This game’s house rules: no extra-Yahtzee bonus or joker." in page
    assert Game.objects.count() == 4


def test_the_rules_page_says_what_the_card_takes_and_names_maxis_straights(db):
    """Found by a first-time reader: "any number can play" beside a form of one to eight
    players, and Maxi Yatzy's large straight called a "short" one."""
    page = text(Client().get(reverse("rules")))
    assert "Any number can play, one included; this score card keeps up to eight." in page
    assert "the small and large straights (five dice in a row), score as in Yatzy." in page
    assert "short straights" not in page


def test_the_rules_page_says_what_a_joker_is_where_it_first_uses_the_word(db):
    """Found by a tester: "only as a joker (below)" and "no joker" with the word never
    said; the section below names the joker rule and what a joker does."""
    page = text(Client().get(reverse("rules")))
    assert "only as a joker (below)" in page
    section = page[page.index('id="extra"') :]
    assert "The box: the joker rule." in section
    assert "the five alike are a joker: any lower box takes them at its full value" in section


def test_a_games_sheet_says_how_to_print_it_where_no_script_shows_print(client_of, game):
    """A tester without scripts: a game's sheet had no Print button and no word of how."""
    page = text(client_of.get(reverse("game-sheet", args=[game.public_id])))
    hint = "Print it from your browser’s menu: it fits one page of A4 or US Letter."
    assert f'<noscript><p class="hint no-print">{hint}</p></noscript>' in page
