"""A live page one version behind an entry is sent only what the entry changed: the turn
panel, the standings' rows (the whole standings at the last two entries: the Pace column
goes when the game ends) and the grid's changed rows and headings, out of band. Swapped
into the page the phone shows, they make exactly the page a fresh load of the new version
gives, at every turn of a whole game of every family, for a watcher and for another phone
of the household; a page further behind, or one behind an undo, gets every region."""

import random
import re

import pytest
from django.db.models.fetch_modes import FETCH_RAISE
from django.test import Client
from django.urls import reverse

from scorecard.access import households, sharing
from scorecard.engine import families
from scorecard.game import services
from scorecard.game.progress import load_progress
from scorecard.models import Game, LinkRole
from tests.helpers import HTMX, browser_of, game_url

# What differs between two drawings of the same state: a form's tap key and its CSRF field,
# which a whole page carries and an htmx answer leaves to htmx's headers (`web/csrf.py`,
# `web/jinja.py`).
TAP_KEY = re.compile(r'<input type="hidden" name="idempotency_key" value="[^"]*">')
CSRF_FIELD = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')
COMPARED = ("turn", "standings-rows", "boxes")
STEP_MARK = '<tbody id="standings-rows" hx-swap-oob="true">'  # the rows alone, not the table


@pytest.fixture(autouse=True)
def no_field_left_unread_is_asked_for(monkeypatch):
    """A page or a tap reads a game's seats and players without some of their fields
    (`access.households`): playing and following whole games here asks for none of them."""
    monkeypatch.setattr(households, "UNREAD_FIELDS", FETCH_RAISE)


def element(html: str, dom_id: str) -> tuple[int, int]:
    """Where the element with `dom_id` starts and ends in `html` (its own closing tag
    found by counting the same tag's openings inside it)."""
    found = re.search(rf'<([a-z0-9]+)\b[^>]*\bid="{re.escape(dom_id)}"', html)
    assert found, f"no #{dom_id}"
    tag, depth = found.group(1), 0
    for mark in re.finditer(rf"<(/?){tag}\b[^>]*>", html[found.start() :]):
        depth += -1 if mark.group(1) else 1
        if depth == 0:
            return found.start(), found.start() + mark.end()
    raise AssertionError(f"#{dom_id} is never closed")


def swap_out_of_band(page: str, answer: str) -> str:
    """The page after htmx swaps in every element of `answer` marked `hx-swap-oob="true"`
    (in place of the page's element with its id), as a poll's answer is swapped."""
    for marked in re.finditer(r'<[a-z0-9]+\b[^>]*\bid="([^"]+)"[^>]*hx-swap-oob="true"', answer):
        start, end = element(answer, marked.group(1))
        new = answer[start:end].replace(' hx-swap-oob="true"', "")
        old_start, old_end = element(page, marked.group(1))
        page = page[:old_start] + new + page[old_end:]
    return page


# What a poll's answer says of the entry it brings ("Ann: Ones 5"): news of the moment, which
# a fresh load has no moment for.
# (A watcher's is no status of its own: its live region, #watch-told, says it.)
POLL_NOTICE = re.compile(r'<p class="notice"(?: role="status")? id="turn-notice">([^<]*)</p>')


def shown(page: str, dom_id: str) -> str:
    """An element as a person sees it: whitespace between tags, per-drawing values and a
    poll's notice aside."""
    start, end = element(page, dom_id)
    element_shown = POLL_NOTICE.sub("", re.sub(r">\s+<", "><", page[start:end]))
    return TAP_KEY.sub("", CSRF_FIELD.sub("", element_shown))


def record_next(owner: Client, game: Game, rng: random.Random) -> None:
    """The next turn's box recorded as a phone taps it: seeded dice, now and then all alike
    (extra Yahtzees, jokers), in the first open box of the first open card."""
    progress = load_progress(game)
    card = progress.current.open_cards()[0]
    count = game.house_rules.family.dice_count
    if rng.random() < 0.2:
        dice = [rng.randint(1, 6)] * count
    else:
        dice = [rng.randint(1, 6) for _ in range(count)]
    url = reverse("game-record", args=[game.public_id])
    for tried in ("".join(map(str, dice)), "1234" + "56"[: count - 4]):
        data = {"version": game.version, "turn": progress.next_turn, "card": card.number,
                "box": card.open_boxes()[0].key, "dice": tried, "confirm": "zero"}  # fmt: skip
        if owner.post(url, data, headers=HTMX).status_code == 200:
            game.refresh_from_db()
            return
    raise AssertionError("neither roll could be recorded")


