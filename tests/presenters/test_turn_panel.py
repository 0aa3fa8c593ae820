"""The turn panel's presenter: only what the response shows, built from the loaded game."""

import pytest
from django.urls import reverse

from scorecard.engine.rules import Box, JokerRule
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.presenters.turn_panel import build_turn_panel
from tests.factories import play


def test_a_table_turn_without_dice_shows_the_pad_and_no_choices(game):
    panel = build_turn_panel(load_progress(game), {})
    assert panel.current.player.name == "Ann" and panel.dice_entry is not None
    assert panel.choices == [] and panel.dice is None


def test_entered_dice_give_every_open_box_with_its_value(game):
    panel = build_turn_panel(load_progress(game), {"dice": "44425"})
    values = {choice.box: choice.option.points for choice in panel.choices}
    assert values[Box.FOURS] == 12 and values[Box.THREE_OF_A_KIND] == 19
    assert all(choice.rating is None for choice in panel.choices)  # advice is off


def test_a_digital_turn_builds_no_dice_pad(digital):
    services.roll_dice(game=digital, version=0, turn=1)
    panel = build_turn_panel(load_progress(digital), {"dice": "11111"})
    assert panel.dice_entry is None
    assert panel.dice == tuple(sorted(panel.progress.table_dice))
    assert len(panel.table) == 5 and len(panel.choices) == 13


def test_a_finished_game_has_no_current_player(household):
    game = services.game_create(owner=household, names=["Solo"])
    from tests.factories import SOLO_GAME

    play(game, SOLO_GAME)
    panel = build_turn_panel(load_progress(game), {})
    assert panel.current is None and panel.card is None and panel.choices == []


def test_the_panel_links_to_the_owners_addresses(game):
    panel = build_turn_panel(load_progress(game), {})
    assert panel.links.record == reverse("game-record", args=[game.public_id])


def test_a_digital_last_turn_marks_the_dice_that_win_most_often(household, policy_tables, seeded):
    """Both players roll once a turn and take the first open box; on Bob's very last turn
    the ★ marks follow `strategy.rate_keeps_to_win`, not the keep for points."""
    from scorecard.engine import strategy

    progress = last_digital_turn(household)
    game = progress.game
    panel = build_turn_panel(progress, {}, advice_setting="on")
    assert panel.play_to_win is not None and panel.last_turn_note
    card, rival = progress.current.cards[0], progress.seats[0].totals.total
    ranked = strategy.rate_keeps_to_win(
        card.filled, progress.table_dice, 2, game.joker_rule, card.extra_yahtzees, [rival]
    )
    held = sorted(die.face for die in panel.table if die.advised)
    keep, chance = panel.play_to_win.to_win
    assert tuple(held) == keep and chance == pytest.approx(ranked[0][1], abs=1e-9)


def test_the_panel_chooses_its_mode_from_the_game_and_who_looks(game, digital):
    from scorecard.access.links import GameLinks, Role
    from scorecard.presenters.turn_panel import Mode

    progress = load_progress(game)
    assert build_turn_panel(progress, {}).mode == Mode.DICE_PAD
    watcher = GameLinks("token", Role.WATCHER)
    watching = build_turn_panel(progress, {"dice": "44425"}, links=watcher)
    assert watching.mode == Mode.WATCHING and watching.dice_entry.text == ""
    assert build_turn_panel(load_progress(digital), {}).mode == Mode.ROLLING


def test_the_typed_points_form_waits_for_its_box_to_open(game):
    progress = load_progress(game)
    assert build_turn_panel(progress, {}).typed_on_demand
    opened = build_turn_panel(progress, {"typed": "1"})
    assert opened.typed_open and not opened.typed_on_demand


def test_advice_is_rated_only_for_a_browser_that_chose_it_always(game, strategy_tables):
    from scorecard.engine import rules

    strategy_tables.load(rules.JokerRule.HASBRO)
    progress = load_progress(game)
    coached = build_turn_panel(progress, {"dice": "44425"}, advice_setting="coach-2")
    assert not coached.wants_advice and coached.advice_setting == "coach-2"
    always = build_turn_panel(progress, {"dice": "44425"}, advice_setting="on")
    assert always.wants_advice and always.choices[0].rating is not None


