"""Export and import of games: JSON that round-trips exactly, and CSV for spreadsheets.

The JSON format (version 1), one object:

    {"format": "yahtzee-scorecard/games", "version": 1, "games": [GAME, ...]}

    GAME = {"id", "household", "mode", "joker", "digital", "version", "created", "finished",
            "players": [{"id", "name"}, ...],          # in seating order
            "entries": [{"turn", "seat", "card", "box", "points", "dice", "yahtzee_bonus",
                         "created", "corrected"}, ...],  # seat: index into players
            "rolls": [{"turn", "number", "dice", "held", "created"}, ...],
            "undone": [{"turn", "seat", "card", "box", "points", "dice", "yahtzee_bonus",
                        "recorded", "undone"}, ...]}       # entries taken back with undo

Times are ISO 8601 with their offset; `finished` and `corrected` may be null. An import
checks every card with the rules engine and writes nothing unless the whole file is good.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from datetime import datetime

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from scorecard import rules
from scorecard.households import current_household, household_for_writing
from scorecard.models import Entry, Game, Household, Player, Roll, Seat, UndoneEntry
from scorecard.views import household_game

FORMAT = "yahtzee-scorecard/games"
UNDONE_FIELDS = ("turn", "card", "box", "points", "dice", "yahtzee_bonus")
VERSION = 1
MAX_IMPORT_BYTES = 20 * 1024 * 1024
CSV_COLUMNS = [
    "game", "game_created", "mode", "joker", "digital", "turn", "player", "card", "box",
    "points", "dice", "yahtzee_bonus", "created",
]  # fmt: skip


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_games(games) -> dict:
    """Games as the JSON document above, in five queries however many there are."""
    games = list(games.select_related("owner").order_by("created", "pk"))
    ids = [game.pk for game in games]
    seats, entries, rolls = defaultdict(list), defaultdict(list), defaultdict(list)
    undone = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=ids).select_related("player"):
        seats[seat.game_id].append(seat)
    for entry in Entry.objects.filter(game_id__in=ids).order_by("turn"):
        entries[entry.game_id].append(entry)
    for roll in Roll.objects.filter(game_id__in=ids).order_by("turn", "number"):
        rolls[roll.game_id].append(roll)
    for taken_back in UndoneEntry.objects.filter(game_id__in=ids).order_by("undone", "pk"):
        undone[taken_back.game_id].append(taken_back)
    return {
        "format": FORMAT,
        "version": VERSION,
        "games": [
            _game_data(g, seats[g.pk], entries[g.pk], rolls[g.pk], undone[g.pk]) for g in games
        ],
    }


def _game_data(game: Game, seats, entries, rolls, undone) -> dict:
    seat_index = {seat.pk: index for index, seat in enumerate(seats)}
    return {
        "id": game.public_id,
        "household": game.owner.public_id,
        "mode": game.mode,
        "joker": game.joker,
        "digital": game.digital,
        "version": game.version,
        "created": _time(game.created),
        "finished": _time(game.finished),
        "players": [{"id": seat.player.public_id, "name": seat.player.name} for seat in seats],
        "entries": [
            {
                "turn": e.turn,
                "seat": seat_index[e.seat_id],
                "card": e.card,
                "box": e.box,
                "points": e.points,
                "dice": e.dice,
                "yahtzee_bonus": e.yahtzee_bonus,
                "created": _time(e.created),
                "corrected": _time(e.corrected),
            }
            for e in entries
        ],
        "rolls": [
            {"turn": r.turn, "number": r.number, "dice": r.dice, "held": r.held}
            | {"created": _time(r.created)}
            for r in rolls
        ],
        "undone": [
            {key: getattr(u, key) for key in UNDONE_FIELDS}
            | {"seat": seat_index[u.seat_id], "recorded": _time(u.recorded)}
            | {"undone": _time(u.undone)}
            for u in undone
        ],
    }


def export_csv(document: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in document["games"]:
        for entry in game["entries"]:
            writer.writerow(
                [
                    game["id"], game["created"], game["mode"], game["joker"], game["digital"],
                    entry["turn"], game["players"][entry["seat"]]["name"], entry["card"],
                    entry["box"], entry["points"], entry["dice"], entry["yahtzee_bonus"],
                    entry["created"],
                ]
            )  # fmt: skip
    return out.getvalue()


# --- Import -------------------------------------------------------------------------------------


class ImportRefused(ValueError):
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


def parse_document(text: str | bytes) -> dict:
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise ImportRefused(f"This is not JSON: {error}.") from None
    except RecursionError:
        raise ImportRefused("This JSON is nested too deeply to be an export.") from None


def _check_document(document) -> list:
    _need(isinstance(document, dict), "file", "expected a JSON object.")
    _need(document.get("format") == FORMAT, "file", f"the format is not {FORMAT!r}.")
    _need(document.get("version") == VERSION, "file", f"only version {VERSION} is understood.")
    return _field(document, "games", list, "file")


def _check_game(data: dict, where: str) -> dict:
    """A game's data, checked field by field and card by card with the rules."""
    public_id = _field(data, "id", str, where)
    _need(0 < len(public_id) <= 32, f"{where}.id", "expected 1 to 32 characters.")
    _need(_field(data, "mode", str, where) in Game.Mode.values, f"{where}.mode", "unknown mode.")
    try:
        joker = rules.JokerRule.from_key(_field(data, "joker", str, where))
    except ValueError as error:
        raise ImportRefused(f"{where}.joker: {error}") from None
    _field(data, "digital", bool, where)
    _field(data, "version", int, where)
    players = _field(data, "players", list, where)
    _need(1 <= len(players) <= 8, f"{where}.players", "a game has 1 to 8 players.")
    for index, player in enumerate(players):
        name = _field(player, "name", str, f"{where}.players[{index}]")
        _need(0 < len(name.strip()) <= 40, f"{where}.players[{index}].name", "1 to 40 letters.")
    cards = 3 if data["mode"] == Game.Mode.TRIPLE else 1
    entries = _field(data, "entries", list, where)
    by_card = defaultdict(list)
    for index, entry in enumerate(entries):
        at = f"{where}.entries[{index}]"
        _need(_field(entry, "turn", int, at) == index + 1, f"{at}.turn", "turns run 1, 2, 3...")
        seat = _field(entry, "seat", int, at)
        _need(0 <= seat < len(players), f"{at}.seat", "no such player.")
        _need(seat == index % len(players), f"{at}.seat", "players take turns in order.")
        card = _field(entry, "card", int, at)
        _need(1 <= card <= cards, f"{at}.card", "no such card.")
        dice = _field(entry, "dice", str, at)
        try:
            box = rules.Box.from_key(_field(entry, "box", str, at))
            parsed = rules.parse_dice(dice) if dice else None
        except ValueError as error:
            raise ImportRefused(f"{at}: {error}") from None
        bonus = rules.EXTRA_YAHTZEE_BONUS if _field(entry, "yahtzee_bonus", bool, at) else 0
        by_card[(seat, card)].append(
            rules.Entry(box, _field(entry, "points", int, at), parsed, bonus)
        )
        _parse_time(entry.get("created"), f"{at}.created")
        _parse_time(entry.get("corrected"), f"{at}.corrected")
    _need(len(entries) <= 13 * cards * len(players), f"{where}.entries", "more turns than boxes.")
    for (seat, card), card_entries in by_card.items():
        try:
            rules.check_card(card_entries, joker)
        except ValueError as error:
            raise ImportRefused(
                f"{where}, {players[seat]['name']}'s card {card}: {error}"
            ) from None
    for index, roll in enumerate(_field(data, "rolls", list, where)):
        at = f"{where}.rolls[{index}]"
        _need(1 <= _field(roll, "number", int, at) <= 3, f"{at}.number", "1 to 3.")
        _field(roll, "turn", int, at)
        _need(len(_field(roll, "dice", str, at)) == 5, f"{at}.dice", "five faces.")
        _need(set(roll["dice"]) <= set("123456"), f"{at}.dice", "faces are 1 to 6.")
        _need(len(_field(roll, "held", str, at)) == 5 and set(roll["held"]) <= {"0", "1"},
              f"{at}.held", "five 0s and 1s.")  # fmt: skip
    for index, taken_back in enumerate(data.get("undone", [])):
        at = f"{where}.undone[{index}]"
        _need(
            0 <= _field(taken_back, "seat", int, at) < len(players), f"{at}.seat", "no such player."
        )
        _need(
            _field(taken_back, "box", str, at) in {b.key for b in rules.Box},
            f"{at}.box",
            "no such box.",
        )
        for key in ("turn", "card", "points"):
            _field(taken_back, key, int, at)
        _field(taken_back, "dice", str, at)
        _field(taken_back, "yahtzee_bonus", bool, at)
        _parse_time(taken_back.get("recorded"), f"{at}.recorded")
        _parse_time(taken_back.get("undone"), f"{at}.undone")
    _parse_time(data.get("created"), f"{where}.created")
    _parse_time(data.get("finished"), f"{where}.finished")
    return data


