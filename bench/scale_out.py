"""The scale-out test: two app machines on one database and one Redis, one of them lost
mid-game. Run by `make scale-out` (CI's PostgreSQL pass, with DATABASE_URL and REDIS_URL set).

Two gunicorn instances (standing for two machines) serve on two ports. Fifty simulated phones
each start a four-player game and play it to the end, every request going to the next
instance in turn, as a round-robin load balancer sends them; one record in ten is first sent
from a stale screen (it must get a 409) and one in ten is double-tapped. When a third of the
records are in, one instance is killed with SIGKILL (the machine is gone: no graceful stop)
and started again two seconds later. A phone whose request failed on the lost instance sends
it again to the other one, as a browser does: the game's version makes that safe.

Then, from one more client address, forty creation requests arrive at once, alternating
between the instances: exactly the creation limit (twenty here) may pass, not twice it.

At the end the database must hold exactly what each phone was told was recorded: no entry
lost, none doubled. Exit status 0 only when everything held.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

from load import LEGAL_BOX, ROOT, Tally, check_database

PORTS = (int(os.environ.get("SCALE_PORT", "8771")), int(os.environ.get("SCALE_PORT", "8771")) + 1)
GAMES, PLAYERS = int(os.environ.get("LOAD_GAMES", "50")), 4
TURNS = 13 * PLAYERS
CREATION_LIMIT, FLOOD = 20, 40
KILL_AFTER = GAMES * TURNS // 3  # records in before one instance is lost
LOST = (ConnectionError, http.client.HTTPException, OSError)


class Phone:
    """One browser behind a round-robin balancer: its cookies, its CSRF token, its address."""

    def __init__(self, address: str) -> None:
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.address = address
        self.turn = 0
        self.retried = 0

    def send(self, method: str, path: str, form: dict | None = None, htmx: bool = False):
        """The answer from the next instance; a request lost with its instance goes to the
        other one (never more than a few times: a phone gives up after 30 seconds)."""
        deadline = time.monotonic() + 30
        while True:
            port = PORTS[self.turn % 2]
            self.turn += 1
            try:
                return self._send_to(port, method, path, form, htmx)
            except LOST:
                self.retried += 1
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _send_to(self, port: int, method: str, path: str, form: dict | None, htmx: bool):
        headers = {
            "Host": "127.0.0.1",
            "X-Forwarded-Proto": "https",  # as behind the balancer that ends TLS
            "X-Forwarded-For": self.address,  # the hop the balancer appends
            "Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
        }
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.token,
                "Origin": "https://127.0.0.1",
                "Referer": f"https://127.0.0.1{path}",
            }
        if htmx:
            headers["HX-Request"] = "true"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        found = re.search(r'csrfmiddlewaretoken" value="([^"]+)"|X-CSRFToken": "([^"]+)"', text)
        if found:
            self.token = found.group(1) or found.group(2)
        return response.status, response.getheader("Location", ""), text


class Load(Tally):
    """The tally, and the moment to lose an instance."""

    def __init__(self) -> None:
        super().__init__()
        self.third_in = threading.Event()
        self.retries = 0

    def recorded_one(self) -> None:
        with self.lock:
            self.records.append(0.0)
            if len(self.records) >= KILL_AFTER:
                self.third_in.set()


def play_game(index: int, load: Load, recorded: dict) -> None:
    try:
        _play_game(index, load, recorded)
    except Exception as error:  # reported with the rest, so one broken phone is seen
        with load.lock:
            load.unexpected.append(f"game {index}: {error!r}")


def _play_game(index: int, load: Load, recorded: dict) -> None:
    rng = random.Random(index)
    phone = Phone(f"10.20.{index // 250}.{index % 250 + 1}")
    phone.turn = index  # the phones do not all start on the same instance
    status, _, _ = phone.send("GET", "/games/new/")
    load.count(status, "new game form", (200,))
    names = {f"name_{seat}": f"P{index}-{seat}" for seat in range(1, PLAYERS + 1)}
    form = names | {"joker": "hasbro", "mode": "standard", "dice": "table"}
    status, game_path, _ = phone.send("POST", "/games/new/", form)
    load.count(status, "start", (302,))
    status, _, page = phone.send("GET", game_path)
    load.count(status, "game page", (200,))
    version = int(re.search(r'name="version" value="(\d+)"', page).group(1))
    mine = []
    for turn in range(1, TURNS + 1):
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        status, _, panel = phone.send("GET", f"{game_path}?dice={dice}", htmx=True)
        load.count(status, "dice", (200,))
        box = rng.choice(re.findall(LEGAL_BOX, panel))
        form = {"version": version, "turn": turn, "box": box, "dice": dice, "confirm": "zero"}
        if version and rng.random() < 0.1:  # a stale screen: an old version gets the card
            status, _, _ = phone.send(
                "POST", f"{game_path}record/", form | {"version": version - 1}, htmx=True
            )
            load.count(status, "stale record", (409,))
        status, _, _ = phone.send("POST", f"{game_path}record/", form, htmx=True)
        load.count(status, "record", (200,))
        if rng.random() < 0.1:  # a double tap: the same record again is recorded once
            status, _, again = phone.send("POST", f"{game_path}record/", form, htmx=True)
            load.count(status, "double tap", (200,))
            if "already recorded" not in again:
                load.unexpected.append(f"game {index}: a double tap was recorded twice")
        load.recorded_one()
        mine.append((turn, box, dice))
        version += 1
    with load.lock:
        load.retries += phone.retried
    recorded[game_path.strip("/").split("/")[-1]] = mine


def start_instance(port: int, environment: dict) -> subprocess.Popen:
    """gunicorn in a session of its own, so the whole machine (master and workers) can be
    lost at once."""
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    command = [gunicorn, "-c", str(ROOT / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}"]
    server = subprocess.Popen(
        command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, start_new_session=True,
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
    raise SystemExit(f"gunicorn on {port} did not start: {server.stderr.read().decode()[-2000:]}")


def lose_machine(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGKILL)
    server.wait()


def flood_creations() -> Counter:
    """Forty new-game requests from one address at once, alternating between instances."""
    phones = [Phone("10.99.0.1") for _ in range(FLOOD)]
    for number, phone in enumerate(phones):
        phone.turn = number
        phone.send("GET", "/games/new/")
    form = {"name_1": "Flood", "joker": "hasbro", "mode": "standard", "dice": "table"}
    barrier = threading.Barrier(FLOOD)

    def create(phone: Phone) -> int:
        barrier.wait()
        return phone.send("POST", "/games/new/", form)[0]

    with ThreadPoolExecutor(FLOOD) as pool:
        return Counter(pool.map(create, phones))


def main() -> None:
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not os.environ.get(name):
            raise SystemExit(f"error: set {name} (one PostgreSQL and one Redis for both machines)")
    folder = Path(tempfile.mkdtemp(prefix="yahtzee-scale-"))
    environment = os.environ | {
        "DJANGO_SECRET_KEY": "scale-out-" + "x" * 50,
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_TRUST_FORWARDED_FOR": "1",
        "CREATION_LIMIT": str(CREATION_LIMIT),
        "GUNICORN_ACCESS_LOG": "",
        "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", "3"),
        "STRATEGY_DATA_DIR": str(folder),
        "DJANGO_SETTINGS_MODULE": "yahtzee.settings",
    }
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=environment, check=True
        )
    servers = [start_instance(port, environment) for port in PORTS]
    load, recorded = Load(), {}
    started = time.perf_counter()
    try:
        phones = [
            threading.Thread(target=play_game, args=(i, load, recorded)) for i in range(GAMES)
        ]
        for phone in phones:
            phone.start()
        load.third_in.wait(timeout=600)
        lose_machine(servers[1])
        lost_at = len(load.records)
        time.sleep(2)
        servers[1] = start_instance(PORTS[1], environment)
        for phone in phones:
            phone.join(timeout=900)
        seconds = time.perf_counter() - started
        creations = flood_creations()
    finally:
        for server in servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=30)
    report(load, recorded, creations, lost_at, seconds, environment)


def report(load, recorded, creations, lost_at, seconds, environment) -> None:
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(load.statuses.items()))
    print(f"Two instances, one PostgreSQL, one Redis: {GAMES} games, {seconds:.0f} s")
    print(f"  one instance lost (SIGKILL) after {lost_at} records and started again 2 s later")
    print(f"  answers: {statuses}; requests sent again to the other instance: {load.retries}")
    for problem in load.unexpected[:10]:
        print("  unexpected:", problem)
    problems = check_database(environment, recorded)
    print(f"  database: {len(recorded)} games finished by their phones, {len(problems)} differ")
    for problem in problems[:10]:
        print("   ", problem)
    allowed = creations.get(302, 0)
    refused = creations.get(429, 0)
    print(f"  creation limit {CREATION_LIMIT}: {FLOOD} at once from one address,")
    print(f"  {allowed} allowed, {refused} refused (every answer: {dict(creations)})")
    held = allowed == CREATION_LIMIT and refused == FLOOD - CREATION_LIMIT
    ok = not problems and not load.unexpected and len(recorded) == GAMES and held
    print("PASSED" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
