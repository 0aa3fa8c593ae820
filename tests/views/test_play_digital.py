"""Playing with the server's dice: rolls, holds, scoring and every refused move."""

import random
import re

import pytest
from django.urls import reverse

from scorecard.engine import rules
from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.models import Entry, Game, Roll
from scorecard.presenters import advisor
from scorecard.presenters.advice import keep_label
from scorecard.presenters.box_names import box_name
from tests.factories import GameFactory
from tests.helpers import HTMX, post_roll, post_score, text


def test_the_server_rolls_the_dice_and_keeps_every_roll(client_of, digital, seeded):
    assert post_roll(client_of, digital).status_code == 302
    roll = Roll.objects.get()
    assert (roll.turn, roll.number, roll.held) == (1, 1, "00000")
    assert re.fullmatch(r"[1-6]{5}", roll.dice)
    page = text(client_of.get(reverse("game", args=[digital.public_id])))
    assert "Roll 1 of 3" in page and "(2 left)" in page


def test_held_dice_keep_their_faces(client_of, digital, seeded):
    post_roll(client_of, digital)
    first = Roll.objects.get().dice
    post_roll(client_of, digital, hold=["0", "2"])
    second = Roll.objects.get(number=2)
    assert second.held == "10100"
    assert (second.dice[0], second.dice[2]) == (first[0], first[2])


def test_the_page_asked_with_its_holds_shows_them_for_that_version_only(client_of, digital, seeded):
    """The advice switch's way back (dice-game.js) names the dice held on the page and the
    game's version they were held at; at any other version the last roll's holds show."""
    post_roll(client_of, digital)
    post_roll(client_of, digital, hold=["0", "2"])
    digital.refresh_from_db()
    page = reverse("game", args=[digital.public_id])

    def held(query: str) -> list[str]:
        drawn = text(client_of.get(f"{page}?{query}"))
        return re.findall(r'name="hold" value="(\d)"[^>]*?( checked)?>', drawn)

    as_rolled = [("0", " checked"), ("1", ""), ("2", " checked"), ("3", ""), ("4", "")]
    assert held("") == as_rolled
    now = f"held_at={digital.version}"
    assert [c for _, c in held(f"{now}&hold=1&hold=4")] == ["", " checked", "", "", " checked"]
    assert [c for _, c in held(now)] == [""] * 5  # every hold let go on the page
    assert held(f"held_at={digital.version - 1}&hold=1") == as_rolled
    assert held(f"{now}&hold=9&hold=x&hold=") == [(str(i), "") for i in range(5)]


def test_scoring_uses_the_servers_dice(client_of, digital, seeded):
    post_roll(client_of, digital)
    dice = rules.parse_dice(Roll.objects.get().dice)
    assert post_score(client_of, digital, Box.CHANCE).status_code == 302
    entry = Entry.objects.get()
    assert (entry.points, entry.dice) == (sum(dice), "".join(map(str, dice)))


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        (["roll", "roll", "roll", "roll"], "3 rolls a turn"),
        (["score"], "Roll the dice first."),
        (["hold"], "Roll first: there are no dice to hold yet."),
        (["roll", "dice"], "only the box is chosen"),
        (["roll", "points"], "only the box is chosen"),
        (["roll", "old-turn"], "That turn is over: this is round 1, Dee’s turn."),
        (["roll", "bad-hold"], "Only dice 1 to 5 can be held."),
    ],
)
def test_tampered_requests_are_refused_and_change_nothing(
    client_of, digital, seeded, steps, message
):
    *setup, last = steps
    for _ in setup:
        post_roll(client_of, digital)
    before = list(Roll.objects.values_list("number", "dice")), Entry.objects.count()
    if last == "roll":
        response = post_roll(client_of, digital)
    elif last == "hold":
        response = post_roll(client_of, digital, hold=["1"])
    elif last == "bad-hold":
        response = post_roll(client_of, digital, hold=["7"])
    elif last == "old-turn":
        response = post_roll(client_of, digital, turn=0)
    elif last == "dice":
        response = post_score(client_of, digital, Box.CHANCE, dice="66666")
    elif last == "points":
        response = post_score(client_of, digital, Box.CHANCE, points="30")
    else:
        response = post_score(client_of, digital, Box.CHANCE)
    assert response.status_code == 400
    assert message in text(response)
    assert (list(Roll.objects.values_list("number", "dice")), Entry.objects.count()) == before


def test_a_replayed_roll_is_refused(client_of, digital, seeded):
    data = {"version": 0, "turn": 1}
    url = reverse("game-roll", args=[digital.public_id])
    client_of.post(url, data)
    replay = client_of.post(url, data, headers=HTMX)
    assert replay.status_code == 409
    assert Roll.objects.count() == 1


