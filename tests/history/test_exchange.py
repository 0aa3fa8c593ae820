"""The export format: a round trip, and every fault refused whole."""

import csv
import io
import json
import re

import pytest
from django.db.models import F

from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.history import exchange
from scorecard.models import Entry, Game, Household, Player
from tests.factories import SOLO_GAME, GameFactory, play, play_on
from tests.helpers import finished_game, good_document


def test_export_then_import_reproduces_every_game_exactly(client_of, household):
    finished_game(household)
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.CHALLENGE)
    play(game, SOLO_GAME[:3])
    Entry.objects.filter(game=game, turn=2).update(corrected=F("created"))

    services.undo_last_entry(game=game, version=3)
    play(game, [SOLO_GAME[5]])
    digital = services.game_create(owner=household, names=["Dee"], digital=True)
    services.roll_dice(game=digital, version=0, turn=1)
    services.roll_dice(game=digital, version=1, turn=1, hold=[1, 2])
    services.record_box(game=digital, version=2, turn=1, box=Box.CHANCE)
    before = exchange.export_games(Game.objects.all())
    assert len(before["games"]) == 3 and len(before["games"][2]["rolls"]) == 2
    assert before["games"][1]["undone"][0]["box"] == SOLO_GAME[2][0].key
    Game.objects.all().delete()
    Player.objects.all().delete()
    Household.objects.all().delete()
    services.games_import(games=exchange.read_games(json.loads(json.dumps(before))))
    after = exchange.export_games(Game.objects.all())
    assert after == before


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d.update(format="other"), "This file is not an export of this score card’s"),
        (lambda d: d.update(version=99), "another version of the score card: only version 1 "),
        (
            lambda d: d["games"][0].update(mode="speed"),
            "Game 1, ‘mode’: unknown mode. (in the file: games[0].mode)",
        ),
        (lambda d: d["games"][0]["entries"][0].update(box="sevens"), "no box called ‘sevens’"),
        (lambda d: d["games"][0]["entries"][0].update(points=4), "Game 1, Ann’s card: Ones: "),
        (lambda d: d["games"][0]["entries"][3].update(turn=9), "turns run 1, 2, 3 and so on."),
        (lambda d: d["games"][0]["entries"][0].update(dice="7"), "A die shows 1 to 6; got 7."),
        (lambda d: d["games"][0].update(players=[]), "a game has 1 to 8 players"),
        (lambda d: d["games"].append(dict(d["games"][0])), "the same game appears twice"),
        (lambda d: d["games"][0].update(created="yesterday"), "not an ISO 8601 time"),
        (lambda d: d["games"][0].pop("entries"), "'entries' is missing"),
    ],
)
def test_a_bad_import_is_refused_whole(household, spoil, message):
    document = good_document(household)
    finished_game(household, names=("Other",))
    spoil(document)
    with pytest.raises(services.Refusal, match=re.escape(message)):
        services.games_import(games=exchange.read_games(document))
    assert Game.objects.count() == 1


