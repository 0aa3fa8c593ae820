"""Yatzy and Maxi Yatzy at a table, played on a phone by tapping: a whole one-player Yatzy
game, a two-player forced Yatzy game, and a few Maxi Yatzy turns with six dice. Every total
is checked against a small scorer written here, not the engine's."""

import re
from collections import Counter

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LABELS = {
    "ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours", "fives": "Fives",
    "sixes": "Sixes", "one_pair": "One pair", "two_pairs": "Two pairs",
    "three_of_a_kind": "Three of a kind", "four_of_a_kind": "Four of a kind",
    "small_straight": "Small straight", "large_straight": "Large straight",
    "full_house": "Full house", "chance": "Chance", "yatzy": "Yatzy",
}  # fmt: skip
UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
CARD_ORDER = list(LABELS)
NARROW = {"width": 360, "height": 780}


def yatzy_points(box: str, dice: str) -> int:
    """Scandinavian Yatzy's printed rules, written out on their own for these tests."""
    faces = [int(d) for d in dice]
    counts = Counter(faces)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * counts[face]
    pairs = sorted((f for f, c in counts.items() if c >= 2), reverse=True)
    at_least = {n: [f for f, c in counts.items() if c >= n] for n in (3, 4)}
    match box:
        case "one_pair":
            return 2 * pairs[0] if pairs else 0
        case "two_pairs":
            return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
        case "three_of_a_kind":
            return 3 * max(at_least[3]) if at_least[3] else 0
        case "four_of_a_kind":
            return 4 * max(at_least[4]) if at_least[4] else 0
        case "small_straight":
            return 15 if sorted(faces) == [1, 2, 3, 4, 5] else 0
        case "large_straight":
            return 20 if sorted(faces) == [2, 3, 4, 5, 6] else 0
        case "full_house":
            return sum(faces) if sorted(counts.values()) == [2, 3] else 0
        case "chance":
            return sum(faces)
        case "yatzy":
            return 50 if len(counts) == 1 else 0
    raise AssertionError(box)


def yatzy_totals(turns) -> dict[str, int]:
    upper = sum(yatzy_points(box, dice) for dice, box in turns if box in UPPER)
    lower = sum(yatzy_points(box, dice) for dice, box in turns if box not in UPPER)
    bonus = 50 if upper >= 63 else 0
    return {"upper": upper, "bonus": bonus, "lower": lower, "total": upper + bonus + lower}


# A whole card in card order, no zeros, 63 in the upper boxes: the bonus of 50.
SOLO = [
    ("11123", "ones"), ("22213", "twos"), ("33312", "threes"), ("44412", "fours"),
    ("55512", "fives"), ("66612", "sixes"), ("66123", "one_pair"), ("22333", "two_pairs"),
    ("44412", "three_of_a_kind"), ("55551", "four_of_a_kind"), ("12345", "small_straight"),
    ("23456", "large_straight"), ("22333", "full_house"), ("66554", "chance"), ("44444", "yatzy"),
]  # fmt: skip
# Another card for the forced game's second player, also without a zero.
BOB = [
    ("11456", "ones"), ("22223", "twos"), ("33336", "threes"), ("44441", "fours"),
    ("55566", "fives"), ("66665", "sixes"), ("55123", "one_pair"), ("66551", "two_pairs"),
    ("33312", "three_of_a_kind"), ("22224", "four_of_a_kind"), ("54321", "small_straight"),
    ("65432", "large_straight"), ("66555", "full_house"), ("12346", "chance"), ("66666", "yatzy"),
]  # fmt: skip


def start_game(
    page, names: list[str], game: str, *, forced: bool = False, bonus_at: int | None = None
) -> None:
    page.set_viewport_size(NARROW)
    page.goto(page.base + "/games/new/")
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_role("group", name="Game").get_by_role("radio", name=game, exact=True).check()
    if bonus_at is not None:
        page.get_by_label("Upper boxes needed for the bonus").fill(str(bonus_at))
    if forced:
        page.get_by_role("checkbox", name="Fill the boxes in order").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=re.compile(f"{names[0]}’s turn"))).to_be_visible()


def enter_dice(page, dice: str, *, tap: bool, count_word: str = "five") -> None:
    if tap:
        pad = page.get_by_role("group", name="Add a die")
        for face in dice:
            pad.get_by_role("button", name=face, exact=True).click()
    else:
        page.get_by_label(f"Dice, {count_word} digits").fill(dice)
        page.get_by_role("button", name="Show").click()
    expect(page.locator(".box-options")).to_be_visible()


