"""A load test: gunicorn on loopback, 50 four-player games played to the end at once.

Each game is a simulated phone in a thread of its own: it starts the game, then for every
turn asks the card what the dice are worth and records a legal box, as the htmx page does.
Some phones double-tap (the same record sent twice) and some send from a stale screen (an
old version first, which must get a 409). Every record carries its tap's key
(Idempotency-Key), and one in five (LOAD_DROP, 0.2) has its answer lost on the way back: the
phone closes the connection without reading it and sends the tap again with the same key,
which must answer with the tap's outcome, never "already recorded". At the end the database
must hold exactly the entries the phones recorded: 0 lost, 0 doubled. Run by a person, not
in CI:

    .venv/bin/python bench/load.py                      # SQLite in a temporary folder
    DATABASE_URL=postgres://... .venv/bin/python bench/load.py

It prints requests per second, the p50/p95/p99 of a record, and the answers by status.
"""

import http.client
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("LOAD_PORT", "8765"))
GAMES, PLAYERS = int(os.environ.get("LOAD_GAMES", "50")), 4
TURNS = 13 * PLAYERS
DROP = float(os.environ.get("LOAD_DROP", "0.2"))  # records whose answer is lost
DEADLINE = 900  # seconds: the test stops by itself
LEGAL_BOX = r'<button name="box" value="(\w+)" class="box-option[^"]*"(?! disabled)'


