"""Simulated phones for the load runs (`load.py`, `scale_out.py`): each plays a four-player
game to the end over HTTP, as the htmx page does, against one gunicorn or several.

A phone asks the card what its dice are worth and records a legal box. Some taps come from a
stale screen first (an old version: it must get a 409), some are double-tapped (the same
record again: "already recorded"), and with `drop` some lose their answer on the way back and
are sent again with the same Idempotency-Key, as the outbox does (the tap's own outcome must
come back). What each phone was told was recorded is kept, and `check_database` compares it
with the database afterwards: 0 lost, 0 doubled.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 4
TURNS = 13 * PLAYERS
LEGAL_BOX = r'<button name="box" value="(\w+)" class="box-option[^"]*"(?! disabled)'
LOST = (ConnectionError, http.client.HTTPException, OSError)
Answer = tuple[int, str, str, float]  # status, Location, body, seconds


class Phone:
    """One browser: its cookies, the CSRF token of the last page and the address it is seen
    from. Behind a round-robin balancer each request goes to the next port; a request lost
    with its instance is sent to the next one, as a browser retries (for 30 s at most)."""

    def __init__(self, ports: Sequence[int], address: str = "", first: int = 0) -> None:
        self.ports = ports
        self.address = address
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.turn = first  # phones need not all start on the same instance
        self.retried = 0

    def send(self, method: str, path: str, form=None, htmx=False, key="") -> Answer:
        deadline = time.monotonic() + 30
        while True:
            port = self.ports[self.turn % len(self.ports)]
            self.turn += 1
            try:
                return self._send_to(port, method, path, form, htmx, key)
            except LOST:
                self.retried += 1
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def lose_answer(self, path: str, form: dict, key: str) -> None:
        """Send a tap and hang up before its answer, as a phone whose Wi-Fi drops does."""
        port = self.ports[self.turn % len(self.ports)]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = self._headers(path, form, htmx=True, key=key)
        connection.request("POST", path, body=urlencode(form, doseq=True), headers=headers)
        connection.close()

    def _headers(self, path: str, form, htmx: bool, key: str) -> dict[str, str]:
        headers = {
            "Host": "127.0.0.1",
            "X-Forwarded-Proto": "https",  # as behind the proxy that ends TLS
            "Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
        }
        if self.address:
            headers["X-Forwarded-For"] = self.address  # the hop the balancer appends
        if form is not None:
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.token,
                "Origin": "https://127.0.0.1",
                "Referer": f"https://127.0.0.1{path}",
            }
        if htmx:
            headers["HX-Request"] = "true"
        if key:
            headers["Idempotency-Key"] = key
        return headers

    def _send_to(self, port: int, method: str, path: str, form, htmx: bool, key: str) -> Answer:
        body = None if form is None else urlencode(form, doseq=True)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        started = time.perf_counter()
        try:
            connection.request(
                method, path, body=body, headers=self._headers(path, form, htmx, key)
            )
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        elapsed = time.perf_counter() - started
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        # A form's own token, else Django's cookie, which a page's scripts send (htmx-settings.js).
        found = re.search(r'csrfmiddlewaretoken" value="([^"]+)"', text)
        if found:
            self.token = found.group(1)
        elif "csrftoken" in self.cookies:
            self.token = self.cookies["csrftoken"]
        return response.status, response.getheader("Location", ""), text, elapsed


class Tally:
    """What every phone saw: answers by status, each record's time, the surprises."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter = Counter()
        self.requests = 0
        self.records: list[float] = []
        self.dropped = 0
        self.retries = 0
        self.unexpected: list[str] = []

    def count(self, status: int, what: str, expected: tuple[int, ...]) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[status] += 1
            if status not in expected:
                self.unexpected.append(f"{what}: {status}")

    def recorded_one(self, seconds: float) -> None:
        with self.lock:
            self.records.append(seconds)


def play_game(index: int, phone: Phone, tally: Tally, recorded: dict, drop: float = 0.0) -> None:
    """One phone's whole game; whatever breaks is reported with the rest, so one broken
    phone is seen rather than ending the run."""
    try:
        _play_game(index, phone, tally, recorded, drop)
    except Exception as error:
        with tally.lock:
            tally.unexpected.append(f"game {index}: {error!r}")
    with tally.lock:
        tally.retries += phone.retried