def import_games(document: dict, owner: Household | None = None) -> list[Game]:
    """Restore every game of a checked document, or none. With an owner, the games become
    that household's (an upload); without, each keeps the household it names (a backup)."""
    games = [_check_game(g, f"games[{i}]") for i, g in enumerate(_check_document(document))]
    ids = [game["id"] for game in games]
    _need(len(set(ids)) == len(ids), "file", "the same game appears twice.")
    present = list(Game.objects.filter(public_id__in=ids).values_list("public_id", flat=True))
    _need(not present, "file", f"game {present[0] if present else ''} is already here.")
    with transaction.atomic():
        return [_restore(game, owner) for game in games]


def _restore(data: dict, owner: Household | None) -> Game:
    if owner is None:
        owner, _ = Household.objects.get_or_create(public_id=data["household"])
    game = Game.objects.create(
        owner=owner,
        public_id=data["id"],
        mode=data["mode"],
        joker=data["joker"],
        digital=data["digital"],
        version=data["version"],
    )
    Game.objects.filter(pk=game.pk).update(
        created=_parse_time(data["created"], "created") or game.created,
        finished=_parse_time(data["finished"], "finished"),
    )
    seats = [
        Seat.objects.create(game=game, player=_player(owner, player), position=index)
        for index, player in enumerate(data["players"])
    ]
    for entry in data["entries"]:
        created = Entry.objects.create(
            game=game,
            seat=seats[entry["seat"]],
            **{key: entry[key] for key in ("turn", "card", "box", "points", "dice")},
            yahtzee_bonus=entry["yahtzee_bonus"],
            corrected=_parse_time(entry.get("corrected"), "corrected"),
        )
        if entry.get("created"):
            Entry.objects.filter(pk=created.pk).update(created=_parse_time(entry["created"], ""))
    for taken_back in data.get("undone", []):
        kept = UndoneEntry.objects.create(
            game=game,
            seat=seats[taken_back["seat"]],
            **{key: taken_back[key] for key in UNDONE_FIELDS},
            recorded=_parse_time(taken_back["recorded"], "recorded"),
        )
        UndoneEntry.objects.filter(pk=kept.pk).update(
            undone=_parse_time(taken_back["undone"], "undone")
        )
    for roll in data["rolls"]:
        made = Roll.objects.create(
            game=game, **{k: roll[k] for k in ("turn", "number", "dice", "held")}
        )
        if roll.get("created"):
            Roll.objects.filter(pk=made.pk).update(created=_parse_time(roll["created"], ""))
    return game