def test_a_bad_box_on_a_triple_card_is_refused_by_the_card_s_multiplier(household):
    game = services.game_create(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    for turn, card in ((1, 1), (2, 2)):
        services.record_box(
            game=game, version=turn - 1, turn=turn, box=Box.ONES, card=card, dice=(1, 1, 1, 2, 3)
        )
    document = exchange.export_games(Game.objects.all())
    Game.objects.all().delete()
    second = document["games"][0]["entries"][1]
    assert second["card"] == 2
    second["points"] = 4
    with pytest.raises(services.Refusal, match="Game 1, Ann’s card ×2: Ones: "):
        services.games_import(games=exchange.read_games(document))


def test_importing_a_game_twice_skips_it_the_second_time(household):
    finished_game(household)
    document = exchange.export_games(Game.objects.all())
    done = services.games_import(games=exchange.read_games(document))
    assert done == services.Imported(written=0, already_here=1)
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda g: g.update(id="a/b"), "Game 1, ‘id’: not a game id. (in the file: games[0].id)"),
        (lambda g: g.update(version=-1), "Game 1, ‘version’: expected a whole number from 0 to"),
        (lambda g: g.update(version=10**20), "Game 1, ‘version’: expected a whole number from"),
        (
            lambda g: g.pop("created"),
            "Game 1, ‘created’: a time is needed. (in the file: games[0].created)",
        ),
        (lambda g: g["players"][1].update(name="ann"), "the same name"),
        (lambda g: g["players"][0].update(name="A\x00n"), "not control characters"),
        (
            lambda g: [player.update(name=" ") for player in g["players"]],
            "Game 1, ‘players’: a name is empty. (in the file: games[0].players)",
        ),
        (lambda g: g["players"][1].update(name=""), "Game 1, ‘players’: a name is empty."),
        (lambda g: g.update(undone=None), "Game 1, ‘undone’: expected a list. (in the file: games"),
        (lambda g: g.update(undone=5), "Game 1, ‘undone’: expected a list."),
        (
            lambda g: g["entries"][0].update(points=10**20),
            "Game 1, round 1, Ann’s turn, ‘points’: expected a whole number from 0 to",
        ),
        (
            lambda g: g["entries"][0].update(created=None),
            "Game 1, round 1, Ann’s turn, ‘created’: a time",
        ),
        (
            lambda g: g.update(imported_from="a/b"),
            "Game 1, ‘imported_from’: not a game id. (in the file: games[0].imported_from)",
        ),
        (
            lambda g: g["entries"].pop(),
            "Game 1, ‘finished’: the game is marked finished, but not every turn was played. (in "
            "the file: games[0].finished)",
        ),
        (
            lambda g: g.update(finished=None),
            "Game 1, ‘finished’: every turn was played, but the game has no finish time.",
        ),
    ],
)
def test_every_field_is_checked_before_anything_is_written(household, spoil, message):
    document = good_document(household)
    spoil(document["games"][0])
    with pytest.raises(exchange.ImportRefused, match=re.escape(message)):
        exchange.read_games(document)
    assert not Game.objects.exists()


def test_undone_entries_and_rolls_are_checked_too(household):
    document = good_document(household)
    game = document["games"][0]
    when = game["created"]
    undone = {"turn": 1, "seat": 0, "card": 1, "box": "ones", "points": -5, "dice": "",
              "yahtzee_bonus": False, "recorded": when, "undone": when}  # fmt: skip
    game["undone"] = [undone]
    with pytest.raises(exchange.ImportRefused, match="cannot hold that"):
        exchange.read_games(document)
    game["undone"] = [dict(undone, points=3, dice="1111111")]
    with pytest.raises(exchange.ImportRefused, match="A roll is five dice"):
        exchange.read_games(document)
    game["undone"] = []
    roll = {"turn": 1, "number": 1, "dice": "12345", "held": "00000", "created": game["created"]}
    game["rolls"] = [roll, dict(roll)]
    with pytest.raises(exchange.ImportRefused, match="the same roll appears twice"):
        exchange.read_games(document)
    game["rolls"] = [dict(roll, turn=-1)]
    turn_from_1 = re.escape("Game 1, roll 1, ‘turn’: expected a whole number from 1 to")
    with pytest.raises(exchange.ImportRefused, match=turn_from_1):
        exchange.read_games(document)


def test_a_fault_in_a_turn_is_said_by_its_round_and_player_then_as_the_file_s_path(household):
    """Found by a new user: "games[0].entries[0].points: expected a whole number…" named a
    place only a program finds; a person looks for the game, the round and the player."""
    document = good_document(household)
    document["games"][0]["entries"][3].update(points=-1)
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.read_games(document)
    assert str(refused.value) == (
        "Game 1, round 2, Bob’s turn, ‘points’: expected a whole number from 0 to 10. "
        "(in the file: games[0].entries[3].points)"
    )


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (
            {"created": "2099-01-01T00:00:00+00:00"},
            "Game 1, ‘created’: this time is still to come.",
        ),
        ({"finished": "2001-01-01T00:00:00+00:00"}, "Game 1, ‘finished’: before the game began."),
        ({"created": "0001-01-01T00:00:00+00:00"}, "‘created’: a time before the year 2000."),
        ({"entry": "0001-01-01T00:30:00+01:00"}, "Ann’s turn, ‘created’: a time before the year"),
        ({"finished": "2099-01-01T00:00:00+00:00"}, "‘finished’: this time is still to come."),
        ({"entry": "2001-01-01T00:00:00+00:00"}, "round 1, Ann’s turn, ‘created’: before the game"),
        ({"entry": "2099-01-01T00:00:00+00:00"}, "round 1, Ann’s turn, ‘created’: after the game"),
        (
            {"corrected": "2001-01-01T00:00:00+00:00"},
            "round 1, Ann’s turn, ‘corrected’: before the box was filled.",
        ),
        ({"corrected": "2099-01-01T00:00:00+00:00"}, "Ann’s turn, ‘corrected’: this time is still"),
    ],
)
def test_a_game_s_times_are_refused_out_of_the_order_play_makes_them(household, spoil, message):
    """Found by a new user: a game "of 1 Jan 2099", finished in 1999, was imported and
    listed first of all; so was a turn of 1970. A time of the year 1 was a 500 (a fuzzer)."""
    document = good_document(household)
    game = document["games"][0]
    if "entry" in spoil:
        game["entries"][0]["created"] = spoil.pop("entry")
    if "corrected" in spoil:  # found by a helper: a box corrected years before it was filled
        game["entries"][0]["corrected"] = spoil.pop("corrected")
    game.update(spoil)
    with pytest.raises(exchange.ImportRefused, match=re.escape(message)):
        exchange.read_games(document)