def follow_a_whole_game(game: Game, follower: Client, address: str) -> list[str]:
    """Play `game` to its end; after each entry the follower's page takes the poll's answer
    and is compared with a fresh load. Returns the answers."""
    owner, rng = browser_of(game.owner), random.Random(game.pk)
    page = follower.get(address).content.decode()
    answers = []
    while load_progress(game).current is not None:
        seen = game.version
        record_next(owner, game, rng)
        poll = HTMX | {"If-None-Match": f'"{seen}"'}
        answer = follower.get(address, {"live": "1"}, headers=poll)
        assert answer.status_code == 200 and answer["ETag"] == f'"{game.version}"'
        answers.append(body := answer.content.decode())
        page = swap_out_of_band(page, body)
        fresh = follower.get(address).content.decode()
        for dom_id in COMPARED:
            assert shown(page, dom_id) == shown(fresh, dom_id), (game.version, dom_id)
    return answers


def is_a_step(answer: str) -> bool:
    return STEP_MARK in answer and '<section id="standings"' not in answer


def steps_then_the_ending(answers: list[str]) -> bool:
    """Steps up to the last three entries, whose answers bring the whole standings (the last
    ends the game and takes the Pace column away, an undo of it brings it back; the one
    before begins the last turn, whose Win column's note is another)."""
    ending = ['<section id="standings" hx-swap-oob="true"' in answer for answer in answers[-3:]]
    return all(map(is_a_step, answers[:-3])) and all(ending)


def watch_address(game: Game) -> str:
    return reverse("watch", args=[sharing.link_renew(game=game, role=LinkRole.WATCH).token])


@pytest.mark.parametrize(
    ("family", "mode"),
    [
        (families.YAHTZEE.key, Game.Mode.STANDARD),
        (families.YATZY.key, Game.Mode.STANDARD),
        (families.MAXI.key, Game.Mode.STANDARD),
        (families.YAHTZEE.key, Game.Mode.TRIPLE),
    ],
)
def test_a_watcher_s_page_kept_up_by_steps_is_the_page_a_fresh_load_gives(household, family, mode):
    game = services.game_create(
        owner=household, names=["Ann", "Bob"], mode=mode, house=services.HouseSettings(family)
    )
    answers = follow_a_whole_game(game, Client(), watch_address(game))
    assert len(answers) == len(load_progress(game).entries) and steps_then_the_ending(answers)
    assert not any('<section id="boxes"' in answer for answer in answers)


@pytest.mark.parametrize("mode", [Game.Mode.STANDARD, Game.Mode.TRIPLE])
def test_another_phone_of_the_household_kept_up_by_steps_shows_what_a_fresh_load_shows(
    household, mode
):
    game = services.game_create(owner=household, names=["Ann", "Bob"], mode=mode)
    answers = follow_a_whole_game(game, browser_of(household), game_url(game))
    assert len(answers) == len(load_progress(game).entries) and steps_then_the_ending(answers)
    # The first entry brings the whole grid: its hint on correcting comes with it.
    with_the_grid = [i for i, answer in enumerate(answers) if '<section id="boxes"' in answer]
    assert with_the_grid == [0]


def test_a_step_is_the_turn_the_standings_rows_and_the_changed_rows_only(household):
    game = services.game_create(owner=household, names=["Ann", "Bob"])
    address = watch_address(game)
    record_next(browser_of(household), game, random.Random(1))
    answer = Client().get(address, {"live": "1"}, headers=HTMX | {"If-None-Match": '"0"'})
    body = answer.content.decode()
    assert '<section id="turn"' in body and STEP_MARK in body
    assert '<tr id="r0" class="box" hx-swap-oob="true">' in body  # Aces, the box filled
    assert '<section id="boxes"' not in body and '<section id="standings"' not in body


@pytest.mark.parametrize("change", ["two entries", "undo", "correction"])
def test_a_page_further_behind_or_behind_another_change_gets_every_region(household, change):
    game = services.game_create(owner=household, names=["Ann", "Bob"])
    owner, rng = browser_of(household), random.Random(2)
    for _ in range(3):
        record_next(owner, game, rng)
    seen = game.version
    if change == "two entries":
        seen -= 1
        record_next(owner, game, rng)
    elif change == "undo":
        owner.post(reverse("game-undo", args=[game.public_id]), {"version": seen}, headers=HTMX)
    else:  # Aces corrected to nothing, as the correction page's form sends it
        correct = reverse("game-correct", args=[game.public_id, 1])
        said_yes = {"version": seen, "points": "0", "confirm": "zero"}  # a zero, asked about
        assert owner.post(correct, said_yes).status_code == 302
    game.refresh_from_db()
    assert game.version == seen + (2 if change == "two entries" else 1)
    for follower, address in ((Client(), watch_address(game)), (owner, game_url(game))):
        poll = HTMX | {"If-None-Match": f'"{seen}"'}
        body = follower.get(address, {"live": "1"}, headers=poll).content.decode()
        for region in ("turn", "standings", "boxes"):
            assert f'<section id="{region}"' in body, (change, region)