def tap_box(page, label: str, points: int) -> None:
    page.get_by_role("button", name=f"{label}, {points} points", exact=True).click()


def standings_cells(page, name: str) -> list[str]:
    row = page.locator("#standings tbody tr", has=page.locator("th", has_text=name))
    return [cell.strip() for cell in row.locator("td").all_inner_texts()]


def test_the_new_game_form_shows_each_games_own_choices(phone):
    page = phone
    page.set_viewport_size(NARROW)
    page.goto(page.base + "/games/new/")
    joker = page.get_by_role("group", name="Extra-Yahtzee rule")
    yatzy_rules = page.get_by_role("group", name="Yatzy house rules", exact=True)
    maxi_rules = page.get_by_role("group", name="Maxi Yatzy house rules")
    game = page.get_by_role("group", name="Game")
    expect(game.get_by_role("radio", name="Yahtzee", exact=True)).to_be_checked()
    expect(joker).to_be_visible()
    expect(yatzy_rules).to_be_hidden()
    game.get_by_role("radio", name="Yatzy", exact=True).check()
    expect(joker).to_be_hidden()
    expect(page.get_by_role("group", name="Kind of Yahtzee game")).to_be_hidden()
    expect(yatzy_rules).to_be_visible()
    expect(yatzy_rules.get_by_role("checkbox").first).not_to_be_checked()
    game.get_by_role("radio", name="Maxi Yatzy", exact=True).check()
    expect(maxi_rules).to_be_visible()
    expect(yatzy_rules).to_be_hidden()
    expect(maxi_rules.get_by_label("Upper boxes needed for the bonus")).to_have_value("84")
    expect(maxi_rules.get_by_label("Bonus points")).to_have_value("100")
    expect(page.get_by_role("checkbox", name="Fill the boxes in order")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    save_screenshot(page, "families-new-game-maxi")
    assert page.errors == []


def test_a_whole_one_player_yatzy_game_reaches_the_bonus(phone):
    page = phone
    start_game(page, ["Sol"], "Yatzy")
    expect(page.locator("h1")).to_contain_text("Yatzy")
    played = []
    for number, (dice, box) in enumerate(SOLO):
        enter_dice(page, dice, tap=number % 2 == 0)
        tap_box(page, LABELS[box], yatzy_points(box, dice))
        played.append((dice, box))
        totals = yatzy_totals(played)
        expect(page.locator("#standings tbody td.total")).to_have_text(str(totals["total"]))
        if number == 7:
            save_screenshot(page, "yatzy-solo-360")
    totals = yatzy_totals(SOLO)
    assert totals == {"upper": 63, "bonus": 50, "lower": 178, "total": 291}
    expect(page.locator("#turn-title")).to_have_text("Game over")
    cells = standings_cells(page, "Sol")
    assert cells[:4] == ["63", "50", "178", "291"]  # Up, Bon, Low, Total: no Yahtzee bonus
    sheet = page.locator("#boxes")
    expect(sheet.locator("tr", has_text="Grand total")).to_contain_text("291")
    expect(sheet.get_by_role("row", name=re.compile("^Bonus"))).to_contain_text("50")
    body = page.locator("body").inner_text()
    for word in ("Joker", "joker", "Triple", "Challenge", "extra Yahtzee"):
        assert word not in body
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    save_screenshot(page, "yatzy-solo-over-360")
    assert page.errors == []


def test_a_two_player_forced_yatzy_game_offers_only_the_next_box(phone):
    page = phone
    start_game(page, ["Ann", "Bob"], "Yatzy", forced=True)
    expect(page.locator("h1")).to_contain_text("boxes filled in order")
    played = {"Ann": [], "Bob": []}
    for number, turns in enumerate(zip(SOLO, BOB, strict=True)):
        for name, (dice, box) in zip(("Ann", "Bob"), turns, strict=True):
            expect(page.locator("#turn-title")).to_contain_text(f"{name}’s turn")
            enter_dice(page, dice, tap=number % 2 == 1)
            buttons = page.locator("button.box-option")
            expect(buttons.and_(page.locator(":enabled"))).to_have_count(1)
            if box != "yatzy":
                expect(page.locator("#why-not")).to_have_text(
                    f"The boxes are filled in order: {LABELS[box]} is next."
                )
                later = CARD_ORDER[CARD_ORDER.index(box) + 1]
                expect(page.locator(f'button.box-option[value="{later}"]')).to_be_disabled()
            tap_box(page, LABELS[box], yatzy_points(box, dice))
            played[name].append((dice, box))
            totals = yatzy_totals(played[name])
            expect(
                page.locator("#standings tbody tr", has_text=name).locator("td.total")
            ).to_have_text(str(totals["total"]))
            if number == 3 and name == "Bob":
                save_screenshot(page, "yatzy-forced-360")
    for name, turns in (("Ann", SOLO), ("Bob", BOB)):
        totals = yatzy_totals(turns)
        cells = standings_cells(page, name)
        assert cells[:4] == [str(totals[key]) for key in ("upper", "bonus", "lower", "total")]
    expect(page.locator("#turn-title")).to_have_text("Game over")
    assert page.errors == []


MAXI_TURNS = [
    ("666612", "Sixes", 24),
    ("333555", "Villa", 24),
    ("123456", "Full straight", 21),
    ("444444", "Maxi Yatzy", 100),
]


def test_a_maxi_yatzy_game_scores_six_dice_from_the_pad_and_the_typed_field(phone):
    page = phone
    start_game(page, ["Mia"], "Maxi Yatzy")
    expect(page.locator("h1")).to_contain_text("Maxi Yatzy")
    expect(page.get_by_text("No advice for Maxi Yatzy")).to_be_visible()
    expect(page.get_by_label("Advice")).to_have_count(0)
    total = 0
    for number, (dice, label, points) in enumerate(MAXI_TURNS):
        enter_dice(page, dice, tap=number % 2 == 0, count_word="six")
        if number == 0:
            save_screenshot(page, "maxi-pad-360")
        tap_box(page, label, points)
        total += points
        expect(page.locator("#standings tbody td.total")).to_have_text(str(total))
    expect(page.locator("#turn-title")).to_contain_text("5 of 20")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    save_screenshot(page, "maxi-360")
    assert page.errors == []


def test_the_pace_of_a_maxi_game_counts_toward_the_tables_own_bonus_threshold(phone):
    """Found by a new user: with the bonus at 90, four of each face showed Pace 0 ("on
    pace") though the 84 they make had lost the bonus, and the legend spoke of the 84."""
    page = phone
    start_game(page, ["Mia"], "Maxi Yatzy", bonus_at=90)
    page.get_by_text("What the columns mean").click()
    legend = page.locator(".standings-legend dl")
    expect(legend).to_contain_text("their share of the 90 of the bonus")
    expect(legend).not_to_contain_text("84")
    paces = []
    for face, label in enumerate(["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes"], 1):
        enter_dice(page, f"{face}" * 4 + ("12" if face > 2 else "34"), tap=True, count_word="six")
        tap_box(page, label, 4 * face)
        expect(page.locator("#turn-title")).to_contain_text(f"{face + 1} of 20")
        paces.append(standings_cells(page, "Mia")[-1])
    # Each face's share of 90 is 90/21 of it: 4.3, 8.6, 12.9, ... (rounded when added up).
    assert paces == ["0", "−1", "−2", "−3", "−4", "−6"]
    up, bonus = standings_cells(page, "Mia")[:2]
    assert (up, bonus) == ("84", "0")
    assert page.errors == []


def test_a_maxi_bonus_the_upper_boxes_can_never_reach_is_refused_on_the_form(phone):
    """Found by a new user: Maxi Yatzy with its bonus at 200 started, the bonus blank "while
    it may still come" to the end (six of each face make 126)."""
    from scorecard.models import Game

    page = phone
    page.set_viewport_size(NARROW)
    page.goto(page.base + "/games/new/")
    page.get_by_label("Player 1", exact=True).fill("Mia")
    page.get_by_role("group", name="Game").get_by_role("radio", name="Maxi Yatzy").check()
    page.get_by_label("Upper boxes needed for the bonus").fill("200")
    page.get_by_role("button", name="Start the game").click()
    expect(
        page.get_by_text("The upper boxes hold at most 126: a bonus at 200 could never be won.")
    ).to_be_visible()
    assert not Game.objects.exists()
    page.get_by_label("Upper boxes needed for the bonus").fill("126")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=re.compile("Mia’s turn"))).to_be_visible()
    assert Game.objects.get().bonus_threshold == 126
    assert [error for error in page.errors if "status of 400" not in error] == []


def test_names_written_with_joined_emoji_or_persian_start_a_game(phone):
    """Typed into the form: a zero-width joiner is how 👩‍💻 is written, a non-joiner how
    Persian writes نیما‌رضا; both were refused as "control characters" (found by a new user)."""
    names = ["👩\u200d💻 Ann", "نیما\u200cرضا"]
    start_game(phone, names, "Yahtzee")
    expect(phone.locator("#standings tbody th").first).to_have_text(names[0])
    assert phone.errors == []