@pytest.mark.parametrize(
    ("field", "spoil"),
    [
        ("joker", lambda g, name: g.update(joker=name)),
        ("family", lambda g, name: g.update(family=name)),
        ("switches", lambda g, name: g.update(switches=[name])),
        ("entries[0]", lambda g, name: g["entries"][0].update(box=name)),
    ],
)
def test_a_refusal_quotes_a_long_name_from_the_file_cut_short(household, field, spoil):
    """Found by a helper: a joker rule named with 100,000 letters came back whole in the
    message, screens of it above the import form."""
    document = good_document(household)
    spoil(document["games"][0], "x" * 100_000)
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.read_games(document)
    message = str(refused.value)
    assert f"‘{'x' * 39}…’" in message
    assert len(message) < 200
    assert f"games[0].{field}" in message


@pytest.mark.parametrize("untidy", [" {}", "{}\n", "1,{}", "fullwidth"])
def test_a_files_dice_are_digits_as_the_database_keeps_them(household, untidy):
    """Found by a fuzzer: " 12345", "１２３４５" or "1,2,3,4,5" passed the import's check and
    failed the database's (a 500), and "12345\n" was kept as sent."""
    document = good_document(household)
    entry = document["games"][0]["entries"][0]
    digits = entry["dice"]
    fullwidth = "".join(chr(ord(digit) + 0xFEE0) for digit in digits)
    entry["dice"] = (
        fullwidth
        if untidy == "fullwidth"
        else untidy.format(digits[1:] if "," in untidy else digits)
    )
    with pytest.raises(exchange.ImportRefused, match=re.escape("‘dice’: 5 faces from 1 to 6.")):
        exchange.read_games(document)


def test_an_upload_holds_a_bounded_number_of_games_and_a_restore_any(household):
    document = good_document(household)
    with pytest.raises(exchange.ImportRefused, match="at most 0 games a file"):
        exchange.read_games(document, max_games=0)
    assert len(exchange.read_games(document, max_games=None)) == 1
    assert exchange.MAX_GAMES == 1000


def test_an_upload_of_another_households_game_gets_a_new_id_and_reveals_nothing(household):
    document = good_document(household)
    services.games_import(games=exchange.read_games(document))  # back in its own household
    stranger = Household.objects.create()
    done = services.games_import(games=exchange.read_games(document), owner=stranger)
    theirs = Game.objects.get(owner=stranger)
    assert done.written == 1 and theirs.public_id != document["games"][0]["id"]
    assert Game.objects.filter(public_id=document["games"][0]["id"]).count() == 1


def test_csv_cells_that_look_like_formulas_are_kept_as_text(household):
    for name in ("=SUM(A1)", "+1", "-2", "@cmd"):
        finished_game(household, names=(name,))
    lines = "".join(exchange.export_csv(Game.objects.all())).splitlines()
    names = {line.split(",")[6] for line in lines[1:]}
    assert names == {"'=SUM(A1)", "'+1", "'-2", "'@cmd"}


def test_parsing_stops_once_a_file_holds_more_objects_than_any_export():
    spam = "[" + ",".join(["{}"] * 101) + "]"
    with pytest.raises(exchange.ImportRefused, match="more than 100 objects"):
        exchange.parse_document(spam, max_objects=100)
    assert exchange.parse_document(spam, max_objects=None) == [{}] * 101
    with pytest.raises(exchange.ImportRefused, match="more than 1,000,000 objects"):
        exchange.parse_document("[" + ",".join(["{}"] * 1_000_001) + "]")


