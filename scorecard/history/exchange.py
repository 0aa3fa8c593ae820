"""Export and import of games: JSON that round-trips exactly, and CSV for spreadsheets.

The JSON format (version 1), one object:

    {"format": "yahtzee-scorecard/games", "version": 1, "games": [GAME, ...]}

    GAME = {"id", "household", "mode", "joker", "digital", "version", "created", "finished",
            "imported_from", "family", "switches", "forced_order", "bonus_threshold",
            "bonus_points",
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

`imported_from` is the id a game had in the file it was imported from, when another
household held that id (the copy got one of its own); null otherwise, or absent (a file from
before it was kept). A game is `finished` exactly when every turn was played.

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
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext

from scorecard.engine import families, rules
from scorecard.game.progress import round_of
from scorecard.game.services import MAX_PLAYERS, Refusal, clean_names
from scorecard.models import ENTRY_FIELDS, Entry, Game, Roll, Seat, UndoneEntry
from scorecard.presenters.box_names import box_name, family_name
from scorecard.presenters.rule_words import said

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


def too_large_reason() -> str:
    """Why a file larger than an import takes is refused."""
    megabytes = MAX_IMPORT_BYTES // (1024 * 1024)
    return _("The file is larger than %(size)s MB, the most an import may be.") % {
        "size": megabytes
    }


def export_parts(total: int) -> list[tuple[int, int, int]]:
    """The files a household's games are exported in when one file would hold more than an
    upload takes (`MAX_GAMES`): each part's number and the first and last game it holds, as
    counted in the order they were stored. None when one file holds them all."""
    if total <= MAX_GAMES:
        return []
    starts = range(0, total, MAX_GAMES)
    return [(n, start + 1, min(start + MAX_GAMES, total)) for n, start in enumerate(starts, 1)]


def export_part(games, part: int):
    """The games of export part `part` (from 1): the `MAX_GAMES` stored after those of the
    parts before it; none when there is no such part."""
    if part < 1:
        return games.none()
    first = (part - 1) * MAX_GAMES
    keys = list(games.order_by("pk").values_list("pk", flat=True)[first : first + MAX_GAMES])
    if not keys:
        return games.none()
    return games.filter(pk__range=(keys[0], keys[-1]))


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
        "imported_from": game.imported_from or None,
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
    `spreadsheet_safe`, not only the names: an imported game's id may start with `-`. The
    rolls a turn used are blank where nobody counted them: a table game without saved
    rolls is never asked (the JSON keeps the three an import assumes)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for batch in _batches(games):
        for game in batch:
            counted = game["digital"] or families.Switch.SAVED_ROLLS.key in game["switches"]
            for entry in game["entries"]:
                row = [
                    game["id"], game["created"], game["mode"], game["joker"], game["digital"],
                    entry["turn"], game["players"][entry["seat"]]["name"], entry["card"],
                    entry["box"], entry["points"], entry["dice"], entry["yahtzee_bonus"],
                    entry["created"], game["family"], entry["rolls_used"] if counted else "",
                ]  # fmt: skip
                writer.writerow([spreadsheet_safe(cell) for cell in row])
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


# --- Import -------------------------------------------------------------------------------------


class ImportRefused(Refusal):
    """The file is not a good export; nothing was imported."""


class FaultAt(ImportRefused):
    """A fault at one place in the file, said in words (the game, a player's turn or a roll,
    the field), then as the path a program finds it by (`games[3].entries[7].points`). The
    players' names come in once the game's players are read (`named`)."""

    def __init__(self, where: str, problem: str, names: Sequence[str] = ()) -> None:
        self.where, self.problem = where, problem
        place = {"place": place_in_words(where, names), "problem": problem, "where": where}
        super().__init__(_("%(place)s: %(problem)s (in the file: %(where)s)") % place)

    def named(self, names: Sequence[str]) -> FaultAt:
        return FaultAt(self.where, self.problem, names)


# A path's steps: a key, with an index where it is a list's item (`entries[7]`).
PATH_STEP = re.compile(r"(\w+)(?:\[(\d+)\])?")


def place_in_words(where: str, names: Sequence[str] = ()) -> str:
    """A path in an export said as a person finds the place ("Game 4, round 2, Bob’s turn,
    ‘points’"): an entry by its round and player once the game's `names` are known."""
    said = []
    for key, index in PATH_STEP.findall(where):
        number = int(index) + 1 if index else 0
        if not number:
            said.append(_("‘%(field)s’") % {"field": key})
        elif key == "entries" and names:
            turn = {"round": round_of(number, len(names)), "name": names[(number - 1) % len(names)]}
            said.append(_("round %(round)s, %(name)s’s turn") % turn)
        else:
            said.append(ITEMS[key] % {"number": number})
    words = ", ".join(said)
    return words[:1].upper() + words[1:]


# A list's item by its number from 1, as the place of a fault ("game 4", "roll 2").
ITEMS = {
    "games": gettext_lazy("game %(number)s"),
    "entries": gettext_lazy("turn %(number)s"),
    "rolls": gettext_lazy("roll %(number)s"),
    "undone": gettext_lazy("undone box %(number)s"),
    "players": gettext_lazy("player %(number)s"),
}


def _refused(where: str, problem: str) -> ImportRefused:
    """A refusal naming the place in the file: the file as a whole, or a path in its JSON
    (`games[3].players`) said in words and as the path, since a program reads it as much as
    a person."""
    if where == _whole_file():  # a sentence of its own, after "Nothing was imported."
        said = _("%(where)s: %(problem)s") % {"where": where, "problem": problem}
        return ImportRefused(capfirst(said))
    return FaultAt(where, problem)


def _need(condition: bool, where: str, problem: str, **values: object) -> None:
    """`problem` is English marked with `gettext_noop`: it is translated only when refusing,
    so the many checks a real file passes cost no catalog lookup."""
    if not condition:
        raise _refused(where, _(problem) % values)


def _named[T](lookup: Callable[[str], T], key: str, where: str) -> T:
    """What `key` names by `lookup` (a joker rule, a family, a house rule, a box), or the
    engine's refusal, said at `where`."""
    try:
        return lookup(key)
    except families.RuleViolation as error:
        raise _refused(where, said(error)) from None


def _whole_file() -> str:
    """The place of a fault in the file as a whole (not in one of its games)."""
    return pgettext("the imported file, as the place of a fault in it", "file")


def _count(number: int) -> str:
    """A large count as the language groups its digits ("1 000 000" in Swedish)."""
    return number_format(number, force_grouping=True)


# What a field holds, as a refusal says it expected it.
EXPECTED = {
    str: gettext_noop("expected text."),
    int: gettext_noop("expected a whole number."),
    bool: gettext_noop("expected true or false."),
    list: gettext_noop("expected a list."),
    dict: gettext_noop("expected an object."),
}


def _field(data: dict, key: str, kind: type, where: str):
    _need(
        isinstance(data, dict) and key in data,
        where,
        gettext_noop("'%(key)s' is missing."),
        key=key,
    )
    value = data[key]
    ok = isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)
    _need(ok, f"{where}.{key}", EXPECTED[kind])
    return value


