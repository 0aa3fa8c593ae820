"""Past games: the list, the review, player pages and high scores."""

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.models import Game, Household, Player, Roll, Seat
from scorecard.presenters import review
from tests.factories import (
    SOLO_GAME,
    GameFactory,
    HouseholdFactory,
    bulk_finished_games,
    card_total,
    play,
    play_on,
)
from tests.helpers import HTMX, browser_of, finished_game, settled_family_game, text


def test_games_in_progress_come_first_then_the_newest(client_of, household):
    old = finished_game(household)
    new = finished_game(household)
    going = GameFactory(owner=household, names=["Cy"])
    page = text(client_of.get(reverse("games")))
    order = [page.index(g.public_id) for g in (going, new, old)]
    assert order == sorted(order)
    assert "in progress, round 1 of 13" in page
    assert f"Ann</a> {card_total(SOLO_GAME)}" in page


def test_a_browser_in_no_household_is_told_where_its_games_are(client, client_of):
    """A phone that only scored by a shared link found "No games yet" and no way on."""
    stranger = text(client.get(reverse("games")))
    assert "No games on this browser yet." in stranger and "open its join link" in stranger
    assert "No games yet." in text(client_of.get(reverse("games")))  # a household of its own


def test_a_filter_that_matches_no_game_says_so_not_that_there_are_none(client_of, household):
    """A household with games, filtered to a kind it never played: "No games yet. Start one"
    was wrong there (found by a new user)."""
    finished_game(household, names=("Ann",))
    page = text(client_of.get(reverse("games"), {"mode": "maxi"}))
    assert "No game matches this choice of player and mode." in page
    assert "No games yet" not in page and 'href="/games/">Show every game' in page
    fragment = text(client_of.get(reverse("games"), {"mode": "maxi"}, headers=HTMX))
    assert "No game matches" in fragment
    empty = text(browser_of(HouseholdFactory()).get(reverse("games")))
    assert "No games yet" in empty and "No game matches" not in empty


def test_games_can_be_filtered_by_player_and_mode(client_of, household):
    anns = finished_game(household, names=("Ann",))
    triple = GameFactory(owner=household, names=["Bob"], mode=Game.Mode.TRIPLE)
    bob = Player.objects.get(name="Bob")
    page = text(client_of.get(reverse("games"), {"player": bob.public_id}))
    assert triple.public_id in page and anns.public_id not in page
    page = text(client_of.get(reverse("games"), {"mode": "standard"}))
    assert triple.public_id not in page
    yatzy = GameFactory(owner=household, names=["Cy"], house=services.HouseSettings("yatzy"))
    page = text(client_of.get(reverse("games"), {"mode": "standard"}))
    assert anns.public_id in page and yatzy.public_id not in page  # Yahtzee's standard mode
    page = text(client_of.get(reverse("games"), {"mode": "yatzy"}))
    assert yatzy.public_id in page and anns.public_id not in page
    assert '<option value="yatzy" selected>Yatzy</option>' in page
    assert '<option value="maxi">Maxi Yatzy</option>' in page
    fragment = text(
        client_of.get(reverse("games"), {"mode": "triple"}, headers={"HX-Request": "true"})
    )
    assert fragment.lstrip().startswith('<section id="games-table"')
    # The count found is said, not every game again (an accessibility tester).
    assert "aria-live" not in fragment and 'role="status">' in fragment and " found</p>" in fragment


def test_the_games_page_is_paginated(client_of, household):
    bulk_finished_games(household, ["Ann"], 45)
    page = text(client_of.get(reverse("games"), {"page": "3"}))
    assert "Page 3 of 3" in page and page.count('class="game-card"') == 5


def test_the_games_page_costs_the_same_queries_for_many_games(household, django_assert_num_queries):
    """The browser's household, the games counted, the games going (fewer than a page: all
    of them), a page of finished games, their seats, the players to filter by; and when a
    game going is new to the list or has changed since, its seats and entries."""
    client = browser_of(household)
    bulk_finished_games(household, ["Ann", "Bob"], 3)
    with django_assert_num_queries(6):
        assert client.get(reverse("games")).status_code == 200
    bulk_finished_games(household, ["Ann", "Bob"], 60, seed=1)
    with django_assert_num_queries(6):
        assert client.get(reverse("games")).status_code == 200
    play(GameFactory(owner=household, names=["Ann", "Bob"]), SOLO_GAME[:1])
    with django_assert_num_queries(8):
        assert client.get(reverse("games")).status_code == 200
    with django_assert_num_queries(6):  # the game going as the list last added it up
        assert client.get(reverse("games")).status_code == 200
    for _ in range(3):
        play(GameFactory(owner=household, names=["Ann", "Bob", "Cy"]), SOLO_GAME[:9])
    with django_assert_num_queries(8):
        assert client.get(reverse("games")).status_code == 200