def test_the_panel_decides_the_undo_and_the_advice_switch_the_footer_shows(game, household):
    from scorecard.access.links import GameLinks, Role
    from scorecard.engine.families import MAXI

    fresh = build_turn_panel(load_progress(game), {})
    assert not fresh.offers_undo  # nothing to take back yet
    assert fresh.offers_advice_switch and not fresh.says_no_advice
    play(game, [(Box.CHANCE, (1, 2, 3, 4, 6))])
    progress = load_progress(game)
    assert build_turn_panel(progress, {}).offers_undo
    try:
        zero = {"box": Box.YAHTZEE, "dice": (1, 2, 3, 4, 6), "confirm_zero": False}
        services.record_box(game=game, version=1, turn=2, **zero)
    except services.ZeroNeedsConfirmation as question:
        asked = build_turn_panel(question.progress, {"dice": "12346"}, confirm=question)
    assert not asked.offers_undo  # a zero to confirm first
    watching = build_turn_panel(progress, {}, links=GameLinks("token", Role.WATCHER))
    assert not (watching.offers_undo or watching.offers_advice_switch or watching.says_no_advice)
    maxi = services.game_create(
        owner=household, names=["Ann"], house=services.HouseSettings(MAXI.key)
    )
    without = build_turn_panel(load_progress(maxi), {})
    assert without.says_no_advice and not without.offers_advice_switch
    assert not without.asks_extra_yahtzee and not fresh.asks_extra_yahtzee  # Yahtzee open


@pytest.mark.parametrize(
    ("in_the_yahtzee_box", "joker", "asked"),
    [(50, "hasbro", True), (0, "hasbro", False), (50, "none", False)],
)
def test_the_typed_points_ask_about_an_extra_yahtzee_only_when_it_would_pay(
    household, in_the_yahtzee_box, joker, asked
):
    """With 0 in the Yahtzee box, or a rule without the bonus, the claim could only be
    refused: the form does not offer it."""
    game = services.game_create(owner=household, names=["Ann"], joker=JokerRule.from_key(joker))
    dice = (6,) * 5 if in_the_yahtzee_box else (1, 2, 3, 4, 6)
    recorded = services.record_box(
        game=game, version=0, turn=1, box=Box.YAHTZEE, dice=dice, confirm_zero=True
    )
    assert recorded.entry.points == in_the_yahtzee_box
    assert build_turn_panel(load_progress(game), {}).asks_extra_yahtzee is asked


def test_a_page_works_out_its_title_notes_and_addresses_once(game, monkeypatch):
    """The title and the house notes are said twice on a game page (its title and its
    heading); the advice switch's address and the most a box holds are the same for every
    panel of a process or a family's rules."""
    from scorecard.presenters import turn_panel

    said = []
    real = turn_panel.house_rules.game_title
    monkeypatch.setattr(turn_panel.house_rules, "game_title", lambda g: said.append(1) or real(g))
    turn_panel.advice_url.cache_clear()
    reversed_ = []
    monkeypatch.setattr(turn_panel, "reverse", lambda name: reversed_.append(name) or "/advice/")
    panels = [build_turn_panel(load_progress(game), {}) for _ in range(2)]
    assert [panel.title for panel in panels for _ in range(2)] == ["Yahtzee"] * 4
    assert len(said) == 2  # once a panel
    assert [panel.advice_url for panel in panels] == ["/advice/"] * 2
    assert reversed_ == ["advice"]
    turn_panel.advice_url.cache_clear()


def test_the_typed_points_options_come_named_from_the_presenter(game):
    """Each open box as its option says it, so the page's select prints them (a player's open
    boxes change every round: the select is drawn afresh nearly every time)."""
    play(game, [(Box.ONES, (1, 1, 2, 3, 4))])
    panel = build_turn_panel(load_progress(game), {})  # Bob's turn: every box open
    assert panel.typed_boxes[:2] == [("ones", "Ones"), ("twos", "Twos")]
    assert len(panel.typed_boxes) == 13


def test_playing_to_win_keeps_the_dice_for_more_points_among_keeps_as_sure(
    household, policy_tables
):
    """Found by a new user: Vic needed 17 in 3 of a kind to win and rolled 5 5 5 1 2. "To
    win: keep all five" (18, a sure win) was shown, while 5 5 5 wins as surely (any two
    dice make 17) and scores more; no "for points" line said so, since both win."""
    from tests.factories import SOLO_GAME, card_total

    vic = [(Box.ONES, (1, 1, 1, 2, 3)), (Box.TWOS, (2, 2, 2, 1, 3)),
           (Box.THREES, (3, 3, 3, 1, 2)), (Box.FOURS, (4, 4, 4, 1, 2)),
           (Box.FIVES, (5, 5, 5, 1, 2)), (Box.SIXES, (6, 6, 6, 1, 2)),
           (Box.FOUR_OF_A_KIND, (6, 6, 6, 6, 5)), (Box.FULL_HOUSE, (2, 2, 3, 3, 3)),
           (Box.SMALL_STRAIGHT, (1, 2, 3, 4, 6)), (Box.LARGE_STRAIGHT, (2, 3, 4, 5, 6)),
           (Box.YAHTZEE, (1, 2, 3, 4, 6)), (Box.CHANCE, (1, 1, 2, 2, 3))]  # fmt: skip
    changed = {Box.YAHTZEE: (1, 2, 3, 4, 6), Box.THREE_OF_A_KIND: (1, 1, 1, 2, 3),
               Box.CHANCE: (2, 2, 3, 4, 6)}  # fmt: skip
    ula = [(box, changed.get(box, dice)) for box, dice in SOLO_GAME]
    assert card_total(ula) - card_total(vic) == 16  # 17 or more in 3 of a kind wins
    game = services.game_create(owner=household, names=["Ula", "Vic"])
    play(game, [turn for pair in zip(ula, [*vic, None], strict=True) for turn in pair if turn])
    query = {"dice": "55512", "roll": "1"}
    panel = build_turn_panel(load_progress(game), query, advice_setting="on")
    assert panel.play_to_win is not None
    keep, chance = panel.play_to_win.to_win
    assert keep == (5, 5, 5) and chance > 1 - 1e-9
    assert not panel.play_to_win.differ  # the keep for points wins as surely