def _play_game(index: int, phone: Phone, tally: Tally, recorded: dict, drop: float) -> None:
    rng = random.Random(index)
    status, *_ = phone.send("GET", "/games/new/")
    tally.count(status, "new game form", (200,))
    names = {f"name_{seat}": f"P{index}-{seat}" for seat in range(1, PLAYERS + 1)}
    form = names | {"joker": "hasbro", "mode": "standard", "dice": "table"}
    status, game_path, *_ = phone.send("POST", "/games/new/", form)
    tally.count(status, "start", (302,))
    status, _, page, _ = phone.send("GET", game_path)
    tally.count(status, "game page", (200,))
    # The card's version, as live.js reads it (no form holds one before the first entry).
    version = int(re.search(r'data-version="(\d+)"', page).group(1))
    record = f"{game_path}record/"
    mine = []
    for turn in range(1, TURNS + 1):
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        status, _, panel, _ = phone.send("GET", f"{game_path}?dice={dice}", htmx=True)
        tally.count(status, "dice", (200,))
        box = rng.choice(re.findall(LEGAL_BOX, panel))
        form = {"version": version, "turn": turn, "box": box, "dice": dice, "confirm": "zero"}
        if version and rng.random() < 0.1:  # a stale screen: an old version gets the card
            status, *_ = phone.send("POST", record, form | {"version": version - 1}, htmx=True)
            tally.count(status, "stale record", (409,))
        key = str(uuid.uuid4())
        if rng.random() < drop:  # the answer is lost; the outbox sends the tap again
            phone.lose_answer(record, form, key)
            with tally.lock:
                tally.dropped += 1
        status, _, answer, seconds = phone.send("POST", record, form, htmx=True, key=key)
        tally.count(status, "record", (200,))
        if "already recorded" in answer:  # a tap's own key answers with its own outcome
            tally.unexpected.append(f"game {index}: a resent tap was taken for a double")
        if rng.random() < 0.1:  # a double tap: the same record again is recorded once
            status, _, again, _ = phone.send("POST", record, form, htmx=True)
            tally.count(status, "double tap", (200,))
            if "already recorded" not in again:
                tally.unexpected.append(f"game {index}: a double tap was recorded twice")
        tally.recorded_one(seconds)
        mine.append((turn, box, dice))
        version += 1
    recorded[game_path.strip("/").split("/")[-1]] = mine


def play_games(phones: list[Phone], tally: Tally, recorded: dict, drop: float = 0.0):
    """A thread per phone, each playing its own game; started, not joined."""
    threads = [
        threading.Thread(target=play_game, args=(index, phone, tally, recorded, drop))
        for index, phone in enumerate(phones)
    ]
    for thread in threads:
        thread.start()
    return threads


def prepare(environment: dict) -> None:
    """The database and static files an instance serves, as a deployment prepares them."""
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=environment, check=True
        )


def server_environment(name: str, folder: Path, **settings: str) -> dict[str, str]:
    """What a bench's gunicorn runs with: the production settings with debug off, on
    loopback, a secret key of its own, its tables in `folder`, no access log, no limit on
    new games; then `settings` on top."""
    return (
        dict(os.environ)
        | {
            "DJANGO_SECRET_KEY": f"{name}-" + "x" * 50,
            "DJANGO_DEBUG": "0",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "CREATION_LIMIT": "100000",
            "GUNICORN_ACCESS_LOG": "",
            "STRATEGY_DATA_DIR": str(folder),
            "DJANGO_SETTINGS_MODULE": "yahtzee.settings",
        }
        | settings
    )


def start_gunicorn(
    port: int, environment: dict, config: Path = ROOT / "gunicorn.conf.py"
) -> subprocess.Popen:
    """gunicorn on loopback, in a session of its own (so a whole machine, master and workers,
    can be lost at once), once its health check answers. Its log goes to a file: a pipe
    nobody reads fills after 64 KB of log and then blocks every worker that writes to it."""
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    command = [gunicorn, "-c", str(config), "--bind", f"127.0.0.1:{port}"]
    log = Path(tempfile.gettempdir()) / f"yahtzee-gunicorn-{port}.log"
    with log.open("ab") as stderr:
        server = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL,
            stderr=stderr, start_new_session=True,
        )  # fmt: skip
    for _ in range(150):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            if connection.getresponse().status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.kill()
    raise SystemExit(f"gunicorn on {port} did not start: {log.read_text()[-2000:]}")


def check_database(environment: dict, recorded: dict) -> list[str]:
    """Every game holds exactly the entries its phone recorded, read by Django itself."""
    os.environ.update(environment)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from scorecard.models import Entry

    problems = []
    for public_id, mine in recorded.items():
        stored = list(
            Entry.objects.filter(game__public_id=public_id)
            .order_by("turn")
            .values_list("turn", "box", "dice")
        )
        expected = [(turn, box, "".join(sorted(dice))) for turn, box, dice in mine]
        if stored != expected:
            problems.append(f"game {public_id}: {len(stored)} entries stored, {len(mine)} recorded")
    return problems