class Phone:
    """One browser: its cookies, the CSRF token of the last page, and a connection."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)

    def send(self, method: str, path: str, form: dict | None = None, htmx=False, key=""):
        headers = {
            "Host": f"127.0.0.1:{PORT}",
            "X-Forwarded-Proto": "https",  # as behind the TLS proxy of a deployment
            "Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
        }
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.token,
                "Origin": f"https://127.0.0.1:{PORT}",
                "Referer": f"https://127.0.0.1:{PORT}{path}",
            }
        if htmx:
            headers["HX-Request"] = "true"
        if key:
            headers["Idempotency-Key"] = key
        started = time.perf_counter()
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode()
        elapsed = time.perf_counter() - started
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        found = re.search(r'csrfmiddlewaretoken" value="([^"]+)"|X-CSRFToken": "([^"]+)"', text)
        if found:
            self.token = found.group(1) or found.group(2)
        return response.status, response.getheader("Location", ""), text, elapsed

    def lose_answer(self, path: str, form: dict, key: str) -> None:
        """Send a tap and hang up before its answer, as a phone whose Wi-Fi drops does."""
        headers = {
            "Host": f"127.0.0.1:{PORT}",
            "X-Forwarded-Proto": "https",
            "Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": self.token,
            "Origin": f"https://127.0.0.1:{PORT}",
            "Referer": f"https://127.0.0.1:{PORT}{path}",
            "HX-Request": "true",
            "Idempotency-Key": key,
        }
        self.connection.request("POST", path, body=urlencode(form, doseq=True), headers=headers)
        self.connection.close()
        self.connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter = Counter()
        self.requests = 0
        self.records: list[float] = []
        self.dropped = 0
        self.unexpected: list[str] = []

    def count(self, status: int, what: str, expected: tuple[int, ...]) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[status] += 1
            if status not in expected:
                self.unexpected.append(f"{what}: {status}")


def play_game(index: int, tally: Tally, recorded: dict) -> None:
    try:
        _play_game(index, tally, recorded)
    except Exception as error:  # reported with the rest, so one broken phone is seen
        with tally.lock:
            tally.unexpected.append(f"game {index}: {error!r}")


def _play_game(index: int, tally: Tally, recorded: dict) -> None:
    rng = random.Random(index)
    phone = Phone()
    status, _, _, _ = phone.send("GET", "/games/new/")
    tally.count(status, "new game form", (200,))
    names = {f"name_{seat}": f"P{index}-{seat}" for seat in range(1, PLAYERS + 1)}
    form = names | {"joker": "hasbro", "mode": "standard", "dice": "table"}
    status, location, _, _ = phone.send("POST", "/games/new/", form)
    tally.count(status, "start", (302,))
    game_path = location
    status, _, page, _ = phone.send("GET", game_path)
    tally.count(status, "game page", (200,))
    version = int(re.search(r'name="version" value="(\d+)"', page).group(1))
    mine = []
    for turn in range(1, TURNS + 1):
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        status, _, panel, _ = phone.send("GET", f"{game_path}?dice={dice}", htmx=True)
        tally.count(status, "dice", (200,))
        legal = re.findall(LEGAL_BOX, panel)
        box = rng.choice(legal)
        form = {"version": version, "turn": turn, "box": box, "dice": dice, "confirm": "zero"}
        if version and rng.random() < 0.1:  # a stale screen: an old version gets the card
            stale = form | {"version": version - 1}
            status, _, _, _ = phone.send("POST", f"{game_path}record/", stale, htmx=True)
            tally.count(status, "stale record", (409,))
        key = str(uuid.uuid4())
        if rng.random() < DROP:  # the answer is lost; the outbox sends the tap again
            phone.lose_answer(f"{game_path}record/", form, key)
            with tally.lock:
                tally.dropped += 1
        path = f"{game_path}record/"
        status, _, answer, elapsed = phone.send("POST", path, form, htmx=True, key=key)
        tally.count(status, "record", (200,))
        if "already recorded" in answer:  # a tap's own key answers with its own outcome
            tally.unexpected.append("a resent tap was answered as another tap's double")
        with tally.lock:
            tally.records.append(elapsed)
        if rng.random() < 0.1:  # a double tap: the same record again is recorded once
            status, _, again, _ = phone.send("POST", f"{game_path}record/", form, htmx=True)
            tally.count(status, "double tap", (200,))
            if "already recorded" not in again:
                tally.unexpected.append("double tap recorded twice")
        mine.append((turn, box, dice))
        version += 1
    recorded[game_path.strip("/").split("/")[-1]] = mine


def start_server(environment: dict) -> subprocess.Popen:
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    command = [gunicorn, "-c", str(ROOT / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{PORT}"]
    server = subprocess.Popen(
        command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request("GET", "/rules/")
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"gunicorn did not start: {server.stderr.read().decode()[-2000:]}")


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


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="yahtzee-load-"))
    environment = os.environ | {
        "DJANGO_SECRET_KEY": "load-test-" + "x" * 50,
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "CREATION_LIMIT": "100000",
        "GUNICORN_ACCESS_LOG": "",
        "STRATEGY_DATA_DIR": str(folder),
        "DJANGO_SETTINGS_MODULE": "yahtzee.settings",
    }
    environment.setdefault("DATABASE_URL", f"sqlite:///{folder / 'load.sqlite3'}")
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        manage = [sys.executable, "manage.py", *command]
        subprocess.run(manage, cwd=ROOT, env=environment, check=True)
    server = start_server(environment)
    tally, recorded = Tally(), {}
    try:
        started = time.perf_counter()
        phones = [
            threading.Thread(target=play_game, args=(index, tally, recorded))
            for index in range(GAMES)
        ]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join(timeout=max(1, DEADLINE - (time.perf_counter() - started)))
        seconds = time.perf_counter() - started
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    records = sorted(tally.records) or [0.0]
    cut = lambda q: records[min(len(records) - 1, int(q * len(records)))] * 1000  # noqa: E731
    vendor = "PostgreSQL" if environment["DATABASE_URL"].startswith("postgres") else "SQLite"
    print(f"{vendor}, gunicorn, {GAMES} games of {PLAYERS} players at once, {seconds:.1f} s")
    print(f"{tally.dropped} of {len(tally.records)} records lost their answer and were sent again")
    print("| requests/s | record p50 | p95 | p99 | answers by status | unexpected |")
    print("| ---: | ---: | ---: | ---: | --- | ---: |")
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(tally.statuses.items()))
    print(
        f"| {tally.requests / seconds:.0f} | {statistics.median(records) * 1000:.0f} ms "
        f"| {cut(0.95):.0f} ms | {cut(0.99):.0f} ms | {statuses} | {len(tally.unexpected)} |"
    )
    for problem in tally.unexpected[:10]:
        print("  unexpected:", problem)
    problems = check_database(environment, recorded)
    finished = len(recorded)
    print(f"database: {finished} games finished by their phones, {len(problems)} differ")
    for problem in problems[:10]:
        print("  ", problem)
    sys.exit(1 if problems or tally.unexpected or finished != GAMES else 0)


if __name__ == "__main__":
    main()