def test_holding_in_a_finished_turn_is_refused(client_of, digital, seeded):
    post_roll(client_of, digital)
    post_score(client_of, digital, Box.CHANCE)
    response = post_roll(client_of, digital, hold=["0"], turn=1)
    assert (
        response.status_code == 400
        and "That turn is over: this is round 2, Dee’s turn." in text(response)
    )


def test_a_tabletop_game_cannot_be_rolled(client_of, game):
    response = post_roll(client_of, game)
    assert response.status_code == 400 and "rolled at the table" in text(response)


def test_a_digital_box_cannot_be_corrected(client_of, digital, seeded):
    post_roll(client_of, digital)
    post_score(client_of, digital, Box.CHANCE)
    url = reverse("game-correct", args=[digital.public_id, 1])
    response = client_of.post(url, {"version": 2, "points": "20"})
    assert response.status_code == 400 and "undo a box instead" in text(response)


def test_a_whole_digital_game_ends_with_the_engines_total(client_of, digital, seeded):
    for box in Box:
        post_roll(client_of, digital)
        post_roll(client_of, digital, hold=["0", "1"])
        assert post_score(client_of, digital, box).status_code == 302
    assert post_roll(client_of, digital).status_code == 400
    progress = load_progress(Game.objects.get(pk=digital.pk))
    assert progress.is_finished and Roll.objects.count() == 26
    card = [entry.as_rules_entry() for entry in progress.entries]
    filled = rules.check_card(card, rules.JokerRule.HASBRO)
    extra = sum(1 for entry in card if entry.bonus)
    assert progress.seats[0].totals.total == rules.totals(filled, extra).total


def test_an_unfinished_digital_turn_resumes_after_a_reload(client_of, digital, seeded):
    post_roll(client_of, digital)
    post_roll(client_of, digital, hold=["4"])
    dice = Roll.objects.get(number=2).dice
    page = text(client_of.get(reverse("game", args=[digital.public_id])))
    assert "Roll 2 of 3" in page
    shown = re.findall(r'<span class="die" aria-hidden="true">(\d)</span>', page)
    assert "".join(shown) == dice
    assert 'value="4" aria-label="Hold die 5' in page and "checked" in page


def test_challenge_players_score_the_same_shared_rolls(client_of, household, seeded):
    game = GameFactory(owner=household, names=["Ann", "Bob"], mode=Game.Mode.CHALLENGE)
    game.digital = True
    game.save()
    post_roll(client_of, game)
    post_score(client_of, game, Box.CHANCE)
    refused = post_roll(client_of, game)
    assert refused.status_code == 400 and "already shared" in text(refused)
    post_score(client_of, game, Box.CHANCE)
    ann, bob = Entry.objects.order_by("turn")
    assert ann.dice == bob.dice and ann.points == bob.points


def test_triple_digital_game_fills_the_chosen_card(client_of, household, seeded):
    game = GameFactory(owner=household, names=["Tri"], mode=Game.Mode.TRIPLE)
    game.digital = True
    game.save()
    post_roll(client_of, game)
    post_score(client_of, game, Box.CHANCE, card="3")
    entry = Entry.objects.get()
    assert entry.card == 3
    assert load_progress(game).seats[0].totals.total == 3 * entry.points