def test_a_review_shows_the_card_every_turn_and_a_chart(client_of, household):
    game = finished_game(household)
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    assert "A tie: Ann and Bob" in page
    assert page.count("<tr> <td>") == 26
    assert "<svg" in page and "running total" in page
    assert f"Ann {card_total(SOLO_GAME)}</text>" in page


def test_the_review_of_a_game_with_no_box_filled_says_so(client_of, household, advised):
    """Found by a new user: a game just started showed a "Final card", an empty chart, a
    turns table of its header alone and, rated, "0.0 points lost in 0 decisions"."""
    game = services.game_create(owner=household, names=["Dora"], digital=True)
    url = reverse("game-review", args=[game.public_id])
    for page in (text(client_of.get(url)), text(client_of.get(url, {"advice": "1"}))):
        assert "The card so far" in page and "Final card" not in page
        assert "<svg" not in page and 'class="turns"' not in page and "Held dice" not in page
        assert page.count("No box is filled yet.") == 2
        assert "Nothing to rate yet" in page and "points lost" not in page
        assert "Rate every decision" not in page


def test_a_review_costs_the_same_queries_however_long_the_game(
    household, django_assert_max_num_queries
):
    client = browser_of(household)
    short = GameFactory(owner=household, names=["A"])
    play(short, SOLO_GAME[:1])
    long = finished_game(household, names=("A", "B", "C"))
    with django_assert_max_num_queries(6) as counted:
        assert client.get(reverse("game-review", args=[short.public_id])).status_code == 200
    with django_assert_max_num_queries(len(counted.captured_queries)):
        assert client.get(reverse("game-review", args=[long.public_id])).status_code == 200


def test_a_digital_review_shows_every_roll_and_hold(client_of, household):
    game = GameFactory(owner=household, names=["Dee"])
    Game.objects.filter(pk=game.pk).update(digital=True)
    game.refresh_from_db()

    services.roll_dice(game=game, version=0, turn=1)
    services.roll_dice(game=game, version=1, turn=1, hold=[0])
    services.record_box(game=game, version=2, turn=1, box=Box.CHANCE)
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    first, second = Roll.objects.order_by("number")
    assert 'title="roll 1"' in page and 'title="roll 2"' in page
    assert f'<span class="held">{second.dice[0]}</span>' in page


def test_another_households_review_is_not_found(household):
    game = finished_game(household)
    assert (
        browser_of(Household.objects.create())
        .get(reverse("game-review", args=[game.public_id]))
        .status_code
        == 404
    )


def test_a_player_who_only_plays_alone_is_not_shown_zero_wins(client_of, household):
    """ "Wins 0" after ten games alone read as ten losses (found by a new user)."""
    finished_game(household, names=("Ann",))
    ann = Player.objects.get(name="Ann")
    page = text(client_of.get(reverse("player", args=[ann.public_id])))
    assert "<dt>Wins</dt><dd>– <small>no game with others yet</small></dd>" in page
    finished_game(household, names=("Bob", "Ann"))  # a tie: both win
    page = text(client_of.get(reverse("player", args=[ann.public_id])))
    assert "<dt>Wins</dt><dd>1 <small>of 1 game with others</small></dd>" in page


