"""The cost of the requests a table makes, side by side in one process run.

Every figure is the median server time of a request through the whole middleware stack
(Django's test client, debug off), and its ratio to the *ceiling*: a constant page through
the same middleware, measured interleaved with the others so a busy machine slows both.
The time is the process's CPU time (the test client, the view and SQLite all run in it),
not the wall clock: on a machine shared with other work, wall times swing by 3x while CPU
times hold within a few percent. `--wall` times the wall clock instead.

Run: make bench  (or .venv/bin/python bench/requests_bench.py [--rounds N] [--wall]
[--only tabletop,polls,...]: some groups of rows, e.g. to compare two trees in turns)
"""

import argparse
import gzip
import os
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-key")
os.environ["DJANGO_DEBUG"] = "0"
os.environ.setdefault("DJANGO_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.urls_settings")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import django_setup  # noqa: E402,F401  (starts Django on a test database)
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.client import ClientHandler  # noqa: E402
from django.urls import reverse  # noqa: E402
from query_count import QueryCount  # noqa: E402

from scorecard.engine import rules  # noqa: E402
from scorecard.engine.families import MAXI, YATZY  # noqa: E402
from scorecard.game import services  # noqa: E402
from scorecard.models import Household  # noqa: E402
from tests.helpers import CHROMIUM_ENCODINGS, browser_of  # noqa: E402
from tests.helpers import first_load as measure_first_load  # noqa: E402
from tests.views.test_first_load import (  # noqa: E402
    FIRST_LOAD_GOAL,
)

HTMX = {"HX-Request": "true"}
# One handler for every phone the bench makes: a test client loads the middleware on its
# first request, and whitenoise's scan of the static files (about 40 ms) then landed in
# that request's figure (the "slowest" column), which no server pays per phone.
HANDLER = ClientHandler(enforce_csrf_checks=False)  # as a test client's own


def phone(household: Household | None = None) -> Client:
    """A browser of `household` (or of no household), on the bench's one handler."""
    client = browser_of(household) if household is not None else Client()
    client.handler = HANDLER
    return client


# Issue 21's goals, as the most a request may cost in ceilings; a row past its goal is marked.
GOALS = {
    "record a box (htmx), 4 players": 5,
    "record a box (htmx), 8 players": 6,
    "game page, 4 players": 6,
    "game page, 4 players, another phone": 6,
    "live poll, unchanged: watch link": 1.3,
    "live poll, unchanged: the household": 1.3,
    "live poll after an entry: watch link, 4 players": 4,
    "live poll after an entry: another watcher, 4 players": 4,
    "record with advice on (Win column, 4 players)": 10,
    "record with advice on (Win column, 8 players)": 12,
    "games list (20 a page), 1,000 games": 20,
    "players list, 1,000 games": 20,
}
WIN_COLUMN_GOAL_MS = 5  # issue 21: the Win column for 8 players, its own work
# Issue 21: a list at 10,000 games costs at most this much more than at 1,000.
GROWTH_GOAL = 1.1
# Issue 21: a player page while 10,000 finished games wait for `settle_results`, at most.
WAITING_PAGE_GOAL_MS = 1000
FORM = "application/x-www-form-urlencoded"  # what htmx and a browser's form post send
DICE = "12346"  # scores something in most boxes, never an extra Yahtzee


@dataclass
class Figure:
    times: list[float] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    zipped: list[int] = field(default_factory=list)


def htmx_post(client, url: str, data: dict):
    """A tap as the page sends it: url-encoded, with a fresh key of its own (outbox.js), so
    the key's check and its rows are counted as a phone's tap pays for them."""
    headers = {**HTMX, "Idempotency-Key": secrets.token_urlsafe(16)}
    return client.post(url, urlencode(data, doseq=True), content_type=FORM, headers=headers)