def test_no_csv_cell_starts_like_a_formula_not_even_a_game_id(household):
    """An imported game may have any id of the export's alphabet, e.g. one starting with -."""
    game = finished_game(household, names=("@Ann",))
    Game.objects.filter(pk=game.pk).update(public_id="-1-1")
    rows = list(csv.reader(io.StringIO("".join(exchange.export_csv(Game.objects.all())))))
    cells = [cell for row in rows[1:] for cell in row]
    assert not [cell for cell in cells if cell.startswith(exchange.FORMULA_STARTS)]
    assert {row[0] for row in rows[1:]} == {"'-1-1"} and {row[6] for row in rows[1:]} == {"'@Ann"}


def family_game(household, family: str, turns, *, switches="", forced=False, rolls=()):
    """A game of another family as its players left it: each (box key, dice) placed by the
    engine's rules for the player whose turn it was (the table's play is not under test)."""
    from scorecard.models import Roll

    game = GameFactory(owner=household, names=["Ann", "Bob"])
    Game.objects.filter(pk=game.pk).update(family=family, switches=switches, forced_order=forced)
    game.refresh_from_db()
    house = game.house_rules
    seats = list(game.seats.order_by("position"))
    filled: dict = {seat.pk: {} for seat in seats}
    for turn, (key, dice) in enumerate(turns, start=1):
        seat = seats[(turn - 1) % len(seats)]
        placed = house.place(filled[seat.pk], house.family.box(key), dice=dice)
        filled[seat.pk][placed.box] = placed.points
        Entry.objects.create(
            game=game, seat=seat, turn=turn, box=key, points=placed.points,
            dice="".join(map(str, dice)),
        )  # fmt: skip
    for turn, number, dice, held in rolls:
        Roll.objects.create(game=game, turn=turn, number=number, dice=dice, held=held)
    Game.objects.filter(pk=game.pk).update(version=len(turns))
    return game


YATZY_TURNS = [("ones", (1, 1, 1, 2, 3)), ("two_pairs", (2, 2, 3, 3, 3)), ("yatzy", (4,) * 5)]
MAXI_TURNS = [("villa", (2, 2, 2, 5, 5, 5)), ("full_straight", (1, 2, 3, 4, 5, 6))]


def test_a_yatzy_and_a_maxi_game_round_trip_with_their_rules(household):
    family_game(household, "yatzy", YATZY_TURNS, switches="four_alike_two_pairs", forced=False)
    family_game(
        household, "maxi", MAXI_TURNS, switches="saved_rolls",
        rolls=[(3, 1, "123456", "000000"), (3, 4, "111112", "111110")],
    )  # fmt: skip
    Game.objects.filter(family="maxi").update(bonus_threshold=80, bonus_points=50)
    before = exchange.export_games(Game.objects.all())
    yatzy, maxi = before["games"]
    assert (yatzy["family"], yatzy["switches"]) == ("yatzy", ["four_alike_two_pairs"])
    assert (maxi["family"], maxi["bonus_threshold"], maxi["bonus_points"]) == ("maxi", 80, 50)
    assert [e["points"] for e in yatzy["entries"]] == [3, 10, 50]
    Game.objects.all().delete()
    Player.objects.all().delete()
    Household.objects.all().delete()
    services.games_import(games=exchange.read_games(json.loads(json.dumps(before))))
    assert exchange.export_games(Game.objects.all()) == before
    assert Game.objects.get(family="maxi").house_rules.saves_rolls


def test_a_file_from_before_rule_families_imports_as_yahtzee(household):
    document = good_document(household)
    for key in ("family", "switches", "forced_order", "bonus_threshold", "bonus_points"):
        del document["games"][0][key]
    services.games_import(games=exchange.read_games(document), owner=household)
    game = Game.objects.get()
    assert (game.family, game.switches, game.forced_order) == ("yahtzee", "", False)
    assert game.bonus_threshold is None and game.house_rules.family.name == "Yahtzee"