@pytest.mark.parametrize(
    ("change", "said"),
    [("undo", "Undone: Bob’s Ones (4)."), ("correction", "Corrected: Ann’s Ones, now 0.")],
)
def test_a_page_one_version_behind_an_undo_or_a_correction_is_told_which_box(
    household, change, said
):
    """The grid changed under another phone with nothing said (found by a new user); a page
    further behind is sent every region and no news of a moment it did not see."""
    game = services.game_create(owner=household, names=["Ann", "Bob"])
    owner = browser_of(household)
    record = reverse("game-record", args=[game.public_id])
    for version, dice in enumerate(["11123", "11112"]):  # Ones 3 for Ann, 4 for Bob
        data = {"version": version, "turn": version + 1, "box": "ones", "dice": dice}
        assert owner.post(record, data, headers=HTMX).status_code == 200
    if change == "undo":
        owner.post(reverse("game-undo", args=[game.public_id]), {"version": 2}, headers=HTMX)
    else:
        correct = reverse("game-correct", args=[game.public_id, 1])
        said_yes = {"version": 2, "points": "0", "confirm": "zero"}
        assert owner.post(correct, said_yes).status_code == 302
    for follower, address in ((Client(), watch_address(game)), (owner, game_url(game))):
        answers = [
            follower.get(address, {"live": "1"}, headers=HTMX | {"If-None-Match": f'"{seen}"'})
            for seen in (2, 1)
        ]
        notices = [POLL_NOTICE.findall(answer.content.decode()) for answer in answers]
        assert notices == [[said], []]


def played(household, turns: list[tuple[str, str]]) -> tuple[Game, Client]:
    """Ann and Bob's game with `turns` (box, dice) recorded by the owner's phone, by taps."""
    game = services.game_create(owner=household, names=["Ann", "Bob"])
    owner = browser_of(household)
    record = reverse("game-record", args=[game.public_id])
    for version, (box, dice) in enumerate(turns):
        data = {"version": version, "turn": version + 1, "box": box, "dice": dice}
        assert owner.post(record, data, headers=HTMX).status_code == 200
    return game, owner


def told_by_their_next_poll(game: Game, household, seen: int) -> list[list[str]]:
    """The notice of the next poll of a watch link and of another phone of the household,
    each showing version `seen`."""
    polls = ((Client(), watch_address(game)), (browser_of(household), game_url(game)))
    return [
        POLL_NOTICE.findall(
            follower.get(
                address, {"live": "1"}, headers=HTMX | {"If-None-Match": f'"{seen}"'}
            ).content.decode()
        )
        for follower, address in polls
    ]


@pytest.mark.parametrize(
    ("box", "said"),
    [
        ("twos", "Moved: Ann’s Ones to Twos, now 0."),
        ("", "Corrected: Ann’s Ones, now 0."),
    ],
)
def test_another_phone_is_told_a_box_was_moved_as_the_phone_that_moved_it_was(household, box, said):
    """Found by a tester: the phone that moved Sixes to Fours said "Moved: …", the other
    phones only "Corrected: … Fours", with Sixes emptied under them without a word."""
    game, owner = played(household, [("ones", "11123"), ("ones", "11112")])
    correct = reverse("game-correct", args=[game.public_id, 1])
    fix = {"version": 2, "box": box, "points": "0", "confirm": "zero"}
    assert said in owner.post(correct, fix, follow=True).content.decode()
    assert told_by_their_next_poll(game, household, seen=2) == [[said], [said]]


def test_another_phone_is_told_of_the_later_bonus_a_correction_took_away(household):
    """Found by a tester: Ann's Yahtzee moved to Chance took the +100 of her later five
    alike; the phone that moved it said so, the others only "Moved: …", with 125 points
    gone from her total."""
    turns = [("yahtzee", "55555"), ("large_straight", "12345"), ("sixes", "66666")]
    game, owner = played(household, [*turns, ("threes", "33312")])
    correct = reverse("game-correct", args=[game.public_id, 1])
    answer = owner.post(correct, {"version": 4, "box": "chance"}, follow=True)
    said = (
        "Moved: Ann’s Yahtzee to Chance, now 25. Sixes (round 2) no longer has a 100 "
        "extra-Yahtzee bonus."
    )
    assert said in answer.content.decode()
    assert told_by_their_next_poll(game, household, seen=4) == [[said], [said]]