def test_a_new_digital_game_from_the_form(client_of):
    response = client_of.post(
        reverse("game-new"),
        {"name_1": "Dee", "joker": "none", "mode": "standard", "dice": "digital"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and game.digital and game.joker == "none"
    assert 'id="roll-button"' in text(client_of.get(reverse("game", args=[game.public_id])))


def test_digital_game_marks_the_dice_to_keep(advised, household, monkeypatch):

    monkeypatch.setattr(services, "dice_source", random.Random(4))
    game = services.game_create(owner=household, names=["Dee"], digital=True)
    services.roll_dice(game=game, version=0, turn=1)
    page = text(advised.get(reverse("game", args=[game.public_id])))
    progress = load_progress(game)
    held = advisor.best_hold(progress.seats[0].cards[0], progress.table_dice, 2, game)
    assert page.count('class="hold advised"') == sum(held) > 0
    # Their expected final total said beside them, as each box's is (a new user missed it).
    card = progress.seats[0].cards[0]
    expected = advisor.ranked_keeps(card, progress.table_dice, 2, game)[0][1]
    assert f"marks the dice to keep for the best expected total: {expected:.1f}." in page


def test_when_the_best_keep_is_no_die_the_advice_says_so_in_words(advised, household, monkeypatch):
    """Found by a new user: with every die best rolled again, the page said "★ marks the
    dice to keep" with no ★ anywhere. (Rare: never on a first turn, so the advisor's best
    keep is set here to none.)"""
    monkeypatch.setattr(services, "dice_source", random.Random(4))
    game = services.game_create(owner=household, names=["Dee"], digital=True)
    services.roll_dice(game=game, version=0, turn=1)
    monkeypatch.setattr(advisor, "ranked_keeps", lambda *args: [((), 176.55), ((6,), 170.0)])
    page = text(advised.get(reverse("game", args=[game.public_id])))
    assert "Best: roll all the dice again, for an expected total of 176.6." in page
    assert "marks the dice to keep" not in page and 'class="hold advised"' not in page


def test_the_coach_asks_before_a_roll_that_holds_the_wrong_dice(
    advised, digital, seeded, django_assert_max_num_queries
):
    from scorecard.engine import strategy

    advised.cookies["advice"] = "coach-0.5"
    post_roll(advised, digital)
    table = load_progress(digital).table_dice
    ranked = strategy.rate_keeps({}, table, 2, rules.JokerRule.HASBRO)
    values = dict(ranked)
    worst = min(
        range(31),
        key=lambda bits: values[tuple(sorted(table[i] for i in range(5) if bits >> i & 1))],
    )  # fmt: skip  (all five: refused)
    hold = [str(i) for i in range(5) if worst >> i & 1]
    loss = ranked[0][1] - values[tuple(sorted(table[int(i)] for i in hold))]
    assert loss >= 0.5
    digital.refresh_from_db()
    data = {"version": digital.version, "turn": 1, "hold": hold}
    url = reverse("game-roll", args=[digital.public_id])
    with django_assert_max_num_queries(3):  # the game with its seats, its entries, its rolls
        response = advised.post(url, data, headers=HTMX)
    page = text(response)
    assert response.status_code == 200 and Roll.objects.count() == 1  # nothing rolled yet
    assert f"gives up {loss:.1f} points on average against" in page
    assert "Roll as I chose" in page
    response = post_roll(advised, digital, hold=hold, coach="heard")
    assert response.status_code == 302 and Roll.objects.count() == 2
    held = Roll.objects.get(number=2).held
    assert [i for i, flag in enumerate(held) if flag == "1"] == sorted(map(int, hold))


def test_the_coach_weighs_a_box_against_rolling_again_while_rolls_are_left(
    advised, digital, seeded
):
    """Found by a tester: a first roll's box that gave up 25 points against rolling again
    was weighed against the other boxes only ("13.3 points … against Chance"), and the
    coach's "Chance instead" was itself a loss, with no way on to roll again."""
    advised.cookies["advice"] = "coach-2"
    post_roll(advised, digital)
    progress = load_progress(digital)
    card, table = progress.current.cards[0], progress.table_dice
    keep, keep_value = advisor.ranked_keeps(card, table, 2, digital)[0]
    boxes = advisor.rate_boxes(card, table, digital)
    assert keep_value > max(advice.expected for advice in boxes.values()) + 2
    worst = max(boxes, key=lambda box: boxes[box].loss)
    page = text(post_score(advised, digital, worst, headers=HTMX))
    loss = keep_value - boxes[worst].expected
    said = f"now gives up {loss:.1f} points on average against rolling again, keeping"
    assert said in page and Entry.objects.count() == 0
    # The dice asked about, as they lie on the table (they were shown sorted, a tester).
    assert dice_row(table) in page
    assert f"Keep {keep_label(keep)} and roll instead" in page
    assert re.search(rf"<button[^>]*>{box_name(worst)} anyway</button>", page)
    held = advisor.best_hold(card, table, 2, digital, keep)
    positions = [str(place) for place, kept in enumerate(held) if kept]
    assert post_roll(advised, digital, hold=positions, coach="heard").status_code == 302
    second = Roll.objects.get(number=2)
    assert [str(place) for place, flag in enumerate(second.held) if flag == "1"] == positions
    assert Entry.objects.count() == 0


def dice_row(faces) -> str:
    """A row of dice as a page draws it: its faces in that order."""
    return "".join(f'<span class="die">{face}</span>' for face in faces)


def test_every_die_held_is_refused_before_the_coach_asks_anything(advised, digital, seeded):
    advised.cookies["advice"] = "coach-0.5"
    post_roll(advised, digital)
    response = post_roll(advised, digital, hold=[str(i) for i in range(5)], headers=HTMX)
    assert response.status_code == 400 and "Every die is held" in text(response)
    assert "Roll as I chose" not in text(response) and Roll.objects.count() == 1
    # The dice stay held as they were sent (a new user found them all let go).
    assert text(response).count('name="hold"') == 5
    assert len(re.findall(r'name="hold" value="\d"[^>]* checked', text(response))) == 5


def test_the_coach_is_quiet_when_the_best_dice_are_held(advised, digital, seeded):
    advised.cookies["advice"] = "coach-0.5"
    post_roll(advised, digital)
    progress = load_progress(digital)
    card, table = progress.current.cards[0], progress.table_dice
    best = advisor.best_hold(card, table, 2, digital)
    hold = [str(i) for i, kept in enumerate(best) if kept]
    assert post_roll(advised, digital, hold=hold).status_code == 302
    assert Roll.objects.count() == 2


def test_with_the_coach_chosen_a_quiet_roll_reads_the_game_once(
    advised, digital, seeded, django_assert_max_num_queries
):
    post_roll(advised, digital)
    advised.cookies["advice"] = "coach-5"
    digital.refresh_from_db()
    data = {"version": digital.version, "turn": 1, "hold": [0, 1, 2, 3]}
    url = reverse("game-roll", args=[digital.public_id])
    # the game with its seats, BEGIN, entries, the turn's rolls, claim, insert, COMMIT
    with django_assert_max_num_queries(7):
        response = advised.post(url, data, headers=HTMX)
    assert response.status_code == 200 and Roll.objects.count() == 2


def test_a_digital_box_s_correction_address_says_at_once_that_its_dice_stand(
    client_of, digital, seeded
):
    """No page links to it, but an address typed or kept says why before anything is typed,
    with no form to fill in vain (found by a new user)."""
    post_roll(client_of, digital)
    post_score(client_of, digital, Box.CHANCE)
    url = reverse("game-correct", args=[digital.public_id, 1])
    page = client_of.get(url)
    said = "The server rolled these dice, so they stand; undo a box instead."
    assert page.status_code == 400 and said in text(page)
    assert "Save the correction" not in text(page) and "Back to the game" in text(page)
    points = Entry.objects.get().points
    sent = client_of.post(url, {"version": 2, "points": points + 1})
    assert sent.status_code == 400 and said in text(sent)
    assert Entry.objects.get().points == points


def test_a_digital_roll_s_boxes_say_their_star_is_for_stopping_while_rolls_are_left(
    client_of, digital, seeded, strategy_tables
):
    strategy_tables.load(rules.JokerRule.HASBRO)
    client_of.cookies["advice"] = "on"
    said = "★ on a box: the best box if you stop rolling now."
    page = reverse("game", args=[digital.public_id])
    for roll in (1, 2):
        post_roll(client_of, digital)
        assert said in text(client_of.get(page)), roll
    post_roll(client_of, digital)
    assert said not in text(client_of.get(page))


def test_a_watch_link_shows_the_server_s_dice_as_they_lie(client_of, household, seeded):
    """Found by a new user: a watcher of a digital game never saw the dice, not even the
    shared roll that every player of Challenge Yahtzee scores."""
    from scorecard.access import sharing
    from scorecard.models import GameLink

    game = GameFactory(owner=household, names=["Ann", "Bob"], mode=Game.Mode.CHALLENGE)
    game.digital = True
    game.save()
    watch = sharing.link_renew(game=game, role=GameLink.Role.WATCH)
    watched = f"/watch/{watch.token}/"
    assert '<p class="dice"' not in text(client_of.get(watched))  # nothing rolled yet
    post_roll(client_of, game)
    faces = Roll.objects.get().dice
    page = text(client_of.get(watched))
    shown = "".join(re.findall(r'<span class="die">(\d)</span>', page))
    assert "You are watching" in page and shown == faces


class _Straight(random.Random):
    """Dice that fall 1 2 3 4 5, a large straight on the first roll."""

    faces = iter(range(1, 6))

    def randint(self, a: int, b: int) -> int:
        return next(self.faces)


def test_when_the_best_keep_is_every_die_the_advice_says_to_choose_the_box(
    advised, household, monkeypatch
):
    """Found by a tester: every die starred, the note still said "★ marks the dice to keep"
    beside Roll again, and holding all five and rolling was refused."""
    monkeypatch.setattr(services, "dice_source", _Straight())
    game = services.game_create(owner=household, names=["Dee"], digital=True)
    services.roll_dice(game=game, version=0, turn=1)
    progress = load_progress(game)
    card = progress.seats[0].cards[0]
    keep, expected = advisor.ranked_keeps(card, progress.table_dice, 2, game)[0]
    assert sorted(keep) == [1, 2, 3, 4, 5]
    page = text(advised.get(reverse("game", args=[game.public_id])))
    assert page.count('class="hold advised"') == 5
    said = f"Best: roll no more and choose the box now, for an expected total of {expected:.1f}."
    assert said in page and "marks the dice to keep" not in page


def test_the_dice_are_said_to_a_screen_reader_in_the_order_they_lie(client_of, digital, seeded):
    """Found by a tester: 5 5 5 3 5 on the screen was said "Dice 35555" (sorted, and read
    as a number)."""
    for _ in range(3):
        post_roll(client_of, digital)
    table = load_progress(digital).table_dice
    page = text(client_of.get(reverse("game", args=[digital.public_id])))
    assert f'aria-label="Dice {" ".join(map(str, table))}"' in page