@pytest.mark.parametrize(
    ("family", "spoil", "message"),
    [
        ("yatzy", lambda g: g["entries"][1].update(dice="15555"), "Two pairs: those dice"),
        ("yatzy", lambda g: g["entries"][0].update(box="yahtzee"), "‘yahtzee’ on a Yatzy"),
        ("yatzy", lambda g: g["entries"][2].update(yahtzee_bonus=True), "Ann’s card: Yatzy: "),
        ("yatzy", lambda g: g.update(switches=["saved_rolls"]), "Yatzy has no house rule"),
        ("yatzy", lambda g: g.update(family="poker"), "There is no game called ‘poker’."),
        (
            "yatzy",
            lambda g: g.update(mode="triple"),
            "Game 1, ‘mode’: Yatzy has no such mode. (in the file: games[0].mode)",
        ),
        (
            "yatzy",
            lambda g: g.update(forced_order="yes"),
            "Game 1, ‘forced_order’: expected true or false",
        ),
        ("yatzy", lambda g: g.update(forced_order=True), "in order: Twos is next."),
        (
            "yatzy",
            lambda g: g.update(bonus_threshold=80),
            "Game 1, ‘bonus_points’: a bonus of the table’s own needs both ‘bonus_threshold’ "
            "and ‘bonus_points’, or neither.",
        ),
        (
            "maxi",
            lambda g: g.update(bonus_threshold=None, bonus_points=50),
            "Game 1, ‘bonus_threshold’: a bonus of the table’s own needs both",
        ),
        (
            "maxi",
            lambda g: g.update(bonus_threshold=80, bonus_points="50"),
            "Game 1, ‘bonus_points’: expected a whole number.",
        ),
        (
            "yatzy",
            lambda g: g.update(bonus_threshold=1, bonus_points=1000),
            "Yatzy has no upper bonus of the table’s own.",
        ),
        ("yatzy", lambda g: g.update(family=None), "Game 1, ‘family’: expected text."),
        ("yatzy", lambda g: g.update(switches=[1]), "expected a list of house rules’ names."),
        (
            "maxi",
            lambda g: g.update(bonus_threshold=127, bonus_points=50),
            "at most 126: a bonus at 127 could never be won.",
        ),
        (  # found by a helper: a bonus at 0 was said to be one "never won"
            "maxi",
            lambda g: g.update(bonus_threshold=0, bonus_points=100),
            "A bonus at 0 would go to every card: its threshold is at least 1.",
        ),
        (
            "maxi",
            lambda g: g.update(bonus_threshold=80, bonus_points=501),
            "A bonus is worth 0 to 500 points.",
        ),
        ("maxi", lambda g: g["entries"][0].update(dice="22255"), "A roll is six dice; got 5."),
        ("maxi", lambda g: g["entries"][1].update(points=20), "Full straight: "),
    ],
)  # fmt: skip
def test_a_file_whose_entries_break_its_familys_rules_is_refused(household, family, spoil, message):
    family_game(household, family, YATZY_TURNS if family == "yatzy" else MAXI_TURNS)
    document = exchange.export_games(Game.objects.all())
    Game.objects.all().delete()
    spoil(document["games"][0])
    with pytest.raises(services.Refusal, match=re.escape(message)):
        exchange.read_games(document)
    assert not Game.objects.exists()


def test_the_csv_says_each_rows_game_family(household):
    family_game(household, "yatzy", YATZY_TURNS)
    rows = list(csv.DictReader(io.StringIO("".join(exchange.export_csv(Game.objects.all())))))
    assert [(row["family"], row["box"]) for row in rows] == [
        ("yatzy", "ones"), ("yatzy", "two_pairs"), ("yatzy", "yatzy")
    ]  # fmt: skip


def test_the_csv_leaves_the_rolls_used_blank_where_nobody_counted_them(household):
    """Found by a new user: every turn of a game with real dice said it took three rolls,
    a number nobody was asked for."""
    family_game(household, "yatzy", YATZY_TURNS)
    family_game(household, "maxi", MAXI_TURNS, switches="saved_rolls")
    play_on(services.game_create(owner=household, names=["Dee"], digital=True), turns=1)
    rows = list(csv.DictReader(io.StringIO("".join(exchange.export_csv(Game.objects.all())))))
    used = {(row["family"], row["digital"], row["rolls_used"]) for row in rows}
    assert used == {("yatzy", "False", ""), ("maxi", "False", "3"), ("yahtzee", "True", "1")}


def test_a_solo_games_entry_for_another_seat_is_refused_in_plain_words(household):
    """Found by a tester: "expected a whole number from 0 to 0"."""
    play(GameFactory(owner=household, names=["Ann"]), SOLO_GAME)
    document = exchange.export_games(Game.objects.all())
    Game.objects.all().delete()
    document["games"][0]["entries"][0]["seat"] = 1
    with pytest.raises(services.Refusal, match=r"‘seat’: expected 0\. \(in the file"):
        exchange.read_games(document)