class Bench:
    def __init__(self, clock=time.process_time) -> None:
        self.figures: dict[str, Figure] = {}
        self.clock = clock
        self.ceiling_client = phone(Household.objects.create())

    def measure(self, name: str, send, expect=(200,)):
        """One request, timed; a ceiling request is timed beside it every time."""
        self._timed("ceiling", lambda: self.ceiling_client.get("/__ceiling__/"), (200,))
        return self._timed(name, send, expect)

    def _timed(self, name, send, expect):
        figure = self.figures.setdefault(name, Figure())
        counted = QueryCount()
        with connection.execute_wrapper(counted):
            started = self.clock()
            response = send()
            figure.times.append((self.clock() - started) * 1000)
        assert response.status_code in expect, (name, response.status_code, response.content[:300])
        figure.queries.append(counted.queries)
        body = b"".join(response) if response.streaming else response.content
        figure.sizes.append(len(body))
        figure.zipped.append(len(gzip.compress(body, 6)))
        return response

    def table(self) -> str:
        ceiling = statistics.median(self.figures["ceiling"].times)
        lines = [
            "| request | median ms | × ceiling | goal "
            "| slowest ms | queries | bytes | gzip bytes |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for name, figure in self.figures.items():
            median = statistics.median(figure.times)
            ratio, queries = median / ceiling, _span(figure.queries)
            goal = GOALS.get(name)
            said = "" if goal is None else f"≤ {goal:g}" + (" **missed**" if ratio > goal else "")
            lines.append(
                f"| {name} | {median:.2f} | {ratio:.1f} | {said} | {max(figure.times):.1f} "
                f"| {queries} | {_span(figure.sizes)} | {_span(figure.zipped)} |"
            )
        return "\n".join(lines)


def _span(values: list[int]) -> str:
    low, high = min(values), max(values)
    return f"{low}" if low == high else f"{low}–{high}"


def play_tabletop(
    bench: Bench,
    players: int,
    quarters: bool = False,
    house: services.HouseSettings = services.STANDARD_HOUSE,
) -> None:
    """A whole game by htmx records; every 4th turn also times the game page, opened by the
    first phone after the entry (which draws the grid for the new version) and then by
    another phone of the household (which is served the kept drawing)."""
    household = Household.objects.create()
    names = [f"Player {i}" for i in range(1, players + 1)]
    game = services.game_create(owner=household, names=names, house=house)
    client, other_phone = phone(household), phone(household)
    record_url = reverse("game-record", args=[game.public_id])
    page_url = reverse("game", args=[game.public_id])
    family = house.house_rules().family
    boxes = [*family.upper_boxes, *family.lower_boxes]
    dice = (DICE + "6")[: family.dice_count]
    total = len(boxes) * players
    of_family = "" if family.has_jokers else f", {family.name}"
    for turn in range(1, total + 1):
        box = boxes[(turn - 1) // players]
        data = {"version": turn - 1, "turn": turn, "box": box.key, "dice": dice, "card": 1}
        data["confirm"] = "zero"
        name = f"record a box (htmx), {players} player{'s' * (players > 1)}{of_family}"
        if quarters:
            if turn <= total // 4:
                name = f"record, first quarter, {players} players"
            elif turn > total - total // 4:
                name = f"record, last quarter, {players} players"
            else:
                name = None
        if name:
            bench.measure(name, lambda data=data: htmx_post(client, record_url, data))
        else:
            htmx_post(client, record_url, data)
        if not quarters and turn % 4 == 2:
            page = f"game page, {players} player{'s' * (players > 1)}{of_family}"
            bench.measure(page, lambda: client.get(page_url))
            bench.measure(f"{page}, another phone", lambda: other_phone.get(page_url))


def undo_and_redo(bench: Bench, rounds: int) -> None:
    household = Household.objects.create()
    game = services.game_create(owner=household, names=["Ann", "Bob", "Cy", "Di"])
    client = phone(household)
    record_url = reverse("game-record", args=[game.public_id])
    undo_url = reverse("game-undo", args=[game.public_id])
    version = 0
    for turn in range(1, 21):  # some history first
        box = list(rules.Box)[(turn - 1) // 4]
        data = {"version": version, "turn": turn, "box": box.key, "dice": DICE, "confirm": "zero"}
        htmx_post(client, record_url, data)
        version += 1
    for _ in range(rounds):
        bench.measure("undo (htmx), 4 players", lambda v=version: htmx_post(
            client, undo_url, {"version": v}))  # fmt: skip
        version += 1
        data = {"version": version, "turn": 20, "box": "fives", "dice": DICE, "confirm": "zero"}
        htmx_post(client, record_url, data)
        version += 1


def digital_rolls(bench: Bench, turns: int) -> None:
    household = Household.objects.create()
    game = services.game_create(owner=household, names=["Dee"], digital=True)
    client = phone(household)
    roll_url = reverse("game-roll", args=[game.public_id])
    record_url = reverse("game-record", args=[game.public_id])
    version = 0
    for turn, box in zip(range(1, turns + 1), rules.Box, strict=False):
        for number in range(rules.ROLLS_PER_TURN):
            data = {"version": version, "turn": turn, "hold": ["0", "1"] if number else []}
            bench.measure("digital roll (htmx)", lambda d=data: htmx_post(client, roll_url, d))
            version += 1
        data = {"version": version, "turn": turn, "box": box.key, "confirm": "zero"}
        htmx_post(client, record_url, data)
        version += 1


def history_pages(bench: Bench, rounds: int) -> None:
    household = Household.objects.create()
    from tests.factories import bulk_finished_games

    games = bulk_finished_games(household, ["Ann", "Bob", "Cy", "Di"], 60)
    client = phone(household)
    review_url = reverse("game-review", args=[games[0].public_id])
    for _ in range(rounds):
        bench.measure("review, 4 players", lambda: client.get(review_url))


def lists_at_scale(bench: Bench, rounds: int) -> str:
    """The games list (a page of 20: two games going, then the newest finished) and the
    players list of two households of four players, one with 1,000 finished games and one
    with 10,000, measured in turns so that a change in the machine's load weighs on both
    alike; then a player page while the 10,000 wait for `settle_results` (as an upgrade
    from a version that kept no results leaves them), and that command's time. Returns the
    growth lines, each beside its goal."""
    import io

    from django.core.management import call_command

    from scorecard.game import results
    from scorecard.models import Player, PlayerBoxTotal, PlayerFigures, Seat
    from tests.factories import bulk_finished_games, play_on

    empty = phone(Household.objects.create())
    for _ in range(rounds):  # the page around a list, with nothing in it: the lists' floor
        bench.measure("players list, no players (the page alone)", lambda: empty.get(
            reverse("players")))  # fmt: skip
    names = ["Ann", "Bob", "Cy", "Di"]
    clients, households = {}, {}
    for count in (1000, 10_000):
        print(f"(making {count:,} finished four-player games for the lists)", flush=True)
        household = Household.objects.create()
        bulk_finished_games(household, names, count, seed=count)
        for turns in (5, 30):  # two games going, which the list shows first
            play_on(services.game_create(owner=household, names=names), turns=turns)
        clients[count], households[count] = phone(household), household
    lists = {"games list (20 a page)": reverse("games"), "players list": reverse("players")}
    for name, url in lists.items():
        for client in clients.values():
            client.get(url)  # a first read, so every timed one finds the same warm caches
        for _ in range(rounds):
            for count, client in clients.items():
                bench.measure(f"{name}, {count:,} games", lambda c=client, u=url: c.get(u))
    lines = []
    for name in lists:
        small = statistics.median(bench.figures[f"{name}, 1,000 games"].times)
        large = statistics.median(bench.figures[f"{name}, 10,000 games"].times)
        verdict = "met" if large / small <= GROWTH_GOAL else "MISSED"
        lines.append(f"| {name}, 10,000 against 1,000 games | {large / small:.2f}× "
                     f"| ≤ {GROWTH_GOAL:g}× | {verdict} |")  # fmt: skip
    players = Player.objects.filter(owner=households[10_000])
    Seat.objects.filter(player__in=players).update(**dict.fromkeys(results.SETTLED_FIELDS))
    PlayerFigures.objects.filter(player__in=players).delete()
    PlayerBoxTotal.objects.filter(player__in=players).delete()
    ann = reverse("player", args=[players.get(name="Ann").public_id])
    waiting = Bench(time.perf_counter)  # a bound in time a person waits: the wall clock
    for _ in range(rounds):
        waiting.measure("player page", lambda: clients[10_000].get(ann))
    page = max(waiting.figures["player page"].times)
    verdict = "met" if page < WAITING_PAGE_GOAL_MS else "MISSED"
    lines.append(f"| player page, 10,000 finished games waiting to be settled (slowest, wall) "
                 f"| {page:.1f} ms, {waiting.figures['player page'].queries[-1]} queries "
                 f"| < {WAITING_PAGE_GOAL_MS:,} ms | {verdict} |")  # fmt: skip
    started = time.perf_counter()
    call_command("settle_results", stdout=io.StringIO())
    settled = time.perf_counter() - started
    lines.append(f"| settle_results, those 10,000 games, in batches of "
                 f"{results.SETTLE_BATCH} (wall) | {settled:.1f} s | | |")  # fmt: skip
    return "\n".join(["| figure | now | goal | |", "| --- | ---: | ---: | --- |", *lines])


def live_polls(bench: Bench, rounds: int) -> None:
    """What the phones that follow a 4-player game cost: an unchanged poll (a 304, the
    common case) and a poll after an entry (the page one entry behind: the entry's changes):
    the first watcher's draws them for the new version, another watcher's is served that
    drawing. And a page two entries behind, which gets every region, drawn for the version."""

    from scorecard.access import sharing
    from scorecard.models import LinkRole

    household = Household.objects.create()
    game = services.game_create(owner=household, names=["Ann", "Bob", "Cy", "Di"])
    owner = phone(household)
    watch = reverse("watch", args=[sharing.link_renew(game=game, role=LinkRole.WATCH).token])
    watcher, other_watcher = phone(), phone()
    record_url = reverse("game-record", args=[game.public_id])
    owner_url = reverse("game", args=[game.public_id])
    live = {"live": "1"}
    for turn in range(1, rounds + 1):
        seen = {"If-None-Match": f'"{turn - 1}"'} | HTMX
        bench.measure("live poll, unchanged: watch link", lambda h=seen: watcher.get(
            watch, live, headers=h), expect=(304,))  # fmt: skip
        bench.measure("live poll, unchanged: the household", lambda h=seen: owner.get(
            owner_url, live, headers=h), expect=(304,))  # fmt: skip
        box = list(rules.Box)[(turn - 1) // 4]
        data = {"version": turn - 1, "turn": turn, "box": box.key, "dice": DICE, "confirm": "zero"}
        htmx_post(owner, record_url, data)
        bench.measure("live poll after an entry: watch link, 4 players", lambda h=seen: (
            watcher.get(watch, live, headers=h)))  # fmt: skip
        bench.measure("live poll after an entry: another watcher, 4 players", lambda h=seen: (
            other_watcher.get(watch, live, headers=h)))  # fmt: skip
        if turn > 1:  # a page two entries behind gets every region (drawn for the version)
            behind = {"If-None-Match": f'"{turn - 2}"'} | HTMX
            bench.measure("live poll two entries behind: watch link, 4 players", lambda h=behind: (
                phone().get(watch, live, headers=h)))  # fmt: skip


def with_advice(bench: Bench, players: int) -> None:
    """A game played with advice on: every record redraws the standings with the Win column
    for a new version (each player's chance to win worked out afresh), and the game page
    reads it from the cache."""
    _standard_policy_tables()
    household = Household.objects.create()
    game = services.game_create(owner=household, names=[f"P{i}" for i in range(players)])
    client = phone(household)
    client.cookies["advice"] = "on"
    record_url = reverse("game-record", args=[game.public_id])
    page_url = reverse("game", args=[game.public_id])
    total = len(rules.Box) * players
    for turn in range(1, total + 1):
        box = list(rules.Box)[(turn - 1) // players]
        data = {"version": turn - 1, "turn": turn, "box": box.key, "dice": DICE, "confirm": "zero"}
        name = f"record with advice on (Win column, {players} players)"
        if turn > total - 3 * players:
            name = f"record with advice on, last 3 rounds (exact win chances), {players} players"
        bench.measure(name, lambda d=data: htmx_post(client, record_url, d))
        if turn % players == 2:
            bench.measure(
                f"game page with advice on (cached Win column), {players} players",
                lambda: client.get(page_url),
            )


def _standard_policy_tables() -> None:
    from scorecard.engine import distribution, strategy

    joker = rules.JokerRule.HASBRO
    if not distribution.is_ready(joker):
        print("(building the standard rule's tables for the advice rows: about a minute)")
        strategy.load(joker)
        distribution.build(joker)


def win_column_alone(players: int = 8, seed: int = 21) -> list[float]:
    """The Win column's own work (CPU ms) for each version of a whole game of `players`, each
    filling the boxes in an order of their own with seeded random dice: every player's
    chance to win worked out from the game as read back, the exact late-game distributions
    kept from version to version as a server's process keeps them (a version changes one
    player's card)."""
    import random

    from scorecard.game.progress import load_progress
    from scorecard.presenters.advisor import chances_to_win

    _standard_policy_tables()
    rng = random.Random(seed)
    household = Household.objects.create()
    game = services.game_create(owner=household, names=[f"P{i}" for i in range(players)])
    client = phone(household)
    record_url = reverse("game-record", args=[game.public_id])
    orders = [rng.sample(list(rules.Box), len(rules.Box)) for _ in range(players)]
    times = []
    for turn in range(1, len(rules.Box) * players + 1):
        dice = "".join(str(rng.randint(1, 6)) for _ in range(4)) + str(rng.randint(1, 5))
        box = orders[(turn - 1) % players][(turn - 1) // players]
        data = {"version": turn - 1, "turn": turn, "box": box.key, "dice": dice, "confirm": "zero"}
        assert htmx_post(client, record_url, data).status_code == 200, data
        game.refresh_from_db()
        cards = [seat.cards[0] for seat in load_progress(game).seats]
        started = time.process_time()
        chances_to_win(cards, game)
        times.append((time.process_time() - started) * 1000)
    return times


def win_column_table(times: list[float]) -> str:
    median, slowest = statistics.median(times), max(times)
    verdict = "met" if median <= WIN_COLUMN_GOAL_MS else "**missed**"
    return "\n".join(
        [
            "| figure | median ms | 90th percentile ms | slowest ms | goal |",
            "| --- | ---: | ---: | ---: | --- |",
            f"| Win column alone, 8 players, each version of a game (CPU) | {median:.2f} "
            f"| {sorted(times)[int(0.9 * (len(times) - 1))]:.2f} | {slowest:.2f} "
            f"| median ≤ {WIN_COLUMN_GOAL_MS} ms: {verdict} |",
        ]
    )


def first_load(bench: Bench) -> str:
    """The bytes a phone downloads to open a 4-player game page the first time, as the test
    that guards them counts (tests/helpers.py `first_load`, tests/views/test_first_load.py):
    the page and the manifest as the middleware compresses them for Chromium, each static
    file minified (ours) and compressed as collectstatic leaves it for whitenoise; not the
    service worker (after the page's load) nor the home-screen icon. In English (issue 21's
    goal), German and French (the heaviest languages), each beside its goal and the 22,000
    of every language (issues 20 and 23) that the test asserts."""
    household = Household.objects.create()
    game = services.game_create(owner=household, names=["Ann", "Bob", "Cy", "Di"])
    lines = ["| first load of a 4-player game page, bytes on the wire | now | goal (asserted) | |"]
    lines.append("| --- | ---: | ---: | --- |")
    parts = []
    for language in ("en", "de", "fr"):
        reader = phone(household)
        reader.defaults["HTTP_ACCEPT_LANGUAGE"] = language
        sizes = measure_first_load(reader, reverse("game", args=[game.public_id]))
        total, goal = sum(sizes.values()), FIRST_LOAD_GOAL.get(language, FIRST_LOAD_GOAL["other"])
        verdict = "met" if total <= goal else "MISSED"
        lines.append(f"| {language} | {total:,} | ≤ {goal:,} | {verdict} |")
        names = {url: url.rsplit("/", 2)[-1] for url in sizes}
        names[next(iter(sizes))] = "the page"
        parts.append(f"{language}: " + ", ".join(f"{names[u]} {n:,}" for u, n in sizes.items()))
    _compressed_pages(bench, household, reverse("game", args=[game.public_id]))
    return "\n".join([*lines, "", "The first load: " + "; ".join(parts) + "."])


def _compressed_pages(bench: Bench, household: Household, url: str, rounds: int = 10) -> None:
    """What compressing a page costs (the other rows are not compressed): a phone's first
    page at brotli's quality 11, every later one at 5 (web/compression.py)."""
    later = phone(household)
    later.get(url)  # sets the CSRF cookie: from now on its pages are later pages
    for _ in range(rounds):
        first = phone(household)
        assert "csrftoken" not in first.cookies, "a phone's first page: no CSRF cookie yet"
        bench.measure(
            "game page, 4 players, brotli 5 (a page after the first)",
            lambda: later.get(url, headers={"Accept-Encoding": CHROMIUM_ENCODINGS}),
        )
        bench.measure(
            "game page, 4 players, brotli 11 (a phone's first page)",
            lambda first=first: first.get(url, headers={"Accept-Encoding": CHROMIUM_ENCODINGS}),
        )


def token_cost() -> str:
    """What carrying the CSRF token in every form of a fragment costs (issue 24): the answer
    to a 4-player record as sent, against the same answer with the token fields taken out."""
    import re

    household = Household.objects.create()
    game = services.game_create(owner=household, names=["Ann", "Bob", "Cy", "Di"])
    client = phone(household)
    data = {"version": 0, "turn": 1, "box": "chance", "dice": DICE}
    body = htmx_post(client, reverse("game-record", args=[game.public_id]), data).content
    fields = re.findall(rb'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>', body)
    bare = re.sub(rb'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>', b"", body)
    raw = len(body) - len(bare)
    zipped = len(gzip.compress(body, 6)) - len(gzip.compress(bare, 6))
    return (
        f"CSRF tokens in a record's answer (4 players): {len(fields)} forms, "
        f"{raw:,} bytes, {zipped:,} gzip bytes."
    )


# The groups of rows `--only` picks from, each a few rows of the table below.
GROUPS = (
    "tabletop", "quarters", "families", "undo", "digital", "review", "lists", "polls",
    "advice", "first-load",
)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument(
        "--games", type=int, default=1, help="play each table's game this many times"
    )
    # On a machine shared under load, wall time mostly measures the other processes; the
    # process's own CPU time (both sides of the ratio alike) stays comparable between runs.
    parser.add_argument("--wall", action="store_true", help="time the wall clock, not CPU")
    parser.add_argument("--lists", action="store_true", help="only the lists at scale")
    parser.add_argument(
        "--only",
        type=lambda text: set(text.split(",")),
        default=set(GROUPS),
        help=f"only these groups of rows, separated by commas: {', '.join(GROUPS)}",
    )
    args = parser.parse_args()
    if args.lists:
        args.only = {"lists"}
    if unknown := args.only - set(GROUPS):
        parser.error(f"no such group: {', '.join(sorted(unknown))}")
    bench = Bench(time.perf_counter if args.wall else time.process_time)
    for _ in range(20):  # warm-up: template loading, first connections
        bench.ceiling_client.get("/__ceiling__/")
    # A game of one player, not counted: the first drawing of each template and the first
    # look-ups a worker keeps would otherwise land in the first rows' figures alone.
    play_tabletop(Bench(bench.clock), 1)
    run = args.only.__contains__
    if run("tabletop"):
        for players in (1, 4, 8):
            for _ in range(args.games):  # a 1-player game is 13 records: more, steadier
                play_tabletop(bench, players)
    if run("quarters"):
        play_tabletop(bench, 4, quarters=True)
        play_tabletop(bench, 8, quarters=True)
    if run("families"):
        for family in (YATZY, MAXI):  # the other families' cards: the same goals as Yahtzee's
            play_tabletop(bench, 4, house=services.HouseSettings(family.key))
    if run("undo"):
        undo_and_redo(bench, args.rounds)
    if run("digital"):
        digital_rolls(bench, 6)
    if run("review"):
        history_pages(bench, args.rounds)
    at_scale = lists_at_scale(bench, args.rounds) if run("lists") else ""
    if run("polls"):
        live_polls(bench, min(args.rounds, 40))
    win_column = []
    if run("advice"):
        for players in (4, 8):
            with_advice(bench, players)
        win_column = win_column_alone()
    loaded = f"{first_load(bench)}\n{token_cost()}" if run("first-load") else ""
    clock = "wall time" if args.wall else "CPU time"
    if "ceiling" in bench.figures:
        print(f"Requests on {connection.vendor}, debug off, {clock}; ceiling = a constant page:")
        print(bench.table())
    for part in (win_column and win_column_table(win_column), at_scale):
        if part:
            print()
            print(part)
    if loaded:
        print()
        print(loaded)


if __name__ == "__main__":
    main()