def test_a_player_page_adds_up_the_engines_totals(client_of, household):
    finished_game(household, names=("Ann",))
    finished_game(household, names=("Ann", "Bob"))
    finished_game(household, names=("Cy", "Ann"))
    GameFactory(owner=household, names=["Ann"])  # unfinished: not counted
    ann = Player.objects.get(name="Ann")
    page = text(client_of.get(reverse("player", args=[ann.public_id])))
    total = card_total(SOLO_GAME)
    assert "<dt>Games finished</dt><dd>3</dd>" in page
    # The players list said "4 games": the one still going is said here, apart.
    assert "Not counted here yet: 1 game still being played." in page
    players = text(client_of.get(reverse("players")))
    assert re.search(r">Ann</a> <small>4 games</small>", players)
    assert f"<dt>Personal best</dt><dd>{total}</dd>" in page
    # Ties share the win; a game alone has no one to beat, so it is not one of the games.
    assert "<dt>Wins</dt><dd>2 <small>of 2 games with others</small></dd>" in page
    assert "<dt>Upper bonus earned</dt><dd>100% of cards</dd>" in page
    assert "<dt>Yahtzees scored (50)</dt><dd>3</dd>" in page
    assert "<svg" in page
    assert "Triple Yahtzee games count as played" not in page  # Ann played none
    play_on(GameFactory(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE))
    page = text(client_of.get(reverse("player", args=[ann.public_id])))
    assert "Triple Yahtzee games count as played" in page
    assert "<dt>Games finished</dt><dd>4</dd>" in page
    # Its cards are in the bonus rate but not in the box averages: said (found by a tester).
    assert "their boxes out of the averages per box." in page


# The household, the player, the figures, best and worst, the last ten, the box totals, the
# games still going.
PLAYER_PAGE_QUERIES = 7


def test_a_player_page_over_a_thousand_games_is_a_few_queries(household, django_assert_num_queries):
    games = bulk_finished_games(household, ["Ann", "Bob"], 1000)  # settled as they finished
    ann = Player.objects.get(name="Ann")
    client = browser_of(household)
    with django_assert_num_queries(PLAYER_PAGE_QUERIES):
        response = client.get(reverse("player", args=[ann.public_id]))
    assert response.status_code == 200
    page = text(response)
    assert "<dt>Games finished</dt><dd>1000</dd>" in page
    progress = load_progress(games[0])
    assert progress.is_finished and progress.seats[0].totals.total > 0


def test_no_history_page_settles_anything_however_many_finished_games_wait(household):
    """Games an upgrade or an older import left unsettled wait for `manage.py
    settle_results`: a page reads what is settled, in as many queries as ever, and writes
    nothing."""
    (game,) = bulk_finished_games(household, ["Ann", "Bob"], 1)
    GameFactory(owner=household, names=["Ann", "Bob"])  # the games list reads its entries
    ann = Player.objects.get(name="Ann")
    client = browser_of(household)
    urls = [reverse(name, args=args) for name, args in _history_pages(ann, game)]
    before = {url: _queries(client, url) for url in urls}
    bulk_finished_games(household, ["Ann", "Bob"], 300, seed=4, settle=False)
    after = {url: _queries(client, url) for url in urls}
    for url in urls:
        assert len(after[url]) == len(before[url]), url
        assert all(sql.startswith("SELECT") for sql in after[url]), url
    assert Seat.objects.filter(final_total=None, game__finished__isnull=False).count() == 600
    page = text(client.get(reverse("player", args=[ann.public_id])))
    assert "<dt>Games finished</dt><dd>1</dd>" in page


def _history_pages(player, game):
    return [
        ("player", [player.public_id]),
        ("players", []),
        ("high-scores", []),
        ("games", []),
        ("game-review", [game.public_id]),
    ]


def _queries(client, url) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200, url
    return [query["sql"] for query in captured.captured_queries]


def test_a_correction_to_a_finished_game_shows_on_the_player_page_at_once(client_of, household):
    game = finished_game(household, names=("Ann",))
    ann = Player.objects.get(name="Ann")
    page = reverse("player", args=[ann.public_id])
    assert f"<dt>Personal best</dt><dd>{card_total(SOLO_GAME)}</dd>" in text(client_of.get(page))
    chance = reverse("game-correct", args=[game.public_id, len(SOLO_GAME)])
    response = client_of.post(chance, {"version": game.version, "dice": "11223"})
    assert response.status_code == 302
    corrected = card_total(SOLO_GAME) - 26 + 9
    assert f"<dt>Personal best</dt><dd>{corrected}</dd>" in text(client_of.get(page))
    assert not Seat.objects.filter(final_total=None).exists()  # settled by the correction


