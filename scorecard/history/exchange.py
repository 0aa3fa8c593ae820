"""Export and import of games: JSON that round-trips exactly, and CSV for spreadsheets.

The JSON format (version 1), one object:

    {"format": "yahtzee-scorecard/games", "version": 1, "games": [GAME, ...]}

    GAME = {"id", "household", "mode", "joker", "digital", "version", "created", "finished",
            "family", "switches", "forced_order", "bonus_threshold", "bonus_points",
            "players": [{"id", "name"}, ...],          # in seating order
            "entries": [{"turn", "seat", "card", "box", "points", "dice", "yahtzee_bonus",
                         "rolls_used", "created", "corrected"}, ...],  # seat: into players
            "rolls": [{"turn", "number", "dice", "held", "created"}, ...],
            "undone": [{"turn", "seat", "card", "box", "points", "dice", "yahtzee_bonus",
                        "rolls_used", "recorded", "undone"}, ...]}  # taken back with undo

The rules the table played: `family` ("yahtzee", "yatzy" or "maxi"), its house `switches`
(a list of keys), `forced_order`, and a house upper bonus (`bonus_threshold` and
`bonus_points`, both null for the family's own). A file from before rule families has none
of them and imports as Yahtzee. Rolls hold as many dice as the family rolls. `rolls_used`
is how many rolls the turn used (Maxi Yatzy's saved rolls are counted from it); a file from
before it was kept has none, and each turn counts as a whole turn (3), which saves nothing.

Times are ISO 8601 with their offset; `finished` and `corrected` may be null. This module
is the format only: it serialises games and reads a file back into checked game data, every
field and every card checked with the rules engine. `services.games_import` writes them.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from scorecard.engine import families, rules
from scorecard.game.services import MAX_PLAYERS, Refusal, clean_names
from scorecard.models import ENTRY_FIELDS, Entry, Game, Roll, Seat, UndoneEntry

FORMAT = "yahtzee-scorecard/games"
VERSION = 1
MAX_IMPORT_BYTES = 20 * 1024 * 1024
MAX_GAMES = 1000  # an upload holds at most this many games, so it ends well within a request
MAX_VERSION = 10**6
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what models.new_public_id makes
CSV_COLUMNS = [
    "game", "game_created", "mode", "joker", "digital", "turn", "player", "card", "box",
    "points", "dice", "yahtzee_bonus", "created", "family", "rolls_used",
]  # fmt: skip


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


EXPORT_BATCH = 200  # games read at a time, so an export's memory does not grow with it


def export_games(games) -> dict:
    """Games as the JSON document above (for a few games; files use `export_json`)."""
    games_data = [game for batch in _batches(games) for game in batch]
    return {"format": FORMAT, "version": VERSION, "games": games_data}


def export_json(games) -> Iterator[str]:
    """The same document as text, a batch of games at a time, for files and downloads."""
    yield json.dumps({"format": FORMAT, "version": VERSION})[:-1] + ', "games": ['
    separator = "\n"
    for batch in _batches(games):
        for game in batch:
            yield separator + json.dumps(game, ensure_ascii=False)
            separator = ",\n"
    yield "\n]}\n"


def _batches(games) -> Iterator[list[dict]]:
    """The games' data in batches, in the order they were stored, five queries a batch."""
    games = games.select_related("owner").order_by("pk")
    last = 0
    while batch := list(games.filter(pk__gt=last)[:EXPORT_BATCH]):
        yield _batch_data(batch)
        last = batch[-1].pk