def _player(owner: Household, data: dict) -> Player:
    name = " ".join(data["name"].split())
    found = owner.players.filter(name__iexact=name).first()
    if found:
        return found
    public_id = data.get("id")
    if not isinstance(public_id, str) or Player.objects.filter(public_id=public_id).exists():
        return Player.objects.create(owner=owner, name=name)
    return Player.objects.create(owner=owner, name=name, public_id=public_id)


# --- Views --------------------------------------------------------------------------------------


def _download(document: dict, fmt: str, filename: str) -> HttpResponse:
    if fmt == "json":
        body, kind = json.dumps(document, indent=2, ensure_ascii=False), "application/json"
    elif fmt == "csv":
        body, kind = export_csv(document), "text/csv"
    else:
        raise Http404("Exports are JSON or CSV.")
    response = HttpResponse(body, content_type=f"{kind}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response


@require_GET
def export_one(request: HttpRequest, public_id: str, fmt: str) -> HttpResponse:
    game = household_game(request, public_id)
    document = export_games(Game.objects.filter(pk=game.pk))
    return _download(document, fmt, f"yahtzee-{game.created:%Y-%m-%d}-{public_id[:6]}")


@require_GET
def export_all(request: HttpRequest, fmt: str) -> HttpResponse:
    household = current_household(request)
    games = Game.objects.filter(owner=household) if household else Game.objects.none()
    return _download(export_games(games), fmt, "yahtzee-games")


@require_http_methods(["GET", "POST"])
def import_view(request: HttpRequest) -> HttpResponse:
    error, status = "", 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            _need(upload is not None, "file", "choose a JSON export to import.")
            _need(upload.size <= MAX_IMPORT_BYTES, "file", "larger than 20 MB.")
            games = import_games(parse_document(upload.read()), household_for_writing(request))
            return redirect(f"{redirect('games').url}?imported={len(games)}")
        except ImportRefused as refused:
            error, status = f"Nothing was imported. {refused}", 400
    return render(request, "import.html", {"error": error}, status=status)