def test_a_game_card_kept_for_the_list_follows_a_correction_and_the_phone_s_language(
    client_of, household
):
    """Each card of the games list is drawn once for what it shows: a correction (a new
    total) or another language draws it afresh, never the kept one."""
    game = finished_game(household, names=("Ann",))
    listed = reverse("games")
    assert f"Ann</a> {card_total(SOLO_GAME)}" in text(client_of.get(listed))
    chance = reverse("game-correct", args=[game.public_id, len(SOLO_GAME)])
    client_of.post(chance, {"version": game.version, "dice": "11223"})
    corrected = card_total(SOLO_GAME) - 26 + 9
    assert f"Ann</a> {corrected}" in text(client_of.get(listed))
    GameFactory(owner=household, names=["Cy"])  # a game going: its badge has words
    assert "in progress, round 1 of 13" in text(client_of.get(listed))
    swedish = text(client_of.get(listed, headers={"Accept-Language": "sv"}))
    assert "pågår, omgång 1 av 13" in swedish and "in progress" not in swedish


def test_a_strangers_player_page_is_not_found(household):
    finished_game(household)
    ann = Player.objects.get(name="Ann")
    assert (
        browser_of(Household.objects.create())
        .get(reverse("player", args=[ann.public_id]))
        .status_code
        == 404
    )


def test_high_scores_list_finished_digital_games(client_of, household):
    game = finished_game(household, names=("Dee",))
    Game.objects.filter(pk=game.pk).update(digital=True)
    page = text(client_of.get(reverse("high-scores")))
    assert f"Dee</a> <strong>{card_total(SOLO_GAME)}</strong>" in page


def test_the_players_page_lists_the_households_players(client_of, household):
    finished_game(household)
    page = text(client_of.get(reverse("players")))
    assert "Ann</a> <small>1 game</small>" in page and "Bob" in page
    assert "No players yet" in text(browser_of(Household.objects.create()).get(reverse("players")))


def test_a_review_keeps_the_entries_that_were_undone(client_of, household):

    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME[:2])
    services.undo_last_entry(game=game, version=2)
    play(game, [SOLO_GAME[3]])
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    rows = re.findall(
        r'<tr( class="undone")?> <td>(\d+)</td> <th scope="row">Ann</th> <td>(\w+)', page
    )
    assert rows == [("", "1", "Ones"), (' class="undone"', "2", "Twos"), ("", "2", "Fours")]
    assert "<del>6</del> <small>undone" in page


def test_the_review_rates_each_decision(advised, household):
    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME)
    advised.cookies["advice"] = "off"
    page = text(advised.get(reverse("game-review", args=[game.public_id])))
    assert "Rate every decision" in page
    page = text(advised.get(reverse("game-review", args=[game.public_id]), {"advice": "1"}))
    advised.cookies["advice"] = "on"
    with_cookie = text(advised.get(reverse("game-review", args=[game.public_id])))
    losses = review.decision_losses(load_progress(game), {})
    assert len(losses[0].decisions) == 13
    assert f"Ann: {losses[0].total:.1f} points lost in 13 decisions" in page
    assert f"Ann: {losses[0].total:.1f} points lost in 13 decisions" in with_cookie
    assert all(decision.loss >= -1e-9 for decision in losses[0].decisions)
    # Each row says the dice the choice was made on (a new user could not see why Full
    # house was a mistake): under its round, the dice, sorted, as digits.
    assert '<small class="dice">22333</small></td><td class="kind">box</td><td>Full house<' in page
    rows = re.findall(r'"dice">(\d{5})</small></td><td class="kind">box</td><td>([^<]+)<', page)
    assert sorted(rows) == sorted(
        ("".join(map(str, sorted(dice))), box.label) for box, dice in SOLO_GAME
    )


def test_high_scores_are_kept_apart_family_by_family(client_of, household):
    game = finished_game(household, names=("Dee",))
    Game.objects.filter(pk=game.pk).update(digital=True)
    settled_family_game(household, "yatzy", {"Dee": 250, "Eva": 190})
    settled_family_game(household, "maxi", {"Eva": 320})
    page = text(client_of.get(reverse("high-scores")))
    yahtzee, yatzy = page.split('<h2 id="high-yatzy">Yatzy</h2>')
    yatzy, maxi = yatzy.split('<h2 id="high-maxi">Maxi Yatzy</h2>')
    assert '<h2 id="high-yahtzee">Yahtzee</h2>' in yahtzee
    assert f"Dee</a> <strong>{card_total(SOLO_GAME)}</strong>" in yahtzee
    assert "Dee</a> <strong>250</strong>" in yatzy and "Eva</a> <strong>190</strong>" in yatzy
    assert yatzy.index("250") < yatzy.index("190") and "<strong>320</strong>" not in yatzy
    assert "Eva</a> <strong>320</strong>" in maxi and "250" not in maxi