def _batch_data(games: list[Game]) -> list[dict]:
    """Rows as plain dicts (no model instances: an export reads hundreds of thousands)."""
    ids = [game.pk for game in games]
    seats, entries, rolls = defaultdict(list), defaultdict(list), defaultdict(list)
    undone = defaultdict(list)
    seat_rows = Seat.objects.filter(game_id__in=ids).order_by("game_id", "position")
    for seat in seat_rows.values("pk", "game_id", "player__public_id", "player__name"):
        seats[seat["game_id"]].append(seat)
    entry_rows = Entry.objects.filter(game_id__in=ids).order_by("game_id", "turn")
    for entry in entry_rows.values("game_id", "seat_id", *ENTRY_FIELDS, "created", "corrected"):
        entries[entry["game_id"]].append(entry)
    roll_rows = Roll.objects.filter(game_id__in=ids).order_by("game_id", "turn", "number")
    for roll in roll_rows.values("game_id", "turn", "number", "dice", "held", "created"):
        rolls[roll["game_id"]].append(roll)
    undone_rows = UndoneEntry.objects.filter(game_id__in=ids).order_by("undone", "pk")
    undone_columns = ("game_id", "seat_id", *ENTRY_FIELDS, "recorded", "undone")
    for taken_back in undone_rows.values(*undone_columns):
        undone[taken_back["game_id"]].append(taken_back)
    return [_game_data(g, seats[g.pk], entries[g.pk], rolls[g.pk], undone[g.pk]) for g in games]