def _parse_time(value, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise _refused(where, _("not an ISO 8601 time.")) from None
    _need(parsed.tzinfo is not None, where, gettext_noop("a time needs its offset."))
    _need(parsed >= EARLIEST, where, gettext_noop("a time before the year 2000."))
    return parsed


# No game of ours is older; a time of the year 1 could not be compared with an hour's leeway.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)


MAX_OBJECTS = 1_000_000  # far more than 2,000 games hold; bounds what parsing may build


class _TooManyObjects(Exception):
    pass


CSV_IS_NOT_IMPORTED = gettext_lazy(
    "This is a CSV export, made for spreadsheets; it cannot be imported. Import a JSON "
    "export instead (Export all (JSON) on the games list)."
)


def _cut_short(error: json.JSONDecodeError) -> bool:
    """Whether the JSON is sound up to where the file stops: nothing after the fault but
    the start of a word (`tr`, `nul`), a minus sign or a decimal point, or a string left
    open to the end."""
    rest = error.doc[error.pos :].strip()
    started = any(word.startswith(rest) for word in ("true", "false", "null", "-", "."))
    return not rest or started or error.msg.startswith("Unterminated string")


def _is_our_csv(text: str | bytes) -> bool:
    """Whether the file starts with our CSV export's header row (a file chosen by mistake)."""
    header = ",".join(CSV_COLUMNS)
    start = text[: len(header) + 3]
    if isinstance(start, bytes):
        start = start.decode("utf-8", "replace")
    return start.lstrip("\ufeff").startswith(header)


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

    if not text.strip():  # said as it is, not as JSON that stops at its start (a tester)
        raise ImportRefused(_("This file is empty."))
    try:
        return json.loads(text, object_pairs_hook=counted)
    except _TooManyObjects:
        assert limit is not None
        too_many = ngettext(
            "more than %(count)s object; not an export.",
            "more than %(count)s objects; not an export.",
            limit,
        ) % {"count": _count(limit)}
        raise _refused(_whole_file(), too_many) from None
    except json.JSONDecodeError as error:
        if _is_our_csv(text):
            raise ImportRefused(str(CSV_IS_NOT_IMPORTED)) from None
        where = {"line": error.lineno, "column": error.colno}
        if _cut_short(error):
            raise ImportRefused(
                _(
                    "This file stops before its end (line %(line)s, column %(column)s): it "
                    "was not saved or sent whole. Export the games again."
                )
                % where
            ) from None
        raise ImportRefused(
            _("This is not JSON (line %(line)s, column %(column)s).") % where
        ) from None
    except UnicodeDecodeError:
        raise ImportRefused(_("This is not JSON: it is not text in UTF-8.")) from None
    except ValueError:  # a number too long to read, for one
        raise ImportRefused(_("This is not JSON.")) from None
    except RecursionError:
        raise ImportRefused(_("This JSON is nested too deeply to be an export.")) from None


def _check_document(document) -> list:
    # Said in a sentence, not at a place in the file: the file as a whole is not ours, and
    # the person who chose it wants to hear that, not a field's name ("file: the format…").
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(_("This file is not an export of this score card’s games."))
    if document.get("version") != VERSION:
        raise ImportRefused(
            _("This export was made by another version of the score card: only version "
              "%(version)s can be read.") % {"version": VERSION}
        )  # fmt: skip
    return _field(document, "games", list, _whole_file())


def _check_game(data, where: str) -> dict:
    """A game's data, checked field by field and card by card with the rules; the times
    come back parsed."""
    _need(isinstance(data, dict), where, EXPECTED[dict])
    public_id = _field(data, "id", str, where)
    _need(PUBLIC_ID.fullmatch(public_id) is not None, f"{where}.id", gettext_noop("not a game id."))
    mode = _field(data, "mode", str, where)
    _need(mode in Game.Mode.values, f"{where}.mode", gettext_noop("unknown mode."))
    joker = _named(rules.JokerRule.from_key, _field(data, "joker", str, where), f"{where}.joker")
    _field(data, "digital", bool, where)
    _whole(data, "version", where, 0, MAX_VERSION)
    _field(data, "household", str, where)
    origin = data.get("imported_from")
    origin_id = origin is None or (isinstance(origin, str) and PUBLIC_ID.fullmatch(origin))
    _need(bool(origin_id), f"{where}.imported_from", gettext_noop("not a game id."))
    household_id = PUBLIC_ID.fullmatch(data["household"]) is not None
    _need(household_id, f"{where}.household", gettext_noop("not a household id."))
    players = _check_players(data, where)
    checked = dict(data, players=players, joker=joker.key, imported_from=origin or "")
    try:
        return _check_play(checked, where, joker)
    except FaultAt as fault:  # said by round and player, now that their names are known
        raise fault.named([player["name"] for player in players]) from None


def _check_play(checked: dict, where: str, joker: rules.JokerRule) -> dict:
    """The rest of a game whose players are read: its rules, its entries by the rules,
    its rolls, its undone boxes and its times."""
    data, players = checked, checked["players"]
    house = _check_house_rules(data, where)
    cards = rules.cards_per_player(triple=data["mode"] == Game.Mode.TRIPLE)
    checked |= _house_fields(house)
    checked["entries"] = _check_entries(data, where, players, cards, joker, house)
    checked["rolls"] = _check_rolls(data, where, house)
    checked["undone"] = _check_undone(data, where, players, cards, house)
    checked["created"] = _required_time(data, "created", where)
    checked["finished"] = _parse_time(data.get("finished"), f"{where}.finished")
    _check_finished(checked, where, house.turns_per_player(cards) * len(players))
    _check_times(checked, where)
    return checked


# Another machine's clock may run a little ahead of this one's, and a game's finish is timed
# as its last box is written, a moment before or after that box's own time.
CLOCKS_APART = timedelta(hours=1)


def _check_times(game: dict, where: str) -> None:
    """A game's times in the order play makes them: begun, its boxes filled (then perhaps
    corrected), finished, none of them to come. A file saying otherwise listed a game "of 1
    Jan 2099" first of all, or finished before it began (found by a new user)."""
    latest = timezone.now() + CLOCKS_APART
    begun, finished = game["created"], game["finished"]
    _need(begun <= latest, f"{where}.created", gettext_noop("this time is still to come."))
    if finished is not None:
        _need(begun <= finished, f"{where}.finished", gettext_noop("before the game began."))
        _need(finished <= latest, f"{where}.finished", gettext_noop("this time is still to come."))
    for index, entry in enumerate(game["entries"]):
        at, made = f"{where}.entries[{index}].created", entry["created"]
        _need(begun - CLOCKS_APART <= made, at, gettext_noop("before the game began."))
        if finished is not None:
            _need(made <= finished + CLOCKS_APART, at, gettext_noop("after the game finished."))
        _need(made <= latest, at, gettext_noop("this time is still to come."))
        corrected, at = entry["corrected"], f"{where}.entries[{index}].corrected"
        if corrected is not None:  # a box is corrected after it is filled, never before
            _need(made <= corrected, at, gettext_noop("before the box was filled."))
            _need(corrected <= latest, at, gettext_noop("this time is still to come."))


def _check_finished(game: dict, where: str, turns: int) -> None:
    """A game is finished exactly when every turn is played, as a game played here is: a
    file saying otherwise would list a game as won that its page shows still going, or a
    full card as a game in progress."""
    played_out = len(game["entries"]) == turns
    if game["finished"] is not None:
        problem = gettext_noop("the game is marked finished, but not every turn was played.")
        _need(played_out, f"{where}.finished", problem)
    else:
        problem = gettext_noop("every turn was played, but the game has no finish time.")
        _need(not played_out, f"{where}.finished", problem)


MAX_HOUSE_BONUS = 1000  # far above any printed rule; keeps a typo from reaching the database


def _check_house_rules(data: dict, where: str) -> rules.HouseRules[Any]:
    """The rules a game's file names, checked by the engine; a file without them (written
    before rule families) is a Yahtzee game."""
    named = data.get("family", families.YAHTZEE.key)
    _need(isinstance(named, str), f"{where}.family", EXPECTED[str])
    family: families.Family[Any] = _named(families.family_named, named, f"{where}.family")
    switches = data.get("switches", [])
    listed = isinstance(switches, list) and all(isinstance(key, str) for key in switches)
    _need(listed, f"{where}.switches", gettext_noop("expected a list of house rules’ names."))
    switch = families.Switch.from_key
    chosen = frozenset(_named(switch, key, f"{where}.switches") for key in switches)
    forced = data.get("forced_order", False)
    _need(isinstance(forced, bool), f"{where}.forced_order", EXPECTED[bool])
    try:
        house = rules.HouseRules(family, chosen, _house_bonus(data, where), forced)
    except families.RuleViolation as error:
        raise _refused(where, said(error)) from None
    try:
        house.check_house_bonus()
    except families.RuleViolation as error:
        raise _refused(f"{where}.bonus_threshold", said(error)) from None
    if not family.has_jokers:  # Triple and Challenge are Yahtzee games
        standard = data["mode"] == Game.Mode.STANDARD
        _need(
            standard,
            f"{where}.mode",
            gettext_noop("%(game)s has no such mode."),
            game=family_name(family),
        )
    return house


def _house_bonus(data: dict, where: str) -> families.UpperBonus | None:
    """A table's own upper bonus, both its fields or neither (the engine checks the rest)."""
    threshold, points = data.get("bonus_threshold"), data.get("bonus_points")
    if threshold is None and points is None:
        return None
    # One without the other was refused as a number missing, in the field left alone.
    _need(
        threshold is not None and points is not None,
        f"{where}.{'bonus_points' if points is None else 'bonus_threshold'}",
        gettext_noop(
            "a bonus of the table’s own needs both ‘bonus_threshold’ and ‘bonus_points’, "
            "or neither."
        ),
    )
    return families.UpperBonus(
        _whole(data, "bonus_threshold", where, 0, MAX_HOUSE_BONUS),
        _whole(data, "bonus_points", where, 0, MAX_HOUSE_BONUS),
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
        raise _refused(f"{where}.{key}", _("a time is needed."))
    return parsed


def _check_players(data: dict, where: str) -> list[dict]:
    players = _field(data, "players", list, where)
    if not 1 <= len(players) <= MAX_PLAYERS:
        too_many = ngettext(
            "a game has 1 to %(most)s player.", "a game has 1 to %(most)s players.", MAX_PLAYERS
        ) % {"most": MAX_PLAYERS}
        raise _refused(f"{where}.players", too_many)
    names = [
        _field(player, "name", str, f"{where}.players[{i}]") for i, player in enumerate(players)
    ]
    # Said here, as the file's fault: `clean_names` would drop an empty name, or ask a form's
    # player to write one.
    _need(all(name.strip() for name in names), f"{where}.players", gettext_noop("a name is empty."))
    try:
        names = clean_names(names)
    except Refusal as refusal:
        raise _refused(f"{where}.players", str(refusal)) from None
    ids = [player.get("id") for player in players]
    ids = [i if isinstance(i, str) and PUBLIC_ID.fullmatch(i) else None for i in ids]
    return [{"id": i, "name": name} for i, name in zip(ids, names, strict=True)]


def _whole(data: dict, key: str, where: str, low: int, high: int) -> int:
    value = _field(data, key, int, where)
    if low == high:  # one player's seat, a card's only number: not "from 0 to 0"
        _need(value == low, f"{where}.{key}", gettext_noop("expected %(only)s."), only=low)
    _need(
        low <= value <= high,
        f"{where}.{key}",
        gettext_noop("expected a whole number from %(low)s to %(high)s."),
        low=low,
        high=high,
    )
    return value


def _box_and_dice(
    data: dict, where: str, house: rules.HouseRules[Any]
) -> tuple[Any, rules.Dice | None]:  # the family's own box type
    dice = _field(data, "dice", str, where)
    box = _named(house.family.box, _field(data, "box", str, where), f"{where}.box")
    try:
        parsed = house.family.parse_dice(dice) if dice else None
    except rules.RuleViolation as error:
        raise _refused(where, said(error)) from None
    if dice:  # as the database keeps them, not as a person may type them ("1 2,3 4 5")
        _need_digits(dice, "[1-6]", house.family.dice_count, f"{where}.dice")
    return box, parsed


def _check_entries(
    data: dict, where: str, players: list, cards: int, joker, house: rules.HouseRules[Any]
) -> list[dict]:
    entries = _field(data, "entries", list, where)
    most = house.turns_per_player(cards) * len(players)
    _need(len(entries) <= most, f"{where}.entries", gettext_noop("more turns than boxes."))
    by_card = defaultdict(list)
    rolls_by_seat: defaultdict[int, list[int]] = defaultdict(list)
    checked = []
    for index, entry in enumerate(entries):
        at = f"{where}.entries[{index}]"
        in_turn = _field(entry, "turn", int, at) == index + 1
        _need(in_turn, f"{at}.turn", gettext_noop("turns run 1, 2, 3 and so on."))
        seat = _whole(entry, "seat", at, 0, len(players) - 1)
        in_order = seat == index % len(players)
        _need(in_order, f"{at}.seat", gettext_noop("players take turns in order."))
        card = _whole(entry, "card", at, 1, cards)
        box, dice = _box_and_dice(entry, at, house)
        points = _whole(entry, "points", at, 0, house.max_points(box))
        bonus = rules.EXTRA_YAHTZEE_BONUS if _field(entry, "yahtzee_bonus", bool, at) else 0
        by_card[(seat, card)].append((index, rules.Entry(box, points, dice, bonus)))
        rolls_by_seat[seat].append(_rolls_used(entry, at))
        checked.append(
            dict(entry, created=_required_time(entry, "created", at))
            | {"corrected": _parse_time(entry.get("corrected"), f"{at}.corrected")}
            | {"rolls_used": rolls_by_seat[seat][-1]}
        )
    for (seat, card), written in by_card.items():
        card_entries = _with_earned_bonuses(written, checked, house, joker)
        try:
            house.check_card(card_entries, joker)
        except rules.RuleViolation as error:
            names = {"where": place_in_words(where), "name": players[seat]["name"]}
            names |= {"problem": said(error), "multiplier": rules.card_multiplier(card)}
            # A player of Triple Yahtzee has three cards, named as the page names them.
            refusal = (
                _("%(where)s, %(name)s’s card ×%(multiplier)s: %(problem)s")
                if cards > 1
                else _("%(where)s, %(name)s’s card: %(problem)s")
            )
            raise ImportRefused(refusal % names) from None
    for seat, used in rolls_by_seat.items():
        try:
            house.saved_rolls(used)
        except rules.RuleViolation as error:
            names = {"where": place_in_words(where), "name": players[seat]["name"]}
            names["problem"] = said(error)
            raise ImportRefused(_("%(where)s, %(name)s’s rolls: %(problem)s") % names) from None
    return checked


def _with_earned_bonuses(
    written: list[tuple[int, rules.Entry[Any]]],
    checked: list[dict],
    house: rules.HouseRules[Any],
    joker: rules.JokerRule,
) -> list[rules.Entry[Any]]:
    """A card's entries with the extra-Yahtzee bonus that typed points only five alike make
    earn, where an older version of ours left it out (only a tick claimed it then): the
    entry as written (`checked`) gets it too, marked `bonus_given` for the import to say."""
    card_entries = [entry for _, entry in written]
    given = house.with_earned_bonuses(card_entries, joker)
    for (index, entry), now in zip(written, given, strict=True):
        if now.bonus != entry.bonus:
            checked[index] |= {"yahtzee_bonus": True, "bonus_given": True}
    return given


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
        _need(key not in seen, at, gettext_noop("the same roll appears twice."))
        seen.add(key)
        _need_digits(_field(roll, "dice", str, at), "[1-6]", count, f"{at}.dice")
        _need_digits(_field(roll, "held", str, at), "[01]", count, f"{at}.held")
        checked.append(dict(roll, created=_required_time(roll, "created", at)))
    return checked


def _need_digits(text: str, digit: str, count: int, where: str) -> None:
    """A roll's dice (a face 1 to 6 each) or holds (0 or 1 each): `count` digits."""
    if re.fullmatch(f"{digit}{{{count}}}", text) is None:
        if digit == "[01]":
            problem = ngettext("%(count)s digit, 0 or 1.", "%(count)s digits, each 0 or 1.", count)
        else:
            problem = ngettext("%(count)s face from 1 to 6.", "%(count)s faces from 1 to 6.", count)
        raise _refused(where, problem % {"count": count})


def _check_undone(
    data: dict, where: str, players: list, cards: int, house: rules.HouseRules[Any]
) -> list[dict]:
    undone = data.get("undone", [])
    _need(isinstance(undone, list), f"{where}.undone", EXPECTED[list])
    checked = []
    for index, taken_back in enumerate(undone):
        at = f"{where}.undone[{index}]"
        _whole(taken_back, "seat", at, 0, len(players) - 1)
        _whole(taken_back, "turn", at, 1, MAX_VERSION)
        _whole(taken_back, "card", at, 1, cards)
        box, _dice = _box_and_dice(taken_back, at, house)
        if _field(taken_back, "points", int, at) not in house.achievable_points(box):
            raise _refused(f"{at}.points", _("%(box)s cannot hold that.") % {"box": box_name(box)})
        _field(taken_back, "yahtzee_bonus", bool, at)
        times = {key: _required_time(taken_back, key, at) for key in ("recorded", "undone")}
        checked.append(dict(taken_back, **times, rolls_used=_rolls_used(taken_back, at)))
    return checked


def read_games(document, *, max_games: int | None = MAX_GAMES) -> list[dict]:
    """Every game of an export, each field and card checked; `ImportRefused` names the
    first fault. Nothing here writes. `max_games=None` (a restore from the command line)
    takes a file of any size."""
    games = _check_document(document)
    if max_games is not None and len(games) > max_games:
        too_many = ngettext(
            "at most %(count)s game a file. With more games, the games page exports them in "
            "files of %(count)s: import each of them.",
            "at most %(count)s games a file. With more games, the games page exports them in "
            "files of %(count)s: import each of them.",
            max_games,
        ) % {"count": _count(max_games)}
        raise _refused(_whole_file(), too_many)
    games = [_check_game(game, f"games[{index}]") for index, game in enumerate(games)]
    ids = [game["id"] for game in games]
    _need(len(set(ids)) == len(ids), _whole_file(), gettext_noop("the same game appears twice."))
    return games