def test_a_players_figures_are_kept_family_by_family(client_of, household):
    from scorecard.engine import families
    from scorecard.history.statistics import player_families, player_figures, player_stats

    finished_game(household, names=("Dee",))
    settled_family_game(household, "yatzy", {"Dee": 250}, with_figures=True)
    dee = Player.objects.get(name="Dee")
    assert player_families(player_figures(dee)) == [families.YAHTZEE, families.YATZY]
    assert player_stats(dee).best == card_total(SOLO_GAME)
    kept = player_stats(dee, families.YATZY)
    assert (kept.games, kept.best, kept.average) == (1, 250, 250)
    page = text(client_of.get(reverse("player", args=[dee.public_id])))
    yahtzee, yatzy_part = page.split('<h2 id="figures-yatzy">Yatzy</h2>')
    assert '<h2 id="figures-yahtzee">Yahtzee</h2>' in yahtzee and "Extra-Yahtzee bonuses" in yahtzee
    assert f"<dd>{card_total(SOLO_GAME)}</dd>" in yahtzee and "<dd>250</dd>" not in yahtzee
    assert "<dd>250</dd>" in yatzy_part and "Yahtzees" not in yatzy_part
    assert 'aria-label="Final scores of Dee in Yatzy: 250–274: 1"' in yatzy_part


def test_a_review_says_which_rules_the_table_played(client_of, household):
    from django.template.loader import render_to_string

    game = finished_game(household, names=("Ann",))
    Game.objects.filter(pk=game.pk).update(forced_order=True)
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    assert "Hasbro rule, boxes filled in order</small></h1>" in page

    def said(**rules) -> str:
        Game.objects.filter(pk=game.pk).update(**rules)
        return render_to_string("review.html#game-rules", {"game": Game.objects.get(pk=game.pk)})

    yatzy = said(family="yatzy", switches="four_alike_two_pairs,five_alike_full_house")
    assert yatzy == (
        "<small>Yatzy, five alike counts as a full house, four alike counts as two pairs, "
        "boxes filled in order</small>"
    )
    maxi = said(family="maxi", switches="saved_rolls", forced_order=False, digital=True)
    maxi += said(bonus_threshold=80, bonus_points=50)
    assert "<small>Maxi Yatzy, digital, rolls not used are saved for later turns</small>" in maxi
    assert maxi.endswith(", bonus 50 at 80</small>") and "Hasbro" not in maxi


def test_a_review_s_charts_draw_the_same_in_swedish_and_german_with_their_words_translated(
    client_of, household, policy_tables
):
    """Both charts of a review (running totals, chance to win) as a Swedish and a German
    phone get them: every coordinate a number, the same as in English; the words theirs."""
    from tests.presenters.test_charts import NUMBER, _coordinates

    game = finished_game(household, names=("Ann", "Bob"))
    address = reverse("game-review", args=[game.public_id]) + "?advice=1"

    def charts(language: str) -> str:
        page = client_of.get(address, headers={"Accept-Language": language}).content.decode()
        drawn = re.findall(r"<svg.*?</svg>", page, re.DOTALL)
        assert len(drawn) == 2, language
        return "".join(drawn)

    english = charts("en")
    assert all(NUMBER.fullmatch(value) for value in _coordinates(english))
    for language, turn, title in [
        ("sv", "omgång", "Varje spelares löpande summa, omgång för omgång"),
        ("de", "Runde", "Zwischenstand jedes Spielers Runde für Runde"),
    ]:
        drawn = charts(language)
        assert _coordinates(drawn) == _coordinates(english), language
        assert f">{turn}</text>" in drawn and f"<title>{title}</title>" in drawn


def _plans(client, url: str, reading: str) -> dict[str, str]:
    """SQLite's plan of each query the page makes of the table `reading`, by query."""
    plans = {}
    for sql in _queries(client, url):
        if f'FROM "{reading}"' in sql:
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
                plans[sql] = " / ".join(row[-1] for row in cursor.fetchall())
    return plans