def last_digital_turn(household):
    """A digital game of Ann and Bob, each taking the first open box, at Bob's last turn's
    first roll (the dice as `seeded` rolls them)."""
    game = services.game_create(owner=household, names=["Ann", "Bob"], digital=True)
    for turn in range(1, 26):
        game.refresh_from_db()
        progress = services.roll_dice(game=game, version=game.version, turn=turn)
        box = progress.current.cards[0].open_boxes()[0]
        game.refresh_from_db()
        services.record_box(game=game, version=game.version, turn=turn, box=box, card=1)
    game.refresh_from_db()
    services.roll_dice(game=game, version=game.version, turn=26)
    return load_progress(game)


def test_on_the_last_turn_the_coach_judges_holds_by_the_chance_to_win(
    household, policy_tables, seeded
):
    """The coach judged points on the game's last turn too, and spoke against the dice that
    win most often: there it weighs the chance to win (its figure in percentage points),
    and says both chances."""
    from scorecard.engine import strategy
    from scorecard.presenters import advisor
    from scorecard.presenters.advice import keep_phrase
    from scorecard.presenters.turn_panel import coach_on_hold

    progress = last_digital_turn(household)
    game, table = progress.game, progress.table_dice
    card, rivals = progress.current.cards[0], [progress.seats[0].totals.total]
    wins = dict(strategy.rate_keeps_to_win(card.filled, table, 2, game.joker_rule, 0, rivals))
    best, best_chance = advisor.play_to_win(card, table, 2, game, rivals).to_win
    sent = (game.version, progress.next_turn)

    def positions(keep):
        left, held = list(keep), []
        for position, face in enumerate(table):
            if face in left:
                left.remove(face)
                held.append(position)
        return held

    for_points = advisor.ranked_keeps(card, table, 2, game)[0][0]
    assert coach_on_hold(progress, sent, positions(best), 0.5) is None
    worst = min(wins, key=wins.get)
    assert best_chance - wins[worst] > 0.05, (best, worst, wins[worst])  # a keep worth a word
    note = coach_on_hold(progress, sent, positions(worst), 0.5)
    assert note is not None and note.best == best and note.chances == (wins[worst], best_chance)
    assert str(note).startswith(f"Coach: on the last turn {keep_phrase(worst)} wins ")
    if wins[for_points] < best_chance - 0.005:  # the keep for points is no longer the coach's
        assert coach_on_hold(progress, sent, positions(for_points), 0.5) is not None


def test_on_the_last_turn_the_coach_weighs_scoring_now_by_the_chance_to_win(
    household, policy_tables, seeded
):
    """Scoring the last box now against rolling again was judged in points there too: a
    roll for more points could lose a game the dice on the table had won. It weighs the
    chance to win, and says both: silent where the dice on the table win already, and
    speaking up where they lose and another roll may win."""
    from scorecard.presenters import advisor
    from scorecard.presenters.turn_panel import coach_on_box

    progress = last_digital_turn(household)  # Bob's Chance, with 4 3 6 5 5 (23): a win
    game, table = progress.game, progress.table_dice
    card = progress.current.cards[0]
    box = card.open_boxes()[0]
    fields = {"version": game.version, "turn": progress.next_turn, "card": 1, "box": box}
    assert coach_on_box(progress, fields | {"dice": None}, 0.5) is None
    needed = progress.current.totals.total + 25  # a rival 25 ahead: 23 now loses
    note = advisor.coach_objection_to_win(card, table, box, 2, game, [needed], 0.005)
    keep, again = advisor.play_to_win(card, table, 2, game, [needed]).to_win
    assert note is not None and note.chances == (0.0, again) and note.keep == keep
    assert 0 < again < 1 and note.rolls
    assert str(note).startswith("Coach: on the last turn, Chance now wins 0")