def _game_data(game: Game, seats, entries, rolls, undone) -> dict:
    seat_index = {seat["pk"]: index for index, seat in enumerate(seats)}
    players = [{"id": seat["player__public_id"], "name": seat["player__name"]} for seat in seats]
    return {
        "id": game.public_id,
        "household": game.owner.public_id,
        "mode": game.mode,
        "joker": game.joker,
        "digital": game.digital,
        "version": game.version,
        "created": _time(game.created),
        "finished": _time(game.finished),
        "family": game.family,
        "switches": [key for key in game.switches.split(",") if key],
        "forced_order": game.forced_order,
        "bonus_threshold": game.bonus_threshold,
        "bonus_points": game.bonus_points,
        "players": players,
        "entries": [
            {"turn": e["turn"], "seat": seat_index[e["seat_id"]]}
            | {key: e[key] for key in ENTRY_FIELDS if key != "turn"}
            | {"created": _time(e["created"]), "corrected": _time(e["corrected"])}
            for e in entries
        ],
        "rolls": [
            {key: r[key] for key in ("turn", "number", "dice", "held")}
            | {"created": _time(r["created"])}
            for r in rolls
        ],
        "undone": [
            {key: u[key] for key in ENTRY_FIELDS}
            | {"seat": seat_index[u["seat_id"]], "recorded": _time(u["recorded"])}
            | {"undone": _time(u["undone"])}
            for u in undone
        ],
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading quote."""
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def export_csv(games) -> Iterator[str]:
    """One row a filled box, a batch of games at a time. Every cell goes through
    `spreadsheet_safe`, not only the names: an imported game's id may start with `-`."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for batch in _batches(games):
        for game in batch:
            for entry in game["entries"]:
                row = [
                    game["id"], game["created"], game["mode"], game["joker"], game["digital"],
                    entry["turn"], game["players"][entry["seat"]]["name"], entry["card"],
                    entry["box"], entry["points"], entry["dice"], entry["yahtzee_bonus"],
                    entry["created"], game["family"], entry["rolls_used"],
                ]  # fmt: skip
                writer.writerow([spreadsheet_safe(cell) for cell in row])
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


# --- Import -------------------------------------------------------------------------------------


class ImportRefused(Refusal):
    """The file is not a good export; nothing was imported."""


def _need(condition: bool, where: str, message: str) -> None:
    if not condition:
        raise ImportRefused(f"{where}: {message}")


def _field(data: dict, key: str, kind, where: str):
    _need(isinstance(data, dict) and key in data, where, f"'{key}' is missing.")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    _need(ok, f"{where}.{key}", f"expected {' or '.join(k.__name__ for k in kinds)}.")
    return value


def _parse_time(value, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ImportRefused(f"{where}: not an ISO 8601 time.") from None
    _need(parsed.tzinfo is not None, where, "a time needs its offset.")
    return parsed


MAX_OBJECTS = 1_000_000  # far more than 2,000 games hold; bounds what parsing may build


class _TooManyObjects(Exception):
    pass


def parse_document(text: str | bytes, *, max_objects: int | None = MAX_OBJECTS) -> dict:
    """The JSON of an export. Parsing stops at the millionth object, so an upload of a
    million empty objects costs no more memory than a real one; the command line, restoring
    a backup of any size, passes `max_objects=None`."""
    made = 0
    limit = max_objects

    def counted(pairs):
        nonlocal made
        made += 1
        if limit is not None and made > limit:
            raise _TooManyObjects
        return dict(pairs)

    try:
        return json.loads(text, object_pairs_hook=counted)
    except _TooManyObjects:
        raise ImportRefused(f"file: more than {limit:,} objects; not an export.") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ImportRefused(f"This is not JSON: {error}.") from None
    except RecursionError:
        raise ImportRefused("This JSON is nested too deeply to be an export.") from None


def _check_document(document) -> list:
    _need(isinstance(document, dict), "file", "expected a JSON object.")
    _need(document.get("format") == FORMAT, "file", f"the format is not {FORMAT!r}.")
    _need(document.get("version") == VERSION, "file", f"only version {VERSION} is understood.")
    return _field(document, "games", list, "file")


def _check_game(data, where: str) -> dict:
    """A game's data, checked field by field and card by card with the rules; the times
    come back parsed."""
    _need(isinstance(data, dict), where, "expected an object.")
    public_id = _field(data, "id", str, where)
    _need(PUBLIC_ID.fullmatch(public_id) is not None, f"{where}.id", "not a game id.")
    _need(_field(data, "mode", str, where) in Game.Mode.values, f"{where}.mode", "unknown mode.")
    try:
        joker = rules.JokerRule.from_key(_field(data, "joker", str, where))
    except rules.RuleViolation as error:
        raise ImportRefused(f"{where}.joker: {error}") from None
    _field(data, "digital", bool, where)
    version = _field(data, "version", int, where)
    _need(0 <= version <= MAX_VERSION, f"{where}.version", f"0 to {MAX_VERSION}.")
    _need(isinstance(data.get("household"), str), f"{where}.household", "expected str.")
    _need(PUBLIC_ID.fullmatch(data["household"]) is not None, f"{where}.household", "not an id.")
    players = _check_players(data, where)
    house = _check_house_rules(data, where)
    cards = rules.cards_per_player(triple=data["mode"] == Game.Mode.TRIPLE)
    checked = dict(data, players=players, joker=joker.key) | _house_fields(house)
    checked["entries"] = _check_entries(data, where, players, cards, joker, house)
    checked["rolls"] = _check_rolls(data, where, house)
    checked["undone"] = _check_undone(data, where, players, cards, house)
    checked["created"] = _required_time(data, "created", where)
    checked["finished"] = _parse_time(data.get("finished"), f"{where}.finished")
    return checked


MAX_HOUSE_BONUS = 1000  # far above any printed rule; keeps a typo from reaching the database


def _check_house_rules(data: dict, where: str) -> rules.HouseRules[Any]:
    """The rules a game's file names, checked by the engine; a file without them (written
    before rule families) is a Yahtzee game."""
    try:
        family: families.Family[Any] = families.family_named(data.get("family", "yahtzee"))
        switches = data.get("switches", [])
        _need(isinstance(switches, list), f"{where}.switches", "expected list.")
        chosen = frozenset(families.Switch.from_key(key) for key in switches)
        forced = data.get("forced_order", False)
        _need(isinstance(forced, bool), f"{where}.forced_order", "expected true or false.")
        house = rules.HouseRules(family, chosen, _house_bonus(data, where), forced)
    except families.RuleViolation as error:
        raise ImportRefused(f"{where}: {error}") from None
    if not family.has_jokers:  # Triple and Challenge are Yahtzee games
        _need(data["mode"] == Game.Mode.STANDARD, f"{where}.mode", f"not a {family.name} mode.")
    return house


def _house_bonus(data: dict, where: str) -> families.UpperBonus | None:
    threshold, points = data.get("bonus_threshold"), data.get("bonus_points")
    if threshold is None and points is None:
        return None
    return families.UpperBonus(
        _whole(data, "bonus_threshold", where, 1, MAX_HOUSE_BONUS),
        _whole(data, "bonus_points", where, 1, MAX_HOUSE_BONUS),
    )


def _house_fields(house: rules.HouseRules[Any]) -> dict:
    """The game's fields for these rules, as `services.games_import` writes them."""
    bonus = house.house_bonus
    return {
        "family": house.family.key,
        "switches": ",".join(sorted(switch.key for switch in house.switches)),
        "forced_order": house.forced,
        "bonus_threshold": bonus.threshold if bonus else None,
        "bonus_points": bonus.points if bonus else None,
    }


def _required_time(data: dict, key: str, where: str) -> datetime:
    parsed = _parse_time(data.get(key), f"{where}.{key}")
    if parsed is None:
        raise ImportRefused(f"{where}.{key}: a time is needed.")
    return parsed


def _check_players(data: dict, where: str) -> list[dict]:
    players = _field(data, "players", list, where)
    _need(1 <= len(players) <= MAX_PLAYERS, f"{where}.players", "a game has 1 to 8 players.")
    names = [
        _field(player, "name", str, f"{where}.players[{i}]") for i, player in enumerate(players)
    ]
    try:
        names = clean_names(names)
    except Refusal as refusal:
        raise ImportRefused(f"{where}.players: {refusal}") from None
    _need(len(names) == len(players), f"{where}.players", "a name is empty.")
    ids = [player.get("id") for player in players]
    ids = [i if isinstance(i, str) and PUBLIC_ID.fullmatch(i) else None for i in ids]
    return [{"id": i, "name": name} for i, name in zip(ids, names, strict=True)]


def _whole(data: dict, key: str, where: str, low: int, high: int) -> int:
    value = _field(data, key, int, where)
    _need(low <= value <= high, f"{where}.{key}", f"{low} to {high}.")
    return value


def _box_and_dice(
    data: dict, where: str, house: rules.HouseRules[Any]
) -> tuple[Any, rules.Dice | None]:  # the family's own box type
    dice = _field(data, "dice", str, where)
    try:
        box = house.family.box(_field(data, "box", str, where))
        return box, house.family.parse_dice(dice) if dice else None
    except rules.RuleViolation as error:
        raise ImportRefused(f"{where}: {error}") from None


def _check_entries(
    data: dict, where: str, players: list, cards: int, joker, house: rules.HouseRules[Any]
) -> list[dict]:
    entries = _field(data, "entries", list, where)
    most = house.turns_per_player(cards) * len(players)
    _need(len(entries) <= most, f"{where}.entries", "more turns than boxes.")
    by_card = defaultdict(list)
    rolls_by_seat: defaultdict[int, list[int]] = defaultdict(list)
    checked = []
    for index, entry in enumerate(entries):
        at = f"{where}.entries[{index}]"
        _need(_field(entry, "turn", int, at) == index + 1, f"{at}.turn", "turns run 1, 2, 3...")
        seat = _whole(entry, "seat", at, 0, len(players) - 1)
        _need(seat == index % len(players), f"{at}.seat", "players take turns in order.")
        card = _whole(entry, "card", at, 1, cards)
        box, dice = _box_and_dice(entry, at, house)
        points = _whole(entry, "points", at, 0, house.max_points(box))
        bonus = rules.EXTRA_YAHTZEE_BONUS if _field(entry, "yahtzee_bonus", bool, at) else 0
        by_card[(seat, card)].append(rules.Entry(box, points, dice, bonus))
        rolls_by_seat[seat].append(_rolls_used(entry, at))
        checked.append(
            dict(entry, created=_required_time(entry, "created", at))
            | {"corrected": _parse_time(entry.get("corrected"), f"{at}.corrected")}
            | {"rolls_used": rolls_by_seat[seat][-1]}
        )
    for (seat, card), card_entries in by_card.items():
        try:
            house.check_card(card_entries, joker)
        except rules.RuleViolation as error:
            raise ImportRefused(
                f"{where}, {players[seat]['name']}'s card {card}: {error}"
            ) from None
    for seat, used in rolls_by_seat.items():
        try:
            house.saved_rolls(used)
        except rules.RuleViolation as error:
            raise ImportRefused(f"{where}, {players[seat]['name']}'s rolls: {error}") from None
    return checked


MOST_ROLLS_A_TURN = 1000  # far above any game's; keeps a typo from reaching the database


def _rolls_used(entry: dict, where: str) -> int:
    """How many rolls an entry's turn used; a file from before they were kept used three."""
    if "rolls_used" not in entry:
        return rules.ROLLS_PER_TURN
    return _whole(entry, "rolls_used", where, 1, MOST_ROLLS_A_TURN)


def _check_rolls(data: dict, where: str, house: rules.HouseRules[Any]) -> list[dict]:
    checked, seen = [], set()
    count = house.family.dice_count
    # Saved rolls let a turn go past its three rolls, up to every roll of the game.
    most = house.family.rolls_per_turn * (len(house.boxes) if house.saves_rolls else 1)
    for index, roll in enumerate(_field(data, "rolls", list, where)):
        at = f"{where}.rolls[{index}]"
        key = (_whole(roll, "turn", at, 1, MAX_VERSION), _whole(roll, "number", at, 1, most))
        _need(key not in seen, at, "the same roll appears twice.")
        seen.add(key)
        _need(re.fullmatch(f"[1-6]{{{count}}}", _field(roll, "dice", str, at)) is not None,
              f"{at}.dice", f"{count} faces from 1 to 6.")  # fmt: skip
        _need(re.fullmatch(f"[01]{{{count}}}", _field(roll, "held", str, at)) is not None,
              f"{at}.held", f"{count} 0s and 1s.")  # fmt: skip
        checked.append(dict(roll, created=_required_time(roll, "created", at)))
    return checked


def _check_undone(
    data: dict, where: str, players: list, cards: int, house: rules.HouseRules[Any]
) -> list[dict]:
    undone = data.get("undone", [])
    _need(isinstance(undone, list), f"{where}.undone", "expected list.")
    checked = []
    for index, taken_back in enumerate(undone):
        at = f"{where}.undone[{index}]"
        _whole(taken_back, "seat", at, 0, len(players) - 1)
        _whole(taken_back, "turn", at, 1, MAX_VERSION)
        _whole(taken_back, "card", at, 1, cards)
        box, _ = _box_and_dice(taken_back, at, house)
        _need(_field(taken_back, "points", int, at) in house.achievable_points(box),
              f"{at}.points", f"{box.label} cannot hold that.")  # fmt: skip
        _field(taken_back, "yahtzee_bonus", bool, at)
        times = {key: _required_time(taken_back, key, at) for key in ("recorded", "undone")}
        checked.append(dict(taken_back, **times, rolls_used=_rolls_used(taken_back, at)))
    return checked


def read_games(document, *, max_games: int | None = MAX_GAMES) -> list[dict]:
    """Every game of an export, each field and card checked; `ImportRefused` names the
    first fault. Nothing here writes. `max_games=None` (a restore from the command line)
    takes a file of any size."""
    games = _check_document(document)
    if max_games is not None:
        _need(len(games) <= max_games, "file", f"at most {max_games:,} games a file; split it.")
    games = [_check_game(game, f"games[{index}]") for index, game in enumerate(games)]
    ids = [game["id"] for game in games]
    _need(len(set(ids)) == len(ids), "file", "the same game appears twice.")
    return games