def test_the_games_list_never_sorts_every_game_of_the_household(household):
    """Games going first, then the finished, each through an index in the order shown: a
    sort of every game would grow with the household's history."""
    if connection.vendor != "sqlite":
        return  # the plans are SQLite's words
    bulk_finished_games(household, ["Ann", "Bob"], 30)
    GameFactory(owner=household, names=["Ann", "Bob"])
    plans = _plans(browser_of(household), reverse("games"), "scorecard_game")
    assert len(plans) == 3  # the count and the two parts of the page
    assert not [plan for plan in plans.values() if "TEMP B-TREE" in plan or "SCAN" in plan]
    counts = [plan for sql, plan in plans.items() if "COUNT(*)" in sql]
    assert len(counts) == 1 and "COVERING INDEX" in counts[0]  # all, from the index alone
    going = [plan for sql, plan in plans.items() if '"finished" IS NULL' in sql]
    assert len(going) == 1 and "game_in_progress_by_owner" in going[0]  # a few rows


def test_the_players_list_counts_only_the_seats_not_settled(household):
    """A player's settled games come from their running figures; only the seats of games
    going (or waiting for `settle_results`) are counted one by one."""
    if connection.vendor != "sqlite":
        return  # the plans are SQLite's words
    bulk_finished_games(household, ["Ann", "Bob"], 30)
    (plan,) = _plans(browser_of(household), reverse("players"), "scorecard_seat").values()
    assert "seat_results_by_total (player_id=? AND scored=?)" in plan
    assert "scorecard_seat_player_id" not in plan  # every seat of a player
    assert "scorecard_game" not in plan


def test_a_finished_yatzy_game_s_review_rates_each_decision(client_of, household, yatzy_tables):
    from scorecard.engine import families
    from tests.factories import play_on

    house = services.HouseSettings(families.YATZY.key)
    game = play_on(GameFactory(owner=household, names=["Ann"], house=house), seed=4)
    response = client_of.get(reverse("game-review", args=[game.public_id]), {"advice": "1"})
    assert response.status_code == 200
    losses = review.decision_losses(load_progress(game), {})
    assert len(losses[0].decisions) == 15
    assert f"Ann: {losses[0].total:.1f} points lost in 15 decisions" in text(response)


def test_a_yatzy_reviews_chance_chart_says_nothing_of_extra_yahtzees(
    client_of, household, yatzy_tables
):
    """Found by a Yatzy table: the chance-to-win chart's note said "an extra Yahtzee shows as
    a jump" in a game that has neither extra Yatzys nor Yahtzees."""
    from scorecard.engine import families
    from tests.factories import play_on

    house = services.HouseSettings(families.YATZY.key)
    game = play_on(GameFactory(owner=household, names=["Ann", "Bob"], house=house), seed=4)
    page = text(client_of.get(reverse("game-review", args=[game.public_id]), {"advice": "1"}))
    assert "Chance to win" in page
    assert "(a tie counts as a share)." in page and "extra Yahtzee" not in page


def test_a_review_says_in_words_when_a_box_was_corrected(client_of, household):
    """A first-time user: a corrected box showed "16 ✎", its time only in a tip a phone
    cannot show. It says "corrected" and when, as an undone one says "undone"."""
    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME[:2])
    game.refresh_from_db()
    first = game.entries.get(turn=1)
    services.correct_box(game=game, version=game.version, entry=first, points=4)
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    assert re.search(r"<td>4 <small>corrected \d", page) and "✎" not in page


def test_a_review_says_corrected_only_of_the_box_corrected_not_of_bonuses_that_followed(
    client_of, household
):
    """Found by a helper: a Yahtzee box corrected 50 to 0 and back marked the four later
    boxes whose +100 followed it "corrected" too, though nobody changed them."""
    game = GameFactory(owner=household, names=["Ann"])
    play(game, [(Box.YAHTZEE, (4,) * 5), (Box.FOURS, (4,) * 5)])
    yahtzee = game.entries.get(turn=1)
    for points in (0, 50):
        game.refresh_from_db()
        services.correct_box(game=game, version=game.version, entry=yahtzee, points=points)
    page = text(client_of.get(reverse("game-review", args=[game.public_id])))
    assert re.search(r"<td>50 <small>corrected \d", page)
    assert "<td>20 +100</td>" in page
    assert page.count("corrected ") == 1
